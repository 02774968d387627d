"""``nines_and_tens`` (RULES.md): a hand of only 9s and 10s may be swapped with the kitty or declared for a redeal.

One literal deal serves every test (dealer 0, up-card 9h, the kitty's three
cards Ac Kc Qs):

    seat 0: Jh Jd Ah Kh Qh      seat 1: As Ks Js Ad Kd
    seat 2: 9c Tc 9s Ts 9d      seat 3: Jc Qc Td Qd Th

Seat 2 holds nothing but nines and tens. With the swap it gives 9c 9s 9d to
the kitty and takes Ac Kc Qs; the dealer takes up the 9h and discards the Qh,
and team 0 takes all five tricks with hearts trump.
"""

from __future__ import annotations

from engine_script import irregular, of_type, run

from table.announcements import Expect, HandScored, Irregularity, IrregularityKind, Prompt
from table.cards import Card, parse_cards
from table.inputs import Exchange, Misdeal
from table.match import Match, Phase
from table.rules import Rules
from table.trump import legal_plays

NA = Rules.preset("north_american")
ON = NA.replace(nines_and_tens=True)
K = IrregularityKind

HANDS = {
    0: "Jh Jd Ah Kh Qh",
    1: "As Ks Js Ad Kd",
    2: "9c Tc 9s Ts 9d",
    3: "Jc Qc Td Qd Th",
}
UP_CARD, KITTY = "9h", "Ac Kc Qs"
SWAP_OUT = "9c 9s 9d"
BIDS = "1 pass; 2 pass; 3 pass; 0 order; 0 discard Qh"
TRICKS = [
    "1:As 2:Qs 3:Td 0:9h",
    "0:Jh 1:Kd 2:Tc 3:Th",
    "0:Jd 1:Ad 2:Ts 3:Qd",
    "0:Ah 1:Ks 2:Kc 3:Qc",
    "0:Kh 1:Js 2:Ac 3:Jc",
]


def hands_after_swap() -> dict[int, list[Card]]:
    hands = {seat: parse_cards(text.split()) for seat, text in HANDS.items()}
    for out, into in zip(parse_cards(SWAP_OUT.split()), parse_cards(KITTY.split()), strict=True):
        hands[2].remove(out)
        hands[2].append(into)
    hands[0].append(Card.parse(UP_CARD))
    hands[0].remove(Card.parse("Qh"))
    return hands


def test_the_literal_deal_is_whole_and_played_legally() -> None:
    dealt = [c for text in (*HANDS.values(), UP_CARD, KITTY) for c in parse_cards(text.split())]
    assert len(dealt) == len(set(dealt)) == 24
    assert all(str(c)[0] in "9T" for c in parse_cards(HANDS[2].split()))
    hands = hands_after_swap()
    trump = Card.parse(UP_CARD).suit
    for trick in TRICKS:
        led: Card | None = None
        for play in trick.split():
            seat, card = int(play[0]), Card.parse(play[2:])
            assert card in legal_plays(hands[seat], led, trump), (trick, seat, card)
            hands[seat].remove(card)
            led = led or card
    assert not any(hands.values())


def test_swap_allowed_is_recorded_without_an_irregularity_and_the_hand_scores() -> None:
    m = Match(ON)
    out = run(m, f"up {UP_CARD}; 2 xchg nines_and_tens; {BIDS}; " + "; ".join(TRICKS))
    assert irregular(out) == []
    (deal,) = m.deals
    assert deal.exchanges == [Exchange(2, "nines_and_tens")]
    assert deal.trick_winners == [0, 0, 0, 0, 0] and deal.points == (2, 0) and deal.reason == "march"


def test_swap_where_the_rules_do_not_allow_it_is_announced_and_still_recorded() -> None:
    m = Match(NA)
    out = run(m, f"up {UP_CARD}; 2 xchg nines_and_tens")
    assert [(a.kind, a.seat) for a in out if isinstance(a, Irregularity)] == [(K.NOT_ALLOWED, 2)]
    out = run(m, f"{BIDS}; " + "; ".join(TRICKS))
    assert irregular(out) == []  # the hand goes on as the table played it
    (deal,) = m.deals
    assert deal.exchanges == [Exchange(2, "nines_and_tens")]
    assert deal.trick_winners == [0, 0, 0, 0, 0] and deal.points == (2, 0)


def test_a_dealers_swap_leaves_the_up_card_unproven() -> None:
    # The dealer swapped unseen cards with the kitty, so it may no longer hold the up-card it took: showing
    # out of trump is a suspicion, not proof. Without the swap the same show-out is proven at once.
    script = "up 9h; 1 order; 0 discard 9c; 1:Ah 2:Kh 3:Qh 0:As"
    m = Match(ON)
    out = run(m, "up 9h; 0 xchg nines_and_tens; " + script.removeprefix("up 9h; "))
    assert irregular(out) == [K.SUSPECTED_RENEGE] and m.deals[0].reneges == []
    m = Match(ON)
    run(m, script)
    assert [e.proof for e in m.deals[0].reneges] == ["held_up_card"]


def test_redeal_allowed_voids_the_deal_and_the_same_dealer_deals_again() -> None:
    m = Match(ON)
    run(m, f"up {UP_CARD}; 1 pass")
    out = m.apply(Misdeal(nines_and_tens=2))
    irr = [a for a in out if isinstance(a, Irregularity)]
    assert [(i.kind, i.seat) for i in irr] == [(K.MISDEAL, 2)]
    assert "seat 2 declared a hand of nines and tens" in irr[0].detail
    assert of_type(out, HandScored) == [HandScored((0, 0), (0, 0), 0, "misdeal", (0, 0))]
    assert out[-1] == Prompt(0, Expect.UP_CARD)
    (deal,) = m.deals
    assert deal.voided and deal.finished and deal.reason == "misdeal" and deal.points == (0, 0)
    assert m.dealer == 0 and m.phase is Phase.HAND_OVER and m.view().deals_played == 0
    # The redeal: seat 0 deals again, and this time the hand is played.
    run(m, f"up {UP_CARD}; {BIDS}; " + "; ".join(TRICKS))
    assert [d.dealer for d in m.deals] == [0, 0] and m.score == (2, 0) and m.dealer == 1


def test_redeal_where_the_rules_do_not_allow_it_is_refused_and_the_deal_goes_on() -> None:
    m = Match(NA)
    run(m, f"up {UP_CARD}; 1 pass")
    out = m.apply(Misdeal(nines_and_tens=2))
    assert [(a.kind, a.seat) for a in out if isinstance(a, Irregularity)] == [(K.NOT_ALLOWED, 2)]
    assert m.phase is Phase.BID_ROUND_1 and m.expected == Prompt(2, Expect.BID_ROUND_1, up_card=Card.parse("9h"))
    assert not m.deals[0].finished and not m.deals[0].voided
    run(m, BIDS.removeprefix("1 pass; ") + "; " + "; ".join(TRICKS))
    assert m.deals[0].points == (2, 0) and len(m.deals) == 1


def test_redeal_after_the_first_lead_is_refused_even_where_allowed() -> None:
    m = Match(ON)
    run(m, f"up {UP_CARD}; {BIDS}; 1:As")
    out = m.apply(Misdeal(nines_and_tens=2))
    assert irregular(out) == [K.NOT_ALLOWED] and m.phase is Phase.PLAY
    out = run(m, "2:Qs 3:Td 0:9h")
    assert not m.deals[0].voided and m.deals[0].trick_winners == [0]
