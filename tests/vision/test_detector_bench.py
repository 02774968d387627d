"""``euchre-table bench --vision`` runs each backend in its own process and ends with the agreed summary keys."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import pytest
from detector_testkit import FINDER, card_frame

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_bench_vision_measures_the_onnx_backend_in_a_child(tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    for i in range(2):
        cv2.imwrite(str(photos / f"{i}.png"), card_frame((20, 20, 220)))
    done = subprocess.run(
        [sys.executable, "-m", "companion", "bench", "--vision", "--vision-model", str(FINDER)]
        + ["--vision-images", str(photos), "--vision-runs", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    pairs = dict(pair.split("=", 1) for pair in last.split())
    assert list(pairs) == ["detector_ms_onnx", "detector_ms_ultralytics", "rss_mb_onnx"]
    assert float(pairs["detector_ms_onnx"]) > 0
    assert 0 < float(pairs["rss_mb_onnx"]) < 300
    # The tiny stand-in model has no .pt to give Ultralytics: "na", and the reason on stderr.
    assert pairs["detector_ms_ultralytics"] == "na"
    assert "detector_ms_ultralytics=na: " in done.stderr


def test_a_python_too_slow_to_import_ultralytics_is_not_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a loaded machine torch's import can outlast the probe: the bench says so and goes on without
    Ultralytics, instead of a traceback."""
    from companion import bench_vision

    slow = tmp_path / "python"
    slow.write_text("")
    monkeypatch.setenv("EUCHRE_TABLE_TRAIN_PYTHON", str(slow))
    monkeypatch.setattr(bench_vision, "REPO", tmp_path)  # no .venv-train there
    monkeypatch.setattr(bench_vision.importlib.util, "find_spec", lambda name: None)

    def too_slow(cmd: list[str], **kwargs: object) -> subprocess.CompletedProcess[bytes]:
        raise subprocess.TimeoutExpired(cmd, bench_vision.PROBE_SECONDS)

    monkeypatch.setattr(bench_vision.subprocess, "run", too_slow)
    python, why = bench_vision._python_with_ultralytics()
    assert python is None
    assert f"importing it in {slow} took over {bench_vision.PROBE_SECONDS} s" in why
