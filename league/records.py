"""Each player's and each partnership's record, folded from the tables' deal and game-over events.

A pure function of the events (``fold``), so the board's standings can be rebuilt from its store, and
checked against the standings of the tables' own EGN files (``league simulate``). What counts:

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
from dataclasses import asdict, dataclass, field
from typing import Any

RECORD_FIELDS = (
    "games", "won", "points", "deals", "lone_tried", "lone_made", "marches", "euchres_made",
    "euchres_suffered", "reneges",
)


@dataclass
class Record:
    games: int = 0
    won: int = 0
    points: int = 0
    deals: int = 0
    lone_tried: int = 0
    lone_made: int = 0
    marches: int = 0
    euchres_made: int = 0
    euchres_suffered: int = 0
    reneges: int = 0

    def add(self, other: Record) -> None:
        for name in RECORD_FIELDS:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


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


def deal_records(deal: Mapping[str, Any]) -> list[Record]:
    """The four seats' records for one deal (its ``deal`` object as the table sent it)."""
    recs = [Record(deals=1) for _ in range(4)]
    points = deal.get("points") or [0, 0]
    for seat in range(4):
        recs[seat].points = int(points[seat % 2])
    for renege in deal.get("reneges") or []:
        recs[int(renege["seat"])].reneges += 1
    maker = deal.get("maker_seat")
    if maker is None or deal.get("thrown_in") or deal.get("voided"):
        return recs
    side = int(maker) % 2
    tricks = int((deal.get("tricks_won") or [0, 0])[side])
    alone = [int(s) for s in deal.get("alone_seats") or [] if int(s) % 2 == side]
    for seat in alone:
        recs[seat].lone_tried += 1
        recs[seat].lone_made += tricks >= 3
    if str(deal.get("reason", "")).startswith("renege"):
        return recs
    for seat in range(4):
        if seat % 2 == side:
            recs[seat].marches += tricks == 5
            recs[seat].euchres_suffered += tricks < 3
        else:
            recs[seat].euchres_made += tricks < 3
    return recs


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
            out.players.setdefault(seats[seat], Record()).add(recs[seat])
        for team in (0, 1):
            team_rec = Record()
            team_rec.add(recs[team])
            # a lone hand or a renege is one player's; the partnership's record counts both partners' own
            for name in ("lone_tried", "lone_made", "reneges"):
                setattr(team_rec, name, getattr(recs[team], name) + getattr(recs[team + 2], name))
            out.partnerships.setdefault(_team_key(seats, team), Record()).add(team_rec)
    return out
