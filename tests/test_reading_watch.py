"""The reading watch: the scoreboard says once that the camera reads the deck poorly, and only then."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from test_runner import _app

from companion.reading_watch import TROUBLE_LINE, WINDOW_HANDS, ReadingWatch
from companion.runner import App
from display import phrases
from table.announcements import Announcement, HandScored, Irregularity, IrregularityKind

K = IrregularityKind


def _sign(kind: IrregularityKind = K.CHECK_CARD) -> Irregularity:
    return Irregularity(kind, "a sign")


def _scored() -> HandScored:
    return HandScored(points=(1, 0), tricks=(3, 2), makers=0, reason="made", score=(1, 0))


def _hands(signs: list[int], kind: IrregularityKind = K.CHECK_CARD) -> list[list[Announcement]]:
    """One list of announcements per hand: ``n`` signs, then the hand's score."""
    return [[*(_sign(kind) for _ in range(n)), _scored()] for n in signs]


def _spoke(watch: ReadingWatch, signs: list[int], kind: IrregularityKind = K.CHECK_CARD) -> list[int]:
    """The hands (1-based) after which ``take`` was True."""
    return [k for k, hand in enumerate(_hands(signs, kind), start=1) if watch.take(hand)]


def test_it_speaks_once_when_the_last_hands_hold_enough_signs() -> None:
    watch = ReadingWatch()
    assert (WINDOW_HANDS, TROUBLE_LINE) == (4, 5)
    # 1, 2, 3, then 5 signs in the last four hands at the fourth; the hands after it say nothing more
    assert _spoke(watch, [1, 1, 1, 2, 3, 3, 3]) == [4]
    assert watch.spoke_after == 4 and watch.hands == 7 and watch.recent == (2, 3, 3, 3)


def test_a_deck_read_well_is_never_told_to_enrol() -> None:
    """A white deck's checks at the simulated table: 0-6 in 24 hands; here 6, two of them in one hand."""
    watch = ReadingWatch()
    signs = [0, 2, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]
    assert _spoke(watch, signs) == []
    assert watch.spoke_after is None


def test_old_hands_leave_the_window() -> None:
    # 4 signs in the first hand and 2 in the sixth: never 5 in four hands running
    assert _spoke(ReadingWatch(), [4, 0, 0, 0, 0, 2, 0]) == []
    # the same 6 signs two hands closer: 4 + 0 + 0 + 2 in hands 3-6
    assert _spoke(ReadingWatch(), [0, 0, 4, 0, 0, 2]) == [6]


@pytest.mark.parametrize("kind", [K.CHECK_CARD, K.CARD_UNSEEN, K.HAND_UNFINISHED, K.DEAL_UNSEEN])
def test_each_sign_of_a_missed_or_doubted_card_counts(kind: IrregularityKind) -> None:
    assert _spoke(ReadingWatch(), [2, 3], kind) == [2]


@pytest.mark.parametrize("kind", [K.OUT_OF_TURN, K.SUSPECTED_RENEGE, K.DUPLICATE_CARD, K.MISDEAL, K.NOT_IN_DECK])
def test_what_the_players_did_does_not_count(kind: IrregularityKind) -> None:
    """The table's own irregularities say nothing about how the camera reads the deck."""
    assert _spoke(ReadingWatch(), [3, 3, 3, 3], kind) == []


def test_a_check_said_again_with_its_readings_swapped_is_not_another_sign() -> None:
    restated = dataclasses.replace(_sign(), restated=True)
    assert _spoke(ReadingWatch(window=1, line=2), [1]) == []
    watch = ReadingWatch(window=1, line=2)
    assert not watch.take([_sign(), restated, _scored()])
    assert watch.take([_sign(), _sign(), _scored()])


def test_signs_count_in_the_hand_they_belong_to() -> None:
    """Signs after the last score wait for the next hand's score; the watch speaks only at a score."""
    watch = ReadingWatch(window=1, line=2)
    assert not watch.take([_sign(), _sign()])  # no hand scored yet
    assert watch.take([_scored()])
    assert watch.spoke_after == 1


def test_a_window_or_line_under_one_is_refused() -> None:
    with pytest.raises(ValueError, match="window and line"):
        ReadingWatch(window=0)
    with pytest.raises(ValueError, match="window and line"):
        ReadingWatch(line=0)


def test_the_scoreboard_says_it_once_in_the_announcement_line(tmp_path: Path) -> None:
    app, _, _ = _app(tmp_path, frames=1)
    try:
        hands = _hands([2, 3, 3])
        app._take_news(hands[0])
        assert app.notice == ""
        app._take_news(hands[1])
        assert app.notice == phrases.deck_read_poorly(enrolled=False)
        assert "euchre-table enrol" in app.notice
        app._take_news(hands[2])  # the next news replaces it, and it is not said again
        assert app.notice == ""
    finally:
        app.close()


def test_with_a_profile_it_points_at_the_light_and_the_camera(tmp_path: Path) -> None:
    app, _, _ = _app(tmp_path, frames=1)
    app.close()
    app = App(dataclasses.replace(app.p, deck_enrolled=True))
    try:
        app._take_news(_hands([5])[0])
        assert app.notice == phrases.deck_read_poorly(enrolled=True)
        assert "light" in app.notice and "enrol" not in app.notice
    finally:
        app.close()
