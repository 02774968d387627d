"""A classifier rebuilt from its ONNX export computes what the export computes, and fine-tunes from there."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.train  # .ci/run runs it in .venv-train/, where the [train] extra is installed
pytest.importorskip("onnx", reason="reading an ONNX graph needs the [train] extras (onnx), not in the test environment")
torch = pytest.importorskip("torch", reason="the rebuilt classifier is a torch model ([train] extras)")

from lab.classifier_from_onnx import largest_difference, rebuild  # noqa: E402
from lab.train import build_classifier, export_classifier  # noqa: E402

SHIPPED = Path(__file__).resolve().parents[2] / "models" / "corner-cls.onnx"


def _trained_looking(seed: int) -> object:
    """A classifier whose batch norms are far from identity, as after training."""
    torch.manual_seed(seed)
    model = build_classifier()
    with torch.no_grad():
        for m in model:
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.2, 3.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.3, 0.3)
    return model


def test_rebuilt_classifier_matches_the_onnx_graph(tmp_path: Path) -> None:
    model = _trained_looking(0)
    ck = tmp_path / "best.pt"
    torch.save({"model": model.state_dict()}, ck)  # type: ignore[attr-defined]
    onnx_path = export_classifier(ck, tmp_path / "corner-cls.onnx")
    crops = np.random.default_rng(1).uniform(0, 1.2, (64, 3, 64, 48)).astype(np.float32)
    rebuilt = rebuild(onnx_path, crops)
    assert largest_difference(rebuilt, onnx_path, crops) < 1e-4
    # the batch norms hold the sample's statistics, so a training-mode batch starts close to eval mode
    for m in rebuilt:  # batch statistics on, dropout off
        if isinstance(m, torch.nn.BatchNorm2d):
            m.train()
    with torch.no_grad():
        train_mode = rebuilt(torch.from_numpy(crops)).numpy()
    rebuilt.eval()
    with torch.no_grad():
        eval_mode = rebuilt(torch.from_numpy(crops)).numpy()
    assert np.abs(train_mode - eval_mode).max() < 1e-3


def test_a_model_that_differs_is_caught(tmp_path: Path) -> None:
    """The check compares with the graph itself: another model's weights do not pass it."""
    ck = tmp_path / "best.pt"
    torch.save({"model": _trained_looking(2).state_dict()}, ck)  # type: ignore[attr-defined]
    onnx_path = export_classifier(ck, tmp_path / "corner-cls.onnx")
    crops = np.random.default_rng(3).uniform(0, 1.2, (32, 3, 64, 48)).astype(np.float32)
    other = rebuild(SHIPPED, crops)
    assert largest_difference(other, onnx_path, crops) > 1e-2
