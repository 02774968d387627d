"""``run`` checks before it acts, keeps a bigger game it finds, stops cleanly on SIGTERM and gives up on a
camera that never opens (on a terminal)."""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import time
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import companion.builder as builder  # noqa: E402
from companion.builder import RunRequest, build_app  # noqa: E402
from companion.commands.run import run_app  # noqa: E402
from companion.config import Config  # noqa: E402
from companion.egn_writer import EgnWriter  # noqa: E402
from companion.errors import UserError  # noqa: E402
from companion.runner import App, AppParts, CameraNeverOpened  # noqa: E402
from companion.sdnotify import Notifier  # noqa: E402
from companion.session import TableSession, ThreadedLogWriter  # noqa: E402
from table.cards import Card  # noqa: E402
from table.egn import dumps_egn, export_egn  # noqa: E402
from table.inputs import Pass, UpCard  # noqa: E402
from table.log import MatchLog, read_log  # noqa: E402
from table.match import Match  # noqa: E402
from table.rules import Rules  # noqa: E402
from table.sim import simulate_deal  # noqa: E402
from vision.sources import FakeSource, Frame  # noqa: E402
from vision.sources.resilient import ResilientSource  # noqa: E402

RULES = Rules.preset("north_american")


def _egn(deals: int, finish: bool) -> str:
    import random

    rng = random.Random(5)
    match = Match(RULES)
    number = 0
    while (finish and not match.game_over) or (not finish and number < deals):
        for inp in simulate_deal(RULES, rng, match.dealer, number=number).inputs:
            match.apply(inp)
        number += 1
    return dumps_egn(export_egn(match))


# ---- the EGN writer never replaces a bigger game ----


def test_a_finished_game_is_kept_beside_a_shorter_one(tmp_path: Path) -> None:
    path = tmp_path / "game.egn"
    won = _egn(0, finish=True)
    path.write_text(won)
    writer = EgnWriter(path)
    writer.submit(_egn(2, finish=False))
    assert writer.close()
    assert writer.kept is not None and writer.kept.parent == tmp_path and writer.kept.name.startswith("game-kept-")
    assert writer.kept.read_text() == won
    assert len(json.loads(path.read_text())["deals"]) == 2


def test_a_longer_game_replaces_its_own_beginning(tmp_path: Path) -> None:
    path = tmp_path / "game.egn"
    path.write_text(_egn(2, finish=False))
    writer = EgnWriter(path)
    writer.submit(_egn(3, finish=False))
    assert writer.close() and writer.kept is None
    assert [p.name for p in tmp_path.iterdir()] == ["game.egn"]


# ---- --fresh and a new match check the whole command first ----


def _old_match(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with MatchLog.create(folder / "match.jsonl", RULES) as log:
        log.append(UpCard(Card.parse("9h")))
        log.append(Pass(1))
    (folder / "game.egn").write_text(_egn(1, finish=False))
    (folder / "detections.jsonl").write_text('{"f":0,"d":[]}\n')


@pytest.mark.parametrize(
    ("what", "request_changes"),
    [
        ("source", {"source": "images:/no/such/folder"}),
        ("buttons", {"buttons_file": Path("/no/such/buttons.jsonl")}),
        ("model", {"model": Path("/no/such/model.onnx")}),
        ("calibration", {"calibration": Path("/no/such/table.json")}),
    ],
)
def test_fresh_with_a_bad_part_moves_nothing(tmp_path: Path, what: str, request_changes: dict[str, object]) -> None:
    folder = tmp_path / "data"
    _old_match(folder)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    frames = tmp_path / "frames"
    frames.mkdir()
    fields: dict[str, object] = {"source": f"images:{frames}", "headless": True, "out_dir": folder,
                                 "buttons_file": None, "fresh": True}
    fields.update(request_changes)
    with pytest.raises(UserError):
        build_app(Config(), RunRequest(**fields))  # type: ignore[arg-type]
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before  # nothing archived, deleted or added


def test_a_failed_run_creates_no_data_folder(tmp_path: Path) -> None:
    folder = tmp_path / "var" / "lib" / "euchre-table"
    with pytest.raises(UserError):
        build_app(Config(), RunRequest("images:/no/such/folder", True, folder, None, False))
    assert not (tmp_path / "var").exists()


def test_fresh_archives_the_game_with_its_log(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    _old_match(folder)
    moved = builder.archive_log(folder)
    assert moved is not None and moved.with_suffix(".egn").exists()
    assert not (folder / "game.egn").exists() and not (folder / "detections.jsonl").exists()


# ---- SIGTERM, and a camera that never opens ----


def _endless_app(folder: Path, source: object, notify: str = "") -> App:
    match_log = MatchLog.open_or_create(folder / "match.jsonl", RULES)
    session = TableSession(match_log, ThreadedLogWriter(match_log))
    parts = AppParts(
        session=session, names=("N", "E", "S", "W"), source=source,  # type: ignore[arg-type]
        notifier=Notifier(notify), egn_path=folder / "game.egn",
    )
    return App(parts)


def _args(folder: Path) -> argparse.Namespace:
    return argparse.Namespace(
        headless=True, out=folder, buttons=None, fresh=False, calibration=None, model=None, backend=None
    )


class _TermAt(FakeSource):
    """A camera that never ends; SIGTERM comes while the loop reads frame ``at`` (so never before ``run`` has
    set its handler: a signal on a timer could, on a busy machine, and would end the test process)."""

    def __init__(self, at: int, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.at = at
        self.sent = False

    def read(self) -> Frame | None:
        frame = super().read()
        if frame is not None and frame.number == self.at:
            self.sent = True
            os.kill(os.getpid(), signal.SIGTERM)
        return frame


def test_sigterm_finishes_the_writes_sends_stopping_and_exits_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    address = str(tmp_path / "notify.sock")
    listener.bind(address)
    listener.settimeout(10.0)
    source = _TermAt(5, count=10**9)
    source.open()
    app = _endless_app(tmp_path, source, address)
    app.p.session.submit(UpCard(Card.parse("9h")))  # an input on its way to the disk
    monkeypatch.setattr(builder, "build_app", lambda config, request: app)
    status = run_app(Config(), "fake", _args(tmp_path))
    assert source.sent
    messages = []
    listener.settimeout(0.5)
    try:
        while True:
            messages.append(listener.recv(4096).decode())
    except TimeoutError:
        pass
    listener.close()
    assert status == 0
    assert "STOPPING=1" in messages
    out = capsys.readouterr().out
    assert "log_ok=1" in out.split() and "stopped=1" in out.split()
    assert read_log(tmp_path / "match.jsonl").inputs == [UpCard(Card.parse("9h"))]
    assert (tmp_path / "game.egn").exists()


class _Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        self.t += 0.5
        return self.t


def test_a_camera_that_never_opens_ends_the_run_on_a_terminal(tmp_path: Path) -> None:
    clock = _Clock()
    never = ResilientSource(FakeSource(count=10, fail_opens=10**9), clock=clock, sleep=lambda s: None,
                            report=lambda line: None)
    never.open()
    app = _endless_app(tmp_path, never)
    app.p.camera_timeout_s = 15.0
    with pytest.raises(CameraNeverOpened, match="no picture after 15 s"):
        app.run_headless(clock)
    assert clock.t < 30.0


def test_run_turns_a_camera_that_never_opens_into_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = _Clock()
    never = ResilientSource(FakeSource(count=10, fail_opens=10**9), clock=clock, sleep=lambda s: None,
                            report=lambda line: None)
    app = _endless_app(tmp_path, never)
    app.p.camera_timeout_s = 0.01
    monkeypatch.setattr(builder, "build_app", lambda config, request: app)
    started = time.monotonic()
    with pytest.raises(UserError, match="no picture after"):
        run_app(Config(), "camera:99", _args(tmp_path))
    assert time.monotonic() - started < 30


def test_under_systemd_the_camera_is_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INVOCATION_ID", "0123")
    assert not builder.on_a_terminal()


def test_a_run_whose_log_lost_a_line_keeps_the_won_game_beside_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from test_storage_faults import _app

    won = _egn(0, finish=True)
    (tmp_path / "game.egn").write_text(won)  # the won game, from before a line of its log was damaged
    app = _app(tmp_path)
    app.run_headless(lambda: 0.0)
    kept = list(tmp_path.glob("game-kept-*.egn"))
    assert len(kept) == 1 and kept[0].read_text() == won
    assert "held a longer or finished game; it is kept at" in capsys.readouterr().err
    assert app.storage_ok
