"""What a player asked for with a button or a key: small frozen values the app maps to engine inputs.

The panel does not know whose turn it is; the app does, so `Action(PASS)`
becomes `table.inputs.Pass(seat)` there. Buttons are reused by context so a
small panel is enough: while a renege alert is up, Call accepts the penalty
and Pass dismisses it (`in_context`). Holding Undo starts a new game.
Misdeal voids the deal in progress only when pressed again to confirm.
Holding Alone (or a Declare button, or the E key) opens the declarations
menu, whose items and seats the suit buttons pick (`SEAT_SUITS`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from table.cards import Suit


class ButtonAction(enum.Enum):
    PASS = "pass"
    CALL = "call"  # order up in round 1; with a suit, name trump in round 2
    SUIT = "suit"  # a suit button: name that suit (``Action.suit``)
    SUIT_CYCLE = "suit_cycle"  # one button that steps through the suits
    ALONE = "alone"
    UNDO = "undo"
    NEW_GAME = "new_game"
    ACCEPT_PENALTY = "accept_penalty"
    DISMISS_RENEGE = "dismiss_renege"
    NEXT_READING = "next_reading"  # step a misread card through the camera's likely alternatives
    MISDEAL = "misdeal"  # void the deal in progress (pressed twice: the second press confirms)
    DECLARE = "declare"  # the declarations menu (blind lone, farmer's hand, nines and tens, call for best, misdeal)
    # keyboard only: things about the screen and sound, not the game
    TOGGLE_MUTE = "toggle_mute"
    TOGGLE_SCORE_STYLE = "toggle_score_style"
    QUIT = "quit"


@dataclass(frozen=True)
class Action:
    """One request from the panel or the keyboard; ``suit`` only with `ButtonAction.SUIT`."""

    kind: ButtonAction
    suit: Suit | None = None

    def __post_init__(self) -> None:
        if (self.kind is ButtonAction.SUIT) != (self.suit is not None):
            raise ValueError(f"Action: a suit goes with ButtonAction.SUIT only, got {self.kind} and {self.suit}")

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.suit.value}" if self.suit is not None else self.kind.value


def in_context(action: Action, renege_pending: bool) -> Action:
    """Reuse the bidding buttons for the renege decision: Call accepts the penalty, Pass dismisses it."""
    if renege_pending and action.kind is ButtonAction.CALL:
        return Action(ButtonAction.ACCEPT_PENALTY)
    if renege_pending and action.kind is ButtonAction.PASS:
        return Action(ButtonAction.DISMISS_RENEGE)
    return action


SUIT_ORDER: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)

# Where a declaration needs a seat (who goes alone, who holds the farmer's hand), seat k is picked with the suit
# button SEAT_SUITS[k]: seat 0 clubs, seat 1 diamonds, seat 2 hearts, seat 3 spades. The screen shows each seat's.
SEAT_SUITS: tuple[Suit, ...] = SUIT_ORDER


def seat_of_suit(suit: Suit) -> int:
    """The seat a suit button picks where a declaration asks whose it is."""
    return SEAT_SUITS.index(suit)


def next_suit(current: Suit | None, skip: Suit | None = None) -> Suit:
    """The suit-cycle button's next suit after ``current``, passing over ``skip`` (the turned-down suit)."""
    i = SUIT_ORDER.index(current) if current is not None else -1
    for step in range(1, len(SUIT_ORDER) + 1):
        suit = SUIT_ORDER[(i + step) % len(SUIT_ORDER)]
        if suit is not skip:
            return suit
    raise AssertionError("unreachable: four suits, at most one skipped")
