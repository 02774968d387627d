"""``train classifier --teacher``: the teacher's right readings are kept, its wrong ones are left to the labels."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.train  # .ci/run runs it in .venv-train/, where the [train] extra is installed
torch = pytest.importorskip("torch", reason="training needs the [train] extras (torch)")

from lab.train import _teacher_targets, build_classifier, train_classifier  # noqa: E402
from vision.cardcrop import CROP_H, CROP_W, normalise_crop  # noqa: E402

T = 2.0


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, np.ndarray, np.ndarray]:
    """Noise crops, a teacher, and labels that agree with the teacher on the first half only."""
    folder = tmp_path_factory.mktemp("distill")
    rng = np.random.default_rng(0)
    raw = rng.integers(0, 256, (256, CROP_H, CROP_W, 3), dtype=np.uint8)
    torch.manual_seed(0)
    teacher = build_classifier()
    teacher.eval()
    x = np.stack([normalise_crop(c) for c in raw])
    with torch.no_grad():
        named = teacher(torch.from_numpy(x)).argmax(1).numpy()
    y = named.copy()
    y[128:] = (named[128:] + 1 + rng.integers(0, 30, 128)) % 34  # never the teacher's reading
    np.savez(folder / "train_0000.npz", x=raw, y=y)
    np.savez(folder / "heldout_0000.npz", x=raw[:32], y=y[:32])
    weights = folder / "teacher.pt"
    torch.save({"model": teacher.state_dict()}, weights)
    return folder, weights, x, y


def test_the_targets_are_the_teachers_softened_prediction_where_it_is_right(
    setup: tuple[Path, Path, np.ndarray, np.ndarray],
) -> None:
    _folder, weights, x, y = setup
    soft, kept = _teacher_targets(weights, x, y, T)
    assert soft.shape == (256, 34)
    assert np.allclose(soft.sum(1), 1.0, atol=1e-5)
    assert kept[:128].all() and not kept[128:].any()


def _kl_to_teacher(run: Path, weights: Path, x: np.ndarray, y: np.ndarray) -> float:
    soft, kept = _teacher_targets(weights, x, y, T)
    model = build_classifier()
    model.load_state_dict(torch.load(run / "last.pt", weights_only=False)["model"])
    model.eval()
    with torch.no_grad():
        student = torch.log_softmax(model(torch.from_numpy(x[kept])) / T, dim=1)
    return float(torch.nn.functional.kl_div(student, torch.from_numpy(soft[kept]), reduction="batchmean"))


def test_distillation_keeps_the_student_near_the_teacher_where_the_teacher_was_right(
    setup: tuple[Path, Path, np.ndarray, np.ndarray], tmp_path: Path
) -> None:
    folder, weights, x, y = setup
    kl = {}
    for distill in (0.0, 10.0):
        run = tmp_path / f"d{distill}"
        train_classifier(folder, run, epochs=3, batch=64, threads=1, lr=3e-3, init_weights=weights,
                         teacher=weights, distill=distill)
        kl[distill] = _kl_to_teacher(run, weights, x, y)
    assert kl[10.0] < 0.5 * kl[0.0], kl


def test_a_deepened_classifier_starts_out_reading_as_the_one_it_came_from(
    setup: tuple[Path, Path, np.ndarray, np.ndarray],
) -> None:
    from lab.train import deepen_state

    _folder, weights, x, _y = setup
    shallow = build_classifier()
    shallow.load_state_dict(torch.load(weights, weights_only=False)["model"])
    shallow.eval()
    deep = build_classifier(blocks=2)
    missing, unexpected = deep.load_state_dict(deepen_state(shallow.state_dict(), 2), strict=False)
    assert not unexpected and missing and all(k.split(".")[0] in {"14", "15"} for k in missing)
    deep.eval()
    with torch.no_grad():
        a, b = shallow(torch.from_numpy(x[:16])), deep(torch.from_numpy(x[:16]))
    assert torch.allclose(a, b, atol=1e-5)
    # The blocks are real layers: with their last scale no longer zero they change the reading.
    with torch.no_grad():
        deep[14].f[4].weight.fill_(1.0)
        assert not torch.allclose(a, deep(torch.from_numpy(x[:16])), atol=1e-3)


def test_training_deeper_from_shallow_weights_records_its_blocks_and_exports(
    setup: tuple[Path, Path, np.ndarray, np.ndarray], tmp_path: Path
) -> None:
    from lab.train import export_classifier, load_classifier

    folder, weights, x, _y = setup
    best = train_classifier(folder, tmp_path / "run", epochs=1, batch=64, threads=1, lr=1e-3, init_weights=weights,
                            teacher=weights, blocks=1)
    assert torch.load(best, weights_only=False)["blocks"] == 1
    model = load_classifier(best)
    assert len([m for m in model if type(m).__name__ == "Residual"]) == 1
    import onnxruntime as ort  # a runtime dependency of the package
    onnx_path = export_classifier(best, tmp_path / "cls.onnx")
    sess = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    with torch.no_grad():
        want = model(torch.from_numpy(x[:8])).numpy()
    got = sess.run(None, {"crops": x[:8]})[0]
    assert np.abs(got - want).max() < 1e-3
    with pytest.raises(ValueError, match="more than"):
        train_classifier(folder, tmp_path / "fewer", epochs=1, batch=64, threads=1, init_weights=best, blocks=0)


def test_weights_of_another_network_are_refused(
    setup: tuple[Path, Path, np.ndarray, np.ndarray], tmp_path: Path
) -> None:
    folder, weights, _x, _y = setup
    state = torch.load(weights, weights_only=False)["model"]
    del state["11.weight"]  # the last convolution's weights: not one of the new blocks' keys
    broken = tmp_path / "broken.pt"
    torch.save({"model": state}, broken)
    with pytest.raises(ValueError, match="do not fit"):
        train_classifier(folder, tmp_path / "run", epochs=1, batch=64, threads=1, init_weights=broken, blocks=1)
