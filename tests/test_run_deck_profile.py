"""``[camera] deck = NAME`` makes ``run`` read with the house deck's profile from ``<data>/decks/NAME``."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main

PHOTOS = Path(__file__).resolve().parent / "vision" / "data" / "dev-photos"


def test_a_missing_deck_profile_is_one_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[camera]\ndeck = "house"\n')
    out = tmp_path / "out"
    status = main(["run", "--config", str(config), "--source", f"images:{PHOTOS}", "--headless", "--out", str(out)])
    err = capsys.readouterr().err
    assert status == 2
    assert "deck = 'house'" in err and "decks/house" in err and "Traceback" not in err


def test_the_configured_profile_reaches_the_detector(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[object] = []
    sentinel = object()

    def fake_profile(folder: Path, deck: str) -> object:
        seen.append((folder, deck))
        return sentinel

    def fake_load_detector(*args: object, **kwargs: object) -> object:
        seen.append(kwargs.get("profile"))
        raise SystemExit(0)  # stop before the frame loop: the detector's arguments are what is checked

    monkeypatch.setattr("vision.deck_profile.configured_profile", fake_profile)
    monkeypatch.setattr("vision.detector.load_detector", fake_load_detector)
    config = tmp_path / "config.toml"
    config.write_text('[camera]\ndeck = "house"\n')
    with pytest.raises(SystemExit):
        main(["run", "--config", str(config), "--source", f"images:{PHOTOS}", "--headless", "--out",
              str(tmp_path / "out")])
    assert seen == [(tmp_path / "out", "house"), sentinel]
