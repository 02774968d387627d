"""Crash safety of the match log: SIGKILL a writer at random moments; no acknowledged input is ever lost.

A child process appends the inputs of a scripted match (the EGN example games,
one after another, twice) to one log, resuming where the log ends, and prints each
position after ``append`` returns: the acknowledgement the app waits for
before it shows an announcement. The parent kills it with SIGKILL at a random
moment, many times over. After every kill the log must replay to exactly a
prefix of the script that holds every acknowledged input, and the match it
folds into must equal the match of that prefix.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from table.codec import input_to_dict
from table.egn import import_egn
from table.inputs import Input, NewGame
from table.log import load_match, read_log
from table.match import Match
from table.rules import Rules

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="SIGKILL is POSIX-only")

RULES = Rules.preset("north_american").replace(stick_the_dealer=True)  # the examples' "std": true
RUNS = 32
EXAMPLES = sorted((Path(__file__).parent / "data" / "egn").glob("*.egn"))


def script() -> list[Input]:
    """About 1,300 inputs: more than the runs below get through."""
    out: list[Input] = []
    for _ in range(2):
        for path in EXAMPLES:
            game = import_egn(path)
            assert game.game.rules == RULES
            out.append(NewGame(game.game.first_dealer, game.game.initial_score))
            out += game.inputs
    return out


CHILD = """
import json
import sys
sys.path.insert(0, {root!r})
from table.codec import input_from_dict
from table.log import MatchLog
from table.rules import Rules

with open({script!r}, encoding="utf-8") as f:
    inputs = [input_from_dict(json.loads(line)) for line in f]
log = MatchLog.open_or_create({path!r}, Rules.from_dict({rules!r}), first_dealer=0, created="crash-test")
start = len(log.inputs)
print("ready", start, flush=True)
for k in range(start, len(inputs)):
    log.append(inputs[k])
    print(k, flush=True)  # the acknowledgement: the input is on disk
print("done", flush=True)
"""


def test_sigkill_at_random_moments_never_loses_an_acknowledged_input(tmp_path: Path) -> None:
    rng = random.Random(20261129)
    inputs = script()
    path = tmp_path / "match.jsonl"
    script_path = tmp_path / "script.jsonl"
    script_path.write_text("".join(json.dumps(input_to_dict(inp)) + "\n" for inp in inputs), encoding="utf-8")
    root = str(Path(__file__).resolve().parents[2])
    code = CHILD.format(root=root, script=str(script_path), path=str(path), rules=RULES.to_dict())
    acked = 0  # inputs acknowledged so far, over all runs
    runs = 0
    while runs < RUNS:
        # -S: table/ is standard library only, so skip site-packages and start faster.
        child = subprocess.Popen([sys.executable, "-S", "-c", code], stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        ready = child.stdout.readline().split()
        assert ready[0] == "ready", ready
        assert int(ready[1]) >= acked  # everything acknowledged by earlier runs came back
        time.sleep(rng.uniform(0.0, 0.04))  # the child appends meanwhile; the kill lands anywhere
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        runs += 1
        lines = out.split()
        if lines and lines[-1] == "done":
            pytest.fail("the script ran out before the kills did; lengthen it")
        if lines:
            acked = max(acked, int(lines[-1]) + 1)
        contents = read_log(path)
        n = len(contents.inputs)
        assert contents.inputs == inputs[:n], "the log must hold exactly a prefix of what was written"
        assert n >= acked, f"run {runs}: {acked} inputs acknowledged, only {n} in the log"
        match, warnings = load_match(path)
        expected = Match.replay(RULES, inputs[:n], 0)
        assert match.history == expected.history
        assert match.score == expected.score and match.expected == expected.expected
        assert all("torn last line" in w for w in warnings)
    assert acked > 100, "the kills must land while the child is appending"
