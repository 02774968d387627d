"""A one-ink deck's enrolled index corners, compared as pictures with a reading's (``vision.index_pictures``).

With a profile of a deck printed light on dark paper, a reading whose corners look far more like a cousin's
enrolled corners (its rank in a suit of the other colour) than like the named card's is doubted: reported to be
checked, never renamed. Cards drawn here are procedural faces printed gold on black, all four suits in one ink.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from detector_testkit import SHIPPED_READER, Naming, large_card_frame, models_folder

from lab.synth.faces import procedural_face
from lab.synth.scenes import GOLD, card_quad, restyle_face
from table.cards import Card
from vision import cardcrop, index_pictures
from vision.deck_profile import CardPrototypes, DeckProfile, Prototype, load_profile, save_profile
from vision.index_pictures import IndexPictures, picture
from vision.models import DARK_CLASSIFIER_NAME, DARK_FINDER_NAME, REPO_MODELS_DIR
from vision.onnx_detector import OnnxDetector

HEIGHT = 260.0
CARDS = ("Kd", "Ks", "Kh", "Kc", "9c")


def _one_ink(card: str) -> np.ndarray:
    return restyle_face(procedural_face(card, 2), card, "one_ink", (15.0, 15.0, 15.0), GOLD)


def _seen(card: str, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """The card drawn large at ``angle``: the frame and its outline."""
    face = _one_ink(card)
    frame = large_card_frame(face, height=HEIGHT, angle=angle)
    quad = card_quad(320, 240, HEIGHT, face.shape[1] / face.shape[0], angle).astype(np.float32)
    return frame, cardcrop.order_corners(quad)


def _enrolled_corners(card: str) -> list[np.ndarray]:
    """The card's TL and BR corners as a dark deck's profile keeps them: cut, then turned over."""
    frame, quad = _seen(card, 0.3)
    crops = cardcrop.corner_crops_bgr(frame, quad)
    return [cardcrop.lightness_inverted(crops[i]) for i in (0, 2)]


@pytest.fixture(scope="module")
def enrolled() -> dict[str, list[np.ndarray]]:
    return {card: _enrolled_corners(card) for card in CARDS}


def _read_corners(card: str) -> list[np.ndarray]:
    """A reading's corners at the table: the card seen at another turn, cut and turned over as the reader
    reads a dark deck's card (``corner_crops``, normalised), then as compared."""
    frame, quad = _seen(card, -0.2)
    crops = cardcrop.corner_crops(frame, quad, refine=False, dark=True, turned_only=True)
    return [picture(c) for c in crops]


def test_a_picture_is_one_channel_of_zero_mean_and_unit_spread_either_layout() -> None:
    rng = np.random.default_rng(0)
    crop = rng.integers(0, 255, (64, 48, 3)).astype(np.uint8)
    hwc, chw = picture(crop), picture(np.transpose(crop, (2, 0, 1)).astype(np.float32) / 255.0)
    assert hwc.shape == (64, 48)
    assert abs(float(hwc.mean())) < 1e-4 and float(hwc.std()) == pytest.approx(1.0, abs=1e-4)
    np.testing.assert_allclose(hwc, chw, atol=1e-4)  # brightness and scale do not matter
    flat = picture(np.full((64, 48, 3), 80, np.uint8))
    assert not np.isnan(flat).any() and float(np.abs(flat).max()) == 0.0  # a blank crop: no division by zero


def test_a_cards_corners_match_its_own_enrolled_corners_better_than_its_cousins(
    enrolled: dict[str, list[np.ndarray]],
) -> None:
    given = {card: [picture(c) for c in crops] for card, crops in enrolled.items()}
    pictures = IndexPictures(given)
    corners = _read_corners("Kd")
    own = pictures.match(corners, "Kd")
    assert own is not None
    for cousin in ("Ks", "Kc"):
        rival = pictures.match(corners, cousin)
        assert rival is not None and own > rival + 0.02
    # Named as the king of spades, the king of diamonds' corners speak for its cousin, the king of diamonds. (The
    # procedural court's corner is mostly its letter and the picture's frame, alike in every suit: a small margin.)
    margin = pictures.cousin_margin(corners, "Ks")
    assert margin > 0.02
    assert pictures.cousin_margin(corners, "Kd") < 0  # named right: no cousin matches better
    assert not pictures.doubts(corners, "Kd")
    assert IndexPictures(given, margin=margin - 0.01).doubts(corners, "Ks")
    assert not IndexPictures(given, margin=margin + 0.01).doubts(corners, "Ks")


def test_a_card_or_cousins_without_enrolled_corners_are_never_doubted(enrolled: dict[str, list[np.ndarray]]) -> None:
    corners = _read_corners("Kd")
    no_cousins = IndexPictures({"Ks": [picture(c) for c in enrolled["Ks"]]}, margin=-2.0)
    assert no_cousins.cousin_margin(corners, "Ks") == float("-inf")  # no cousin of the king of spades enrolled
    assert not no_cousins.doubts(corners, "Ks")
    not_own = IndexPictures({"Kd": [picture(c) for c in enrolled["Kd"]]}, margin=-2.0)
    assert not not_own.doubts(corners, "Ks")  # the card named has no picture to compare
    assert not not_own.doubts(corners, "B")  # the Joker has no cousin


@pytest.fixture(scope="module")
def dual(tmp_path_factory: pytest.TempPathFactory) -> OnnxDetector:
    extras: dict[str, Path | None] = {
        DARK_CLASSIFIER_NAME: REPO_MODELS_DIR / DARK_CLASSIFIER_NAME,
        DARK_FINDER_NAME: REPO_MODELS_DIR / "card-obb.onnx",
    }
    return OnnxDetector(models_folder(tmp_path_factory.mktemp("m") / "models", REPO_MODELS_DIR, SHIPPED_READER, extras))


def _profile(classifier: object, enrolled: dict[str, list[np.ndarray]], dark_paper: bool) -> DeckProfile:
    """A profile of :data:`CARDS` with their enrolled corners as its crops (features from those crops)."""
    cards: dict[Card, CardPrototypes] = {}
    images: dict[str, np.ndarray] = {}
    width = 0
    for name, crops in enrolled.items():
        _, feats = classifier.run(np.stack([cardcrop.normalise_crop(c) for c in crops]))  # type: ignore[attr-defined]
        width = int(feats.shape[1])
        protos = []
        for corner, crop, f in zip(("TL", "BR"), crops, feats, strict=True):
            rel = f"crops/{name}-{corner}.png"
            images[rel] = crop
            protos.append(Prototype(corner, rel, f))
        cards[Card.parse(name)] = CardPrototypes(protos, None)
    return DeckProfile(name="gold", cards=cards, features=width, images=images, dark_paper=dark_paper)


@pytest.mark.parametrize(
    ("named", "dark_paper", "doubted"),
    [("Ks", True, True), ("Kd", True, False), ("Ks", False, False)],
)
def test_with_a_dark_decks_profile_a_reading_its_cousins_corners_match_better_is_doubted(
    dual: OnnxDetector, enrolled: dict[str, list[np.ndarray]], named: str, dark_paper: bool, doubted: bool,
) -> None:
    """The king of diamonds at the table, the dark classifier made to name it ``named``: with a dark deck's profile
    a king of spades is doubted (its confidence cut by ``DOUBT``, the undoubted one kept, so the reading is
    reported to be checked), the right name is not; a white deck's profile compares no pictures."""
    classifier = dual.classifier
    assert classifier is not None and classifier.dark_session is not None
    shipped = classifier.dark_session
    frame, quad = _seen("Kd", -0.2)
    classifier.use_profile(_profile(classifier, enrolled, dark_paper))
    assert (classifier.index_pictures is not None) is dark_paper
    if classifier.index_pictures is not None:
        classifier.index_pictures.margin = 0.01  # the procedural corners differ in the pip alone: a lower bar
    classifier.dark_session = Naming(shipped, classifier.classes, named)
    try:
        ((card, conf, undoubted),) = classifier.classify(frame, quad[None])
    finally:
        classifier.dark_session = shipped
        classifier.use_profile(None)
    assert classifier.index_pictures is None  # read without a profile again: nothing to compare
    if not dark_paper:
        return  # a white card under a white profile is read as printed, by the corner classifier
    assert str(card) == named  # never renamed
    if doubted:
        assert conf == pytest.approx(undoubted * index_pictures.DOUBT, rel=1e-3) and conf < 0.5 * undoubted
    else:
        assert conf == pytest.approx(undoubted, rel=1e-3) and conf > 0.9


def test_the_cut_that_lies_best_on_the_card_is_the_one_compared(enrolled: dict[str, list[np.ndarray]]) -> None:
    """An outline read along several hypotheses: a loose cut that happens to look somewhat like the king of spades'
    corners (here those corners under heavy noise) gives way to the cut whose corners match the deck's pictures
    best, the king of diamonds', wherever it comes; pooled, the loose cut would hide the cousin."""
    pictures = IndexPictures({card: [picture(c) for c in crops] for card, crops in enrolled.items()})
    right = _read_corners("Kd")
    rng = np.random.default_rng(1)
    loose = [picture(c.astype(np.float32) + rng.normal(0, 20, c.shape)) for c in enrolled["Ks"] * 2]
    fits = [pictures.match(cut, c) or -1.0 for cut in (loose, right) for c in ("Ks", "Kd")]
    assert fits[2] < fits[0] < fits[3]  # the loose cut is more like the king of spades than the right cut is
    alone = pictures.cousin_margin(right, "Ks")
    assert alone > 0
    assert pictures.cousin_margin(loose + right, "Ks") == pytest.approx(alone)
    assert pictures.cousin_margin(right + loose, "Ks") == pytest.approx(alone)
    assert pictures.cousin_margin(loose, "Ks") < 0


def test_a_dark_profile_loaded_from_its_folder_compares_its_stored_corners(
    dual: OnnxDetector, enrolled: dict[str, list[np.ndarray]], tmp_path: Path
) -> None:
    """Loaded from disk (the crops not read with the JSON), a dark deck's profile reads its corner PNGs for the
    pictures; a crop gone from the folder is left out, with no error (that card is then not compared)."""
    classifier = dual.classifier
    assert classifier is not None
    folder = tmp_path / "gold"
    save_profile(_profile(classifier, enrolled, dark_paper=True), folder)
    (folder / "crops" / "Kc-TL.png").unlink()
    (folder / "crops" / "Kc-BR.png").unlink()
    loaded = load_profile(folder)
    assert not loaded.images  # the crops are not read with the JSON
    classifier.use_profile(loaded)
    try:
        assert classifier.index_pictures is not None
        kept = {card: [where for _, where in pics] for card, pics in classifier.index_pictures.pictures.items()}
    finally:
        classifier.use_profile(None)
    diagonal = [(0, 2), (0, 2)]  # each stored corner (TL, BR) compared with a reading's TL and BR
    assert kept == {"Kd": diagonal, "Ks": diagonal, "Kh": diagonal, "Kc": [], "9c": diagonal}
