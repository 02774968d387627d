"""The plain, frozen snapshot of a match that the display draws from (``Match.view()``)."""

from __future__ import annotations

from dataclasses import dataclass

from table.announcements import Announcement, Prompt, RenegeEvidence
from table.cards import Card, Suit
from table.deal import Phase

__all__ = ["HandRow", "MatchView"]


@dataclass(frozen=True)
class HandRow:
    """One finished deal in the hand-by-hand history."""

    number: int
    dealer: int
    trump: Suit | None
    no_trump: bool
    maker_seat: int | None
    alone_seats: tuple[int, ...]
    tricks_won: tuple[int, int]
    points: tuple[int, int]
    reason: str  # HandScored.reason, "thrown_in"
    score_after: tuple[int, int]


@dataclass(frozen=True)
class MatchView:
    """Everything a scoreboard shows, as plain data (no engine state)."""

    score: tuple[int, int]
    target: int
    num_deals: int
    deals_played: int
    dealer: int
    phase: Phase
    expected: Prompt
    up_card: Card | None
    trump: Suit | None
    trump_made: bool  # with trump None: no trump
    maker_seat: int | None
    alone_seats: tuple[int, ...]
    current_trick: tuple[tuple[int, Card], ...]  # (seat, card) in play order
    tricks_won: tuple[int, int]  # this hand
    last_announcements: tuple[Announcement, ...]
    history: tuple[HandRow, ...]
    may_go_alone: tuple[int, ...]  # seats that may still declare alone now (after trump, before the lead)
    pending_renege: RenegeEvidence | None
    game_over: bool
    winner: int | None

    @property
    def makers(self) -> int | None:
        """The makers' team (seat % 2), or None before trump is made."""
        return None if self.maker_seat is None else self.maker_seat % 2
