"""Each seat's record of a game: lone hands tried and made, marches, euchres made and suffered, reneges, points.

Read from the deals as ``DealRecord.to_json`` writes them (plus ``thrown_in`` and ``voided``), so the
table's game-won screen and the league board (``league.records``) count the same way:

- **points**: what the seat's team scored in the deal;
- **lone hands tried / made**: a maker's side going alone; made when that side took 3 tricks or more;
- **marches**: the makers took all 5 tricks (both partners of the making side);
- **euchres made / suffered**: the makers took fewer than 3 (made by both defenders, suffered by both
  makers); a deal ended by a renege penalty is neither a march nor a euchre;
- **reneges**: the seat's proven reneges;
- **games / games won**: added by whoever knows how the game ended.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

RECORD_FIELDS = (
    "games", "won", "points", "deals", "lone_tried", "lone_made", "marches", "euchres_made",
    "euchres_suffered", "reneges",
)


@dataclass(frozen=True)
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

    def __add__(self, other: Record) -> Record:
        return Record(**{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)})

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def deal_records(deal: Mapping[str, Any]) -> list[Record]:
    """The four seats' records for one deal (a ``DealRecord.to_json`` object)."""
    points = deal.get("points") or [0, 0]
    counts: list[dict[str, int]] = [{"deals": 1, "points": int(points[seat % 2])} for seat in range(4)]
    for renege in deal.get("reneges") or []:
        offender = counts[int(renege["seat"])]
        offender["reneges"] = offender.get("reneges", 0) + 1
    maker = deal.get("maker_seat")
    if maker is not None and not deal.get("thrown_in") and not deal.get("voided"):
        side = int(maker) % 2
        tricks = int((deal.get("tricks_won") or [0, 0])[side])
        for seat in (int(s) for s in deal.get("alone_seats") or [] if int(s) % 2 == side):
            counts[seat]["lone_tried"] = counts[seat].get("lone_tried", 0) + 1
            counts[seat]["lone_made"] = counts[seat].get("lone_made", 0) + (tricks >= 3)
        if not str(deal.get("reason", "")).startswith("renege"):
            for seat in range(4):
                if seat % 2 == side:
                    counts[seat]["marches"] = int(tricks == 5)
                    counts[seat]["euchres_suffered"] = int(tricks < 3)
                else:
                    counts[seat]["euchres_made"] = int(tricks < 3)
    return [Record(**c) for c in counts]


def game_records(deals: Iterable[Any], winner: int | None = None, over: bool = False) -> list[Record]:
    """Each seat's record of a game so far: ``deals`` are ``DealRecord``s (the one in progress is skipped)."""
    totals = [Record() for _ in range(4)]
    for d in deals:
        if d.finished:
            deal = {**d.to_json(), "thrown_in": d.thrown_in, "voided": d.voided}
            totals = [t + r for t, r in zip(totals, deal_records(deal), strict=True)]
    if over:
        totals = [t + Record(games=1, won=int(winner == seat % 2)) for seat, t in enumerate(totals)]
    return totals
