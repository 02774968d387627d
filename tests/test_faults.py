"""Fault injection: ENOSPC and EIO on every file the app writes, SIGKILL during every kind of write, and every
kind of damaged line. Each case checks that no acknowledged input is lost and that the exit status and the
screen tell the truth. A real small tmpfs is used where the machine allows mounting one.

Run alone with ``pytest -m faults``; it is part of the default run too.
"""

from __future__ import annotations

import errno
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from test_storage_faults import _app  # noqa: E402

import table.log as table_log  # noqa: E402
from companion.detection_cache import DetectionCache  # noqa: E402
from companion.runner import App  # noqa: E402
from display.view import BannerKind  # noqa: E402
from table.inputs import Input  # noqa: E402
from table.log import MatchLog, read_log  # noqa: E402
from table.match import Match  # noqa: E402
from table.rules import Rules  # noqa: E402
from table.sim import simulate_deal  # noqa: E402

pytestmark = pytest.mark.faults

ROOT = Path(__file__).resolve().parents[1]
RULES = Rules.preset("north_american")
FAULTS = {"ENOSPC": errno.ENOSPC, "EIO": errno.EIO}
FILES = ("log", "egn", "cache", "screens")


def _error(name: str) -> OSError:
    return OSError(FAULTS[name], os.strerror(FAULTS[name]))


def _after(count: int, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
    """``real``, failing with ``name`` from its ``count``-th call on."""
    calls = [0]

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] > count:
            raise _error(name)
        return real(*args, **kwargs)

    return wrapped


class _FailingFile:
    """A text file whose writes fail from the ``count``-th on."""

    def __init__(self, inner: Any, count: int, name: str) -> None:
        self.inner = inner
        self.write = _after(count, name, inner.write)

    def flush(self) -> None:
        self.inner.flush()

    def close(self) -> None:
        self.inner.close()


def _inject(app: App, monkeypatch: pytest.MonkeyPatch, where: str, count: int, name: str) -> None:
    if where == "log":
        monkeypatch.setattr(table_log, "_write_all", _after(count, name, table_log._write_all))
    elif where == "egn":
        assert app.egn is not None
        app.egn._write = _after(count, name, app.egn._write)
    elif where == "cache":
        cache = app.p.detection_cache
        assert cache is not None and cache._out is not None
        cache._out = _FailingFile(cache._out, count, name)  # type: ignore[assignment]
    else:
        import pygame

        monkeypatch.setattr(pygame.image, "save", _after(count, name, pygame.image.save))


def _check_truth(app: App, folder: Path, saving_failed: bool) -> None:
    """No acknowledged input lost; the screen and the final status say what happened."""
    on_disk = read_log(folder / "match.jsonl")
    assert not [w for w in on_disk.warnings if "torn" not in w], on_disk.warnings  # no damaged line written
    history = list(app.p.session.match.history)
    writer: Any = app.p.session.writer
    # Every acknowledged (announced) input is on disk, in order, and nothing else is.
    assert on_disk.inputs == history[: writer.durable]
    assert app.storage_ok is not saving_failed
    if saving_failed:
        assert any("NOT SAVED" in a for a in app.alarms), app.alarms
        assert app.view is not None and app.view.banner is not None and app.view.banner.kind is BannerKind.ALARM
    else:
        assert not any("NOT SAVED" in a for a in app.alarms)


@pytest.mark.parametrize("fault", sorted(FAULTS))
@pytest.mark.parametrize("where", FILES)
def test_a_write_fault_on_each_file_at_a_random_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, fault: str
) -> None:
    rng = random.Random(f"{where}-{fault}")
    # Write counts of the scripted run: 8 inputs, one EGN export (at the end), 5 cache batches, 3 screenshots.
    limits = {"log": 7, "egn": 0, "cache": 3, "screens": 2}
    count = rng.randint(0, limits[where])
    app = _app(tmp_path, cache=True)
    _inject(app, monkeypatch, where, count, fault)
    app.run_headless(lambda: 0.0)
    _check_truth(app, tmp_path, saving_failed=where in ("log", "egn"))


# ---- SIGKILL during each kind of write ----

_WRITER = textwrap.dedent(
    """
    import json, sys, random
    from pathlib import Path
    sys.path.insert(0, {root!r})
    from table.log import MatchLog
    from table.match import Match
    from table.rules import Rules
    from table.sim import simulate_deal
    from companion.egn_writer import write_atomically
    from companion.detection_cache import DetectionCache
    from table.egn import dumps_egn, export_egn
    kind, folder = sys.argv[1], Path(sys.argv[2])
    rules = Rules.preset("north_american")
    rng = random.Random(1)
    match = Match(rules)
    n = 0
    game = 0
    if kind == "cache":
        cache = DetectionCache(folder / "detections.jsonl")
        while True:
            cache.put(n, [])
            cache.flush()
            print(n, flush=True)
            n += 1
    while True:
        if kind == "create":
            path = folder / f"log-{{n}}.jsonl"
            MatchLog.create(path, rules).close()
            print(n, flush=True)
            n += 1
            continue
        deal = simulate_deal(rules, rng, match.dealer, number=n)
        if match.game_over:
            match = Match(rules, match.dealer)
            game += 1  # a new game: its record is a new file, so what was acknowledged of the last one stays
        if kind == "log":
            log = MatchLog.open_or_create(folder / "match.jsonl", rules)
            for inp in deal.inputs:
                log.append(inp)
                print(len(log.entries), flush=True)  # acknowledged: on disk
            log.close()
        for inp in deal.inputs:
            match.apply(inp)
        if kind == "egn":
            write_atomically(folder / f"game-{{game}}.egn", dumps_egn(export_egn(match)))
            # acknowledged: that game's file holds this many deals
            print(f"{{game}}:{{len(export_egn(match)['deals'])}}", flush=True)
        n += 1
    """
)


def _acknowledged_then_killed(kind: str, folder: Path, after_s: float) -> str | None:
    script = folder / "writer.py"
    script.write_text(_WRITER.format(root=str(ROOT)))
    proc = subprocess.Popen(
        [sys.executable, str(script), kind, str(folder)], stdout=subprocess.PIPE, text=True, cwd=folder
    )
    assert proc.stdout is not None
    # The kill's clock starts at the writer's first acknowledgement, not at its launch: on a loaded machine the
    # interpreter's start and imports can take longer than after_s, and a writer killed before it wrote
    # anything tests nothing (and left no log to read).
    first = proc.stdout.readline()
    time.sleep(after_s)
    proc.send_signal(signal.SIGKILL)
    out, _ = proc.communicate(timeout=30)
    acknowledged = (first + out).split()
    return acknowledged[-1] if acknowledged else None  # the last acknowledgement the writer printed whole


@pytest.mark.parametrize("kind", ["log", "create", "egn", "cache"])
def test_sigkill_during_each_kind_of_write_loses_nothing_acknowledged(tmp_path: Path, kind: str) -> None:
    rng = random.Random(kind)
    for attempt in range(2):
        folder = tmp_path / f"{kind}-{attempt}"
        folder.mkdir()
        token = _acknowledged_then_killed(kind, folder, rng.uniform(1.0, 2.5))
        if kind == "egn":
            if token is not None:
                game, deals = (int(x) for x in token.split(":"))
                egn = json.loads((folder / f"game-{game}.egn").read_text())
                assert len(egn["deals"]) >= deals
            continue
        last = int(token) if token is not None else -1
        if kind == "log":
            contents = read_log(folder / "match.jsonl")
            assert len(contents.inputs) >= last
            assert all("torn" in w for w in contents.warnings), contents.warnings
            with MatchLog.open(folder / "match.jsonl") as log:  # resumes on a clean line
                assert len(log.inputs) == len(contents.inputs)
        elif kind == "create":
            for n in range(last + 1):
                assert read_log(folder / f"log-{n}.jsonl").inputs == []
            for path in folder.glob("log-*.jsonl"):
                read_log(path)  # every log that exists is whole: the header appears by rename
        else:
            cache = DetectionCache(folder / "detections.jsonl")
            # Not fsynced by design: a kill of the process (not of the machine) still loses nothing flushed.
            assert all(cache.get(n) == [] for n in range(last + 1))
            cache.close()


# ---- every kind of damaged line ----


def _inputs(deals: int = 4) -> list[Input]:
    rng = random.Random(11)
    match = Match(RULES)
    out: list[Input] = []
    for number in range(deals):
        for inp in simulate_deal(RULES, rng, match.dealer, number=number).inputs:
            match.apply(inp)
            out.append(inp)
    return out


def _damages(line: bytes, rng: random.Random) -> Iterator[tuple[str, bytes | None]]:
    """(what, the damaged line; None removes it) for one line of a log."""
    yield "cut short", line[: rng.randrange(1, len(line))]
    yield "NUL bytes", b"\x00" * len(line)
    yield "NUL inside", line[:5] + b"\x00\x00" + line[7:]
    flip = rng.randrange(len(line))
    yield "one byte changed", line[:flip] + bytes([line[flip] ^ 0x5A]) + line[flip + 1 :]
    yield "not UTF-8", b"\xff\xfe" + line
    yield "deep", b"[" * 100_000
    yield "huge", b'{"i":1,"type":"Pass","seat":1,"meta":"' + b"x" * 200_000 + b'"}'
    yield "two lines glued", line + line
    yield "empty", b""
    yield "lost", None


def test_every_kind_of_damaged_line_costs_at_most_that_line(tmp_path: Path) -> None:
    inputs = _inputs()
    clean = tmp_path / "clean.jsonl"
    with MatchLog.create(clean, RULES) as log:
        for inp in inputs:
            log.append(inp)
    lines = clean.read_bytes().split(b"\n")[:-1]
    rng = random.Random(3)
    checked = 0
    for target in sorted(rng.sample(range(1, len(lines)), 6)):
        for what, damaged in _damages(lines[target], rng):
            body = lines[:target] + ([] if damaged is None else [damaged]) + lines[target + 1 :]
            path = tmp_path / f"damaged-{checked}.jsonl"
            path.write_bytes(b"\n".join(body) + b"\n")
            contents = read_log(path)  # never raises
            kept = contents.inputs
            lost = inputs[target - 1]
            # Every other line is kept; the damaged one may survive when what is left still reads as it.
            others = inputs[: target - 1] + inputs[target:]
            assert kept in (others, inputs) or (what == "one byte changed" and len(kept) >= len(others)), what
            with MatchLog.open(path) as log:  # and the match resumes on it
                log.append(lost)
            checked += 1
    assert checked == 60


# ---- a real small tmpfs, where the machine allows one ----


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root; the injected faults above cover the same ground")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_a_real_disk_filling_mid_game(small_disk: Path) -> None:
    folder = small_disk / "out"
    folder.mkdir()
    app = _app(folder, cache=True)
    filler = small_disk / "filler"
    tick = 0
    while not app.finished:
        app.tick(float(tick))
        tick += 1
        if tick == 55:  # mid-trick: the disk fills
            with open(filler, "wb") as f, pytest.raises(OSError):
                while True:
                    f.write(b"\0" * 65536)
                    f.flush()
    app.finish()
    app.close()
    _check_truth(app, folder, saving_failed=True)
