"""A league night as EMN 1.0 (Euchre Match Notation): every game's EGN, its players by seat, the results.

Each game's EGN is put together from the tables' events: the head (metadata and rules) of its
game-over event, or of its seats event while it is still being played, and each deal event's EGN deal,
in deal order. The players are registered once each (``p-01``...), in the order they first sat down;
the format is ``PROGRESSIVE`` (partners rotate; each player scores on their own); the result's scores
are each player's points, and the winners the players with the most games won.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping, Sequence
from typing import Any

from league.records import fold

EMN_FILE_TYPE = "Euchre Match Notation"
EMN_VERSION = "1.0"


def game_egn(events: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """One game's EGN from its events (None when they carry no EGN)."""
    heads = [e["egn_head"] for e in events if e["kind"] == "game_over" and e.get("egn_head")]
    heads += [e["egn_head"] for e in events if e["kind"] == "seats" and e.get("egn_head")]
    if not heads:
        return None
    deals = sorted((e for e in events if e["kind"] == "deal" and e.get("egn")), key=lambda e: int(e["number"]))
    return {**heads[0], "deals": [e["egn"] for e in deals]}


def night_emn(events: Sequence[Mapping[str, Any]], title: str, started: float) -> dict[str, Any]:
    """The night's events (``LeagueStore.events``) as one EMN object."""
    games: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for e in events:
        games.setdefault((str(e["table"]), str(e["game"])), []).append(e)
    ids: dict[str, str] = {}
    out_games: list[dict[str, Any]] = []
    over = True
    for game_events in games.values():
        egn = game_egn(game_events)
        if egn is None:
            continue
        seats = [str(s) for s in game_events[0]["seats"]]
        if isinstance(egn.get("metadata"), dict):  # the board may have named the seats (from its rotation)
            egn["metadata"] = {**egn["metadata"], "players": seats}
        for name in seats:
            ids.setdefault(name, f"p-{len(ids) + 1:02d}")
        over = over and any(e["kind"] == "game_over" for e in game_events)
        out_games.append({"gameIndex": len(out_games), "players": [ids[s] for s in seats], "gameData": egn})
    standings = fold(events)
    most = max((r.won for r in standings.players.values()), default=0)
    metadata: dict[str, Any] = {
        "title": title[:128],
        "date": _dt.datetime.fromtimestamp(started, _dt.UTC).isoformat(timespec="seconds"),
        "players": [{"id": pid, "name": name} for name, pid in ids.items()],
        "matchFormat": {"type": "PROGRESSIVE", "target": max(1, len(out_games))},
        "result": {
            "status": "COMPLETED" if over and out_games else "IN_PROGRESS",
            "winner": [ids[n] for n, r in standings.players.items() if r.won == most and most > 0 and n in ids],
            "scores": {ids[n]: r.points for n, r in standings.players.items() if n in ids},
        },
    }
    if not ids:
        metadata["players"] = [{"id": "p-00", "name": "(no games yet)"}]  # EMN wants at least one player
    return {"fileType": EMN_FILE_TYPE, "version": EMN_VERSION, "metadata": metadata, "games": out_games}
