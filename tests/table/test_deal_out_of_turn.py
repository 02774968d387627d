"""Stealing the deal: an up-card the camera saw turned by another seat than the dealer is announced, never
refused; the deal stands as the dealer's until the table declares a misdeal."""

from __future__ import annotations

import pytest

from table.announcements import Irregularity, IrregularityKind, Prompt
from table.cards import Card
from table.codec import input_from_dict, input_to_dict
from table.egn import dumps_egn, export_egn
from table.inputs import Misdeal, Pass, UpCard
from table.match import EngineError, Match
from table.rules import BennyTurnedUp, Rules

C = Card.parse


def _kinds(out: list[object]) -> list[tuple[IrregularityKind, int | None, int | None]]:
    return [(a.kind, a.seat, a.dealer) for a in out if isinstance(a, Irregularity)]


def test_the_dealer_turning_the_up_card_is_no_irregularity() -> None:
    m = Match(Rules(), first_dealer=1)
    assert _kinds(m.apply(UpCard(C("9h"), turned_by=1))) == []


def test_another_seat_turning_it_is_a_deal_out_of_turn_and_the_deal_goes_on() -> None:
    m = Match(Rules(), first_dealer=1)
    out = m.apply(UpCard(C("9h"), 0.97, turned_by=3))
    assert _kinds(out) == [(IrregularityKind.DEAL_OUT_OF_TURN, 3, 1)]
    irr = next(a for a in out if isinstance(a, Irregularity))
    assert irr.card == C("9h") and "turned by seat 3" in irr.detail
    assert m.expected == Prompt(2, m.expected.expected, None, C("9h"))  # left of the dealer bids first
    assert _kinds(m.apply(Pass(2))) == []
    # The table may void it: the same dealer deals again, and a second up-card turned by the dealer is quiet.
    m.apply(Misdeal())
    assert m.dealer == 1
    assert _kinds(m.apply(UpCard(C("Ts"), turned_by=1))) == []


def test_not_said_on_an_uncertain_up_card_or_without_a_seat() -> None:
    assert _kinds(Match(Rules(), 0).apply(UpCard(C("9h"), 0.3, turned_by=2))) == [
        (IrregularityKind.CHECK_CARD, None, None)
    ]
    assert _kinds(Match(Rules(), 0).apply(UpCard(C("9h")))) == []


def test_not_said_when_a_deal_went_by_unseen_just_before() -> None:
    """The engine's dealer is then a guess: the camera's seat says nothing against the rotation."""
    m = Match(Rules(), 0)
    out = m.apply(UpCard(C("9h"), unseen_deals=1, turned_by=3))
    assert IrregularityKind.DEAL_OUT_OF_TURN not in [k for k, _, _ in _kinds(out)]


def test_only_the_first_card_turned_in_a_deal_counts() -> None:
    m = Match(Rules.preset("british").replace(benny_turned_up=BennyTurnedUp.SET_ASIDE), 0)
    m.apply(UpCard(C("B"), turned_by=0))
    assert _kinds(m.apply(UpCard(C("9h"), turned_by=2))) == []


def test_turned_by_is_written_to_the_log_only_when_known_and_read_back() -> None:
    assert "turned_by" not in input_to_dict(UpCard(C("9h")))
    for seat in range(4):
        d = input_to_dict(UpCard(C("9h"), 0.9, turned_by=seat))
        assert d["turned_by"] == seat and input_from_dict(d) == UpCard(C("9h"), 0.9, turned_by=seat)


@pytest.mark.parametrize("bad", [4, -1, True, "2"])
def test_a_bad_seat_is_refused(bad: object) -> None:
    with pytest.raises(EngineError):
        Match(Rules(), 0).apply(UpCard(C("9h"), turned_by=bad))  # type: ignore[arg-type]


def test_the_egn_export_carries_it_as_an_annotation() -> None:
    m = Match(Rules(), 0)
    m.apply(UpCard(C("9h"), turned_by=2))
    text = dumps_egn(export_egn(m))
    assert "turned by seat 2" in text or "deal_out_of_turn" in text
