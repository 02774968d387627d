"""Table events that break the rules are recorded and announced, never raised; programming errors raise."""

from __future__ import annotations

from typing import Any

import pytest
from engine_script import irregular, of_type, run

from table.announcements import Expect, Irregularity, IrregularityKind, Prompt, RenegeProven, TrickWon, TrumpMade
from table.cards import Card, Suit
from table.inputs import Discard, Exchange, NameTrump, Play, ReviseCard, UpCard
from table.match import EngineError, Match, Phase
from table.rules import Rules

NA = Rules.preset("north_american")
K = IrregularityKind
BID = "up 9h; 1 order; 0 discard ?"


def c(text: str) -> Card:
    return Card.parse(text)


def test_play_out_of_turn_is_recorded_against_the_seat_that_played() -> None:
    m = Match(NA)
    run(m, BID + "; 1:Ah")
    out = run(m, "3:Kh")  # seat 2 was to play
    irr = [a for a in out if isinstance(a, Irregularity)]
    assert [(i.kind, i.seat, i.card) for i in irr] == [(K.OUT_OF_TURN, 3, c("Kh"))]
    # The turn stays with the first seat clockwise from the leader that has not played.
    assert m.expected == Prompt(2, Expect.FOLLOW, suit=Suit.HEARTS)
    out = run(m, "2:Qh 0:9h")
    assert of_type(out, TrickWon) == [TrickWon(1, c("Ah"), 0)]
    assert m.deals[0].tricks[0] == [(1, c("Ah")), (3, c("Kh")), (2, c("Qh")), (0, c("9h"))]
    assert m.deals[0].irregularities == irr


def test_lead_out_of_turn_makes_that_card_the_lead() -> None:
    m = Match(NA)
    run(m, BID)
    out = run(m, "2:As")
    assert irregular(out) == [K.OUT_OF_TURN]
    assert m.expected == Prompt(3, Expect.FOLLOW, suit=Suit.SPADES)
    out = run(m, "3:Ks 0:Qs 1:Js")
    assert of_type(out, TrickWon) == [TrickWon(2, c("As"), 0)]


def test_a_second_card_from_the_same_seat_in_a_trick_is_ignored() -> None:
    # Of another suit, it may be another seat's card in the wrong place: the hand's play is out of order,
    # and a renege in it is only suspected.
    m = Match(NA)
    out = run(m, BID + "; 1:Ah 1:Ks~0.9")
    assert irregular(out) == [K.OUT_OF_TURN] and m.deals[0].tricks[0] == [(1, c("Ah"))]
    out = run(m, "2:9s 3:Th 0:Qh; 1:As 2:Jd")  # seat 2 showed out of hearts, then plays the left bower
    assert not of_type(out, RenegeProven) and K.SUSPECTED_RENEGE in irregular(out)
    # Of the same suit, it is the seat's card read two ways: the table is asked to check it, and the play
    # stays in order, so the renege is proven.
    m = Match(NA)
    out = run(m, BID + "; 1:Ah 1:Kh~0.9")
    assert irregular(out) == [K.CHECK_CARD] and m.deals[0].tricks[0] == [(1, c("Ah"))]
    out = run(m, "2:9s 3:Th 0:Qh; 1:As 2:Jd")
    assert [r.seat for r in of_type(out, RenegeProven)] == [2]


def test_the_lone_players_partner_playing_is_ignored_for_the_trick() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 order alone; 0 discard ?; 1:Ah")
    out = run(m, "3:Kh")
    assert irregular(out) == [K.LONE_PARTNER_PLAYED]
    assert m.deals[0].tricks[0] == [(1, c("Ah"))] and m.expected.seat == 2
    out = run(m, "2:Qh 0:Th")
    assert of_type(out, TrickWon) == [TrickWon(1, c("Ah"), 0)]  # a three-card trick


def test_the_same_card_twice_in_a_hand() -> None:
    m = Match(NA)
    out = run(m, BID + "; 1:Ah 2:Kh 3:Qh 0:Ah")
    irr = [a for a in out if isinstance(a, Irregularity)]
    assert [(i.kind, i.seat) for i in irr] == [(K.DUPLICATE_CARD, 0)]
    assert m.deals[0].trick_winners == [1]  # the first of two identical cards wins


def test_the_turned_down_up_card_in_play() -> None:
    m = Match(NA)
    out = run(m, "up 9h; 1 pass; 2 pass; 3 pass; 0 pass; 1 name s; 1:9h")
    assert irregular(out) == [K.UP_CARD_PLAYED]


def test_the_taken_up_card_played_by_someone_else() -> None:
    m = Match(NA)
    assert irregular(run(m, BID + "; 1:9h")) == [K.UP_CARD_PLAYED]
    m = Match(NA)
    assert irregular(run(m, BID + "; 1:Ah 2:Kh 3:Qh 0:9h")) == []  # the dealer plays it: fine


def test_the_known_discard_played_later() -> None:
    m = Match(NA)
    assert irregular(run(m, "up 9h; 1 order; 0 discard Tc; 1:Tc")) == [K.DUPLICATE_CARD]


@pytest.mark.parametrize(
    ("deck_size", "card", "flagged"),
    [(24, "8s", True), (28, "8s", False), (28, "7s", True), (24, "B", True), (25, "B", False), (32, "7s", False)],
)
def test_a_card_outside_the_rules_deck(deck_size: int, card: str, flagged: bool) -> None:
    m = Match(NA.replace(deck_size=deck_size))
    out = run(m, BID + f"; 1:{card}")
    assert (irregular(out) == [K.NOT_IN_DECK]) is flagged
    assert m.deals[0].tricks[0] == [(1, c(card))]  # recorded as played either way


def test_an_up_card_outside_the_deck() -> None:
    m = Match(NA)
    assert irregular(run(m, "up 8h")) == [K.NOT_IN_DECK] and m.phase is Phase.BID_ROUND_1


def test_a_play_before_bidding_ended() -> None:
    m = Match(NA)
    out = run(m, "up 9h; 1 pass; 2:As")
    assert irregular(out) == [K.PLAY_BEFORE_BIDDING_ENDED] and m.phase is Phase.BID_ROUND_1
    m = Match(NA)
    assert irregular(run(m, "1:As")) == [K.PLAY_BEFORE_BIDDING_ENDED]


def test_a_pass_out_of_turn_is_ignored() -> None:
    m = Match(NA)
    out = run(m, "up 9h; 3 pass")
    assert irregular(out) == [K.BID_OUT_OF_TURN] and m.expected.seat == 1


def test_an_order_out_of_turn_stands() -> None:
    m = Match(NA)
    out = run(m, "up 9h; 3 order")
    assert irregular(out) == [K.BID_OUT_OF_TURN]
    assert of_type(out, TrumpMade) == [TrumpMade(3, Suit.HEARTS, False, 1)]


def test_a_bid_before_the_up_card_and_after_bidding() -> None:
    m = Match(NA)
    assert irregular(run(m, "1 pass")) == [K.BID_OUT_OF_TURN]
    assert irregular(run(m, BID + "; 2 pass")) == [K.NOT_ALLOWED]


def test_round_one_naming_another_suit_and_round_two_ordering_up() -> None:
    m = Match(NA)
    assert irregular(run(m, "up 9h; 1 name s")) == [K.NOT_ALLOWED] and m.phase is Phase.BID_ROUND_1
    m = Match(NA)
    assert irregular(run(m, "up 9h; 1 pass; 2 pass; 3 pass; 0 pass; 1 order")) == [K.NOT_ALLOWED]


def test_exchange_not_allowed_is_announced_and_recorded() -> None:
    m = Match(NA)
    out = run(m, "up 9h; 1 xchg farmers_hand")
    assert irregular(out) == [K.NOT_ALLOWED] and m.deals[0].exchanges == [Exchange(1, "farmers_hand")]


def test_discard_by_someone_else_or_twice() -> None:
    m = Match(NA)
    assert irregular(run(m, "up 9h; 1 order; 2 discard Tc")) == [K.NOT_ALLOWED]
    assert m.phase is Phase.DISCARD
    assert irregular(run(m, "0 discard ?; 0 discard Tc")) == [K.NOT_ALLOWED]


def test_discarding_the_up_card_where_forbidden() -> None:
    m = Match(NA.replace(dealer_may_discard_upcard=False))
    assert irregular(run(m, "up 9h; 1 order; 0 discard 9h")) == [K.NOT_ALLOWED]


def test_an_up_card_during_play_is_announced_and_ignored() -> None:
    m = Match(NA)
    assert irregular(run(m, BID + "; up Ts")) == [K.NOT_ALLOWED] and m.deals[0].up_card == c("9h")


def test_low_confidence_up_card_asks_for_a_check() -> None:
    m = Match(NA)
    assert irregular(run(m, "up 9h~0.2")) == [K.CHECK_CARD]


def test_irregularities_never_raise_in_any_phase() -> None:
    # Every table event in every phase of a deal: announced or accepted, never an exception.
    events = ["up Ts", "1 pass", "2 order", "3 name c", "0 alone", "0 discard ?", "1:Ah", "accept", "dismiss"]
    prefixes = ["", "up 9h", "up 9h; 1 order", BID, BID + "; 1:Ah", "up 9h" + "; 1 pass; 2 pass; 3 pass; 0 pass" * 2]
    for prefix in prefixes:
        for ev in events:
            m = Match(NA)
            run(m, f"{prefix}; {ev}" if prefix else ev)


@pytest.mark.parametrize(
    ("inp", "message"),
    [
        (Play(7, Card.parse("Ah")), "no such seat"),
        (Play(-1, Card.parse("Ah")), "no such seat"),
        (NameTrump(1, "hearts"), "suit must be a Suit"),  # type: ignore[arg-type]
        (Play(1, "Ah"), "card must be a Card"),  # type: ignore[arg-type]
        (UpCard("9h"), "card must be a Card"),  # type: ignore[arg-type]
        (Exchange(1, "swap_everything"), "unknown exchange kind"),
        (ReviseCard(99, Card.parse("Ah")), "no input 99"),
        (ReviseCard(1, Card.parse("Ah")), "has no card"),
        ("Play(1, Ah)", "not an engine input"),
    ],
)
def test_programming_errors_raise_engine_error_naming_input_and_phase(inp: Any, message: str) -> None:
    m = Match(NA)
    run(m, "up 9h; 1 pass")
    with pytest.raises(EngineError, match=message) as info:
        m.apply(inp)
    assert "(phase bid_round_1)" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_a_discard_card_type_error() -> None:
    m = Match(NA)
    with pytest.raises(EngineError, match="Card or None"):
        m.apply(Discard(0, "Tc"))  # type: ignore[arg-type]
