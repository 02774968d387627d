"""``euchre-table calibrate``: calibrate a table without the printed mat by clicking its corners on the camera picture.

A window shows the camera (``--source`` SPEC, default the config's camera);
the user clicks the four table corners and the side seat 0 sits at, checks
the zones drawn over the picture and presses Enter. The calibration and the
seat layout are saved as one JSON file (``vision.zones.save_table``), and
the config line that points the app at it is printed.

``--clicks`` replays the clicks (picture pixels) without a window, for a
Pi reached over SSH and for scripts; ``--preview`` saves the screen as PNG.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import UserError
from companion.summary import summary_line

if TYPE_CHECKING:
    from display.calibrate import CalibrationState, Image
    from vision.sources import FrameSource

FIRST_FRAME_TIMEOUT = 10.0  # seconds to wait for a camera's first picture before giving up


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help="calibrate a table without the printed mat: click its corners on the camera picture",
        description=(
            "Shows the camera picture. Click the four corners of the table top (any order), then the side of the "
            "table where seat 0 sits; the seat zones, trick area and kitty are drawn over the picture. Backspace "
            "undoes a click, Enter saves, Esc quits without saving (exit status 1)."
        ),
    )
    parser.add_argument("--source", help="camera[:INDEX], picamera, video:PATH or images:DIR (default: the config's)")
    parser.add_argument("--config", type=Path, help="the TOML config file (its camera, seat names and display)")
    parser.add_argument(
        "--out", type=Path, metavar="FILE",
        help="where to save the calibration (default: table.json next to --config, else in this folder)",
    )  # fmt: skip
    parser.add_argument(
        "--clicks", metavar="X,Y ...",
        help="no window: the four corners and then a point on seat 0's side, in picture pixels "
        "(\"40,30 600,32 610,450 35,440 320,470\")",
    )  # fmt: skip
    parser.add_argument("--preview", type=Path, metavar="PNG", help="also save the final screen as a PNG")
    parser.add_argument("--windowed", action="store_true", help="a window even if the config says full screen")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.config import load_config
    from vision.sources import SourceSpec, open_source

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # the summary line should be the last word
    config = load_config(args.config)
    out = default_out(args.config) if args.out is None else Path(args.out)
    check_writable(out, "--out")
    if args.preview is not None:
        check_writable(Path(args.preview), "--preview")
    clicks = parse_clicks(args.clicks) if args.clicks is not None else None
    spec = SourceSpec.parse(args.source or config.camera.source)
    source = open_source(spec, resilient=False)
    names = config.seats.names
    try:
        picture = first_picture(source, str(spec))
        if clicks is not None:
            state: CalibrationState | None = replay_clicks(clicks, picture)
        else:
            state = _window(config, args, picture, names, _live_reader(source) if spec.is_live else None)
    finally:
        source.close()
    if args.preview is not None and state is not None:
        save_preview(Path(args.preview), picture, state, names, (config.display.width, config.display.height))
    if state is None:
        print("calibration not saved")
        print(summary_line(saved=0, out=out, source=spec))
        return 1
    return save(out, state, spec)


def default_out(config_path: Path | None) -> Path:
    """``table.json`` beside the config file, or in the current folder without one."""
    return (config_path.parent if config_path is not None else Path()) / "table.json"


def check_writable(path: Path, option: str) -> None:
    """Refuse now, before anyone clicks, a path the result could not be written to."""
    folder = path.parent if str(path.parent) else Path()
    if path.is_dir():
        raise UserError(f"{option} {path}: is a folder; give a file name such as {path / 'table.json'}")
    if not folder.is_dir():
        raise UserError(f"{option} {path}: no such folder {folder}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UserError(f"{option} {path}: not allowed to write there")


def parse_clicks(text: str) -> list[tuple[float, float]]:
    """``"x,y x,y ..."`` (five points: four corners, then seat 0's side) as floats; anything else a UserError."""
    points: list[tuple[float, float]] = []
    for item in text.replace(";", " ").split():
        parts = item.split(",")
        try:
            x, y = (float(p) for p in parts)
        except ValueError:
            raise UserError(f"--clicks {text!r}: {item!r} is not X,Y (two numbers)") from None
        points.append((x, y))
    if len(points) != 5:
        raise UserError(f"--clicks {text!r}: five points needed (four corners, then seat 0's side), got {len(points)}")
    return points


def replay_clicks(clicks: list[tuple[float, float]], picture: Image) -> CalibrationState:
    """Feed the clicks to the calibration state machine as the window would; a refused click is a UserError."""
    from display.calibrate import CalibrationState, Step

    h, w = picture.shape[:2]
    state = CalibrationState((w, h))
    for point in clicks:
        state = state.click(point)
        if state.error:
            raise UserError(f"--clicks: at {point[0]:g},{point[1]:g} on the {w}x{h} picture: {state.error}")
    assert state.step is Step.CONFIRM
    return state


def first_picture(
    source: FrameSource,
    where: str,
    timeout: float = FIRST_FRAME_TIMEOUT,
    clock: Callable[[], float] = time.monotonic,
) -> Image:
    """Open ``source`` and return its first picture; no picture (a missing camera, an empty file) is a UserError."""
    from vision.sources import SourceLost

    try:
        source.open()
        deadline = clock() + timeout
        while True:
            frame = source.read()
            if frame is not None:
                return frame.image_bgr
            if source.ended or clock() >= deadline:
                raise UserError(f"--source {where}: no picture came (waited {timeout:g} s)")
    except SourceLost as exc:
        raise UserError(f"--source {where}: {exc}") from None


def _live_reader(source: FrameSource) -> Callable[[], Image | None]:
    """Newer camera pictures for the window; a hiccup keeps the last picture instead of ending the calibration."""
    from vision.sources import SourceLost

    def read() -> Image | None:
        try:
            frame = source.read()
        except SourceLost:
            return None
        return None if frame is None else frame.image_bgr

    return read


def _window(
    config: Any,
    args: argparse.Namespace,
    picture: Image,
    names: tuple[str, str, str, str],
    next_picture: Callable[[], Image | None] | None,
) -> CalibrationState | None:
    import pygame

    from display.calibrate import run_window

    try:
        pygame.display.init()
        pygame.display.set_caption("Euchre: calibrate the table")
        size = (config.display.width, config.display.height)
        if config.display.fullscreen and not args.windowed:
            surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            surface = pygame.display.set_mode(size, pygame.RESIZABLE)
    except pygame.error as exc:
        raise UserError(f"cannot open a window ({exc}); use --clicks to calibrate without one") from None
    pygame.mouse.set_visible(True)  # the scoreboard hides it; here it is the tool
    try:
        return run_window(surface, picture, names, next_picture)
    finally:
        pygame.display.quit()


def save_preview(
    path: Path, picture: Image, state: CalibrationState, names: tuple[str, str, str, str], size: tuple[int, int]
) -> None:
    import pygame

    from display.calibrate import draw, picture_surface

    surface = pygame.Surface(size)
    draw(surface, picture_surface(picture), state, names)
    try:
        pygame.image.save(surface, str(path))
    except (pygame.error, OSError) as exc:
        raise UserError(f"--preview {path}: cannot write: {exc}") from None


def save(out: Path, state: CalibrationState, spec: object) -> int:
    from vision.zones import EDGE_NAMES, save_table

    calibration, layout, corners = state.calibration, state.layout, state.corners
    assert calibration is not None and layout is not None and corners is not None
    try:
        save_table(out, calibration, layout)
    except OSError as exc:
        raise UserError(f"--out {out}: cannot write: {exc.strerror or exc}") from None
    absolute = out.resolve()
    print(f"saved the table calibration to {absolute}; to use it, put this in the config:")
    # json.dumps writes a valid TOML basic string (quotes and backslashes escaped).
    print(f"[camera] calibration = {json.dumps(str(absolute))}")
    w, h = state.image_size
    print(
        summary_line(
            saved=1,
            out=absolute,
            source=spec,
            image=f"{w}x{h}",
            corners=[f"{x:.0f}:{y:.0f}" for x, y in corners],
            rotation=layout.rotation,
            seat0_side=EDGE_NAMES[layout.rotation],
        )
    )
    return 0
