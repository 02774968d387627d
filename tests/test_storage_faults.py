"""A full or failing disk: the log and the EGN file raise an alarm (screen, speech, journal) and the run never
claims success; the detection cache and the screenshots are best effort and never stop the game."""

from __future__ import annotations

import argparse
import errno
import json
import logging
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import table.log as table_log  # noqa: E402
from companion.buttons_script import ButtonScript, parse_buttons  # noqa: E402
from companion.detection_cache import DetectionCache  # noqa: E402
from companion.egn_writer import write_atomically  # noqa: E402
from companion.runner import App, AppParts, HeadlessRecorder, resume_point, whole_frame_calibration  # noqa: E402
from companion.session import TableSession, ThreadedLogWriter  # noqa: E402
from display.speech import FakeSpeaker  # noqa: E402
from display.view import BannerKind  # noqa: E402
from table.cards import Card  # noqa: E402
from table.inputs import Pass, UpCard  # noqa: E402
from table.log import MatchLog, read_log  # noqa: E402
from table.rules import Rules  # noqa: E402
from vision.detection import CardDetection  # noqa: E402
from vision.sources import FakeSource  # noqa: E402
from vision.tracker import Tracker  # noqa: E402
from vision.zones import TableLayout  # noqa: E402

W, H = 640, 480
C = Card.parse
CENTRES = {"kitty": (0.78, 0.22), 0: (0.50, 0.77), 1: (0.23, 0.50), 2: (0.50, 0.23), 3: (0.77, 0.50)}
TIMELINE = [
    (0, 30, "kitty", "9h"),
    (40, 90, 1, "Ah"),
    (50, 90, 2, "Kh"),
    (60, 90, 3, "Qh"),
    (70, 90, 0, "Th"),
    (100, 140, 1, "Jh"),
]
BUTTONS = '{"frame": 20, "action": "call"}\n'
ENOSPC = OSError(errno.ENOSPC, "No space left on device")


class ScriptedDetector:
    def detect(self, frame_bgr: npt.NDArray[np.uint8], frame: int = 0) -> list[CardDetection]:
        out = []
        for start, end, zone, card in TIMELINE:
            if start <= frame < end:
                x, y = CENTRES[zone]  # type: ignore[index]
                out.append(CardDetection(C(card), 0.95, (x * W - 20, y * H - 28, x * W + 20, y * H + 28), frame))
        return out


def _app(folder: Path, *, egn_write: Callable[[Path, str], None] | None = None, cache: bool = False) -> App:
    match_log = MatchLog.open_or_create(folder / "match.jsonl", Rules.preset("north_american"))
    session = TableSession(match_log, ThreadedLogWriter(match_log, retry_s=0.01))
    last_frame, done = resume_point(session)
    source = FakeSource(count=140, size=(W, H))
    source.open()
    parts = AppParts(
        session=session,
        names=("North", "East", "South", "West"),
        source=source,
        detector=ScriptedDetector(),
        tracker=Tracker(whole_frame_calibration(W, H), TableLayout()),
        buttons=ButtonScript(parse_buttons(BUTTONS), done=done),
        speaker=FakeSpeaker(),
        recorder=HeadlessRecorder(folder),
        egn_path=folder / "game.egn",
        resume_frame=last_frame,
        detection_cache=DetectionCache(folder / "detections.jsonl") if cache else None,
    )
    app = App(parts)
    if egn_write is not None:
        assert app.egn is not None
        app.egn._write = egn_write
    return app


def _fill_the_disk_after(monkeypatch: pytest.MonkeyPatch, lines: int) -> list[int]:
    """Every log write after the first ``lines`` fails with ENOSPC (an injected fault)."""
    real = table_log._write_all
    calls = [0]

    def write(fd: int, data: bytes) -> None:
        calls[0] += 1
        if calls[0] > lines:
            raise ENOSPC
        real(fd, data)

    monkeypatch.setattr(table_log, "_write_all", write)
    return calls


def test_a_full_disk_under_the_log_is_an_alarm_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    app = _app(tmp_path)
    _fill_the_disk_after(monkeypatch, 3)
    with caplog.at_level(logging.ERROR):
        app.run_headless(lambda: 0.0)
    assert app.alarm.startswith("SCORE NOT SAVED: the disk is full"), app.alarm
    assert app.view is not None and app.view.banner is not None
    assert app.view.banner.kind is BannerKind.ALARM and "SCORE NOT SAVED" in app.view.banner.text
    speaker = app.p.speaker
    assert isinstance(speaker, FakeSpeaker)
    assert ("Warning. The score is not being saved.", True) in speaker.said
    assert any("SCORE NOT SAVED" in r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR)
    assert not app.storage_ok
    # What is on disk is whole: the three lines written, no torn fourth.
    assert len(read_log(tmp_path / "match.jsonl").inputs) == 3


def test_run_exits_non_zero_with_log_ok_0_when_the_disk_fills(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import companion.builder as builder
    from companion.commands.run import EXIT_NOT_SAVED, run_app
    from companion.config import Config

    app = _app(tmp_path)
    monkeypatch.setattr(builder, "build_app", lambda config, request: app)
    _fill_the_disk_after(monkeypatch, 2)
    args = argparse.Namespace(
        headless=True, out=tmp_path, buttons=None, fresh=False, calibration=None, model=None, backend=None
    )
    status = run_app(Config(), "fake", args)
    out, err = capsys.readouterr()
    assert status == EXIT_NOT_SAVED != 0
    assert "log_ok=0" in out.split()
    assert "the score was not saved in full" in err


def test_the_log_catches_up_when_space_is_freed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    match_log = MatchLog.create(tmp_path / "match.jsonl", Rules.preset("north_american"))
    writer = ThreadedLogWriter(match_log, retry_s=0.01)
    calls = _fill_the_disk_after(monkeypatch, 1)
    writer.submit(UpCard(C("9h")), frame=1, meta=None)
    writer.submit(Pass(1), frame=2, meta=None)
    assert not writer.flush(timeout=5.0) and writer.error is not None
    calls[0] = -10**6  # space freed
    assert writer.flush(timeout=5.0) and writer.error is None and writer.failures >= 1
    writer.close()
    assert read_log(tmp_path / "match.jsonl").inputs == [UpCard(C("9h")), Pass(1)]


def test_a_failed_egn_write_is_an_alarm_and_leaves_no_empty_temporary_file(tmp_path: Path) -> None:
    def full(path: Path, text: str) -> None:
        tmp = path.with_name(path.name + ".tmp")
        with open("/dev/full", "w", encoding="utf-8") as f:  # a real ENOSPC
            f.write(text)
            f.flush()
        tmp.write_text("")  # (never reached)

    app = _app(tmp_path, egn_write=full)
    app.run_headless(lambda: 0.0)
    assert app.alarm.startswith("GAME FILE NOT SAVED"), app.alarm
    assert not app.storage_ok
    assert not (tmp_path / "game.egn").exists() and not (tmp_path / "game.egn.tmp").exists()


def test_write_atomically_removes_its_temporary_file_when_the_disk_is_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_fsync = os.fsync

    def failing_fsync(fd: int) -> None:
        raise ENOSPC

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError):
        write_atomically(tmp_path / "game.egn", "{}")
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert list(tmp_path.iterdir()) == []


def test_the_detection_cache_on_a_full_disk_warns_once_and_the_game_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = _app(tmp_path, cache=True)
    cache = app.p.detection_cache
    assert cache is not None
    cache._out = open("/dev/full", "w", encoding="utf-8")  # noqa: SIM115 - the cache owns and closes it
    with caplog.at_level(logging.WARNING):
        app.run_headless(lambda: 0.0)  # never raises, closing included
    warnings = [r for r in caplog.records if "detection cache" in r.getMessage()]
    assert len(warnings) == 1 and cache.failed is not None
    assert app.storage_ok and app.alarm == ""
    assert len(read_log(tmp_path / "match.jsonl").inputs) >= 6  # the whole scripted trick was logged


def test_failing_screenshots_are_warned_about_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import pygame

    def no_space(surface: object, path: str) -> None:
        raise pygame.error("Couldn't write: No space left on device")

    monkeypatch.setattr(pygame.image, "save", no_space)
    app = _app(tmp_path)
    with caplog.at_level(logging.WARNING):
        app.run_headless(lambda: 0.0)
    assert len([r for r in caplog.records if "screenshots are not saved" in r.getMessage()]) == 1
    assert app.storage_ok and app.alarm == ""


def test_a_repeated_run_does_not_grow_the_detection_cache(tmp_path: Path) -> None:
    cache_path = tmp_path / "detections.jsonl"
    for _ in range(2):
        app = _app(tmp_path, cache=True)
        app.run_headless(lambda: 0.0)
        size = cache_path.stat().st_size
        (tmp_path / "match.jsonl").unlink()  # the same recording run again from the start
    assert cache_path.stat().st_size == size
    frames = [json.loads(line)["f"] for line in cache_path.read_text().splitlines()]
    assert len(frames) == len(set(frames)) == 140


def test_low_free_space_is_shown_before_anything_is_lost(tmp_path: Path) -> None:
    app = _app(tmp_path)
    app.p.disk_margin_bytes = 1 << 62  # more than any disk has: the warning must show
    app.tick(0.0)
    assert app.alarm.startswith("DISK ALMOST FULL"), app.alarm
    assert app.view is not None and app.view.banner is not None and app.view.banner.kind is BannerKind.ALARM
    app.finish()
    app.close()
    assert app.storage_ok  # a warning, nothing lost


def test_a_shrinking_free_space_updates_the_banner_without_saying_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import companion.runner as runner

    free = [30e6]
    monkeypatch.setattr(runner, "free_below", lambda folder, margin: int(free[0]))
    app = _app(tmp_path)
    app.tick(0.0)
    free[0] = 20e6
    app.tick(100.0)
    assert app.alarm == "DISK ALMOST FULL: 20.0 MB left for the score"
    assert app.view is not None and app.view.banner is not None
    assert app.view.banner.text == "DISK ALMOST FULL: 20.0 MB left for the score"
    speaker = app.p.speaker
    assert isinstance(speaker, FakeSpeaker)
    assert [text for text, _ in speaker.said if text.startswith("Warning")] == ["Warning. Disk almost full."]
    app.finish()
    app.close()


def test_the_alarm_is_shown_and_said_in_the_tables_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.runner as runner
    from display.i18n import using

    monkeypatch.setattr(runner, "free_below", lambda folder, margin: 20_500_000)
    with using("da"):
        app = _app(tmp_path)
        app.tick(0.0)
    assert app.alarm == "DISK ALMOST FULL: 20.5 MB left for the score"  # the journal's words
    assert app.view is not None and app.view.banner is not None
    assert app.view.banner.text == "DISKEN ER NÆSTEN FULD: 20,5 MB tilbage til pointene"
    speaker = app.p.speaker
    assert isinstance(speaker, FakeSpeaker) and ("Advarsel. Disken er næsten fuld.", True) in speaker.said
    app.finish()
    app.close()
