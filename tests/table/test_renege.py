"""Reneges: proven at exactly the first card that proves them, left-bower cases, hidden cards, penalties."""

from __future__ import annotations

import pytest
from engine_script import MARCH_PLAY, irregular, of_type, run

from table.announcements import (
    Expect,
    HandScored,
    Irregularity,
    IrregularityKind,
    PenaltyApplied,
    RenegeEvidence,
    RenegeProven,
)
from table.cards import Card, Suit
from table.match import CHECK_CONFIDENCE, Match, Phase
from table.rules import RenegePenalty, Rules

NA = Rules.preset("north_american")
K = IrregularityKind
BID = "up 9h; 1 order; 0 discard ?"  # hearts trump, team 1 makers


def c(text: str) -> Card:
    return Card.parse(text)


def proofs(out: list[object]) -> list[RenegeEvidence]:
    return [a.evidence for a in out if isinstance(a, RenegeProven)]


def test_renege_is_proven_at_exactly_the_first_card_of_the_suit() -> None:
    m = Match(NA)
    run(m, BID)
    assert proofs(run(m, "1:As 2:Ac 3:Ad 0:Jh")) == []  # seat 2 shows out of spades
    assert proofs(run(m, "0:Ah 1:Qh 2:Th 3:9d")) == []
    out = run(m, "0:Kh 1:Ks")
    assert proofs(out) == []
    out = run(m, "2:Qs")
    assert proofs(out) == [RenegeEvidence(2, Suit.SPADES, 0, c("Ac"), c("As"), 2, c("Qs"))]
    assert m.phase is Phase.RENEGE_DECISION and m.expected.expected is Expect.RENEGE_DECISION
    assert m.expected.seat == 3  # who plays next if the table plays on
    assert m.view().pending_renege == proofs(out)[0]


def test_a_renege_is_announced_once() -> None:
    m = Match(NA)
    run(m, BID + "; 1:As 2:Ac 3:Ad 0:Jh; 0:Kc 1:9c 2:Qs")
    assert len(m.deals[0].reneges) == 1
    out = run(m, "dismiss; 3:Tc; 0:Ah 1:Qh 2:Js 3:Kh")  # another spade from seat 2: already proven
    assert proofs(out) == [] and len(m.deals[0].reneges) == 1


def test_leading_the_suit_proves_too() -> None:
    m = Match(NA)
    run(m, BID + "; 1:As 2:Ac 3:Ad 0:Ks")  # seats 2 and 3 show out of spades
    run(m, "1:Kc 2:Qc 3:Jh 0:Tc")  # seat 3 trumps and wins
    assert m.expected.seat == 3
    out = run(m, "3:Qs")  # and leads a spade
    assert proofs(out) == [RenegeEvidence(3, Suit.SPADES, 0, c("Ad"), c("As"), 2, c("Qs"))]


# Hearts trump: Jd is a heart for every purpose.
@pytest.mark.parametrize(
    ("plays", "renege"),
    [
        # A diamond lead answered with the left bower is a show-out of diamonds...
        ("1:Ad 2:Jd 3:Kd 0:Qd; 1:9c 2:Td", (2, Suit.DIAMONDS)),
        # ...and a later diamond proves it.
        ("1:Ad 2:Jd 3:Kd 0:Qd; 1:9c 2:Tc 3:Qc 0:Kc; 0:Ac 1:Ts 2:9d", (2, Suit.DIAMONDS)),
        # The left bower follows a trump lead: no show-out, hearts later are fine.
        ("1:Ah 2:Jd 3:Kh 0:Qh; 2:Th 3:9h", None),
        # Showing out of hearts with a diamond, then playing the left bower: a trump, so proven.
        ("1:Ah 2:Ad 3:Kh 0:Qh; 1:9c 2:Tc 3:Qc 0:Kc; 0:Ac 1:Ts 2:Jd", (2, Suit.HEARTS)),
        # Showing out of diamonds, then playing the left bower: not a diamond, no renege.
        ("1:Ad 2:9s 3:Kd 0:Qd; 1:9c 2:Tc 3:Qc 0:Kc; 0:Ac 1:Ts 2:Jd", None),
        # A led left bower is a trump lead: following with a diamond shows out of hearts...
        ("1:Jd 2:Ad 3:Kh 0:Qh; 1:9c 2:Tc 3:Qc 0:Kc; 0:Ac 1:Ts 2:Ah", (2, Suit.HEARTS)),
        # ...and a later diamond is no proof of anything.
        ("1:Jd 2:Ad 3:Kh 0:Qh; 1:9c 2:Tc 3:Qc 0:Kc; 0:Ac 1:Ts 2:Kd", None),
        # The right bower is a heart too.
        ("1:Ah 2:Ad 3:Kh 0:Qh; 1:9c 2:Tc 3:Qc 0:Kc; 0:Ac 1:Ts 2:Jh", (2, Suit.HEARTS)),
    ],
)
def test_left_bower_cases(plays: str, renege: tuple[int, Suit] | None) -> None:
    m = Match(NA)
    out = run(m, BID + "; " + plays)
    got = [(e.seat, e.suit) for e in proofs(out)]
    assert got == ([] if renege is None else [renege])


def test_benny_is_trump_for_reneges() -> None:
    m = Match(Rules.preset("british"))
    # Seat 2 shows out of trump (hearts) and later plays the Benny.
    out = run(m, "up 9h; 1 order; 0 discard 9c; 1:Ah 2:Ad 3:Kh 0:Qh; 1:9c 2:Tc 3:Qc 0:Kc; 0:Ac 1:Ts 2:B")
    assert [(e.seat, e.suit) for e in proofs(out)] == [(2, Suit.HEARTS)]


def test_low_confidence_show_out_never_proves() -> None:
    m = Match(NA)
    out = run(m, BID + "; 1:As 2:Ac~0.3 3:Ad 0:Jh")
    assert irregular(out) == [K.CHECK_CARD]
    out = run(m, "0:Ah 1:Qh 2:Th 3:9d; 0:Kh 1:Ks 2:Qs")
    assert proofs(out) == [] and m.phase is Phase.PLAY


def test_low_confidence_proof_card_never_alarms_but_a_later_one_does() -> None:
    m = Match(NA)
    out = run(m, BID + "; 1:As 2:Ac 3:Ad 0:Jh; 0:Kc 1:9c 2:Qs~0.5")
    assert proofs(out) == [] and irregular(out) == [K.CHECK_CARD]
    out = run(m, "3:Tc; 0:Ah 1:Qh 2:Ts")
    assert [(e.seat, e.proof_card) for e in proofs(out)] == [(2, c("Ts"))]


def test_low_confidence_lead_creates_no_show_outs() -> None:
    m = Match(NA)
    out = run(m, BID + f"; 1:As~{CHECK_CONFIDENCE / 2} 2:Ac 3:Ad 0:Jh; 0:Kc 1:9c 2:Qs")
    assert proofs(out) == []


def test_revising_the_doubtful_card_makes_the_proof() -> None:
    m = Match(NA)
    run(m, BID + "; 1:As 2:Ac~0.3 3:Ad 0:Jh; 0:Kc 1:9c 2:Qs")
    index = next(i for i, x in enumerate(m.history) if getattr(x, "card", None) == c("Ac"))
    out = run(m, f"revise {index} Ac")  # the camera confirms the reading
    assert [(e.seat, e.suit) for e in proofs(out)] == [(2, Suit.SPADES)]
    assert m.phase is Phase.RENEGE_DECISION


def test_a_legal_hand_has_no_renege() -> None:
    m = Match(NA)
    out = run(m, "up 9h; 1 pass; 2 pass; 3 pass; 0 order; 0 discard 9c; " + MARCH_PLAY)
    assert proofs(out) == [] and irregular(out) == []


# ---- the dealer's up-card: hidden information handled honestly


def test_dealer_shows_out_of_the_up_cards_suit_with_the_discard_seen_is_proof() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 order; 0 discard 9c; 1:Ah 2:Kh 3:Qh")
    out = run(m, "0:As")  # the dealer provably still holds 9h
    assert proofs(out) == [RenegeEvidence(0, Suit.HEARTS, 0, c("As"), c("Ah"), 0, c("9h"), proof="held_up_card")]
    out = run(m, "dismiss; 1:Ks 2:Qs 3:Js 0:9h")  # and later plays it: the same renege, not announced again
    assert proofs(out) == []


def test_dealer_show_out_with_the_discard_unseen_is_only_suspected() -> None:
    m = Match(NA)
    out = run(m, "up 9h; 1 order; 0 discard ?; 1:Ah 2:Kh 3:Qh 0:As")
    assert proofs(out) == [] and irregular(out) == [K.SUSPECTED_RENEGE]
    out = run(m, "1:Ks 2:Qs 3:Js 0:9h")  # the up-card appears: now it is proof
    assert [(e.seat, e.proof_card, e.proof) for e in proofs(out)] == [(0, c("9h"), "played")]


def test_dealer_who_may_not_discard_the_up_card_provably_holds_it() -> None:
    m = Match(NA.replace(dealer_may_discard_upcard=False))
    out = run(m, "up 9h; 1 order; 0 discard ?; 1:Ah 2:Kh 3:Qh 0:As")
    assert [e.proof for e in proofs(out)] == ["held_up_card"]


def test_dealer_who_discarded_the_up_card_shows_out_freely() -> None:
    m = Match(NA)
    out = run(m, "up 9h; 1 order; 0 discard 9h; 1:Ah 2:Kh 3:Qh 0:As")
    assert proofs(out) == [] and irregular(out) == []


def test_an_unseen_exchange_clears_what_the_dealer_provably_held() -> None:
    rules = NA.replace(call_for_best=True)
    m = Match(rules)
    out = run(m, "up 9h; 1 pass; 2 pass; 3 pass; 0 order alone; 0 discard 9c; 0 xchg call_for_best")
    assert irregular(out) == []
    out = run(m, "1:Ah 3:Qh 0:As")
    assert proofs(out) == [] and irregular(out) == [K.SUSPECTED_RENEGE]


def test_a_farmers_swap_clears_it_too() -> None:
    m = Match(NA.replace(farmers_hand=True))
    out = run(m, "up 9h; 0 xchg farmers_hand; 1 order; 0 discard 9c; 1:Ah 2:Kh 3:Qh 0:As")
    assert proofs(out) == [] and irregular(out) == [K.SUSPECTED_RENEGE]


# ---- penalties


def _renege_in_trick_two(rules: Rules, bid: str = BID) -> Match:
    m = Match(rules)
    run(m, bid + "; 1:As 2:Ac 3:Ad 0:Jh; 0:Kc 1:9c 2:Qs")
    assert m.phase is Phase.RENEGE_DECISION
    return m


def test_penalty_two_to_the_non_offenders() -> None:
    m = _renege_in_trick_two(NA)
    out = run(m, "accept")
    assert of_type(out, PenaltyApplied) == [PenaltyApplied(2, (0, 2))]
    assert m.score == (0, 2) and m.deals[0].finished and m.deals[0].reason == "renege"
    assert m.dealer == 1 and m.phase is Phase.HAND_OVER


def test_penalty_four_when_a_lone_hand_is_involved() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 order alone; 0 discard ?; 1:As 2:Ac 0:Jh; 0:Kc 1:9c 2:Qs")
    run(m, "accept")
    assert m.score == (0, 4)


def test_penalty_replay_voids_the_hand_and_the_dealer_deals_again() -> None:
    m = _renege_in_trick_two(NA.replace(renege_penalty=RenegePenalty.REPLAY))
    run(m, "accept")
    assert m.score == (0, 0) and m.dealer == 0 and m.deals[0].voided
    run(m, "up Ts")
    assert m.deals[1].dealer == 0


def test_penalty_deduct() -> None:
    m = _renege_in_trick_two(NA.replace(renege_penalty=RenegePenalty.DEDUCT))
    run(m, "accept")
    assert m.score == (-2, 0)


def test_dismiss_plays_on_and_keeps_the_record() -> None:
    m = _renege_in_trick_two(NA)
    run(m, "dismiss")
    assert m.phase is Phase.PLAY and m.expected.seat == 3 and m.view().pending_renege is None
    assert len(m.deals[0].reneges) == 1


def test_playing_on_is_an_implicit_dismissal_and_the_penalty_can_come_later() -> None:
    m = _renege_in_trick_two(NA)
    run(m, "3:Tc")  # no decision: play goes on
    assert m.phase is Phase.PLAY
    run(m, "0:Ah 1:Qh 2:Th 3:Kh; 0:Kd 1:Qd 2:9d 3:Td; 0:Qc 1:Jd 2:Ks 3:Jc")
    assert irregular(list(m.last_announcements)) == [] and len(m.deals[0].reneges) == 1
    assert m.deals[0].finished and m.phase is Phase.HAND_OVER
    played_score = m.score
    out = run(m, "accept")  # still before the next up-card
    assert of_type(out, PenaltyApplied) == [PenaltyApplied(2, (0, 2))]
    assert m.score == (0, 2) and played_score != m.score
    assert of_type(out, HandScored)[0].reason == "renege"  # type: ignore[attr-defined]
    assert irregular(run(m, "accept")) == [K.NOT_ALLOWED]  # only once


# Seat 3 shows out of hearts in trick 1 and plays the left bower (a heart) as the very last card.
LAST_CARD_RENEGE = (
    "; 1:As 2:Ac 3:Ad 0:Ks; 1:Ah 2:Th 3:9d 0:Jh; 0:Kh 1:Qh 2:Jc 3:Kd; 0:9h 1:Qs 2:Kc 3:Qd; 0:Ts 1:9s 2:Qc 3:Jd"
)


def test_a_renege_on_the_last_card_waits_for_the_decision_after_scoring() -> None:
    m = Match(NA)
    run(m, BID + LAST_CARD_RENEGE)
    assert m.deals[0].finished and m.phase is Phase.RENEGE_DECISION
    assert m.expected.seat is None
    run(m, "up Ts")  # the next deal begins: the renege was let go
    assert m.phase is Phase.BID_ROUND_1 and m.deals[0].points == (2, 0)


def test_a_renege_on_the_last_card_can_be_accepted_after_scoring() -> None:
    m = Match(NA)
    out = run(m, BID + LAST_CARD_RENEGE)
    assert [h.points for h in of_type(out, HandScored)] == [(2, 0)]  # type: ignore[attr-defined]
    out = run(m, "accept")  # seat 3 (team 1) reneged: team 0 scores 2 instead of the euchre's 2
    assert of_type(out, PenaltyApplied) == [PenaltyApplied(3, (2, 0))]
    assert m.score == (2, 0) and m.deals[0].reason == "renege" and m.phase is Phase.HAND_OVER


def test_the_next_up_card_ends_the_claim() -> None:
    m = Match(NA)
    run(m, BID + LAST_CARD_RENEGE)
    out = run(m, "up Ts; accept")
    assert irregular(out) == [K.NOT_ALLOWED] and m.score == (2, 0)


def test_accept_without_a_renege_is_refused() -> None:
    m = Match(NA)
    assert irregular(run(m, BID + "; accept")) == [K.NOT_ALLOWED]


def test_a_second_renege_of_the_same_suit_is_proven_on_its_own() -> None:
    m = Match(NA)
    run(m, BID + "; 1:As 2:Ac 3:Ad 0:Jh; 0:Kc 1:9c 2:Qs")  # first spade renege by seat 2, proven
    run(m, "dismiss; 3:Tc; 0:Ks 1:Ts 2:Jc")  # seat 2 fails to follow spades again
    out = run(m, "3:Td; 0:Ah 1:Qh 2:Th 3:Kh; 0:Qd 1:Kd 2:9s")
    assert [(e.seat, e.suit, e.showed_out_trick, e.proof_trick) for e in proofs(out)] == [(2, Suit.SPADES, 2, 4)]


def test_the_penalty_skips_reneges_the_table_dismissed() -> None:
    m = Match(NA)
    # Seat 2 (team 0) reneges and play goes on without a decision; seat 3 (team 1) reneges and is dismissed.
    run(m, BID + "; 1:As 2:Ac 3:Ad 0:Jh; 0:Kc 1:9c 2:Qs 3:Tc; 0:Qd 1:Kd 2:9d 3:Qc; 1:Ah 2:Th 3:Js")
    assert [e.seat for e in m.deals[0].reneges] == [2, 3]
    run(m, "dismiss")
    out = run(m, "accept")
    assert of_type(out, PenaltyApplied) == [PenaltyApplied(2, (0, 2))]


def test_accept_after_every_renege_was_dismissed_is_refused() -> None:
    m = _renege_in_trick_two(NA)
    assert irregular(run(m, "dismiss; accept")) == [K.NOT_ALLOWED]


def test_a_late_penalty_can_undo_a_game_win() -> None:
    # Team 0 reaches 10 with a euchre in which seat 2 (team 0) reneged on the last card; the table claims it.
    m = Match(NA, score=(8, 7))
    run(m, BID + "; 1:As 2:Ac 3:Ad 0:Ks; 1:Ah 2:Th 3:9d 0:Jh; 0:Kh 1:Qh 2:Jc 3:Kd; 0:9h 1:Qs 2:Kc 3:Qd")
    run(m, "0:Ts 1:9s 3:Td 2:Js")  # seat 2 shows its spade last
    assert m.score == (10, 7) and m.game_over and m.phase is Phase.RENEGE_DECISION
    out = run(m, "accept")
    assert of_type(out, PenaltyApplied) == [PenaltyApplied(2, (0, 2))]
    assert m.score == (8, 9) and not m.game_over and m.winner is None and m.phase is Phase.HAND_OVER
    assert m.last_deal is not None and m.last_deal.reason == "renege"


def _camera(plays: str, conf: str = "0.9") -> str:
    """The same plays as read by the camera: every card with a confidence under 1."""
    lines = [" ".join(f"{t}~{conf}" for t in line.split()) for line in plays.split(";")]
    return "; ".join(lines)


def test_a_camera_card_out_of_turn_turns_a_later_proof_into_a_suspicion() -> None:
    # Seat 1 leads trick 2 though seat 2 won trick 1: at a watched table, most likely a missed card.
    plays = "1:Ad 2:Jd 3:Kd 0:Qd; 1:9c 2:Td"
    by_hand = run(Match(NA), BID + "; " + plays)  # entered by people: the table's order law, proven
    assert [(e.seat, e.suit) for e in proofs(by_hand)] == [(2, Suit.DIAMONDS)]
    m = Match(NA)
    out = run(m, BID + "; " + _camera(plays))
    assert proofs(out) == [] and m.deals[0].reneges == []
    assert K.OUT_OF_TURN in irregular(out) and K.SUSPECTED_RENEGE in irregular(out)
    suspicion = [a for a in out if isinstance(a, Irregularity) and a.kind is K.SUSPECTED_RENEGE][0]
    assert "unproven" in suspicion.detail and m.phase is not Phase.RENEGE_DECISION


def test_camera_cards_in_turn_still_prove_a_renege() -> None:
    m = Match(NA)
    out = run(m, BID + "; " + _camera("1:As 2:Ac 3:Ad 0:Jh; 0:Kc 1:9c 2:Qs"))  # seat 2 showed out of spades
    assert [(e.seat, e.suit) for e in proofs(out)] == [(2, Suit.SPADES)]
