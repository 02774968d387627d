"""Crash safety of the match log: SIGKILL a writer at random moments; no acknowledged input is ever lost.

A child process (forked, so each run starts in a millisecond) appends the
inputs of a scripted match (the EGN example games, one after another, twice)
to a log, resuming where the log ends, and writes each position to a pipe
after ``append`` returns: the acknowledgement the app waits for before it
shows an announcement. The parent kills it with SIGKILL at a random moment,
many times over: 128 kills, 32 on each of four logs (each log grows to a few
hundred lines; one log for all of them would make every restart and check
read thousands). After every kill the log must replay to exactly a prefix of
the script that holds every acknowledged input, and the match it folds into
must equal the match of that prefix.
"""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import pytest

from table.egn import import_egn
from table.inputs import Input, NewGame
from table.log import MatchLog, load_match, read_log
from table.match import Match
from table.rules import Rules

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the test forks its writer (POSIX only)")

RULES = Rules.preset("north_american").replace(stick_the_dealer=True)  # the examples' "std": true
RUNS = 128
RUNS_PER_LOG = 32
EXAMPLES = sorted((Path(__file__).parent / "data" / "egn").glob("*.egn"))


def script() -> list[Input]:
    """About 1,100 inputs: more than the runs below get through."""
    out: list[Input] = []
    for _ in range(2):
        for path in EXAMPLES:
            game = import_egn(path)
            assert game.game.rules == RULES
            out.append(NewGame(game.game.first_dealer, game.game.initial_score))
            out += game.inputs
    return out


def writer(path: Path, inputs: list[Input], ack_fd: int) -> None:
    """The child: resume the log and append the rest of the script, acknowledging each append."""
    log = MatchLog.open_or_create(path, RULES, first_dealer=0, created="crash-test")
    os.write(ack_fd, f"ready {len(log.inputs)}\n".encode())
    for k in range(len(log.inputs), len(inputs)):
        log.append(inputs[k])
        os.write(ack_fd, f"{k}\n".encode())  # the acknowledgement: input k is on disk
    os.write(ack_fd, b"done\n")


def test_sigkill_at_random_moments_never_loses_an_acknowledged_input(tmp_path: Path) -> None:
    rng = random.Random(20261129)
    inputs = script()
    path = tmp_path / "match-0.jsonl"
    acked = 0  # inputs acknowledged so far, over all runs on this log
    for run in range(RUNS):
        if run and run % RUNS_PER_LOG == 0:
            assert acked > 200, "the kills must land while the child is appending"
            path = tmp_path / f"match-{run // RUNS_PER_LOG}.jsonl"
            acked = 0
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child never returns into pytest
            status = 1
            try:
                os.close(r)
                writer(path, inputs, w)
                status = 0
            finally:
                os._exit(status)
        os.close(w)
        with os.fdopen(r, "r") as acks:
            ready = acks.readline().split()
            assert ready and ready[0] == "ready", ready
            assert int(ready[1]) >= acked, "everything acknowledged by earlier runs must come back"
            # A random way into the appends (counted, so a slow machine changes nothing), then a random
            # instant later: the kill lands before, during or after any write and its fsync.
            seen = [acks.readline() for _ in range(rng.randrange(30))]
            time.sleep(rng.uniform(0.0, 0.002))
            os.kill(pid, signal.SIGKILL)
            _, wait_status = os.waitpid(pid, 0)
            seen += acks.read().splitlines()
        assert os.WIFSIGNALED(wait_status) and os.WTERMSIG(wait_status) == signal.SIGKILL
        tokens = [t.strip() for t in seen if t.strip()]
        if tokens and tokens[-1] == "done":
            pytest.fail("the script ran out before the kills did; lengthen it")
        if tokens:
            acked = max(acked, int(tokens[-1]) + 1)
        contents = read_log(path)
        n = len(contents.inputs)
        assert contents.inputs == inputs[:n], "the log must hold exactly a prefix of what was written"
        assert n >= acked, f"run {run}: {acked} inputs acknowledged, only {n} in the log"
        match, warnings = load_match(path)
        expected = Match.replay(RULES, inputs[:n], 0)
        assert match.history == expected.history
        assert match.score == expected.score and match.expected == expected.expected
        assert all("torn last line" in w for w in warnings)
    assert acked > 200, "the kills must land while the child is appending"
