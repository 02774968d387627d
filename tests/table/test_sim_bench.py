"""``euchre-table bench --rules``: runs briefly, prints its summary line, and plays clean deals.

Only the shape of the output is tested (a benchmark is a measurement, not a
check); the figures themselves are reported by hand.
"""

from __future__ import annotations

import pytest

from companion.bench_rules import check_clean
from companion.cli import main


def test_bench_rules_prints_the_summary_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--rules", "--seconds", "0.05", "--repeats", "2"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert not [line for line in lines if line.startswith("warning")]
    assert [line for line in lines if line.startswith("round ")] and len(lines) == 3
    pairs = dict(item.split("=", 1) for item in lines[-1].split())
    assert list(pairs)[:3] == ["rules_deals_per_s", "openspiel_deals_per_s", "ratio"]
    assert int(pairs["rules_deals_per_s"]) > 0 and int(pairs["match_deals_per_s"]) > 0
    if pairs["openspiel_deals_per_s"] != "-":
        ratio = int(pairs["rules_deals_per_s"]) / int(pairs["openspiel_deals_per_s"])
        assert abs(float(pairs["ratio"]) - ratio) < 0.01


def test_bench_deals_raise_no_irregularity() -> None:
    """The deals timed are legal and in turn: the engine does its ordinary work, not error handling."""
    assert check_clean(seed=3, deals=300) == 0


def test_bench_without_a_part_is_a_user_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench"]) == 2
    assert "--rules" in capsys.readouterr().err
