"""The dark-deck look: a still photo whose sure readings are mostly cards printed light on dark paper is read again
as a photo of such a deck, every card read both ways, as it is and turned over."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from detector_testkit import labelled_boxes

from vision import cardcrop
from vision.detection import CardDetection
from vision.models import default_model_path
from vision.onnx_detector import DARK_DECK_SHARE, OnnxDetector
from vision.postprocess import box_iou
from vision.sources.files import load_image

DATA = Path(__file__).resolve().parent / "data"
DARK = DATA / "dark-laid-out"
SCENE = "synth_00033.jpg"  # a ten of hearts, a jack of spades and a king of hearts printed light on dark paper
WHITE = DATA / "laid-out" / "synth_00016.jpg"  # ten cards of a white deck in rows


def _labels() -> dict[str, npt.NDArray[np.float32]]:
    """The scene's labelled boxes in its own pixels (x1, y1, x2, y2), by card."""
    return labelled_boxes(DARK, SCENE)


@pytest.fixture(scope="module")
def still() -> OnnxDetector:
    return OnnxDetector(default_model_path(), threads=1, tile_look=True, dark_deck_look=True)


@pytest.fixture(scope="module")
def without() -> OnnxDetector:
    """A still reader without the look: the tile look alone."""
    return OnnxDetector(default_model_path(), threads=1, tile_look=True)


def _sure(detector: OnnxDetector, frame: np.ndarray) -> dict[str, tuple[float, float, float, float]]:
    return {str(d.card): d.box for d in detector.detect(frame) if d.confidence >= detector.min_confidence}


def test_the_scene_holds_dark_cards_not_judged_dark_alone(without: OnnxDetector) -> None:
    # what the look is for: on the finder's outlines the ten is judged a dark card and named, the two courts whose
    # pictures fill their faces are not judged dark, and are cut and named as white cards: wrongly, or not at all
    frame = load_image(DARK / SCENE)
    labels = _labels()
    quads, _ = without.outlines(frame)
    judged = {}
    for quad in quads:
        box = np.concatenate([quad.min(0), quad.max(0)])
        card = max(labels, key=lambda c: float(box_iou(box, labels[c][None])[0]))
        judged[card] = cardcrop.judged_outline(frame, quad)[1]
    assert judged == {"Th": True, "Js": False, "Kh": False}
    assert set(_sure(without, frame)) == {"Th"}


def test_a_dark_decks_photo_gets_the_cards_it_missed(still: OnnxDetector, without: OnnxDetector) -> None:
    frame = load_image(DARK / SCENE)
    labels = _labels()
    before = _sure(without, frame)
    looks = still.looks.copy()
    after = _sure(still, frame)
    assert (still.looks - looks)["dark-deck"] == 1
    assert set(before) < set(after) <= set(labels), (before, after)
    # each card is named on its own place in the photo
    for card, box in after.items():
        assert box_iou(np.array(box, np.float32), labels[card][None])[0] > 0.5, card
    assert (still.looks - looks)["dark-deck-named"] == 1


def test_a_white_decks_photo_takes_no_dark_deck_look(still: OnnxDetector, without: OnnxDetector) -> None:
    frame = load_image(WHITE)
    looks = still.looks.copy()
    assert _sure(still, frame) == _sure(without, frame)
    assert (still.looks - looks)["dark-deck"] == 0


def test_a_plain_reader_and_a_reader_with_a_profile_never_take_it(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = load_image(DARK / SCENE)
    plain = OnnxDetector(default_model_path(), threads=1)
    plain.detect(frame)
    assert plain.looks["dark-deck"] == 0
    # a deck read with its profile is known: light or dark, the profile says so, not the photo
    still = OnnxDetector(default_model_path(), threads=1, tile_look=True, dark_deck_look=True)
    assert still.classifier is not None
    monkeypatch.setattr(still.classifier, "profile", object())
    dets = [CardDetection(still.classifier.cards["Th"], 0.99, (0, 0, 10, 10), 0, ((0, 0), (10, 0), (10, 10), (0, 10)))]
    monkeypatch.setattr(cardcrop, "judged_outline", lambda frame, quad, refine=True: ([quad], True))
    assert not still._judged_dark_deck(frame, dets)
    monkeypatch.setattr(still.classifier, "profile", None)
    assert still._judged_dark_deck(frame, dets)


@pytest.mark.parametrize(("dark", "of"), [(1, 1), (1, 2), (0, 2), (1, 3), (2, 3), (0, 0)])
def test_the_look_is_taken_where_enough_of_the_sure_cards_are_judged_dark(
    still: OnnxDetector, monkeypatch: pytest.MonkeyPatch, dark: int, of: int
) -> None:
    assert still.classifier is not None
    cards = list(still.classifier.cards.values())
    # the sure readings, the first ``dark`` of them judged dark (by their outline's left edge), and one reading only
    # to be checked, judged dark, which does not count
    dets = [
        CardDetection(cards[k], 0.95, (k * 20, 0, k * 20 + 10, 10), 0,
                      ((k * 20, 0), (k * 20 + 10, 0), (k * 20 + 10, 10), (k * 20, 10)))
        for k in range(of)
    ] + [CardDetection(cards[10], 0.3, (500, 0, 510, 10), 0, ((500, 0), (510, 0), (510, 10), (500, 10)))]

    def judged(frame: np.ndarray, quad: np.ndarray, refine: bool = True) -> tuple[list[np.ndarray], bool]:
        return [quad], bool(quad[0][0] < dark * 20 or quad[0][0] >= 500)

    monkeypatch.setattr(cardcrop, "judged_outline", judged)
    frame = np.zeros((20, 600, 3), np.uint8)
    assert still._judged_dark_deck(frame, dets) is (dark > 0 and dark >= DARK_DECK_SHARE * of)


def test_reading_every_card_as_maybe_dark_ends_with_the_block(still: OnnxDetector) -> None:
    assert still.classifier is not None
    classifier = still.classifier
    frame = load_image(DARK / SCENE)
    # the finder's outline of the king, which is not judged dark alone: read as printed, it is named as another card
    king = _labels()["Kh"]
    quads, _ = still.outlines(frame)
    quad = quads[[int(np.argmax([float(box_iou(np.concatenate([q.min(0), q.max(0)]), king[None])[0]) for q in quads]))]]
    as_printed = classifier.classify(frame, quad)
    assert as_printed[0][0] != classifier.cards["Kh"]
    with pytest.raises(RuntimeError), classifier.as_maybe_dark():
        assert classifier.classify(frame, quad)[0][0] == classifier.cards["Kh"]
        raise RuntimeError("a failure inside")
    assert classifier.classify(frame, quad) == as_printed


@pytest.mark.parametrize(("photo", "dark"), [(DARK / SCENE, True), (WHITE, False)])
def test_a_dark_decks_tiles_are_read_as_maybe_dark_too(
    still: OnnxDetector, monkeypatch: pytest.MonkeyPatch, photo: Path, dark: bool
) -> None:
    assert still.classifier is not None
    classifier = still.classifier
    seen: list[bool] = []
    real = still._tile_look

    def spy(*args: object, **kwargs: object) -> list[CardDetection]:
        seen.append(classifier._maybe_dark)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(still, "_tile_look", spy)
    still.detect(load_image(photo))
    assert seen == [dark]
    assert not classifier._maybe_dark


def test_a_white_card_read_as_maybe_dark_still_reads_as_printed(still: OnnxDetector) -> None:
    # a white deck whose number cards hold a dark panel is judged dark too: its other cards must still read
    assert still.classifier is not None
    classifier = still.classifier
    frame = load_image(WHITE)
    quads, _ = still.outlines(frame)
    as_printed = [card for card, conf, _, _ in classifier.classify(frame, quads) if card is not None and conf > 0.7]
    assert len(as_printed) >= 5
    with classifier.as_maybe_dark():
        both_ways = [card for card, _, _, _ in classifier.classify(frame, quads)]
    assert set(as_printed) <= set(both_ways)
