"""The simulation helper: deterministic, deals every deck correctly, plays legally unless told to renege.

These tests check the simulator against the rules directly (hands
reconstructed from the deal, ``table.trump.legal_plays``), independently of
the engine; ``test_properties.py`` then replays simulated games through it.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from table.cards import BENNY, Card, deck, parse_cards
from table.inputs import AcceptPenalty, Discard, DismissRenege, GoAlone, NameTrump, OrderUp, Pass, Play, UpCard
from table.match import Match
from table.rules import BennyTurnedUp, DefenderAlone, LoneDefenderScoring, Rules
from table.sim import (
    BiddingOdds,
    SimDeal,
    StrengthBidder,
    first_leader,
    game_over,
    score_hand,
    simulate_deal,
    simulate_game,
)
from table.trump import effective_suit, legal_plays

NA = Rules.preset("north_american")


def deals(rules: Rules, n: int, seed: int = 1, **kw: object) -> list[SimDeal]:
    rng = random.Random(seed)
    return [simulate_deal(rules, rng, i % 4, number=i, **kw) for i in range(n)]  # type: ignore[arg-type]


def held_before_play(d: SimDeal) -> list[list[Card]]:
    """Each seat's cards when play starts: as dealt, plus the up-card and minus the discard for the dealer."""
    hands = [list(h) for h in d.hands]
    if d.discard is not None:
        hands[d.dealer].append(d.up_card)
        hands[d.dealer].remove(d.discard)
    return hands


def test_same_seed_same_game_and_different_seeds_differ() -> None:
    a = simulate_game(NA, 42, renege_rate=0.2)
    b = simulate_game(NA, 42, renege_rate=0.2)
    c = simulate_game(NA, 43, renege_rate=0.2)
    assert a == b
    assert a.inputs != c.inputs


@pytest.mark.parametrize("size", [24, 25, 28, 32, 33])
def test_every_deck_is_dealt_exactly_once(size: int) -> None:
    rules = NA.replace(deck_size=size)
    for d in deals(rules, 200, seed=size):
        assert [len(h) for h in d.hands] == [5, 5, 5, 5]
        everything = [c for h in d.hands for c in h] + list(d.set_aside) + [d.up_card] + list(d.kitty)
        assert Counter(everything) == Counter(deck(size))
        assert d.inputs[0] == UpCard(d.set_aside[0] if d.set_aside else d.up_card)


@pytest.mark.parametrize("name", ["north_american", "british"])
def test_legal_play_follows_suit_and_every_card_comes_from_the_hand(name: str) -> None:
    rules = Rules.preset(name).replace(no_trump=True)
    for d in deals(rules, 400, seed=3):
        if d.thrown_in:
            assert d.points == (0, 0) and not d.tricks
            continue
        hands = held_before_play(d)
        for trick in d.tricks:
            led = trick.plays[0][1]
            for seat, card in trick.plays:
                allowed = legal_plays(hands[seat], None if (seat, card) == trick.plays[0] else led, d.trump)
                assert card in allowed, (d.number, seat, card, hands[seat])
                hands[seat].remove(card)
        out = {(s + 2) % 4 for s in d.alone_seats}
        assert all(len(hands[s]) == 0 for s in range(4) if s not in out)
        assert d.reneges == ()
        assert len(d.trick_winners) == 5 and sum(d.tricks_won) == 5


def test_plays_come_in_turn_from_the_first_leader_then_the_winner() -> None:
    for d in deals(Rules.preset("british"), 300, seed=4):
        if d.thrown_in:
            continue
        assert d.maker_seat is not None
        leader = first_leader(Rules.preset("british"), d.dealer, list(d.alone_seats), d.maker_seat)
        out = {(s + 2) % 4 for s in d.alone_seats}
        for trick in d.tricks:
            assert trick.leader == leader
            seats = [s for s, _ in trick.plays]
            assert seats == [s for s in ((leader + k) % 4 for k in range(4)) if s not in out]
            leader = trick.winner
        plays = [x for x in d.inputs if isinstance(x, Play)]
        assert [(p.seat, p.card) for p in plays] == d.plays


def test_injected_reneges_are_real_and_their_proof_is_the_first_later_card_of_the_suit() -> None:
    rules = NA.replace(dealer_may_discard_upcard=False)
    found = proven = held = 0
    for d in deals(rules, 600, seed=5, renege_rate=0.3, odds=BiddingOdds(discard_seen=0.5)):
        hands = held_before_play(d)
        for r in d.reneges:
            found += 1
            assert r.held and all(effective_suit(c, d.trump) is r.suit for c in r.held)
            assert effective_suit(r.card, d.trump) is not r.suit
            assert effective_suit(r.led, d.trump) is r.suit
            assert set(r.held) <= set(hands[r.seat])
            later = [
                (t, c)
                for t, trick in enumerate(d.tricks)
                for s, c in trick.plays
                if s == r.seat and t > r.trick and effective_suit(c, d.trump) is r.suit
            ]
            if r.proof == "held_up_card":
                # The dealer took the up-card, could not discard it, and showed out of its suit still holding it.
                held += 1
                assert r.seat == d.dealer and r.proof_card == d.up_card and r.proof_trick == r.trick
            elif r.proof == "played":
                proven += 1
                assert (r.proof_trick, r.proof_card) == later[0]
                assert r.proof_input is not None and d.inputs[r.proof_input] == Play(r.seat, later[0][1])
            else:
                assert r.proof_trick is None and r.proof_input is None
                assert not later or r.seat == d.dealer  # cut short by an accepted penalty, or never shown
    assert found > 100 and proven > 50 and held > 0


def test_renege_rate_zero_never_reneges_and_one_reneges_whenever_possible() -> None:
    assert not any(d.reneges for d in deals(NA, 300, seed=6))
    assert sum(len(d.reneges) for d in deals(NA, 300, seed=6, renege_rate=1.0)) > 300


def test_accepted_penalty_ends_the_hand_with_the_penalty_points() -> None:
    odds = BiddingOdds(accept_penalty=1.0)
    ended = 0
    for d in deals(NA, 400, seed=7, renege_rate=0.3, odds=odds):
        if d.penalty_accepted:
            ended += 1
            proof = next(r for r in d.reneges if r.proof_input is not None)
            assert proof.proof_input is not None
            assert d.inputs[-1] == AcceptPenalty() and d.inputs[-2] == d.inputs[proof.proof_input]
            pts = 4 if d.alone_seats else 2
            assert d.points == ((pts, 0) if proof.seat % 2 == 1 else (0, pts))
            assert d.reason == "renege"
    assert ended > 20


def test_stick_the_dealer_never_throws_in_and_dealer_names_a_suit() -> None:
    rules = NA.replace(stick_the_dealer=True)
    ds = deals(rules, 400, seed=8, odds=BiddingOdds(order_up=0.05, name_trump=0.05))
    assert not any(d.thrown_in for d in ds)
    assert any(d.maker_seat == d.dealer and d.round_made == 2 for d in ds)
    assert any(d.thrown_in for d in deals(NA, 400, seed=8, odds=BiddingOdds(order_up=0.05, name_trump=0.05)))


def test_canadian_loner_and_a_dealer_who_sits_out_takes_nothing_up() -> None:
    rules = NA.replace(dealer_partner_must_go_alone=True)
    partner_orders = 0
    for d in deals(rules, 600, seed=9, odds=BiddingOdds(order_up=0.4, maker_alone=0.0, late_alone=0.0)):
        order = [c for c in d.calls if isinstance(c, OrderUp)]
        if order and order[0].seat == (d.dealer + 2) % 4:
            partner_orders += 1
            assert order[0].alone and d.discard is None
            assert not any(isinstance(x, Discard) for x in d.inputs)
        elif order:
            assert not order[0].alone
    assert partner_orders > 20


@pytest.mark.parametrize("rule", list(DefenderAlone))
def test_defenders_go_alone_only_as_the_rules_allow(rule: DefenderAlone) -> None:
    rules = NA.replace(defender_may_go_alone=rule)
    odds = BiddingOdds(defender_alone=0.5, maker_alone=0.3)
    lone_defenders = 0
    for d in deals(rules, 400, seed=10, odds=odds):
        if d.maker_seat is None:
            continue
        defenders = [s for s in d.alone_seats if s % 2 != d.maker_seat % 2]
        makers = [s for s in d.alone_seats if s % 2 == d.maker_seat % 2]
        assert len(defenders) <= 1 and len(makers) <= 1
        lone_defenders += len(defenders)
        if defenders and rule is DefenderAlone.AGAINST_LONE_MAKER:
            assert makers
        assert all(isinstance(x, GoAlone) for x in d.inputs if isinstance(x, GoAlone) and x.seat in defenders)
    assert (lone_defenders > 0) == (rule is not DefenderAlone.NEVER)


def test_passed_player_may_not_go_alone() -> None:
    rules = NA.replace(defender_may_go_alone=DefenderAlone.ALWAYS, passed_player_may_not_go_alone=True)
    for d in deals(rules, 400, seed=11, odds=BiddingOdds(defender_alone=0.6)):
        if d.round_made is None or d.round_made == 0:
            continue
        round_calls = [c for c in d.calls if isinstance(c, Pass)]
        passed = {c.seat for c in round_calls[4:]} if d.round_made == 2 else {c.seat for c in round_calls}
        late = {x.seat for x in d.inputs if isinstance(x, GoAlone)}
        assert not late & passed


def test_dealer_discards_per_the_rules() -> None:
    strict = NA.replace(dealer_may_discard_upcard=False, natural_trump_to_pick_up=True)
    for d in deals(strict, 400, seed=12, odds=BiddingOdds(order_up=0.5)):
        if d.discard is not None:
            assert d.discard != d.up_card
        if d.round_made == 1 and d.maker_seat == d.dealer:
            assert any(c.suit is d.up_card.suit for c in d.hands[d.dealer])
    loose = deals(NA, 2000, seed=12, odds=BiddingOdds(order_up=0.5, discard_seen=1.0))
    assert any(d.discard == d.up_card for d in loose)
    assert all(
        Discard(d.dealer, d.discard) in d.inputs for d in loose if d.discard is not None
    )  # seen discards are reported


@pytest.mark.parametrize("mode", list(BennyTurnedUp))
def test_benny_turned_up(mode: BennyTurnedUp) -> None:
    rules = NA.replace(deck_size=25, benny_turned_up=mode)
    turned = [d for d in deals(rules, 1500, seed=13) if BENNY in (d.up_card, *d.set_aside)]
    assert turned
    for d in turned:
        if mode is BennyTurnedUp.SET_ASIDE:
            assert d.set_aside == (BENNY,) and d.inputs[:2] == (UpCard(BENNY), UpCard(d.up_card))
        else:
            assert d.up_card == BENNY and d.round_made == 0 and d.maker_seat == d.dealer
            call = d.calls[0]
            assert isinstance(call, NameTrump) and call.seat == d.dealer and call.suit is not None


def test_renege_decisions_are_in_the_script() -> None:
    ds = deals(NA, 300, seed=14, renege_rate=0.4)
    assert any(DismissRenege() in d.inputs for d in ds)  # explicit dismissals and implicit ones (play on)
    proofs = [r for d in ds for r in d.reneges if r.proof_input is not None]
    implicit = [
        r for d in ds for r in d.reneges if r.proof_input is not None and r.proof_input + 1 < len(d.inputs)
        and isinstance(d.inputs[r.proof_input + 1], Play)
    ]  # fmt: skip
    assert proofs and implicit


@pytest.mark.parametrize(
    ("made", "maker_alone", "defender_alone", "rules", "points"),
    [
        (3, False, False, NA, (1, 0)),
        (4, True, False, NA, (1, 0)),
        (5, False, False, NA, (2, 0)),
        (5, True, False, NA, (4, 0)),
        (5, True, False, NA.replace(loner_march_points=5), (5, 0)),
        (2, False, False, NA, (0, 2)),
        (0, False, False, NA, (0, 2)),
        (0, False, False, NA.replace(super_euchre=True), (0, 4)),
        (1, True, False, NA, (0, 2)),
        (1, True, False, NA.replace(loner_euchred_points=4), (0, 4)),
        (2, False, True, NA, (0, 4)),
        (2, False, True, NA.replace(lone_defender_scoring=LoneDefenderScoring.TWO_OR_FOUR_FOR_MARCH), (0, 2)),
        (0, False, True, NA.replace(lone_defender_scoring=LoneDefenderScoring.TWO_OR_FOUR_FOR_MARCH), (0, 4)),
        (3, False, True, NA, (1, 0)),
    ],
)
def test_score_hand_rows(
    made: int, maker_alone: bool, defender_alone: bool, rules: Rules, points: tuple[int, int]
) -> None:
    assert score_hand(rules, 0, made, maker_alone, defender_alone)[0] == points
    assert score_hand(rules, 1, made, maker_alone, defender_alone)[0] == (points[1], points[0])


def test_games_end_as_the_rules_say() -> None:
    assert game_over(NA, (10, 4), 7) == (True, 0)
    assert game_over(NA, (9, 9), 7) == (False, None)
    assert game_over(NA.replace(win_by_two=True), (10, 9), 7) == (False, None)
    fixed = NA.replace(target=0, num_deals=8)
    assert game_over(fixed, (12, 3), 7) == (False, None)
    assert game_over(fixed, (5, 5), 8) == (True, None)
    g = simulate_game(fixed, 3)
    assert g.over and len([d for d in g.deals if d.reason != "renege_replay"]) == 8
    g = simulate_game(NA, 3)
    assert g.over and max(g.score) >= 10 and g.winner == (0 if g.score[0] > g.score[1] else 1)


@pytest.mark.parametrize("name", ["north_american", "british"])
def test_a_simulated_game_replays_through_the_match(name: str) -> None:
    rules = Rules.preset(name)
    for seed in range(5):
        game = simulate_game(rules, seed, first_dealer=seed % 4, renege_rate=0.1)
        match = Match.replay(rules, game.inputs, first_dealer=seed % 4)
        assert [tuple(d.trick_winners) for d in match.deals] == [d.trick_winners for d in game.deals]
        assert [d.points for d in match.deals] == [d.points for d in game.deals]
        assert match.score == game.score and match.game_over and match.winner == game.winner


def test_set_aside_benny_in_a_later_deal_replays_through_the_match() -> None:
    rules = NA.replace(deck_size=25, benny_turned_up=BennyTurnedUp.SET_ASIDE)
    game = simulate_game(rules, 3, max_deals=60)
    assert any(d.set_aside and d.number > 0 for d in game.deals)
    match = Match.replay(rules, game.inputs)
    assert len(match.deals) == len(game.deals)


def test_literal_renege_deal_is_scripted_as_played() -> None:
    """A hand-built check of one script: the inputs are exactly bids, discard and the plays in order."""
    d = deals(NA, 50, seed=15, renege_rate=0.5)[0]
    kinds = [type(x).__name__ for x in d.inputs]
    assert kinds[0] == "UpCard"
    first_play = kinds.index("Play")
    assert set(kinds[1:first_play]) <= {"Pass", "OrderUp", "NameTrump", "Discard", "GoAlone"}
    assert set(kinds[first_play:]) <= {"Play", "DismissRenege", "AcceptPenalty"}
    assert parse_cards("Jc Js") == [Card.parse("Jc"), Card.parse("Js")]


def test_a_strategy_bids_from_its_own_hand_within_the_rules() -> None:
    rules = NA.replace(stick_the_dealer=True, dealer_partner_must_go_alone=True)
    bidder = StrengthBidder(min_trumps=3, alone_trumps=4)
    rng = random.Random(16)
    made = 0
    for i in range(300):
        d = simulate_deal(rules, rng, i % 4, bidder=bidder, odds=BiddingOdds(late_alone=0.0))
        assert d.trump is not None and d.maker_seat is not None  # stuck dealers always name a suit
        hand = list(d.hands[d.maker_seat])
        if d.round_made == 1 and d.maker_seat == d.dealer:
            hand.append(d.up_card)
        trumps = sum(effective_suit(c, d.trump) is d.trump for c in hand)
        stuck = d.round_made == 2 and d.maker_seat == d.dealer
        canadian = d.round_made == 1 and d.maker_seat == (d.dealer + 2) % 4
        if not stuck:
            assert trumps >= 3
            made += 1
        if not stuck and not canadian:
            assert (d.maker_seat in d.alone_seats) == (trumps >= 4)
    assert made > 100
    game = simulate_game(rules, 5, bidder=bidder)
    match = Match.replay(rules, game.inputs)
    assert match.score == game.score and match.game_over
