"""``train export``: the finder's ONNX goes where it is asked, never beside the weights it came from."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.train  # .ci/run runs it in .venv-train/, where the [train] extra is installed
pytest.importorskip("onnx", reason="exporting to ONNX needs the [train] extras (onnx), not in the test environment")
pytest.importorskip("ultralytics", reason="exporting needs the [train] extras (ultralytics)")

from lab.train import export_detector  # noqa: E402

SHIPPED = Path(__file__).resolve().parents[2] / "models" / "card-obb.pt"


def test_export_writes_only_the_asked_file(tmp_path: Path) -> None:
    weights_dir = tmp_path / "weights"
    weights_dir.mkdir()
    weights = weights_dir / "card-obb.pt"
    shutil.copyfile(SHIPPED, weights)
    out = tmp_path / "out" / "card-obb.onnx"
    assert export_detector(weights, 256, out) == out
    assert out.stat().st_size > 100_000
    # Ultralytics writes its ONNX beside the weights it loads; that would overwrite a shipped models/card-obb.onnx.
    assert sorted(p.name for p in weights_dir.iterdir()) == ["card-obb.pt"]
