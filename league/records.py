"""Each player's and each partnership's record, folded from the tables' deal and game-over events.

A pure function of the events (``fold``), so the board's standings can be rebuilt from its store, and
checked against the standings of the tables' own EGN files (``league simulate``). A deal counts as
``table.records`` counts it for the table's own screen:

- **points**: what the player's team scored in the deals the player sat in;
- **lone hands tried / made**: a maker's side going alone; made when that side took 3 tricks or more;
- **marches**: the makers took all 5 tricks (both partners of the making side);
- **euchres made / suffered**: the makers took fewer than 3 (made by both defenders, suffered by both
  makers); a deal ended by a renege penalty is neither a march nor a euchre;
- **reneges**: the proven reneges of the player (``reneges`` of the deal);
- **games / games won**: from each game's end.

Players are the names the table's seats had; a partnership is the two names of a team, in order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from table.records import RECORD_FIELDS, Record, deal_records

__all__ = ["RECORD_FIELDS", "Record", "Standings", "deal_records", "fold"]


@dataclass
class Standings:
    players: dict[str, Record] = field(default_factory=dict)
    partnerships: dict[tuple[str, str], Record] = field(default_factory=dict)

    def ranked(self) -> list[tuple[str, Record]]:
        """Players by games won, then points, then name."""
        return sorted(self.players.items(), key=lambda kv: (-kv[1].won, -kv[1].points, kv[0]))

    def ranked_partnerships(self) -> list[tuple[tuple[str, str], Record]]:
        return sorted(self.partnerships.items(), key=lambda kv: (-kv[1].won, -kv[1].points, kv[0]))

    def as_dict(self) -> dict[str, dict[str, int]]:
        """Players' records by name (what the simulation and the browser test compare)."""
        return {name: rec.as_dict() for name, rec in sorted(self.players.items())}


def _team_key(seats: list[str], team: int) -> tuple[str, str]:
    a, b = seats[team], seats[team + 2]
    return (a, b) if a <= b else (b, a)


def fold(events: Iterable[Mapping[str, Any]]) -> Standings:
    """The standings of ``deal`` and ``game_over`` events (others are ignored); each event counted once."""
    out = Standings()
    seen: set[str] = set()
    for e in events:
        if e["id"] in seen or e["kind"] not in ("deal", "game_over"):
            continue
        seen.add(e["id"])
        seats = [str(s) for s in e["seats"]]
        if e["kind"] == "deal":
            recs = deal_records(e["deal"])
        else:
            winner = e.get("winner")
            recs = [Record(games=1, won=int(winner is not None and winner == seat % 2)) for seat in range(4)]
        for seat in range(4):
            out.players[seats[seat]] = out.players.get(seats[seat], Record()) + recs[seat]
        for team in (0, 1):
            # a lone hand or a renege is one player's; the partnership's record counts both partners' own
            partner = recs[team + 2]
            team_rec = recs[team] + Record(lone_tried=partner.lone_tried, lone_made=partner.lone_made,
                                           reneges=partner.reneges)
            key = _team_key(seats, team)
            out.partnerships[key] = out.partnerships.get(key, Record()) + team_rec
    return out
