"""Deck profiles (vision.deck_profile, vision.enrol_photos): files, hostile input, enrolment, and the reader.

The reader without a profile must read exactly as it did before profiles existed: it asks the classifier
for its logits only, and a detector that had a profile and dropped it reads like one that never had one.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from table.cards import Card
from vision.deck_profile import (
    BENNY_FACE_CONFIDENCE,
    FORMAT,
    MAX_PROFILE_BYTES,
    PROFILE_FILE,
    CardPrototypes,
    DeckProfile,
    ProfileBuilder,
    ProfileMatcher,
    Prototype,
    alike_pairs,
    configured_profile,
    indistinct_cousins,
    load_profile,
    profile_folder,
    save_profile,
)
from vision.enrol_photos import enrol_from_photos, split_halves
from vision.errors import UserError
from vision.labels import read_labels
from vision.models import default_model_path
from vision.onnx_detector import FEATURES_OUTPUT, OnnxDetector
from vision.sources.files import load_image

DEV = Path(__file__).resolve().parent / "data" / "dev-photos"
PHOTOS = [
    "edje_test_IMG_2580.jpg",
    "edje_test_cam_image2.jpg",
    "edje_test_cam_image6.jpg",
    "edje_train_cam_image42.jpg",
]


@pytest.fixture(scope="module")
def detector() -> OnnxDetector:
    return OnnxDetector(default_model_path(), threads=1)


@pytest.fixture(scope="module")
def enrolled(tmp_path_factory: pytest.TempPathFactory, detector: OnnxDetector) -> Path:
    """A profile enrolled from the four dev photos' labels (15 cards)."""
    out = tmp_path_factory.mktemp("decks") / "house"
    result = enrol_from_photos(DEV, DEV / "labels.csv", "house", detector=detector, out=out, images=PHOTOS)
    assert result.folder == out
    return out


def tiny_profile(width: int = 8) -> DeckProfile:
    rng = np.random.default_rng(0)
    cards = {}
    images = {}
    for name in ("Qh", "Qd", "B"):
        protos = []
        for corner in ("TL", "BR"):
            rel = f"crops/{name}-{corner}.png"
            images[rel] = rng.integers(0, 255, (64, 48, 3), dtype=np.uint8)
            protos.append(Prototype(corner, rel, rng.random(width).astype(np.float32)))
        face = f"crops/{name}-face.png"
        images[face] = rng.integers(0, 255, (100, 72, 3), dtype=np.uint8)
        cards[Card.parse(name)] = CardPrototypes(
            protos, face, rng.random((2, width)).astype(np.float32) if name == "B" else None
        )
    return DeckProfile(name="tiny", cards=cards, features=width, classifier_sha256="ab" * 32, images=images)


def test_round_trip(tmp_path: Path) -> None:
    profile = tiny_profile()
    path = save_profile(profile, tmp_path / "tiny")
    assert path.name == PROFILE_FILE
    assert (tmp_path / "tiny" / "crops" / "Qh-TL.png").is_file()
    back = load_profile(tmp_path / "tiny", images=True)
    assert back.name == "tiny" and back.features == 8 and len(back) == 3
    assert [str(c) for c in back.card_list()] == ["Qd", "Qh", "B"]
    for card, entry in profile.cards.items():
        got = back.cards[card]
        assert [p.corner for p in got.prototypes] == [p.corner for p in entry.prototypes]
        for a, b in zip(got.prototypes, entry.prototypes, strict=True):
            np.testing.assert_allclose(a.features, b.features, atol=1e-5)
        assert (got.face_features is None) == (entry.face_features is None)
    np.testing.assert_array_equal(back.images["crops/Qh-TL.png"], profile.images["crops/Qh-TL.png"])
    doc = json.loads(path.read_text())
    assert doc["format"] == FORMAT and doc["version"] == 1 and doc["created"]
    assert doc["dark_paper"] is False and back.dark_paper is False


def test_a_dark_decks_profile_says_so_and_one_made_before_the_key_reads_as_white(tmp_path: Path) -> None:
    import dataclasses

    path = save_profile(dataclasses.replace(tiny_profile(), dark_paper=True), tmp_path / "dark")
    assert json.loads(path.read_text())["dark_paper"] is True
    assert load_profile(tmp_path / "dark").dark_paper is True
    doc = _good_doc()
    assert "dark_paper" not in doc
    assert load_profile(_write(tmp_path, json.dumps(doc))).dark_paper is False


def test_profile_folder_is_under_decks(tmp_path: Path) -> None:
    assert profile_folder(tmp_path, "house") == tmp_path / "decks" / "house"
    for bad in ("../x", "", ".hidden", "a/b", "x" * 65):
        with pytest.raises(UserError, match="deck name"):
            profile_folder(tmp_path, bad)


def test_the_configured_deck(tmp_path: Path) -> None:
    assert configured_profile(tmp_path, "") is None
    with pytest.raises(UserError) as err:
        configured_profile(tmp_path, "house")
    assert "[camera] deck = 'house'" in str(err.value) and "decks/house/profile.json" in str(err.value)
    save_profile(tiny_profile(), profile_folder(tmp_path, "house"))
    profile = configured_profile(tmp_path, "house")
    assert profile is not None and profile.name == "tiny"


def test_missing_profile_is_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(UserError) as err:
        load_profile(tmp_path / "nope")
    assert str(tmp_path / "nope" / PROFILE_FILE) in str(err.value) and "not found" in str(err.value)
    assert "\n" not in str(err.value)


def _write(tmp_path: Path, text: str) -> Path:
    (tmp_path / PROFILE_FILE).write_text(text, encoding="utf-8")
    return tmp_path


def _good_doc() -> dict[str, object]:
    return {
        "format": FORMAT,
        "version": 1,
        "name": "tiny",
        "created": "2026-01-01T00:00:00+00:00",
        "classifier": {"features": 2, "sha256": ""},
        "cards": {"Qh": {"prototypes": [{"corner": "TL", "crop": "crops/Qh-TL.png", "features": [0.1, 0.2]}]}},
    }


@pytest.mark.parametrize(
    ("change", "what"),
    [
        (lambda d: d.update(version=99), "newer"),
        (lambda d: d.update(version="1"), "version"),
        (lambda d: d.update(format="other"), "not a deck profile"),
        (lambda d: d.update(cards={"Zz": {"prototypes": []}}), "not a card"),
        (lambda d: d.update(cards=[]), "cards"),
        (lambda d: d["cards"]["Qh"]["prototypes"][0].update(features=[0.1]), "2 numbers"),
        (lambda d: d["cards"]["Qh"]["prototypes"][0].update(features=["a", "b"]), "numbers"),
        (lambda d: d["cards"]["Qh"]["prototypes"][0].update(features=[1e400, 0]), "finite"),
        (lambda d: d["cards"]["Qh"]["prototypes"][0].update(crop="../../etc/passwd.png"), "crop"),
        (lambda d: d["cards"]["Qh"]["prototypes"][0].update(corner="XX"), "corner"),
        (lambda d: d["classifier"].update(features=10**9), "width"),
        (lambda d: d.update(name="../up"), "name"),
        (lambda d: d.update(dark_paper="yes"), "dark_paper"),
    ],
)
def test_corrupt_profiles_are_refused(tmp_path: Path, change: object, what: str) -> None:
    doc = _good_doc()
    load_profile(_write(tmp_path, json.dumps(doc)))  # the unchanged document loads
    change(doc)  # type: ignore[operator]
    with pytest.raises(UserError) as err:
        load_profile(_write(tmp_path, json.dumps(doc)))
    message = str(err.value)
    assert str(tmp_path / PROFILE_FILE) in message and what in message and "\n" not in message


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[" * 100_000 + "]" * 100_000,
        json.dumps({"format": FORMAT, "a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": 1}}}}}}}}}),
        "\udcff",
        "null",
    ],
)
def test_hostile_json_is_refused(tmp_path: Path, text: str) -> None:
    (tmp_path / PROFILE_FILE).write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(UserError, match="deck profile"):
        load_profile(tmp_path)


def test_huge_profile_is_refused_unread(tmp_path: Path) -> None:
    with (tmp_path / PROFILE_FILE).open("wb") as fh:
        fh.truncate(MAX_PROFILE_BYTES + 1)
    with pytest.raises(UserError, match="too big"):
        load_profile(tmp_path)


def test_missing_crop_is_named(tmp_path: Path) -> None:
    save_profile(tiny_profile(), tmp_path)
    (tmp_path / "crops" / "Qd-BR.png").unlink()
    load_profile(tmp_path)  # the features alone are enough to read with
    with pytest.raises(UserError, match="Qd-BR.png"):
        load_profile(tmp_path, images=True)


def test_a_crop_that_is_no_crop_is_refused(tmp_path: Path) -> None:
    save_profile(tiny_profile(), tmp_path)
    import cv2

    cv2.imwrite(str(tmp_path / "crops" / "Qh-TL.png"), np.zeros((2000, 2000, 3), np.uint8))
    with pytest.raises(UserError, match="not a crop"):
        load_profile(tmp_path, images=True)
    (tmp_path / "crops" / "Qh-TL.png").write_bytes(b"\x89PNG not really")
    with pytest.raises(UserError, match="Qh-TL.png: crop of the deck profile missing, unreadable"):
        load_profile(tmp_path, images=True)


def test_the_classifier_has_logits_and_features(detector: OnnxDetector) -> None:
    assert detector.classifier is not None
    names = [o.name for o in detector.classifier.session.get_outputs()]
    assert names == ["logits", FEATURES_OUTPUT]
    crops = np.random.default_rng(1).uniform(0, 1.2, (6, 3, 64, 48)).astype(np.float32)
    logits_only = detector.classifier.session.run(["logits"], {"crops": crops})[0]
    logits, feats = detector.classifier.run(crops)
    assert np.array_equal(logits_only, logits)  # fetching the features changes no logit
    assert feats.shape == (6, 128)


def test_without_a_profile_the_reader_asks_for_logits_only(detector: OnnxDetector) -> None:
    assert detector.classifier is not None and detector.classifier.profile is None
    asked: dict[str, list[object]] = {"session": [], "unenrolled_session": []}
    kept = {name: getattr(detector.classifier, name) for name in asked}

    class Spy:
        def __init__(self, name: str) -> None:
            self.name = name

        def __getattr__(self, attr: str) -> object:
            return getattr(kept[self.name], attr)

        def run(self, outputs: object, feeds: object) -> object:
            asked[self.name].append(outputs)
            return kept[self.name].run(outputs, feeds)

    for name in asked:
        setattr(detector.classifier, name, Spy(name))
    try:
        detector.detect(load_image(DEV / PHOTOS[1]))
    finally:
        for name, session in kept.items():
            setattr(detector.classifier, name, session)
    # The shipped models read a deck without a profile with the unenrolled classifier (vision.models).
    assert asked["session"] == []
    assert asked["unenrolled_session"] and all(a == ["logits"] for a in asked["unenrolled_session"])


def test_a_dropped_profile_reads_as_none_at_all(detector: OnnxDetector, enrolled: Path) -> None:
    other = OnnxDetector(default_model_path(), threads=1, profile=enrolled)
    assert other.classifier is not None
    other.classifier.use_profile(None)
    for photo in PHOTOS:
        frame = load_image(DEV / photo)
        assert other.detect(frame) == detector.detect(frame)


def test_enrolment_from_photos(enrolled: Path) -> None:
    profile = load_profile(enrolled, images=True)
    labels = read_labels(DEV / "labels.csv")
    views: dict[str, int] = {}
    for photo in PHOTOS:
        for lab in labels[photo]:
            views[str(lab.card)] = views.get(str(lab.card), 0) + 1
    assert len(profile) == len(views) == 11  # 15 labelled cards, 4 of them in two photos
    assert profile.features == 128
    for card, entry in profile.cards.items():
        assert len(entry.prototypes) == 2 * views[str(card)]  # both index corners of every view
        assert {p.corner for p in entry.prototypes[:2]} in ({"TL", "BR"}, {"TR", "BL"})
        assert entry.face == f"crops/{card}-face.png" and entry.face in profile.images
        assert entry.face_features is not None and entry.face_features.shape == (2 * views[str(card)], 128)
        for p in entry.prototypes:
            assert profile.images[p.crop].shape == (64, 48, 3)
            assert abs(float(np.linalg.norm(p.features)) - 1.0) < 1e-3


def test_the_reader_reads_with_a_profile(enrolled: Path) -> None:
    reader = OnnxDetector(default_model_path(), threads=1, profile=enrolled)
    found = reader.detect(load_image(DEV / "edje_test_cam_image2.jpg"))
    assert sorted(str(d.card) for d in found) == ["Kc", "Kd", "Kh", "Ks"]


def one_hot_profile(names: list[str], width: int = 4) -> DeckProfile:
    """A profile of one prototype per card, card i's features the i-th unit vector."""
    eye = np.eye(width, dtype=np.float32)
    cards = {Card.parse(c): CardPrototypes([Prototype("TL", f"crops/{c}-TL.png", eye[i])]) for i, c in enumerate(names)}
    return DeckProfile(name="t", features=width, cards=cards)


def test_profile_matcher_prefers_the_enrolled_look() -> None:
    """Two cards the classifier cannot tell apart: the prototypes decide."""
    classes = ["Qh", "Kh", "B", "none"]
    a, b = np.eye(4, dtype=np.float32)[0], np.eye(4, dtype=np.float32)[1]
    m = ProfileMatcher(one_hot_profile(["Qh", "Kh"]), classes)
    logits = np.array([[2.0, 2.0, -5.0, -5.0]], np.float32)
    assert m.combine(logits, b[None] + 0.05)[0] == "Kh"
    assert m.combine(logits, a[None] + 0.05)[0] == "Qh"
    # a crop that sees no index stays unnamed, whatever it looks like
    assert m.combine(np.array([[-5.0, -5.0, -5.0, 5.0]], np.float32), a[None])[0] == "none"


def test_between_twins_the_classifier_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card and its twin (same rank, the other suit of its colour) share the prototypes' vote: a crop
    more like the enrolled queen of diamonds is still the queen of hearts the classifier prefers."""
    from vision import cardcrop

    classes = ["Qh", "Qd", "Kh", "none"]
    eye = np.eye(4, dtype=np.float32)
    profile = one_hot_profile(["Qh", "Qd", "Kh"])
    logits = np.array([[2.0, 1.0, -3.0, -5.0]], np.float32)
    like_qd = eye[1][None] + 0.05
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 1.0)
    card, doubted = ProfileMatcher(profile, classes).combine(logits, like_qd)
    assert card == "Qh"
    # the twins' pooled share still counts against the king: surer than the classifier alone, before the
    # doubt a twin close behind brings (cardcrop.TWIN_DOUBT), which it does bring
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 0.0)
    card, conf = ProfileMatcher(profile, classes).combine(logits, like_qd)
    assert card == "Qh" and doubted < conf
    assert conf > float(np.exp(2.0) / np.exp(logits[0, :3]).sum())
    # each card with its own vote, the prototypes would have turned it into its twin
    assert ProfileMatcher(profile, classes, twins_pooled=False).combine(logits, like_qd)[0] == "Qd"


def test_with_a_profile_the_face_reader_decides_between_twins_but_not_for_a_joker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The face reader's evidence weighs into the fused vote too (``cardcrop.weigh_by_face``)."""
    from vision import cardcrop

    classes = ["Qh", "Qd", "B", "none"]
    profile = one_hot_profile(["Qh", "Qd", "B"])
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 1.0)
    m = ProfileMatcher(profile, classes)
    logits = np.array([[2.0, 1.0, -3.0, -5.0]], np.float32)
    feats = np.full((1, 4), 0.3, np.float32)
    plain = m.combine(logits, feats)
    assert plain[0] == "Qh"
    assert m.combine(logits, feats, evidence=None) == plain
    diamonds = np.array([0.05, 1.0, 0.3], np.float32)
    card, conf = m.combine(logits, feats, evidence=diamonds)
    # named the twin, never surer than the corners' own top share (as it is before the twin doubt)
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 0.0)
    assert card == "Qd" and conf <= m.combine(logits, feats)[1]
    # a Joker the corners name is left to them, whatever the face says
    joker = np.array([[-3.0, -3.0, 3.0, -5.0]], np.float32)
    assert m.combine(joker, feats, evidence=np.array([1.0, 1.0, 0.01], np.float32)) == m.combine(joker, feats)


def _profile_of(features: dict[str, list[float]]) -> DeckProfile:
    """A profile of one prototype per card, with the given features."""
    return DeckProfile(
        name="t",
        features=len(next(iter(features.values()))),
        cards={
            Card.parse(c): CardPrototypes([Prototype("TL", f"crops/{c}-TL.png", np.asarray(f, np.float32))])
            for c, f in features.items()
        },
    )


def test_cousins_a_deck_prints_alike_are_found_by_their_prototypes() -> None:
    """Kd and Ks enrolled nearly alike (one ink): each is the other's cousin printed alike; Kh, its twin's
    cousin, is not (unlike), Kc is not enrolled, and the queens' cousins are unlike."""
    names = ["Kd", "Ks", "Kh", "Kc", "Qd", "Qs"]
    profile = _profile_of({
        "Kd": [1.0, 0.1, 0.0, 0.0], "Ks": [1.0, 0.12, 0.0, 0.0], "Kh": [0.3, 1.0, 0.0, 0.0],
        "Qd": [0.0, 0.0, 1.0, 0.0], "Qs": [0.0, 0.0, 0.5, 1.0],
    })
    alike = indistinct_cousins(profile, names, 0.9)
    by_name = {names[k]: sorted(names[c] for c in cs) for k, cs in enumerate(alike)}
    assert by_name == {"Kd": ["Ks"], "Ks": ["Kd"], "Kh": [], "Kc": [], "Qd": [], "Qs": []}
    assert all(not cs for cs in indistinct_cousins(profile, names, None))
    # the line: Kh and Ks are 0.40 alike
    assert {names[c] for c in indistinct_cousins(profile, names, 0.35)[names.index("Kh")]} == {"Ks"}
    # one pair alike of three enrolled is a third of them: a deck printed in colour has fewer, and none counts
    assert not any(indistinct_cousins(profile, names, 0.9, deck_share=0.34))


def test_a_court_the_deck_prints_like_its_cousin_is_doubted_unless_its_face_tells() -> None:
    """In a deck whose kings of diamonds and spades are enrolled alike, the classifier's lean to spades does not
    make a sure king of spades: its share falls to nothing where the face reader sees a red court or none at all
    (the share before the doubt stands: reported to be checked, ``onnx_detector._to_check``), and stays nearly
    whole where it sees a black one. A number card whose pips the reader sees as its suit stays sure; one whose
    face it cannot see is checked too."""
    from vision.face_reader import FACE_CLASSES, FACE_NONE, face_class

    classes = ["Kd", "Ks", "9d", "9s", "none"]
    profile = _profile_of({
        "Kd": [1.0, 0.02, 0.0, 0.0], "Ks": [1.0, 0.0, 0.0, 0.0],
        "9d": [0.0, 0.0, 1.0, 0.02], "9s": [0.0, 0.0, 1.0, 0.0],
    })

    def face(**p: float) -> npt.NDArray[np.float32]:
        out = np.zeros(len(FACE_CLASSES), np.float32)
        for card, q in p.items():
            out[FACE_NONE if card == "none" else face_class(card)] = q
        return out

    logits = np.array([[-2.0, 3.0, -5.0, -5.0, -6.0]], np.float32)  # the classifier: the king of spades
    king = np.array([[1.0, 0.0, 0.0, 0.0]], np.float32)
    apart = ProfileMatcher(profile, classes, indistinct=None)
    alike = ProfileMatcher(profile, classes, indistinct=0.9)
    name, sure, before, _ = apart.shares(logits, king)
    assert name == "Ks" and sure > 0.6
    red_court, black_court = face(Kd=0.8, Ks=0.1, none=0.1), face(Ks=0.5, Kc=0.4, Kd=0.05, none=0.05)
    name, share, undoubted, rival = alike.shares(logits, king, face=red_court)
    assert name == "Ks" and share == 0.0 and undoubted == pytest.approx(before)
    assert rival == "Kd"  # the cousin printed alike that the face speaks for: a check names it, not the twin
    assert alike.shares(logits, king)[1] == 0.0  # no face read: no sure reading either
    assert alike.shares(logits, king, face=face(none=1.0))[1] == 0.0  # a face not seen: nor here
    assert 0.6 * sure < alike.shares(logits, king, face=black_court)[1] < sure
    assert apart.shares(logits, king, face=red_court) == apart.shares(logits, king)  # no cousin alike: no doubt
    # a nine of spades whose pips the face reader sees as spades stays nearly as sure; unseen, it is checked
    nine_logits = np.array([[-5.0, -5.0, -2.0, 3.0, -6.0]], np.float32)
    nine = np.array([[0.0, 0.0, 1.0, 0.0]], np.float32)
    nine_sure = apart.shares(nine_logits, nine)[1]
    assert 0.6 * nine_sure < alike.shares(nine_logits, nine, face=face(**{"9s": 0.9, "9d": 0.05}))[1] < nine_sure
    assert alike.shares(nine_logits, nine, face=face(none=1.0))[1] == 0.0


def _with_faces(corners: dict[str, list[float]], faces: dict[str, npt.NDArray[np.float32]]) -> DeckProfile:
    """A profile of these cards: each one corner prototype (``corners``) and its enrolled faces (``faces``)."""
    return DeckProfile(name="t", features=len(next(iter(corners.values()))), cards={
        Card.parse(c): CardPrototypes([Prototype("TL", f"crops/{c}-TL.png", np.asarray(f, np.float32))], None,
                                      faces[c])
        for c, f in corners.items()
    })


def _red_court() -> npt.NDArray[np.float32]:
    """The face reader's output for a red court (the king of diamonds' class), a little `none`."""
    from vision.face_reader import FACE_CLASSES, face_class

    out = np.zeros(len(FACE_CLASSES), np.float32)
    out[face_class("Kd")] = 0.9
    out[-1] = 0.1
    return out


def test_a_card_printed_like_its_cousin_is_told_apart_by_its_own_enrolled_face() -> None:
    """Kd and Ks enrolled alike in their corners (one ink) but with their own pictures (faces on axes 4 and 5 of
    the features): a reading of the Ks whose middle is the Ks's enrolled face keeps its share though the face
    reader sees a red court; one whose middle is the Kd's is named the Kd, still to be checked, the Ks its rival
    (``ALIKE_FACE_SWITCH``; off, the Ks doubted); halfway between, or not read, it is doubted as before."""
    from vision import cardcrop, deck_profile

    classes = ["Kd", "Ks", "Qd", "Qs", "none"]
    eye = np.eye(6, dtype=np.float32)
    corner = {"Kd": [1.0, 0.02, 0, 0, 0, 0], "Ks": [1.0, 0, 0, 0, 0, 0], "Qd": [0, 0, 1.0, 0.02, 0, 0],
              "Qs": [0, 0, 1.0, 0, 0, 0]}
    profile = _with_faces(corner, {"Kd": eye[[4]], "Ks": eye[[5]], "Qd": eye[[2]], "Qs": eye[[3]]})
    red_court = _red_court()
    logits = np.array([[-2.0, 3.0, -5.0, -5.0, -6.0]], np.float32)  # the classifier: the king of spades
    king = np.asarray([corner["Ks"]], np.float32)
    alike = ProfileMatcher(profile, classes, indistinct=0.9)
    assert alike.tells_alike_by_face
    _, sure, _, _ = ProfileMatcher(profile, classes, indistinct=None).shares(logits, king)
    assert sure > 0.6
    def share(face_features: npt.NDArray[np.float32] | None) -> float:
        return alike.shares(logits, king, face=red_court, face_features=face_features)[1]
    assert share(eye[5]) == pytest.approx(sure)  # its own picture
    # the cousin's picture: the cousin, to be checked (as sure before the doubt), the corners' card its rival
    _, sure_before, _, _ = ProfileMatcher(profile, classes, indistinct=None).shares(logits, king, face=red_court)
    named, share_kd, before, rival = alike.shares(logits, king, face=red_court, face_features=eye[4])
    assert (named, share_kd, rival) == ("Kd", 0.0, "Ks") and before == pytest.approx(sure_before) and before > 0.6
    # ... only where the corners' vote ranks the cousin next: with the queen of spades next, the picture only doubts
    queen = alike.card_names.index("Qs")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cardcrop, "runner_up", lambda mix, evidence, best: queen)
        assert alike.shares(logits, king, face=red_court, face_features=eye[4])[:2] == ("Ks", 0.0)
    assert share(eye[4] + eye[5]) == 0.0  # as like one as the other
    assert share(None) == 0.0
    saved, switch = deck_profile.ALIKE_FACE_MARGIN, deck_profile.ALIKE_FACE_SWITCH
    try:
        deck_profile.ALIKE_FACE_SWITCH = False  # the cousin's picture only doubts the reading
        assert share(eye[4]) == 0.0
        deck_profile.ALIKE_FACE_MARGIN = None  # off: the face reader alone
        assert share(eye[5]) == 0.0 and not ProfileMatcher(profile, classes, indistinct=0.9).tells_alike_by_face
    finally:
        deck_profile.ALIKE_FACE_MARGIN, deck_profile.ALIKE_FACE_SWITCH = saved, switch
    # a deck that prints no cousins alike never needs the card's middle read
    assert not ProfileMatcher(profile, classes, indistinct=None).tells_alike_by_face
    # which cards the deck prints alike with a cousin (the reader checks their doubted readings from lower down)
    assert [alike.prints_alike(c) for c in ("Kd", "Ks", "Qd", "Qs", "Ah")] == [True, True, True, True, False]
    assert not any(ProfileMatcher(profile, classes, indistinct=None).prints_alike(c) for c in ("Kd", "Ks"))


def test_a_card_whose_picture_is_a_cousins_is_named_so_though_another_cousin_is_near_as_well() -> None:
    """Three kings printed alike (one ink): a reading the corners give the king of spades whose middle is far from
    the Ks's enrolled picture and nearest the Kd's, the Kh's close behind, is named the Kd (to be checked, the Ks
    its rival) where the corners rank the Kd next; as near the Kd as the Kh, or nearer the Kh, it is only doubted."""
    from vision import cardcrop

    classes = ["Kd", "Ks", "Kh", "Qs", "none"]
    eye = np.eye(7, dtype=np.float32)
    corner = {"Kd": [1.0, 0.02, 0, 0, 0, 0, 0], "Ks": [1.0, 0, 0, 0, 0, 0, 0], "Kh": [1.0, 0.01, 0, 0, 0, 0, 0],
              "Qs": [0, 0, 1.0, 0, 0, 0, 0]}
    profile = _with_faces(corner, {"Kd": eye[[4]], "Ks": eye[[5]], "Kh": eye[[6]], "Qs": eye[[3]]})
    red_court = _red_court()
    logits = np.array([[-2.0, 3.0, -4.0, -5.0, -6.0]], np.float32)  # the classifier: the king of spades
    king = np.asarray([corner["Ks"]], np.float32)
    alike = ProfileMatcher(profile, classes, indistinct=0.9)
    kd, kh = alike.card_names.index("Kd"), alike.card_names.index("Kh")

    def read(kd_part: float, kh_part: float, next_ranked: int) -> tuple[str, float, str | None]:
        middle = kd_part * eye[4] + kh_part * eye[6]
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(cardcrop, "runner_up", lambda mix, evidence, best: next_ranked)
            name, share, _, rival = alike.shares(logits, king, face=red_court, face_features=middle)
        return name, share, rival

    # nearest the Kd's picture by 0.09 only over the Kh's (under ALIKE_FACE_MARGIN), far over the Ks's
    assert read(0.75, 0.66, kd) == ("Kd", 0.0, "Ks")
    assert read(0.7, 0.7, kd)[:2] == ("Ks", 0.0)  # as near the one as the other: doubted only
    assert read(0.66, 0.75, kd)[:2] == ("Ks", 0.0)  # nearer the Kh, but the corners rank the Kd next
    assert read(0.66, 0.75, kh) == ("Kh", 0.0, "Ks")


def _qh_and_joker(joker_faces: list[int]) -> DeckProfile:
    """A profile of the Qh (its face: axis 0) and the Joker (its faces: these axes), in 4 features."""
    eye = np.eye(4, dtype=np.float32)
    return DeckProfile(
        name="t",
        features=4,
        cards={
            Card.parse("Qh"): CardPrototypes([Prototype("TL", "crops/Qh-TL.png", eye[0])], None, eye[[0]]),
            Card.parse("B"): CardPrototypes([Prototype("TL", "crops/B-TL.png", eye[2])], None, eye[joker_faces]),
        },
    )


def test_the_joker_is_read_by_its_face() -> None:
    classes = ["Qh", "Qd", "B", "none"]
    eye = np.eye(4, dtype=np.float32)
    profile = _qh_and_joker([2, 3])
    m = ProfileMatcher(profile, classes)
    assert m.reads_benny_faces
    margins = m.benny_margin(np.stack([eye[2], eye[3], eye[0], eye[1]]))
    assert margins[0] > m.face_margin and margins[1] > m.face_margin  # either way up
    assert margins[2] < 0 and abs(float(margins[3])) < 1e-6
    without_faces = DeckProfile(
        name="t", features=4, cards={c: CardPrototypes(e.prototypes) for c, e in profile.cards.items()}
    )
    assert not ProfileMatcher(without_faces, classes).reads_benny_faces
    # The deck holds a Joker where one is enrolled, with or without its face.
    assert m.holds_benny and ProfileMatcher(without_faces, classes).holds_benny
    no_joker = DeckProfile(name="t", features=4, cards={Card.parse("Qh"): profile.cards[Card.parse("Qh")]})
    assert not ProfileMatcher(no_joker, classes).holds_benny


def test_without_a_face_read_the_alike_doubt_offers_the_cousin_the_corners_weigh_most() -> None:
    classes = ["Kd", "Kh", "Ks", "none"]
    profile = _profile_of({"Kd": [1.0, 0.02, 0.0, 0.0], "Kh": [1.0, 0.0, 0.02, 0.0], "Ks": [1.0, 0.0, 0.0, 0.0]})
    alike = ProfileMatcher(profile, classes, indistinct=0.9)
    kd, kh, ks = (alike.card_names.index(c) for c in ("Kd", "Kh", "Ks"))
    assert set(alike.indistinct[ks]) == {kd, kh}
    for vote, cousin in (([0.1, 0.3, 0.6], kh), ([0.3, 0.1, 0.6], kd)):
        share, rival = alike._alike_doubted(np.float32(0.9), None, ks, None, np.array(vote, np.float32))
        assert share == 0.0 and rival == cousin


@pytest.mark.parametrize("centre", [False, True])
def test_the_jokers_face_margin_compares_a_face_as_the_enrolled_faces_are_compared(centre: bool) -> None:
    """Where the profile compares features centred on its prototypes' mean, the face read is centred as the
    enrolled faces are: the Joker's margin is the one its face gives between the Joker and the other cards."""
    classes = ["Qh", "Qd", "B", "none"]
    m = ProfileMatcher(_qh_and_joker([2, 3]), classes, centre=centre)
    queries = np.array([[0.1, 0.0, 1.0, 0.0], [1.0, 0.2, 0.1, 0.3], [0.3, 0.5, 0.2, 0.9]], np.float32)
    benny, queen = m.card_names.index("B"), m.card_names.index("Qh")
    expected = [m._margin(m._face_similarities(q), benny, [queen]) for q in queries]
    assert m.benny_margin(queries) == pytest.approx(expected, abs=1e-6)


def test_builder_missing_and_remove(detector: OnnxDetector) -> None:
    frame = load_image(DEV / "edje_test_cam_image2.jpg")
    quads, _ = detector.outlines(frame)
    builder = ProfileBuilder.for_detector(detector)
    builder.add("Kh", frame, quads[0])
    builder.add(Card.parse("Kh"), frame, quads[0])  # a second view
    assert [str(c) for c in builder.missing(["Kh", "Ks", "B"])] == ["Ks", "B"]
    profile = builder.build("two-views")
    assert len(profile.cards[Card.parse("Kh")].prototypes) == 4
    builder.remove("Kh")
    with pytest.raises(UserError, match="no card"):
        builder.build("empty")


def test_split_halves_is_stable() -> None:
    names = read_labels(DEV / "labels.csv")
    a, b = split_halves(names)
    assert a == sorted(names)[0::2] and b == sorted(names)[1::2]
    assert split_halves(reversed(sorted(names))) == (a, b)


def test_enrolment_of_nothing_is_an_error(tmp_path: Path, detector: OnnxDetector) -> None:
    (tmp_path / "labels.csv").write_text("image,class,x_center,y_center,width,height\n")
    with pytest.raises(UserError, match="no labelled card"):
        enrol_from_photos(DEV, tmp_path / "labels.csv", "x", detector=detector)


def test_reading_with_a_profile_needs_no_torch(enrolled: Path) -> None:
    code = (
        "import sys; from pathlib import Path; from vision.models import default_model_path;"
        "from vision.onnx_detector import OnnxDetector; from vision.sources.files import load_image;"
        f"d = OnnxDetector(default_model_path(), threads=1, profile=Path({str(enrolled)!r}));"
        f"d.detect(load_image(Path({str(DEV / PHOTOS[0])!r})));"
        "assert 'torch' not in sys.modules and 'onnx' not in sys.modules, 'torch or onnx imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[2])


def test_a_profile_of_another_classifier_is_refeaturised(tmp_path: Path, enrolled: Path) -> None:
    """A retrained classifier takes the deck's features again from the stored crops: same readings here."""
    doc = json.loads((enrolled / PROFILE_FILE).read_text())
    doc["classifier"]["sha256"] = "0" * 64
    copy = tmp_path / "old"
    (copy / "crops").mkdir(parents=True)
    for png in (enrolled / "crops").iterdir():
        (copy / "crops" / png.name).write_bytes(png.read_bytes())
    (copy / PROFILE_FILE).write_text(json.dumps(doc))
    fresh = OnnxDetector(default_model_path(), threads=1, profile=enrolled)
    old = OnnxDetector(default_model_path(), threads=1, profile=copy)
    assert fresh.classifier is not None and old.classifier is not None
    assert old.classifier.profile is not None and fresh.classifier.profile is not None
    np.testing.assert_allclose(old.classifier.profile.prototypes, fresh.classifier.profile.prototypes, atol=2e-3)
    for photo in PHOTOS:
        frame = load_image(DEV / photo)
        assert [d.card for d in old.detect(frame)] == [d.card for d in fresh.detect(frame)]
    # without its crops it cannot be
    loaded = load_profile(copy)
    loaded.folder = None
    with pytest.raises(UserError, match="another classifier"):
        OnnxDetector(default_model_path(), threads=1, profile=loaded)


def test_a_profile_reads_with_its_own_calibration(enrolled: Path) -> None:
    from vision.deck_profile import profile_calibration_for

    reader = OnnxDetector(default_model_path(), threads=1, profile=enrolled)
    assert reader.classifier is not None
    refitted = profile_calibration_for(reader.classifier.path)
    assert refitted is not None and reader.classifier.calibration == refitted
    assert reader.classifier.shipped_calibration is not None and refitted != reader.classifier.shipped_calibration
    reader.classifier.use_profile(None)
    assert reader.classifier.calibration == reader.classifier.shipped_calibration


def test_labels_are_matched_to_outlines_one_to_one_by_overlap() -> None:
    from vision.enrol_photos import match_labels
    from vision.labels import LabelledCard

    def quad(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
        return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]

    quads = np.array([quad(0, 0, 40, 60), quad(100, 0, 140, 60), quad(2, 0, 42, 60), quad(300, 300, 340, 360)],
                     np.float32)
    labels = [LabelledCard(Card.parse("Qh"), (0.6, 0.15, 0.2, 0.3), 2),  # on outline 1
              LabelledCard(Card.parse("9c"), (0.1, 0.15, 0.2, 0.3), 3),  # on outline 0 exactly, outline 2 nearly
              LabelledCard(Card.parse("As"), (0.9, 0.9, 0.1, 0.1), 4)]  # on no outline
    assert match_labels(labels, quads, (200, 200)) == {0: 1, 1: 0}  # outline 2, 0's near twin, is nobody's


class _FaceReader:
    """A stand-in classifier for ``_benny_by_face``: every face it is shown is Joker-like by ``margin``."""

    def __init__(self, margin: float) -> None:
        self.margin = margin
        self.shown: list[int] = []
        self.profile = self
        self.face_margin = 0.04
        self.cards = {"B": Card.parse("B")}

    def face_features(self, frame: npt.NDArray[np.uint8], outlines: list[npt.ArrayLike]) -> npt.NDArray[np.float32]:
        self.shown.append(len(outlines))
        return np.zeros((len(outlines), 4), np.float32)

    def benny_margin(self, feats: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        return np.full(len(feats), self.margin, np.float32)


def test_a_joker_whose_corner_reads_as_a_card_unsurely_is_read_by_its_face() -> None:
    from vision import onnx_detector as od

    frame = np.full((200, 300, 3), 200, np.uint8)
    quads = np.array([[[10, 10], [80, 10], [80, 110], [10, 110]], [[150, 10], [220, 10], [220, 110], [150, 110]]],
                     np.float32)  # fmt: skip
    jc, qd, benny = Card.parse("Jc"), Card.parse("Qd"), Card.parse("B")
    unsure = od.BENNY_FACE_OVERRIDES_BELOW - 0.1
    readings = [[(quads[0], jc, unsure)], [(quads[1], qd, 0.95)]]
    scores = np.array([0.9, 0.9], np.float32)
    reader = _FaceReader(margin=0.05)
    od._benny_by_face(frame, quads, scores, reader, readings, floor=0.6)  # type: ignore[arg-type]
    assert reader.shown == [1]  # only the unsure jack is looked at by its face
    assert readings[0][0][1] == benny and readings[0][0][2] == BENNY_FACE_CONFIDENCE
    assert readings[1][0][1] == qd
    # Read surely, or with a face unlike the Joker's, the card keeps its name.
    sure = [[(quads[0], jc, od.BENNY_FACE_OVERRIDES_BELOW + 0.05)], [(quads[1], qd, 0.95)]]
    reader = _FaceReader(margin=0.05)
    od._benny_by_face(frame, quads, scores, reader, sure, floor=0.6)  # type: ignore[arg-type]
    assert reader.shown == [] and sure[0][0][1] == jc
    unlike = [[(quads[0], jc, unsure)], [(quads[1], qd, 0.95)]]
    od._benny_by_face(frame, quads, scores, _FaceReader(margin=-0.1), unlike, floor=0.6)  # type: ignore[arg-type]
    assert unlike[0][0][1] == jc


def test_a_faint_outline_of_bare_mat_is_not_read_as_the_joker_by_its_face() -> None:
    # On the simulated table (British rules, seed 2) the finder outlined bare mat at 0.25-0.41, no corner named a
    # card there, and its face, paper with a little print, was more like the Joker's than any other card's.
    from vision import onnx_detector as od

    frame = np.full((200, 300, 3), 200, np.uint8)
    quads = np.array([[[10, 10], [80, 10], [80, 110], [10, 110]], [[150, 10], [220, 10], [220, 110], [150, 110]]],
                     np.float32)  # fmt: skip
    faint = od.BENNY_FACE_MIN_FINDER_SCORE - 0.1
    readings: list[list[od.Reading]] = [[(quads[0], None, 0.0)], [(quads[1], None, 0.0)]]
    reader = _FaceReader(margin=0.2)
    od._benny_by_face(frame, quads, np.array([faint, faint], np.float32), reader, readings, floor=0.6)  # type: ignore[arg-type]
    assert reader.shown == [] and all(per[0][1] is None for per in readings)
    # The same outlines outlined surely enough: the one most like the Joker (the first, on a tie) is the Joker.
    reader = _FaceReader(margin=0.2)
    od._benny_by_face(frame, quads, np.array([faint, 0.9], np.float32), reader, readings, floor=0.6)  # type: ignore[arg-type]
    assert reader.shown == [1] and readings[1][0][1] == Card.parse("B") and readings[0][0][1] is None


class _ProfiledFaces:
    """A stand-in classifier for ``_benny_by_face`` with a real ``ProfileMatcher``: its features for the faces
    shown are ``feats``, one row per face."""

    def __init__(self, matcher: ProfileMatcher, feats: npt.NDArray[np.float32]) -> None:
        self.profile = matcher
        self.cards = {"B": Card.parse("B")}
        self.feats = feats

    def face_features(self, frame: npt.NDArray[np.uint8], outlines: list[npt.ArrayLike]) -> npt.NDArray[np.float32]:
        return self.feats[: len(outlines)]


def test_a_face_a_little_more_like_the_joker_than_any_other_card_is_not_read_as_it() -> None:
    # On the draw kept for choosing, the face rule read the Joker 24 times and another outline 4 times at a
    # margin of 0.04, and 21 and 1 at the shipped 0.06: a face only 0.05 more like the Joker keeps its name.
    from vision import onnx_detector as od

    matcher = ProfileMatcher(_qh_and_joker([2]), ["Qh", "Qd", "B", "none"])

    def face(margin: float) -> npt.NDArray[np.float32]:
        """A unit vector whose cosine to the Joker's face exceeds its cosine to the Qh's by ``margin``."""
        a = 0.6 + margin / 2
        b = 0.6 - margin / 2
        return np.array([[b, 0.0, a, float(np.sqrt(1 - a * a - b * b))]], np.float32)

    assert abs(float(matcher.benny_margin(face(0.05))[0]) - 0.05) < 1e-4
    frame = np.full((200, 300, 3), 200, np.uint8)
    quads = np.array([[[10, 10], [80, 10], [80, 110], [10, 110]]], np.float32)
    jc = Card.parse("Jc")
    for margin, joker in ((0.05, False), (0.07, True)):
        readings: list[list[od.Reading]] = [[(quads[0], jc, 0.7)]]
        stand_in = _ProfiledFaces(matcher, face(margin))
        od._benny_by_face(frame, quads, np.array([0.9], np.float32), stand_in, readings, floor=0.6)  # type: ignore[arg-type]
        assert (readings[0][0][1] == Card.parse("B")) is joker, margin


def test_an_enrolment_tells_the_players_which_cards_the_deck_prints_alike() -> None:
    from companion.commands.enrol import alike_note

    alike = _profile_of({
        "Kd": [1.0, 0.1, 0.0, 0.0], "Ks": [1.0, 0.12, 0.0, 0.0], "Kh": [0.0, 0.0, 1.0, 0.1], "Kc": [0.0, 0.0, 1.0, 0.0],
        "Qd": [0.0, 1.0, 0.0, 0.0], "Qs": [0.0, 0.0, 0.0, 1.0],
    })
    assert alike_pairs(alike) == [(Card.parse("Kd"), Card.parse("Ks")), (Card.parse("Kh"), Card.parse("Kc"))]
    note = alike_note(alike)
    assert note is not None and "K♦ K♠" in note and "K♥ K♣" in note and "Q" not in note and "no renege" in note
    apart = _profile_of({"Kd": [1.0, 0.0, 0.0], "Ks": [0.0, 1.0, 0.0]})
    assert alike_pairs(apart) == [] and alike_note(apart) is None
