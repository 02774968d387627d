"""The notices shown in the announcement line (at start, a deck to enrol for the Benny; in play, a deck the camera
reads poorly) fit it in every language."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pygame
import pytest

from display import phrases, samples
from display.canvas import ELLIPSIS
from display.i18n import LANGUAGES, using
from display.render import ANN_H, MAIN_H, render
from display.typeface import missing_glyphs

NOTICES: dict[str, Callable[[], str]] = {
    "no-profile": phrases.benny_needs_enrolment,
    "no-joker": phrases.benny_not_in_profile,
    "read-poorly": lambda: phrases.deck_read_poorly(enrolled=False),
    "read-poorly-enrolled": lambda: phrases.deck_read_poorly(enrolled=True),
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("notice", sorted(NOTICES))
def test_a_start_notice_is_shown_whole_at_800x480(notice: str, lang: str) -> None:
    """Every word drawn, none cut short with "…", none under 12 px, on the screen of a new match."""
    with using(lang):
        words = NOTICES[notice]()
        view = replace(samples.dealing(phrases.seat_names()), announcement=words)
        drawn = render(pygame.Surface((800, 480)), view)
    assert missing_glyphs(words) == []
    lines = [t for t in drawn.texts if MAIN_H <= t.rect[1] + t.rect[3] / 2 <= MAIN_H + ANN_H]  # the announcement line
    assert " ".join(t.text for t in lines) == words, [t.text for t in lines]
    screen = pygame.Rect(0, 0, 800, 480)
    for t in lines:
        assert t.px >= 12 and screen.contains(pygame.Rect(t.rect)) and ELLIPSIS not in t.text, t
