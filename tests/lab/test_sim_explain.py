"""``simulate --explain``: each shortfall of a run in words, agreeing with the score; nothing when all went right."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Collection, Mapping
from pathlib import Path

import pytest

from companion.cli import main
from display.phrases import card_text
from lab import simtable as st
from lab.sim_explain import explain
from table.announcements import RenegeProven
from table.cards import Card
from table.sim import InjectedRenege
from vision.detection import CardDetection

SEED = 4  # the seed of the ``script`` and ``renderer`` fixtures (tests/lab/conftest.py)
DEMO = Path(__file__).resolve().parents[2] / "companion" / "data" / "demo"


class Faulty:
    """The oracle with one fault over some frames: ``hide`` cards never read, ``swap`` cards read as others."""

    def __init__(
        self,
        inner: st.OracleDetector,
        frames: range,
        hide: Collection[Card] = (),
        swap: Mapping[Card, Card] | None = None,
    ) -> None:
        self.inner, self.frames, self.hide, self.swap = inner, frames, hide, dict(swap or {})

    def detect(self, frame_bgr: st.Image, frame: int = 0) -> list[CardDetection]:
        out = []
        for d in self.inner.detect(frame_bgr, frame):
            if frame in self.frames and d.card in self.hide:
                continue
            if frame in self.frames and d.card in self.swap:
                d = dataclasses.replace(d, card=self.swap[d.card])
            out.append(d)
        return out


def _deal_frames(script: st.TableScript, deal: int) -> range:
    rests = [r for r in script.rests if r.deal == deal]
    return range(rests[0].frame - 10, rests[-1].frame + 30)


def _hidden_renege_run(script: st.TableScript, renderer: st.TableRenderer) -> tuple[st.SimRun, InjectedRenege]:
    """Deal 0 with the cards that would prove its first renege never seen."""
    renege = script.deals[0].reneges[0]
    blind = Faulty(st.OracleDetector(renderer), _deal_frames(script, 0), hide=set(renege.held))
    return st.run_simulation(script, renderer, blind, "procedural-2", render=False), renege


def _explained(run: st.SimRun) -> list[str]:
    return explain(run.script, run.pipeline.announcements, run.pipeline.landings).lines()


def test_cards_never_seen_explain_the_unproven_renege_the_wrong_tricks_and_the_score(
    script: st.TableScript, renderer: st.TableRenderer
) -> None:
    run, renege = _hidden_renege_run(script, renderer)
    s = run.score
    assert s.reneges_proven < s.reneges_injected and s.cards_missed > 0 and s.tricks_right < s.tricks
    text = "\n".join(_explained(run))
    assert text.startswith("explain: deal 0 (")
    assert "explain: deal 1" not in text  # the second deal went right
    assert f"renege not proven: seat {renege.seat} played {renege.card} on {renege.led} in trick 1" in text
    assert f"provable by {renege.proof_card}" in text
    assert f"never reported: {renege.proof_card} in seat{renege.seat}" in text
    assert "the engine's irregularities in this deal:" in text and "Hand not seen to the end" in text
    assert f"{renege.proof_card} seat{renege.seat} trick 2     |   --  <- never reported" in text
    # It agrees with the score, figure by figure.
    assert text.count("renege not proven:") == s.reneges_injected - s.reneges_proven
    stated = [
        line.split(":")[0].split()[-1] for line in text.splitlines() if line.startswith(("  trick ", "  tricks "))
    ]
    assert stated == ["3", "4-5"]  # seat 0 took trick 3 instead of seat 1; out of step, the engine named no more
    assert "  tricks 4-5: the engine named no winner, the script seats 0 0" in text
    assert sum(int(b or a) - int(a) + 1 for a, _, b in (w.partition("-") for w in stated)) == s.tricks - s.tricks_right
    assert text.count("hand scored:") == s.hands - s.hands_exact
    assert text.count("never reported:") == s.cards_missed
    assert text.splitlines()[-1] == (
        f"explain: 1 of 2 deals fell short: {s.reneges_injected - s.reneges_proven} renege(s) not proven, "
        f"0 false alert(s), {s.tricks - s.tricks_right} trick(s) wrong, 1 hand(s) not scored exactly, "
        f"{s.cards_missed} card(s) never reported"
    )


def test_a_misread_card_shows_as_a_rest_never_reported_beside_a_landing_that_matches_no_rest(
    script: st.TableScript, renderer: st.TableRenderer
) -> None:
    rest = [r for r in script.rests if r.deal == 1 and r.kind == "play"][2]
    other = Card.parse("9h") if rest.card != Card.parse("9h") else Card.parse("Td")
    misread = Faulty(st.OracleDetector(renderer), range(rest.frame - 20, rest.frame + 40), swap={rest.card: other})
    run = st.run_simulation(script, renderer, misread, "procedural-2", render=False)
    lines = _explained(run)
    assert lines[0].startswith("explain: deal 1 (") and not any(line.startswith("explain: deal 0") for line in lines)
    assert f"  never reported: {rest.card} in {rest.zone} at frame {rest.frame} (play)" in lines
    at = next(k for k, line in enumerate(lines) if line.startswith(f"    {rest.frame:>6} {rest.card} {rest.zone}"))
    assert lines[at].endswith("<- never reported")
    assert f" {other} {rest.zone}  <- no rest matches: a misread" in lines[at + 1]
    assert sum("never reported:" in line for line in lines) == run.score.cards_missed


def test_a_false_renege_alert_is_named(script: st.TableScript, renderer: st.TableRenderer) -> None:
    run = st.run_simulation(script, renderer, st.OracleDetector(renderer), "procedural-2", render=False)
    assert _explained(run) == []  # a perfect run: nothing to explain
    k, (f, proof) = next(
        (k, (f, a)) for k, (f, a) in enumerate(run.pipeline.announcements) if isinstance(a, RenegeProven)
    )
    stranger = Card.parse("Jd") if proof.evidence.proof_card != Card.parse("Jd") else Card.parse("Qd")
    announcements = list(run.pipeline.announcements)
    announcements[k] = (f, RenegeProven(proof.seat, dataclasses.replace(proof.evidence, proof_card=stranger)))
    score = st.score_run(script, announcements, run.pipeline.landings)
    assert score.false_renege_alerts == 1
    lines = explain(script, announcements, run.pipeline.landings).lines()
    e = proof.evidence
    assert [line for line in lines if line.startswith("  false renege alert:")] == [
        f"  false renege alert: seat {proof.seat} showed out of {e.suit.noun} in trick {e.showed_out_trick + 1}, "
        f"played {card_text(stranger)} in trick {e.proof_trick + 1}"
    ]
    # the renege that alert proved is not proven now
    assert sum("renege not proven:" in line for line in lines) == score.reneges_injected - score.reneges_proven > 0


# ---- the command


def _simulate(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    detector: Callable[..., object],
) -> list[str]:
    # The oracle reads no pixels: skip the drawing to keep the command quick.
    monkeypatch.setattr(st, "run_simulation", functools.partial(st.run_simulation, render=False))
    monkeypatch.setattr(st, "OracleDetector", detector)
    base = ["simulate", "--hands", "2", "--seed", str(SEED), "--renege-rate", "0.3", "--detector", "oracle",
            "--deck-style", "procedural"]  # fmt: skip
    assert main([*base, *argv]) == 0
    return capsys.readouterr().out.splitlines()


def _score_keys(line: str) -> list[str]:
    return [kv.split("=")[0] for kv in line.split()]


def test_simulate_explain_prints_nothing_extra_for_a_run_that_went_right(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = _simulate([], capsys, monkeypatch, st.OracleDetector)
    explained = _simulate(["--explain"], capsys, monkeypatch, st.OracleDetector)
    assert len(plain) == len(explained) == 1
    assert explained[0].startswith("hands=2 tricks=10 trick_winner_accuracy=1 ")
    assert _score_keys(explained[0]) == _score_keys(plain[0])


def test_simulate_explain_prints_the_shortfall_before_the_unchanged_score_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    oracle = st.OracleDetector
    script = st.build_script(SEED, hands=2, renege_rate=0.3)
    renege = script.deals[0].reneges[0]

    def faulty(renderer: st.TableRenderer) -> Faulty:
        return Faulty(oracle(renderer), _deal_frames(script, 0), hide=set(renege.held))

    plain = _simulate([], capsys, monkeypatch, faulty)
    explained = _simulate(["--explain"], capsys, monkeypatch, faulty)
    assert len(plain) == 1 and len(explained) > 10
    assert explained[0].startswith("explain: deal 0 (")
    assert f"  never reported: {renege.proof_card} in seat{renege.seat} at frame" in "\n".join(explained)
    assert explained[-2].startswith("explain: 1 of 2 deals fell short: 2 renege(s) not proven")
    assert explained[-1].split()[:-1] == plain[0].split()[:-1]  # all but the frame rate, which is measured


def test_simulate_clip_explain(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # The recorded clip's run keeps the same data: its explanation names the card hidden from the "model".
    from lab.commands import simulate

    script, truth = st.load_clip(DEMO)
    faces, back, _ = st.load_deck("procedural", None)
    renderer = st.TableRenderer(script, faces, back, frame_size=tuple(truth["size"]), seed=script.seed)
    deal = next(i for i, d in enumerate(script.deals) if not d.thrown_in)
    lost = [r for r in script.rests if r.deal == deal and r.kind == "play"][5]
    blind = Faulty(st.OracleDetector(renderer), range(lost.frame - 40, lost.frame + 60), hide={lost.card})
    monkeypatch.setattr(simulate, "_load_model", lambda args: blind)
    assert main(["simulate", "--clip", str(DEMO), "--explain"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"explain: deal {deal} (")
    assert f"  never reported: {lost.card} in {lost.zone} at frame {lost.frame} (play)" in out
    assert out[-1].startswith("hands=")


def test_a_stolen_deal_not_said_and_a_false_deal_out_of_turn_are_explained() -> None:
    from table.announcements import Irregularity, IrregularityKind

    base = st.build_script(0, hands=2)
    script = st.build_script(0, hands=2, stolen={1: (base.deals[1].dealer + 1) % 4})
    faces, back, _ = st.load_deck("procedural", None)
    renderer = st.TableRenderer(script, faces, back, seed=0)
    run = st.run_simulation(script, renderer, st.OracleDetector(renderer), "procedural", render=False)
    said = run.pipeline.announcements
    assert not [x for x in explain(script, said, run.pipeline.landings).lines() if "out of turn" in x]
    # The same run as if the camera had not seen who turned it: the stolen deal is listed, not said.
    quiet = [
        (f, a) for f, a in said if not (isinstance(a, Irregularity) and a.kind is IrregularityKind.DEAL_OUT_OF_TURN)
    ]
    lines = explain(script, quiet, run.pipeline.landings).lines()
    assert any(f"deal out of turn not said: seat {script.stolen[1]} dealt it" in x for x in lines)
    # And a deal out of turn said of the honest first deal is a false alarm.
    first = next(r.frame for r in script.rests if r.deal == 0 and r.kind == "up_card")
    false = Irregularity(IrregularityKind.DEAL_OUT_OF_TURN, "", 2, dealer=script.deals[0].dealer)
    lines = explain(script, [(first, false), *said], run.pipeline.landings).lines()
    assert any(f"false alarm: a deal out of turn said, but seat {script.deals[0].dealer} dealt it" in x for x in lines)
