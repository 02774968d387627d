"""The table's league client: its games' events to the league broker over MQTT, through a queue on disk.

What a table sends (``game_events``) is a small documented JSON object per event, kind by kind:

- ``seats``: ``{"id", "v", "table", "game", "kind": "seats", "seats": [4 names]}``, once a game;
- ``deal``: the same keys plus ``"number"`` (0-based), ``"deal"`` (the deal as ``euchre-table replay
  --json`` writes it: dealer, trump, maker_seat, alone_seats, tricks_won, points, reneges..., plus
  ``penalty_accepted``, ``thrown_in`` and ``voided``) and ``"score"`` (the game's score after it), once
  a deal is over;
- ``game_over``: ``"score"`` (the final one) and ``"winner"`` (the team, or null for a draw).

A table whose seats keep the default names (North, East...; nobody typed the players in) says so with
``"named": false`` in each event: the board then names the seats from the night's rotation (the
table's n-th game of the night is the rotation's game n at that table).

Each deal event also carries the deal as EGN 1.4 writes it (``"egn"``), and the seats and game-over
events the rest of the game's EGN file (``"egn_head"``: its metadata and rules), so the board can
rebuild every game's EGN and export the night as EMN.

Every event's ``id`` is ``<table>/<game>/<kind>[/<number>]`` and never changes, so a repeat is harmless:
the board keeps the first and counts the rest as duplicates. ``game`` names the game: the match log's
creation time and how many games that log has started.

Delivery: ``submit`` only puts events on an in-memory queue, so the frame loop never waits. A thread
of the publisher's own writes them to the outbox, an SQLite file in the data folder (synchronous
writes: a power cut keeps every event written), and sends them with QoS 1 whenever the broker is
reachable. An event leaves the outbox only when the board says it has kept it (the ``applied``
topic: ``{"outbox", "q"}``, naming the event by its place in the outbox), not when the broker has
it, so a broker that dies holding events loses nothing: what the board has not confirmed is sent again
on each reconnection and after ``resend_s``. A table with no network plays on; its outbox grows
and drains when the broker is back (paho reconnects within ``RECONNECT_MAX_S``).

On the wire each event travels in an envelope: ``{"v": 1, "outbox": "<id>", "q": <number>, "event":
{...}}``; ``outbox`` is the outbox file's own random id, ``q`` the event's place in it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import sqlite3
import ssl
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

log = logging.getLogger(__name__)

EVENT_VERSION = 1
TOPIC_ROOT = "euchre/league/tables"
OUTBOX_NAME = "league-outbox.sqlite"
RECONNECT_MAX_S = 4  # a table whose network returns catches up within this, plus the send time
RESEND_S = 10.0
BATCH = 200


def events_topic(table: str) -> str:
    """Where ``table`` publishes its events."""
    return f"{TOPIC_ROOT}/{table}/events"


def applied_topic(table: str) -> str:
    """Where the board tells ``table`` how far it has applied its outbox."""
    return f"{TOPIC_ROOT}/{table}/applied"


class BrokerUrlError(ValueError):
    """A broker address that is not ``mqtt://HOST[:PORT]`` or ``mqtts://HOST[:PORT]``."""


@dataclass(frozen=True)
class BrokerUrl:
    host: str
    port: int
    tls: bool

    def __str__(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def parse_broker_url(text: str) -> BrokerUrl:
    """``mqtt://host:1883`` -> ``BrokerUrl("host", 1883, False)``; anything else raises BrokerUrlError."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise BrokerUrlError(f"not a broker address ({exc}): {text!r}") from None
    if parts.scheme not in ("mqtt", "mqtts"):
        raise BrokerUrlError(f"must start with mqtt:// or mqtts://, not {text!r}")
    if not parts.hostname:
        raise BrokerUrlError(f"names no host: {text!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        raise BrokerUrlError(f"must be just mqtt[s]://HOST[:PORT] (credentials go in username/password): {text!r}")
    tls = parts.scheme == "mqtts"
    return BrokerUrl(parts.hostname, port if port is not None else (8883 if tls else 1883), tls)


# ------------------------------------------------------------------ events


@dataclass(frozen=True)
class LeagueEvent:
    """One event: its id, and its JSON object (the id included)."""

    id: str
    body: dict[str, Any]

    def text(self) -> str:
        return json.dumps(self.body, separators=(",", ":"), sort_keys=True)


def _event(table: str, game: str, kind: str, suffix: str = "", **fields: Any) -> LeagueEvent:
    event_id = f"{table}/{game}/{kind}{suffix}"
    body = {"id": event_id, "v": EVENT_VERSION, "table": table, "game": game, "kind": kind, **fields}
    return LeagueEvent(event_id, body)


def game_events(
    table: str,
    game: str,
    seats: Sequence[str],
    deals: Sequence[Any],
    over: bool,
    score: tuple[int, int],
    winner: int | None,
    egn: dict[str, Any] | None = None,
    named: bool = True,
) -> list[LeagueEvent]:
    """Every event of one game so far: the seats, each finished deal, and the end once it is over.

    ``deals`` are ``table.deal.DealRecord``s (``Match.deals``); the deal in progress is left out. With
    ``egn`` (the game exported as EGN), each deal event carries its EGN deal (``"egn"``) and the seats and
    game-over events the rest of the file (``"egn_head"``), so the board can put the game's EGN together.
    """
    head = {k: v for k, v in egn.items() if k != "deals"} if egn is not None else None
    egn_deals = {d.get("dealNumber"): d for d in egn["deals"]} if egn is not None else {}
    unnamed: dict[str, Any] = {} if named else {"named": False}
    extra: dict[str, Any] = {**unnamed, **({"egn_head": head} if head is not None else {})}
    out = [_event(table, game, "seats", seats=list(seats), **extra)]
    for d in deals:
        if not d.finished:
            continue
        after = d.score_after if d.score_after is not None else score
        in_egn = {"egn": egn_deals[d.number]} if d.number in egn_deals else {}
        out.append(
            _event(
                table, game, "deal", f"/{d.number}", seats=list(seats), number=d.number,
                deal={**d.to_json(), "penalty_accepted": d.penalty_accepted, "thrown_in": d.thrown_in,
                      "voided": d.voided},
                score=[after[0], after[1]], **in_egn, **unnamed,
            )
        )
    if over:
        out.append(
            _event(table, game, "game_over", seats=list(seats), score=[score[0], score[1]], winner=winner, **extra)
        )
    return out


def match_events(
    table: str, game: str, seats: Sequence[str], match: Any, named: bool = True
) -> list[LeagueEvent]:
    """``game_events`` of a ``table.match.Match``, with its EGN."""
    from table.egn import export_egn

    egn = export_egn(match, players=list(seats))
    return game_events(table, game, seats, match.deals, match.game_over, match.score, match.winner, egn, named)


def game_key(created: object, history: Sequence[object]) -> str:
    """The game's name in the league: the log's creation time and the number of NewGame inputs before it."""
    from table.inputs import NewGame

    stamp = "".join(ch for ch in str(created) if ch.isalnum()) or "log"
    return f"{stamp}-{sum(1 for i in history if isinstance(i, NewGame))}"


# ------------------------------------------------------------------ the outbox


class Outbox:
    """The events not yet confirmed by the board, in an SQLite file; one thread uses it at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS events (q INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE NOT NULL, "
            "body TEXT NOT NULL, sent_at REAL)"
        )
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        # Ids already confirmed: a game re-sent after a restart is not queued again.
        self.db.execute("CREATE TABLE IF NOT EXISTS done (id TEXT PRIMARY KEY)")
        row = self.db.execute("SELECT value FROM meta WHERE key = 'outbox'").fetchone()
        if row is None:
            self.id = uuid.uuid4().hex
            self.db.execute("INSERT INTO meta VALUES ('outbox', ?)", (self.id,))
        else:
            self.id = str(row[0])

    def add(self, events: Sequence[LeagueEvent]) -> int:
        """Queue the events not queued or confirmed before; returns how many were new."""
        added = 0
        with self.db:
            for e in events:
                if self.db.execute("SELECT 1 FROM done WHERE id = ?", (e.id,)).fetchone():
                    continue
                cur = self.db.execute("INSERT OR IGNORE INTO events (id, body) VALUES (?, ?)", (e.id, e.text()))
                added += cur.rowcount
        return added

    def due(self, now: float, resend_s: float, limit: int = BATCH) -> list[tuple[int, str]]:
        """(q, body) of the events never sent, or sent ``resend_s`` ago and still not confirmed."""
        rows = self.db.execute(
            "SELECT q, body FROM events WHERE sent_at IS NULL OR sent_at <= ? ORDER BY q LIMIT ?",
            (now - resend_s, limit),
        ).fetchall()
        return [(int(q), str(body)) for q, body in rows]

    def mark_sent(self, qs: Sequence[int], now: float) -> None:
        with self.db:
            self.db.executemany("UPDATE events SET sent_at = ? WHERE q = ?", [(now, q) for q in qs])

    def unsend(self) -> None:
        """After a reconnection: everything unconfirmed goes again."""
        self.db.execute("UPDATE events SET sent_at = NULL")

    def confirm(self, q: int) -> int:
        """The board has kept event ``q``: it leaves the outbox. Returns 1, or 0 when it had already left."""
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO done SELECT id FROM events WHERE q = ?", (q,))
            return self.db.execute("DELETE FROM events WHERE q = ?", (q,)).rowcount

    def pending(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM events").fetchone()[0])

    def close(self) -> None:
        self.db.close()


# ------------------------------------------------------------------ the publisher


@dataclass(frozen=True)
class PublisherSettings:
    broker: BrokerUrl
    table: str
    username: str = ""
    password: str = ""
    ca_file: str = ""
    resend_s: float = RESEND_S
    client_id: str = ""  # empty: euchre-table-<table>
    seats_named: bool = True  # False: the seats keep the default names, and the board names them from its rotation


@dataclass
class PublisherStats:
    queued: int = 0  # distinct events written to the outbox
    sends: int = 0  # publishes, repeats included
    accepted: int = 0  # PUBACKs from the broker
    confirmed: int = 0  # events the board confirmed (they left the outbox)
    connections: int = 0
    errors: list[str] = field(default_factory=list)


class LeaguePublisher:
    """Sends events through the outbox at ``outbox_path`` to the broker; see the module docstring."""

    def __init__(self, settings: PublisherSettings, outbox_path: Path, clock: Callable[[], float] = time.monotonic):
        self.settings = settings
        self.outbox_path = outbox_path
        self.clock = clock
        self.stats = PublisherStats()
        self._inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._connected = threading.Event()
        self._thread: threading.Thread | None = None
        self._client: Any = None
        self._pending = -1
        self._failing = ""  # the outbox's last error while it lasts
        self._submitted = 0  # submit calls, and those whose events are in the outbox (drained compares them)
        self._written = 0

    # ---- the frame loop's side: never waits

    def submit(self, events: Sequence[LeagueEvent]) -> None:
        """Hand events to the publisher's thread (returns at once)."""
        self._submitted += 1
        self._inbox.put(("events", list(events)))
        self._wake.set()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    @property
    def pending(self) -> int:
        """Events in the outbox not yet confirmed by the board (as of the thread's last pass; -1 before)."""
        return self._pending

    # ---- lifetime

    def start(self) -> LeaguePublisher:
        self._thread = threading.Thread(target=self._run, name="league-publisher", daemon=True)
        self._thread.start()
        return self

    def drained(self, timeout_s: float) -> bool:
        """Wait (at most ``timeout_s``) until every submitted event is confirmed; for tests and the simulation."""
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            if self._pending == 0 and self._written == self._submitted:
                return True
            self._wake.set()
            time.sleep(0.05)
        return False

    def close(self, timeout_s: float = 2.0) -> None:
        """Stop the thread; what is not confirmed stays in the outbox for the next start."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout_s)

    # ---- the thread

    def _run(self) -> None:
        outbox: Outbox | None = None
        try:
            while True:
                stopping = self._stop.is_set()
                try:
                    if outbox is None:
                        outbox = Outbox(self.outbox_path)
                        self._connect(outbox.id)
                    self._pass(outbox)  # the last pass, once stopping, puts what was submitted last on disk
                    self._failing = ""
                except (OSError, sqlite3.Error) as exc:
                    self._storage_failed(exc)  # a full disk, a card pulled: tried again, nothing dropped
                if stopping:
                    break
                self._wake.wait(1.0 if self._failing else 0.2)
                self._wake.clear()
        finally:
            if self._client is not None:
                with contextlib.suppress(Exception):
                    self._client.disconnect()
                    self._client.loop_stop()
            if outbox is not None:
                outbox.close()

    def _storage_failed(self, exc: Exception) -> None:
        msg = f"league outbox {self.outbox_path}: {exc}"
        if msg != self._failing:  # said once, not every second
            self.stats.errors.append(msg)
            log.error("%s; league events wait in memory and are written when it works again", msg)
        self._failing = msg

    def _pass(self, outbox: Outbox) -> None:
        while True:
            try:
                kind, value = self._inbox.get_nowait()
            except queue.Empty:
                break
            if kind == "events":
                try:
                    self.stats.queued += outbox.add(value)
                except (OSError, sqlite3.Error):
                    self._inbox.put((kind, value))  # kept for the next try
                    raise
                # Unconfirmed events now wait in the outbox: say so before counting them written, or
                # ``drained`` could pair this count with the last pass's "nothing pending" and end too soon.
                self._pending = max(1, self._pending)
                self._written += 1
            elif kind == "connected":
                outbox.unsend()
            elif kind == "applied" and value[0] == outbox.id:
                self.stats.confirmed += outbox.confirm(value[1])
        if self._connected.is_set():
            due = outbox.due(self.clock(), self.settings.resend_s)
            sent: list[int] = []
            for q, body in due:
                envelope = f'{{"v":{EVENT_VERSION},"outbox":"{outbox.id}","q":{q},"event":{body}}}'
                info = self._client.publish(events_topic(self.settings.table), envelope, qos=1)
                if info.rc != 0:  # the connection dropped meanwhile: the rest waits for the next one
                    break
                sent.append(q)
            outbox.mark_sent(sent, self.clock())
            self.stats.sends += len(sent)
        written = self._written
        self._pending = outbox.pending() if written == self._submitted else max(1, self._pending)

    def _connect(self, outbox_id: str) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        s = self.settings
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=s.client_id or f"euchre-table-{s.table}",
            clean_session=True,
        )
        client.reconnect_delay_set(min_delay=1, max_delay=RECONNECT_MAX_S)
        if s.username:
            client.username_pw_set(s.username, s.password or None)
        if s.broker.tls:
            client.tls_set(ca_certs=s.ca_file or None, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.on_publish = self._on_publish
        self._client = client
        client.connect_async(s.broker.host, s.broker.port, keepalive=15)
        client.loop_start()

    # paho's callbacks run on its network thread: they only pass word to the publisher's thread.

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            msg = f"the league broker {self.settings.broker} refused the table: {reason}"
            if msg not in self.stats.errors:
                self.stats.errors.append(msg)
                log.error("%s", msg)
            return
        self.stats.connections += 1
        client.subscribe(applied_topic(self.settings.table), qos=1)
        self._inbox.put(("connected", None))
        self._connected.set()
        self._wake.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self._connected.clear()

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        self.stats.accepted += 1

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        try:
            obj = json.loads(message.payload)
            outbox, q = obj["outbox"], obj["q"]
            if not isinstance(outbox, str) or not isinstance(q, int) or isinstance(q, bool):
                raise ValueError("outbox must be a string and q a whole number")
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("league: a confirmation on %s was not understood (%s); ignored", message.topic, exc)
            return
        self._inbox.put(("applied", (outbox, q)))
        self._wake.set()


def read_password(password: str, password_file: str, where: str) -> str:
    """The password from the config, or from its file; an unreadable file is a ValueError naming it."""
    if not password_file:
        return password
    try:
        return Path(password_file).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{where}: cannot read the password file {password_file}: {exc}") from None


def publisher_from_config(
    league: Any, data_dir: Path, where: str = "[league]", seats_named: bool = True
) -> LeaguePublisher | None:
    """The publisher a ``companion.config.LeagueConfig`` asks for (None without a broker); not started."""
    if not league.broker:
        return None
    settings = PublisherSettings(
        broker=parse_broker_url(league.broker),
        table=league.table,
        username=league.username,
        password=read_password(league.password, league.password_file, where),
        ca_file=league.ca_file,
        seats_named=seats_named,
    )
    return LeaguePublisher(settings, data_dir / OUTBOX_NAME)
