"""Enrolment on the rendered mat with the shipped reader, and ``euchre-table enrol`` on its recording."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import cv2
import pytest

from companion.buttons_script import dump_buttons
from companion.cli import main
from display.enrolment import Enrolment
from lab import sim_enrol as se
from lab import simtable as st
from table.cards import BENNY, deck
from table.rules import Rules
from vision.deck_profile import load_profile
from vision.models import default_model_path
from vision.onnx_detector import OnnxDetector

pytestmark = pytest.mark.slow  # the shipped reader on some hundred rendered frames

BRITISH = Rules.preset("british")
SEED = 0  # the Joker is in the first batch


@pytest.fixture(scope="module")
def detector() -> OnnxDetector:
    return OnnxDetector(default_model_path(), threads=1)


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory, detector: OnnxDetector) -> tuple[Path, se.EnrolRun]:
    """The first batch of a British deck (procedural faces) enrolled on the rendered mat, recorded as pictures
    with the scripted player's presses and each frame's ground truth."""
    folder = tmp_path_factory.mktemp("enrolment")
    (folder / "frames").mkdir()
    faces, back, _ = st.load_deck("procedural", None, 25)
    truth: dict[int, list[tuple[str, tuple[tuple[float, float], ...]]]] = {}

    def on_frame(n: int, image: st.Image, e: object) -> None:
        cv2.imwrite(str(folder / "frames" / f"{n:04d}.png"), image)

    cards = deck(25)
    run = se.simulate_enrolment(cards, faces, back, se.onnx_enrolment(detector, cards), BRITISH, seed=SEED,
                                on_frame=on_frame, batches=1)  # fmt: skip
    renderer = run.renderer
    assert renderer is not None
    for n in (run.frames - 20, run.frames - 12):
        truth[n] = [(str(s.card), s.corners) for s in renderer.visible(n) if s.visible > 0.95]
    (folder / "buttons.jsonl").write_text(dump_buttons(run.pressed), encoding="utf-8")
    (folder / "truth.json").write_text(json.dumps(truth), encoding="utf-8")
    return folder, run


def test_the_first_batch_is_enrolled_right(recording: tuple[Path, se.EnrolRun]) -> None:
    _folder, run = recording
    e = run.enrolment
    assert run.batches == 1 and len(e.enrolled) == se.PER_BATCH
    assert run.wrong_named == []  # every card enrolled under its own name (wrong readings were undone)
    assert run.presses >= run.asked and run.seconds < 40
    assert e.done and len(e.missing) == 25 - se.PER_BATCH


def test_the_enrol_command_reads_the_recording_through_the_camera_path(
    recording: tuple[Path, se.EnrolRun], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, run = recording
    config = tmp_path / "british.toml"
    config.write_text("[rules]\npreset = 'british'\n\n[camera]\ndeck = 'pub'\n", encoding="utf-8")
    out = tmp_path / "out"
    argv = ["enrol", "--config", str(config), "--source", f"images:{folder / 'frames'}", "--buttons",
            str(folder / "buttons.jsonl"), "--headless", "--out", str(out)]  # fmt: skip
    assert main(argv) == 1  # saved, but the deck is not whole: 15 cards were never laid
    captured = capsys.readouterr()
    assert f"{se.PER_BATCH} of 25 cards" in captured.out and "missing" in captured.out
    profile = load_profile(out / "decks" / "pub", images=True)
    assert set(profile.cards) == set(run.enrolment.enrolled)
    assert (out / "decks" / "pub" / "contact_sheet.png").stat().st_size > 10_000
    screens = sorted(p.name for p in (out / "screens").glob("*.png"))
    assert screens[-1].endswith("contact-sheet.png") and any("question" in s for s in screens) == (run.asked > 0)
    # Enrolling again replaces the profile whole.
    assert main(argv) == 1
    assert not (out / "decks" / "pub.new").exists() and not (out / "decks" / "pub.old").exists()
    assert set(load_profile(out / "decks" / "pub").cards) == set(profile.cards)


def test_enrol_from_labelled_photos(recording: tuple[Path, se.EnrolRun], tmp_path: Path) -> None:
    folder, _run = recording
    truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    photos = tmp_path / "photos"
    photos.mkdir()
    rows = []
    for n, seen in truth.items():
        name = f"{int(n):04d}.png"
        (photos / name).write_bytes((folder / "frames" / name).read_bytes())
        for card, corners in seen:
            xs, ys = [p[0] for p in corners], [p[1] for p in corners]
            w, h = st.FRAME_SIZE
            box = ((min(xs) + max(xs)) / 2 / w, (min(ys) + max(ys)) / 2 / h, (max(xs) - min(xs)) / w,
                   (max(ys) - min(ys)) / h)  # fmt: skip
            rows.append([name, card, *(f"{v:.4f}" for v in box)])
    labels = photos / "labels.csv"
    with labels.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["image", "class", "x_center", "y_center", "width", "height"], *rows])
    out = tmp_path / "out"
    assert main(["enrol", "--from-photos", str(photos), str(labels), "--out", str(out), "--name", "photos"]) == 1
    profile = load_profile(out / "decks" / "photos")
    labelled = {r[1] for r in rows}
    assert len(profile) >= len(labelled) - 1 and {str(c) for c in profile.cards} <= labelled
    assert (out / "decks" / "photos" / "contact_sheet.png").is_file()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--headless"], "--headless needs --out"),
        (["--source", "sim", "--out", "OUT"], "simulate --enrol"),
        (["--name", "../up", "--out", "OUT"], "deck name"),
    ],
)
def test_enrol_bad_arguments_are_one_clear_error(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [str(tmp_path) if a == "OUT" else a for a in argv]
    assert main(["enrol", *argv]) == 2
    assert message in capsys.readouterr().err


def test_the_joker_is_enrolled_with_its_face(recording: tuple[Path, se.EnrolRun]) -> None:
    _folder, run = recording
    e = run.enrolment
    assert BENNY in e.enrolled and BENNY in e.faces()


@pytest.mark.parametrize("read_detail", [True, False])
def test_a_two_stream_enrolment_reads_the_stream_asked_for(detector: OnnxDetector, read_detail: bool) -> None:
    faces, back, _ = st.load_deck("procedural", None, 24)
    cards = deck(24)
    make = se.onnx_enrolment(detector, cards)
    seen: list[tuple[int, ...] | None] = []

    def noting() -> Enrolment:
        e = make()
        update = e.update

        def spy(frame_bgr: st.Image, frame: int, detail_bgr: st.Image | None = None) -> None:
            seen.append(None if detail_bgr is None else detail_bgr.shape)
            update(frame_bgr, frame, detail_bgr)

        e.update = spy  # type: ignore[method-assign]
        return e

    run = se.simulate_enrolment(cards, faces, back, noting, Rules(), seed=SEED, batches=1, detail=2,
                                read_detail=read_detail)  # fmt: skip
    assert set(seen) == ({(960, 1280, 3)} if read_detail else {None})
    assert len(run.enrolment.enrolled) >= se.PER_BATCH - 1
    # the profile's pictures come from the stream read: faces are the same size either way (72 x 100)
    assert {f.shape for f in run.enrolment.faces().values()} == {(100, 72, 3)}


def test_the_player_waits_for_a_card_it_cannot_tell_yet_before_leaving_it_out() -> None:
    """The screen may ask about a card still sliding into place, which the scripted player cannot yet match to a
    rendered card: it waits while a card slides (a player sees which card is meant), and once every card lies
    still it leaves out an outline it cannot match (an outline on no card)."""
    import numpy as np

    from display.actions import Action, ButtonAction
    from display.enrolment import CardState, OnMat, Question

    cards = deck(24)
    e = Enrolment(cards, None, None)  # type: ignore[arg-type]  # the player only looks at the state
    quad = np.array([[0, 0], [60, 0], [60, 84], [0, 84]], np.float32)
    e.cards = [OnMat(7, quad, 100, 100, 100, state=CardState.ASKING)]
    e.question = Question(7, list(cards))
    run = se.EnrolRun(e)
    e.frame_number = 105
    assert se._player(e, {}, run, sliding=True) is None
    assert se._player(e, {7: cards[0]}, run, sliding=True) == Action(ButtonAction.CALL)  # told: answered at once
    assert se._player(e, {}, run, sliding=False) == Action(ButtonAction.NEW_GAME)
