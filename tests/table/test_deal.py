"""The deal as a phase machine: up-card, both bidding rounds, discard, going alone, the first lead."""

from __future__ import annotations

import pytest
from engine_script import MARCH_PLAY, irregular, of_type, run

from table.announcements import Expect, IrregularityKind, Prompt, ThrownIn, TrumpMade, WentAlone
from table.cards import BENNY, Card, Suit
from table.match import Match, Phase
from table.rules import BennyTurnedUp, DefenderAlone, LonerLead, Rules

NA = Rules.preset("north_american")
BRIT = Rules.preset("british")
K = IrregularityKind


def test_new_match_awaits_the_up_card_from_the_first_dealer() -> None:
    m = Match(NA, first_dealer=2)
    assert m.phase is Phase.UP_CARD
    assert m.expected == Prompt(2, Expect.UP_CARD)
    assert m.dealer == 2 and m.score == (0, 0) and not m.game_over and m.winner is None


def test_round_one_prompts_clockwise_from_the_dealers_left() -> None:
    m = Match(NA, first_dealer=3)
    run(m, "up 9h")
    assert m.expected == Prompt(0, Expect.BID_ROUND_1, up_card=Card.parse("9h"))
    run(m, "0 pass; 1 pass")
    assert m.expected.seat == 2


def test_order_up_makes_trump_and_the_dealer_discards() -> None:
    m = Match(NA)
    out = run(m, "up 9h; 1 pass; 2 order")
    assert of_type(out, TrumpMade) == [TrumpMade(2, Suit.HEARTS, False, 1)]
    assert m.phase is Phase.DISCARD and m.expected == Prompt(0, Expect.DISCARD, up_card=Card.parse("9h"))
    run(m, "0 discard 9c")
    assert m.phase is Phase.GO_ALONE
    assert m.expected == Prompt(1, Expect.LEAD)
    rec = m.deals[0]
    assert rec.maker_seat == 2 and rec.trump is Suit.HEARTS and rec.discard == Card.parse("9c")
    assert [type(c).__name__ for c in rec.calls] == ["Pass", "OrderUp"]


def test_unseen_discard_then_play() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 order; 0 discard ?; play Qh")
    assert m.phase is Phase.PLAY and m.deals[0].discard is None


def test_play_without_any_discard_is_an_unseen_discard() -> None:
    m = Match(NA)
    out = run(m, "up 9h; 1 order; 1:Qh")
    assert m.phase is Phase.PLAY and irregular(out) == []


def test_round_two_names_another_suit_without_a_discard() -> None:
    m = Match(NA)
    out = run(m, "up 9h; 1 pass; 2 pass; 3 pass; 0 pass")
    assert m.phase is Phase.BID_ROUND_2 and m.expected.expected is Expect.BID_ROUND_2
    out = run(m, "1 pass; 2 name s")
    assert of_type(out, TrumpMade) == [TrumpMade(2, Suit.SPADES, False, 2)]
    assert m.phase is Phase.GO_ALONE and m.expected == Prompt(1, Expect.LEAD)


def test_all_pass_twice_throws_in_and_the_deal_moves_on() -> None:
    m = Match(NA)
    out = run(m, "up 9h" + "; 1 pass; 2 pass; 3 pass; 0 pass" * 2)
    assert of_type(out, ThrownIn) == [ThrownIn(0)]
    assert m.dealer == 1 and m.phase is Phase.HAND_OVER and m.expected == Prompt(1, Expect.UP_CARD)
    assert m.deals[0].thrown_in and m.deals[0].finished and m.deals[0].points == (0, 0)
    assert m.score == (0, 0)


def test_stick_the_dealer_refuses_the_dealers_pass() -> None:
    m = Match(NA.replace(stick_the_dealer=True))
    out = run(m, "up 9h" + "; 1 pass; 2 pass; 3 pass; 0 pass" * 2)
    assert irregular(out) == [K.NOT_ALLOWED] and not of_type(out, ThrownIn)
    assert m.phase is Phase.BID_ROUND_2 and m.expected.seat == 0
    out = run(m, "0 name c")
    assert of_type(out, TrumpMade) == [TrumpMade(0, Suit.CLUBS, False, 2)]


def test_naming_the_turned_down_suit_is_announced_but_stands() -> None:
    m = Match(NA)
    out = run(m, "up 9h; 1 pass; 2 pass; 3 pass; 0 pass; 1 name h")
    assert irregular(out) == [K.NOT_ALLOWED] and m.deals[0].trump is Suit.HEARTS


def test_no_trump_is_a_round_two_call_where_allowed() -> None:
    m = Match(NA.replace(no_trump=True))
    out = run(m, "up 9h; 1 pass; 2 pass; 3 pass; 0 pass; 1 name n")
    assert irregular(out) == [] and of_type(out, TrumpMade) == [TrumpMade(1, None, False, 2)]
    assert m.deals[0].no_trump and m.deals[0].trump is None
    m2 = Match(NA)
    assert irregular(run(m2, "up 9h; 1 pass; 2 pass; 3 pass; 0 pass; 1 name n")) == [K.NOT_ALLOWED]


def test_naming_the_up_card_suit_in_round_one_is_ordering_up() -> None:
    m = Match(NA)
    out = run(m, "up 9h; 1 name h")
    assert of_type(out, TrumpMade) == [TrumpMade(1, Suit.HEARTS, False, 1)] and m.phase is Phase.DISCARD


def test_canadian_loner_dealers_partner_ordering_up_plays_alone() -> None:
    m = Match(NA.replace(dealer_partner_must_go_alone=True))
    out = run(m, "up 9h; 1 pass; 2 order")
    assert irregular(out) == [K.NOT_ALLOWED]  # announced: treated as alone
    assert of_type(out, TrumpMade) == [TrumpMade(2, Suit.HEARTS, True, 1)]
    # The dealer sits out: no discard; the lead is left of the dealer.
    assert m.phase is Phase.GO_ALONE and m.deals[0].alone_seats == (2,) and m.expected.seat == 1


def test_canadian_rule_off_lets_the_partner_assist() -> None:
    m = Match(NA)
    out = run(m, "up 9h; 1 pass; 2 order")
    assert irregular(out) == [] and m.deals[0].alone_seats == ()


def test_alone_with_the_bid() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 order alone; 0 discard ?")
    assert m.deals[0].alone_seats == (1,)
    assert m.expected.seat == 1  # the loner sits left of the dealer and leads


@pytest.mark.parametrize(
    ("dealer", "alone", "lead", "expected"),
    [
        (0, "1", LonerLead.LEFT_OF_DEALER, 1),  # the loner is left of the dealer and leads
        (0, "3", LonerLead.LEFT_OF_DEALER, 2),  # seat 1 sits out: next active is seat 2
        (0, "3", LonerLead.LEFT_OF_LONER, 0),
        (0, "2", LonerLead.LEFT_OF_LONER, 3),
        (2, "1", LonerLead.LEFT_OF_LONER, 2),
        (2, "0", LonerLead.LEFT_OF_DEALER, 3),
    ],
)
def test_first_lead_with_one_loner(dealer: int, alone: str, lead: LonerLead, expected: int) -> None:
    m = Match(NA.replace(loner_lead=lead), first_dealer=dealer)
    order = [(dealer + k) % 4 for k in range(1, 5)]
    # Everyone passes round 1; in round 2 the seats before the loner pass and the loner names spades alone.
    round1 = "; ".join(f"{s} pass" for s in order)
    round2 = "".join(f"{s} pass; " for s in order[: order.index(int(alone))])
    run(m, f"up 9h; {round1}; {round2}{alone} name s alone")
    assert m.phase is Phase.GO_ALONE and m.deals[0].alone_seats == (int(alone),)
    assert m.expected == Prompt(expected, Expect.LEAD)


def test_two_loners_the_defender_leads_under_left_of_loner() -> None:
    m = Match(BRIT)
    run(m, "up 9h; 1 pass; 2 pass; 3 order alone; 0 discard ?")
    out = run(m, "2 alone")
    assert of_type(out, WentAlone) == [WentAlone(2, True)]
    assert m.deals[0].alone_seats == (3, 2)
    assert m.expected == Prompt(2, Expect.LEAD)


def test_two_loners_left_of_dealer() -> None:
    m = Match(BRIT.replace(loner_lead=LonerLead.LEFT_OF_DEALER))
    run(m, "up 9h; 1 pass; 2 pass; 3 order alone; 0 discard ?; 2 alone")
    # Seat 1 (left of dealer) sits out as seat 3's partner; seat 2 is next.
    assert m.expected == Prompt(2, Expect.LEAD)


def test_defender_alone_never_under_north_american_rules() -> None:
    m = Match(NA)
    out = run(m, "up 9h; 1 order alone; 0 discard ?; 2 alone")
    assert irregular(out) == [K.NOT_ALLOWED] and m.deals[0].alone_seats == (1,)


@pytest.mark.parametrize(
    ("rule", "maker_alone", "allowed"),
    [
        (DefenderAlone.NEVER, True, False),
        (DefenderAlone.AGAINST_LONE_MAKER, False, False),
        (DefenderAlone.AGAINST_LONE_MAKER, True, True),
        (DefenderAlone.ALWAYS, False, True),
    ],
)
def test_defender_may_go_alone(rule: DefenderAlone, maker_alone: bool, allowed: bool) -> None:
    m = Match(NA.replace(defender_may_go_alone=rule))
    run(m, f"up 9h; 1 order{' alone' if maker_alone else ''}; 0 discard ?")
    out = run(m, "2 alone")
    assert (of_type(out, WentAlone) == [WentAlone(2, True)]) is allowed
    assert (2 in m.deals[0].alone_seats) is allowed


def test_maker_may_go_alone_after_the_bid_and_the_dealer_then_sits_out() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 pass; 2 order")
    out = run(m, "2 alone")
    assert of_type(out, WentAlone) == [WentAlone(2, False)]
    # The dealer (seat 0) now sits out, so no discard is expected.
    assert m.phase is Phase.GO_ALONE and m.expected.seat == 1


def test_makers_partner_may_go_alone_only_where_anyone_may() -> None:
    m = Match(NA)
    assert irregular(run(m, "up 9h; 1 order; 0 discard ?; 3 alone")) == [K.NOT_ALLOWED]
    m = Match(NA.replace(defender_may_go_alone=DefenderAlone.ALWAYS))
    assert irregular(run(m, "up 9h; 1 order; 0 discard ?; 3 alone")) == []
    assert m.deals[0].alone_seats == (3,)


def test_passed_player_may_not_go_alone() -> None:
    rules = BRIT.replace(passed_player_may_not_go_alone=True)
    m = Match(rules)
    out = run(m, "up 9h; 1 pass; 2 pass; 3 order; 0 discard ?; 1 alone")
    assert irregular(out) == [K.NOT_ALLOWED] and m.deals[0].alone_seats == ()
    m = Match(BRIT)
    assert irregular(run(m, "up 9h; 1 pass; 2 pass; 3 order; 0 discard ?; 1 alone")) == []


def test_the_first_play_closes_the_go_alone_window() -> None:
    m = Match(BRIT)
    out = run(m, "up 9h; 1 order; 0 discard ?; play Qh; 2 alone")
    assert irregular(out) == [K.NOT_ALLOWED] and m.deals[0].alone_seats == ()


def test_benny_turned_up_dealer_names_trump_blind() -> None:
    m = Match(BRIT, first_dealer=1)
    run(m, "up B")
    assert m.phase is Phase.NAME_TRUMP_BLIND and m.expected == Prompt(1, Expect.NAME_TRUMP_BLIND, up_card=BENNY)
    out = run(m, "1 name s")
    assert of_type(out, TrumpMade) == [TrumpMade(1, Suit.SPADES, False, 0)]
    assert m.phase is Phase.DISCARD and m.expected.seat == 1


def test_benny_turned_up_others_cannot_name() -> None:
    m = Match(BRIT)
    out = run(m, "up B; 1 name s; 0 pass")
    assert irregular(out) == [K.BID_OUT_OF_TURN, K.NOT_ALLOWED] and m.phase is Phase.NAME_TRUMP_BLIND


def test_benny_set_aside_turns_up_the_next_card() -> None:
    m = Match(BRIT.replace(benny_turned_up=BennyTurnedUp.SET_ASIDE))
    run(m, "up B")
    assert m.phase is Phase.UP_CARD
    run(m, "up 9h")
    assert m.phase is Phase.BID_ROUND_1 and m.deals[0].set_aside == [BENNY] and len(m.deals) == 1
    # The Benny was seen: played later it is a duplicate.
    out = run(m, "1 order; 0 discard ?; 1:B")
    assert irregular(out) == [K.DUPLICATE_CARD]


def test_blind_lone_on_a_turned_up_jack() -> None:
    m = Match(NA.replace(blind_lone=True))
    out = run(m, "up Jh; 0 alone")
    assert of_type(out, TrumpMade) == [TrumpMade(0, Suit.HEARTS, True, 1)] and m.deals[0].blind
    m = Match(NA.replace(blind_lone=True))
    assert irregular(run(m, "up Qh; 0 alone")) == [K.NOT_ALLOWED]  # not a jack
    m = Match(NA)
    assert irregular(run(m, "up Jh; 0 alone")) == [K.NOT_ALLOWED]  # switch off


def test_a_full_hand_rotates_the_deal() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 pass; 2 pass; 3 pass; 0 order; 0 discard 9c; " + MARCH_PLAY)
    rec = m.deals[0]
    assert rec.finished and rec.trick_winners == [0, 0, 0, 0, 0] and rec.tricks_won == (5, 0)
    assert rec.tricks[0] == [(1, Card.parse("Qh")), (2, Card.parse("Th")), (3, Card.parse("9d")), (0, Card.parse("Jh"))]
    assert m.dealer == 1 and m.phase is Phase.HAND_OVER and m.expected == Prompt(1, Expect.UP_CARD)
    run(m, "up As")
    assert len(m.deals) == 2 and m.deals[1].dealer == 1 and m.expected.seat == 2


def test_follow_prompt_names_the_effective_suit_led() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 order; 0 discard ?; play Jd")
    assert m.expected == Prompt(2, Expect.FOLLOW, suit=Suit.HEARTS)
