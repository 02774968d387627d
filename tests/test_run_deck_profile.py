"""``[camera] deck = NAME`` makes ``run`` read with the house deck's profile from ``<data>/decks/NAME``."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.builder import benny_warning
from companion.cli import main
from table.cards import Card
from table.rules import Rules
from vision.deck_profile import CardPrototypes, DeckProfile

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


def test_british_rules_without_a_deck_profile_warn_that_the_benny_goes_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[rules]\npreset = "british"\n')
    status = main(["run", "--config", str(config), "--source", f"images:{PHOTOS}", "--headless", "--out",
                   str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert status == 0
    assert "warning: these rules play the Benny" in err and "euchre-table enrol" in err and "[camera] deck" in err


def test_north_american_rules_need_no_deck_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[rules]\npreset = "north_american"\n')
    status = main(["run", "--config", str(config), "--source", f"images:{PHOTOS}", "--headless", "--out",
                   str(tmp_path / "out")])
    assert status == 0
    assert "Benny" not in capsys.readouterr().err


def _profile(cards: list[str]) -> DeckProfile:
    return DeckProfile(name="house", cards={Card.parse(c): CardPrototypes(prototypes=[]) for c in cards}, features=8)


def test_the_benny_warning_asks_for_a_profile_that_holds_the_joker() -> None:
    british, american = Rules.preset("british"), Rules.preset("north_american")
    assert benny_warning(american, None) is None
    assert benny_warning(american, _profile(["9c"])) is None
    missing = benny_warning(british, None)
    assert missing is not None and "euchre-table enrol" in missing
    no_joker = benny_warning(british, _profile(["9c", "Ah"]))
    assert no_joker is not None and "'house' has no Joker" in no_joker
    assert benny_warning(british, _profile(["9c", "B"])) is None
