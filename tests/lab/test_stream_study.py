"""The per-frame scoring of ``lab.stream_study``: right, wrong, red-suit swaps and the cards to find."""

from __future__ import annotations

from lab.stream_study import MIN_VISIBLE, FrameTally, score_checks, score_frame, sure_cards
from table.cards import Card
from table.renege import CHECK_CONFIDENCE
from vision.detection import CardDetection

C = Card.parse


def test_a_frame_is_scored_as_a_photo_is() -> None:
    tally = FrameTally()
    in_sight = [(C("9h"), 1.0), (C("Kd"), 0.8), (C("As"), 0.2)]  # the ace mostly covered
    score_frame(tally, 3, [C("9h"), C("As"), C("9d"), C("Qc")], in_sight)
    assert (tally.right, tally.wrong) == (2, 2)  # a card read where it lies is right, covered or not
    assert tally.red_swaps == 1  # 9d read where 9h lies
    assert tally.wrong_cards == [(3, "9d"), (3, "Qc")]
    assert (tally.to_find, tally.found) == (2, 1)  # the ace is under MIN_VISIBLE: not owed
    assert tally.precision == 0.5 and tally.recall == 0.5
    assert MIN_VISIBLE > 0.2
    score_frame(tally, 4, [], [(C("Js"), 1.0)])
    assert (tally.to_find, tally.found, tally.right + tally.wrong) == (3, 1, 4)
    assert tally.line() == "P 0.500 R 0.333 readings 4 wrong 2 red-suit swaps 1 cards 3 to check 0"


def test_readings_under_the_check_line_are_counted_apart_not_scored() -> None:
    tally = FrameTally()
    box = (0.0, 0.0, 10.0, 10.0)
    found = [CardDetection(C("Ks"), 0.9, box, 0), CardDetection(C("Kc"), 0.45, box, 0),
             CardDetection(C("9h"), CHECK_CONFIDENCE, box, 0)]
    assert sure_cards(tally, found) == [C("Ks"), C("9h")]  # the line itself counts as sure
    assert tally.to_check == 1
    assert tally.line().endswith("to check 1")


def test_a_black_suit_card_has_no_red_twin() -> None:
    tally = FrameTally()
    score_frame(tally, 0, [C("9c")], [(C("9s"), 1.0)])
    assert (tally.wrong, tally.red_swaps) == (1, 0)


def test_readings_to_check_are_scored_apart_by_the_card_the_check_names() -> None:
    tally = FrameTally()
    box = (0.0, 0.0, 10.0, 10.0)
    in_sight = [(C("Ks"), 1.0), (C("9h"), 1.0), (C("Qd"), 1.0)]
    found = [
        CardDetection(C("Kd"), 0.5, box, 0, rival=C("Ks")),  # wrong; the rival is the card: the check names it
        CardDetection(C("9d"), 0.5, box, 0, rival=C("Th")),  # wrong; its twin lies there, not its rival
        CardDetection(C("Qd"), 0.5, box, 0, rival=C("Qh")),  # right
        CardDetection(C("Ac"), 0.9, box, 0, rival=C("As")),  # sure: not a check
    ]
    score_checks(tally, found, in_sight)
    assert (tally.check_right, tally.check_rival_right, tally.check_twin_right) == (1, 1, 1)
    assert tally.line().endswith("(right 1; wrong with the card in sight named by the rival 1, by the twin 1)")
