"""The card reader's cost per frame in multiply-adds, and what it means for frames per second on a Raspberry Pi.

Speed cannot be measured without a Pi, so it is estimated: the reader's multiply-adds per frame (the finder
once or twice, the corner classifier once per corner crop, the face reader once per face crop, counted from
the ONNX graphs by shape inference and the crops the demo recording really needs), divided by the
multiply-add rate a Pi reaches on a comparable published model (Ultralytics' Raspberry Pi benchmarks of
YOLOv8n), plus the work outside the networks (letterbox, crops, NMS, the tracker), measured here and scaled
by the same ratio.

    .venv-train/bin/python -m lab.pi_speed [--frames N]

Needs the ``onnx`` package (the [train] extra) for the graph count; the frame profile runs the shipped reader.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.face_reader import face_reader_path_for

REPO = Path(__file__).resolve().parents[1]
MODELS = REPO / "models"
DEMO_VIDEO = REPO / "companion" / "data" / "demo" / "table.mp4"

# Ultralytics' published Raspberry Pi benchmarks (docs "Quick Start Guide: Raspberry Pi with Ultralytics
# YOLO11", benchmark tables; summarised in ref/pi-platform.md): YOLOv8n detection, 640 px, FP32, ms per
# image, inference only. YOLOv8n is 8.7 GFLOPs at 640 (Ultralytics' model table), i.e. 4.35 G multiply-adds.
YOLOV8N_MACS = 4.35e9
PUBLISHED_MS = {
    ("Pi 5", "ONNX Runtime"): 199.0,
    ("Pi 5", "NCNN"): 94.0,
    ("Pi 4", "ONNX Runtime"): 560.0,
    ("Pi 4", "NCNN"): 415.0,
}


def conv_macs(node: Any, shapes: dict[str, list[int]]) -> int:
    """Multiply-adds of one Conv / ConvTranspose / Gemm / MatMul node from its inferred shapes (0: unknown)."""
    import math

    out = shapes.get(node.output[0])
    if not out:
        return 0
    if node.op_type in ("Conv", "ConvTranspose"):
        weight = shapes.get(node.input[1])
        if not weight:
            return 0
        # Conv weight (Cout, Cin/group, kH, kW): each output element costs Cin/group * kH * kW.
        # ConvTranspose weight (Cin, Cout/group, kH, kW): each input element spreads to Cout/group * kH * kW.
        if node.op_type == "Conv":
            return math.prod(out) * math.prod(weight[1:])
        inp = shapes.get(node.input[0])
        return math.prod(inp) * math.prod(weight[1:]) if inp else 0
    if node.op_type in ("Gemm", "MatMul"):
        a = shapes.get(node.input[0])
        if not a:
            return 0
        trans_a = any(attr.name == "transA" and attr.i for attr in node.attribute)
        inner = a[-2] if (node.op_type == "Gemm" and trans_a) else a[-1]
        return math.prod(out) * inner
    return 0


def count_macs(path: Path, batch: int = 1) -> tuple[int, dict[str, int]]:
    """Total multiply-adds of one run of the model at batch ``batch`` (other dims as stored), and per op type."""
    import onnx
    from onnx import shape_inference

    model = onnx.load(str(path))
    for inp in model.graph.input:
        dims = inp.type.tensor_type.shape.dim
        if dims and (dims[0].dim_param or dims[0].dim_value <= 0):
            dims[0].dim_value = batch
    model = shape_inference.infer_shapes(model)
    shapes: dict[str, list[int]] = {}
    for value in [*model.graph.input, *model.graph.value_info, *model.graph.output]:
        dims = [d.dim_value for d in value.type.tensor_type.shape.dim]
        if dims and all(d > 0 for d in dims):
            shapes[value.name] = dims
    for init in model.graph.initializer:
        shapes[init.name] = list(init.dims)
    per_op: dict[str, int] = {}
    for node in model.graph.node:
        macs = conv_macs(node, shapes)
        if macs:
            per_op[node.op_type] = per_op.get(node.op_type, 0) + macs
    return sum(per_op.values()), per_op


@dataclass
class FrameProfile:
    """What the shipped reader does on the demo recording's first frames (one intra-op thread)."""

    frames: int
    finder_runs: int
    crops: int
    faces: int  # face crops the face reader read (0 without one)
    ms_per_frame: float
    ms_in_networks: float  # per frame, inside ONNX Runtime
    changed: int  # frames whose cards (name and rounded place) differ from the frame before's

    @property
    def crops_per_frame(self) -> float:
        return self.crops / self.frames

    @property
    def faces_per_frame(self) -> float:
        return self.faces / self.frames

    @property
    def finder_runs_per_frame(self) -> float:
        return self.finder_runs / self.frames


class _Counting:
    """An ONNX Runtime session that counts its runs, the batch it is given and the time it takes."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.runs = 0
        self.items = 0
        self.seconds = 0.0

    def run(self, outputs: Any, feeds: dict[str, Any]) -> Any:
        self.runs += 1
        self.items += int(next(iter(feeds.values())).shape[0])
        start = time.perf_counter()
        try:
            return self.session.run(outputs, feeds)
        finally:
            self.seconds += time.perf_counter() - start

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)


def profile_frames(frames: int, video: Path = DEMO_VIDEO) -> FrameProfile:
    """Run the shipped reader over the first ``frames`` frames of the demo recording, counting its work."""
    import cv2
    import numpy as np
    import numpy.typing as npt

    from vision.models import default_model_path
    from vision.onnx_detector import OnnxDetector

    detector = OnnxDetector(default_model_path(), threads=1)
    assert detector.classifier is not None
    finder = _Counting(detector.session)
    classifier = _Counting(detector.classifier.session)
    detector.session = finder
    detector.classifier.session = classifier
    unenrolled = None
    if detector.classifier.unenrolled_session is not None:  # the demo reads without a profile
        unenrolled = _Counting(detector.classifier.unenrolled_session)
        detector.classifier.unenrolled_session = unenrolled
    face = None
    if detector.classifier.face is not None:
        face = _Counting(detector.classifier.face.session)
        detector.classifier.face.session = face
    counters = [c for c in (finder, classifier, unenrolled, face) if c is not None]
    capture = cv2.VideoCapture(str(video))
    images: list[npt.NDArray[np.uint8]] = []
    for _ in range(frames):
        ok, image = capture.read()
        if not ok:
            break
        images.append(np.asarray(image, np.uint8))
    if not images:
        raise SystemExit(f"pi_speed: no frames in {video}")
    detector.detect(images[0], 0)  # warm up, not counted
    for counter in counters:
        counter.runs = counter.items = 0
        counter.seconds = 0.0
    start = time.perf_counter()
    seen: list[frozenset[tuple[str, int, int]]] = []
    for number, image in enumerate(images):
        cards = detector.detect(image, number)
        seen.append(frozenset((str(d.card), round(d.box[0] / 20), round(d.box[1] / 20)) for d in cards))
    elapsed = time.perf_counter() - start
    n = len(images)
    return FrameProfile(
        frames=n,
        finder_runs=finder.items,
        crops=classifier.items + (unenrolled.items if unenrolled is not None else 0),
        faces=face.items if face is not None else 0,
        ms_per_frame=1000 * elapsed / n,
        ms_in_networks=1000 * sum(c.seconds for c in counters) / n,
        changed=sum(1 for before, now in zip(seen, seen[1:], strict=False) if before != now),
    )


def estimate(
    macs_per_frame: float, ms_rest_host: float, host_macs_per_s: float
) -> dict[tuple[str, str], tuple[float, float]]:
    """Frames per second per (board, runtime), as (at worst, at best).

    The networks run at the rate the board reached on the published model (all four cores). The work
    outside them (letterbox, crops, NMS, the tracker, measured here on one thread) is scaled by how much
    slower the board is than this machine's one thread: at best like the networks, at worst as if it ran on
    one of the board's cores at a quarter of the four cores' rate.
    """
    result: dict[tuple[str, str], tuple[float, float]] = {}
    for key, ms in PUBLISHED_MS.items():
        pi_rate = YOLOV8N_MACS / (ms / 1000)  # multiply-adds per second on that board
        networks_s = macs_per_frame / pi_rate
        best = networks_s + ms_rest_host / 1000 * host_macs_per_s / pi_rate
        worst = networks_s + ms_rest_host / 1000 * host_macs_per_s / (pi_rate / 4)
        result[key] = (1 / worst, 1 / best)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.pi_speed", description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300, help="demo frames to profile (default 300)")
    args = parser.parse_args(argv)
    if args.frames < 1:
        parser.error("--frames wants at least 1")
    finder_path, cls_path = MODELS / "card-obb.onnx", MODELS / "corner-cls.onnx"
    finder_macs, finder_ops = count_macs(finder_path, 1)
    crop_macs, _ = count_macs(cls_path, 1)
    print(f"finder {finder_path.name}: {finder_macs / 1e6:.1f} M multiply-adds per run {finder_ops}")
    print(f"classifier {cls_path.name}: {crop_macs / 1e6:.2f} M multiply-adds per crop")
    face_path = face_reader_path_for(finder_path)
    face_macs = count_macs(face_path, 1)[0] if face_path is not None else 0
    if face_path is not None:
        print(f"face reader {face_path.name}: {face_macs / 1e6:.2f} M multiply-adds per face crop")
    prof = profile_frames(args.frames)
    per_frame = (prof.finder_runs_per_frame * finder_macs + prof.crops_per_frame * crop_macs
                 + prof.faces_per_frame * face_macs)
    host_rate = per_frame / (prof.ms_in_networks / 1000)
    rest = prof.ms_per_frame - prof.ms_in_networks
    print(
        f"demo, first {prof.frames} frames: finder runs/frame {prof.finder_runs_per_frame:.2f}, "
        f"crops/frame {prof.crops_per_frame:.1f}, face crops/frame {prof.faces_per_frame:.1f}, "
        f"{per_frame / 1e6:.0f} M multiply-adds/frame; here (1 thread): "
        f"{prof.ms_per_frame:.1f} ms/frame, {prof.ms_in_networks:.1f} of it in the networks "
        f"({host_rate / 1e9:.1f} G multiply-adds/s), {rest:.1f} ms outside them; "
        f"{prof.changed} of {prof.frames} frames differ from the one before (cards, or their place to 20 px)"
    )
    for (board, runtime), (worst, best) in estimate(per_frame, rest, host_rate).items():
        published = PUBLISHED_MS[(board, runtime)]
        networks_ms = per_frame / (YOLOV8N_MACS / (published / 1000)) * 1000
        print(
            f"{board} {runtime}: {worst:.1f}-{best:.1f} fps (networks alone {networks_ms:.0f} ms a frame; "
            f"published YOLOv8n 640: {published:.0f} ms)"
        )
    print(f"macs_per_frame={per_frame:.3g} finder_macs={finder_macs:.3g} crop_macs={crop_macs:.3g} "
          f"crops_per_frame={prof.crops_per_frame:.1f} face_macs={face_macs:.3g} "
          f"faces_per_frame={prof.faces_per_frame:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
