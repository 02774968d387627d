"""The ONNX Runtime backend against Ultralytics: same letterbox, same NMS, same cards from the shipped model.

The cards are compared on the real photos in ``data/dev-photos``.

Skipped, as a whole, where Ultralytics cannot be imported: it needs torch,
which the runtime and its test environment (``.venv/``) deliberately lack (the
table runs on ONNX Runtime alone). ``.ci/run`` runs it, with the other tests
marked ``train``, in the training environment ``.venv-train/``:
``.venv-train/bin/pytest -m train``.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from vision import postprocess as pp
from vision.ultralytics_detector import ultralytics_available

_OK, _WHY = ultralytics_available()
pytestmark = [pytest.mark.train, pytest.mark.skipif(not _OK, reason=f"needs Ultralytics and torch: {_WHY}")]

os.environ.setdefault("YOLO_OFFLINE", "1")
os.environ.setdefault("YOLO_AUTOINSTALL", "false")

REPO = Path(__file__).resolve().parents[2]
MODELS = REPO / "models"
DEV = Path(__file__).resolve().parent / "data" / "dev-photos"


@pytest.mark.parametrize("shape", [(504, 378), (540, 960), (333, 517), (100, 1000)])
def test_letterbox_is_pixel_identical_to_ultralytics(shape: tuple[int, int]) -> None:
    from ultralytics.data.augment import LetterBox

    rng = np.random.default_rng(1)
    frame = rng.integers(0, 255, (*shape, 3), dtype=np.uint8)
    ours, _ = pp.letterbox(frame, 320)
    theirs = LetterBox((320, 320), auto=False, stride=32)(image=frame)
    assert np.array_equal(ours, theirs)


def test_boxes_map_back_to_the_frame_like_ultralytics() -> None:
    import torch
    from ultralytics.utils import ops

    rng = np.random.default_rng(2)
    for shape in ((504, 378), (540, 960)):
        _, box = pp.letterbox(np.zeros((*shape, 3), np.uint8), 320)
        xyxy = rng.uniform(0, 320, (50, 4)).astype(np.float32)
        xyxy[:, 2:] = np.maximum(xyxy[:, 2:], xyxy[:, :2])
        ours = box.to_frame(xyxy.reshape(-1, 2, 2)).reshape(-1, 4)
        theirs = ops.scale_boxes((320, 320), torch.from_numpy(xyxy.copy()), shape).numpy()
        np.testing.assert_allclose(ours, theirs, atol=1e-3)


def _random_output(rng: np.random.Generator, nc: int, n: int, obb: bool) -> np.ndarray:
    cx, cy = rng.uniform(0, 320, n), rng.uniform(0, 320, n)
    w, h = rng.uniform(10, 120, n), rng.uniform(10, 120, n)
    # Half the candidates cluster around the others, as a network's do around an object.
    src = rng.integers(0, n, n // 2)
    cx[: n // 2] = cx[src] + rng.normal(0, 4, n // 2)
    cy[: n // 2] = cy[src] + rng.normal(0, 4, n // 2)
    rows = [cx, cy, w, h, *(rng.uniform(0, 1, (nc, n)) ** 6)]
    if obb:
        rows.append(rng.uniform(-np.pi / 4, 3 * np.pi / 4, n))
    return np.stack(rows).astype(np.float32)[None]


@pytest.mark.parametrize("obb", [False, True], ids=["boxes", "oriented"])
def test_decode_and_nms_keep_what_ultralytics_keeps(obb: bool) -> None:
    import torch
    from ultralytics.utils.nms import non_max_suppression

    rng = np.random.default_rng(3)
    for _ in range(5):
        out = _random_output(rng, 33, 2100, obb)
        raw = pp.nms(pp.decode(out, 33, 0.25), 0.5)
        theirs = non_max_suppression(torch.from_numpy(out), 0.25, 0.5, agnostic=True, nc=33, rotated=obb)[0].numpy()
        if obb:
            assert raw.angles is not None
            ours = np.concatenate([raw.xywh, raw.scores[:, None], raw.classes[:, None], raw.angles[:, None]], 1)
        else:
            ours = np.concatenate([raw.boxes, raw.scores[:, None], raw.classes[:, None]], 1)
        assert ours.shape == theirs.shape
        order = np.lexsort((theirs[:, 0], -theirs[:, 4]))
        np.testing.assert_allclose(ours[np.lexsort((ours[:, 0], -ours[:, 4]))], theirs[order], atol=1e-3)


# --- the shipped model through both backends ----------------------------------------------------------------------

SHIPPED_ONNX = MODELS / "card-obb.onnx"
SHIPPED_PT = MODELS / "card-obb.pt"


def test_both_backends_report_the_same_cards_from_the_shipped_model() -> None:
    from vision.onnx_detector import OnnxDetector
    from vision.sources.files import load_image
    from vision.ultralytics_detector import UltralyticsDetector

    assert SHIPPED_ONNX.is_file() and SHIPPED_PT.is_file(), "the shipped model is missing from models/"
    onnx = OnnxDetector(SHIPPED_ONNX, threads=1)
    ultra = UltralyticsDetector(SHIPPED_PT, threads=1, imgsz=max(onnx.input_size))
    # both weigh in the face reader beside the models, so they read alike
    assert onnx.classifier is not None and onnx.classifier.face is not None
    assert ultra.classifier is not None and ultra.classifier.face is not None
    photos = sorted(DEV.glob("*.jpg"))
    assert photos
    for path in photos:
        name = path.name
        frame = load_image(path)
        ours = onnx.detect(frame)
        theirs = ultra.detect(frame)
        assert sorted(str(d.card) for d in ours) == sorted(str(d.card) for d in theirs), name
        for a, b in zip(
            sorted(ours, key=lambda d: str(d.card)), sorted(theirs, key=lambda d: str(d.card)), strict=True
        ):
            assert a.confidence == pytest.approx(b.confidence, abs=0.02), name
            np.testing.assert_allclose(a.box, b.box, atol=3.0, err_msg=name)
