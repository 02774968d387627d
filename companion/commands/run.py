"""``euchre-table run``: the main job on the table camera (or any ``--source``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.errors import UserError
from display.i18n import LANGUAGES

EXIT_NOT_SAVED = 3  # the run went on, but some of the score could not be written (see log_ok=0)


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "run",
        help="watch the table: camera -> cards -> rules -> scoreboard",
        description="The main job: reads the cards from the camera, keeps the score, shows the scoreboard.",
    )
    add_run_arguments(p)
    p.add_argument(
        "--source",
        help="camera[:INDEX], picamera, video:PATH, images:DIR or sim[:HANDS] (the simulated table; "
        "default: the config's)",
    )
    p.add_argument("--config", type=Path, help="the TOML config file (default: built-in defaults)")
    p.set_defaults(func=run)


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--headless", action="store_true", help="no window: write screenshots, log and EGN to --out")
    p.add_argument("--out", type=Path, help="folder for the input log, screenshots and EGN (headless)")
    p.add_argument("--buttons", type=Path, help="timed button actions to replay (JSON lines: frame, action)")
    p.add_argument("--fresh", action="store_true", help="start a new match (the old log is archived, not deleted)")
    p.add_argument("--calibration", type=Path, help="a saved table calibration (default: the config's, or markers)")
    p.add_argument("--model", type=Path, help="the detector model (default: the config's, or the shipped one)")
    p.add_argument("--backend", choices=("onnx", "ultralytics"), help="the detector backend (default: the config's)")
    p.add_argument(
        "--language",
        choices=LANGUAGES,
        help="the language of the screen and of speech (default: the config's [display] language, else en)",
    )


def run(args: argparse.Namespace) -> int:
    from companion.config import load_config

    config = load_config(args.config)
    source = args.source or config.camera.source
    if args.headless and args.out is None:
        raise UserError("--headless needs --out DIR for the screenshots, the input log and the EGN file")
    return run_app(config, source, args)


def run_app(config: Any, source: str, args: argparse.Namespace) -> int:
    """Build and run the app headless or in a window; print the summary line.

    The exit status tells the truth about the score: 0 when every input is on disk and the EGN file is
    written (also after SIGTERM or SIGINT, which finish the writes and tell systemd STOPPING=1),
    ``EXIT_NOT_SAVED`` (with ``log_ok=0``) when something could not be saved; 2 for a camera that never
    gave a picture on a terminal.
    """
    import dataclasses
    import os
    import signal
    import sys
    import time

    from companion.builder import RunRequest, build_app
    from companion.runner import CameraNeverOpened
    from companion.summary import summary_line

    if args.headless:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    request = RunRequest(
        source=source,
        headless=args.headless,
        out_dir=args.out,
        buttons_file=args.buttons,
        fresh=args.fresh,
        calibration=args.calibration,
        model=args.model,
    )
    if args.backend is not None:
        config = dataclasses.replace(config, model=dataclasses.replace(config.model, backend=args.backend))
    config = with_language(config, getattr(args, "language", None))
    app = build_app(config, request)
    started = time.monotonic()

    def stop(signum: int, _frame: Any) -> None:
        app.stop_requested = True  # the loop ends at the next tick; finish() makes everything durable

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        if args.headless:
            app.run_headless(time.monotonic)
        else:
            _run_windowed(app, config)
    except CameraNeverOpened as exc:
        raise UserError(str(exc)) from None
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        app.p.notifier.stopping()
        app.p.notifier.close()
    saved = app.storage_ok
    if not saved:
        print(
            f"euchre-table: error: the score was not saved in full: {app.alarms[-1] if app.alarms else 'write failed'} "
            f"({app.p.session.log.path})",
            file=sys.stderr,
        )
    match = app.p.session.match
    elapsed = max(time.monotonic() - started, 1e-9)
    print(
        summary_line(
            frames=app.frames,
            fps=app.frames / elapsed,
            deals=len([d for d in match.deals if d.finished]),
            score=f"{match.score[0]}-{match.score[1]}",
            game_over=match.game_over,
            first_frame_s=app.first_frame_s if app.first_frame_s is not None else "na",
            torch_loaded="torch" in sys.modules,
            log=str(app.p.session.log.path),
            log_ok=int(saved),
            stopped=int(app.stop_requested),
        )
    )
    return 0 if saved else EXIT_NOT_SAVED


def with_language(config: Any, language: str | None) -> Any:
    """``config`` in ``language`` (default: its own), which becomes the language of every phrase from now on.

    The default seat names (North, East, South, West) are the language's; names the config sets are kept.
    """
    import dataclasses

    from companion.config import SeatsConfig
    from display import i18n, phrases

    lang = language or config.display.language
    i18n.set_language(lang)
    seats = config.seats
    if seats.names == SeatsConfig().names:
        seats = dataclasses.replace(seats, names=phrases.seat_names())
    return dataclasses.replace(config, display=dataclasses.replace(config.display, language=lang), seats=seats)


def speech_voice(config: Any) -> str:
    """The espeak-ng voice: the config's [sound] voice, or else the one that reads [display] language."""
    from display.i18n import voice

    return str(config.sound.voice or voice(config.display.language))


def _run_windowed(app: Any, config: Any) -> None:
    from companion.builder import panel_config
    from display.buttons import open_panel
    from display.scoreboard import Scoreboard, open_display
    from display.speech import SpeechConfig, open_speaker

    surface = open_display((config.display.width, config.display.height), config.display.fullscreen)
    panel = open_panel(panel_config(config), app.p.actions)
    app.p.speaker = open_speaker(
        SpeechConfig(muted=app.muted, volume=config.sound.volume, voice=speech_voice(config))
    )
    board = Scoreboard(surface, app.p.actions, panel=panel)
    app.p.scoreboard = board

    def on_frame(now: float) -> None:
        app.tick(now)
        if app.finished or app.stop_requested:
            board.running = False

    try:
        board.run(on_frame=on_frame)
        app.finish()
    finally:
        app.p.speaker.close()
        app.close()
