"""The renege alert's penalty line: worded from the rules record, and saying what the engine then scores."""

from __future__ import annotations

import pytest

from display.adapter import build_view, penalty_text
from table.cards import Card, Suit
from table.inputs import AcceptPenalty, Input, NameTrump, Pass, Play, UpCard
from table.match import Match
from table.rules import RenegePenalty, Rules

NAMES = ("Ann", "Bob", "Cat", "Dan")
DEFAULT = ("North", "East", "South", "West")
C = Card.parse
ROUND_2 = (UpCard(C("Jd")), Pass(0), Pass(1), Pass(2), Pass(3))
# Cat (seat 2, team 0) shows out of spades in trick 1 and plays a spade in trick 2.
CAT_RENEGES = (
    *ROUND_2,
    NameTrump(0, Suit.HEARTS),
    *(Play(0, C("As")), Play(1, C("9s")), Play(2, C("Ac")), Play(3, C("Ts"))),
    *(Play(0, C("Ks")), Play(1, C("Qs")), Play(2, C("Js"))),
)
# Ann goes alone (Cat sits out); Dan (seat 3, team 1) shows out of spades, then plays one.
DAN_RENEGES_AGAINST_A_LONER = (
    *ROUND_2,
    NameTrump(0, Suit.HEARTS, alone=True),
    *(Play(0, C("As")), Play(1, C("9s")), Play(3, C("Ac"))),
    *(Play(0, C("Ks")), Play(1, C("Qs")), Play(3, C("Js"))),
)


def match_after(rules: Rules, inputs: tuple[Input, ...]) -> Match:
    m = Match(rules, first_dealer=3)
    for inp in inputs:
        m.apply(inp)
    return m


@pytest.mark.parametrize(
    ("penalty", "offender", "alone", "text"),
    [
        (RenegePenalty.TWO_OR_FOUR, 1, False, "North\u2013South score 2"),
        (RenegePenalty.TWO_OR_FOUR, 3, True, "North\u2013South score 4"),
        (RenegePenalty.TWO_OR_FOUR, 0, False, "East\u2013West score 2"),
        (RenegePenalty.TWO_OR_FOUR, 2, True, "East\u2013West score 4"),
        (RenegePenalty.REPLAY, 1, False, "the hand is replayed"),
        (RenegePenalty.REPLAY, 0, True, "the hand is replayed"),
        (RenegePenalty.DEDUCT, 1, False, "East\u2013West lose 2"),
        (RenegePenalty.DEDUCT, 2, True, "North\u2013South lose 2"),
    ],
)
def test_penalty_wording(penalty: RenegePenalty, offender: int, alone: bool, text: str) -> None:
    assert penalty_text(penalty, offender, DEFAULT, alone=alone) == text


def test_no_such_seat_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="no such seat 4"):
        penalty_text(RenegePenalty.DEDUCT, 4, DEFAULT, alone=False)


def test_without_rules_the_alert_has_no_penalty_line() -> None:
    v = build_view(match_after(Rules(), CAT_RENEGES).view(), NAMES)
    assert v.renege is not None and v.renege.penalty == ""


@pytest.mark.parametrize(
    ("penalty", "inputs", "text", "score"),
    [
        (RenegePenalty.TWO_OR_FOUR, CAT_RENEGES, "Bob\u2013Dan score 2", (0, 2)),
        (RenegePenalty.TWO_OR_FOUR, DAN_RENEGES_AGAINST_A_LONER, "Ann\u2013Cat score 4", (4, 0)),
        (RenegePenalty.REPLAY, CAT_RENEGES, "the hand is replayed", (0, 0)),
        (RenegePenalty.DEDUCT, CAT_RENEGES, "Ann\u2013Cat lose 2", (-2, 0)),
        (RenegePenalty.DEDUCT, DAN_RENEGES_AGAINST_A_LONER, "Bob\u2013Dan lose 2", (0, -2)),
    ],
)
def test_the_alert_says_what_accepting_will_score(
    penalty: RenegePenalty, inputs: tuple[Input, ...], text: str, score: tuple[int, int]
) -> None:
    rules = Rules(renege_penalty=penalty)
    m = match_after(rules, inputs)
    v = build_view(m.view(), NAMES, rules=rules)
    assert v.renege is not None
    assert v.renege.penalty == text
    m.apply(AcceptPenalty())
    assert m.view().score == score  # the words promise what the engine then does
