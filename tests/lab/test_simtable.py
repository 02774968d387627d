"""The simulated table: rendered frames match the script, the ground truth is consistent, the pipeline reproduces it."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest

from companion.buttons_script import parse_buttons
from companion.cli import main
from companion.session import panel_presses
from display.actions import Action, ButtonAction
from lab import simtable as st
from table.announcements import HandScored, Irregularity, IrregularityKind, RenegeEvidence, RenegeProven, ThrownIn
from table.cards import Card, Suit
from table.inputs import Discard, DismissRenege, NameTrump, NewGame, OrderUp, Pass, Play, UpCard
from table.match import Match
from table.rules import Rules
from vision.detection import CardDetection
from vision.mat import marker_layout
from vision.observations import KITTY, Zone
from vision.sources.base import FrameSource, iter_frames
from vision.zones import calibration_from_markers

# Seed 4: one hand with two injected reneges and a renege alert dismissed by button; seed 8: a loner whose
# dealer provably still holds the up-card (a renege proven by the show-out itself). ``renderer`` (conftest.py)
# draws this module's one-hand script.
SEED = 4


@pytest.fixture(scope="module")
def script() -> st.TableScript:
    return st.build_script(SEED, hands=1, renege_rate=0.3)


def test_the_script_has_reneges_to_find(script: st.TableScript) -> None:
    played = [d for d in script.deals if not d.thrown_in]
    assert len(played) == 1
    assert len(played[0].reneges) >= 2
    assert any(isinstance(b.action, DismissRenege) for b in script.buttons)


def test_markers_on_a_rendered_frame_give_the_camera_calibration(renderer: st.TableRenderer) -> None:
    image = renderer.render(0)
    assert image.shape == (st.FRAME_SIZE[1], st.FRAME_SIZE[0], 3) and image.dtype == np.uint8
    found = calibration_from_markers(image, marker_layout(st.MAT), min_markers=4)
    assert found is not None
    true = renderer.true_calibration()
    for x, y in ((100.0, 100.0), (320.0, 240.0), (500.0, 400.0)):
        assert math.dist(found.to_mat(x, y), true.to_mat(x, y)) < 0.006


def test_each_card_lies_in_its_zone_when_it_comes_to_rest(script: st.TableScript, renderer: st.TableRenderer) -> None:
    image0 = renderer.render(0).astype(np.int16)
    cal = renderer.true_calibration()
    for rest in script.rests:
        seen = {s.card: s for s in renderer.visible(rest.frame + 2)}
        assert rest.card in seen, rest
        card = seen[rest.card]
        assert card.visible > 0.9, rest  # the hand has let go of it
        cx = sum(p[0] for p in card.corners) / 4
        cy = sum(p[1] for p in card.corners) / 4
        assert script.layout.zone_at(cal.to_mat(cx, cy)) == rest.zone, rest
        # And the pixels there are the card's, not the empty mat's.
        image = renderer.render(rest.frame + 2).astype(np.int16)
        ix, iy = round(cx), round(cy)
        patch, empty = image[iy - 10 : iy + 10, ix - 10 : ix + 10], image0[iy - 10 : iy + 10, ix - 10 : ix + 10]
        assert np.abs(patch - empty).mean() > 8, rest
        # Before its slide began it was not on the table face up.
        assert rest.card not in {s.card for s in renderer.visible(rest.frame - st.SLIDE - 1)}


def test_ground_truth_timing_is_consistent(script: st.TableScript) -> None:
    deal = script.deals[0]
    plays = [r for r in script.rests if r.kind == "play"]
    ups = [r for r in script.rests if r.kind == "up_card"]
    assert [(r.seat, r.card) for r in plays] == deal.plays
    assert [r.card for r in ups] == [x.card for x in deal.inputs if isinstance(x, UpCard)]
    assert all(r.zone == KITTY for r in ups)
    assert all(r.zone == Zone.of_seat(r.seat) for r in plays if r.seat is not None)
    frames = [r.frame for r in script.rests]
    assert frames == sorted(frames) and len(set(frames)) == len(frames)
    assert all(b - a >= st.SLIDE for a, b in zip(frames, frames[1:], strict=False))  # one card moves at a time
    presses = [b.frame for b in script.buttons]
    assert presses == sorted(presses) and presses[-1] < script.frames and frames[-1] < script.frames
    # Bids come after the up-card shows, with time for the camera; plays after the bidding.
    bids = [b for b in script.buttons if isinstance(b.action, Pass | OrderUp | NameTrump)]
    assert bids[0].frame >= ups[0].frame + st.FIRST_BID
    assert plays[0].frame > max(b.frame for b in bids)
    # The buttons are exactly the script's non-camera inputs, in order.
    camera = (UpCard, Play)
    assert [b.action for b in script.buttons] == [x for x in deal.inputs if not isinstance(x, camera)]


def test_ground_truth_json_and_buttons_file(script: st.TableScript, tmp_path: Path) -> None:
    truth = json.loads(json.dumps(st.ground_truth(script, "procedural-2", 15.0, st.FRAME_SIZE)))
    assert truth["frames"] == script.frames and truth["final_score"] == list(script.final_score)
    assert [c["frame"] for c in truth["cards"]] == [r.frame for r in script.rests]
    assert truth["deals"][0]["trick_winners"] == list(script.deals[0].trick_winners)
    # The bids file is the panel's format (companion.buttons_script): the app gives each press to the seat
    # whose turn it is, so replaying the presses through the engine's turn order gives back the script's bids.
    presses = parse_buttons(st.buttons_jsonl(script), "buttons.jsonl")
    assert [p.frame for p in presses] == sorted(p.frame for p in presses)
    assert [(p.frame, p.action) for p in presses] == [(b.frame, a) for b in script.buttons for a in b.panel]
    wanted = [b for b in script.buttons if not (isinstance(b.action, Discard) and b.action.card is None)]
    assert all(b.panel for b in wanted)  # every button input but the unseen discard takes a press


def test_panel_presses_of_plain_button_inputs() -> None:
    match = Match(Rules(), 0)
    match.apply(UpCard(Card.parse("9h")))
    assert st._presses(match, Pass(1), panel_presses) == [Action(ButtonAction.PASS)]
    assert st._presses(match, OrderUp(1, alone=True), panel_presses) == [
        Action(ButtonAction.ALONE), Action(ButtonAction.CALL)
    ]  # fmt: skip
    assert st._presses(match, Discard(3, None), panel_presses) == []
    assert st._presses(match, DismissRenege(), panel_presses) == [Action(ButtonAction.DISMISS_RENEGE)]
    assert st._presses(match, NewGame(0), panel_presses) == [Action(ButtonAction.NEW_GAME)]
    with pytest.raises(ValueError):
        st._presses(match, Play(0, Card.parse("Jd")), panel_presses)
    assert st.press_json(Action(ButtonAction.SUIT, Suit.HEARTS)) == {"action": "suit", "suit": "h"}


@pytest.mark.parametrize("seed", [SEED, 8, 9])
def test_a_perfect_detector_gives_every_trick_and_proves_every_renege(seed: int) -> None:
    # Pipeline logic only: the oracle detector reads the script's ground truth, so no pixels are drawn.
    script = st.build_script(seed, hands=1, renege_rate=0.3)
    faces, back, _ = st.load_deck("procedural", None)
    renderer = st.TableRenderer(script, faces, back, seed=seed)
    run = st.run_simulation(script, renderer, st.OracleDetector(renderer), "procedural-2", render=False)
    s = run.score
    deal = next(d for d in script.deals if not d.thrown_in)
    assert s.hands == 1 and s.tricks == len(deal.trick_winners) > 0
    assert s.trick_winner_accuracy == 1.0
    assert s.hands_exact == 1
    assert s.reneges_injected == len(deal.reneges) > 0
    assert s.reneges_proven == s.reneges_injected
    assert s.false_renege_alerts == 0
    assert s.cards_missed == 0
    assert s.median_latency <= 3


def test_a_detector_with_faults_still_gives_every_trick() -> None:
    # Readings missed, misread as look-alikes (mostly the other red or black suit) and jittered: the tracker's
    # vote over frames must absorb them. Deterministic per seed and frame.
    script = st.build_script(9, hands=2, renege_rate=0.3)
    faces, back, _ = st.load_deck("procedural", None)
    renderer = st.TableRenderer(script, faces, back, seed=9)
    noisy = st.NoisyOracle(renderer, seed=9, miss=0.15, misread=0.05)
    frame = script.rests[3].frame + 1
    assert noisy.detect(np.zeros((1, 1, 3), np.uint8), frame) == noisy.detect(np.zeros((1, 1, 3), np.uint8), frame)
    run = st.run_simulation(script, renderer, noisy, "procedural-2", render=False)
    s = run.score
    assert s.trick_winner_accuracy == 1.0 and s.hands_exact == 2
    assert s.reneges_proven == s.reneges_injected > 0 and s.false_renege_alerts == 0
    assert s.median_latency <= 3


def test_look_alikes_are_near_misses() -> None:
    import random

    rng = random.Random(1)
    for text in ("Jd", "9c", "As", "Th"):
        card = Card.parse(text)
        other = st._look_alike(card, rng)
        assert other != card
        assert other.suit is not None and card.suit is not None and other.rank is not None
        assert other.suit is card.suit.partner or other.suit is card.suit


def test_a_blind_detector_scores_nothing(script: st.TableScript, renderer: st.TableRenderer) -> None:
    # The scoring can fail: with no cards read, no trick is won and no renege proven.
    class Blind:
        def detect(self, frame_bgr: st.Image, frame: int = 0) -> list[CardDetection]:
            return []

    run = st.run_simulation(script, renderer, Blind(), "none", render=False)
    assert run.score.tricks > 0 and run.score.tricks_right == 0
    assert run.score.reneges_proven == 0 and run.score.hands_exact == 0
    assert run.score.cards_missed == len(script.rests)


def test_several_games_are_joined_by_a_new_game_button() -> None:
    script = st.build_script(2, hands=12, renege_rate=0.0)
    new_games = [b for b in script.buttons if isinstance(b.action, NewGame)]
    games = max(script.deal_games) + 1
    assert len(new_games) == games - 1
    assert sum(1 for d in script.deals if not d.thrown_in) == 12
    assert any(isinstance(b.action, Discard) for b in script.buttons)


def test_sim_source_is_a_frame_source() -> None:
    source = st.SimTableSource(seed=SEED, hands=1, deck_style="procedural")
    assert isinstance(source, FrameSource)
    assert source.buttons and source.buttons[0].frame > 0
    frames = iter_frames(source)
    first = next(frames)
    second = next(frames)
    del frames  # closes the source
    assert (first.number, second.number) == (0, 1)
    assert second.timestamp == pytest.approx(1 / st.DEFAULT_FPS)
    assert first.image_bgr.shape == (st.FRAME_SIZE[1], st.FRAME_SIZE[0], 3)


def test_a_renderer_with_detail_draws_the_same_view_larger(script: st.TableScript) -> None:
    import cv2

    faces, back, _ = st.load_deck("procedural", None)
    # No sensor noise, so that the sharpness compared below is the picture's own
    plain = st.TableRenderer(script, faces, back, seed=SEED, noise=0.0)
    detailed = st.TableRenderer(script, faces, back, seed=SEED, detail=2, noise=0.0)
    n = next(f for f in range(0, script.frames, 10) if len(plain.visible(f)) >= 3)
    image, none = plain.render_pair(n)
    assert none is None and np.array_equal(image, plain.render(n))  # detail 1 draws as it always has
    small, big = detailed.render_pair(n)
    assert big is not None and small.shape == image.shape and big.shape == (2 * image.shape[0], 2 * image.shape[1], 3)
    assert np.array_equal(small, detailed.render(n))
    # the small frame is the large one shrunk, and shows what the plain renderer shows, where it shows it
    shrunk = cv2.resize(big, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_AREA)
    assert np.abs(shrunk.astype(int) - small.astype(int)).max() <= 1
    seen, seen_plain = detailed.visible(n), plain.visible(n)
    assert [c.card for c in seen] == [c.card for c in seen_plain]
    assert np.allclose([c.corners for c in seen], [c.corners for c in seen_plain], atol=1e-6)
    assert detailed.true_calibration().homography == plain.true_calibration().homography
    inside = np.zeros(image.shape[:2], bool)
    for c in plain.visible(n):
        cv2.fillConvexPoly(inside.view(np.uint8), np.round(np.array(c.corners)).astype(np.int32), 1)
    # cards drawn in the same places: the two frames differ far less on the cards than a card's own contrast
    diff = np.abs(small.astype(int) - image.astype(int)).mean(axis=2)
    assert diff[inside].mean() < 12
    # and the large frame holds detail the small one cannot: sharper than the small one enlarged
    enlarged = cv2.resize(small, (big.shape[1], big.shape[0]), interpolation=cv2.INTER_LINEAR)
    sharpness = [float(cv2.Laplacian(cv2.cvtColor(i, cv2.COLOR_BGR2GRAY), cv2.CV_32F).var()) for i in (big, enlarged)]
    assert sharpness[0] > 2 * sharpness[1], sharpness


def test_the_sim_source_gives_the_larger_stream_as_the_pi_camera_does() -> None:
    source = st.SimTableSource(seed=SEED, hands=1, deck_style="procedural", detail=2)
    frame = next(iter_frames(source))
    assert frame.display_bgr is not None
    assert frame.display_bgr.shape == (2 * st.FRAME_SIZE[1], 2 * st.FRAME_SIZE[0], 3)
    assert st.SimTableSource(seed=SEED, hands=1, deck_style="procedural").read() is None  # not opened
    plain = next(iter_frames(st.SimTableSource(seed=SEED, hands=1, deck_style="procedural")))
    assert plain.display_bgr is None


@pytest.mark.slow
def test_simulate_command_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Renders every frame (small, to be quick) and finds the markers on them; the oracle stands in for the model.
    argv = ["simulate", "--hands", "1", "--seed", str(SEED), "--renege-rate", "0.3", "--detector", "oracle",
            "--deck-style", "procedural", "--size", "320x240", "--record", str(tmp_path / "clip")]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr()
    line = out.out.strip().splitlines()[-1]
    keys = [kv.split("=")[0] for kv in line.split()]
    assert keys == ["hands", "tricks", "trick_winner_accuracy", "hands_scored_exactly", "reneges_injected",
                    "reneges_proven", "false_renege_alerts", "median_latency_frames", "fps"]  # fmt: skip
    values = dict(kv.split("=") for kv in line.split())
    assert values["trick_winner_accuracy"] == "1" and values["false_renege_alerts"] == "0"
    assert values["reneges_proven"] == values["reneges_injected"] != "0"
    assert "detector" in out.err and "tracker" in out.err
    truth = json.loads((tmp_path / "clip" / "ground_truth.json").read_text())
    assert (tmp_path / "clip" / "table.mp4").stat().st_size > 10_000
    assert truth["frames"] == st.build_script(SEED, 1, 0.3).frames and truth["size"] == [320, 240]


@pytest.mark.slow
def test_simulate_with_the_main_stream_draws_both_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--hands", "1", "--seed", str(SEED), "--renege-rate", "0.3", "--detector", "oracle",
            "--deck-style", "procedural", "--size", "320x240", "--main-stream"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr()
    assert "frames 320x240 (cards read from a 640x480 main stream)" in out.err
    values = dict(kv.split("=") for kv in out.out.strip().splitlines()[-1].split())
    assert values["trick_winner_accuracy"] == "1" and values["false_renege_alerts"] == "0"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed", "1"], "--hands N or --game"),
        (["--hands", "0"], "choose 1 to 10000"),
        (["--hands", "1", "--renege-rate", "2"], "a probability"),
        (["--hands", "1", "--size", "big"], "WIDTHxHEIGHT"),
        (["--hands", "1", "--deck-style", "no-such-deck", "--detector", "oracle"], "no-such-deck"),
        (["--clip", "MISSING"], "cannot read the clip's ground truth"),
        (["--clip", "MISSING", "--hands", "2"], "takes no --hands"),
        (["--clip", "MISSING", "--main-stream"], "--main-stream"),
        (["--hands", "1", "--answer-checks", "-1"], "seconds from 0 to 60"),
        (["--clip", "MISSING", "--answer-checks"], "takes no --answer-checks"),
    ],
)
def test_simulate_bad_arguments_are_one_clear_error(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [str(tmp_path / "missing") if a == "MISSING" else a for a in argv]
    assert main(["simulate", *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_whole_game_with_a_perfect_detector() -> None:
    # The demo clip's game: a thrown-in deal, a loner, and a renege proven by the last card of a hand and
    # left undecided (the next up-card plays on).
    script = st.build_script(DEMO_SEED, None, DEMO_RENEGE_RATE, pace=st.PACES["brisk"])
    faces, back, _ = st.load_deck("procedural", None)
    renderer = st.TableRenderer(script, faces, back, seed=DEMO_SEED, frame_size=DEMO_SIZE)
    run = st.run_simulation(script, renderer, st.OracleDetector(renderer), "procedural-2", render=False)
    s = run.score
    assert s.thrown_in >= 1 and s.trick_winner_accuracy == 1.0 and s.hands_exact == s.hands
    assert s.reneges_proven == s.reneges_injected > 0 and s.false_renege_alerts == 0
    assert run.pipeline.match.score == script.final_score and max(script.final_score) >= 10


# ---- the recorded demo clip (companion/data/demo) ----

DEMO = Path(__file__).resolve().parents[2] / "companion" / "data" / "demo"
DEMO_SEED, DEMO_RENEGE_RATE, DEMO_SIZE = 104, 0.15, (480, 360)


@pytest.fixture(scope="module")
def demo_truth() -> dict[str, object]:
    data: dict[str, object] = json.loads((DEMO / "ground_truth.json").read_text(encoding="utf-8"))
    return data


def test_demo_clip_is_small_and_matches_its_ground_truth(demo_truth: dict[str, object]) -> None:
    import cv2

    total = sum(p.stat().st_size for p in DEMO.iterdir())
    assert total <= 8_000_000
    cap = cv2.VideoCapture(str(DEMO / str(demo_truth["video"])))
    assert cap.isOpened()
    count, calibrated = 0, 0
    ok, image = cap.read()
    while ok:
        if count % 100 == 0:  # the mat's markers are readable through the video coding
            calibrated += calibration_from_markers(np.asarray(image, np.uint8), marker_layout(st.MAT)) is not None
        count += 1
        ok, image = cap.read()
    assert count == demo_truth["frames"]
    assert list(demo_truth["size"]) == list(DEMO_SIZE)  # type: ignore[call-overload]
    assert calibrated >= count // 100  # all the sampled frames, but perhaps one with an arm over two corners


def test_demo_ground_truth_is_the_script_it_was_rendered_from(demo_truth: dict[str, object]) -> None:
    script = st.build_script(DEMO_SEED, None, DEMO_RENEGE_RATE, pace=st.PACES["brisk"])
    fresh = json.loads(json.dumps(st.ground_truth(script, str(demo_truth["deck"]), 15.0, DEMO_SIZE)))
    for key in ("frames", "cards", "deals", "final_score", "first_dealer"):
        assert demo_truth[key] == fresh[key], key
    assert (DEMO / "buttons.jsonl").read_text(encoding="utf-8") == st.buttons_jsonl(script)


def test_demo_ground_truth_replays_through_the_table_session(demo_truth: dict[str, object], tmp_path: Path) -> None:
    # The app's own mapping: card rests as the tracker would report them, presses as the panel's buttons.
    from companion.session import TableSession
    from display.actions import Action, ButtonAction
    from table.announcements import TrickWon
    from table.log import MatchLog
    from table.rules import Rules
    from vision.observations import CardLanded, UpCardShown

    first_dealer = int(demo_truth["first_dealer"])  # type: ignore[call-overload]
    log = MatchLog.create(tmp_path / "match.jsonl", Rules.preset("north_american"), first_dealer=first_dealer)
    session = TableSession(log, first_dealer=first_dealer)
    events: list[tuple[int, int, object]] = []
    for c in demo_truth["cards"]:  # type: ignore[attr-defined]
        card = Card.parse(c["card"])
        if c["kind"] == "up_card":
            events.append((c["frame"] + 2, 0, UpCardShown(card, 0.95, c["frame"] + 2)))
        else:
            events.append((c["frame"] + 2, 0, CardLanded(Zone.parse(c["zone"]), card, 0.95, c["frame"] + 2, c["seat"])))
    for p in parse_buttons((DEMO / "buttons.jsonl").read_text(encoding="utf-8")):
        events.append((p.frame, 1, p.action))
    winners: list[int] = []
    for frame, _, event in sorted(events, key=lambda e: (e[0], e[1])):
        if isinstance(event, Action):
            session.act(event, frame=frame)
        else:
            session.observe(event)  # type: ignore[arg-type]
        winners.extend(a.seat for a in session.release() if isinstance(a, TrickWon))
    del ButtonAction
    want = [w for d in demo_truth["deals"] for w in d["trick_winners"]]  # type: ignore[attr-defined]
    assert winners == want
    assert list(session.match.score) == demo_truth["final_score"]
    session.close()


def test_demo_clip_decoded_and_calibrated_from_its_markers_replays_the_game(demo_truth: dict[str, object]) -> None:
    # The recording as the demo reads it: frames decoded from the video, the mat found by its markers through
    # the video coding; card readings from the rebuilt script (the geometry only needs the seed and size).
    script, truth = st.load_clip(DEMO)
    faces, back, _ = st.load_deck("procedural", None)
    renderer = st.TableRenderer(script, faces, back, frame_size=DEMO_SIZE, seed=DEMO_SEED)
    run = st.run_clip(DEMO, st.OracleDetector(renderer))
    s = run.score
    assert s.trick_winner_accuracy == 1.0 and s.hands_exact == s.hands == 5
    assert s.reneges_proven == s.reneges_injected > 0 and s.false_renege_alerts == 0
    assert list(run.pipeline.match.score) == truth["final_score"]
    assert s.median_latency <= 3


def test_announcements_count_for_the_deal_being_played_when_they_were_made() -> None:
    # The same run as if the engine had never finished the first deal: what it announced later must still
    # be judged against the later deals of the script, not shifted onto the first.
    script = st.build_script(SEED, hands=2, renege_rate=0.3)
    faces, back, _ = st.load_deck("procedural", None)
    renderer = st.TableRenderer(script, faces, back, seed=SEED)
    run = st.run_simulation(script, renderer, st.OracleDetector(renderer), "procedural-2", render=False)
    assert run.score.hands_exact == 2 and run.score.reneges_proven > 0
    first_end = next(a for _, a in run.pipeline.announcements if isinstance(a, HandScored | ThrownIn))
    stuck = [(f, a) for f, a in run.pipeline.announcements if a is not first_end]
    score = st.score_run(script, stuck, run.pipeline.landings)
    assert score.deals_seen == run.score.deals_seen - 1
    assert score.hands_exact == run.score.hands_exact - (0 if isinstance(first_end, ThrownIn) else 1)
    assert score.tricks_right == run.score.tricks_right
    assert score.reneges_proven == run.score.reneges_proven and score.false_renege_alerts == 0


class _Blind:
    """The oracle, blind to one card of one deal (as if the camera never saw it played)."""

    def __init__(self, inner: st.OracleDetector, card: object, frames: range) -> None:
        self.inner, self.card, self.frames = inner, card, frames

    def detect(self, frame_bgr: object, frame: int = 0) -> list[CardDetection]:
        found = self.inner.detect(frame_bgr, frame)  # type: ignore[arg-type]
        return [d for d in found if not (d.card == self.card and frame in self.frames)]


def test_a_card_never_seen_costs_its_hand_and_the_next_up_card_brings_the_engine_back_in_step() -> None:
    script = st.build_script(SEED, hands=3, renege_rate=0.0)
    faces, back, _ = st.load_deck("procedural", None)
    renderer = st.TableRenderer(script, faces, back, seed=SEED)
    first = [d for d in range(len(script.deals)) if not script.deals[d].thrown_in][1]  # not the first deal
    plays = [r for r in script.rests if r.deal == first and r.kind == "play"]
    lost = plays[5]  # the second trick's second card
    nxt = min(r.frame for r in script.rests if r.deal > first and r.kind == "up_card")
    blind = _Blind(st.OracleDetector(renderer), lost.card, range(lost.frame - 40, nxt))
    run = st.run_simulation(script, renderer, blind, "procedural-2", render=False)  # type: ignore[arg-type]
    deals = run.pipeline.match.deals
    assert len(deals) == len(script.deals) and all(d.finished for d in deals)
    assert any(isinstance(a, Irregularity) and a.kind is IrregularityKind.HAND_UNFINISHED
               for _, a in run.pipeline.announcements)
    # every deal after the lost card's is followed exactly
    for got, want in list(zip(deals, script.deals, strict=True))[first + 1:]:
        assert got.trick_winners == list(want.trick_winners) and got.points == want.points
    assert run.score.false_renege_alerts == 0
    if deals[first].reason == "unfinished":
        assert run.score.hands_exact == run.score.hands - 1
    else:  # the tricks seen decided the lost hand: scored as the table scored it
        assert deals[first].points == script.deals[first].points and run.score.hands_exact == run.score.hands
    # The closing announcements, made at the next deal's up-card, count for the lost hand, even when that
    # up-card is read a couple of frames before the script says it came to rest.
    closed_at = next(f for f, a in run.pipeline.announcements
                     if isinstance(a, Irregularity) and a.kind is IrregularityKind.HAND_UNFINISHED)
    for shift in (0, nxt - 1 - closed_at):
        moved = [(f + shift if isinstance(a, Irregularity | HandScored) else f, a)
                 for f, a in run.pipeline.announcements]
        by_deal = st.announcements_by_deal(script, moved)
        closed = [a for a in by_deal[first] if isinstance(a, HandScored)]
        assert closed and closed[-1].reason == deals[first].reason
        assert all(not (isinstance(a, Irregularity) and a.kind is IrregularityKind.HAND_UNFINISHED)
                   for d in by_deal[first + 1:] for a in d)


def test_a_renege_proven_by_a_later_card_of_the_suit_held_is_not_a_false_alert() -> None:
    # The script's proof card read too unsurely to count, a later card of the suit the seat held proves it.
    script = st.build_script(SEED, hands=2, renege_rate=0.3)
    faces, back, _ = st.load_deck("procedural", None)
    renderer = st.TableRenderer(script, faces, back, seed=SEED)
    run = st.run_simulation(script, renderer, st.OracleDetector(renderer), "procedural-2", render=False)
    k, f, proof = next(
        (k, f, a) for k, (f, a) in enumerate(run.pipeline.announcements) if isinstance(a, RenegeProven)
    )
    deal = next(d for d in script.deals if any(r.seat == proof.seat for r in d.reneges))
    renege = next(r for r in deal.reneges if r.seat == proof.seat and r.suit == proof.evidence.suit)
    others = [c for c in renege.held if c != proof.evidence.proof_card]
    stranger = Card.parse("Jd") if proof.evidence.proof_card != Card.parse("Jd") else Card.parse("Qd")
    announcements = list(run.pipeline.announcements)
    for card, false_alerts in ((others[0] if others else None, 0), (stranger, 1)):
        if card is None:
            continue
        evidence: RenegeEvidence = dataclasses.replace(proof.evidence, proof_card=card)
        announcements[k] = (f, RenegeProven(proof.seat, evidence))
        assert st.score_run(script, announcements, run.pipeline.landings).false_renege_alerts == false_alerts
