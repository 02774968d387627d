"""``euchre-table league serve|simulate``: the league board, and a whole simulated league night.

Found by the command line through the ``euchre_table.commands`` entry point (the runtime never imports
``league``). The heavy parts (the web server, the broker) are imported inside the run functions.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "league",
        help="league night: the board (serve) or a simulated night of many tables (simulate)",
        description="League night: tables publish their games over MQTT; the board keeps the standings.",
    )
    sub = parser.add_subparsers(dest="league_command", metavar="ACTION")
    sub.required = True

    serve = sub.add_parser(
        "serve",
        help="run the league board: subscribe to the tables, keep the league, serve the page",
        description=(
            "Subscribes to every table's events on the broker, keeps them in SQLite and serves the league "
            "board: live tables, standings, the night's rotation and records, updated live. Admin actions "
            "(a new night, the players, corrections) ask for the admin password."
        ),
    )
    serve.add_argument("--broker", default="", help="mqtt://HOST[:PORT] or mqtts://...; default: start a local one")
    serve.add_argument("--db", type=Path, default=Path("league.sqlite"), help="the league's SQLite file")
    serve.add_argument("--host", default="127.0.0.1", help="the address the page is served on")
    serve.add_argument("--port", type=int, default=8080, help="the page's port")
    serve.add_argument("--admin-password-file", type=Path, default=None,
                       help="a file holding the admin password; without it nothing can be changed")
    serve.add_argument("--username", default="", help="the board's broker account")
    serve.add_argument("--password-file", type=Path, default=None, help="a file holding that account's password")
    serve.add_argument("--ca-file", default="", help="the CA certificate for mqtts://")
    serve.set_defaults(func=run_serve)

    rotation = sub.add_parser(
        "rotation",
        help="print the night's partner rotation: who partners whom, at which table and seat, game by game",
        description=(
            "Prints the partner rotation for the players in FILE (one name a line, 4 to 64; 8 to 16 is a "
            "league night): partners change every game and nobody partners anyone twice. The last line is "
            "players= games= tables= sitting_out=."
        ),
    )
    rotation.add_argument("players", type=Path, metavar="FILE", help="the players, one name a line")
    rotation.add_argument("--seed", type=int, default=None,
                          help="shuffle the players first (the same seed: the same night)")
    rotation.add_argument("--html", action="store_true", help="an HTML page to print, instead of text")
    rotation.set_defaults(func=run_rotation)

    simulate = sub.add_parser(
        "simulate",
        help="a simulated league night: N tables through the real publish path, broker and board",
        description=(
            "Plays a league night on N simulated tables at once (perfect readings: the rules engine plays "
            "seeded games directly), each publishing through its own outbox to a local broker and the "
            "board's store; then checks the board against every table's EGN files. The last line is "
            "tables= games= deals= published= applied= duplicates= lost= standings_match=."
        ),
    )
    simulate.add_argument("--tables", type=int, default=4, help="tables playing at once (1-8)")
    simulate.add_argument("--seed", type=int, default=1, help="seed of the games and the rotation")
    simulate.add_argument("--games", type=int, default=3, help="games each table plays (1-15)")
    simulate.add_argument("--restart-broker", action="store_true", help="kill the broker mid-night and start it again")
    simulate.add_argument("--broker", choices=("auto", "mosquitto", "amqtt"), default="auto",
                          help="the local broker: Mosquitto where installed (auto), or amqtt")
    simulate.add_argument("--out", type=Path, default=None, help="keep the tables' EGN files and the store here")
    simulate.add_argument("--screenshot", type=Path, default=None,
                          help="then serve the board, load it in the system's Chromium and save a PNG of it here")
    simulate.set_defaults(func=run_simulate)


def run_serve(args: argparse.Namespace) -> int:
    from league.board import serve

    return serve(args)


def run_rotation(args: argparse.Namespace) -> int:
    from companion.errors import UserError
    from companion.summary import summary_line
    from league.rotation import RotationError, format_html, format_text, make_rotation

    try:
        text = args.players.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{args.players}: cannot read the players: {exc}") from None
    try:
        rotation = make_rotation([line for line in text.splitlines() if line.strip()], seed=args.seed)
    except RotationError as exc:
        raise UserError(f"{args.players}: {exc}") from None
    if args.html:
        print(f"<!doctype html><meta charset='utf-8'><title>Partner rotation</title>{format_html(rotation)}")
    else:
        print(format_text(rotation), end="")
    first = rotation.rounds[0]
    line = summary_line(players=len(rotation.players), games=len(rotation.rounds), tables=len(first.tables),
                        sitting_out=len(first.sitting_out))
    print(line, file=sys.stderr if args.html else sys.stdout)
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    from league.simulate import run

    return run(args)
