"""Builds the app from the config and the command line: storage, log, camera, detector, tracker, screen.

Everything outside the program (the config, the data folder, the model, the
camera, the calibration, the buttons file) is checked here, and a problem is
one ``UserError`` naming it. The log is opened before anything else can fail
late, so a resumed match is never lost to a bad camera or model.
"""

from __future__ import annotations

import contextlib
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
from companion.config import Config, SeatsConfig
from companion.detection_cache import DetectionCache
from companion.errors import UserError
from companion.league_publish import LeaguePublisher, publisher_from_config
from companion.runner import (
    DISK_MARGIN_BYTES,
    App,
    AppParts,
    HeadlessRecorder,
    low_disk_warning,
    resume_point,
    whole_frame_calibration,
)
from companion.sdnotify import Notifier
from companion.session import TableSession, ThreadedLogWriter
from display import phrases
from display.view import ScoreStyle
from table.limits import LimitError, loads_json, read_limited
from table.log import DamagedLogError, LogError, MatchLog

if TYPE_CHECKING:
    from display.buttons import PanelConfig
    from table.rules import Rules
    from vision.deck_profile import DeckProfile
    from vision.sources.base import FrameSource, ScriptedTable

log = logging.getLogger(__name__)

CAMERA_TIMEOUT_S = 15.0  # on a terminal, a camera with no picture after this long ends the run (exit 2)
MAX_CALIBRATION_BYTES = 1024 * 1024
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


def data_folder(config: Config, request: RunRequest) -> Path:
    """The data folder, checked without creating it: it, or the folder it would be made in, is writable."""
    folder = request.out_dir if request.out_dir is not None else Path(config.storage.data_dir)
    if folder.exists():
        if not folder.is_dir():
            raise UserError(f"{folder}: the data folder is a file, not a folder")
        if not os.access(folder, os.W_OK):
            raise UserError(f"{folder}: the data folder is not writable")
        return folder
    parent = folder.absolute().parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise UserError(f"{folder}: cannot create the data folder: {parent} is not a writable folder")
    return folder


def make_data_dir(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{folder}: cannot create the data folder: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK):
        raise UserError(f"{folder}: the data folder is not writable")


def warn_low_disk(folder: Path) -> None:
    """Free space checked at start (the app watches it from then on): a warning below the margin."""
    warning = low_disk_warning(folder, DISK_MARGIN_BYTES)
    if warning:
        print(f"euchre-table: warning: {folder}: {warning}", file=sys.stderr)


def benny_warning(rules: Rules, profile: DeckProfile | None) -> str | None:
    """Why a Benny played at this table would go unread, or None.

    The Joker has no index common to decks (its corner shows a picture, a star or a word), so the reader
    names it only from the house deck's profile (``euchre-table enrol``, ``[camera] deck``). Without it, a
    hand in which the Benny is played never completes.
    """
    if not rules.has_benny:
        return None
    if profile is None:
        return (
            "these rules play the Benny (the Joker), and the reader names a Joker only from the house deck's "
            "profile: lay the deck with its Joker out for `euchre-table enrol`, then set [camera] deck; until "
            "then a hand with the Benny played is not scored"
        )
    if not any(card.is_benny for card in profile.cards):
        return (
            f"these rules play the Benny (the Joker), and deck profile {profile.name!r} has no Joker: enrol "
            "the deck again with its Joker laid out"
        )
    return None


def check_calibration_file(path: Path) -> None:
    """Refuse a calibration file of hostile size or structure with one line (the reader would recurse)."""
    try:
        loads_json(read_limited(path, MAX_CALIBRATION_BYTES), max_bytes=MAX_CALIBRATION_BYTES)
    except LimitError as exc:
        raise UserError(f"{path}: not a table calibration: {exc}") from None
    except (OSError, ValueError):
        return  # missing or not JSON: load_table names it


def on_a_terminal() -> bool:
    """Run by a person at a terminal, not by systemd (which sets INVOCATION_ID for its services)."""
    return "INVOCATION_ID" not in os.environ and sys.stdin.isatty()


def archive_log(folder: Path, kind: str = "match") -> Path | None:
    """Move the current match log, and its game's EGN file, aside (``--fresh``), never deleting them.

    ``kind`` names the archived log (``damaged`` for a log whose header cannot be read).
    """
    current = folder / LOG_NAME
    # The detection cache belongs to the match being set aside; it is derived data, rebuilt by the detector.
    (folder / CACHE_NAME).unlink(missing_ok=True)
    if not current.exists():
        return None
    archive = folder / "archive"
    archive.mkdir(exist_ok=True)
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    target = archive / f"{kind}-{stamp}.jsonl"
    n = 1
    while target.exists() or target.with_suffix(".egn").exists():
        target = archive / f"{kind}-{stamp}-{n}.jsonl"
        n += 1
    shutil.move(str(current), target)
    egn = folder / EGN_NAME
    if egn.exists():
        shutil.move(str(egn), target.with_suffix(".egn"))  # the game of that log goes with it
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
    except DamagedLogError as exc:
        # A header that cannot be read makes the whole file unusable (no rules, no first dealer): it is
        # set aside, never deleted, and a new match starts, so the table always starts.
        moved = archive_log(folder, "damaged")
        print(f"euchre-table: warning: {exc}; the log is kept at {moved}; a new match starts", file=sys.stderr)
        try:
            match_log = MatchLog.create(
                path,
                rules,
                first_dealer=config.seats.first_dealer,
                created=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
                seats=config.seats.names,
            )
        except (LogError, OSError) as exc2:
            raise UserError(f"{path}: cannot create the match log: {exc2}") from None
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
    from vision.deck_profile import configured_profile
    from vision.detector import load_detector
    from vision.mat import marker_layout
    from vision.models import default_model_path
    from vision.sources import open_source
    from vision.tracker import Tracker
    from vision.zones import MarkerRefresher, TableLayout, load_table

    sim: ScriptedTable | None = None
    if _is_sim(request.source):
        from vision.sources.base import ScriptedTable
        from vision.sources.picamera import MAIN_STREAM_SCALE

        # Built once, dealt by the config's rules: its script sets the bids and frames.
        # With [camera] main_stream_crops it draws both of a Pi camera's streams, as that camera gives them.
        detail = MAIN_STREAM_SCALE if config.camera.main_stream_crops else 1
        opened = open_source(request.source, rules=config.rules(), detail=detail)
        assert isinstance(opened, ScriptedTable)
        sim = opened
        config = _config_for_sim(config, sim, request.source)
    folder = data_folder(config, request)
    # Resuming: the log is opened first, so its recovery is reported even when the camera or the model
    # then fails. A new match (or --fresh) checks the whole command first: nothing is archived, deleted
    # or created (the data folder included) until every part has opened.
    session = open_session(config, folder, False) if not request.fresh and (folder / LOG_NAME).exists() else None
    source: FrameSource | None = None
    try:
        actions = load_buttons(request.buttons_file) if request.buttons_file is not None else None
        league = league_publisher(config, folder)
        if sim is not None:
            source = sim
        elif request.source.split(":", 1)[0] == "picamera":
            source = open_source(request.source, mains_hz=config.camera.mains_hz)
        else:
            source = open_source(request.source)
        model_path = request.model or (Path(config.model.path) if config.model.path else default_model_path())
        # One thread: ONNX Runtime's multi-threaded reductions can differ in the last bits from run to run,
        # which flips borderline readings; one thread reads a frame the same way every time (and the model
        # card finds it no slower on two cores).
        # The house deck's profile (``[camera] deck``, made by ``euchre-table enrol`` in the same data folder).
        profile = configured_profile(folder, config.camera.deck)
        detector = load_detector(
            model_path, config.model.backend, threads=1, conf_threshold=config.model.min_confidence, profile=profile,
            table=True,
        )
        unread = benny_warning(config.rules(), profile)
        start_notice = ""
        if unread:
            print(f"euchre-table: warning: {unread}", file=sys.stderr)
            # Under systemd nobody reads stderr: the scoreboard says it too, until the first news.
            start_notice = phrases.benny_needs_enrolment() if profile is None else phrases.benny_not_in_profile()

        layout = TableLayout(rotation=config.camera.seat_rotation)
        markers = None
        calibration_file = request.calibration or (
            Path(config.camera.calibration) if config.camera.calibration else None
        )
        if calibration_file is not None:
            check_calibration_file(calibration_file)
            calibration, layout = load_table(calibration_file)
        else:
            # No saved calibration: the printed mat's markers (the app falls back to the whole
            # frame until they are seen).
            calibration = whole_frame_calibration(640, 480)
            markers = MarkerRefresher(marker_layout(config.camera.mat), fallback=None)
        source.open()

        if session is None:
            make_data_dir(folder)
            session = open_session(config, folder, request.fresh)
        last_frame, buttons_done = resume_point(session)
        script = ButtonScript(actions, done=buttons_done) if actions is not None else None
        if script is None and sim is not None:
            # The simulated table knows its bids: they come in as a buttons file would.
            from companion.buttons_script import parse_buttons

            script = ButtonScript(parse_buttons(sim.buttons_jsonl(), "sim"), done=buttons_done)
        tracker = Tracker(calibration, layout, cards=deck(session.match.rules.deck_size))
        resume_frame = -1 if _is_camera(request.source) else last_frame
    except BaseException:
        if session is not None:
            session.close()
        if source is not None and source is not sim:
            with contextlib.suppress(Exception):
                source.close()
        raise
    warn_low_disk(folder)

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
        camera_timeout_s=CAMERA_TIMEOUT_S if _is_camera(request.source) and on_a_terminal() else None,
        league=league,
        start_notice=start_notice,
        deck_enrolled=profile is not None,
        main_stream_crops=config.camera.main_stream_crops,
    )
    if request.headless:
        parts.recorder = HeadlessRecorder(folder, (config.display.width, config.display.height))
    notifier.ready(f"watching {request.source}")
    return App(parts)


def league_publisher(config: Config, folder: Path) -> LeaguePublisher | None:
    """The league publisher ``[league]`` asks for (not started), or None; an unreadable password file is a UserError."""
    try:
        named = config.seats.names != SeatsConfig().names  # default names: the board seats the rotation's players
        return publisher_from_config(config.league, folder, f"{config.source_path}: [league] password_file", named)
    except ValueError as exc:
        raise UserError(str(exc)) from None


def _is_camera(spec: str) -> bool:
    return spec.split(":", 1)[0] in ("camera", "picamera")
