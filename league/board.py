"""The league board: a web page of the night (live tables, standings, rotation, records), updated live.

``create_app`` builds the Starlette app over a ``LeagueStore``; ``serve`` runs it with uvicorn next to a
``BoardListener`` that feeds the store from the broker. Everything on the page is rendered on the
server from the store (``render_board``); the page listens to ``/events`` (server-sent events) and
fetches ``/board`` again whenever the store has changed, so a deal scored at a table shows within a
moment.

Reading is open; writing is not. The admin page and its actions (a new night with its players, taking
back an event that was wrong) need HTTP basic authentication with the admin password from
``--admin-password-file`` (user name ``admin``); without that file nothing can be changed at all. A
form that is wrong (no players, a name twice, an unknown event) gets one line saying what is wrong,
and changes nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import binascii
import hmac
import html
import signal
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from companion.errors import UserError
from league.emn import night_emn
from league.listener import ListenerStats
from league.records import RECORD_FIELDS, Record
from league.rotation import Rotation, RotationError, format_html, format_text, make_rotation
from league.store import LeagueStore

ADMIN_USER = "admin"
MAX_FORM_BYTES = 64 * 1024
SSE_POLL_S = 0.25
SSE_KEEPALIVE_S = 15.0
COLUMNS = {
    "games": "Games", "won": "Won", "points": "Points", "deals": "Deals", "lone_tried": "Lone tried",
    "lone_made": "Lone made", "marches": "Marches", "euchres_made": "Euchres made",
    "euchres_suffered": "Euchred", "reneges": "Reneges",
}
STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5rem;background:#0f3d2e;color:#f4f1e8}
h1{margin:0 0 .2rem}h2{margin:1.6rem 0 .5rem;border-bottom:2px solid #c9a227}
table{border-collapse:collapse;background:#14513c}td,th{padding:.3rem .6rem;border:1px solid #2c6b55;text-align:left}
th{background:#0b2e22}td.n{text-align:right}.tables{display:flex;gap:1rem;flex-wrap:wrap}
.tbl{background:#14513c;border:1px solid #c9a227;border-radius:.5rem;padding:.6rem 1rem;min-width:14rem}
.score{font-size:2rem;font-weight:bold}.over{color:#c9a227}.muted{color:#b9c8bd}
a{color:#f0d36b}@media print{body{background:#fff;color:#000}table{background:#fff}th{background:#ddd}}
"""
SCRIPT = """
let shown = null;
const source = new EventSource('/events');
source.onmessage = async (m) => {
  if (m.data === shown) return;
  shown = m.data;
  const r = await fetch('/board');
  if (r.ok) { document.getElementById('board').innerHTML = await r.text(); }
};
"""


class Board:
    """The store and what the page needs besides it: a change counter for the live updates."""

    def __init__(self, store: LeagueStore, admin_password: str | None, broker: str = "") -> None:
        self.store = store
        self.admin_password = admin_password
        self.broker = broker
        self.version = 0
        self.listener: ListenerStats | None = None  # the refused messages, shown at the foot of the page
        self._lock = threading.Lock()

    def changed(self) -> None:
        with self._lock:
            self.version += 1

    def rotation(self) -> Rotation | None:
        night = self.store.current_night()
        if night is None or len(night.players) < 4:
            return None
        try:
            return make_rotation(night.players)
        except RotationError:
            return None


def _e(value: object) -> str:
    return html.escape(str(value))


def _record_cells(rec: Record) -> str:
    return "".join(f"<td class='n' data-field='{f}'>{getattr(rec, f)}</td>" for f in RECORD_FIELDS)


def render_board(board: Board) -> str:
    """The page's live part: tables, standings, partnerships, rotation."""
    store = board.store
    night = store.current_night()
    night_id = night.id if night is not None else None
    parts = []
    live = store.live_tables(night_id)
    cards = []
    for t in live:
        state = "<span class='over'>game over</span>" if t.over else f"deal {t.deals + 1}"
        s = t.seats
        cards.append(
            f"<div class='tbl' data-table='{_e(t.table)}'><b>Table {_e(t.table)}</b> <span class='muted'>{state}"
            f"</span><div>{_e(s[0])} &amp; {_e(s[2])} <span class='score'>{t.score[0]}</span></div>"
            f"<div>{_e(s[1])} &amp; {_e(s[3])} <span class='score'>{t.score[1]}</span></div></div>"
        )
    parts.append("<h2>Tables</h2><div class='tables'>" + ("".join(cards) or "<p class='muted'>No games yet.</p>")
                 + "</div>")
    standings = store.standings(night_id)
    head = "".join(f"<th>{COLUMNS[f]}</th>" for f in RECORD_FIELDS)
    rows = "".join(
        f"<tr data-player='{_e(name)}'><td class='n'>{i}</td><td class='name'>{_e(name)}</td>{_record_cells(rec)}</tr>"
        for i, (name, rec) in enumerate(standings.ranked(), start=1)
    )
    parts.append(f"<h2>Standings</h2><table id='standings'><thead><tr><th>#</th><th>Player</th>{head}</tr></thead>"
                 f"<tbody>{rows}</tbody></table>")
    prow = "".join(
        f"<tr><td class='name'>{_e(a)} &amp; {_e(b)}</td>{_record_cells(rec)}</tr>"
        for (a, b), rec in standings.ranked_partnerships()
    )
    parts.append(f"<h2>Partnerships</h2><table id='partnerships'><thead><tr><th>Partners</th>{head}</tr></thead>"
                 f"<tbody>{prow}</tbody></table>")
    rotation = board.rotation()
    parts.append("<h2>Rotation <a href='/rotation' class='muted'>(print)</a></h2>"
                 + (format_html(rotation) if rotation is not None else "<p class='muted'>No players yet.</p>"))
    stats = board.listener
    if stats is not None and stats.refused:
        parts.append(f"<p class='muted'>Refused messages: {stats.refused}; the last: {_e(stats.problems[-1])}</p>")
    return "".join(parts)


def _page(title: str, body: str, script: str = "") -> str:
    return (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{_e(title)}</title>"
        f"<meta name='viewport' content='width=device-width'><style>{STYLE}</style></head><body>{body}"
        + (f"<script>{script}</script>" if script else "")
        + "</body></html>"
    )


# ------------------------------------------------------------------ admin


def _authorised(board: Board, request: Request) -> Response | None:
    """None when the request carries the admin password; else the refusal to send."""
    if board.admin_password is None:
        return PlainTextResponse("No admin password is set (serve --admin-password-file FILE): nothing can be "
                                 "changed.", status_code=403)
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    ok = False
    if scheme.lower() == "basic":
        try:
            user, _, password = base64.b64decode(token, validate=True).decode("utf-8").partition(":")
        except (binascii.Error, UnicodeDecodeError):
            user, password = "", ""
        ok = hmac.compare_digest(user.encode(), ADMIN_USER.encode()) & hmac.compare_digest(
            password.encode(), board.admin_password.encode()
        )
    if not ok:
        return PlainTextResponse("The admin password is needed.", status_code=401,
                                 headers={"WWW-Authenticate": 'Basic realm="league admin", charset="UTF-8"'})
    origin = request.headers.get("origin")
    if request.method == "POST" and origin is not None and origin.split("://", 1)[-1] != request.headers.get("host"):
        return PlainTextResponse(f"A form from another site ({origin}) may not change the league.", status_code=403)
    return None


async def _form(request: Request) -> dict[str, str]:
    """The fields of a URL-encoded form (what the admin page's forms send); the last value of a repeated one."""
    body = await request.body()
    if len(body) > MAX_FORM_BYTES:
        raise ValueError(f"the form is larger than {MAX_FORM_BYTES} bytes")
    try:
        return dict(parse_qsl(body.decode("utf-8"), keep_blank_values=True, max_num_fields=20))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"not a form this page sends ({exc})") from None


def _admin_page(board: Board, message: str = "") -> str:
    night = board.store.current_night()
    players = "\n".join(night.players) if night is not None else ""
    name = night.name if night is not None else ""
    note = f"<p class='over' id='message'>{_e(message)}</p>" if message else ""
    return _page(
        "League admin",
        f"<h1>League admin</h1>{note}<p><a href='/'>Back to the board</a></p>"
        "<h2>New night</h2><form method='post' action='/admin/night'>"
        f"<p><label>Name <input name='name' value='{_e(name)}'></label></p>"
        f"<p><label>Players, one a line (8 to 16)<br><textarea name='players' rows='12' cols='30'>{_e(players)}"
        "</textarea></label></p><p><button>Start a new night</button></p></form>"
        "<h2>Players of this night</h2><form method='post' action='/admin/players'>"
        f"<p><textarea name='players' rows='12' cols='30'>{_e(players)}</textarea></p>"
        "<p><button>Save the players</button></p></form>"
        "<h2>Take back an event</h2><form method='post' action='/admin/void'>"
        "<p><label>Event id <input name='event' size='40' placeholder='3/2026...-0/deal/4'></label></p>"
        "<p><label>Why <input name='reason' size='40'></label></p><p><button>Take it back</button></p></form>",
    )


def _players(text: str) -> list[str]:
    players = [line.strip() for line in text.splitlines() if line.strip()]
    make_rotation(players)  # the same checks as the rotation's: 4 or more, no name twice
    return players


def create_app(board: Board) -> Starlette:
    async def index(request: Request) -> Response:
        night = board.store.current_night()
        title = night.name if night is not None else "League night"
        body = (f"<h1>{_e(title)}</h1><p class='muted'>Live from the tables. <a href='/night.emn'>The night as EMN</a>"
                " &middot; <a href='/admin'>Admin</a></p>"
                f"<div id='board'>{render_board(board)}</div>")
        return HTMLResponse(_page(title, body, SCRIPT))

    async def fragment(request: Request) -> Response:
        return HTMLResponse(render_board(board))

    async def standings(request: Request) -> Response:
        night = board.store.current_night()
        s = board.store.standings(night.id if night is not None else None)
        return JSONResponse({"players": s.as_dict(), "version": board.version})

    async def export_emn(request: Request) -> Response:
        night = board.store.current_night()
        if night is None:
            return PlainTextResponse("no night", status_code=404)
        emn = night_emn(board.store.events(night.id), night.name, night.started)
        return JSONResponse(emn, headers={"Content-Disposition": f'attachment; filename="league-night-{night.id}.emn"'})

    async def rotation(request: Request) -> Response:
        r = board.rotation()
        if r is None:
            return PlainTextResponse("No players yet: the admin sets them.", status_code=404)
        if request.query_params.get("format") == "text":
            return PlainTextResponse(format_text(r))
        return HTMLResponse(_page("Rotation", f"<h1>Partner rotation</h1>{format_html(r)}"))

    async def events(request: Request) -> Response:
        async def stream() -> AsyncIterator[str]:
            shown = -1
            quiet = 0.0
            while not await request.is_disconnected():
                if board.version != shown:
                    shown = board.version
                    quiet = 0.0
                    yield f"data: {shown}\n\n"
                elif quiet >= SSE_KEEPALIVE_S:
                    quiet = 0.0
                    yield ": keep-alive\n\n"
                await asyncio.sleep(SSE_POLL_S)
                quiet += SSE_POLL_S

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    async def admin(request: Request) -> Response:
        refusal = _authorised(board, request)
        return refusal or HTMLResponse(_admin_page(board))

    async def admin_action(request: Request) -> Response:
        refusal = _authorised(board, request)
        if refusal is not None:
            return refusal
        action = request.path_params["action"]
        try:
            form = await _form(request)
            if action == "night":
                name = form.get("name", "").strip() or "League night"
                board.store.new_night(name[:80], _players(form.get("players", "")))
            elif action == "players":
                board.store.set_players(_players(form.get("players", "")))
            elif action == "void":
                event_id = form.get("event", "").strip()
                if not board.store.void(event_id, form.get("reason", "").strip()[:200]):
                    raise ValueError(f"no event {event_id!r} on the board")
            else:
                return PlainTextResponse(f"no admin action {action!r}", status_code=404)
        except (ValueError, RotationError) as exc:
            return HTMLResponse(_admin_page(board, f"Not done: {exc}"), status_code=400)
        board.changed()
        return RedirectResponse("/admin", status_code=303)

    return Starlette(
        routes=[
            Route("/", index),
            Route("/board", fragment),
            Route("/api/standings", standings),
            Route("/rotation", rotation),
            Route("/night.emn", export_emn),
            Route("/events", events),
            Route("/admin", admin, methods=["GET"]),
            Route("/admin/{action}", admin_action, methods=["POST"]),
        ]
    )


# ------------------------------------------------------------------ euchre-table league serve


def _read_secret(path: Path | None, what: str) -> str | None:
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read the {what}: {exc}") from None
    if not text:
        raise UserError(f"{path}: the {what} file is empty")
    return text


def serve(args: argparse.Namespace) -> int:
    """Run the board until interrupted (see the module docstring)."""
    from companion.league_publish import BrokerUrlError, parse_broker_url
    from league.broker import LocalBroker, port_free
    from league.listener import BoardListener

    if not 1 <= args.port <= 65535:
        raise UserError(f"--port must be 1-65535, not {args.port}")
    admin = _read_secret(args.admin_password_file, "admin password")
    broker_password = _read_secret(args.password_file, "broker password") or ""
    local: LocalBroker | None = None
    if args.broker:
        try:
            url = parse_broker_url(args.broker)
        except BrokerUrlError as exc:
            raise UserError(f"--broker: {exc}") from None
    else:
        local = LocalBroker(port=1883 if port_free(1883) else None).start()
        url = parse_broker_url(local.url)
        print(f"a local {local.kind} broker listens at {local.url} (tables: [league] broker = \"{local.url}\")")
    try:
        store = LeagueStore(args.db)
    except Exception as exc:  # sqlite3.Error and OSError: a file that is not the league's
        raise UserError(f"{args.db}: cannot open the league store: {exc}") from None
    board = Board(store, admin, str(url))
    listener = BoardListener(store, url, username=args.username, password=broker_password, ca_file=args.ca_file,
                             on_change=board.changed)
    board.listener = listener.stats
    listener.start()
    started = time.monotonic()
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    server, thread = serve_in_thread(board, args.port, args.host)
    try:
        if not server.started:
            raise UserError(f"cannot serve the board on {args.host}:{args.port} (is the port in use?)")
        print(f"the league board: http://{args.host}:{args.port}/ (admin {'on' if admin else 'off'})", flush=True)
        while thread.is_alive() and not stop.wait(0.5):
            pass
    finally:
        server.should_exit = True
        thread.join(10)
        listener.stop()
        events = len(store.events())
        store.close()
        if local is not None:
            local.close()
    print(f"events={events} refused={listener.stats.refused} seconds={time.monotonic() - started:.0f}")
    return 0


def serve_in_thread(board: Board, port: int, host: str = "127.0.0.1") -> tuple[Any, threading.Thread]:
    """The app on a uvicorn server in a thread (the browser test, the screenshot); stop with ``server.should_exit``."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(create_app(board), host=host, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name="league-board", daemon=True)
    thread.start()
    end = time.monotonic() + 15
    while not server.started and time.monotonic() < end:
        time.sleep(0.05)
    return server, thread
