"""``euchre-table train face``: the face reader trains with the classifier's loop and exports as the reader loads it."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.train  # .ci/run runs it in .venv-train/, where the [train] extra is installed
torch = pytest.importorskip("torch", reason="training needs the [train] extras (torch)")

from lab.commands.train import train_face  # noqa: E402
from lab.train import load_classifier  # noqa: E402
from vision.cardcrop import CROP_H, CROP_W, normalise_crop  # noqa: E402
from vision.face_reader import FACE_CLASSES, FACE_READER_NAME  # noqa: E402
from vision.onnx_detector import load_face_reader  # noqa: E402


def test_train_face_records_its_classes_and_exports_a_reader(tmp_path: Path) -> None:
    from lab import train as tr

    rng = np.random.default_rng(0)
    raw = rng.integers(0, 256, (96, CROP_H, CROP_W, 3), dtype=np.uint8)
    y = rng.integers(0, len(FACE_CLASSES), 96)
    crops = tmp_path / "faces"
    crops.mkdir()
    np.savez(crops / "train_0000.npz", x=raw, y=y)
    np.savez(crops / "heldout_0000.npz", x=raw[:16], y=y[:16])
    args = argparse.Namespace(crops=crops, out=tmp_path / "run", epochs=1, seed=0, threads=1, resume=None, lr0=None)
    assert train_face(args, tr) == 0
    ck = torch.load(tmp_path / "run" / "best.pt", weights_only=False)
    assert ck["classes"] == list(FACE_CLASSES)
    net = load_classifier(tmp_path / "run" / "best.pt")
    x = np.stack([normalise_crop(c) for c in raw[:4]])
    with torch.no_grad():
        want = torch.softmax(net(torch.from_numpy(x)), 1).numpy()
    reader = load_face_reader(tmp_path / "run" / FACE_READER_NAME, threads=1)
    got = reader.session.run(None, {reader.input_name: x})[0]
    got = np.exp(got - got.max(1, keepdims=True))
    assert np.allclose(got / got.sum(1, keepdims=True), want, atol=1e-5)


def test_train_face_wants_crops(tmp_path: Path) -> None:
    from lab import train as tr
    from vision.errors import UserError

    args = argparse.Namespace(crops=tmp_path, out=tmp_path / "run", epochs=1, seed=0, threads=1, resume=None, lr0=None)
    with pytest.raises(UserError, match="face crops"):
        train_face(args, tr)
