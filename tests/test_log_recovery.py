"""Recovery keeps every readable line: a damaged sequence number costs no input, and the lines after it are kept."""

from __future__ import annotations

import json
import random
from pathlib import Path

from table.inputs import Input
from table.log import MatchLog, load_match, read_log
from table.match import Match
from table.rules import Rules
from table.sim import simulate_deal

RULES = Rules.preset("north_american")


def _inputs(deals: int, seed: int = 7) -> list[Input]:
    rng = random.Random(seed)
    match = Match(RULES)
    out: list[Input] = []
    for number in range(deals):
        if match.game_over:
            break
        for inp in simulate_deal(RULES, rng, match.dealer, number=number).inputs:
            match.apply(inp)
            out.append(inp)
    return out


def _log(tmp_path: Path, inputs: list[Input]) -> Path:
    path = tmp_path / "match.jsonl"
    with MatchLog.create(path, RULES) as log:
        for inp in inputs:
            log.append(inp)
    return path


def _set_i(path: Path, line_index: int, i: object) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    obj = json.loads(lines[line_index])
    obj["i"] = i
    lines[line_index] = json.dumps(obj, separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_an_i_that_jumps_ahead_keeps_the_lines_after_it(tmp_path: Path) -> None:
    inputs = _inputs(8)
    assert len(inputs) > 100
    path = _log(tmp_path, inputs)
    _set_i(path, 51, 90)  # the input numbered 50 now says 90
    contents = read_log(path)
    assert contents.inputs == inputs  # nothing dropped: the 40 good lines after it are kept
    assert len(contents.warnings) == 2, contents.warnings
    assert '"i" jumps from 49 to 90' in contents.warnings[0]
    assert '"i" = 51 goes back after 90' in contents.warnings[1]
    assert contents.next_i == len(inputs)  # the highest number is 90 < len(inputs): new lines follow it
    match, _ = load_match(path)
    assert match.score == Match.replay(RULES, inputs).score


def test_a_repeated_or_missing_i_is_a_warning_and_the_input_is_kept(tmp_path: Path) -> None:
    inputs = _inputs(3)
    path = _log(tmp_path, inputs)
    _set_i(path, 11, 9)  # the 10th input repeats the 9th's number
    _set_i(path, 21, "twenty")
    contents = read_log(path)
    assert contents.inputs == inputs
    assert any('"i" = 9 repeats after 9' in w for w in contents.warnings)
    assert any('"i" must be a whole number, not "twenty"' in w for w in contents.warnings)


def test_appending_after_a_damaged_number_never_repeats_a_number(tmp_path: Path) -> None:
    inputs = _inputs(3)
    path = _log(tmp_path, inputs[:30])
    _set_i(path, 20, 500)
    with MatchLog.open(path) as log:
        log.append(inputs[30])
    last = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
    assert last["i"] == 501
    assert read_log(path).inputs == inputs[:31]
