"""``euchre-table bench --vision``: detector speed and peak memory of the ONNX Runtime and Ultralytics backends.

Each backend runs in its own child process, so each gets a clean address
space: the child loads the model, detects on real dev photos (after a short
warm-up), and reports the median milliseconds per frame (letterbox, network,
NMS, corner classifier, merge; reading the file not included) and its peak
resident memory (``resource.getrusage(RUSAGE_SELF).ru_maxrss``). Both run at
the shipped model's input size, once with one thread and once with the
library's default threads.

The ONNX child runs in this interpreter. Ultralytics needs torch, which the
runtime environment does not have, so its child runs in the first Python
that has Ultralytics: this one, ``$EUCHRE_TABLE_TRAIN_PYTHON``, or the
source tree's ``.venv-train``. With none, it prints
``detector_ms_ultralytics=na`` and says why on stderr.

``bench`` ends with ``detector_ms_onnx= detector_ms_ultralytics= rss_mb_onnx=``
(one thread each); a line before it has every figure, default threads too.
``python -m companion.bench_vision`` runs it alone.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.summary import summary_line

REPO = Path(__file__).resolve().parent.parent
DEV_PHOTOS = REPO.parent / "shared" / "data" / "real-photos-dev" / "images"
CHILD_TIMEOUT_S = 600
# The deck profile (--vision-profile) reaches the ONNX child through this variable.
PROFILE_ENV = "EUCHRE_TABLE_BENCH_PROFILE"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``bench`` options the vision benchmark reads (``--vision`` itself is added by the bench command)."""
    parser.add_argument("--vision-model", type=Path, default=None, help="ONNX finder (default: the shipped model)")
    parser.add_argument("--vision-pt", type=Path, default=None, help="model for Ultralytics (default: .pt beside it)")
    parser.add_argument("--vision-images", type=Path, default=None, help=f"photos to detect on (default: {DEV_PHOTOS})")
    parser.add_argument("--vision-frames", type=int, default=10, help="how many photos (default 10)")
    parser.add_argument("--vision-runs", type=int, default=3, help="passes over the photos (default 3)")
    parser.add_argument(
        "--vision-profile", type=Path, default=None, help="read with this deck profile (ONNX backend; a folder)"
    )


@dataclass(frozen=True)
class ChildResult:
    ms: float | None
    rss_mb: float | None
    threads: str
    note: str = ""


# How long the probe for a Python with Ultralytics may take (its import pulls in torch).
PROBE_SECONDS = 120


def _python_with_ultralytics() -> tuple[str | None, str]:
    if importlib.util.find_spec("ultralytics") is not None:
        return sys.executable, ""
    candidates = [os.environ.get("EUCHRE_TABLE_TRAIN_PYTHON"), str(REPO / ".venv-train" / "bin" / "python")]
    slow: list[str] = []
    for cand in candidates:
        if cand and Path(cand).exists():
            try:
                probe = subprocess.run([cand, "-c", "import ultralytics"], capture_output=True, timeout=PROBE_SECONDS)
            except subprocess.TimeoutExpired:
                slow.append(cand)  # torch's import alone can take minutes on a loaded machine
                continue
            if probe.returncode == 0:
                return cand, ""
    why = (
        "ultralytics is not importable here, $EUCHRE_TABLE_TRAIN_PYTHON is unset or lacks it, "
        f"and {REPO / '.venv-train'} has no working ultralytics (install the 'train' extra there)"
    )
    if slow:
        why += f"; importing it in {', '.join(slow)} took over {PROBE_SECONDS} s, so it was not waited for"
    return None, why


def _images(folder: Path, count: int) -> list[Path]:
    if not folder.is_dir():
        raise UserError(f"{folder}: photos folder not found (pass --vision-images DIR)")
    photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))[:count]
    if not photos:
        raise UserError(f"{folder}: no photos (.jpg, .jpeg, .png)")
    return photos


def _input_size(model: Path) -> int:
    """The shipped ONNX model's input size (its longer side), so Ultralytics runs the .pt at the same size."""
    from vision.onnx_detector import ModelInfo, ort_session

    session = ort_session(model, 1, "ONNX model")
    info = ModelInfo.from_metadata(dict(session.get_modelmeta().custom_metadata_map), [], model)
    return max(info.imgsz)


def _run_child(
    python: str,
    backend: str,
    model: Path,
    threads: int | None,
    photos: list[Path],
    runs: int,
    imgsz: int,
    profile: Path | None = None,
) -> ChildResult:
    cmd = [python, "-m", "companion.bench_vision", "--child", backend, str(model), str(threads or 0), str(runs)]
    cmd += [str(imgsz)]
    cmd += [str(p) for p in photos]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    if profile is not None and backend == "onnx":
        env[PROFILE_ENV] = str(profile.resolve())
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=CHILD_TIMEOUT_S, env=env, cwd=REPO)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return ChildResult(None, None, str(threads or "default"), f"{backend} child failed: {tail}")
    data = json.loads(lines[-1])
    return ChildResult(float(data["ms"]), float(data["rss_mb"]), str(data["threads"]))


def bench_vision(args: argparse.Namespace) -> dict[str, Any]:
    """Run both backends' children; print the detailed line; return the summary pairs for ``bench``."""
    from vision.models import default_model_path

    model = args.vision_model if args.vision_model is not None else default_model_path()
    if not model.is_file():
        raise UserError(f"{model}: model not found")
    pt = args.vision_pt if args.vision_pt is not None else model.with_suffix(".pt")
    photos = _images(args.vision_images if args.vision_images is not None else DEV_PHOTOS, args.vision_frames)
    imgsz = _input_size(model)
    results: dict[str, ChildResult | None] = {}
    for n in (1, None):
        results[f"onnx_{n or 'default'}"] = _run_child(
            sys.executable, "onnx", model, n, photos, args.vision_runs, imgsz, args.vision_profile
        )
    python, why = _python_with_ultralytics()
    if python is None:
        print(f"bench --vision: detector_ms_ultralytics=na: {why}", file=sys.stderr)
    elif not pt.exists():
        print(f"bench --vision: detector_ms_ultralytics=na: {pt} not found (pass --vision-pt)", file=sys.stderr)
    else:
        for n in (1, None):
            results[f"ultralytics_{n or 'default'}"] = _run_child(
                python, "ultralytics", pt, n, photos, args.vision_runs, imgsz
            )
    for res in results.values():
        if res is not None and res.note:
            print(f"bench --vision: {res.note}", file=sys.stderr)

    def ms(key: str) -> object:
        res = results.get(key)
        return "na" if res is None or res.ms is None else round(res.ms, 1)

    def rss(key: str) -> object:
        res = results.get(key)
        return "na" if res is None or res.rss_mb is None else round(res.rss_mb)

    def threads_used(key: str) -> object:
        res = results.get(key)
        return "na" if res is None or res.ms is None else res.threads

    print(
        summary_line(
            model=model.name,
            profile=args.vision_profile.name if args.vision_profile is not None else "none",
            imgsz=imgsz,
            frames=len(photos) * args.vision_runs,
            onnx_threads_default=threads_used("onnx_default"),
            detector_ms_onnx_default_threads=ms("onnx_default"),
            ultralytics_threads_default=threads_used("ultralytics_default"),
            detector_ms_ultralytics_default_threads=ms("ultralytics_default"),
            rss_mb_ultralytics=rss("ultralytics_1"),
        )
    )
    return {
        "detector_ms_onnx": ms("onnx_1"),
        "detector_ms_ultralytics": ms("ultralytics_1"),
        "rss_mb_onnx": rss("onnx_1"),
    }


def _child(backend: str, model: Path, threads: int, runs: int, imgsz: int, photos: list[Path]) -> dict[str, Any]:
    """Load one backend, detect on ``photos`` ``runs`` times, and report median ms and peak RSS."""
    import resource

    from vision.detector import Detector
    from vision.sources.files import load_image

    frames = [load_image(p) for p in photos]
    detector: Detector
    if backend == "onnx":
        from vision.onnx_detector import OnnxDetector

        profile = os.environ.get(PROFILE_ENV)
        # The app's live reader (``companion.builder``): its deck judged over the frames.
        detector = OnnxDetector(
            model, threads=threads or None, profile=Path(profile) if profile else None, table_deck_look=True
        )
    else:
        from vision.ultralytics_detector import UltralyticsDetector

        detector = UltralyticsDetector(model, threads=threads or None, imgsz=imgsz)
    for frame in frames[:2]:  # warm-up: first runs allocate and pick kernels
        detector.detect(frame)
    times: list[float] = []
    for _ in range(runs):
        for i, frame in enumerate(frames):
            start = time.perf_counter()
            detector.detect(frame, i)
            times.append((time.perf_counter() - start) * 1000.0)
    used = str(threads) if threads else "default"
    if backend == "ultralytics":
        import torch

        used = str(torch.get_num_threads()) if threads else f"default({torch.get_num_threads()})"
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
    return {
        "ms": statistics.median(times),
        "rss_mb": peak_kb / 1024.0,
        "threads": used,
        "torch": "torch" in sys.modules,
    }


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        backend, model, threads, runs, imgsz, *photos = argv[1:]
        result = _child(backend, Path(model), int(threads), int(runs), int(imgsz), [Path(p) for p in photos])
        print(json.dumps(result))
        return 0
    parser = argparse.ArgumentParser(prog="python -m companion.bench_vision", description=__doc__)
    add_arguments(parser)
    try:
        print(summary_line(**bench_vision(parser.parse_args(argv))))
        return 0
    except UserError as exc:
        print(f"euchre-table: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
