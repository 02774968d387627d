"""Cross-check against a peer: random OpenSpiel ``euchre`` deals replayed through ``Match`` agree exactly.

OpenSpiel plays each deal with random legal actions (seeded); the deal is
translated into what a table would show (up-card, bids, discard, going alone,
the cards as played) and replayed through this engine, which must give the
same trick winners and the same points (OpenSpiel's returns) for every deal,
and never announce a renege or an irregularity in these legal deals.

Where OpenSpiel's ``euchre`` differs from table rules, and how the rules record
is set here to match it (``openspiel_rules``):

- 24 cards (9-A); one deal per game: the dealer is a chance outcome, so each
  deal is replayed in a fresh ``Match`` with that ``first_dealer``.
- The dealer may not discard the up-card (``dealer_may_discard_upcard=False``);
  most tables allow it.
- The maker decides to go alone only *after* the dealer's discard; the dealer
  picks up and discards even when the maker turns out to be the dealer's
  partner going alone. Both ways a table could report it are replayed: alone
  declared with the bid (the dealer then sits out and no discard is shown) or
  a separate ``GoAlone`` after the discard (the engine's late declaration).
- ``allow_lone_defender``: either defender may go alone whether or not the maker
  is alone (``DefenderAlone.ALWAYS``; the maker's partner never does in
  OpenSpiel), and a euchre then scores 4 however many tricks the defenders
  took (``LoneDefenderScoring.FOUR_FOR_THREE_PLUS``). Against a lone defender
  the makers score 1 for 3-4 tricks and 2 (4 if alone) for a march.
- A lone maker euchred concedes 2 (``loner_euchred_points=2``); a lone march
  scores 4 (``loner_march_points=4``); no super-euchre; no Canadian loner; a
  passed player may go alone.
- The first lead is always the first active seat left of the dealer, also with
  two loners (``LonerLead.LEFT_OF_DEALER``).
- No stick-the-dealer (``stick_the_dealer=False``): eight passes end the game
  with returns 0; here the hand is thrown in and scores nothing.
- OpenSpiel refuses illegal cards, so these deals never contain a renege.

Seats: OpenSpiel's players N, E, S, W are 0-3 clockwise, as here; returns are
per player (+points for the scoring side, minus for the other).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from table.announcements import Irregularity, RenegeProven
from table.cards import Card, Rank, Suit
from table.inputs import Discard, GoAlone, Input, NameTrump, OrderUp, Pass, Play, UpCard
from table.match import Match
from table.rules import DefenderAlone, LoneDefenderScoring, LonerLead, Rules

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the dev extra's open_spiel) is not installed")

# OpenSpiel's encoding (open_spiel/games/euchre/euchre.h): card = rank * 4 + suit, suits C D H S,
# ranks 9 T J Q K A; bidding actions 24 = pass, 25-28 = clubs..spades; 29 = alone, 30 = with partner.
_OS_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_OS_RANKS = (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
OS_CARDS = tuple(Card(_OS_RANKS[a // 4], _OS_SUITS[a % 4]) for a in range(24))
PASS, CLUBS, ALONE, PARTNER = 24, 25, 29, 30

DEALS_PER_CONFIG = 1500  # x 4 configurations = 6,000 deals
CONFIGS = [(stick, lone) for stick in (False, True) for lone in (False, True)]


def openspiel_rules(stick_the_dealer: bool, allow_lone_defender: bool) -> Rules:
    """The rules record that makes this engine play OpenSpiel's euchre (see the module docstring)."""
    return Rules(
        deck_size=24,
        stick_the_dealer=stick_the_dealer,
        defender_may_go_alone=DefenderAlone.ALWAYS if allow_lone_defender else DefenderAlone.NEVER,
        lone_defender_scoring=LoneDefenderScoring.FOUR_FOR_THREE_PLUS,
        loner_lead=LonerLead.LEFT_OF_DEALER,
        loner_march_points=4,
        loner_euchred_points=2,
        super_euchre=False,
        dealer_partner_must_go_alone=False,
        passed_player_may_not_go_alone=False,
        dealer_may_discard_upcard=False,
    )


@dataclass(frozen=True)
class OsDeal:
    """One finished OpenSpiel deal: the chance outcomes, the players' actions, and its results."""

    dealer: int
    upcard: int
    steps: tuple[tuple[int, int], ...]  # (player, action) for every decision, in order
    trick_winners: tuple[int, ...]
    returns: tuple[float, ...]


PASS_BIAS = 0.6  # chance to pass whenever passing is legal: round 2 and thrown-in hands come up often


def play_openspiel(game: object, rng: random.Random) -> OsDeal:
    """One deal of random legal actions (chance outcomes drawn from ``rng`` too).

    Bids pass with probability ``PASS_BIAS`` when they may; every other decision is uniform over the
    legal actions. (Uniform bidding would order up at once half the time and throw in 1 deal in 4,096.)
    """
    state = game.new_initial_state()  # type: ignore[attr-defined]
    steps: list[tuple[int, int]] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = outcomes[rng.randrange(len(outcomes))][0]
        else:
            legal = state.legal_actions()
            pass_now = legal[0] == PASS and rng.random() < PASS_BIAS
            action = PASS if pass_now else legal[rng.randrange(len(legal))]
            steps.append((state.current_player(), action))
        state.apply_action(action)
    return OsDeal(
        dealer=state.dealer(),
        upcard=state.upcard(),
        steps=tuple(steps),
        trick_winners=tuple(t.winner() for t in state.tricks()) if steps[-1][1] < PASS else (),
        returns=tuple(state.returns()),
    )


def translate(
    deal: OsDeal, *, alone_with_bid: bool, discard_seen: bool, cards: tuple[Card, ...] = OS_CARDS
) -> list[Input]:
    """The inputs a table companion would get for ``deal`` (``cards``: how OpenSpiel's card actions read)."""
    inputs: list[Input] = [UpCard(cards[deal.upcard])]
    steps = list(deal.steps)
    passes = 0
    i = 0
    # Bidding: passes, then (maybe) one trump action.
    while i < len(steps) and steps[i][1] == PASS:
        inputs.append(Pass(steps[i][0]))
        passes += 1
        i += 1
    if i == len(steps):
        return inputs  # thrown in
    maker, bid = steps[i]
    i += 1
    discard: int | None = None
    if passes < 4:  # ordered up in round 1: the dealer discards next
        discard = steps[i][1]
        i += 1
    maker_alone = steps[i][1] == ALONE
    i += 1
    defender_alone = [p for p, a in steps[i:] if a == ALONE]
    plays = [(p, a) for p, a in steps[i:] if a < PASS]
    suit = _OS_SUITS[bid - CLUBS]
    dealer_out = maker_alone and maker == (deal.dealer + 2) % 4
    declare_on_bid = maker_alone and alone_with_bid
    if passes < 4:
        inputs.append(OrderUp(maker, declare_on_bid))
    else:
        inputs.append(NameTrump(maker, suit, declare_on_bid))
    if discard is not None and not (declare_on_bid and dealer_out):
        inputs.append(Discard(deal.dealer, cards[discard] if discard_seen else None))
    if maker_alone and not declare_on_bid:
        inputs.append(GoAlone(maker))
    inputs += [GoAlone(p) for p in defender_alone]
    inputs += [Play(p, cards[a]) for p, a in plays]
    return inputs


def expected_points(returns: tuple[float, ...]) -> tuple[int, int]:
    r0 = int(returns[0])
    return (r0, 0) if r0 > 0 else (0, -r0)


def test_card_encoding_matches_openspiel() -> None:
    state = pyspiel.load_game("euchre").new_initial_state()
    state.apply_action(0)  # dealer selection; afterwards actions print as cards
    for action, card in enumerate(OS_CARDS):
        text = state.action_to_string(action)  # e.g. "DJ": suit letter then rank
        assert Card.parse(text[1] + text[0].lower()) == card


@pytest.mark.parametrize(("stick_the_dealer", "allow_lone_defender"), CONFIGS)
def test_random_openspiel_deals_replay_identically(stick_the_dealer: bool, allow_lone_defender: bool) -> None:
    game = pyspiel.load_game(
        "euchre", {"stick_the_dealer": stick_the_dealer, "allow_lone_defender": allow_lone_defender}
    )
    rules = openspiel_rules(stick_the_dealer, allow_lone_defender)
    rng = random.Random(f"openspiel-{stick_the_dealer}-{allow_lone_defender}")
    seen = {"thrown_in": 0, "maker_alone": 0, "defender_alone": 0, "euchre": 0, "march": 0}
    for n in range(DEALS_PER_CONFIG):
        deal = play_openspiel(game, rng)
        inputs = translate(deal, alone_with_bid=rng.random() < 0.5, discard_seen=rng.random() < 0.5)
        match = Match(rules, first_dealer=deal.dealer)
        news = []
        for inp in inputs:
            news += match.apply(inp)
        record = match.deals[-1]
        where = f"deal {n} ({stick_the_dealer=}, {allow_lone_defender=}): {inputs}"
        assert not [a for a in news if isinstance(a, RenegeProven | Irregularity)], where
        assert record.finished, where
        assert tuple(record.trick_winners) == deal.trick_winners, where
        assert record.points == expected_points(deal.returns), where
        seen["thrown_in"] += record.thrown_in
        seen["maker_alone"] += record.maker_seat in record.alone_seats
        seen["defender_alone"] += any(s % 2 != (record.maker_seat or 0) % 2 for s in record.alone_seats)
        seen["euchre"] += "euchre" in record.reason or record.reason == "lone_defender"
        seen["march"] += "march" in record.reason
    # The random deals cover every scoring path these rules have.
    assert seen["maker_alone"] > 0 and seen["euchre"] > 0 and seen["march"] > 0, seen
    assert (seen["thrown_in"] > 0) == (not stick_the_dealer), seen
    assert (seen["defender_alone"] > 0) == allow_lone_defender, seen


def test_translation_can_fail() -> None:
    """A wrong card encoding (hearts and spades swapped) is caught: the comparison is not vacuous.

    (A wrong dealer would not be: the engine accepts bids and cards out of turn as what happened.)
    """
    swap = {Suit.HEARTS: Suit.SPADES, Suit.SPADES: Suit.HEARTS}
    wrong = tuple(Card(c.rank, swap.get(c.suit, c.suit) if c.suit else None) for c in OS_CARDS)
    game = pyspiel.load_game("euchre", {"stick_the_dealer": True, "allow_lone_defender": False})
    rules = openspiel_rules(True, False)
    rng = random.Random(7)
    mismatches = 0
    for _ in range(50):
        deal = play_openspiel(game, rng)
        match = Match(rules, first_dealer=deal.dealer)
        for inp in translate(deal, alone_with_bid=True, discard_seen=True, cards=wrong):
            match.apply(inp)
        record = match.deals[-1]
        if tuple(record.trick_winners) != deal.trick_winners or record.points != expected_points(deal.returns):
            mismatches += 1
    assert mismatches > 40, mismatches
