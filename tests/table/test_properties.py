"""Invariants over random simulated games (hypothesis): reneges, scores and undo, under many rule sets.

Each example simulates a whole game from a seed (``table.sim``: full hands,
random bids within the rules, legal play or injected reneges) and replays its
inputs through ``Match``, which sees only what a table shows. Then:

- every injected renege whose offender later shows the suit is proven, at
  exactly the card that first proves it (same input, trick, card, evidence);
- nothing else is ever proven, and a legal game proves nothing;
- trick winners, points, the score and the end of the game equal the
  simulator's ground truth;
- undoing any input and applying it again gives the same state.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.announcements import Announcement, IrregularityKind, RenegeProven
from table.cards import Card, parse_cards
from table.inputs import Discard, DismissRenege, Input, OrderUp, Play, Undo, UpCard
from table.match import Match
from table.rules import BennyTurnedUp, DefenderAlone, LoneDefenderScoring, LonerLead, RenegePenalty, Rules
from table.sim import BiddingOdds, SimGame, simulate_game

NA = Rules.preset("north_american")
RULE_SETS: dict[str, Rules] = {
    "north_american": NA,
    "stick_the_dealer": NA.replace(stick_the_dealer=True),
    "british": Rules.preset("british"),
    "canadian_32": NA.replace(deck_size=32, dealer_partner_must_go_alone=True, super_euchre=True),
    "defenders_28": NA.replace(
        deck_size=28,
        defender_may_go_alone=DefenderAlone.AGAINST_LONE_MAKER,
        lone_defender_scoring=LoneDefenderScoring.TWO_OR_FOUR_FOR_MARCH,
        loner_lead=LonerLead.LEFT_OF_LONER,
        passed_player_may_not_go_alone=True,
    ),
    "no_trump_33": NA.replace(
        deck_size=33, no_trump=True, defender_may_go_alone=DefenderAlone.ALWAYS, loner_euchred_points=4
    ),
    "strict_dealer": NA.replace(
        dealer_may_discard_upcard=False,
        natural_trump_to_pick_up=True,
        win_by_two=True,
        renege_penalty=RenegePenalty.REPLAY,
    ),
    "fixed_deals": NA.replace(target=0, num_deals=8, renege_penalty=RenegePenalty.DEDUCT, loner_march_points=5),
    "benny_set_aside": NA.replace(deck_size=25, benny_turned_up=BennyTurnedUp.SET_ASIDE),
}

PROPERTY_SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclass
class Replayed:
    match: Match
    news: list[tuple[int, Announcement]]  # (index of the input that caused it, announcement)


def replay(game: SimGame) -> Replayed:
    match = Match(game.rules, first_dealer=game.first_dealer)
    news: list[tuple[int, Announcement]] = []
    for i, inp in enumerate(game.inputs):
        news += [(i, a) for a in match.apply(inp)]
    return Replayed(match, news)


def expected_proofs(game: SimGame) -> set[tuple[int, int, str, int | None, str, str]]:
    """(input index, seat, suit, proof trick, proof card, proof kind) of every provable injected renege.

    A second failure to follow the same suit after the first was proven is a new offence with its own
    proof; two failures before any proof share one.
    """
    out = set()
    offset = 0
    for deal in game.deals:
        for r in deal.reneges:
            if r.proof_input is not None:
                out.add((offset + r.proof_input, r.seat, str(r.suit), r.proof_trick, str(r.proof_card), r.proof))
        offset += len(deal.inputs)
    return out


def announced_proofs(rep: Replayed) -> set[tuple[int, int, str, int | None, str, str]]:
    return {
        (i, a.seat, str(a.evidence.suit), a.evidence.proof_trick, str(a.evidence.proof_card), a.evidence.proof)
        for i, a in rep.news
        if isinstance(a, RenegeProven)
    }


def assert_ground_truth(game: SimGame, rep: Replayed) -> None:
    records = rep.match.deals
    assert len(records) == len(game.deals)
    for record, deal in zip(records, game.deals, strict=True):
        where = f"deal {deal.number}: {deal.inputs}"
        assert tuple(record.trick_winners) == deal.trick_winners, where
        assert record.points == deal.points, where
        assert record.thrown_in == deal.thrown_in, where
        assert record.maker_seat == deal.maker_seat, where
        assert tuple(record.alone_seats) == deal.alone_seats, where
    assert rep.match.score == game.score
    assert rep.match.game_over == game.over
    if game.over:
        assert rep.match.winner == game.winner


def snapshot(match: Match) -> tuple[object, ...]:
    return (match.deals, match.score, match.expected, match.phase, match.game_over, match.winner)


seeds = st.integers(min_value=0, max_value=2**32 - 1)
rule_names = st.sampled_from(sorted(RULE_SETS))


@PROPERTY_SETTINGS
@given(seed=seeds, name=rule_names, first_dealer=st.integers(0, 3))
def test_legal_games_prove_no_renege_and_score_as_dealt(seed: int, name: str, first_dealer: int) -> None:
    game = simulate_game(RULE_SETS[name], seed, first_dealer=first_dealer, max_deals=12)
    rep = replay(game)
    assert not [a for _, a in rep.news if isinstance(a, RenegeProven)]
    # The only irregularity a legal game may raise: a dealer who discarded the up-card unseen shows out
    # of its suit, so the table cannot tell whether the up-card is still held.
    suspicious = {d.number for d in game.deals if d.discard == d.up_card and not d.discard_seen}
    for record in rep.match.deals:
        for irr in record.irregularities:
            assert irr.kind is IrregularityKind.SUSPECTED_RENEGE and record.number in suspicious, irr
    assert_ground_truth(game, rep)


@PROPERTY_SETTINGS
@given(
    seed=seeds,
    name=rule_names,
    rate=st.sampled_from([0.05, 0.2, 0.5]),
    accept=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_injected_reneges_are_proven_at_the_first_proving_card(
    seed: int, name: str, rate: float, accept: float
) -> None:
    game = simulate_game(
        RULE_SETS[name], seed, renege_rate=rate, odds=BiddingOdds(accept_penalty=accept, discard_seen=0.7), max_deals=12
    )
    rep = replay(game)
    assert announced_proofs(rep) == expected_proofs(game)
    # Each proof points to the first failure to follow that suit since the seat's last proof of it.
    shown: dict[tuple[int, int, object], tuple[int, Card, Card]] = {}
    offset = 0
    for deal in game.deals:
        for r in deal.reneges:
            if r.proof_input is not None:
                shown.setdefault((offset + r.proof_input, r.seat, r.suit), (r.trick, r.card, r.led))
        offset += len(deal.inputs)
    for i, a in rep.news:
        if isinstance(a, RenegeProven):
            ev = a.evidence
            assert (ev.showed_out_trick, ev.showed_out_card, ev.led_card) == shown[(i, ev.seat, ev.suit)]
    assert_ground_truth(game, rep)


@PROPERTY_SETTINGS
@given(seed=seeds, name=rule_names, data=st.data())
def test_undo_then_reapply_restores_the_state(seed: int, name: str, data: st.DataObject) -> None:
    game = simulate_game(RULE_SETS[name], seed, renege_rate=0.1, odds=BiddingOdds(accept_penalty=0.5), max_deals=4)
    inputs = game.inputs
    k = data.draw(st.integers(0, len(inputs) - 1), label="undone input")
    plain = Match.replay(game.rules, inputs[: k + 1], first_dealer=game.first_dealer)
    undone = Match.replay(game.rules, inputs[:k], first_dealer=game.first_dealer)
    redo = Match.replay(game.rules, inputs[: k + 1], first_dealer=game.first_dealer)
    redo.apply(Undo())
    assert snapshot(redo) == snapshot(undone)
    redo.apply(inputs[k])
    assert snapshot(redo) == snapshot(plain)
    for inp in inputs[k + 1 :]:  # and the rest of the game goes on as before
        redo.apply(inp)
        plain.apply(inp)
    assert snapshot(redo) == snapshot(plain)


def test_a_second_renege_of_the_same_suit_is_proven_again() -> None:
    """Seat 3 holds Kc Ac, fails to follow clubs twice; each failure is proven by its next club."""
    # Dealer 0; hands 0: 9d Ks Kd Tc 9h, 1: Ad Jc Ah Jh 9c, 2: Th Kh Js Qh Ts, 3: 9s Qd As Kc Ac; up-card Td.
    tricks = [
        "1 Jh 2 Js 3 Qd 0 Kd",
        "1 Jc 2 Th 3 9s 0 Tc",
        "1 Ad 2 Ts 3 Ac 0 9d",
        "1 9c 2 Kh 3 As 0 9h",
        "1 Ah 2 Qh 3 Kc 0 Td",
    ]
    inputs: list[Input] = [UpCard(Card.parse("Td")), OrderUp(1), Discard(0, None)]
    proofs = []
    for trick in tricks:
        words = trick.split()
        for seat, card in zip(words[::2], parse_cards(words[1::2]), strict=True):
            inputs.append(Play(int(seat), card))
            if (seat, str(card)) in (("3", "Ac"), ("3", "Kc")):
                proofs.append(len(inputs) - 1)
                inputs.append(DismissRenege())
    match = Match(Rules())
    announced = []
    for i, inp in enumerate(inputs):
        announced += [(i, a.evidence.showed_out_trick) for a in match.apply(inp) if isinstance(a, RenegeProven)]
    assert announced == [(proofs[0], 1), (proofs[1], 3)]
