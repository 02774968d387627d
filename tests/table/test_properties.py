"""Invariants over random simulated games (hypothesis): reneges, scores and undo, under many rule sets.

Each example simulates a whole game from a seed (``table.sim``: full hands,
random bids within the rules, legal play or injected reneges) and replays its
inputs through ``Match``, which sees only what a table shows. Then:

- every injected renege whose offender later shows the suit is proven, at
  exactly the card that first proves it (same input, trick, card, evidence);
- nothing else is ever proven, and a legal game proves nothing;
- trick winners, points, the score and the end of the game equal the
  simulator's ground truth;
- undoing any input and applying it again gives the same state;
- an oracle written here from RULES.md alone, on card text (no ``table.trump``,
  which both the engine and the simulator use), agrees with the engine on every
  trick's winner and every renege proof, and with the simulator on every
  failure to follow suit, over all deck sizes and no trump; mutants of the
  oracle (one rule each got wrong) do not.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.announcements import Announcement, IrregularityKind, RenegeProven
from table.cards import Card, parse_cards
from table.inputs import Discard, DismissRenege, Input, OrderUp, Play, Undo, UpCard
from table.match import Match
from table.rules import BennyTurnedUp, DefenderAlone, LoneDefenderScoring, LonerLead, RenegePenalty, Rules
from table.sim import BiddingOdds, SimDeal, SimGame, simulate_game

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


# ---- an independent oracle: trick winners and renege proofs from RULES.md, on card text alone

_NATURAL = "789TJQKA"  # RULES.md: the 8s and 7s of the larger decks rank below the 9
_SAME_COLOUR = {"c": "s", "s": "c", "d": "h", "h": "d"}
Proof = tuple[int, str, int, str, str, int, str, str]  # seat, suit, show-out trick, card, led, proof trick, card, kind


@dataclass(frozen=True)
class Oracle:
    """Euchre's trick and renege rules as RULES.md states them, written from scratch on card text ("Jd", "B").

    The switches are not rules: each one set away from its default makes a mutant that gets one rule wrong,
    to show that the comparison with the engine can fail.
    """

    left_bower_is_trump: bool = True  # mutant: the left bower follows its printed suit
    benny_above_right_bower: bool = True  # mutant: the Benny ranks between the bowers
    natural_order: str = _NATURAL  # mutant: another order of the ranks
    no_trump_jacks_high: bool = False  # mutant: under no trump the jack still tops its suit

    def suit(self, card: str, trump: str | None) -> str | None:
        """The suit a card belongs to for following: the Benny and the left bower are trump; no suit for
        the Benny under no trump."""
        if card == "B":
            return trump
        rank, suit = card[0], card[1]
        if trump is not None and self.left_bower_is_trump and rank == "J" and suit == _SAME_COLOUR[trump]:
            return trump
        return suit

    def strength(self, card: str, led: str | None, trump: str | None) -> int:
        """Higher wins: Benny > right bower > left bower > other trumps > the suit led; anything else 0."""
        if card == "B":
            return 1000 if self.benny_above_right_bower else 850
        rank, suit = card[0], card[1]
        if trump is not None:
            if rank == "J" and suit == trump:
                return 900
            if self.left_bower_is_trump and rank == "J" and suit == _SAME_COLOUR[trump]:
                return 800
            if suit == trump:
                return 500 + self.natural_order.index(rank)
        elif self.no_trump_jacks_high and rank == "J" and suit == led:
            return 400
        if self.suit(card, trump) == led:
            return 100 + self.natural_order.index(rank)
        return 0

    def winner(self, plays: list[tuple[int, str]], trump: str | None) -> int:
        """The seat that takes a trick (the first of two equal cards, which a legal deal never has)."""
        led = self.suit(plays[0][1], trump)
        best = plays[0]
        for play in plays[1:]:
            if self.strength(play[1], led, trump) > self.strength(best[1], led, trump):
                best = play
        return best[0]

    def proofs(self, deal: SimDeal, rules: Rules) -> list[Proof]:
        """Every renege the play proves, in order: a seat that showed out of a suit plays a card of it later
        in the hand; or the dealer, provably holding the up-card it took, shows out of the up-card's suit.

        The dealer provably holds the up-card when the discard was seen and was another card, or when
        the rules forbid discarding the up-card. A proof closes its show-out: failing that suit again is a
        new offence with its own proof.
        """
        trump = _trump_text(deal)
        up = str(deal.up_card)
        holds_up_card = deal.discard is not None and (
            not rules.dealer_may_discard_upcard or (deal.discard_seen and deal.discard != deal.up_card)
        )
        shown_out: dict[int, dict[str, tuple[int, str, str]]] = {s: {} for s in range(4)}
        out: list[Proof] = []
        for t, trick in enumerate(deal.tricks):
            plays = [(seat, str(card)) for seat, card in trick.plays]
            led_card = plays[0][1]
            led = self.suit(led_card, trump)
            for i, (seat, card) in enumerate(plays):
                suit = self.suit(card, trump)
                if suit is not None and suit in shown_out[seat]:
                    st, sc, sl = shown_out[seat].pop(suit)
                    out.append((seat, suit, st, sc, sl, t, card, "played"))
                if seat == deal.dealer and card == up:
                    holds_up_card = False
                if i == 0 or led is None or suit == led or led in shown_out[seat]:
                    continue
                shown_out[seat][led] = (t, card, led_card)
                if seat == deal.dealer and holds_up_card and self.suit(up, trump) == led:
                    del shown_out[seat][led]
                    out.append((seat, led, t, card, led_card, t, up, "held_up_card"))
        return out

    def failures_to_follow(self, deal: SimDeal) -> set[tuple[int, int, str]]:
        """(seat, trick, card) of every card played by a seat that held a card of the suit led."""
        trump = _trump_text(deal)
        hands = {seat: [str(c) for c in hand] for seat, hand in enumerate(deal.hands)}
        if deal.discard is not None:  # the dealer took the up-card and discarded
            hands[deal.dealer].append(str(deal.up_card))
            hands[deal.dealer].remove(str(deal.discard))
        out = set()
        for t, trick in enumerate(deal.tricks):
            led = self.suit(str(trick.plays[0][1]), trump)
            for seat, card in trick.plays[1:]:
                held = [c for c in hands[seat] if self.suit(c, trump) == led]
                if led is not None and held and self.suit(str(card), trump) != led:
                    out.add((seat, t, str(card)))
            for seat, card in trick.plays:
                hands[seat].remove(str(card))
        return out


def _trump_text(deal: SimDeal) -> str | None:
    return None if deal.no_trump or deal.trump is None else str(deal.trump)


def oracle_disagreements(oracle: Oracle, game: SimGame, rep: Replayed) -> list[str]:
    """Where the oracle and the engine (or the simulator's injected reneges) differ; empty when they agree."""
    out: list[str] = []
    for record, deal in zip(rep.match.deals, game.deals, strict=True):
        trump = _trump_text(deal)
        active = 4 - len(deal.alone_seats)
        tricks = [[(s, str(c)) for s, c in trick.plays] for trick in deal.tricks]
        winners = [oracle.winner(plays, trump) for plays in tricks if len(plays) == active]
        if winners != record.trick_winners:
            out.append(f"deal {deal.number}: trick winners {winners} != engine {record.trick_winners} ({tricks})")
        engine = [
            (e.seat, str(e.suit), e.showed_out_trick, str(e.showed_out_card), str(e.led_card), e.proof_trick,
             str(e.proof_card), e.proof)
            for e in record.reneges
        ]  # fmt: skip
        proofs = oracle.proofs(deal, game.rules)
        if proofs != engine:
            out.append(f"deal {deal.number}: proofs {proofs} != engine {engine} ({tricks})")
        failures = oracle.failures_to_follow(deal)
        injected = {(r.seat, r.trick, str(r.card)) for r in deal.reneges}
        if failures != injected:
            out.append(f"deal {deal.number}: failures to follow {failures} != injected {injected}")
    return out


ORACLE = Oracle()
ORACLE_RULE_SETS: dict[str, Rules] = {
    **RULE_SETS,
    "no_trump_24": NA.replace(no_trump=True),
    "no_trump_25": NA.replace(deck_size=25, no_trump=True, stick_the_dealer=True),
    "no_trump_28": NA.replace(deck_size=28, no_trump=True),
    "no_trump_32": NA.replace(deck_size=32, no_trump=True, dealer_may_discard_upcard=False),
}
ORACLE_ODDS = BiddingOdds(no_trump=0.5, discard_seen=0.7, accept_penalty=0.3)


@PROPERTY_SETTINGS
@given(seed=seeds, name=st.sampled_from(sorted(ORACLE_RULE_SETS)), rate=st.sampled_from([0.0, 0.2, 0.5]))
def test_the_engine_agrees_with_an_independent_oracle(seed: int, name: str, rate: float) -> None:
    game = simulate_game(ORACLE_RULE_SETS[name], seed, renege_rate=rate, odds=ORACLE_ODDS, max_deals=12)
    assert oracle_disagreements(ORACLE, game, replay(game)) == []


@functools.cache
def oracle_games() -> tuple[tuple[SimGame, Replayed], ...]:
    """A fixed sample: three games of every rule set (renege rates 0, 0.2 and 0.5)."""
    out = []
    for rules in ORACLE_RULE_SETS.values():
        for k, rate in enumerate((0.0, 0.2, 0.5)):
            game = simulate_game(rules, 1000 + k, renege_rate=rate, odds=ORACLE_ODDS, max_deals=12)
            out.append((game, replay(game)))
    return tuple(out)


def test_the_oracle_sample_covers_every_rule_it_states() -> None:
    seen: dict[str, int] = dict.fromkeys(
        ("no trump", "Benny", "left bower", "7 or 8", "played proof", "held up-card proof", "deck 24", "deck 25",
         "deck 28", "deck 32", "deck 33"),
        0,
    )  # fmt: skip
    for game, rep in oracle_games():
        assert oracle_disagreements(ORACLE, game, rep) == []
        seen[f"deck {game.rules.deck_size}"] += 1
        for deal in game.deals:
            trump = _trump_text(deal)
            cards = [str(c) for trick in deal.tricks for _, c in trick.plays]
            seen["no trump"] += bool(deal.no_trump and cards)
            seen["Benny"] += cards.count("B")
            seen["left bower"] += trump is not None and f"J{_SAME_COLOUR[trump]}" in cards
            seen["7 or 8"] += sum(c[0] in "78" for c in cards)
            for proof in ORACLE.proofs(deal, game.rules):
                seen["played proof" if proof[-1] == "played" else "held up-card proof"] += 1
    assert all(seen.values()), seen


@pytest.mark.parametrize(
    "mutant",
    [
        replace(ORACLE, left_bower_is_trump=False),
        replace(ORACLE, benny_above_right_bower=False),
        replace(ORACLE, natural_order="9TJQKA78"),
        replace(ORACLE, no_trump_jacks_high=True),
    ],
    ids=["left bower in its printed suit", "Benny below the right bower", "7 and 8 above the ace", "no-trump jacks"],
)
def test_an_oracle_with_one_rule_wrong_disagrees(mutant: Oracle) -> None:
    assert any(oracle_disagreements(mutant, game, rep) for game, rep in oracle_games())
