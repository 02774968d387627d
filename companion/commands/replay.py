"""``euchre-table replay``: replay an EGN game or a match log and tell its story, deal by deal (or as JSON)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.summary import summary_line

DEMO_NAME = "demo.egn"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay an EGN game or a match log: each deal, trick, renege and the final score",
        description=(
            "Replays FILE through the rules engine and prints what happened in each deal: the dealer and "
            "up-card, the bids, trump and makers, every trick and who took it, the points, reneges and other "
            "irregularities, then the final score. FILE is an EGN 1.4 game (.egn, JSON) or a match log "
            "written by 'euchre-table run' (JSON lines); the content decides which. Without FILE it replays "
            "the bundled demo game. The last line is a key=value summary."
        ),
    )
    parser.add_argument(
        "file",
        nargs="?",
        type=Path,
        metavar="FILE",
        help="an .egn file or a match log (default: the bundled demo game)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help='print one JSON object ({"deals": [...], "final_score": [t0, t1]}) instead of the story; '
        "the summary line then goes to standard error",
    )
    parser.set_defaults(func=run)


@dataclass
class Replayed:
    """What any source folds into, for printing."""

    match: Any  # table.match.Match
    title: str
    seats: list[str]
    warnings: list[str]


def demo_path() -> Path:
    """The bundled demo game."""
    return Path(str(resources.files("companion.data").joinpath(DEMO_NAME)))


def load(path: Path) -> Replayed:
    """Replay an EGN file or a match log; every problem with the file is a one-line UserError."""
    from table.egn import MAX_EGN_BYTES, EgnError, replay_egn
    from table.egn import parse_egn as parse
    from table.limits import LimitError, check_regular_file, loads_json
    from table.log import LogError, is_log_text, load_match, read_log

    try:
        check_regular_file(path)  # a FIFO would keep the replay waiting for a writer
        raw = path.read_bytes()
    except LimitError as exc:
        raise UserError(f"{path}: {exc}") from None
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory, not an EGN file or a match log") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(f"{path}: not a text file (expected an EGN file or a match log)") from None
    first_line = text.lstrip().split("\n", 1)[0]
    if is_log_text(first_line):
        try:
            match, warnings = load_match(path)
            header = read_log(path).header
        except LogError as exc:
            raise UserError(str(exc)) from None
        seats = list(header.seats) if header.seats else []
        return Replayed(match, f"match log {path.name}", seats, warnings)
    try:
        obj = loads_json(text, max_bytes=MAX_EGN_BYTES)
    except LimitError as exc:
        raise UserError(f"{path}: not an EGN file: {exc}") from None
    except ValueError as exc:
        raise UserError(f"{path}: neither an EGN file nor a match log (not JSON: {exc})") from None
    try:
        replay = replay_egn(parse(obj, str(path)))
    except EgnError as exc:
        raise UserError(str(exc)) from None
    title = str(replay.game.metadata.get("title") or path.name)
    return Replayed(replay.match, title, replay.game.players, replay.warnings)


def _seat(seat: int | None, names: Sequence[str]) -> str:
    if seat is None:
        return "-"
    if len(names) == 4 and names[seat]:
        return f"seat {seat} ({names[seat]})"
    return f"seat {seat}"


def _call(call: Any, names: Sequence[str]) -> str:
    from table.inputs import OrderUp, Pass

    who = _seat(call.seat, names)
    if isinstance(call, Pass):
        return f"{who} pass"
    alone = " alone" if call.alone else ""
    if isinstance(call, OrderUp):
        return f"{who} orders up{alone}"
    return f"{who} names {'no trump' if call.suit is None else call.suit.noun}{alone}"


def _renege(e: Any, names: Sequence[str]) -> str:
    how = (
        f"still held the up-card {e.proof_card}"
        if e.proof == "held_up_card"
        else f"played {e.proof_card} in trick {e.proof_trick + 1}"
    )
    return (
        f"{_seat(e.seat, names)} showed out of {e.suit.noun} in trick {e.showed_out_trick + 1} "
        f"({e.showed_out_card} on {e.led_card} led) but {how}"
    )


def story(r: Replayed) -> list[str]:
    """The readable account, one line per fact."""
    m, names = r.match, r.seats
    deals = m.deals
    start = (m.score[0] - sum(d.points[0] for d in deals), m.score[1] - sum(d.points[1] for d in deals))
    lines = [f"{r.title}: {len(deals)} deal(s), starting at {start[0]}-{start[1]}"]
    if len(names) == 4:
        lines.append(f"Team 0: {names[0]} and {names[2]}; team 1: {names[1]} and {names[3]}")
    for d in deals:
        up = "-" if d.up_card is None else str(d.up_card)
        lines.append(f"Deal {d.number + 1}: {_seat(d.dealer, names)} deals, turns up {up}")
        if d.calls:
            lines.append("  bids: " + ", ".join(_call(c, names) for c in d.calls))
        if d.thrown_in:
            lines.append("  everyone passed twice: thrown in")
        elif d.maker_seat is not None:
            trump = "no trump" if d.no_trump else (d.trump.noun if d.trump is not None else "?")
            alone = "; alone: " + ", ".join(_seat(s, names) for s in d.alone_seats) if d.alone_seats else ""
            lines.append(f"  trump: {trump}, made by {_seat(d.maker_seat, names)} (team {d.maker_seat % 2}){alone}")
            if d.discard is not None:
                lines.append(f"  the dealer discards {d.discard}")
        for t, trick in enumerate(d.tricks):
            cards = ", ".join(f"{s}:{c}" for s, c in trick)
            won = f" -> {_seat(d.trick_winners[t], names)}" if t < len(d.trick_winners) else " (unfinished)"
            lines.append(f"  trick {t + 1}: {cards}{won}")
        for e in d.reneges:
            lines.append(f"  RENEGE: {_renege(e, names)}")
        for irr in d.irregularities:
            lines.append(f"  irregularity ({irr.kind.value}): {irr.detail}")
        if d.finished and not d.thrown_in:
            lines.append(
                f"  tricks {d.tricks_won[0]}-{d.tricks_won[1]}; points {d.points[0]}-{d.points[1]} ({d.reason}); "
                f"score {d.score_after[0]}-{d.score_after[1]}"
            )
        elif not d.finished:
            lines.append("  (deal in progress)")
    a, b = m.score
    if m.game_over:
        result = "a draw" if m.winner is None else f"team {m.winner} wins"
        lines.append(f"Final score {a}-{b}: {result}")
    else:
        lines.append(f"Score {a}-{b}: the game is not over")
    return lines


def to_json(r: Replayed) -> dict[str, Any]:
    """The ``--json`` object of DESIGN.md (each deal carries a few more keys than it names)."""
    m = r.match
    return {
        "deals": [d.to_json() for d in m.deals],
        "final_score": [m.score[0], m.score[1]],
        "game_over": m.game_over,
        "winner": m.winner,
        "warnings": list(r.warnings),
    }


def run(args: argparse.Namespace) -> int:
    path: Path = args.file if args.file is not None else demo_path()
    r = load(path)
    m = r.match
    summary = summary_line(
        deals=len(m.deals),
        final_score=f"{m.score[0]}-{m.score[1]}",
        winner="-" if m.winner is None else m.winner,
        game_over=str(m.game_over).lower(),
        reneges=sum(len(d.reneges) for d in m.deals),
        irregularities=sum(len(d.irregularities) for d in m.deals),
        warnings=len(r.warnings),
        file=path.name,
    )
    if args.json:
        print(json.dumps(to_json(r)))
        for w in r.warnings:
            print(f"warning: {w}", file=sys.stderr)
        print(summary, file=sys.stderr)
        return 0
    for w in r.warnings:
        print(f"warning: {w}", file=sys.stderr)
    for line in story(r):
        print(line)
    print(summary)
    return 0
