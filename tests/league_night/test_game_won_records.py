"""The table's own game-won screen shows the game's records, seat by seat, in the table's language."""

from __future__ import annotations

import dataclasses
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from display import samples  # noqa: E402
from display.i18n import LANGUAGES, pgettext, using  # noqa: E402
from display.render import render  # noqa: E402
from table.records import Record  # noqa: E402

RECORDS = (
    Record(lone_made=1, lone_tried=2, marches=1, euchres_made=2),
    Record(lone_tried=1, euchres_made=1, euchres_suffered=2, reneges=1),
    Record(marches=1, euchres_made=2),
    Record(euchres_made=1, euchres_suffered=3),
)
LONG = ("Maximiliane", "Bartholomew", "Christabel", "Wolfgang")
LABELS = ("Lone hands", "Marches", "Euchres made", "Euchred", "Reneges")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("names", [samples.NAMES, LONG], ids=["short-names", "long-names"])
def test_the_game_won_screen_shows_each_seats_record(lang: str, names: tuple[str, str, str, str]) -> None:
    view = dataclasses.replace(samples.game_won(names), records=RECORDS)
    with using(lang):
        drawn = render(pygame.Surface((800, 480)), view)
        labels = [pgettext("records", label) for label in LABELS]
    texts = [t.text for t in drawn.texts]
    for label in labels:
        assert any(t == label or (t.endswith("\u2026") and label.startswith(t[:-1])) for t in texts), (label, texts)
    assert texts.count("1/2") == 1 and texts.count("0/1") == 1 and "3" in texts
    screen = pygame.Rect(0, 0, 800, 480)
    for t in drawn.texts:
        assert t.px >= 12 and screen.contains(pygame.Rect(t.rect)), t
    centre = pygame.Rect(216, 0, 368, 384)  # between the score column and the history
    heads = [t for t in drawn.texts if centre.contains(pygame.Rect(t.rect)) and t.text
             and any(n.startswith(t.text.rstrip("\u2026")) for n in names)]
    assert len(heads) == 4 and all(t.px >= 16 for t in heads), heads  # names cut short, never shrunk


def test_without_records_the_game_won_screen_shows_the_score() -> None:
    drawn = render(pygame.Surface((800, 480)), samples.game_won())
    assert not any(t.text == "Marches" for t in drawn.texts)
