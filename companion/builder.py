"""Builds the app from the config and the command line: storage, log, camera, detector, tracker, screen.

Everything outside the program (the config, the data folder, the model, the
camera, the calibration, the buttons file) is checked here, and a problem is
one ``UserError`` naming it. The log is opened before anything else can fail
late, so a resumed match is never lost to a bad camera or model.
"""

from __future__ import annotations

import datetime as _dt
import logging
import os
import queue
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from companion.buttons_script import ButtonScript, load_buttons
from companion.config import Config
from companion.detection_cache import DetectionCache
from companion.errors import UserError
from companion.runner import App, AppParts, HeadlessRecorder, resume_point, whole_frame_calibration
from companion.sdnotify import Notifier
from companion.session import TableSession, ThreadedLogWriter
from display.view import ScoreStyle
from table.log import LogError, MatchLog

if TYPE_CHECKING:
    from display.buttons import PanelConfig
    from vision.sources.base import FrameSource, ScriptedTable

log = logging.getLogger(__name__)

LOG_NAME = "match.jsonl"
EGN_NAME = "game.egn"
CACHE_NAME = "detections.jsonl"


@dataclass(frozen=True)
class RunRequest:
    """What the command line asked for."""

    source: str
    headless: bool
    out_dir: Path | None
    buttons_file: Path | None
    fresh: bool
    calibration: Path | None = None
    model: Path | None = None


def data_dir(config: Config, request: RunRequest) -> Path:
    folder = request.out_dir if request.out_dir is not None else Path(config.storage.data_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{folder}: cannot create the data folder: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK):
        raise UserError(f"{folder}: the data folder is not writable")
    return folder


def archive_log(folder: Path) -> Path | None:
    """Move the current match log aside (``--fresh``), never deleting it."""
    current = folder / LOG_NAME
    # The detection cache belongs to the match being set aside; it is derived data, rebuilt by the detector.
    (folder / CACHE_NAME).unlink(missing_ok=True)
    if not current.exists():
        return None
    archive = folder / "archive"
    archive.mkdir(exist_ok=True)
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    target = archive / f"match-{stamp}.jsonl"
    n = 1
    while target.exists():
        target = archive / f"match-{stamp}-{n}.jsonl"
        n += 1
    shutil.move(str(current), target)
    return target


def open_session(config: Config, folder: Path, fresh: bool) -> TableSession:
    """Resume the match in ``folder`` (or start one); damaged log lines are reported, never fatal."""
    if fresh:
        moved = archive_log(folder)
        if moved is not None:
            print(f"euchre-table: started a new match; the previous log is kept at {moved}", file=sys.stderr)
    rules = config.rules()
    path = folder / LOG_NAME
    try:
        match_log = MatchLog.open_or_create(
            path,
            rules,
            first_dealer=config.seats.first_dealer,
            created=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            seats=config.seats.names,
        )
    except (LogError, OSError) as exc:
        raise UserError(f"{path}: cannot open the match log: {exc}") from None
    session = TableSession(
        match_log, ThreadedLogWriter(match_log), first_dealer=config.seats.first_dealer, names=config.seats.names
    )
    for warning in session.warnings:
        print(f"euchre-table: warning: {warning}", file=sys.stderr)
    if match_log.header.rules != rules and match_log.entries:
        print(
            f"euchre-table: warning: {path}: resuming with the rules this match started with, not the config's",
            file=sys.stderr,
        )
    return session


def panel_config(config: Config) -> PanelConfig:
    """The button panel's pins from the config."""
    from display.buttons import PanelConfig, buttons_from_pins

    return PanelConfig(
        buttons=buttons_from_pins(config.buttons.pins),
        turn_leds=config.buttons.turn_leds,
        buzzer=config.buttons.buzzer,
    )


def score_style(config: Config) -> ScoreStyle:
    """The scoreboard's score style from ``[display] score_style``."""
    return ScoreStyle.CARDS if config.display.score_style == "six_and_four" else ScoreStyle.NUMBERS


def _is_sim(source: str) -> bool:
    return source.strip().lower().partition(":")[0] == "sim"


def _config_for_sim(config: Config, sim: ScriptedTable, source: str) -> Config:
    """The simulated table deals its own game by the config's rules: its first dealer and mat replace the config's."""
    import dataclasses

    sim_config = dataclasses.replace(
        config,
        seats=dataclasses.replace(config.seats, first_dealer=sim.first_dealer),
        camera=dataclasses.replace(config.camera, mat=sim.mat_name, calibration=""),
    )
    if sim_config.rules() != sim.rules:  # pragma: no cover - the simulated table is given the config's rules
        raise UserError(f"--source {source}: the simulated table plays other rules than the config's")
    return sim_config


def build_app(config: Config, request: RunRequest) -> App:
    """Everything ``run`` and ``demo`` need, checked and opened."""
    from table.cards import deck
    from vision.detector import load_detector
    from vision.mat import marker_layout
    from vision.models import default_model_path
    from vision.sources import open_source
    from vision.tracker import Tracker
    from vision.zones import MarkerRefresher, TableLayout, load_table

    sim: ScriptedTable | None = None
    if _is_sim(request.source):
        from vision.sources.base import ScriptedTable

        # Built once, dealt by the config's rules: its script sets the bids and frames.
        opened = open_source(request.source, rules=config.rules())
        assert isinstance(opened, ScriptedTable)
        sim = opened
        config = _config_for_sim(config, sim, request.source)
    folder = data_dir(config, request)
    session = open_session(config, folder, request.fresh)
    try:
        last_frame, buttons_done = resume_point(session)
        script = None
        if request.buttons_file is not None:
            script = ButtonScript(load_buttons(request.buttons_file), done=buttons_done)

        if sim is not None:
            source: FrameSource = sim
        elif request.source.split(":", 1)[0] == "picamera":
            source = open_source(request.source, mains_hz=config.camera.mains_hz)
        else:
            source = open_source(request.source)
        source.open()
        if script is None and sim is not None:
            # The simulated table knows its bids: they come in as a buttons file would.
            from companion.buttons_script import parse_buttons

            script = ButtonScript(parse_buttons(sim.buttons_jsonl(), "sim"), done=buttons_done)
        model_path = request.model or (Path(config.model.path) if config.model.path else default_model_path())
        # One thread: ONNX Runtime's multi-threaded reductions can differ in the last bits from run to run,
        # which flips borderline readings; one thread reads a frame the same way every time (and the model
        # card finds it no slower on two cores).
        detector = load_detector(
            model_path, config.model.backend, threads=1, conf_threshold=config.model.min_confidence
        )

        layout = TableLayout(rotation=config.camera.seat_rotation)
        markers = None
        calibration_file = request.calibration or (
            Path(config.camera.calibration) if config.camera.calibration else None
        )
        if calibration_file is not None:
            calibration, layout = load_table(calibration_file)
        else:
            # No saved calibration: the printed mat's markers (the app falls back to the whole
            # frame until they are seen).
            calibration = whole_frame_calibration(640, 480)
            markers = MarkerRefresher(marker_layout(config.camera.mat), fallback=None)
        tracker = Tracker(calibration, layout, cards=deck(session.match.rules.deck_size))

        resume_frame = -1 if _is_camera(request.source) else last_frame
    except BaseException:
        session.close()
        raise

    notifier = Notifier()
    parts = AppParts(
        session=session,
        names=config.seats.names,
        source=source,
        detector=detector,
        tracker=tracker,
        markers=markers,
        buttons=script,
        actions=queue.Queue(),
        notifier=notifier,
        egn_path=folder / EGN_NAME,
        resume_frame=resume_frame,
        # A recording can be judged again exactly after a crash; a live camera cannot be rewound.
        detection_cache=None if _is_camera(request.source) else DetectionCache(folder / CACHE_NAME),
        muted=config.sound.mute,
        score_style=score_style(config),
    )
    if request.headless:
        parts.recorder = HeadlessRecorder(folder, (config.display.width, config.display.height))
    notifier.ready(f"watching {request.source}")
    return App(parts)


def _is_camera(spec: str) -> bool:
    return spec.split(":", 1)[0] in ("camera", "picamera")
