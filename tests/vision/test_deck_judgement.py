"""The table's running verdict on its deck: dark after enough frames say so, white until then, rechecked seldom."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

from vision.deck_judgement import MIN_RED_CARDS, DeckJudgement, FrameVerdict


def _saying(
    dark: bool | None, red_suited: int = MIN_RED_CARDS, red_printed: int = MIN_RED_CARDS
) -> Callable[[], FrameVerdict | None]:
    verdict = None if dark is None else FrameVerdict(dark, red_suited, red_printed)
    return lambda: verdict


def _feed(judgement: DeckJudgement, verdicts: list[bool | None]) -> list[bool]:
    """Each frame's look, the frames of a deck that prints red."""
    return [judgement.look(_saying(v)) for v in verdicts]


def test_a_deck_is_read_as_dark_only_once_enough_frames_are_judged() -> None:
    judgement = DeckJudgement(settle=4, window=8, share=0.5, recheck_every=5)
    assert _feed(judgement, [True, True, True, True, True]) == [False, False, False, True, True]


def test_frames_that_cannot_say_leave_the_verdict_alone() -> None:
    judgement = DeckJudgement(settle=3, window=8, share=0.5, recheck_every=5)
    said = _feed(judgement, [True, None, None, True, None, True])
    assert said == [False, False, False, False, False, True]
    assert judgement.judged == 3


def test_a_white_deck_with_a_dark_frame_now_and_then_stays_white() -> None:
    judgement = DeckJudgement(settle=4, window=8, share=0.5, recheck_every=5)
    said = _feed(judgement, [False, True, False, False, False, True, False, False, False, False])
    assert not any(said)


def test_half_of_the_verdicts_kept_make_the_deck_dark() -> None:
    judgement = DeckJudgement(settle=4, window=4, share=0.5, recheck_every=1)
    assert _feed(judgement, [True, False, True, False]) == [False, False, False, True]
    assert _feed(judgement, [False]) == [False]  # the window slid: one dark verdict of four


def test_once_the_window_is_full_one_frame_in_recheck_every_is_judged() -> None:
    judgement = DeckJudgement(settle=2, window=2, share=0.5, recheck_every=3)
    asked: list[int] = []

    def verdict(n: int) -> FrameVerdict:
        asked.append(n)
        return FrameVerdict(True, 1, 1)

    for n in range(9):
        judgement.look(partial(verdict, n))
    assert asked == [0, 1, 4, 7]


def test_a_frame_due_that_cannot_say_leaves_the_next_frame_due() -> None:
    judgement = DeckJudgement(settle=1, window=1, share=0.5, recheck_every=3)
    asked: list[int] = []

    def verdict(n: int) -> FrameVerdict | None:
        asked.append(n)
        return None if n == 3 else FrameVerdict(False, 0, 0)

    for n in range(6):
        judgement.look(partial(verdict, n))
    assert asked == [0, 3, 4]


def test_a_new_deck_is_judged_afresh() -> None:
    judgement = DeckJudgement(settle=2, window=4, share=0.5, recheck_every=5)
    assert _feed(judgement, [True, True]) == [False, True]
    judgement.reset()
    assert not judgement.dark and judgement.judged == 0
    assert _feed(judgement, [False, False]) == [False, False]


@pytest.mark.parametrize(
    ("red_suited", "red_printed", "looks"),
    [(1, 1, True), (1, 0, False), (2, 1, True), (4, 1, False), (0, 0, False)],
)
def test_a_dark_deck_takes_the_look_only_where_its_red_suits_are_seen_printed_red(
    red_suited: int, red_printed: int, looks: bool
) -> None:
    # per frame; over 4 frames MIN_RED_CARDS (3) red-suited cards at least are needed, half of them printed red:
    # a deck printed all in one ink shows its hearts and diamonds in its one ink, and is read as before
    assert MIN_RED_CARDS == 3
    judgement = DeckJudgement(settle=4, window=4, share=0.5, recheck_every=1)
    said = [judgement.look(_saying(True, red_suited, red_printed)) for _ in range(4)]
    assert judgement.dark
    assert said[-1] is looks and judgement.prints_red is looks
    assert not any(said[:3])


def test_red_print_seen_before_the_deck_settles_still_counts() -> None:
    judgement = DeckJudgement(settle=3, window=8, share=0.5, recheck_every=1)
    said = [judgement.look(_saying(True, *red)) for red in ((3, 3), (0, 0), (0, 0))]
    assert said == [False, False, True]


@pytest.mark.parametrize(("settle", "window", "recheck"), [(0, 4, 1), (5, 4, 1), (2, 4, 0)])
def test_nonsense_settings_are_refused(settle: int, window: int, recheck: int) -> None:
    with pytest.raises(ValueError):
        DeckJudgement(settle=settle, window=window, recheck_every=recheck)
