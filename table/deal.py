"""One deal's state and its read-only record, plus the pure scoring of a finished hand.

``Match`` (table.match) drives the phases; this module holds what a deal knows:
the up-card, the bids, who made trump and who is alone, the tricks as played,
the renege evidence and the irregularities seen, and the points it scored.
``DealRecord`` is the frozen snapshot that ``euchre-table replay --json`` prints.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from table.announcements import Irregularity, RenegeEvidence
from table.cards import ALL_CARDS, Card, Suit
from table.inputs import Exchange, NameTrump, OrderUp, Pass
from table.renege import RenegeTracker
from table.rules import LoneDefenderScoring, Rules
from table.trump import PlayFacts, effective_table, play_facts

__all__ = ["Call", "DealRecord", "DealState", "Phase", "hand_points"]

Call = Pass | OrderUp | NameTrump
"""A bid as it was made (round 1, round 2, or the dealer naming trump blind under a turned-up Benny)."""


class Phase(enum.Enum):
    """Where a deal stands; ``Match`` has one handler per phase."""

    UP_CARD = "up_card"  # waiting for the first deal's up-card (or another one after a set-aside Benny)
    BID_ROUND_1 = "bid_round_1"
    BID_ROUND_2 = "bid_round_2"
    NAME_TRUMP_BLIND = "name_trump_blind"  # a Benny was turned up: the dealer names trump unseen
    DISCARD = "discard"  # the dealer took the up-card and discards
    GO_ALONE = "go_alone"  # trump made, before the first lead: anyone allowed may still go alone
    PLAY = "play"
    RENEGE_DECISION = "renege_decision"  # a renege is proven: accept the penalty or play on
    HAND_OVER = "hand_over"  # the hand is scored; waiting for the next up-card
    GAME_OVER = "game_over"

    __hash__ = object.__hash__  # members are singletons; faster than Enum's name hash


@dataclass(frozen=True)
class DealRecord:
    """A read-only snapshot of one deal (finished, or the one in progress)."""

    number: int  # 0-based, counting every deal of the game (thrown-in and voided ones too)
    dealer: int
    up_card: Card | None
    trump: Suit | None  # None: not made yet, thrown in, or no trump (see no_trump)
    no_trump: bool
    maker_seat: int | None
    round_made: int | None  # 1, 2, or 0 for a Benny turned up
    alone_seats: tuple[int, ...]
    blind: bool  # a blind lone (Robson rules)
    calls: list[Call]
    discard: Card | None  # None: not taken up, or unseen
    exchanges: list[Exchange]
    tricks: list[list[tuple[int, Card]]]  # (seat, card) in play order; the last one may be incomplete
    trick_winners: list[int]
    tricks_won: tuple[int, int]
    points: tuple[int, int]
    reason: str  # HandScored.reason, "thrown_in", "voided" or "" while in progress
    reneges: list[RenegeEvidence]
    penalty_accepted: bool
    irregularities: list[Irregularity]
    set_aside: list[Card]  # Bennies set aside before the real up-card
    thrown_in: bool
    voided: bool  # replayed after a renege, or a misdeal (same dealer deals again)
    finished: bool
    score_after: tuple[int, int] | None

    def to_json(self) -> dict[str, Any]:
        """The per-deal object of ``euchre-table replay --json`` (cards and suits as EGN text)."""
        return {
            "dealer": self.dealer,
            "up_card": None if self.up_card is None else str(self.up_card),
            "trump": None if self.trump is None else str(self.trump),
            "no_trump": self.no_trump,
            "maker_seat": self.maker_seat,
            "alone_seats": list(self.alone_seats),
            "trick_winners": list(self.trick_winners),
            "tricks_won": list(self.tricks_won),
            "points": list(self.points),
            "reason": self.reason,
            "reneges": [
                {
                    "seat": e.seat,
                    "suit": str(e.suit),
                    "showed_out_trick": e.showed_out_trick,
                    "showed_out_card": str(e.showed_out_card),
                    "led_card": str(e.led_card),
                    "proof_trick": e.proof_trick,
                    "proof_card": str(e.proof_card),
                    "proof": e.proof,
                }
                for e in self.reneges
            ],
            "irregularities": [
                {
                    "kind": i.kind.value,
                    "detail": i.detail,
                    "seat": i.seat,
                    "card": None if i.card is None else str(i.card),
                }
                for i in self.irregularities
            ],
            "thrown_in": self.thrown_in,
            "voided": self.voided,
            "discard": None if self.discard is None else str(self.discard),
            "finished": self.finished,
        }


# A card's id here is the id() of its shared instance (table.cards.ALL_CARDS, alive as long as the program):
# of an int, a set or dict look-up is several times cheaper than of a Card, whose hash is Python code.
# ``id(card) == card_id(card)`` exactly when ``card`` is the shared instance.
_CARD_ID: dict[Card, int] = {c: id(c) for c in ALL_CARDS}
_FACTS_BY_ID: dict[Suit | None, dict[int, PlayFacts]] = {
    t: {id(c): f for c, f in play_facts(t).items()} for t in (*Suit, None)
}


def card_id(card: Card) -> int:
    """The id of ``card``'s shared instance (-1 for a malformed card that is none of the 33)."""
    return _CARD_ID.get(card, -1)


@functools.cache
def _deck_ids(cards: frozenset[Card]) -> frozenset[int]:
    return frozenset(card_id(c) for c in cards)


_SITTING_OUT = tuple(frozenset(s for s in range(4) if mask >> s & 1) for mask in range(16))
_NO_TRUMP_EFF = effective_table(None)
_NO_TRUMP_FACTS = play_facts(None)


class DealState:
    """The mutable state of the deal in progress (owned by one ``Match``).

    Besides what the deal knows, it keeps a few running facts for ``Match``'s play path (the cards not yet
    seen, the seats that played to the current trick, the suit led and the best card so far), so that a
    card costs a handful of look-ups rather than a scan of the trick.
    """

    __slots__ = (
        "number", "dealer", "up_card", "up_reliable", "up_rival", "trump_doubt", "set_aside", "calls", "turn", "passed",
        "trump",
        "trump_made", "maker_seat", "round_made", "blind", "alone", "sitting_out", "active", "n_active",
        "out_mask", "dealer_took_up", "discard", "discard_given", "exchanges", "exchanged", "tricks",
        "trick_winners", "tricks_won", "leader", "unseen", "up_card_played", "dealer_cards", "tracker",
        "shown_out", "eff", "facts", "facts_by_id", "next_seat", "busy", "led_suit", "lead_ok", "best",
        "best_power", "reneges", "pending", "out_of_order", "dismissed", "penalty_accepted", "irregularities", "points",
        "reason", "thrown_in", "voided", "finished", "score_after",
    )  # fmt: skip

    def __init__(self, number: int, dealer: int, cards: frozenset[Card]) -> None:
        self.number = number
        self.dealer = dealer
        self.up_card: Card | None = None
        self.up_reliable = True
        self.up_rival: Card | None = None  # the camera's likeliest other reading of an up-card read to be checked
        # The other suits trump may be, where it was made by ordering up an up-card read to be checked (the up-card's
        # rival's suit, or, without one, every other suit); () where trump is sure.
        self.trump_doubt: tuple[Suit, ...] = ()
        self.set_aside: list[Card] = []
        self.calls: list[Call] = []
        self.turn = (dealer + 1) % 4  # whose bid it is
        self.passed: dict[int, set[int]] = {1: set(), 2: set()}
        self.trump: Suit | None = None
        self.trump_made = False
        self.maker_seat: int | None = None
        self.round_made: int | None = None
        self.blind = False
        self.alone: list[int] = []  # change through add_alone()
        self.sitting_out: frozenset[int] = frozenset()
        self.active: list[int] = [0, 1, 2, 3]
        self.n_active = 4  # len(active)
        self.out_mask = 0  # sitting_out as bits (1 << seat)
        self.dealer_took_up = False
        self.discard: Card | None = None
        self.discard_given = False
        self.exchanges: list[Exchange] = []
        self.exchanged: set[int] = set()
        self.tricks: list[list[tuple[int, Card]]] = []
        self.trick_winners: list[int] = []
        self.tricks_won = [0, 0]
        self.leader = (dealer + 1) % 4
        # The cards of the deck not seen yet this deal, by card_id (a card outside the deck is never in it):
        # "seen" is the complement, and a play of an unseen card needs a single look-up of an int.
        self.unseen: set[int] = set(_deck_ids(cards))
        self.up_card_played = False
        self.dealer_cards: list[tuple[Card, bool]] = []  # the dealer's plays and whether each was reliable
        self.tracker = RenegeTracker()
        self.shown_out = self.tracker.shown_out  # (read on every play)
        self.eff: Mapping[Card, Suit | None] = _NO_TRUMP_EFF  # effective suits under this deal's trump
        self.facts: Mapping[Card, PlayFacts] = _NO_TRUMP_FACTS  # table.trump.play_facts under this deal's trump
        self.facts_by_id: Mapping[int, PlayFacts] = _FACTS_BY_ID[None]  # the same, by card_id
        self.next_seat: int | None = None  # cache of who plays next (Match._play_turn)
        # The current trick, kept as it is played: seats that played or sit out (bits), the led card's
        # effective suit, whether the lead was a reliable reading, and the index and power of the winning card.
        self.busy = 0
        self.led_suit: Suit | None = None
        self.lead_ok = False
        self.best = 0
        self.best_power = -1
        self.reneges: list[RenegeEvidence] = []
        self.pending: RenegeEvidence | None = None
        # A card *read by the camera* (confidence under 1) came out of turn, or as a second card of one
        # seat in a trick: most often the camera missed a card, which puts later cards in the wrong
        # tricks. From then on no renege of this deal is proven (a false alarm is worse than none): a
        # suspicion is announced instead. Cards entered by people (confidence 1) keep the table's order law.
        self.out_of_order = False
        self.dismissed: set[int] = set()  # indices of reneges the table dismissed with DismissRenege
        self.penalty_accepted = False
        self.irregularities: list[Irregularity] = []
        self.points = (0, 0)
        self.reason = ""
        self.thrown_in = False
        self.voided = False
        self.finished = False
        self.score_after: tuple[int, int] | None = None

    def add_alone(self, seat: int) -> None:
        """``seat`` goes alone: its partner sits out."""
        self.alone.append(seat)
        self.next_seat = None
        self.out_mask |= 1 << (seat + 2) % 4
        self.busy |= self.out_mask
        self.sitting_out = _SITTING_OUT[self.out_mask]
        self.active = [s for s in range(4) if not self.out_mask >> s & 1]
        self.n_active = len(self.active)

    def set_trump(self, suit: Suit | None) -> None:
        self.trump = suit
        self.eff = effective_table(suit)
        self.facts = play_facts(suit)
        self.facts_by_id = _FACTS_BY_ID[suit]

    def is_unseen(self, card: Card) -> bool:
        """``card`` is a card of the deck not seen yet this deal."""
        return card_id(card) in self.unseen

    def mark_seen(self, card: Card) -> None:
        self.unseen.discard(card_id(card))

    def new_trick(self) -> None:
        """Open the next (empty) trick."""
        self.tricks.append([])
        self.busy = self.out_mask
        self.best_power = -1

    @property
    def makers(self) -> int | None:
        return None if self.maker_seat is None else self.maker_seat % 2

    @property
    def play_started(self) -> bool:
        return bool(self.tricks) and bool(self.tricks[0])

    def record(self) -> DealRecord:
        return DealRecord(
            number=self.number,
            dealer=self.dealer,
            up_card=self.up_card,
            trump=self.trump,
            no_trump=self.trump_made and self.trump is None,
            maker_seat=self.maker_seat,
            round_made=self.round_made,
            alone_seats=tuple(self.alone),
            blind=self.blind,
            calls=list(self.calls),
            discard=self.discard,
            exchanges=list(self.exchanges),
            tricks=[list(t) for t in self.tricks if t],
            trick_winners=list(self.trick_winners),
            tricks_won=(self.tricks_won[0], self.tricks_won[1]),
            points=self.points,
            reason=self.reason,
            reneges=list(self.reneges),
            penalty_accepted=self.penalty_accepted,
            irregularities=list(self.irregularities),
            set_aside=list(self.set_aside),
            thrown_in=self.thrown_in,
            voided=self.voided,
            finished=self.finished,
            score_after=self.score_after,
        )


def hand_points(
    rules: Rules, makers: int, tricks_won: tuple[int, int], maker_alone: bool, defender_alone: bool, blind: bool
) -> tuple[tuple[int, int], str]:
    """Points for (team 0, team 1) and the reason, for a hand played out (RULES.md scoring)."""
    made = tricks_won[makers]
    if made >= 3:
        if blind:
            pts, reason = 5, "blind_lone"
        elif made == 5 and maker_alone:
            pts, reason = rules.loner_march_points, "lone_march"
        elif made == 5:
            pts, reason = 2, "march"
        else:
            pts, reason = 1, "made"
        team = makers
    else:
        team = 1 - makers
        if defender_alone:
            if rules.lone_defender_scoring is LoneDefenderScoring.FOUR_FOR_THREE_PLUS or made == 0:
                pts, reason = 4, "lone_defender"
            else:
                pts, reason = 2, "lone_defender"
        elif blind:
            pts, reason = 1, "blind_lone_euchre"
        elif maker_alone:
            pts, reason = rules.loner_euchred_points, "lone_euchre"
        else:
            pts, reason = 2, "euchre"
        if rules.super_euchre and made == 0 and not blind and pts < 4:
            pts, reason = 4, "super_euchre"
    points = (pts, 0) if team == 0 else (0, pts)
    return points, reason
