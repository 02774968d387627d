"""Simulated deals with full hands: the engine inputs of a seeded random game and its ground truth.

The engine never sees a hand (DESIGN.md); this helper does. It deals every
card from a seeded ``random.Random``, bids within the rules (alone, defender
alone, stick the dealer, Canadian loner, no trump, a turned-up Benny) at random
(``BiddingOdds``) or by a strategy (a ``Bidder`` such as ``StrengthBidder``),
lets the dealer discard (seen or unseen), and plays the hand out: each seat
plays a legal card, or, with probability ``renege_rate`` at a point where it
could follow suit and holds another suit too, deliberately fails to follow
(an injected renege).

The result is a script, the inputs a table would produce in order, plus the
ground truth the engine must reproduce from those inputs alone: hands, trick
winners, points, and for each injected renege whether and where it becomes
provable (the first later card of that suit from the offender in the same
hand; or the show-out itself when the dealer provably still holds the
up-card; a failure to follow after that suit was proven is a new offence,
proven by the next card of it). After each proof the table either accepts the
penalty (``AcceptPenalty``; the hand ends) or plays on (``DismissRenege``, or
simply the next card). Scoring here is written independently of
``table.deal`` so the two check each other. Everything is a pure function of
the seed and the options.

Blind lones (``BiddingOdds.blind_lone``) and a turned-up Benny more often than
the shuffle gives it (``BiddingOdds.benny_up``) only where asked for; both are
off by default, so a seed deals as it always did.

Not simulated (never generated): farmer's hand, call for best,
nines and tens, low-confidence readings and table irregularities other than
reneges.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from table.cards import Card, Rank, Suit, deck
from table.inputs import (
    AcceptPenalty,
    Discard,
    DismissRenege,
    GoAlone,
    Input,
    NameTrump,
    OrderUp,
    Pass,
    Play,
    UpCard,
)
from table.rules import BennyTurnedUp, DefenderAlone, LoneDefenderScoring, LonerLead, RenegePenalty, Rules
from table.trump import card_power, effective_suit

__all__ = [
    "Bidder",
    "BiddingOdds",
    "InjectedRenege",
    "SimDeal",
    "SimGame",
    "SimTrick",
    "StrengthBidder",
    "first_leader",
    "game_over",
    "score_hand",
    "simulate_deal",
    "simulate_game",
]

_SUITS = tuple(Suit)


@dataclass(frozen=True)
class BiddingOdds:
    """How the random players bid: each probability applies at each chance to do so."""

    order_up: float = 0.25  # round 1: accept the up-card's suit
    name_trump: float = 0.35  # round 2: name a suit (forced under stick the dealer)
    no_trump: float = 0.2  # round 2, where allowed: of the names, the share that are "no trump"
    maker_alone: float = 0.15  # the maker declares alone with the bid
    late_alone: float = 0.05  # the maker (or partner, where allowed) declares alone after the bid
    defender_alone: float = 0.15  # each defender allowed to, in turn
    discard_seen: float = 0.5  # the camera saw the dealer's discard
    accept_penalty: float = 0.0  # a proven renege: the table accepts the penalty (else plays on)
    blind_lone: float = 0.0  # under ``blind_lone``: a dealer who turned up a jack goes alone before any bid
    benny_up: float = 0.0  # a deck with the Benny: the chance it is the card turned up (else as shuffled)


@dataclass(frozen=True)
class InjectedRenege:
    """A deliberate failure to follow ``suit``, and where it becomes provable (``None``: never in this hand)."""

    seat: int
    suit: Suit  # the effective suit led and not followed
    trick: int
    card: Card  # the card played instead
    led: Card
    held: tuple[Card, ...]  # the seat's cards of ``suit`` at that moment: why it is a renege
    proof_trick: int | None
    proof_card: Card | None
    proof: str  # "played", "held_up_card", or "" when never provable
    proof_input: int | None  # index into ``SimDeal.inputs`` of the play that proves it


class SimTrick(NamedTuple):
    """One trick as played. (Records here are named tuples: immutable, and several times quicker to build.)"""

    leader: int
    plays: tuple[tuple[int, Card], ...]  # (seat, card) in play order
    winner: int  # seat; -1 when the hand ended before the trick was complete


class SimDeal(NamedTuple):
    """One simulated deal: what was dealt, what the table showed (``inputs``) and what must come of it."""

    number: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]  # per seat, as dealt (before any pick-up)
    up_card: Card  # the card bid on (after a set-aside Benny, the next one)
    set_aside: tuple[Card, ...]
    kitty: tuple[Card, ...]  # the undealt cards after the up-card
    calls: tuple[Pass | OrderUp | NameTrump, ...]
    trump: Suit | None
    no_trump: bool
    maker_seat: int | None
    round_made: int | None  # 1, 2, or 0 (Benny turned up, named blind)
    alone_seats: tuple[int, ...]
    discard: Card | None  # the dealer's real discard (None: the up-card was not taken)
    discard_seen: bool
    tricks: tuple[SimTrick, ...]
    trick_winners: tuple[int, ...]
    tricks_won: tuple[int, int]
    points: tuple[int, int]  # added to (team 0, team 1)
    reason: str  # as HandScored.reason ("renege", "renege_replay"...), or "thrown_in"
    reneges: tuple[InjectedRenege, ...]
    penalty_accepted: bool
    inputs: tuple[Input, ...]
    thrown_in: bool

    @property
    def plays(self) -> list[tuple[int, Card]]:
        """Every (seat, card) played, in order (what the simulated table video shows)."""
        return [p for t in self.tricks for p in t.plays]


@dataclass(frozen=True)
class SimGame:
    """A whole simulated game: the deals, every input in order, and the score at the end."""

    rules: Rules
    seed: int
    first_dealer: int
    deals: tuple[SimDeal, ...]
    inputs: tuple[Input, ...]
    score: tuple[int, int]
    over: bool  # False when ``max_deals`` cut the game short
    winner: int | None  # team; None while not over, or a draw after a fixed number of deals


# Cards are small ints (indices into the deck) inside the simulator: the play loop runs on table
# look-ups built once per deck from table.trump, so a deal costs tens of microseconds, not hundreds.
# Inputs, (seat, card) pairs and up-cards are shared instances from these tables too. What a deal
# costs now (about 3,900 bytecodes): the Fisher-Yates shuffle on random() (kept so that a seed gives
# the same deal as ever), a random choice and two list removals per card, and the SimDeal record.
_NO_SUIT = 4  # suit code of "no suit": the Benny under no trump; also the trump code of no trump


def _suit_code(suit: Suit | None) -> int:
    return _NO_SUIT if suit is None else _SUITS.index(suit)


@dataclass(frozen=True)
class _Deck:
    cards: tuple[Card, ...]
    benny: tuple[bool, ...]  # per card: is it the Benny?
    plays: tuple[tuple[Play, ...], ...]  # [seat][card] -> Play(seat, card): inputs are immutable, so shared
    seated: tuple[tuple[tuple[int, Card], ...], ...]  # [seat][card] -> (seat, card), as a trick records it
    up_cards: tuple[UpCard, ...]  # [card] -> UpCard(card)
    discards: tuple[tuple[Discard, ...], ...]  # [seat][card] -> Discard(seat, card); [seat][-1]: unseen
    eff: tuple[tuple[int, ...], ...]  # [trump code][card] -> effective suit code
    power: tuple[tuple[tuple[int, ...], ...], ...]  # [trump code][led suit code][card] -> card_power


_DECKS: dict[int, _Deck] = {}


def _deck(size: int) -> _Deck:
    tables = _DECKS.get(size)
    if tables is None:
        cards = deck(size)
        trumps: tuple[Suit | None, ...] = (*_SUITS, None)
        leds: tuple[Suit | None, ...] = (*_SUITS, None)
        eff = tuple(tuple(_suit_code(effective_suit(c, t)) for c in cards) for t in trumps)
        power = tuple(tuple(tuple(card_power(c, led, t) for c in cards) for led in leds) for t in trumps)
        plays = tuple(tuple(Play(seat, c) for c in cards) for seat in range(4))
        seated = tuple(tuple((seat, c) for c in cards) for seat in range(4))
        discards = tuple((*(Discard(seat, c) for c in cards), Discard(seat, None)) for seat in range(4))
        up_cards = tuple(UpCard(c) for c in cards)
        benny = tuple(c.is_benny for c in cards)
        tables = _DECKS[size] = _Deck(cards, benny, plays, seated, up_cards, discards, eff, power)
    return tables


# Bids are immutable values too: one instance each.
_PASS = tuple(Pass(seat) for seat in range(4))
_ORDER_UP = tuple((OrderUp(seat, False), OrderUp(seat, True)) for seat in range(4))
# _ROTATIONS[out][leader]: the active seats (those whose bit is clear in ``out``) clockwise from ``leader``.
_ROTATIONS = tuple(
    {s: tuple(x % 4 for x in range(s, s + 4) if not out >> (x % 4) & 1) for s in range(4)} for out in range(16)
)


class _Hand:
    """Mutable state of one deal inside the simulator (cards as deck indices)."""

    __slots__ = (
        "rules", "tables", "dealer", "hands", "inputs", "calls", "trump", "trump_made", "maker", "round_made",
        "alone", "passed", "took_up", "discard", "discard_seen", "blind",
    )  # fmt: skip

    def __init__(self, rules: Rules, tables: _Deck, dealer: int, hands: list[list[int]]) -> None:
        self.rules = rules
        self.tables = tables
        self.dealer = dealer
        self.hands = hands
        self.inputs: list[Input] = []
        self.calls: list[Pass | OrderUp | NameTrump] = []
        self.trump: Suit | None = None
        self.trump_made = False
        self.maker: int | None = None
        self.round_made: int | None = None
        self.alone: list[int] = []
        self.passed: dict[int, set[int]] = {1: set(), 2: set()}
        self.took_up = False
        self.discard: int | None = None
        self.discard_seen = False
        self.blind = False  # a blind lone


def first_leader(rules: Rules, dealer: int, alone: list[int], maker: int | None) -> int:
    """Who leads the first trick: left of the dealer, or per ``loner_lead`` when someone is alone."""
    out = {(s + 2) % 4 for s in alone}
    if alone and rules.loner_lead is LonerLead.LEFT_OF_LONER:
        if len(alone) == 1:
            start = alone[0] + 1
        else:
            makers = None if maker is None else maker % 2
            return next(s for s in alone if s % 2 != makers)
    else:
        start = dealer + 1
    for i in range(4):
        seat = (start + i) % 4
        if seat not in out:
            return seat
    raise AssertionError("no active seat")  # unreachable: at most two seats sit out


def score_hand(
    rules: Rules, makers: int, made: int, maker_alone: bool, defender_alone: bool, blind: bool = False
) -> tuple[tuple[int, int], str]:
    """Points for (team 0, team 1) and the reason, for a hand played out in which the makers took ``made`` tricks.

    ``blind``: a blind lone (RULES.md, Robson rules): 5 if made, 1 to the defenders if euchred.
    """
    if made >= 3:
        if blind:
            pts, reason = 5, "blind_lone"
        elif made == 5:
            pts, reason = (rules.loner_march_points, "lone_march") if maker_alone else (2, "march")
        else:
            pts, reason = 1, "made"
        team = makers
    else:
        team = 1 - makers
        if defender_alone:
            four = rules.lone_defender_scoring is LoneDefenderScoring.FOUR_FOR_THREE_PLUS or made == 0
            pts, reason = (4 if four else 2), "lone_defender"
        elif blind:
            pts, reason = 1, "blind_lone_euchre"
        elif maker_alone:
            pts, reason = rules.loner_euchred_points, "lone_euchre"
        else:
            pts, reason = 2, "euchre"
        if rules.super_euchre and made == 0 and not blind and pts < 4:
            pts, reason = 4, "super_euchre"
    return ((pts, 0) if team == 0 else (0, pts)), reason


def _renege_points(rules: Rules, offender: int, anyone_alone: bool) -> tuple[tuple[int, int], str]:
    """Points for an accepted renege penalty (``REPLAY`` scores nothing: the hand is dealt again)."""
    if rules.renege_penalty is RenegePenalty.TWO_OR_FOUR:
        pts = 4 if anyone_alone else 2
        return ((pts, 0) if offender % 2 == 1 else (0, pts)), "renege"
    if rules.renege_penalty is RenegePenalty.DEDUCT:
        return ((-2, 0) if offender % 2 == 0 else (0, -2)), "renege"
    return (0, 0), "renege_replay"


def _may_go_alone(h: _Hand, seat: int) -> bool:
    """May ``seat`` still declare alone (after trump is made, before the lead)?"""
    rules = h.rules
    assert h.maker is not None
    if seat in h.alone or (seat + 2) % 4 in h.alone:
        return False
    if rules.passed_player_may_not_go_alone and h.round_made in h.passed and seat in h.passed[h.round_made]:
        return False
    if seat % 2 == h.maker % 2:
        return seat == h.maker or rules.defender_may_go_alone is DefenderAlone.ALWAYS
    if rules.defender_may_go_alone is DefenderAlone.NEVER:
        return False
    if rules.defender_may_go_alone is DefenderAlone.AGAINST_LONE_MAKER:
        return any(s % 2 == h.maker % 2 for s in h.alone)
    return True


class Bidder(Protocol):
    """A bidding strategy for the simulated players; it sees only the bidder's own hand.

    The simulator enforces the rules around it: a Canadian loner is made alone, a dealer without a
    natural trump may not take up (``natural_trump_to_pick_up``), a stuck dealer who passes names a
    random suit, and "no trump" where the table does not play it is a pass.
    """

    def round_1(self, seat: int, hand: Sequence[Card], up_card: Card, dealer: int) -> tuple[bool, bool]:
        """(order up, alone)."""
        ...

    def round_2(
        self, seat: int, hand: Sequence[Card], turned_down: Suit, dealer: int
    ) -> tuple[bool, Suit | None, bool]:
        """(name a suit, which suit (``None``: no trump), alone)."""
        ...


@dataclass(frozen=True)
class StrengthBidder:
    """A plain table player: makes trump holding ``min_trumps`` of it (bowers count), alone with ``alone_trumps``.

    In round 1 the dealer counts the up-card too; in round 2 the longest other suit is named.
    """

    min_trumps: int = 3
    alone_trumps: int = 5

    def _count(self, hand: Sequence[Card], trump: Suit) -> int:
        return sum(1 for c in hand if effective_suit(c, trump) is trump)

    def round_1(self, seat: int, hand: Sequence[Card], up_card: Card, dealer: int) -> tuple[bool, bool]:
        assert up_card.suit is not None
        n = self._count([*hand, up_card] if seat == dealer else hand, up_card.suit)
        return n >= self.min_trumps, n >= self.alone_trumps

    def round_2(
        self, seat: int, hand: Sequence[Card], turned_down: Suit, dealer: int
    ) -> tuple[bool, Suit | None, bool]:
        n, suit = max((self._count(hand, s), s.value) for s in _SUITS if s is not turned_down)
        return n >= self.min_trumps, Suit(suit), n >= self.alone_trumps


def _bid(h: _Hand, rng: random.Random, odds: BiddingOdds, up: Card, bidder: Bidder | None) -> None:
    """Both bidding rounds (or the blind naming under a turned-up Benny); sets trump and the maker."""
    rules, dealer, rnd, cards = h.rules, h.dealer, rng.random, h.tables.cards
    if up.is_benny:  # only reached under DEALER_NAMES_BLIND: named before looking, so at random
        blind_suit = _SUITS[int(rnd() * 4)]
        alone = rnd() < odds.maker_alone
        call = NameTrump(dealer, blind_suit, alone)
        h.calls.append(call)
        h.inputs.append(call)
        h.trump, h.trump_made, h.maker, h.round_made = blind_suit, True, dealer, 0
        if alone:
            h.alone.append(dealer)
        h.took_up = True
        return
    up_suit = up.suit
    assert up_suit is not None
    if rules.blind_lone and up.rank is Rank.JACK and odds.blind_lone > 0 and rnd() < odds.blind_lone:
        # The blind lone: the dealer goes alone on the turned-up jack before anyone bids (the engine's
        # GoAlone in round 1; its call is the dealer's lone order-up).
        h.calls.append(_ORDER_UP[dealer][True])
        h.inputs.append(GoAlone(dealer))
        h.trump, h.trump_made, h.maker, h.round_made = up_suit, True, dealer, 1
        h.alone.append(dealer)
        h.blind = True
        h.took_up = True
        return
    for i in range(1, 5):
        seat = (dealer + i) % 4
        may_order = True
        if seat == dealer and rules.natural_trump_to_pick_up:
            may_order = any(cards[c].suit is up_suit or cards[c].is_benny for c in h.hands[dealer])
        if bidder is None:
            order_up = rnd() < odds.order_up
            alone = order_up and rnd() < odds.maker_alone
        else:
            order_up, alone = bidder.round_1(seat, [cards[c] for c in h.hands[seat]], up, dealer)
        if may_order and order_up:
            alone = alone or (rules.dealer_partner_must_go_alone and seat == (dealer + 2) % 4)
            order = _ORDER_UP[seat][alone] if alone is True or alone is False else OrderUp(seat, alone)
            h.calls.append(order)
            h.inputs.append(order)
            h.trump, h.trump_made, h.maker, h.round_made = up_suit, True, seat, 1
            if alone:
                h.alone.append(seat)
            h.took_up = (dealer + 2) % 4 not in h.alone  # a dealer who sits out does not take the card
            return
        h.passed[1].add(seat)
        h.calls.append(_PASS[seat])
        h.inputs.append(_PASS[seat])
    others = [s for s in _SUITS if s is not up_suit]
    for i in range(1, 5):
        seat = (dealer + i) % 4
        must = rules.stick_the_dealer and seat == dealer
        if bidder is None:
            name_it = rnd() < odds.name_trump
            suit: Suit | None = others[int(rnd() * 3)]
            if rules.no_trump and rnd() < odds.no_trump:
                suit = None
            alone = rnd() < odds.maker_alone
        else:
            name_it, suit, alone = bidder.round_2(seat, [cards[c] for c in h.hands[seat]], up_suit, dealer)
            if suit is up_suit or (suit is None and not rules.no_trump):
                name_it = False
        if must and not name_it:
            name_it, suit = True, others[int(rnd() * 3)]
        if name_it:
            name = NameTrump(seat, suit, alone)
            h.calls.append(name)
            h.inputs.append(name)
            h.trump, h.trump_made, h.maker, h.round_made = suit, True, seat, 2
            if alone:
                h.alone.append(seat)
            return
        h.passed[2].add(seat)
        h.calls.append(_PASS[seat])
        h.inputs.append(_PASS[seat])


def _discard(h: _Hand, rng: random.Random, odds: BiddingOdds, up: int) -> None:
    hand = h.hands[h.dealer]
    hand.append(up)
    n = len(hand) if h.rules.dealer_may_discard_upcard else len(hand) - 1
    card = hand.pop(int(rng.random() * n))
    h.discard = card
    h.discard_seen = rng.random() < odds.discard_seen
    h.inputs.append(h.tables.discards[h.dealer][card if h.discard_seen else -1])


def _late_alone(h: _Hand, rng: random.Random, odds: BiddingOdds) -> None:
    """Declarations after trump is made: the maker's side first (if nobody there is alone), then defenders."""
    assert h.maker is not None
    if not any(s % 2 == h.maker % 2 for s in h.alone) and rng.random() < odds.late_alone:
        seat = h.maker
        if h.rules.defender_may_go_alone is DefenderAlone.ALWAYS and rng.random() < 0.5:
            seat = (h.maker + 2) % 4
        if _may_go_alone(h, seat):
            h.alone.append(seat)
            h.inputs.append(GoAlone(seat))
    if h.rules.defender_may_go_alone is DefenderAlone.NEVER:
        return
    for i in range(1, 5):
        seat = (h.dealer + i) % 4
        if seat % 2 != h.maker % 2 and _may_go_alone(h, seat) and rng.random() < odds.defender_alone:
            h.alone.append(seat)
            h.inputs.append(GoAlone(seat))


@dataclass
class _Renege:
    """An injected renege while the hand is played (frozen into ``InjectedRenege`` at the end)."""

    seat: int
    suit: int
    trick: int
    card: int
    led: int
    held: tuple[int, ...]
    proof_trick: int | None = None
    proof_card: int | None = None
    proof: str = ""
    proof_input: int | None = None

    def freeze(self, cards: tuple[Card, ...]) -> InjectedRenege:
        return InjectedRenege(
            self.seat, _SUITS[self.suit], self.trick, cards[self.card], cards[self.led],
            tuple(cards[c] for c in self.held), self.proof_trick,
            None if self.proof_card is None else cards[self.proof_card], self.proof, self.proof_input,
        )  # fmt: skip


def simulate_deal(
    rules: Rules,
    rng: random.Random,
    dealer: int,
    *,
    number: int = 0,
    renege_rate: float = 0.0,
    odds: BiddingOdds = BiddingOdds(),
    bidder: Bidder | None = None,
) -> SimDeal:
    """Deal, bid, discard and play one hand; return its inputs and ground truth (see the module docstring)."""
    tables = _deck(rules.deck_size)
    cards = tables.cards
    order = list(range(len(cards)))
    rnd = rng.random
    for i in range(len(order) - 1, 0, -1):  # Fisher-Yates on random(): several times faster than shuffle()
        j = int(rnd() * (i + 1))
        order[i], order[j] = order[j], order[i]
    if odds.benny_up > 0 and rules.has_benny and rnd() < odds.benny_up:
        # The Benny turned up: it changes places with the 21st card (the deal stays a random one).
        b = next(i for i, c in enumerate(order) if tables.benny[c])
        order[b], order[20] = order[20], order[b]
    hands = [order[((s - dealer - 1) % 4) * 5 : ((s - dealer - 1) % 4) * 5 + 5] for s in range(4)]
    card_of = cards.__getitem__
    dealt = tuple([tuple(map(card_of, hand)) for hand in hands])
    pos = 20
    set_aside: list[Card] = []
    h = _Hand(rules, tables, dealer, hands)
    while tables.benny[order[pos]] and rules.benny_turned_up is BennyTurnedUp.SET_ASIDE:
        set_aside.append(cards[order[pos]])
        h.inputs.append(tables.up_cards[order[pos]])
        pos += 1
    up = order[pos]
    kitty = tuple(map(card_of, order[pos + 1 :]))
    h.inputs.append(tables.up_cards[up])
    _bid(h, rng, odds, cards[up], bidder)
    if not h.trump_made:
        return SimDeal(
            number, dealer, dealt, cards[up], tuple(set_aside), kitty, tuple(h.calls), None, False, None, None, (),
            None, False, (), (), (0, 0), (0, 0), "thrown_in", (), False, tuple(h.inputs), True,
        )  # fmt: skip
    if h.took_up:
        _discard(h, rng, odds, up)
    _late_alone(h, rng, odds)
    return _play(h, rng, renege_rate, odds, number, dealt, up, tuple(set_aside), kitty)


def _play(
    h: _Hand,
    rng: random.Random,
    renege_rate: float,
    odds: BiddingOdds,
    number: int,
    dealt: tuple[tuple[Card, ...], ...],
    up: int,
    set_aside: tuple[Card, ...],
    kitty: tuple[Card, ...],
) -> SimDeal:
    rules, hands, inputs, cards, rnd = h.rules, h.hands, h.inputs, h.tables.cards, rng.random
    play_inputs = h.tables.plays
    assert h.maker is not None
    tc = _suit_code(h.trump)
    eff, power = h.tables.eff[tc], h.tables.power[tc]
    makers = h.maker % 2
    out_mask = 0  # seats sitting out, as bits
    for s in h.alone:
        out_mask |= 1 << (s + 2) % 4
    n_active = 4 - out_mask.bit_count()
    # The dealer provably holds the taken-up card until it is played when the discard was seen
    # (and was another card) or discarding it is not allowed.
    held_up = h.took_up and h.discard != up and (h.discard_seen or not rules.dealer_may_discard_upcard)
    shown_out: list[dict[int, int]] = [{}, {}, {}, {}]  # per seat: suit code -> trick of an unproven show-out
    track = renege_rate > 0
    injected: list[_Renege] = []
    tricks: list[SimTrick] = []
    won = [0, 0]
    penalty: tuple[int, int] | None = None
    reason = ""
    leader = first_leader(rules, h.dealer, h.alone, h.maker)
    rotations = _ROTATIONS[out_mask]
    seated = h.tables.seated
    dealer = h.dealer
    if not track:  # a legal hand proves nothing: only hands with injected reneges need the evidence
        _play_legal(h, rng, leader, rotations, eff, power, tricks, won)
    else:
        for t in range(5):
            seats = rotations[leader]
            plays: list[int] = []
            played: list[tuple[int, Card]] = []
            led = -1
            led_suit = _NO_SUIT
            for seat in seats:
                hand = hands[seat]
                if led < 0:
                    card = hand[int(rnd() * len(hand))]
                elif led_suit != _NO_SUIT:
                    follow = [c for c in hand if eff[c] == led_suit]
                    if follow and len(follow) < len(hand) and rnd() < renege_rate:
                        others = [c for c in hand if eff[c] != led_suit]
                        card = others[int(rnd() * len(others))]
                        injected.append(_Renege(seat, led_suit, t, card, led, tuple(follow)))
                    else:
                        pool = follow or hand
                        card = pool[int(rnd() * len(pool))]
                else:  # a led Benny under no trump: nothing to follow
                    card = hand[int(rnd() * len(hand))]
                hand.remove(card)
                plays.append(card)
                played.append(seated[seat][card])
                inputs.append(play_inputs[seat][card])
                proofs = _evidence(shown_out[seat], eff, card, led, led_suit, t, held_up and seat == dealer, up)
                if seat == dealer and card == up:
                    held_up = False
                if proofs:
                    for r in injected:
                        for p_suit, p_card, p_kind in proofs:
                            if r.proof_trick is None and r.seat == seat and r.suit == p_suit:
                                r.proof_trick, r.proof_card, r.proof = t, p_card, p_kind
                                r.proof_input = len(inputs) - 1
                    if rnd() < odds.accept_penalty:
                        inputs.append(AcceptPenalty())
                        penalty, reason = _renege_points(rules, seat, bool(h.alone))
                        break
                    if rnd() < 0.5:
                        inputs.append(DismissRenege())  # else the next card plays on: an implicit dismissal
                if led < 0:
                    led, led_suit = card, eff[card]
            winner = -1
            if len(plays) == n_active:  # a trick cut short by an accepted penalty has no winner
                pw = power[led_suit]
                best = 0
                best_power = pw[plays[0]]
                for i in range(1, n_active):
                    if pw[plays[i]] > best_power:
                        best, best_power = i, pw[plays[i]]
                winner = seats[best]
                won[winner % 2] += 1
            tricks.append(SimTrick(seats[0], tuple(played), winner))
            if penalty is not None:
                break
            leader = winner
    if penalty is None:
        maker_alone = defender_alone = False
        for s in h.alone:
            if s % 2 == makers:
                maker_alone = True
            else:
                defender_alone = True
        points, reason = score_hand(rules, makers, won[makers], maker_alone, defender_alone, h.blind)
    else:
        points = penalty
    return SimDeal(
        number=number,
        dealer=h.dealer,
        hands=dealt,
        up_card=cards[up],
        set_aside=set_aside,
        kitty=kitty,
        calls=tuple(h.calls),
        trump=h.trump,
        no_trump=h.trump is None,
        maker_seat=h.maker,
        round_made=h.round_made,
        alone_seats=tuple(h.alone),
        discard=None if h.discard is None else cards[h.discard],
        discard_seen=h.discard_seen,
        tricks=tuple(tricks),
        trick_winners=tuple([t.winner for t in tricks if t.winner >= 0]),
        tricks_won=(won[0], won[1]),
        points=points,
        reason=reason,
        reneges=tuple([r.freeze(cards) for r in injected]) if injected else (),
        penalty_accepted=penalty is not None,
        inputs=tuple(inputs),
        thrown_in=False,
    )


def _play_legal(
    h: _Hand,
    rng: random.Random,
    leader: int,
    rotations: dict[int, tuple[int, ...]],
    eff: tuple[int, ...],
    power: tuple[tuple[int, ...], ...],
    tricks: list[SimTrick],
    won: list[int],
) -> None:
    """``_play``'s five tricks when every card is legal (no renege to inject, no evidence to keep): the same
    random choices, in the same order, as the general loop, with each hand also kept by effective suit so
    that following suit needs no scan of the hand."""
    rnd, hands, inputs = rng.random, h.hands, h.inputs
    play_inputs, seated = h.tables.plays, h.tables.seated
    suited: list[list[list[int]]] = []
    for hand in hands:
        by_suit: list[list[int]] = [[], [], [], [], []]
        for c in hand:
            by_suit[eff[c]].append(c)
        suited.append(by_suit)
    for _ in range(5):
        seats = rotations[leader]
        seat = leader
        hand = hands[seat]
        card = hand[int(rnd() * len(hand))]
        hand.remove(card)
        led_suit = eff[card]
        suited[seat][led_suit].remove(card)
        pw = power[led_suit]
        best, best_power = seat, pw[card]
        played = [seated[seat][card]]
        inputs.append(play_inputs[seat][card])
        for seat in seats[1:]:
            hand = hands[seat]
            # (Under no trump a led Benny has no suit, _NO_SUIT, and no one else can hold a card of it: the one
            # Benny was led. So this list is empty then, as it must be.)
            follow = suited[seat][led_suit]
            if follow:
                card = follow[int(rnd() * len(follow))]
                follow.remove(card)
            else:
                card = hand[int(rnd() * len(hand))]
                suited[seat][eff[card]].remove(card)
            hand.remove(card)
            if pw[card] > best_power:
                best, best_power = seat, pw[card]
            played.append(seated[seat][card])
            inputs.append(play_inputs[seat][card])
        won[best % 2] += 1
        tricks.append(SimTrick(leader, tuple(played), best))
        leader = best


def _evidence(
    seat_out: dict[int, int],
    eff: tuple[int, ...],
    card: int,
    led: int,
    led_suit: int,
    trick: int,
    dealer_holds_up: bool,
    up: int,
) -> list[tuple[int, int, str]]:
    """Update one seat's show-outs with its card, as the table sees it; return the proofs (suit, card, kind).

    A card of a suit the seat showed out of proves every renege of that suit not proven yet; a later
    show-out of the same suit is a new offence, proven anew. A dealer known to hold the taken-up card
    who shows out of its suit is proven at once (``held_up_card``).
    """
    proofs: list[tuple[int, int, str]] = []
    suit = eff[card]
    if suit in seat_out:
        del seat_out[suit]
        proofs.append((suit, card, "played"))
    if led >= 0 and led_suit != _NO_SUIT and suit != led_suit and led_suit not in seat_out:
        if dealer_holds_up and eff[up] == led_suit:
            proofs.append((led_suit, up, "held_up_card"))
        else:
            seat_out[led_suit] = trick
    return proofs


def simulate_game(
    rules: Rules,
    seed: int,
    *,
    first_dealer: int = 0,
    score: tuple[int, int] = (0, 0),
    renege_rate: float = 0.0,
    odds: BiddingOdds = BiddingOdds(),
    bidder: Bidder | None = None,
    max_deals: int | None = None,
) -> SimGame:
    """Deals from ``first_dealer`` until the game is won (or ``max_deals``), all from ``random.Random(seed)``."""
    rng = random.Random(seed)
    deals: list[SimDeal] = []
    inputs: list[Input] = []
    dealer = first_dealer
    s0, s1 = score
    played = 0
    over, winner = False, None
    while not over and (max_deals is None or len(deals) < max_deals):
        d = simulate_deal(rules, rng, dealer, number=len(deals), renege_rate=renege_rate, odds=odds, bidder=bidder)
        deals.append(d)
        inputs.extend(d.inputs)
        s0, s1 = s0 + d.points[0], s1 + d.points[1]
        if d.reason != "renege_replay":  # a voided hand is dealt again by the same dealer
            played += 1
            dealer = (dealer + 1) % 4
        over, winner = game_over(rules, (s0, s1), played)
    return SimGame(rules, seed, first_dealer, tuple(deals), tuple(inputs), (s0, s1), over, winner)


def game_over(rules: Rules, score: tuple[int, int], deals_played: int) -> tuple[bool, int | None]:
    """(Is the game over, the winning team or ``None`` for a draw); ``deals_played`` excludes voided deals."""
    a, b = score
    if rules.target > 0:
        lead = 0 if a > b else 1 if b > a else None
        if lead is not None and max(a, b) >= rules.target and (not rules.win_by_two or abs(a - b) >= 2):
            return True, lead
    if rules.num_deals > 0 and deals_played >= rules.num_deals:
        return True, (0 if a > b else 1 if b > a else None)
    return False, None
