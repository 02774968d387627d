"""The table's language from the config and the command line: the words, the seat names and the voice follow it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.cli import build_parser
from companion.commands.run import speech_voice, with_language
from companion.config import EXAMPLE_PATH, load_config, parse_config
from companion.errors import UserError
from display import i18n, phrases
from table.announcements import Expect, Prompt


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def test_the_config_names_the_language() -> None:
    assert parse_config('[display]\nlanguage = "da"\n').display.language == "da"
    assert parse_config("").display.language == "en"
    assert load_config(EXAMPLE_PATH).display.language == "en"


def test_a_language_without_a_catalog_is_a_user_error() -> None:
    with pytest.raises(UserError, match="language must be one of en, da, id, ro"):
        parse_config('[display]\nlanguage = "fr"\n')


@pytest.mark.parametrize("command", ["run", "demo"])
def test_run_and_demo_take_language(command: str) -> None:
    parser = build_parser()
    assert parser.parse_args([command, "--language", "ro"]).language == "ro"
    assert parser.parse_args([command]).language is None
    with pytest.raises(SystemExit):
        parser.parse_args([command, "--language", "fr"])


def test_the_command_line_language_wins_and_the_default_seats_follow_it() -> None:
    config = with_language(parse_config('[display]\nlanguage = "da"\n'), "id")
    assert config.display.language == "id" and i18n.language() == "id"
    assert config.seats.names == ("Utara", "Timur", "Selatan", "Barat")
    assert phrases.prompt_text(Prompt(0, Expect.LEAD), config.seats.names) == "Utara memimpin"


def test_the_config_language_applies_without_a_flag_and_named_seats_are_kept() -> None:
    text = '[display]\nlanguage = "da"\n[seats]\nnames = ["Ann", "Bo", "Cy", "Di"]\n'
    config = with_language(parse_config(text), None)
    assert i18n.language() == "da"
    assert config.seats.names == ("Ann", "Bo", "Cy", "Di")
    assert phrases.prompt_text(Prompt(1, Expect.LEAD), config.seats.names) == "Bo spiller ud"


def test_the_voice_follows_the_language_unless_the_config_names_one() -> None:
    assert speech_voice(with_language(parse_config(""), "ro")) == "ro"
    assert speech_voice(with_language(parse_config('[display]\nlanguage = "da"\n'), None)) == "da"
    assert speech_voice(with_language(parse_config('[sound]\nvoice = "en-gb"\n'), "id")) == "en-gb"
