"""``euchre-table league serve|simulate`` from the command line: reached through the entry point, summary lines."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from league.broker import LocalBroker, free_port

CLI = [sys.executable, "-m", "companion"]


def test_simulate_ends_with_its_summary_line() -> None:
    done = subprocess.run([*CLI, "league", "simulate", "--tables", "2", "--games", "1", "--seed", "2"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert re.fullmatch(
        r"tables=2 games=2 deals=\d+ published=\d+ applied=\d+ duplicates=\d+ lost=0 standings_match=1", last
    ), last


def test_a_wrong_option_is_one_line_naming_it() -> None:
    done = subprocess.run([*CLI, "league", "simulate", "--tables", "9"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.strip() == "euchre-table: error: --tables must be 1-8, not 9"


def test_serve_answers_and_ends_on_sigterm_with_its_summary(broker: LocalBroker, tmp_path: Path) -> None:
    port = free_port()
    secret = tmp_path / "admin"
    secret.write_text("pw\n")
    proc = subprocess.Popen(
        [*CLI, "league", "serve", "--broker", broker.url, "--db", str(tmp_path / "league.sqlite"), "--port",
         str(port), "--admin-password-file", str(secret)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        page = ""
        end = time.monotonic() + 60
        while time.monotonic() < end and not page:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    page = r.read().decode()
            except OSError:
                time.sleep(0.2)
        assert "<h2>Standings</h2>" in page
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert re.fullmatch(r"events=0 refused=0 seconds=\d+", out.strip().splitlines()[-1]), out


def test_rotation_prints_the_nights_sheet(tmp_path: Path) -> None:
    players = tmp_path / "players.txt"
    players.write_text("\n".join(f"Player {i}" for i in range(1, 11)) + "\n")
    done = subprocess.run([*CLI, "league", "rotation", str(players)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[-1] == "players=10 games=9 tables=2 sitting_out=2"
    assert sum(line.startswith("Game ") for line in lines) == 9
    bad = tmp_path / "bad.txt"
    bad.write_text("Ann\nBob\n")
    done = subprocess.run([*CLI, "league", "rotation", str(bad)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.strip().endswith("a rotation needs 4 to 64 players, not 2")
