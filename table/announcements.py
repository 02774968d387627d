"""Announcements from the engine: what the table should see and hear, as frozen values.

The match returns a list of these from every input. The display, speech and
log consume them; none of them carries mutable engine state.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from table.cards import Card, Suit


class Expect(enum.Enum):
    """What the engine waits for next."""

    NEW_GAME = "new_game"
    UP_CARD = "up_card"
    BID_ROUND_1 = "bid_round_1"  # pass or order up the up-card's suit
    BID_ROUND_2 = "bid_round_2"  # pass or name another suit
    NAME_TRUMP_BLIND = "name_trump_blind"  # a Benny was turned up: the dealer names trump
    DISCARD = "discard"
    GO_ALONE = "go_alone"  # optional: anyone allowed may declare alone before the lead
    LEAD = "lead"
    FOLLOW = "follow"
    RENEGE_DECISION = "renege_decision"  # accept the penalty or dismiss the alert

    __hash__ = object.__hash__  # members are singletons; faster than Enum's name hash


@dataclass(frozen=True)
class Prompt:
    """Whose turn it is and what is expected (``suit`` is the suit led when following)."""

    seat: int | None
    expected: Expect
    suit: Suit | None = None
    up_card: Card | None = None


@dataclass(frozen=True)
class TrumpMade:
    seat: int
    suit: Suit | None  # None: no trump
    alone: bool
    round: int  # 1 or 2 (0 when a turned-up Benny made the dealer's side makers)


@dataclass(frozen=True)
class WentAlone:
    seat: int
    defender: bool


@dataclass(frozen=True)
class ThrownIn:
    """Everyone passed twice: the hand is thrown in and the deal passes on."""

    dealer: int


@dataclass(frozen=True)
class TrickWon:
    seat: int
    card: Card
    trick: int  # 0-based number of the trick in the hand


@dataclass(frozen=True)
class RenegeEvidence:
    """Why a renege is proven: the seat showed out of ``suit`` and later played a card of it.

    ``proof == "played"``: ``proof_card`` is the later card of ``suit`` the seat played in ``proof_trick``.
    ``proof == "held_up_card"``: the dealer took up the up-card (``proof_card``), provably still held it
    (the discard was seen, or discarding the up-card is not allowed) and showed out of its suit;
    ``proof_trick`` is then the show-out trick itself.
    """

    seat: int
    suit: Suit  # the effective suit (a left bower counts as trump)
    showed_out_trick: int
    showed_out_card: Card
    led_card: Card
    proof_trick: int
    proof_card: Card
    proof: str = "played"


@dataclass(frozen=True)
class RenegeProven:
    seat: int
    evidence: RenegeEvidence


@dataclass(frozen=True)
class PenaltyApplied:
    offender_seat: int
    points: tuple[int, int]  # added to (team 0, team 1)


class IrregularityKind(enum.Enum):
    OUT_OF_TURN = "out_of_turn"
    LONE_PARTNER_PLAYED = "lone_partner_played"
    DUPLICATE_CARD = "duplicate_card"
    NOT_IN_DECK = "not_in_deck"
    PLAY_BEFORE_BIDDING_ENDED = "play_before_bidding_ended"
    BID_OUT_OF_TURN = "bid_out_of_turn"
    NOT_ALLOWED = "not_allowed"  # a bid or declaration the rules forbid
    CHECK_CARD = "check_card"  # a low-confidence reading that matters: look at it
    UP_CARD_PLAYED = "up_card_played"  # the turned-down up-card appears in play
    SUSPECTED_RENEGE = "suspected_renege"  # evidence that depends on a hidden card
    HAND_UNFINISHED = "hand_unfinished"  # the next up-card came before the hand was seen to its end
    DEAL_UNSEEN = "deal_unseen"  # a whole deal was played before its up-card was seen
    CARD_UNSEEN = "card_unseen"  # a trick's winner led again before one card of the trick was seen
    MISDEAL = "misdeal"  # the table declared the deal void (a misdeal, or a nines-and-tens redeal)
    DEAL_OUT_OF_TURN = "deal_out_of_turn"  # the camera saw another seat than the dealer turn the up-card


class CardSource(enum.Enum):
    """Where a card the engine checks appeared: its value is the engine's word for it in details."""

    UP_CARD = "up-card"
    PLAY = "card"
    DISCARD = "discard"


@dataclass(frozen=True)
class Irregularity:
    """A table event that breaks the rules or wants a look, recorded and announced, never raised.

    ``detail`` is the engine's sentence for logs, EGN annotations and ``replay``. The fields after
    ``card`` carry the values that sentence names, so the display can word it without parsing it;
    each is None where it is not part of this irregularity. Seats are 0-3, tricks 0-based.
    """

    kind: IrregularityKind
    detail: str
    seat: int | None = None  # the seat it concerns (None: the table, or no seat in particular)
    card: Card | None = None
    turn: int | None = None  # the seat whose turn it was: a play or a bid out of turn
    trick: int | None = None  # the trick it happened in: a seat playing twice, a card unseen
    source: CardSource | None = None  # where ``card`` appeared: the up-card, a play or the discard
    deck_size: int | None = None  # NOT_IN_DECK: the deck the card is not in
    # MISDEAL, DEAL_UNSEEN: the dealer of the deal voided or gone by; DEAL_OUT_OF_TURN: whose deal it is
    dealer: int | None = None
    leader: int | None = None  # CARD_UNSEEN: the seat that led again, so took the trick
    cards_played: int | None = None  # DEAL_UNSEEN: the cards played before an up-card was seen
    up_card_taken: bool | None = None  # UP_CARD_PLAYED: the dealer had taken it up (False: turned down)
    before_up_card: bool | None = None  # too early: before the up-card was turned (False: during bidding)
    other_reading: Card | None = None  # CHECK_CARD: the other card the seat's card was read as (two readings)
    rival: Card | None = None  # CHECK_CARD: the card the camera took for the likeliest other reading
    # CHECK_CARD of a play: the rival was already seen surely this deal, so the card is taken as ``card`` (where
    # the camera read the rival likelier, ``Match.play_seen`` swapped the two: one card is not played twice)
    rival_shown: bool | None = None
    # CHECK_CARD said again after a correction only because the camera's reading of the card turned to the other of
    # its two readings (the same question, the card and its rival swapped): shown, not said again
    restated: bool | None = None


@dataclass(frozen=True)
class HandScored:
    points: tuple[int, int]  # points added to (team 0, team 1)
    tricks: tuple[int, int]
    makers: int  # team
    # "made", "march", "lone_march", "blind_lone", "euchre", "lone_euchre", "blind_lone_euchre",
    # "lone_defender", "super_euchre", "renege", "renege_replay", "unfinished" (not seen to its end: no points),
    # "unseen" (a whole deal played without its up-card seen: no points), "misdeal" (declared void: no points,
    # the same dealer deals again)
    reason: str
    score: tuple[int, int]  # the score after this hand


@dataclass(frozen=True)
class GameWon:
    team: int
    score: tuple[int, int]


@dataclass(frozen=True)
class GameDrawn:
    """A fixed number of deals ended level."""

    score: tuple[int, int]


Announcement = (
    Prompt
    | TrumpMade
    | WentAlone
    | ThrownIn
    | TrickWon
    | RenegeProven
    | PenaltyApplied
    | Irregularity
    | HandScored
    | GameWon
    | GameDrawn
)
