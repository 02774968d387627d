"""Enrolling a deck printed light on dark paper (a black-and-gold or a one-ink deck), and reading with its profile.

Enrolment outlines a dark card with the dark-deck finder (``OnnxDetector.card_outlines``) and, once most of the
outlines judged were dark, takes the deck for a dark one (``display.enrolment.OnnxReader.dark_deck``); the
profile keeps every card of a dark deck turned over and says the deck is dark (``DeckProfile.dark_paper``), and
the reader then reads every card of it turned over, by the dark classifier (``CornerClassifier``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from detector_testkit import SHIPPED_READER, Naming, large_card_frame, models_folder

from display.enrolment import DARK_DECK_MIN_JUDGED, OnnxReader
from lab.synth.faces import procedural_face
from lab.synth.scenes import GOLD, card_quad, restyle_face
from table.cards import Card
from vision import cardcrop
from vision.deck_profile import CardPrototypes, DeckProfile, ProfileBuilder, ProfileMatcher, Prototype, refeaturise
from vision.enrol_photos import enrol_from_photos
from vision.models import DARK_CLASSIFIER_NAME, DARK_FINDER_NAME, REPO_MODELS_DIR
from vision.onnx_detector import CardOutlines, OnnxDetector

HEIGHT = 260.0
ANGLE = 0.3


def _dark(card: str) -> np.ndarray:
    return restyle_face(procedural_face(card, 2), card, "dark", (15.0, 15.0, 15.0), GOLD)


def _quad(face: np.ndarray, grow: float = 1.0) -> np.ndarray:
    """The card's outline in :func:`large_card_frame`, ``grow`` times its size (a loose finder box)."""
    q = card_quad(320, 240, HEIGHT, face.shape[1] / face.shape[0], ANGLE).astype(np.float32)
    centre = q.mean(axis=0)
    out: np.ndarray = ((q - centre) * grow + centre).astype(np.float32)
    return out


class Spy:
    """Stands in for the dark finder's session: counts the frames asked of it, answers as the finder it wraps."""

    def __init__(self, session: Any) -> None:
        self.session, self.asked = session, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    def run(self, outputs: Any, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        self.asked += 1
        return list(self.session.run(outputs, feeds))


@pytest.fixture(scope="module")
def dual(tmp_path_factory: pytest.TempPathFactory) -> OnnxDetector:
    extras: dict[str, Path | None] = {
        DARK_CLASSIFIER_NAME: REPO_MODELS_DIR / DARK_CLASSIFIER_NAME,
        DARK_FINDER_NAME: REPO_MODELS_DIR / "card-obb.onnx",  # a stand-in: the finder itself
    }
    return OnnxDetector(models_folder(tmp_path_factory.mktemp("m") / "models", REPO_MODELS_DIR, SHIPPED_READER, extras))


def _outlined(
    detector: OnnxDetector, monkeypatch: pytest.MonkeyPatch, face: np.ndarray
) -> tuple[np.ndarray, np.ndarray, Spy]:
    """The card drawn large, the first finder outlining it 12% too large (as it outlines a dark card on a light
    mat), and a spy on the dark finder: the frame, that loose outline, the spy."""
    frame = large_card_frame(face, height=HEIGHT, angle=ANGLE)
    loose = _quad(face, 1.12)
    monkeypatch.setattr(detector, "outlines", lambda frame: (loose[None], np.array([0.9], np.float32)))
    spy = Spy(detector.dark_finder)
    monkeypatch.setattr(detector, "dark_finder", spy)
    return frame, loose, spy


def test_a_dark_cards_enrolment_outline_is_the_dark_finders(
    dual: OnnxDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    frame, loose, spy = _outlined(dual, monkeypatch, _dark("9c"))
    found = dual.card_outlines(frame)
    assert spy.asked == 1 and (found.judged_dark, found.judged) == (1, 1)
    assert len(found.quads) == 1 and not np.allclose(found.quads[0], loose)
    tight, _ = OnnxDetector.outlines(dual, frame)  # what the stand-in dark finder outlines: the finder's own
    np.testing.assert_allclose(found.quads[0], tight[0], atol=1e-3)


def test_a_white_cards_enrolment_outline_is_the_first_finders(
    dual: OnnxDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    frame, loose, spy = _outlined(dual, monkeypatch, procedural_face("9c", 2))
    found = dual.card_outlines(frame)
    assert spy.asked == 0 and (found.judged_dark, found.judged) == (0, 1)
    np.testing.assert_array_equal(found.quads, loose[None])
    # A deck known to be dark: the dark finder's outlines stand in whether judged dark or not.
    found = dual.card_outlines(frame, dark_deck=True)
    assert spy.asked == 1 and not np.allclose(found.quads[0], loose)
    assert (found.judged_dark, found.judged) == (0, 0)  # nothing judged once the deck is known dark


class _Counting:
    """A detector whose every frame has ``dark`` of ``judged`` outlines judged dark; records ``dark_deck``."""

    classifier = object()

    def __init__(self, dark: int, judged: int) -> None:
        self.dark, self.judged = dark, judged
        self.asked_dark_deck: list[bool] = []

    def card_outlines(self, frame_bgr: np.ndarray, dark_deck: bool = False) -> CardOutlines:
        self.asked_dark_deck.append(dark_deck)
        empty = np.zeros((0, 4, 2), np.float32)
        return CardOutlines(empty, np.zeros(0, np.float32), self.dark, self.judged)


@pytest.mark.parametrize(("dark", "judged", "after"), [(3, 4, True), (2, 4, False), (0, 5, False)])
def test_the_enrolment_takes_the_deck_for_dark_once_most_outlines_were(dark: int, judged: int, after: bool) -> None:
    detector = _Counting(dark, judged)
    reader = OnnxReader(detector)  # type: ignore[arg-type]
    frame = np.zeros((8, 8, 3), np.uint8)
    assert not reader.dark_deck
    frames = -(-DARK_DECK_MIN_JUDGED // judged)  # enough frames to have judged the least needed
    for _ in range(frames + 1):
        reader.outlines(frame)
    assert reader.dark_deck is after
    assert detector.asked_dark_deck[0] is False and detector.asked_dark_deck[-1] is after


def test_a_lone_dark_outline_is_too_few_to_call_the_deck_dark() -> None:
    reader = OnnxReader(_Counting(1, 1))  # type: ignore[arg-type]
    for _ in range(DARK_DECK_MIN_JUDGED - 1):
        reader.outlines(np.zeros((8, 8, 3), np.uint8))
    assert not reader.dark_deck


@pytest.fixture(scope="module")
def reader() -> OnnxDetector:
    return OnnxDetector(REPO_MODELS_DIR / "card-obb.onnx", threads=1)


def _add(builder: ProfileBuilder, card: str, face: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    frame = large_card_frame(face, height=HEIGHT, angle=ANGLE, onto=np.full((480, 640, 3), 200, np.uint8))
    quad = _quad(face)
    builder.add(card, frame, quad)
    return frame, quad


def test_a_dark_decks_profile_keeps_every_card_turned_over(reader: OnnxDetector) -> None:
    assert reader.classifier is not None
    builder = ProfileBuilder(reader.classifier)
    for card in ("9c", "Kd", "Jh"):
        frame, quad = _add(builder, card, _dark(card))
        assert cardcrop.judged_outline(frame, quad)[1]
    white_frame, white_quad = _add(builder, "Qs", procedural_face("Qs", 2))  # a card the judge missed
    assert not cardcrop.judged_outline(white_frame, white_quad)[1]
    profile = builder.build("gold")
    assert profile.dark_paper
    turned = [
        cardcrop.lightness_inverted(c)
        for c in cardcrop.corner_crops_bgr(white_frame, cardcrop.order_corners(white_quad))
    ]
    for proto in profile.cards[Card.parse("Qs")].prototypes:
        kept = profile.images[proto.crop]
        np.testing.assert_array_equal(kept, turned[("TL", "TR", "BR", "BL").index(proto.corner)])
    # A white deck with one card judged dark: a white profile, its white cards kept as they are.
    builder = ProfileBuilder(reader.classifier)
    _add(builder, "9c", _dark("9c"))
    for card in ("Kd", "Jh", "Qs"):
        _add(builder, card, procedural_face(card, 2))
    profile = builder.build("white")
    assert not profile.dark_paper
    for proto in profile.cards[Card.parse("Qs")].prototypes:
        assert float(np.median(profile.images[proto.crop])) > 150  # white paper, as cut


def _profile_of(classifier: Any, dark_paper: bool) -> DeckProfile:
    """A profile of every card, its prototypes the classifier's features of a white procedural card each."""
    cards: dict[Card, CardPrototypes] = {}
    for name in ("9c", "Ks", "Kd", "Qs"):
        face = procedural_face(name, 2)
        frame = large_card_frame(face, height=HEIGHT, angle=ANGLE)
        crops = cardcrop.corner_crops(frame, _quad(face), refine=False, dark=False)
        _, feats = classifier.run(crops)
        cards[Card.parse(name)] = CardPrototypes(
            [Prototype(c, f"crops/{name}-{c}.png", feats[k]) for k, c in enumerate(("TL", "TR", "BR", "BL"))], None
        )
    return DeckProfile(name="house", cards=cards, features=int(feats.shape[1]), dark_paper=dark_paper)


def test_with_a_dark_profile_every_card_is_read_turned_over_alone(dual: OnnxDetector) -> None:
    """A dark deck's profile: a card not judged dark is read as a dark card, and only turned over (as printed,
    light on dark paper, the classifiers see no index), so a dark deck costs no more crops than a white one."""
    classifier = dual.classifier
    assert classifier is not None and classifier.dark_session is not None
    shipped, corner = classifier.dark_session, classifier.session
    face = procedural_face("9c", 2)
    frame = large_card_frame(face, height=HEIGHT, angle=ANGLE)
    quad = _quad(face)
    assert not cardcrop.judged_outline(frame, quad)[1]
    block = len(cardcrop.corner_crops(frame, quad, dark=True))
    try:
        for dark_paper, named_dark in ((False, []), (True, [block // 2])):
            classifier.use_profile(_profile_of(classifier, dark_paper))
            spy, features = Naming(shipped, classifier.classes, "Qs"), Naming(corner, classifier.classes, None)
            classifier.dark_session, classifier.session = spy, features
            classifier.classify(frame, quad[None])
            assert spy.asked == named_dark  # a white profile reads a white card as it is, a dark one turned over
            assert features.asked == [block // 2]  # either way, one half's crops: as it is, or turned over
    finally:
        classifier.dark_session, classifier.session = shipped, corner
        classifier.use_profile(None)


def test_with_a_profile_a_dark_cards_turned_over_crops_are_named_by_the_dark_classifier(
    dual: OnnxDetector,
) -> None:
    classifier = dual.classifier
    assert classifier is not None and classifier.dark_session is not None
    shipped = classifier.dark_session
    face = _dark("9c")
    frame = large_card_frame(face, height=HEIGHT, angle=ANGLE)
    quad = _quad(face)
    assert cardcrop.judged_outline(frame, quad)[1]
    block = len(cardcrop.corner_crops(frame, quad, dark=True))
    spy = Naming(shipped, classifier.classes, "Ks")
    classifier.dark_session = spy
    classifier.use_profile(_profile_of(classifier, dark_paper=False))
    try:
        ((card, _, _, _),) = classifier.classify(frame, quad[None])
    finally:
        classifier.dark_session = shipped
        classifier.use_profile(None)
    assert spy.asked == [block // 2]  # the turned-over half, and only those
    assert str(card) == "Ks"  # its naming, weighed with the prototypes, is the reading


def test_a_profile_doubts_a_dark_reading_split_with_its_cousin() -> None:
    """With a profile too, a dark card's turned-over crops split between the king of spades and the king of
    diamonds (the same rank in the other colour) make an unsure reading, the same split between the king and
    queen of spades does not."""
    width = 4
    classes = [c for c in cardcrop.CLASSIFIER_CLASSES]
    cards = {
        Card.parse(n): CardPrototypes([Prototype("TL", f"crops/{n}-TL.png", np.eye(width, dtype=np.float32)[k])], None)
        for k, n in enumerate(("Ks", "Kd", "Qs", "9c"))
    }
    matcher = ProfileMatcher(DeckProfile(name="d", cards=cards, features=width), classes)
    feats = np.full((2, width), 0.5, np.float32)  # alike to every prototype: the classifier decides
    seen = {}
    for other in ("Kd", "Qs"):
        logits = np.full((2, len(classes)), -20.0, np.float32)
        logits[:, classes.index("Ks")] = np.log(0.6)
        logits[:, classes.index(other)] = np.log(0.4)
        name, plain, _, _ = matcher.shares(logits, feats)
        blind_name, blind, _, _ = matcher.shares(logits, feats, colour_blind=True)
        assert name == blind_name == "Ks"
        seen[other] = (plain, blind)
    assert seen["Qs"][1] == pytest.approx(seen["Qs"][0])  # a rank apart: no cousin, no doubt
    assert seen["Kd"][1] < 0.5 * seen["Kd"][0]  # the cousin: doubted


def test_the_dark_paper_flag_survives_a_retrained_classifier(reader: OnnxDetector) -> None:
    """A profile of another classifier has its features taken again from its crops (``refeaturise``): it stays a
    dark deck's."""
    assert reader.classifier is not None
    rng = np.random.default_rng(0)
    images = {f"crops/{n}-TL.png": rng.integers(0, 255, (64, 48, 3), dtype=np.uint8) for n in ("Ks", "Kd")}
    cards = {
        Card.parse(n): CardPrototypes([Prototype("TL", f"crops/{n}-TL.png", np.ones(8, np.float32))], None)
        for n in ("Ks", "Kd")
    }
    profile = DeckProfile(name="d", cards=cards, features=8, classifier_sha256="0" * 64, images=images,
                          dark_paper=True)
    again = refeaturise(profile, reader.classifier)
    assert again.dark_paper and again.features != 8


def test_enrolment_from_photos_of_a_dark_deck_makes_a_dark_profile(reader: OnnxDetector, tmp_path: Path) -> None:
    """``enrol --from-photos``: photos of a gold-on-black deck, labelled, make a profile that says so."""
    import cv2

    images = tmp_path / "images"
    images.mkdir()
    rows = ["image,class,x_center,y_center,width,height"]
    for card in ("9c", "Kd", "Jh"):
        face = _dark(card)
        frame = large_card_frame(face, height=HEIGHT, angle=ANGLE, onto=np.full((480, 640, 3), 200, np.uint8))
        cv2.imwrite(str(images / f"{card}.png"), frame)
        q = _quad(face)
        (x0, y0), (x1, y1) = q.min(axis=0), q.max(axis=0)
        rows.append(f"{card}.png,{card},{(x0 + x1) / 1280},{(y0 + y1) / 960},{(x1 - x0) / 640},{(y1 - y0) / 480}")
    (tmp_path / "labels.csv").write_text("\n".join(rows) + "\n")
    result = enrol_from_photos(images, tmp_path / "labels.csv", "gold", detector=reader)
    assert sorted(str(c) for c in result.profile.cards) == ["9c", "Jh", "Kd"]
    assert result.profile.dark_paper
    for entry in result.profile.cards.values():
        for proto in entry.prototypes:
            assert float(np.median(result.profile.images[proto.crop])) > 150  # dark paper, turned over: light
