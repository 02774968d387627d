"""What the league tests share besides fixtures: a seeded game's events as a table submits them."""

from __future__ import annotations

from companion.league_publish import LeagueEvent, match_events
from league.simulate import played_deals
from table.rules import Rules

SEATS = ("Ann", "Bob", "Cat", "Dan")


def game_rounds(seed: int = 5, table: str = "1", game: str = "g1") -> list[list[LeagueEvent]]:
    """What a table submits after each deal of one seeded game (each time the whole game so far)."""
    return [match_events(table, game, SEATS, m) for m in played_deals(Rules(), seed)]
