"""Inputs to the engine: everything the table shows or the buttons say, as frozen values.

The match state is a pure fold over a sequence of these (see ``table.match``),
so each is a small immutable record that the match log can write and read.
Seats are 0-3 clockwise; ``confidence`` is the camera's confidence in a card
reading (1.0 for a card entered by hand or read from a file).
"""

from __future__ import annotations

from dataclasses import dataclass

from table.cards import Card, Suit


@dataclass(frozen=True)
class NewGame:
    """Start a new game: ``first_dealer`` deals first and ``score`` is the score to start from."""

    first_dealer: int = 0
    score: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class UpCard:
    """The card turned up on the kitty after the deal.

    ``next_deal``: the table has dealt again while the engine still holds a deal in progress (its
    bids or cards went unseen); that deal is closed first. Without it, an up-card mid-hand closes
    the hand only once play has begun.

    ``unseen_deals``: this many whole deals were played before this up-card without their own
    up-card being seen (their cards came while the engine waited for one). Each is recorded as a
    deal not seen, with no points, and the deal passes on to the next dealer for it.

    ``turned_by``: the seat the camera clearly saw turn the up-card (None: not seen, the usual case).
    Another seat than the dealer is announced as a deal out of turn ("stealing the deal"); the deal
    stands as the dealer's until the table declares a misdeal.

    ``rival``: for a card read with low confidence, the card the camera took to be the likeliest
    other reading (the check names it); None where it named none.
    """

    card: Card
    confidence: float = 1.0
    next_deal: bool = False
    unseen_deals: int = 0
    turned_by: int | None = None
    rival: Card | None = None


@dataclass(frozen=True)
class Pass:
    seat: int


@dataclass(frozen=True)
class OrderUp:
    """Round 1: accept the up-card's suit as trump (order up / assist / take it up)."""

    seat: int
    alone: bool = False


@dataclass(frozen=True)
class NameTrump:
    """Round 2 (or a Benny turned up): name a suit; ``suit=None`` is no trump where allowed."""

    seat: int
    suit: Suit | None
    alone: bool = False


@dataclass(frozen=True)
class GoAlone:
    """A player declares alone after trump is made and before the first lead."""

    seat: int


@dataclass(frozen=True)
class Discard:
    """The dealer's discard after taking the up-card; ``card=None`` when it was not seen."""

    seat: int
    card: Card | None = None


@dataclass(frozen=True)
class Exchange:
    """Cards changed hands unseen before play (call for best, farmer's hand)."""

    seat: int
    kind: str  # "call_for_best" or "farmers_hand"


@dataclass(frozen=True)
class Play:
    """A card played to the current trick by ``seat``; ``rival`` as ``UpCard``'s."""

    seat: int
    card: Card
    confidence: float = 1.0
    rival: Card | None = None


@dataclass(frozen=True)
class ReviseCard:
    """The camera (or a player) corrects the card of an earlier input, by its index in the log.

    ``confidence`` and ``rival`` replace those of the input revised (an ``UpCard`` or a ``Play``): 1.0 for a
    player's correction or a sure reading; a camera's revision to a reading still in doubt (a card read by turns
    as itself and its rival) carries its own confidence, under the engine's check line, so the card stays one to
    be checked and proves no renege, and its rival, which the check names.
    """

    index: int
    card: Card
    confidence: float = 1.0
    rival: Card | None = None


@dataclass(frozen=True)
class AcceptPenalty:
    """The table accepts the penalty for the most recent proven renege."""


@dataclass(frozen=True)
class DismissRenege:
    """The table dismisses the most recent renege alert; play goes on as recorded."""


@dataclass(frozen=True)
class Misdeal:
    """The table declares the deal in progress void: it scores nothing and the same dealer deals again.

    A misdeal (a card exposed in the deal, a hand of the wrong size, a deal out of turn) may be declared
    at any point of the deal. ``nines_and_tens`` is the seat that claims a redeal for a hand of only 9s and
    10s (or an ace with 9s and 10s) under the ``nines_and_tens`` switch, before the first lead; ``None``
    for any other misdeal.
    """

    nines_and_tens: int | None = None


@dataclass(frozen=True)
class Undo:
    """Take back the last input that is not itself an undo (an undo is logged, never erased)."""


Input = (
    NewGame
    | UpCard
    | Pass
    | OrderUp
    | NameTrump
    | GoAlone
    | Discard
    | Exchange
    | Play
    | ReviseCard
    | AcceptPenalty
    | DismissRenege
    | Misdeal
    | Undo
)

INPUT_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        NewGame,
        UpCard,
        Pass,
        OrderUp,
        NameTrump,
        GoAlone,
        Discard,
        Exchange,
        Play,
        ReviseCard,
        AcceptPenalty,
        DismissRenege,
        Misdeal,
        Undo,
    )
}
