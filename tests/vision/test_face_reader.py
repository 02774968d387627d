"""The face reader: its classes, the evidence it gives per card, and how that re-decides the corners' vote."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.synth.faces import procedural_faceset
from lab.synth.scenes import reprint_faces
from vision import cardcrop
from vision.errors import UserError
from vision.face_reader import (
    FACE_CLASSES,
    FACE_NONE,
    FACE_READER_NAME,
    evidence_matrix,
    face_class,
    face_reader_path_for,
)
from vision.models import REPO_MODELS_DIR
from vision.onnx_detector import load_face_reader

CARDS = [c for c in cardcrop.CLASSIFIER_CLASSES if c != cardcrop.NONE_CLASS]
SHIPPED = REPO_MODELS_DIR / FACE_READER_NAME


def one_hot(name: str) -> np.ndarray:
    p = np.zeros(len(FACE_CLASSES), np.float32)
    p[FACE_CLASSES.index(name)] = 1.0
    return p


def test_face_classes_are_kind_and_suit() -> None:
    assert len(FACE_CLASSES) == 29 and FACE_CLASSES[FACE_NONE] == "none"
    assert FACE_CLASSES[face_class("9h")] == "9h"
    assert FACE_CLASSES[face_class("Ts")] == "Ts"
    assert FACE_CLASSES[face_class("Kc")] == "Cc"  # a court, in its suit
    assert FACE_CLASSES[face_class("Jd")] == "Cd"
    # a number card with pips out of view: its suit, kind unseen; a court stays a court
    assert FACE_CLASSES[face_class("9h", pips_in_view=False)] == "Nh"
    assert FACE_CLASSES[face_class("As", pips_in_view=False)] == "Ns"
    assert FACE_CLASSES[face_class("Kc", pips_in_view=False)] == "Cc"
    assert face_class("B") == face_class(None) == FACE_NONE
    with pytest.raises(ValueError, match="2h"):
        face_class("2h")


def test_a_number_face_speaks_for_its_suit_and_in_part_its_kind() -> None:
    ix = {c: i for i, c in enumerate(CARDS)}
    e = evidence_matrix(CARDS) @ one_hot("9s")
    # its kind first, then the other number cards of its suit, all well above its twin
    assert e[ix["9s"]] > 2 * e[ix["8s"]]
    assert e[ix["8s"]] == pytest.approx(e[ix["7s"]]) == pytest.approx(e[ix["As"]])
    assert e[ix["8s"]] > 10 * e[ix["9c"]]
    # a number face is evidence against a court of any suit
    assert e[ix["Ks"]] < e[ix["9s"]] / 10
    # with no share for the kind, every number card of the suit is weighed alike
    flat = evidence_matrix(CARDS, kind_share=0.0) @ one_hot("9s")
    assert flat[ix["9s"]] == pytest.approx(flat[ix["7s"]]) == pytest.approx(flat[ix["As"]])
    # a kind group (7 and 8 pooled) speaks for both alike
    pooled = evidence_matrix(CARDS, groups=("A", "78", "9", "T")) @ one_hot("8s")
    assert pooled[ix["7s"]] == pytest.approx(pooled[ix["8s"]]) and pooled[ix["8s"]] > 2 * pooled[ix["9s"]]


def test_an_unseen_kind_speaks_for_its_suit_alone() -> None:
    ix = {c: i for i, c in enumerate(CARDS)}
    e = evidence_matrix(CARDS) @ one_hot("Ns")
    numbers = [e[ix[r + "s"]] for r in "A789T"]
    assert np.allclose(numbers, numbers[0])
    assert numbers[0] > 10 * e[ix["9c"]] and numbers[0] > 10 * e[ix["Ks"]]
    # as much for each number card of the suit as a face whose kind was seen gives the others on average
    seen = evidence_matrix(CARDS) @ one_hot("9s")
    assert numbers[0] == pytest.approx(np.mean([seen[ix[r + "s"]] for r in "A789T"]))


def test_a_court_face_speaks_for_a_court_in_any_suit() -> None:
    m = evidence_matrix(CARDS)
    e = m @ one_hot("Cc")
    ix = {c: i for i, c in enumerate(CARDS)}
    assert e[ix["Kc"]] == pytest.approx(e[ix["Ks"]]) == pytest.approx(e[ix["Qh"]])
    assert e[ix["Kc"]] > 10 * e[ix["9c"]]


def test_a_face_not_seen_weighs_every_card_alike() -> None:
    e = evidence_matrix(CARDS) @ one_hot("none")
    assert np.allclose(e, e[0]) and e[0] > 0  # the Joker too


def test_the_joker_gets_the_cards_mean() -> None:
    m = evidence_matrix(CARDS)
    joker = CARDS.index("B")
    assert np.allclose(m[joker], np.delete(m, joker, axis=0).mean(axis=0))


def test_the_face_reweighs_but_never_makes_a_reading_surer() -> None:
    mix = np.array([0.55, 0.40, 0.05])
    # the face leans to the second card: it is named, with no more than the corners' own top share
    best, share = cardcrop.weigh_by_face(mix, np.array([0.1, 1.0, 0.1]))
    assert best == 1 and share <= 0.55
    assert share == pytest.approx(min(0.40 / (0.055 + 0.40 + 0.005), 0.55))
    # agreeing with the corners, it does not lift the share above theirs
    assert cardcrop.weigh_by_face(mix, np.array([1.0, 0.01, 0.01])) == (0, pytest.approx(0.55))
    # no face, or evidence that says nothing: the corners' reading as it was
    assert cardcrop.weigh_by_face(mix, None) == (0, pytest.approx(0.55))
    assert cardcrop.weigh_by_face(mix, np.zeros(3)) == (0, pytest.approx(0.55))


def test_a_face_that_doubts_the_named_card_makes_it_less_sure(monkeypatch: pytest.MonkeyPatch) -> None:
    mix = np.array([0.5, 0.1, 0.1, 0.1, 0.1, 0.1])
    doubting = np.array([0.25, 1.0, 1.0, 1.0, 1.0, 1.0])  # the face likes every other card four times more
    best, share = cardcrop.weigh_by_face(mix, doubting)
    # the corners still name their card, renormalised (0.125 / 0.625), then times (1/4) ** FACE_DOUBT
    assert best == 0 and share == pytest.approx(0.2 * 0.25**cardcrop.FACE_DOUBT) and share < 0.15
    # with no doubt taken, the renormalised share alone: the face barely moved it
    monkeypatch.setattr(cardcrop, "FACE_DOUBT", 0.0)
    assert cardcrop.weigh_by_face(mix, doubting) == (0, pytest.approx(0.2))
    # where the face likes the named card best, nothing is taken either way
    monkeypatch.setattr(cardcrop, "FACE_DOUBT", 1.0)
    assert cardcrop.weigh_by_face(mix, np.array([1.0, 0.5, 0.5, 0.5, 0.5, 0.5]))[1] == pytest.approx(0.5)


def test_twin_indices_pair_each_card_with_the_other_suit_of_its_colour() -> None:
    names = ("7c", "7s", "Ah", "Ad", "B", "9h")
    # 9h's twin (9d) is not among the names, and the Joker has none: each is its own
    assert cardcrop.twin_indices(names) == (1, 0, 3, 2, 4, 5)


def test_a_card_with_its_twin_close_behind_is_doubted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 1.0)
    twins = (1, 0, 2)
    split = np.array([0.6, 0.35, 0.05], np.float32)  # the corners split between a card and its twin
    best, share = cardcrop.weigh_by_face(split, None, twins=twins)
    assert best == 0 and share == pytest.approx(0.6 * (1 - 0.35 / 0.6) ** cardcrop.TWIN_DOUBT)
    assert share < 0.3
    # the same split with another card (not the twin) behind costs far less
    other = np.array([0.6, 0.05, 0.35], np.float32)
    assert cardcrop.weigh_by_face(other, None, twins=twins)[1] == pytest.approx(0.6 * (1 - 0.05 / 0.6))
    # without twins given, or with the doubt off (as shipped), the vote's own share to the last bit
    assert cardcrop.weigh_by_face(split, None) == (0, split[0])
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 0.0)
    assert cardcrop.weigh_by_face(split, None, twins=twins) == (0, split[0])


def test_a_face_that_tells_the_twins_apart_lifts_the_doubt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 1.0)
    twins = (1, 0, 2)
    split = np.array([0.6, 0.35, 0.05], np.float32)
    alone = cardcrop.weigh_by_face(split, None, twins=twins)[1]
    # the face's evidence against the twin: the twin's weight is the vote times the evidence
    best, share = cardcrop.weigh_by_face(split, np.array([1.0, 0.1, 1.0]), twins=twins)
    assert best == 0 and share == pytest.approx(0.6 * (1 - 0.035 / 0.6) ** cardcrop.TWIN_DOUBT)
    assert share > 2 * alone
    # the face for the twin: the twin is named (no surer than the corners' top), doubted by what is left of
    # the card the corners preferred
    best, share = cardcrop.weigh_by_face(split, np.array([0.1, 1.0, 1.0]), twins=twins)
    assert best == 1 and share == pytest.approx(0.6 * (1 - 0.06 / 0.35) ** cardcrop.TWIN_DOUBT)


def test_combine_corners_doubts_a_reading_split_with_its_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 1.0)
    logits = np.full((4, len(cardcrop.CLASSIFIER_CLASSES)), -4.0, np.float32)
    logits[:, cardcrop.CLASSIFIER_CLASSES.index("Kc")] = 3.0
    logits[:, cardcrop.CLASSIFIER_CLASSES.index("Ks")] = 2.5
    name, conf = cardcrop.combine_corners(logits)
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 0.0)
    name_before, conf_before = cardcrop.combine_corners(logits)
    assert name == name_before == "Kc"
    assert conf == pytest.approx(conf_before * (1 - np.exp(-0.5)) ** 1.0, rel=1e-4) and conf < 0.5 * conf_before


def test_a_joker_the_corners_name_is_left_to_them() -> None:
    mix = np.array([0.7, 0.2, 0.1])
    against = np.array([0.1, 1.0, 1.0])  # the face leans away from card 0
    assert cardcrop.weigh_by_face(mix, against, unjudged=0) == (0, pytest.approx(0.7))
    assert cardcrop.weigh_by_face(mix, against)[0] == 1
    logits = np.full((4, len(cardcrop.CLASSIFIER_CLASSES)), -4.0, np.float32)
    logits[:, cardcrop.CLASSIFIER_CLASSES.index("B")] = 3.0
    logits[:, cardcrop.CLASSIFIER_CLASSES.index("Jc")] = 2.0
    court = evidence_matrix(CARDS) @ one_hot("Cc")
    assert cardcrop.combine_corners(logits, evidence=court) == cardcrop.combine_corners(logits)


def test_combine_corners_without_evidence_reads_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 1.0)
    rng = np.random.default_rng(3)
    logits = rng.normal(0, 0.3, (12, len(cardcrop.CLASSIFIER_CLASSES))).astype(np.float32)
    logits[:, cardcrop.CLASSIFIER_CLASSES.index("9c")] += 4.0
    logits[:, cardcrop.CLASSIFIER_CLASSES.index("9s")] += 3.5
    plain = cardcrop.combine_corners(logits)
    assert plain[0] == "9c"
    assert cardcrop.combine_corners(logits, evidence=None) == plain
    spades = evidence_matrix(CARDS) @ one_hot("9s")
    name, conf = cardcrop.combine_corners(logits, evidence=spades)
    # the face settles the split between the twins, so the twin doubt falls, but the reading is never surer
    # than the corners' own top share
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 0.0)
    undoubted = cardcrop.combine_corners(logits)
    assert name == "9s" and plain[1] < conf <= undoubted[1] + 1e-6


def _laid(face: np.ndarray, height: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """A face ``height`` px tall on a grey table, and its outline."""
    w = round(height * face.shape[1] / face.shape[0])
    img = np.full((height + 60, w + 70, 3), 90, np.uint8)
    f = cv2.resize(face, (w, height), interpolation=cv2.INTER_AREA)
    a = f[:, :, 3:4] / 255.0
    y0, x0 = 30, 35
    img[y0:y0 + height, x0:x0 + w] = (img[y0:y0 + height, x0:x0 + w] * (1 - a) + f[:, :, :3] * a).astype(np.uint8)
    quad = np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + height], [x0, y0 + height]], np.float32)
    return img, quad


def test_the_shipped_reader_names_the_suit_of_drawn_number_cards() -> None:
    """Drawn decks it never trained on (procedural faces): the suit of nearly every number card."""
    reader = load_face_reader(SHIPPED, threads=1)
    right = total = 0
    for faces in procedural_faceset().faces.values():
        for card, face in faces.items():
            if card == "B" or card[0] in "JQK":
                continue
            img, quad = _laid(face)
            top = FACE_CLASSES[int(np.argmax(reader.probabilities(img, [quad])[0]))]
            right += top != "none" and top[1] == card[1]
            total += 1
    assert total == 40
    assert right >= 36, f"suit named right on {right} of {total}"


def test_the_shipped_reader_turns_a_twin_the_corners_half_confused() -> None:
    """A drawn nine of spades whose corners lean to the nine of clubs is named the nine of spades."""
    reader = load_face_reader(SHIPPED, threads=1)
    img, quad = _laid(procedural_faceset().faces["procedural-0"]["9s"])
    p = reader.probabilities(img, [quad])[0]
    mix = np.zeros(len(CARDS))
    mix[CARDS.index("9c")], mix[CARDS.index("9s")], mix[CARDS.index("8s")] = 0.5, 0.4, 0.1
    best, share = cardcrop.weigh_by_face(mix, reader.evidence(CARDS, p))
    assert CARDS[best] == "9s" and share <= 0.5


def test_the_reader_is_found_beside_the_finder_and_can_be_left_out(tmp_path: Path) -> None:
    from vision.onnx_detector import OnnxDetector

    model = REPO_MODELS_DIR / "card-obb.onnx"
    assert face_reader_path_for(model) == SHIPPED
    with_face = OnnxDetector(model, threads=1)
    without = OnnxDetector(model, threads=1, face_reader=False)
    assert with_face.classifier is not None and with_face.classifier.face is not None
    assert without.classifier is not None and without.classifier.face is None
    assert face_reader_path_for(tmp_path / "card-obb.onnx") is None


def test_a_card_judged_dark_is_read_turned_over_by_a_reader_taught_so() -> None:
    """A reader taught dark paper (``reads_dark``) reads a card judged printed light on dark paper turned over,
    as its corners are; one not taught so gives such an outline no evidence."""
    from vision.onnx_detector import OnnxDetector

    classifier = OnnxDetector(REPO_MODELS_DIR / "card-obb.onnx", threads=1).classifier
    assert classifier is not None and classifier.face is not None and classifier.face.reads_dark
    gold = reprint_faces(procedural_faceset().faces["procedural-0"], "one_ink", seed=1)["9s"]
    img, quad = _laid(gold)
    hyps = [[quad], [quad]]
    evidence, faces = classifier._face_evidence(img, hyps, dark=[True, False])
    assert evidence[0] is not None and evidence[1] is not None
    assert evidence[0].shape == evidence[1].shape == (len(CARDS),)
    assert faces[0] is not None and np.allclose(faces[0], classifier.face.probabilities(img, [quad], turned=[True])[0])
    turned = classifier.face.evidence(CARDS, classifier.face.probabilities(img, [quad], turned=[True])[0])
    as_printed = classifier.face.evidence(CARDS, classifier.face.probabilities(img, [quad])[0])
    assert np.allclose(evidence[0], turned) and np.allclose(evidence[1], as_printed)
    assert not np.allclose(turned, as_printed)
    classifier.face.reads_dark = False
    evidence, faces = classifier._face_evidence(img, hyps, dark=[True, False])
    assert evidence[0] is None and evidence[1] is not None and faces[0] is None and faces[1] is not None
    assert classifier._face_evidence(img, hyps, dark=[True, True]) == ([None, None], [None, None])
    with pytest.raises(ValueError, match="2 turned flags for 1 outlines"):
        classifier.face.probabilities(img, [quad], turned=[True, False])


def test_the_shipped_reader_names_the_suit_of_one_ink_number_cards() -> None:
    """Drawn decks printed in one ink on dark paper (every suit gold, silver or white), read turned over: the
    suit of most number cards, told by the pips' shapes alone."""
    reader = load_face_reader(SHIPPED, threads=1)
    right = total = 0
    for seed, faces in enumerate(procedural_faceset().faces.values()):
        for card, face in reprint_faces(faces, "one_ink", seed=seed).items():
            if card == "B" or card[0] in "JQK":
                continue
            img, quad = _laid(face)
            top = FACE_CLASSES[int(np.argmax(reader.probabilities(img, [quad], turned=[True])[0]))]
            right += top != "none" and top[1] == card[1]
            total += 1
    assert total == 40
    assert right >= 36, f"suit named right on {right} of {total}"


def test_a_model_of_another_shape_is_refused() -> None:
    with pytest.raises(UserError, match="face reader output"):
        load_face_reader(REPO_MODELS_DIR / "corner-cls.onnx", threads=1)


def test_the_evidence_between_cousins_a_deck_prints_alike_reads_a_courts_colour() -> None:
    """``alike_evidence_matrix``: a court's row is the chance of a court in a suit of its colour (the vote's own
    matrix pools every suit's court); a number card's row is the vote's."""
    from vision.face_reader import FACE_CLASSES, FACE_NONE, alike_evidence_matrix, evidence_matrix, face_class

    names = ["Kd", "Ks", "Kh", "9d", "9s"]
    alike, vote = alike_evidence_matrix(names), evidence_matrix(names)
    red_court = np.zeros(len(FACE_CLASSES), np.float32)
    red_court[face_class("Qh")] = 1.0  # any court of hearts: red
    assert (alike @ red_court)[0] == pytest.approx(0.5) and (alike @ red_court)[1] == 0.0
    assert (alike @ red_court)[2] == pytest.approx(0.5)
    assert (vote @ red_court)[0] == pytest.approx((vote @ red_court)[1])  # the vote cannot tell them apart
    assert np.allclose(alike[3:], vote[3:])
    unseen = np.zeros(len(FACE_CLASSES), np.float32)
    unseen[FACE_NONE] = 1.0
    assert np.allclose(alike @ unseen, (alike @ unseen)[0])  # a face not seen speaks for every card alike
