"""Power cuts: ``euchre-table demo --headless`` killed with SIGKILL at random moments ends with the same game.

The demo is killed at least 20 times at random moments and restarted each
time on the same output folder; the final EGN and score must equal those of
a run that was never interrupted.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

KILLS = 20


def _demo(out: Path, *extra: str) -> subprocess.Popen[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    cmd = [sys.executable, "-m", "companion", "demo", "--headless", "--out", str(out), *extra]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _finish(proc: subprocess.Popen[str], timeout: float = 900) -> str:
    stdout, stderr = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, stderr[-2000:]
    return stdout


def _game(out: Path) -> tuple[list[object], object]:
    egn = json.loads((out / "game.egn").read_text())
    deals = [{k: v for k, v in deal.items() if k != "dealNumber"} for deal in egn["deals"]]
    return deals, egn["metadata"].get("finalScore")


def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    started = time.monotonic()
    _finish(_demo(reference))
    full_run = time.monotonic() - started
    expected = _game(reference)
    assert expected[0], "the demo should record at least one deal"

    rng = random.Random(20261129)
    interrupted = tmp_path / "interrupted"
    end = _last_frame(reference)
    # Kill moments spread over the whole game: each run is killed once the log has reached its random
    # point of the game (at once, during start-up or the re-judging of earlier frames, when the log is
    # already past it), plus up to half a second, so kills also fall between two logged inputs.
    kills = 0
    for target in sorted(rng.uniform(0.0, 0.95) for _ in range(KILLS)):
        proc = _demo(interrupted)
        deadline = time.monotonic() + 3 * full_run
        while proc.poll() is None and _last_frame(interrupted) < target * end and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(rng.uniform(0.0, 0.5))
        if proc.poll() is not None:
            break  # the game ended before the kill
        proc.send_signal(signal.SIGKILL)
        kills += 1
        proc.wait(timeout=60)
    assert kills == KILLS, f"only {kills} runs were still going when killed"
    _finish(_demo(interrupted))
    assert _game(interrupted) == expected


def _last_frame(out: Path) -> int:
    """The frame of the last input logged in ``out`` (0 before any): how far the game has got."""
    last = 0
    log_path = out / "match.jsonl"
    if not log_path.exists():
        return 0
    for line in log_path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            frame = json.loads(line).get("frame")
        except ValueError:
            continue  # a line torn by the kill
        if isinstance(frame, int):
            last = max(last, frame)
    return last
