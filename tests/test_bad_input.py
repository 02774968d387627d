"""Bad input from outside gets one clear message naming the file and the problem, and loses nothing logged."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from table.cards import Card
from table.inputs import Pass, UpCard
from table.log import MatchLog, read_log
from table.rules import Rules


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], capture_output=True, text=True, env=env, timeout=120
    )


def _one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("euchre-table: error:")]
    assert len(errors) == 1, result.stderr
    return errors[0]


def test_a_malformed_config_is_named(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[camera]\nsource = 'camera:0'\nmains_hz = 55\n")
    line = _one_error_line(_cli("run", "--config", str(config), "--headless", "--out", str(tmp_path / "o")))
    assert str(config) in line and "mains_hz must be 50 or 60" in line


def test_an_unknown_rules_switch_is_named(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[rules]\npreset = 'british'\nstick_the_deeler = true\n")
    line = _one_error_line(_cli("run", "--config", str(config), "--headless", "--out", str(tmp_path / "o")))
    assert str(config) in line and "[rules]" in line and "stick_the_deeler" in line


def test_a_missing_model_is_named_and_the_log_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "o"
    out.mkdir()
    log_path = out / "match.jsonl"
    with MatchLog.create(log_path, Rules.preset("north_american")) as log:
        log.append(UpCard(Card.parse("9h")))
        log.append(Pass(1))
    # A power cut left a torn line behind, and something scribbled on a line in the middle.
    text = log_path.read_text().splitlines(keepends=True)
    log_path.write_text(text[0] + text[1] + "{garbage\n" + text[2] + '{"i": 3, "type": "Pa')
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0000.png"), np.zeros((48, 64, 3), np.uint8))
    model = tmp_path / "no-such-model.onnx"
    result = _cli("run", "--source", f"images:{frames}", "--headless", "--out", str(out), "--model", str(model))
    line = _one_error_line(result)
    assert str(model) in line and "model not found" in line
    assert f"{log_path}: line 3" in result.stderr  # the scribbled line, named, skipped
    assert read_log(log_path).inputs == [UpCard(Card.parse("9h")), Pass(1)]


def test_a_corrupt_egn_is_named(tmp_path: Path) -> None:
    egn = tmp_path / "game.egn"
    egn.write_text('{"fileType": "Euchre Game Notation", "version": "1.4", "deals": [{"dealNumber": 0}]}')
    line = _one_error_line(_cli("replay", str(egn)))
    assert str(egn) in line


def test_a_missing_source_folder_is_named(tmp_path: Path) -> None:
    line = _one_error_line(
        _cli("run", "--source", f"images:{tmp_path / 'nope'}", "--headless", "--out", str(tmp_path / "o"))
    )
    assert "nope" in line
