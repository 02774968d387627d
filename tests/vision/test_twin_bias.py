"""A deck's lean between twin suits (vision.twin_bias) and how a profile reads with it (ProfileMatcher)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from table.cards import Card, Suit
from vision import cardcrop
from vision.deck_profile import CardPrototypes, DeckProfile, ProfileMatcher, Prototype, load_profile, save_profile
from vision.twin_bias import (
    SUIT_PAIRS,
    deck_lean,
    fit_offset,
    harder_copies,
    suit_offsets,
    twin_margins,
)

FloatArray = npt.NDArray[np.float32]
CLASSES = ["Kc", "Ks", "Kh", "Kd", "B", "none"]


def test_an_even_handed_classifier_has_no_lean() -> None:
    margins = [2.0, 3.0, 0.5, 4.0]
    assert fit_offset(margins, margins) == pytest.approx(0.0, abs=1e-6)
    assert fit_offset([], margins) == 0.0


def test_the_lean_is_towards_the_suit_read_less_surely() -> None:
    """Clubs read barely over spades (some under) and spades surely: clubs get the offset."""
    clubs, spades = [0.5, -0.5, 1.0, -1.0, 0.2], [5.0, 6.0, 4.0, 5.5, 6.0]
    d = fit_offset(clubs, spades)
    assert d > 0.5
    assert fit_offset(spades, clubs) == pytest.approx(-d, abs=1e-6)
    # the penalty pulls it towards none
    assert 0.0 < fit_offset(clubs, spades, lam=50.0) < d
    offsets = suit_offsets({Suit.CLUBS: clubs, Suit.SPADES: spades, Suit.HEARTS: [3.0], Suit.DIAMONDS: [3.0]})
    assert offsets[Suit.CLUBS] == pytest.approx(d / 2) and offsets[Suit.SPADES] == pytest.approx(-d / 2)
    assert offsets[Suit.HEARTS] == offsets[Suit.DIAMONDS] == 0.0
    assert {s for pair in SUIT_PAIRS for s in pair} == set(offsets)


def test_the_joker_has_no_lean() -> None:
    m = _matcher_with(["Kc", "Ks", "B"], ["Kc", "Ks", "B", "none"])
    m.set_lean({Suit.CLUBS: 0.4, Suit.SPADES: -0.4, Suit.HEARTS: 0.0, Suit.DIAMONDS: 0.0})
    assert m.lean is not None
    assert m.lean.tolist() == pytest.approx([0.4, -0.4, 0.0])


def test_harder_copies_keep_the_crop_size() -> None:
    crop = np.random.default_rng(0).integers(0, 255, (cardcrop.CROP_H, cardcrop.CROP_W, 3), np.uint8)
    copies = harder_copies(crop)
    assert len(copies) == 4
    assert all(c.shape == crop.shape and c.dtype == np.uint8 for c in copies)
    assert all(not np.array_equal(c, crop) for c in copies)


class LeaningClassifier:
    """Reads a crop by its mean brightness (dark: a club, light: a spade); ``lean`` more logit on spades."""

    classes = CLASSES

    def __init__(self, lean: float) -> None:
        self.lean = lean
        self.calls = 0

    def run(self, crops: FloatArray) -> tuple[FloatArray, FloatArray]:
        self.calls += 1
        light = crops.mean(axis=(1, 2, 3)) - 0.5  # normalised crops: paper white is 1.0
        logits = np.zeros((len(crops), len(self.classes)), np.float32)
        logits[:, 0] = -4.0 * light  # Kc
        logits[:, 1] = 4.0 * light + self.lean  # Ks
        logits[:, 5] = -6.0  # none
        return logits, np.zeros((len(crops), 4), np.float32)


def _profile_with_crops(width: int = 4) -> DeckProfile:
    """Kc with dark corners, Ks with light ones, as stored crops (features ``width`` wide)."""
    dark = np.full((cardcrop.CROP_H, cardcrop.CROP_W, 3), 255, np.uint8)
    dark[8:56, 8:40] = 40  # the white is the 90th percentile: the ink darkens the mean
    light = np.full_like(dark, 255)
    light[20:30, 20:30] = 40
    images = {"crops/Kc-TL.png": dark, "crops/Ks-TL.png": light}
    cards = {
        Card.parse("Kc"): CardPrototypes([Prototype("TL", "crops/Kc-TL.png", np.ones(width, np.float32))]),
        Card.parse("Ks"): CardPrototypes([Prototype("TL", "crops/Ks-TL.png", np.ones(width, np.float32))]),
    }
    return DeckProfile(name="t", cards=cards, features=width, images=images)


def test_the_lean_is_measured_on_the_enrolled_crops() -> None:
    profile = _profile_with_crops()
    even = twin_margins(LeaningClassifier(0.0), [(Card.parse("Kc"), profile.images["crops/Kc-TL.png"])])
    assert len(even[Suit.CLUBS]) == 5  # the crop and its four harder copies
    leaning = LeaningClassifier(3.0)
    offsets = deck_lean(profile, leaning)
    assert leaning.calls == 1  # one batch
    assert offsets[Suit.CLUBS] > 0.2 > -0.2 > offsets[Suit.SPADES]
    assert offsets[Suit.HEARTS] == offsets[Suit.DIAMONDS] == 0.0  # no hearts or diamonds enrolled
    assert abs(deck_lean(profile, LeaningClassifier(0.0))[Suit.CLUBS]) < offsets[Suit.CLUBS] / 2


def test_a_profile_without_its_crops_has_no_lean() -> None:
    profile = _profile_with_crops()
    profile.images.clear()
    assert set(deck_lean(profile, LeaningClassifier(3.0)).values()) == {0.0}


def test_a_crop_missing_from_the_folder_is_left_out(tmp_path: Path) -> None:
    """A saved profile reads with its features alone, so a crop gone from its folder does not stop the reader
    taking it: the lean is measured on the crops that are there."""
    profile = _profile_with_crops()
    twice = profile.cards[Card.parse("Kc")]
    twice.prototypes.append(Prototype("BR", "crops/Kc-BR.png", twice.prototypes[0].features))
    profile.images["crops/Kc-BR.png"] = profile.images["crops/Kc-TL.png"]
    save_profile(profile, tmp_path)
    (tmp_path / "crops" / "Kc-BR.png").unlink()
    loaded = load_profile(tmp_path)
    offsets = deck_lean(loaded, LeaningClassifier(3.0))
    assert offsets[Suit.CLUBS] > 0.2 > -0.2 > offsets[Suit.SPADES]
    assert "crops/Kc-BR.png" not in loaded.images and "crops/Kc-TL.png" in loaded.images


def _matcher_with(names: list[str], classes: list[str]) -> ProfileMatcher:
    """A profile of ``names``, one one-hot prototype each (features 4 wide), read with ``classes``."""
    eye = np.eye(4, dtype=np.float32)
    cards = {Card.parse(c): CardPrototypes([Prototype("TL", f"crops/{c}-TL.png", eye[i])]) for i, c in enumerate(names)}
    return ProfileMatcher(DeckProfile(name="t", cards=cards, features=4), classes)


def _matcher() -> ProfileMatcher:
    return _matcher_with(["Kc", "Ks", "Kh", "Kd"], CLASSES)


def test_the_lean_doubts_a_reading_but_never_renames_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 1.0)
    feats = np.full((1, 4), 0.5, np.float32)
    spade = np.array([[0.0, 1.5, -4.0, -4.0, -6.0, -6.0]], np.float32)  # Ks over Kc by 1.5
    club = np.array([[1.5, 0.0, -4.0, -4.0, -6.0, -6.0]], np.float32)
    m = _matcher()
    plain_spade, plain_club = m.shares(spade, feats), m.shares(club, feats)
    assert plain_spade[0] == "Ks" and plain_club[0] == "Kc"
    m.set_lean({Suit.CLUBS: 1.0, Suit.SPADES: -1.0})  # the classifier leans to spades by 2 logits
    name, share, undoubted, _ = m.shares(spade, feats)
    # taken out, the lean would make it the king of clubs: same name, not sure at all, and what the reading
    # was before any doubt is kept (so it can still be reported to be checked)
    assert (name, share) == ("Ks", 0.0) and undoubted == pytest.approx(plain_spade[2])
    # a club read against the lean is as sure as before (its share with the lean out is higher)
    assert m.shares(club, feats) == pytest.approx(plain_club)
    # a smaller lean lowers the spade's share without taking it away
    m.set_lean({Suit.CLUBS: 0.25, Suit.SPADES: -0.25})
    name, share, _, _ = m.shares(spade, feats)
    assert name == "Ks" and 0.0 < share < plain_spade[1]


def test_no_lean_reads_exactly_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 1.0)
    rng = np.random.default_rng(1)
    logits = rng.normal(0, 2, (2, len(CLASSES))).astype(np.float32)
    feats = rng.random((2, 4)).astype(np.float32)
    m = _matcher()
    before = m.shares(logits, feats)
    m.set_lean(dict.fromkeys(Suit, 0.0))
    assert m.lean is None
    assert m.shares(logits, feats) == before


def test_the_reader_measures_the_lean_when_it_takes_a_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    """``CornerClassifier.use_profile`` fits the lean on the profile's crops with its own classifier."""
    from vision import twin_bias
    from vision.models import default_model_path
    from vision.onnx_detector import OnnxDetector

    seen: list[tuple[DeckProfile, object]] = []

    def fake_lean(profile: DeckProfile, classifier: object) -> dict[Suit, float]:
        seen.append((profile, classifier))
        return {Suit.CLUBS: 0.5, Suit.SPADES: -0.5, Suit.HEARTS: 0.0, Suit.DIAMONDS: 0.0}

    monkeypatch.setattr(twin_bias, "deck_lean", fake_lean)
    det = OnnxDetector(default_model_path(), threads=1)
    assert det.classifier is not None
    profile = _profile_with_crops(width=128)  # the shipped classifier's features
    det.classifier.use_profile(profile)
    assert seen and seen[0][1] is det.classifier
    matcher = det.classifier.profile
    assert matcher is not None and matcher.lean is not None
    assert matcher.lean[matcher.card_names.index("Qc")] == pytest.approx(0.5)
    assert matcher.lean[matcher.card_names.index("Qs")] == pytest.approx(-0.5)
