"""Replay and resume are linear: no step copies every deal so far for each input (that made them quadratic)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.bench_rules import BENCH_ODDS, BENCH_RULES, write_input_log
from companion.session import TableSession
from table import deal as deal_module
from table.egn import dumps_egn, export_egn, loads_egn, replay_egn
from table.inputs import Input
from table.log import MatchLog
from table.match import Match
from table.sim import simulate_deal


def _game(deals: int) -> tuple[Match, list[Input]]:
    rules = BENCH_RULES.replace(target=0, num_deals=deals)
    rng = random.Random(3)
    match = Match(rules)
    inputs: list[Input] = []
    for number in range(deals):
        for inp in simulate_deal(rules, rng, match.dealer, number=number, odds=BENCH_ODDS).inputs:
            match.apply(inp)
            inputs.append(inp)
    return match, inputs


def _deal_copies(monkeypatch: pytest.MonkeyPatch, work: object) -> int:
    """How many times ``work()`` copies a deal's record (``DealState.record``)."""
    calls = 0
    original = deal_module.DealState.record

    def counting(self: deal_module.DealState) -> deal_module.DealRecord:
        nonlocal calls
        calls += 1
        return original(self)

    monkeypatch.setattr(deal_module.DealState, "record", counting)
    work()  # type: ignore[operator]
    monkeypatch.setattr(deal_module.DealState, "record", original)
    return calls


@pytest.mark.parametrize("kind", ["egn", "session"])
def test_twice_the_deals_cost_twice_the_work(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, kind: str) -> None:
    copies = []
    for deals in (40, 80):
        match, inputs = _game(deals)
        if kind == "egn":
            text = dumps_egn(export_egn(match))

            def work(text: str = text) -> None:
                replay_egn(loads_egn(text))
        else:
            path = tmp_path / f"match-{deals}.jsonl"
            MatchLog.create(path, match.rules).close()
            session = TableSession(MatchLog.open(path))

            def work(session: TableSession = session, inputs: list[Input] = inputs) -> None:
                for inp in inputs:
                    session.submit(inp)

        copies.append(_deal_copies(monkeypatch, work))
    assert copies[1] <= 2.5 * max(copies[0], 1), f"deal copies for 40 and 80 deals: {copies}"


def test_the_bench_log_resumes_to_the_games_score(tmp_path: Path) -> None:
    match, inputs = _game(30)
    path = tmp_path / "match.jsonl"
    write_input_log(path, match, inputs)
    session = TableSession(MatchLog.open(path))
    try:
        assert session.match.score == match.score and session.warnings == []
    finally:
        session.close()
