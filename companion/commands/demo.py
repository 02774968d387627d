"""``euchre-table demo``: the whole pipeline on the bundled recording of a game (no camera, no buttons)."""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.commands.run import add_run_arguments, run_app
from companion.errors import UserError

DEMO_DIR = Path(__file__).resolve().parents[1] / "data" / "demo"
MANIFEST = "demo.json"


@dataclass(frozen=True)
class DemoRecording:
    """The bundled recording: its source SPEC, its timed bids, its table calibration and its ground truth."""

    source: str
    buttons: Path
    calibration: Path | None  # None: the mat's printed markers calibrate it
    truth: Path | None


def load_demo(folder: Path = DEMO_DIR) -> DemoRecording:
    """Read the demo's manifest (``demo.json``: file names relative to the folder)."""
    path = folder / MANIFEST
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: the demo recording is missing from this installation") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise UserError(f"{path}: cannot read the demo manifest: {exc}") from None
    try:
        video = folder / str(data["video"])
        buttons = folder / str(data["buttons"])
        calibration = folder / str(data["calibration"]) if data.get("calibration") else None
        truth = folder / str(data["truth"]) if data.get("truth") else None
    except (KeyError, TypeError) as exc:
        raise UserError(f"{path}: the demo manifest lacks {exc}") from None
    kind = "images" if video.is_dir() else "video"
    return DemoRecording(f"{kind}:{video}", buttons, calibration, truth)


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "demo",
        help="the whole pipeline on the bundled recording of a game",
        description=(
            "Runs camera -> detector -> tracker -> rules -> scoreboard on the recorded game that comes with the "
            "program, with its bids from the recorded buttons. With a display it opens a window; --headless --out "
            "DIR writes screenshots of key moments, the input log and the game's EGN to DIR. It resumes from its "
            "log in DIR after an interruption (--fresh starts over)."
        ),
    )
    add_run_arguments(p)
    p.add_argument("--config", type=Path, help="a TOML config (default: built-in defaults)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.config import load_config

    config = load_config(args.config)
    demo = load_demo()
    if args.headless and args.out is None:
        args.out = Path("demo-out")
    if args.buttons is None:
        args.buttons = demo.buttons
    if args.calibration is None:
        args.calibration = demo.calibration
    return run_app(config, demo.source, args)
