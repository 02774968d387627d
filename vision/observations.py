"""What the tracker tells the rest of the program: stable table events, as frozen values.

The tracker turns noisy per-frame ``CardDetection`` lists into these. Each
carries the frame number it was decided on. A reading the camera is not sure
of is flagged ``uncertain``, so the engine and the display say "check this
card" instead of raising an alarm on it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from table.cards import Card


class ZoneKind(enum.Enum):
    """The kinds of place on the mat a card can lie in."""

    SEAT = "seat"  # the play zone in front of one seat
    KITTY = "kitty"  # the kitty and its up-card
    TRICK = "trick"  # the shared trick pile in the middle


@dataclass(frozen=True, order=True)
class Zone:
    """A place on the mat: a seat's play zone (``seat`` 0-3), the kitty or the trick pile.

    ``str(zone)`` is ``"seat2"``, ``"kitty"`` or ``"trick"``, and
    ``Zone.parse`` reads it back.
    """

    kind: ZoneKind
    seat: int | None = None

    def __post_init__(self) -> None:
        if (self.kind is ZoneKind.SEAT) != (self.seat is not None):
            raise ValueError(f"a seat zone needs a seat and no other zone has one: {self.kind.value}, {self.seat}")
        if self.seat is not None and not 0 <= self.seat <= 3:
            raise ValueError(f"no such seat: {self.seat} (seats are 0-3)")

    @classmethod
    def of_seat(cls, seat: int) -> Zone:
        return cls(ZoneKind.SEAT, seat)

    @classmethod
    def parse(cls, text: str) -> Zone:
        key = text.strip().lower()
        if key.startswith("seat") and key[4:].isdigit():
            return cls.of_seat(int(key[4:]))
        for kind in (ZoneKind.KITTY, ZoneKind.TRICK):
            if key == kind.value:
                return cls(kind)
        raise ValueError(f"not a zone: {text!r} (expected seat0-seat3, kitty or trick)")

    def __str__(self) -> str:
        return f"seat{self.seat}" if self.kind is ZoneKind.SEAT else self.kind.value

    def __repr__(self) -> str:
        return f"Zone.parse({str(self)!r})"


KITTY = Zone(ZoneKind.KITTY)
TRICK = Zone(ZoneKind.TRICK)
SEAT_ZONES: tuple[Zone, ...] = tuple(Zone.of_seat(s) for s in range(4))


@dataclass(frozen=True)
class CardLanded:
    """A card came to rest face up in ``zone``.

    ``seat`` is who played it: the zone's seat, or for the shared trick pile
    the engine's expected player for the first card to arrive (``None`` where
    the tracker cannot tell; the app asks the engine in arrival order). ``rival``: for an uncertain
    landing, the card it most likely is instead (the check names it); None where the tracker has none.
    """

    zone: Zone
    card: Card
    confidence: float
    frame: int
    seat: int | None = None
    uncertain: bool = False
    rival: Card | None = None


@dataclass(frozen=True)
class CardLifted:
    """A card that had landed is gone from ``zone`` (picked up, turned down, or taken away)."""

    zone: Zone
    card: Card
    frame: int


@dataclass(frozen=True)
class ZoneCleared:
    """Every card in ``zone`` went at once: a trick gathered. ``cards`` in the order they had arrived."""

    zone: Zone
    frame: int
    cards: tuple[Card, ...] = field(default=())


@dataclass(frozen=True)
class UpCardShown:
    """The up-card lies face up on the kitty.

    ``turned_by`` is the seat that turned it, where the camera saw that clearly: the card was first seen
    face up well inside one seat's side of the mat (turned there, in front of that player) and carried
    to the kitty from there. ``None`` otherwise, the usual case (turned on the kitty itself). ``rival``: as
    ``CardLanded``'s.
    """

    card: Card
    confidence: float
    frame: int
    uncertain: bool = False
    turned_by: int | None = None
    rival: Card | None = None


@dataclass(frozen=True)
class CardRevised:
    """A card already reported as ``old`` is now read, over several frames, as ``new``.

    ``new == old`` with ``uncertain`` False confirms an uncertain landing: the card is now read surely.
    The app turns this into the engine's ``ReviseCard`` for the input that
    reported ``old`` in ``zone`` (a revised card counts as read surely).
    """

    zone: Zone
    old: Card
    new: Card
    confidence: float
    frame: int
    uncertain: bool = False


Observation = CardLanded | CardLifted | ZoneCleared | UpCardShown | CardRevised
"""Anything ``Tracker.update`` returns."""
