"""Hostile files (deep nesting, huge, not a regular file) get one clear line, never a RecursionError; a log
with a bad line or an unreadable header never stops ``run`` from starting."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from companion.builder import check_calibration_file, open_session  # noqa: E402
from companion.buttons_script import load_buttons  # noqa: E402
from companion.config import Config, load_config  # noqa: E402
from companion.errors import UserError  # noqa: E402
from table.cards import Card  # noqa: E402
from table.egn import EgnError, load_egn, loads_egn  # noqa: E402
from table.inputs import Pass, UpCard  # noqa: E402
from table.limits import LimitError, check_depth  # noqa: E402
from table.log import LogError, MatchLog, read_log  # noqa: E402
from table.rules import Rules  # noqa: E402

DEEP = "[" * 100_000


def test_depth_is_measured_outside_strings() -> None:
    check_depth('{"note": "' + "[" * 500 + '"}')  # brackets in a string are text
    check_depth("[" * 64 + "]" * 64)
    with pytest.raises(LimitError, match="nested deeper than 64"):
        check_depth("[" * 65 + "]" * 65)
    with pytest.raises(LimitError, match="nested deeper than 64"):
        check_depth(DEEP)


def test_a_deep_log_line_is_skipped_and_the_lines_after_it_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    with MatchLog.create(path, Rules.preset("north_american")) as log:
        log.append(UpCard(Card.parse("9h")))
        log.append(Pass(1))
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], lines[1], "[" * 5000, lines[2]]) + "\n")
    contents = read_log(path)
    assert contents.inputs == [UpCard(Card.parse("9h")), Pass(1)]
    assert len(contents.warnings) == 1 and "line 3: skipped a damaged line: nested deeper" in contents.warnings[0]


def test_a_deep_log_header_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_text(DEEP + "\n")
    with pytest.raises(LogError, match="line 1 .header.: 100,000 bytes, more than"):
        read_log(path)
    path.write_text("[" * 1000 + "\n")
    with pytest.raises(LogError, match="nested deeper than 64"):
        read_log(path)


def test_run_starts_with_a_bad_log_line_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.jsonl"
    with MatchLog.create(path, Rules.preset("north_american")) as log:
        log.append(UpCard(Card.parse("9h")))
    with path.open("a") as f:
        f.write(DEEP + "\n")
    session = open_session(Config(), tmp_path, fresh=False)
    try:
        assert session.log.inputs == [UpCard(Card.parse("9h"))]
    finally:
        session.close()
    assert "line 3: skipped a damaged line" in capsys.readouterr().err


def test_run_starts_when_the_log_header_is_unreadable_and_keeps_the_old_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "match.jsonl"
    path.write_text(DEEP + "\n")
    (tmp_path / "game.egn").write_text("{}")
    session = open_session(Config(), tmp_path, fresh=False)
    session.close()
    kept = list((tmp_path / "archive").glob("damaged-*.jsonl"))
    assert len(kept) == 1 and kept[0].read_text() == DEEP + "\n"
    assert read_log(path).inputs == []  # a new match
    err = capsys.readouterr().err
    assert "a new match starts" in err and str(kept[0]) in err


def test_a_deep_egn_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(EgnError, match="nested deeper than 64"):
        loads_egn(DEEP, "deep.egn")
    path = tmp_path / "deep.egn"
    path.write_text('{"fileType": "Euchre Game Notation", "deals": ' + DEEP + "}")
    with pytest.raises(EgnError, match=f"{path}: nested deeper than 64"):
        load_egn(path)


def test_egn_version_as_a_number_is_named() -> None:
    text = '{"fileType": "Euchre Game Notation", "version": 1.4, "deals": []}'
    with pytest.raises(EgnError, match='version: must be a string such as "1.4", not the number 1.4'):
        loads_egn(text, "g.egn")


def test_deep_buttons_config_and_calibration_are_one_line(tmp_path: Path) -> None:
    buttons = tmp_path / "buttons.jsonl"
    buttons.write_text(DEEP + "\n")
    with pytest.raises(UserError, match="line 1: not a button press: .*bytes, more than"):
        load_buttons(buttons)
    buttons.write_text("[" * 1000 + "\n")
    with pytest.raises(UserError, match="line 1: not a button press: nested deeper than 64"):
        load_buttons(buttons)
    config = tmp_path / "table.toml"
    config.write_text("a = " + DEEP + "\n")
    with pytest.raises(UserError, match="not a config file: nested deeper than 64"):
        load_config(config)
    calibration = tmp_path / "table.json"
    calibration.write_text('{"calibration": ' + DEEP + "}")
    with pytest.raises(UserError, match="not a table calibration: nested deeper than 64"):
        check_calibration_file(calibration)


def test_replay_refuses_a_fifo_instead_of_waiting_on_it(tmp_path: Path) -> None:
    fifo = tmp_path / "game.egn"
    os.mkfifo(fifo)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(fifo)],
        capture_output=True, text=True, timeout=60, env=env,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "is a FIFO, not a regular file" in lines[0] and str(fifo) in lines[0]


@pytest.mark.parametrize("where", ["egn", "log"])
def test_replay_of_a_deep_file_is_one_line(tmp_path: Path, where: str) -> None:
    path = tmp_path / "x"
    if where == "egn":
        path.write_text('{"fileType": "Euchre Game Notation", "version": "1.4", "deals": ' + "[" * 5000 + "}")
    else:
        with MatchLog.create(path, Rules.preset("north_american")):
            pass
        with path.open("a") as f:
            f.write("[" * 5000 + "\n")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(path)], capture_output=True, text=True, timeout=60, env=env
    )
    assert "Traceback" not in result.stderr and "RecursionError" not in result.stderr
    if where == "egn":
        assert result.returncode == 2 and "nested deeper than 64" in result.stderr
    else:
        assert result.returncode == 0 and "line 2: skipped a damaged line: nested deeper" in result.stderr
