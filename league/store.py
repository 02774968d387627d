"""The league board's SQLite store: the tables' events in, the standings derived, as replayable as a match log.

Everything shown is a fold over the ``events`` table (``league.records.fold``): the standings are never
stored, so a store rebuilt from the same events (in any order, with any repeats) shows the same. An
event is kept by its id, the first copy wins; a repeat only counts as a duplicate. An admin's
correction is an event too (``kind = "void"``, naming the event it takes back), so it replays with
the rest. A night is a name, its players and its rotation; each event belongs to the night that was
open when it arrived.

``check_event`` is the one gate for what comes off the network: a payload that is not a table's event
raises ``PayloadError`` naming the topic and what is wrong, and nothing of it is stored.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from league.records import Standings, fold
from league.rotation import RotationError, make_rotation

MAX_PAYLOAD_BYTES = 256 * 1024
NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")
KINDS = ("seats", "deal", "game_over")


class PayloadError(ValueError):
    """A message that is not a valid table event; says what is wrong."""


def _need(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise PayloadError(f"{where}: {what}")


def _int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_deal(deal: object, where: str) -> None:
    _need(isinstance(deal, dict), where, "deal must be an object")
    assert isinstance(deal, dict)
    for key in ("points", "tricks_won"):
        v = deal.get(key)
        _need(isinstance(v, list) and len(v) == 2 and all(_int(x) for x in v), where, f"deal.{key} must be [n, n]")
    maker = deal.get("maker_seat")
    _need(maker is None or (_int(maker) and 0 <= maker < 4), where, "deal.maker_seat must be a seat 0-3 or null")
    alone = deal.get("alone_seats", [])
    _need(isinstance(alone, list) and all(_int(s) and 0 <= s < 4 for s in alone), where,
          "deal.alone_seats must be seats 0-3")
    reneges = deal.get("reneges", [])
    _need(isinstance(reneges, list) and all(isinstance(r, dict) and _int(r.get("seat")) and 0 <= r["seat"] < 4
                                            for r in reneges), where, "deal.reneges must be objects with a seat 0-3")


def check_event(envelope: object, topic: str) -> tuple[dict[str, Any], str, int]:
    """(event, outbox, q) from a decoded envelope that arrived on ``topic``; PayloadError if not valid."""
    where = f"message on {topic}"
    parts = topic.split("/")
    _need(len(parts) == 5 and parts[:3] == ["euchre", "league", "tables"] and parts[4] == "events", where,
          "not a table's events topic")
    table = parts[3]
    _need(isinstance(envelope, dict), where, "not a JSON object")
    assert isinstance(envelope, dict)
    _need(envelope.get("v") == 1, where, f"unknown envelope version {envelope.get('v')!r} (expected 1)")
    outbox, q, event = envelope.get("outbox"), envelope.get("q"), envelope.get("event")
    _need(isinstance(outbox, str) and 0 < len(outbox) <= 64, where, "outbox must be a short string")
    _need(isinstance(q, int) and not isinstance(q, bool) and q > 0, where, "q must be a positive whole number")
    _need(isinstance(event, dict), where, "event must be an object")
    assert isinstance(event, dict) and isinstance(outbox, str) and isinstance(q, int)
    _need(event.get("v") == 1, where, f"unknown event version {event.get('v')!r} (expected 1)")
    _need(event.get("table") == table, where,
          f"an event of table {event.get('table')!r} on the topic of table {table!r}")
    kind, game, event_id = event.get("kind"), event.get("game"), event.get("id")
    _need(kind in KINDS, where, f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    _need(isinstance(game, str) and 0 < len(game) <= 64, where, "game must be a short string")
    _need(isinstance(event_id, str) and event_id.startswith(f"{table}/{game}/{kind}"), where,
          f"id {event_id!r} is not <table>/<game>/<kind>...")
    seats = event.get("seats")
    _need(isinstance(seats, list) and len(seats) == 4 and all(isinstance(s, str) and 0 < len(s) <= 40 for s in seats),
          where, "seats must be 4 names")
    if kind == "deal":
        _need(_int(event.get("number")) and event["number"] >= 0, where, "number must be a deal number")
        _check_deal(event.get("deal"), where)
    if kind in ("deal", "game_over"):
        score = event.get("score")
        _need(isinstance(score, list) and len(score) == 2 and all(_int(x) for x in score), where,
              "score must be [n, n]")
    _need(event.get("named", True) in (True, False), where, "named must be true or false")
    for key in ("egn", "egn_head"):
        _need(event.get(key) is None or isinstance(event[key], dict), where, f"{key} must be an object")
    if kind == "game_over":
        _need(event.get("winner") in (0, 1, None), where, "winner must be 0, 1 or null")
    return event, outbox, q


def decode(payload: bytes, topic: str) -> tuple[dict[str, Any], str, int]:
    """``check_event`` of raw bytes."""
    _need(len(payload) <= MAX_PAYLOAD_BYTES, f"message on {topic}", f"larger than {MAX_PAYLOAD_BYTES} bytes")
    try:
        obj = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise PayloadError(f"message on {topic}: not JSON ({exc})") from None
    return check_event(obj, topic)


@dataclass(frozen=True)
class Night:
    id: int
    name: str
    players: tuple[str, ...]
    started: float


@dataclass(frozen=True)
class LiveTable:
    table: str
    game: str
    seats: tuple[str, ...]
    score: tuple[int, int]
    deals: int
    over: bool


class LeagueStore:
    """The store; safe to use from several threads (one connection, one lock)."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(
            """
            CREATE TABLE IF NOT EXISTS events (
                n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE NOT NULL, night INTEGER NOT NULL,
                tbl TEXT NOT NULL, game TEXT NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL, at REAL NOT NULL);
            CREATE TABLE IF NOT EXISTS nights (
                id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, players TEXT NOT NULL, started REAL NOT NULL);
            CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
            """
        )
        if self.current_night() is None:
            self.new_night("League night", ())

    # ---- nights

    def new_night(self, name: str, players: Sequence[str], now: float | None = None) -> Night:
        with self._lock:
            cur = self.db.execute(
                "INSERT INTO nights (name, players, started) VALUES (?, ?, ?)",
                (name, json.dumps(list(players)), time.time() if now is None else now),
            )
            night_id = int(cur.lastrowid or 0)
        night = self.night(night_id)
        assert night is not None
        return night

    def set_players(self, players: Sequence[str]) -> None:
        night = self.current_night()
        assert night is not None
        with self._lock:
            self.db.execute("UPDATE nights SET players = ? WHERE id = ?", (json.dumps(list(players)), night.id))

    def night(self, night_id: int) -> Night | None:
        with self._lock:
            row = self.db.execute("SELECT id, name, players, started FROM nights WHERE id = ?", (night_id,)).fetchone()
        return None if row is None else Night(int(row[0]), str(row[1]), tuple(json.loads(row[2])), float(row[3]))

    def current_night(self) -> Night | None:
        with self._lock:
            row = self.db.execute("SELECT MAX(id) FROM nights").fetchone()
        return None if row is None or row[0] is None else self.night(int(row[0]))

    # ---- events in

    def apply(self, event: Mapping[str, Any], now: float | None = None) -> bool:
        """Keep ``event`` (already checked); False when its id was already kept (a duplicate)."""
        night = self.current_night()
        assert night is not None
        with self._lock, self.db:
            cur = self.db.execute(
                "INSERT OR IGNORE INTO events (id, night, tbl, game, kind, body, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (event["id"], night.id, event["table"], event["game"], event["kind"],
                 json.dumps(event, sort_keys=True), time.time() if now is None else now),
            )
            fresh = cur.rowcount == 1
            self._count("applied" if fresh else "duplicates")
        return fresh

    def void(self, event_id: str, reason: str, now: float | None = None) -> bool:
        """An admin's correction: ``event_id`` no longer counts. False when there is no such event."""
        with self._lock:
            found = self.db.execute("SELECT tbl, game FROM events WHERE id = ?", (event_id,)).fetchone()
        if found is None:
            return False
        correction = {"id": f"admin/void/{event_id}", "table": "admin", "game": "-", "kind": "void",
                      "target": event_id, "reason": reason}
        self.apply(correction, now)
        return True

    def count(self, name: str) -> int:
        with self._lock:
            row = self.db.execute("SELECT value FROM counters WHERE name = ?", (name,)).fetchone()
        return 0 if row is None else int(row[0])

    def _count(self, name: str) -> None:
        self.db.execute(
            "INSERT INTO counters VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1", (name,)
        )

    # ---- what is shown: folds over the events

    def events(self, night: int | None = None) -> list[dict[str, Any]]:
        """The events kept (of one night, or all), in arrival order, with the voided ones left out."""
        with self._lock:
            if night is None:
                rows = self.db.execute("SELECT body FROM events ORDER BY n").fetchall()
            else:
                rows = self.db.execute("SELECT body FROM events WHERE night = ? ORDER BY n", (night,)).fetchall()
        events = [json.loads(r[0]) for r in rows]
        voided = {e["target"] for e in events if e["kind"] == "void"}
        kept = [e for e in events if e["kind"] != "void" and e["id"] not in voided]
        if night is not None:
            kept = self._seat_from_rotation(kept, night)
        return kept

    def _seat_from_rotation(self, events: list[dict[str, Any]], night_id: int) -> list[dict[str, Any]]:
        """Name the seats of the games whose table kept the default names (``"named": false``): the
        table's n-th game of the night is the rotation's game n at that table (tables numbered 1, 2...)."""
        night = self.night(night_id)
        if night is None or not any(e.get("named") is False for e in events):
            return events
        try:
            rotation = make_rotation(night.players)
        except RotationError:
            return events
        games: dict[str, list[str]] = {}
        for e in events:
            played = games.setdefault(str(e["table"]), [])
            if e["game"] not in played:
                played.append(e["game"])
        out = []
        for e in events:
            table = str(e["table"])
            if e.get("named") is False and table.isdigit():
                n, t = games[table].index(e["game"]), int(table)
                if n < len(rotation.rounds) and 1 <= t <= len(rotation.rounds[n].tables):
                    e = {**e, "seats": list(rotation.rounds[n].tables[t - 1].seats)}
            out.append(e)
        return out

    def standings(self, night: int | None = None) -> Standings:
        return fold(self.events(night))

    def live_tables(self, night: int | None = None) -> list[LiveTable]:
        """Each table's latest game (the last to send anything): seats, score, deals and whether it is over."""
        latest: dict[str, str] = {}
        by_game: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for e in self.events(night):
            latest[str(e["table"])] = str(e["game"])
            by_game.setdefault((str(e["table"]), str(e["game"])), []).append(e)
        out = []
        for table in sorted(latest, key=lambda t: (len(t), t)):
            events = by_game[(table, latest[table])]
            deals = [e for e in events if e["kind"] == "deal"]
            ends = [e for e in events if e["kind"] == "game_over"]
            scored = ends or sorted(deals, key=lambda e: int(e["number"]))[-1:]
            score = scored[0]["score"] if scored and ends else (scored[-1]["score"] if scored else [0, 0])
            out.append(LiveTable(table, latest[table], tuple(events[-1]["seats"]), (int(score[0]), int(score[1])),
                                 len(deals), bool(ends)))
        return out

    def close(self) -> None:
        with self._lock:
            self.db.close()
