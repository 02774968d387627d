"""Rules-engine throughput: random full deals through ``Match``, against OpenSpiel's ``euchre`` in the same run.

One "deal" on each side is the same work: shuffle and deal, random legal
bidding (going alone included), the dealer's discard, random legal play to the
end, and scoring. Ours is ``table.sim`` generating the deal (it holds the
hands, so it can choose legal cards) and ``Match`` folding its inputs, one
``Match`` per game; OpenSpiel's is its C++ state driven from Python with
uniformly random legal actions. Both use stick-the-dealer (OpenSpiel's
default), and our bidding odds copy OpenSpiel's uniform choices (order up 1 in
2, name a suit 3 in 4, go alone 1 in 2), so both sides play the same mix of
deals.

Each side runs ``repeats`` timed rounds of ``seconds`` of CPU time, interleaved
so that a busy machine affects both alike; the figures are medians. The split
of our time between the simulator and the engine is measured too
(``sim_deals_per_s``: generating deals only; ``match_deals_per_s``: replaying
deals generated beforehand).
"""

from __future__ import annotations

import cProfile
import io
import json
import pstats
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from table.announcements import Irregularity, IrregularityKind, RenegeProven
from table.match import Match
from table.rules import Rules
from table.sim import BiddingOdds, SimDeal, simulate_deal

SUSPECTED = IrregularityKind.SUSPECTED_RENEGE
BENCH_RULES = Rules.preset("north_american").replace(stick_the_dealer=True)
# OpenSpiel's random player: pass or order up (1 in 2); pass or one of three suits (3 in 4); alone or not (1 in 2).
BENCH_ODDS = BiddingOdds(
    order_up=0.5, name_trump=0.75, maker_alone=0.5, late_alone=0.0, defender_alone=0.0, discard_seen=0.5
)


def _timed(step: Callable[[], int], seconds: float) -> float:
    """Deals per CPU second of ``step`` (which plays some deals and returns how many) over about ``seconds``.

    CPU time of this process (OpenSpiel's C++ runs in it too), so other jobs on a busy machine do not
    distort the comparison; on an idle machine it equals wall time.
    """
    deals = 0
    start = time.process_time()
    while True:
        deals += step()
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return deals / elapsed


class RulesLoop:
    """Random deals played through ``Match``: a new game whenever one is won."""

    def __init__(self, seed: int, batch: int = 20) -> None:
        self.rng = random.Random(seed)
        self.batch = batch
        self.match = Match(BENCH_RULES)
        self.number = 0

    def deal(self) -> SimDeal:
        d = simulate_deal(BENCH_RULES, self.rng, self.match.dealer, number=self.number, odds=BENCH_ODDS)
        self.number += 1
        return d

    def play(self, d: SimDeal) -> None:
        if self.match.game_over:
            self.match = Match(BENCH_RULES, first_dealer=self.match.dealer)
        apply = self.match.apply
        for inp in d.inputs:
            apply(inp)

    def step(self) -> int:
        for _ in range(self.batch):
            self.play(self.deal())
        return self.batch

    def sim_step(self) -> int:
        for i in range(self.batch):
            simulate_deal(BENCH_RULES, self.rng, i % 4, odds=BENCH_ODDS)
        return self.batch


class OpenSpielLoop:
    """Random OpenSpiel deals: chance outcomes and legal actions drawn uniformly from a seeded ``random``."""

    def __init__(self, pyspiel: Any, seed: int, batch: int = 20) -> None:
        self.game = pyspiel.load_game("euchre", {"stick_the_dealer": True, "allow_lone_defender": False})
        self.rng = random.Random(seed)
        self.batch = batch

    def step(self) -> int:
        rng = self.rng
        for _ in range(self.batch):
            state = self.game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rng.random() * len(legal))])
        return self.batch


def _replay_rate(seed: int, seconds: float, batch: int = 20) -> float:
    """Deals per second of ``Match`` alone, replaying a game's worth of deals generated beforehand."""
    recorder = RulesLoop(seed)
    deals = []
    for _ in range(max(50, int(300 * seconds))):
        deals.append(recorder.deal())
        recorder.play(deals[-1])
    player = RulesLoop(seed)  # same first dealer and rules: the same games, deal for deal
    i = 0

    def step() -> int:
        nonlocal i
        for _ in range(batch):
            if i == len(deals):
                player.match, i = Match(BENCH_RULES), 0
            player.play(deals[i])
            i += 1
        return batch

    return _timed(step, seconds)


def check_clean(seed: int, deals: int = 200) -> int:
    """Irregularities and renege alerts announced while playing ``deals`` bench deals (must be 0).

    A suspected renege is expected now and then: a dealer who discarded the up-card unseen and then
    shows out of trump may still be holding it, as far as the table can tell.
    """
    loop = RulesLoop(seed)
    bad = 0
    for _ in range(deals):
        d = loop.deal()
        if loop.match.game_over:
            loop.match = Match(BENCH_RULES, first_dealer=loop.match.dealer)
        for inp in d.inputs:
            bad += sum(
                isinstance(a, RenegeProven) or (isinstance(a, Irregularity) and a.kind is not SUSPECTED)
                for a in loop.match.apply(inp)
            )
    return bad


def profile_rules(seconds: float, seed: int, top: int = 25) -> str:
    """cProfile of our loop (simulator and engine), the ``top`` functions by own time."""
    loop = RulesLoop(seed)
    profiler = cProfile.Profile()
    profiler.enable()
    _timed(loop.step, seconds)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def bench_rules(
    seconds: float = 1.0, repeats: int = 5, seed: int = 0, log: Callable[[str], None] = print
) -> dict[str, Any]:
    """Run the benchmark; print one line per round through ``log``; return the summary pairs."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        pyspiel = None
    ours: list[float] = []
    theirs: list[float] = []
    sim: list[float] = []
    engine: list[float] = []
    loop = RulesLoop(seed)
    peer = OpenSpielLoop(pyspiel, seed) if pyspiel is not None else None
    bad = check_clean(seed)
    if bad:
        log(f"warning: the bench deals raised {bad} irregularities or renege alerts: the figures are not comparable")
    loop.step()  # warm the simulator's tables and the first game
    for r in range(repeats):
        ours.append(_timed(loop.step, seconds))
        line = f"round {r + 1}/{repeats}: rules {ours[-1]:.0f} deals/s"
        if peer is not None:
            theirs.append(_timed(peer.step, seconds))
            line += f", openspiel {theirs[-1]:.0f} deals/s"
        sim.append(_timed(loop.sim_step, seconds / 2))
        engine.append(_replay_rate(seed + r, seconds / 2))
        log(line + f" (simulator alone {sim[-1]:.0f}, match alone {engine[-1]:.0f})")
    rules_rate = statistics.median(ours)
    pairs: dict[str, Any] = {"rules_deals_per_s": round(rules_rate)}
    if theirs:
        peer_rate = statistics.median(theirs)
        pairs["openspiel_deals_per_s"] = round(peer_rate)
        pairs["ratio"] = round(rules_rate / peer_rate, 3)
    else:
        pairs["openspiel_deals_per_s"] = "-"
        pairs["ratio"] = "-"
    pairs["sim_deals_per_s"] = round(statistics.median(sim))
    pairs["match_deals_per_s"] = round(statistics.median(engine))
    pairs["repeats"] = repeats
    pairs["seconds"] = seconds
    return pairs


# ---------------------------------------------------------------- replay and resume (bench --replay)

REPLAY_DEALS = 3000


def _long_game(deals: int, seed: int) -> tuple[Match, list[list[Any]]]:
    """One game of ``deals`` random deals (a fixed number of deals, so none ends it early); its inputs per deal."""
    rules = BENCH_RULES.replace(target=0, num_deals=deals)
    rng = random.Random(seed)
    match = Match(rules)
    per_deal: list[list[Any]] = []
    for number in range(deals):
        d = simulate_deal(rules, rng, match.dealer, number=number, odds=BENCH_ODDS)
        for inp in d.inputs:
            match.apply(inp)
        per_deal.append(list(d.inputs))
    return match, per_deal


def write_input_log(path: Path, match: Match, inputs: list[Any]) -> None:
    """An input log as ``run`` writes it (header, then one line per input with its frame and source)."""
    from table.codec import input_to_dict
    from table.log import LogHeader

    header = LogHeader(match.rules, 0, (0, 0), "bench", ("North", "East", "South", "West"))
    lines = [json.dumps(header.to_dict(), separators=(",", ":"))]
    for i, inp in enumerate(inputs):
        obj: dict[str, Any] = {"i": i, **input_to_dict(inp), "frame": i * 10, "meta": {"src": "camera"}}
        lines.append(json.dumps(obj, separators=(",", ":")))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def bench_replay(
    deals: int = REPLAY_DEALS, repeats: int = 3, seconds: float = 1.0, seed: int = 0, log: Callable[[str], None] = print
) -> dict[str, Any]:
    """Replay an EGN of ``deals`` random deals, and resume an input log of as many, against OpenSpiel's random play.

    Both are what a restart or ``euchre-table replay`` does with a long night's game: the EGN is parsed and
    folded through the engine (``table.egn.replay_egn``); the log is read, recovered and folded by the
    session the app resumes with (``TableSession``). Rates are deals per CPU second, each side timed over at
    least ``seconds`` of CPU time per round (interleaved), medians of ``repeats`` rounds.
    """
    import tempfile

    from companion.session import TableSession
    from table.egn import dumps_egn, export_egn, loads_egn, replay_egn
    from table.log import MatchLog

    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    match, per_deal = _long_game(deals, seed)
    text = dumps_egn(export_egn(match))
    inputs = [inp for deal in per_deal for inp in deal]
    peer = OpenSpielLoop(pyspiel, seed) if pyspiel is not None else None
    egn_rates: list[float] = []
    log_rates: list[float] = []
    peer_rates: list[float] = []
    with tempfile.TemporaryDirectory(prefix="euchre-bench-") as tmp:
        path = Path(tmp) / "match.jsonl"
        write_input_log(path, match, inputs)

        def replay() -> None:
            replayed = replay_egn(loads_egn(text, "bench.egn")).match
            assert replayed.score == match.score, "the EGN replay should end at the game's score"

        def resume() -> None:
            session = TableSession(MatchLog.open(path))
            try:
                assert session.match.score == match.score, "the resumed log should end at the game's score"
            finally:
                session.close()

        def replays() -> int:
            replay()
            return deals

        def resumes() -> int:
            resume()
            return deals

        for r in range(repeats):
            # Each side over the same window of CPU time (at least ``seconds``), as OpenSpiel's below: one
            # replay is a fraction of a second, and a single one on a busy machine says more about the
            # machine than about the code.
            egn_rates.append(_timed(replays, seconds))
            log_rates.append(_timed(resumes, seconds))
            line = f"round {r + 1}/{repeats}: EGN replay {egn_rates[-1]:.0f} deals/s, log resume {log_rates[-1]:.0f}"
            if peer is not None:
                peer_rates.append(_timed(peer.step, seconds))
                line += f", openspiel random play {peer_rates[-1]:.0f} deals/s"
            log(line)
    egn_rate = statistics.median(egn_rates)
    log_rate = statistics.median(log_rates)
    pairs: dict[str, Any] = {
        "replay_deals": deals,
        "egn_bytes": len(text.encode("utf-8")),
        "log_inputs": len(inputs),
        "egn_replay_deals_per_s": round(egn_rate),
        "log_resume_deals_per_s": round(log_rate),
    }
    if peer_rates:
        peer_rate = statistics.median(peer_rates)
        pairs["openspiel_deals_per_s"] = round(peer_rate)
        pairs["egn_ratio"] = round(egn_rate / peer_rate, 3)
        pairs["resume_ratio"] = round(log_rate / peer_rate, 3)
    else:
        pairs["openspiel_deals_per_s"] = pairs["egn_ratio"] = pairs["resume_ratio"] = "-"
    return pairs
