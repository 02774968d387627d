"""``euchre-table eval-vision --profile`` and ``--cross-halves``: the reader reads with a deck profile."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))
from detector_testkit import FINDER, FakeDetector, write_case  # noqa: E402

DEV = Path(__file__).resolve().parents[1] / "vision" / "data" / "dev-photos"


def test_profile_reaches_the_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    images, labels = write_case(tmp_path)
    seen: dict[str, Any] = {}

    def fake_load(*args: Any, **kwargs: Any) -> FakeDetector:
        seen.update(kwargs)
        return FakeDetector()

    monkeypatch.setattr("vision.detector.load_detector", fake_load)
    status = main(["eval-vision", str(images), str(labels), "--model", str(FINDER), "--profile", str(tmp_path / "p")])
    assert status == 0
    assert seen["profile"] == tmp_path / "p"
    out = capsys.readouterr().out
    assert f"profile={tmp_path / 'p'}" in out


def test_a_missing_profile_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["eval-vision", str(DEV), str(DEV / "labels.csv"), "--profile", str(tmp_path / "nope")])
    assert status == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "deck profile not found" in err[0] and "nope" in err[0]


def test_cross_halves(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["eval-vision", str(DEV), str(DEV / "labels.csv"), "--threads", "1", "--cross-halves"])
    assert status == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("half 0: enrolled ") and lines[1].startswith("half 1: enrolled ")
    assert "profile=without_(cross_halves)" in lines[2] and "profile=with_(cross_halves)" in lines[4]
    for line in (lines[3], lines[5]):
        assert line.startswith("images=5 cards=")  # every photo scored once, by the other half's profile


def test_cross_halves_builds_its_own_profiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["eval-vision", str(DEV), str(DEV / "labels.csv"), "--cross-halves", "--profile", str(tmp_path)]
    assert main(argv) == 2
    assert "leave out --profile" in capsys.readouterr().err
