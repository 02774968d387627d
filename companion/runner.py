"""The main loop: camera -> detector -> tracker -> session (engine + log) -> scoreboard, speech and files.

One iteration (``App.tick``) reads at most one frame, detects, tracks, maps
the observations and button presses to inputs, releases the announcements
whose inputs are on disk, updates the screen and pings the watchdog. Nothing
in it waits on the disk (the log has its own writer thread) or on speech.

Storage: a log or EGN write that fails (a full disk, a card pulled) is an
alarm: a red banner over everything, a spoken warning and an error in the
journal, until the writes succeed again; ``App.storage_ok`` is False at the
end if anything was not saved, and ``run`` then exits non-zero with
``log_ok=0``. Free space is checked at start and every ``DISK_CHECK_S``; below
``DISK_MARGIN_BYTES`` the banner warns before anything is lost. The detection
cache and the screenshots are best effort: a failure is warned about once and
the game goes on.

Resuming: the session folds the input log, so a restart continues mid-hand.
A recording is skipped up to the last frame the log knows, and a scripted
button already in the log is not pressed again; the cards still lying on the
table are seen again and recognised as already played.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import logging
import os
import queue
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from companion.buttons_script import ButtonScript
from companion.detection_cache import DetectionCache
from companion.egn_writer import EgnWriter
from companion.league_publish import LeaguePublisher, game_key, match_events
from companion.reading_watch import ReadingWatch
from companion.sdnotify import Notifier
from companion.session import TableSession
from display import phrases
from display.actions import Action, ButtonAction
from display.adapter import build_view
from display.phrases import announcement_text, misdeal_question, speech_text, trick_label
from display.speech import NullSpeaker, Speaker
from display.view import Banner, BannerKind, ScoreboardView, ScoreStyle, Snapshot, Stage
from table.announcements import (
    Announcement,
    GameWon,
    HandScored,
    Prompt,
    RenegeProven,
    TrickWon,
    TrumpMade,
)
from table.egn import dumps_egn, export_egn
from table.records import game_records
from vision.detection import CardDetection
from vision.detector import Detector, detect_frame
from vision.observations import Observation
from vision.sources import Frame, FrameSource
from vision.tracker import Tracker
from vision.zones import Calibration, MarkerRefresher

if TYPE_CHECKING:
    import pygame

    from display.scoreboard import Scoreboard

log = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]
SNAPSHOT_WIDTH = 320
DISK_MARGIN_BYTES = 50 * 1024 * 1024  # about a year of nights' logs and EGN files; below it, warn
DISK_CHECK_S = 10.0
LEAGUE_GRACE_S = 2.0  # on the way out, how long the league publisher may take to deliver (the outbox keeps the rest)
_IMPORTED_AT = time.monotonic()


def snapshot_of(image: Image, caption: str) -> Snapshot:
    """A small RGB still of a camera frame, for the renege evidence and the hand review."""
    import cv2

    h, w = image.shape[:2]
    scale = SNAPSHOT_WIDTH / max(w, 1)
    small = cv2.resize(image, (SNAPSHOT_WIDTH, max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    rgb = cv2.cvtColor(small, cv2.COLOR_BGR2RGB)
    return Snapshot(caption=caption, size=(rgb.shape[1], rgb.shape[0]), rgb=rgb.tobytes())


@dataclass
class TrickSnapshots:
    """A camera still of each completed trick of the current hand."""

    by_trick: dict[int, Snapshot] = field(default_factory=dict)

    def record(self, trick: int, image: Image | None) -> None:
        if image is not None:
            self.by_trick[trick] = snapshot_of(image, trick_label(trick + 1))

    def evidence(self, tricks: Sequence[int]) -> tuple[Snapshot, ...]:
        return tuple(self.by_trick[t] for t in tricks if t in self.by_trick)

    def clear(self) -> None:
        self.by_trick.clear()


class HeadlessRecorder:
    """Writes screenshots of the key moments (bidding, tricks, reneges, hands, the game) to a folder."""

    KEY_MOMENTS: tuple[type, ...] = (TrumpMade, TrickWon, RenegeProven, HandScored, GameWon)

    def __init__(self, out_dir: Path, size: tuple[int, int] = (800, 480)) -> None:
        self.dir = out_dir / "screens"
        self.size = size
        self.failed = False
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # best effort, like every screenshot
            log.warning("screenshots are not saved (%s: %s); the game goes on", self.dir, exc.strerror or exc)
            self.failed = True
        self.count = len(list(self.dir.glob("*.png")))

    def moments(self, announcements: Sequence[Announcement]) -> list[str]:
        """The key moments among ``announcements``, in order (several when the log writer caught up at once)."""
        names = [type(a).__name__ for a in announcements if isinstance(a, self.KEY_MOMENTS)]
        if not names and any(isinstance(a, Prompt) and a.expected.value.startswith("bid_round") for a in announcements):
            names.append("Bidding")
        return names

    def capture(self, view: ScoreboardView, name: str, t: float = 0.0) -> Path | None:
        """Save one screenshot; best effort: a failure (a full disk) is warned about once, None returned."""
        import pygame

        from display.render import render_surface

        surface = render_surface(view, self.size, t)
        path = self.dir / f"{self.count:04d}-{name}.png"
        try:
            pygame.image.save(surface, str(path))
        except (OSError, pygame.error) as exc:
            if not self.failed:
                log.warning("screenshots are not saved (%s: %s); the game goes on", path, exc)
            self.failed = True
            with contextlib.suppress(OSError):
                path.unlink()
            return None
        self.count += 1
        return path


@dataclass
class AppParts:
    """What the app runs with; every part has a fake for tests."""

    session: TableSession
    names: tuple[str, str, str, str]
    source: FrameSource | None = None
    detector: Detector | None = None
    tracker: Tracker | None = None
    markers: MarkerRefresher | None = None
    buttons: ButtonScript | None = None
    actions: queue.Queue[Action] = field(default_factory=queue.Queue)
    speaker: Speaker = field(default_factory=NullSpeaker)
    recorder: HeadlessRecorder | None = None
    scoreboard: Scoreboard | None = None
    notifier: Notifier = field(default_factory=lambda: Notifier(""))
    egn_path: Path | None = None
    resume_frame: int = -1
    detection_cache: DetectionCache | None = None
    muted: bool = False  # speech off from the start (the config's [sound] mute); M or a mute button toggles it
    score_style: ScoreStyle = ScoreStyle.NUMBERS  # the config's [display] score_style
    # A camera that has shown no frame after this many seconds ends the run (CameraNeverOpened): on a terminal,
    # where someone can fix it. None (under systemd): keep trying, and show "camera lost" meanwhile.
    camera_timeout_s: float | None = None
    disk_margin_bytes: int = DISK_MARGIN_BYTES
    league: LeaguePublisher | None = None  # [league] set: each scored deal and the game's end go to the board
    # Shown in the announcement line from the start until the first news replaces it (a setup the table must fix).
    start_notice: str = ""
    # The config's [camera] main_stream_crops: hand the reader the camera's larger stream (Frame.display_bgr).
    main_stream_crops: bool = False
    # A deck profile is in use ([camera] deck): what the scoreboard advises when the deck reads poorly.
    deck_enrolled: bool = False


class CameraNeverOpened(Exception):
    """No frame came from the camera within ``AppParts.camera_timeout_s``."""


class App:
    """Runs the table: see the module docstring."""

    def __init__(self, parts: AppParts) -> None:
        self.p = parts
        self.snapshots = TrickSnapshots()
        self.recent: list[Announcement] = []
        self.last_image: Image | None = None
        self.frames = 0
        self.finished = False
        self.view: ScoreboardView | None = None
        self._renege_stills: tuple[Snapshot, ...] = ()  # the proven renege's two tricks, kept past its hand's end
        self._status = ""
        self.first_frame_s: float | None = None  # the process's age when the first camera frame was shown
        self.notice = parts.start_notice  # the last word on a button press (or at start), in the announcement line
        self.question: str | None = None  # a press waiting for its confirmation (Misdeal), shown as a banner
        self.review: tuple[Snapshot, ...] = ()  # the last scored hand's trick stills
        self.muted = parts.muted
        self.stop_requested = False  # SIGTERM or SIGINT: the loop ends, the writes are finished
        self.alarm = ""  # what the screen, the speaker and the journal were told is wrong with storage
        self.alarms: list[str] = []  # every alarm raised in this run, in order
        self.alarm_words = ""  # the alarm as the banner says it, in the table's language
        self._disk_checked: float | None = None
        self._low_free: int | None = None  # the free bytes where fewer than the margin are left
        self._started: float | None = None
        parts.speaker.set_muted(self.muted)
        self.egn = EgnWriter(parts.egn_path) if parts.egn_path is not None else None
        self._egn_flushed = True
        self._notes_seen = len(parts.session.notes.messages)
        self.reading_watch = ReadingWatch()  # says once when the camera misses or doubts many cards
        # A recording resumed after a restart is judged again from its first frame (TableSession.begin_replay).
        self._replaying = (
            parts.resume_frame >= 0
            and parts.tracker is not None
            and parts.detector is not None
            and parts.source is not None
            and parts.session.begin_replay()
        )
        if self._replaying and parts.buttons is not None:
            parts.buttons.rewind()
        if parts.league is not None:
            parts.league.start()
            self._publish_league()  # the game so far: what the board already has is a harmless repeat

    # ---- one iteration ----

    def tick(self, now: float) -> None:
        p = self.p
        frame = self._read_frame()
        if frame is not None:
            self._see(frame)
        number = frame.number if frame is not None else None
        if p.buttons is not None and number is not None:
            for timed in p.buttons.due(number):
                p.session.act(timed.action, frame=number, script_number=timed.number, now=now)
        while True:
            try:
                action = p.actions.get_nowait()
            except queue.Empty:
                break
            if action.kind is ButtonAction.TOGGLE_MUTE:  # the app's own switch, not a move in the game
                self.set_muted(not self.muted)
                continue
            p.session.act(action, frame=number, now=now)
        asked = p.session.misdeal_asked(now)
        question = misdeal_question(asked, p.names) if asked is not None else None
        if question != self.question:  # asked, answered, cancelled or lapsed
            self.question = question
            self.view = None  # redraw
        released = p.session.release()
        self._take_news(released)
        notes = p.session.notes.messages
        if len(notes) > self._notes_seen:  # a button's answer ("choose a suit first"): shown until the next news
            self.notice = notes[-1]
            self._notes_seen = len(notes)
            self.view = None  # redraw
        self._watch_storage(now)
        self._refresh(now, released)
        p.notifier.watchdog(now)
        if p.source is not None and p.source.ended and frame is None:
            self.finished = True
        self._check_camera(now)

    def _check_camera(self, now: float) -> None:
        timeout = self.p.camera_timeout_s
        if self._started is None:
            self._started = now
        if timeout is not None and self.frames == 0 and now - self._started >= timeout:
            name = getattr(self.p.source, "description", None) or "the camera"
            raise CameraNeverOpened(f"{name}: no picture after {timeout:.0f} s; is the camera connected?")

    # ---- storage: the score must survive ----

    def _storage_problem(self) -> str:
        """What is wrong with saving now, as the journal says it ('' when nothing is)."""
        p = self.p
        error = getattr(p.session.writer, "error", None)
        if isinstance(error, OSError):
            return f"SCORE NOT SAVED: {_reason(error)}"
        if self.egn is not None and self.egn.error is not None:
            return f"GAME FILE NOT SAVED: {_reason(self.egn.error)}"
        return _low_disk_line(self._low_free) if self._low_free is not None else ""

    def _storage_words(self) -> str:
        """The same in the table's language, for the banner ('' when nothing is wrong)."""
        error = getattr(self.p.session.writer, "error", None)
        if isinstance(error, OSError):
            return phrases.score_not_saved(_reason_words(error))
        if self.egn is not None and self.egn.error is not None:
            return phrases.game_file_not_saved(_reason_words(self.egn.error))
        return phrases.disk_almost_full(self._low_free / 1e6) if self._low_free is not None else ""

    def _watch_storage(self, now: float) -> None:
        if self._disk_checked is None or now - self._disk_checked >= DISK_CHECK_S:
            self._disk_checked = now
            self._low_free = free_below(self.p.session.log.path.parent, self.p.disk_margin_bytes)
        problem = self._storage_problem()
        if problem == self.alarm:
            return
        kind = problem.split(":", 1)[0]
        if kind != self.alarm.split(":", 1)[0]:  # a new kind of trouble (not just fewer MB left): say it once
            if problem:
                log.error("%s (%s)", problem, self.p.session.log.path)
                self.alarms.append(problem)
                not_saved = "NOT SAVED" in problem
                self.p.speaker.say(phrases.storage_warning(not_saved), chime=True)
            else:
                log.warning("saving works again: %s", self.p.session.log.path)
        self.alarm = problem
        self.alarm_words = self._storage_words()
        self.view = None  # redraw with (or without) the banner

    @property
    def storage_ok(self) -> bool:
        """Everything this run was told is on disk: every input logged and the last EGN written."""
        writer = self.p.session.writer
        submitted = getattr(writer, "submitted", None)
        if getattr(writer, "error", None) is not None:
            return False
        if isinstance(submitted, int) and writer.durable < submitted:
            return False
        return self.egn is None or (self.egn.error is None and self._egn_flushed)

    def set_muted(self, muted: bool) -> None:
        """Speech off or on; the screen shows MUTED while it is off."""
        self.muted = muted
        self.p.speaker.set_muted(muted)
        self.view = None  # redraw with the indicator

    def _read_frame(self) -> Frame | None:
        source = self.p.source
        if source is None:
            return None
        frame = source.read()
        while frame is not None and frame.number <= self.p.resume_frame:
            self._catch_up(frame)  # judged before the restart
            frame = source.read()
        if self._replaying:
            self._end_replay()
        return frame

    def _catch_up(self, frame: Frame) -> None:
        """A frame judged before the restart: judge it again, the session checking each input against the log.

        Should the judging differ from the log (a different model, a changed recording), the rest of
        the catch-up only rebuilds the tracker and the log is taken as written.
        """
        p = self.p
        if p.tracker is None:
            return
        self._calibrate(frame)
        detections = p.detection_cache.get(frame.number) if p.detection_cache is not None else None
        if detections is None:
            if p.detector is None:
                return
            detections = detect_frame(p.detector, frame.image_bgr, frame.number, self._detail(frame))
            if p.detection_cache is not None:
                p.detection_cache.put(frame.number, detections)
        session = p.session
        observations = self._track(p.tracker, detections, frame.number)
        if self._replaying and not session.replay_diverged:
            for obs in observations:
                session.observe(obs)
            if p.buttons is not None:
                for timed in p.buttons.due(frame.number):
                    session.act(timed.action, frame=frame.number, script_number=timed.number)
            session.replay_manual(frame.number)

    def _track(self, tracker: Tracker, detections: Sequence[CardDetection], number: int) -> list[Observation]:
        """The tracker's events for one frame, told whose turn it is and which cards this deal has played."""
        match = self.p.session.match
        return tracker.update(detections, number, match.expected.seat, played=match.played_this_deal)

    def _end_replay(self) -> None:
        p = self.p
        self._replaying = False
        diverged = p.session.replay_diverged
        p.session.end_replay()
        if diverged and p.buttons is not None:
            p.buttons.fast_forward()  # the scripted presses already logged are not pressed again
        if p.session.replay_note:
            print(f"euchre-table: resume: {p.session.replay_note}", file=sys.stderr)

    def _calibrate(self, frame: Frame) -> None:
        p = self.p
        if p.markers is None or p.tracker is None:
            return
        calibration = p.markers.update(frame.image_bgr, frame.number)
        if calibration is None:
            h, w = frame.image_bgr.shape[:2]
            calibration = whole_frame_calibration(w, h)
        p.tracker.calibration = calibration

    def _detail(self, frame: Frame) -> Image | None:
        """The frame's larger picture for the reader, where the config asks for it and the camera gives one."""
        return frame.display_bgr if self.p.main_stream_crops else None

    def _see(self, frame: Frame) -> None:
        p = self.p
        self.frames += 1
        self.last_image = frame.image_bgr
        if p.detector is None or p.tracker is None:
            return
        self._calibrate(frame)
        detections = detect_frame(p.detector, frame.image_bgr, frame.number, self._detail(frame))
        if p.detection_cache is not None:
            p.detection_cache.put(frame.number, detections)
        for obs in self._track(p.tracker, detections, frame.number):
            p.session.observe(obs)

    def _take_news(self, released: list[Announcement]) -> None:
        """Announce what the log writer has made durable; news replaces the last word (a notice) on the screen."""
        if released:
            self._announce(released)
            self.notice = ""
            if self.reading_watch.take(released):
                # Between hands, where the table looks at the score: shown until the next news.
                self.notice = phrases.deck_read_poorly(self.p.deck_enrolled)
                log.warning(
                    "the camera is reading this deck poorly: %d cards missed or doubted in the last %d hands (%s)",
                    sum(self.reading_watch.recent), len(self.reading_watch.recent),
                    "enrolled" if self.p.deck_enrolled else "not enrolled: euchre-table enrol would help",
                )

    def _announce(self, released: list[Announcement]) -> None:
        p = self.p
        view = p.session.match.view()
        renege_tricks: tuple[int, ...] = ()
        for a in released:
            if isinstance(a, TrickWon):
                self.snapshots.record(a.trick, self.last_image)
            elif isinstance(a, RenegeProven):
                e = a.evidence
                self.snapshots.record(e.proof_trick, self.last_image)
                renege_tricks = (e.showed_out_trick, e.proof_trick)
            elif isinstance(a, HandScored | GameWon):
                self._export_egn()
                self._publish_league()
            text = speech_text(a, p.names, trump=view.trump, dealer=view.dealer)
            if text:
                p.speaker.say(text, chime=isinstance(a, RenegeProven | GameWon))
            log.info("%s", announcement_text(a, p.names, trump=view.trump, dealer=view.dealer))
        if renege_tricks:
            # Taken before a scored hand clears its stills: a renege proven in the last trick is
            # announced together with that trick and the hand's score, and its alert still shows both.
            self._renege_stills = self.snapshots.evidence(renege_tricks)
        if any(isinstance(a, HandScored) for a in released):
            # the hand in review: its tricks' stills stay on the screen until the next deal
            self.review = tuple(self.snapshots.by_trick[t] for t in sorted(self.snapshots.by_trick))
            self.snapshots.clear()
        self.recent = [a for a in released if not isinstance(a, Prompt)] or self.recent

    def _refresh(self, now: float, released: list[Announcement]) -> None:
        p = self.p
        if not released and self.view is not None and not self._camera_changed():
            return
        match_view = p.session.match.view()
        snaps = self._renege_stills if match_view.pending_renege is not None else ()
        self.view = build_view(
            match_view,
            p.names,
            announcements=self.recent,
            camera_ok=self._camera_ok(),
            renege_snapshots=snaps,
            muted=self.muted,
            score_style=p.score_style,
            rules=p.session.match.rules,
        )
        self.view = p.session.dress(self.view)  # the declarations offered now, and a question the panel is in
        if self.view.stage is Stage.GAME_OVER:  # the won game's records, seat by seat
            match = p.session.match
            self.view = dataclasses.replace(self.view, records=tuple(game_records(match.deals, match.winner, True)))
        if self.notice:
            self.view = dataclasses.replace(self.view, announcement=self.notice)
        if self.question is not None:
            self.view = dataclasses.replace(self.view, banner=Banner(BannerKind.INFO, self.question))
        if self.alarm:
            self.view = dataclasses.replace(self.view, banner=Banner(BannerKind.ALARM, self.alarm_words or self.alarm))
        if self.view.stage is not Stage.HAND_OVER:
            self.review = ()
        elif self.review:
            self.view = dataclasses.replace(self.view, review=self.review)
        if p.scoreboard is not None:
            p.scoreboard.show(self.view)
        if self.first_frame_s is None and self.frames > 0:
            self.first_frame_s = process_age_s()
        if p.recorder is not None and released and not p.recorder.failed:
            for name in p.recorder.moments(released):
                p.recorder.capture(self.view, name)

    def _camera_ok(self) -> bool:
        status = getattr(self.p.source, "status", None)
        return status is None or str(status.state.value) != "camera lost"

    def _camera_changed(self) -> bool:
        if self.first_frame_s is None and self.frames > 0:
            return True
        status = str(getattr(self.p.source, "status", ""))
        changed = status != self._status
        self._status = status
        return changed

    def _export_egn(self) -> None:
        """Hand the game so far, as EGN, to the writer thread (the loop never waits for the disk)."""
        if self.egn is None:
            return
        match = self.p.session.match
        self.egn.submit(dumps_egn(export_egn(match, players=list(self.p.names))))

    def _publish_league(self) -> None:
        """Hand the game's league events to the publisher's thread (it never waits on the network)."""
        league = self.p.league
        if league is None:
            return
        match = self.p.session.match
        game = game_key(self.p.session.log.header.created, match.history)
        named = league.settings.seats_named
        league.submit(match_events(league.settings.table, game, self.p.names, match, named))

    # ---- whole runs ----

    def run_headless(self, clock: Callable[[], float], max_idle_ticks: int = 0) -> None:
        """Run until the source ends (a file) or forever (a camera); then flush the log and export."""
        try:
            while not self.finished and not self.stop_requested:
                self.tick(clock())
            self.finish()
        finally:
            self.close()

    def finish(self) -> None:
        """Make everything durable and announced, and write the final EGN."""
        writer = self.p.session.writer
        flush = getattr(writer, "flush", None)
        if callable(flush):
            flush()
        released = self.p.session.release()
        if released:
            self._take_news(released)
            self._refresh(0.0, released)
        self._export_egn()
        if self.egn is not None:
            self._egn_flushed = self.egn.flush()
            if not self._egn_flushed:
                log.error("the EGN file %s was not written", self.egn.path)
            if self.egn.kept is not None:
                print(
                    f"euchre-table: warning: {self.egn.path} held a longer or finished game; "
                    f"it is kept at {self.egn.kept}",
                    file=sys.stderr,
                )
        if self.p.league is not None:
            self.p.league.drained(LEAGUE_GRACE_S)  # a moment for the last deal to reach the board; else it waits
        self._watch_storage(float("inf"))
        if self.view is None:
            self._refresh(0.0, [])  # the last screen shows what could not be saved

    def close(self) -> None:
        """Finish writing the EGN file and close the log and the detection cache (also after an error)."""
        try:
            if self.egn is not None:
                self.egn.close()
            if self.p.league is not None:
                self.p.league.close()  # what the board has not confirmed stays in the outbox for the next start
        finally:
            self.p.session.close()
            if self.p.detection_cache is not None:
                self.p.detection_cache.close()


def _reason(error: OSError) -> str:
    return "the disk is full" if error.errno == errno.ENOSPC else str(error.strerror or error)


def _reason_words(error: OSError) -> str:
    """`_reason` in the table's language (the system's own message is passed on as it is)."""
    return phrases.disk_full() if error.errno == errno.ENOSPC else str(error.strerror or error)


def free_below(folder: Path, margin: int) -> int | None:
    """``folder``'s free bytes when fewer than ``margin`` are left (None otherwise, or when it cannot be told)."""
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return None
    return free if free < margin else None


def _low_disk_line(free: int) -> str:
    return f"DISK ALMOST FULL: {free / 1e6:.1f} MB left for the score"


def low_disk_warning(folder: Path, margin: int) -> str:
    """A line for the journal when ``folder``'s disk has less than ``margin`` bytes free ('' otherwise)."""
    free = free_below(folder, margin)
    return _low_disk_line(free) if free is not None else ""


def process_age_s() -> float:
    """Seconds since this process started (Linux: from /proc; elsewhere since this module was imported)."""
    try:
        ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return max(0.0, uptime - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return time.monotonic() - _IMPORTED_AT


def whole_frame_calibration(width: int, height: int) -> Calibration:
    """The whole camera frame as the mat: for a camera set square over the table, before any markers are seen."""
    corners = ((0.0, 0.0), (float(width), 0.0), (float(width), float(height)), (0.0, float(height)))
    return Calibration.from_corners(corners)


def resume_point(session: TableSession) -> tuple[int, int]:
    """(last frame the log has judged, number of scripted buttons already pressed) from the log's metadata."""
    last_frame, buttons_done = -1, 0
    for entry in session.log.entries:
        if isinstance(entry.frame, int):
            last_frame = max(last_frame, entry.frame)
        meta: Any = entry.meta
        if isinstance(meta, dict) and isinstance(meta.get("script"), int):
            buttons_done = max(buttons_done, meta["script"] + 1)
    return last_frame, buttons_done


def surface_size(surface: pygame.Surface) -> tuple[int, int]:
    w, h = surface.get_size()
    return (w, h)
