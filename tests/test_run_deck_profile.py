"""``[camera] deck = NAME`` makes ``run`` read with the house deck's profile from ``<data>/decks/NAME``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from companion.builder import RunRequest, benny_warning, build_app  # noqa: E402
from companion.cli import main  # noqa: E402
from companion.config import parse_config  # noqa: E402
from companion.runner import App  # noqa: E402
from display import phrases  # noqa: E402
from display.i18n import LANGUAGES, using  # noqa: E402
from table.cards import Card  # noqa: E402
from table.rules import Rules  # noqa: E402
from vision.deck_profile import CardPrototypes, DeckProfile  # noqa: E402

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
    # ... and the reader is loaded as a live table's (its deck judged over the frames: the table's dark-deck look)
    seen: list[object] = []
    sentinel = object()

    def fake_profile(folder: Path, deck: str) -> object:
        seen.append((folder, deck))
        return sentinel

    def fake_load_detector(*args: object, **kwargs: object) -> object:
        seen.append((kwargs.get("profile"), kwargs.get("table")))
        raise SystemExit(0)  # stop before the frame loop: the detector's arguments are what is checked

    monkeypatch.setattr("vision.deck_profile.configured_profile", fake_profile)
    monkeypatch.setattr("vision.detector.load_detector", fake_load_detector)
    config = tmp_path / "config.toml"
    config.write_text('[camera]\ndeck = "house"\n')
    with pytest.raises(SystemExit):
        main(["run", "--config", str(config), "--source", f"images:{PHOTOS}", "--headless", "--out",
              str(tmp_path / "out")])
    assert seen == [(tmp_path / "out", "house"), (sentinel, True)]


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


def _first_screen(folder: Path, preset: str) -> tuple[App, str]:
    """The app ``run --headless`` builds for ``preset`` on the photos, and its announcement line after one frame."""
    request = RunRequest(source=f"images:{PHOTOS}", headless=True, out_dir=folder, buttons_file=None, fresh=True)
    app = build_app(parse_config(f'[rules]\npreset = "{preset}"\n'), request)
    try:
        app.tick(0.0)
    finally:
        app.close()
    assert app.view is not None
    return app, app.view.announcement


@pytest.mark.parametrize("lang", LANGUAGES)
def test_british_rules_without_a_deck_profile_say_so_on_the_scoreboard(tmp_path: Path, lang: str) -> None:
    """Under systemd nobody reads stderr: the announcement line asks for the deck's enrolment, in the table's words."""
    with using(lang):
        _, shown = _first_screen(tmp_path, "british")
        said = phrases.benny_needs_enrolment()
    assert shown == said and "euchre-table enrol" in shown and "[camera] deck" in shown
    with using("en"):
        english = phrases.benny_needs_enrolment()
    assert english.startswith("The Benny is read only from an enrolled deck")
    assert (shown == english) is (lang == "en")


def test_north_american_rules_show_no_deck_notice(tmp_path: Path) -> None:
    app, shown = _first_screen(tmp_path, "north_american")
    assert shown == "" and app.notice == ""


class NoCards:
    """A detector that sees no card (a profile of hand-made prototypes fits no real classifier)."""

    def detect(self, frame_bgr: object, frame: int = 0) -> list[object]:
        return []


def _with_profile(monkeypatch: pytest.MonkeyPatch, cards: list[str]) -> None:
    monkeypatch.setattr("vision.deck_profile.configured_profile", lambda folder, deck: _profile(cards))
    monkeypatch.setattr("vision.detector.load_detector", lambda *args, **kwargs: NoCards())


def test_a_deck_profile_without_a_joker_is_named_on_the_scoreboard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _with_profile(monkeypatch, ["9c", "Ah"])
    _, shown = _first_screen(tmp_path, "british")
    assert shown == phrases.benny_not_in_profile()
    assert shown == "The deck profile has no Joker: enrol the deck again with its Joker"


def test_a_deck_profile_with_the_joker_shows_no_notice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _with_profile(monkeypatch, ["9c", "B"])
    _, shown = _first_screen(tmp_path, "british")
    assert shown == ""
