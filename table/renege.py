"""Renege evidence: per seat, the suits it has shown out of, and the card that later proves a renege.

The engine never sees a hand, so a renege is proven only by the table itself
(1877 rules): the seat failed to follow suit S in one trick and later played a
card of S (effective suit: the left bower and the Benny are trump) in the same
hand. Only reliable readings take part: a card read with confidence below
``CHECK_CONFIDENCE``, a duplicate or a card outside the deck never records a
show-out and never proves one (the engine says "check this card" instead).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from table.announcements import RenegeEvidence
from table.cards import Card, Suit

__all__ = ["CHECK_CONFIDENCE", "RenegeTracker", "ShowOut"]

CHECK_CONFIDENCE = 0.6
"""A card read with lower confidence than this never proves a renege nor records a show-out.

0.6 sits above the tracker's usual landing confidence for a clean card and well above the level
at which red-suit swaps (hearts/diamonds) appear in the detector's errors.
"""


@dataclass(frozen=True)
class ShowOut:
    """A seat failed to follow ``suit``: it played ``card`` in ``trick`` when ``led`` was led."""

    trick: int
    card: Card
    led: Card


class RenegeTracker:
    """Show-outs per seat for one hand, and the proofs found so far."""

    __slots__ = ("shown_out",)

    def __init__(self) -> None:
        # Per seat, the open show-outs: suit -> the first failure to follow it not yet proven. A proof closes
        # it, so a later, second failure to follow the same suit opens a new one and is proven on its own.
        self.shown_out: list[dict[Suit, ShowOut]] = [{}, {}, {}, {}]

    def on_play(
        self, seat: int, card: Card, led: Card | None, trick: int, eff: Mapping[Card, Suit | None]
    ) -> tuple[RenegeEvidence | None, Suit | None]:
        """Record a reliable play; return (the renege it proves, the suit it newly shows out of).

        ``led`` is the card that led this trick (``None`` when this card leads or the lead is unreliable);
        ``eff`` maps every card to its effective suit under trump (``table.trump.effective_table``).
        """
        suit = eff[card]
        evidence = None
        seat_out = self.shown_out[seat]
        if suit is not None and suit in seat_out:
            so = seat_out.pop(suit)
            evidence = RenegeEvidence(seat, suit, so.trick, so.card, so.led, trick, card)
        new_out = None
        if led is not None:
            led_suit = eff[led]
            if led_suit is not None and suit is not led_suit and led_suit not in seat_out:
                seat_out[led_suit] = ShowOut(trick, card, led)
                new_out = led_suit
        return evidence, new_out

    def prove_held(self, seat: int, suit: Suit, trick: int, held: Card) -> RenegeEvidence | None:
        """The seat provably holds ``held`` (of ``suit``) at its show-out of ``suit`` in ``trick``."""
        so = self.shown_out[seat].pop(suit, None)
        if so is None:
            return None
        return RenegeEvidence(seat, suit, so.trick, so.card, so.led, trick, held, proof="held_up_card")
