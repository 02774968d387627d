"""Cards that overlap: a spread boxed as one outline is read as its two cards, and an outline that
slipped onto its neighbour is read again where its own card lies (``vision.onnx_detector.name_outlines``).

The frames are drawn by hand and read by the stand-in colour classifier of ``data/tiny``: a corner with
black ink reads ``As``, one with red ink ``Kh``, blank paper ``none``.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from detector_testkit import TINY

from table.cards import Card
from vision import cardcrop
from vision.onnx_detector import CornerClassifier, name_outlines

BLACK, RED = (25, 25, 25), (20, 20, 220)
# Two 80 x 112 px cards in a 320 x 260 frame, the right one laid over the left one, showing a strip of it.
LEFT = (100, 80)
RIGHT = (125, 80)
W, H = 80, 112


def quad(x: float, y: float, w: float = W, h: float = H) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def draw_card(frame: np.ndarray, x: int, y: int, ink: tuple[int, int, int]) -> None:
    cv2.rectangle(frame, (x, y), (x + W, y + H), (250, 250, 250), -1)
    for u, v in ((0.16, 0.17), (0.84, 0.83)):  # the index and its turned twin
        cv2.circle(frame, (round(x + u * W), round(y + v * H)), 8, ink, -1, lineType=cv2.LINE_AA)


def spread_frame(right: tuple[int, int] = RIGHT) -> np.ndarray:
    frame = np.zeros((260, 320, 3), np.uint8)
    frame[:] = (40, 110, 30)  # green felt
    draw_card(frame, *LEFT, BLACK)
    draw_card(frame, *right, RED)  # on top: covers the left card's turned index
    return frame


@pytest.fixture(scope="module")
def classifier() -> CornerClassifier:
    return CornerClassifier(TINY / "corner-cls.onnx", threads=1)


def names(dets: list) -> set[str]:  # type: ignore[type-arg]
    return {str(d.card) for d in dets}


def test_a_card_shaped_outline_is_not_a_spread() -> None:
    assert cardcrop.spread_halves(quad(0, 0)) == []
    assert cardcrop.spread_halves(quad(0, 0, 0.8 * H, H)) == []


def test_a_square_outline_is_two_card_shaped_outlines_one_at_each_end() -> None:
    union = quad(100, 80, 120, H)  # wider than tall: the cards may stand as tall as its short side
    ways = cardcrop.spread_halves(union)
    assert len(ways) == 2
    for first, second in ways:
        for card in (first, second):
            sides = sorted([np.linalg.norm(card[1] - card[0]), np.linalg.norm(card[2] - card[1])])
            assert sides[0] / sides[1] == pytest.approx(cardcrop.CARD_ASPECT, abs=0.01)
        # the first two points of each are corners of the outline, on opposite sides of it
        corners = {tuple(p) for p in union.tolist()}
        assert {tuple(p) for p in first[:2].tolist()} <= corners
        assert {tuple(p) for p in second[:2].tolist()} <= corners
        assert not {tuple(p) for p in first[:2].tolist()} & {tuple(p) for p in second[:2].tolist()}
    across = [w for w in ways if np.ptp(w[0][:, 0]) == pytest.approx(cardcrop.CARD_ASPECT * H, abs=0.5)]
    assert len(across) == 1  # the way the cards really lie: 80 px wide at the left and right ends


def test_a_spread_boxed_as_one_reads_as_both_its_cards(classifier: CornerClassifier) -> None:
    frame = spread_frame()
    union = quad(LEFT[0], LEFT[1], RIGHT[0] + W - LEFT[0], H)[None]  # 105 x 112
    score = np.array([0.9], np.float32)
    split = name_outlines(frame, union, score, classifier, frame=3)
    assert names(split) == {"As", "Kh"}
    assert all(d.frame == 3 and d.confidence >= classifier.default_min_confidence for d in split)
    # Each card gets a card-shaped outline of its own inside the spread's (which way the two cards lie
    # is told by how well their indices read, which this colour classifier cannot tell).
    assert all(d.corners is not None and cardcrop.spread_halves(np.array(d.corners)) == [] for d in split)
    assert all(d.box[0] >= LEFT[0] - 1 and d.box[2] <= RIGHT[0] + W + 1 for d in split)
    # Read as one outline, the spread gives at most one card.
    assert len(name_outlines(frame, union, score, classifier, frame=3, split_spreads=False)) <= 1


def test_a_single_card_in_a_loose_square_outline_stays_one_card(classifier: CornerClassifier) -> None:
    frame = np.full((260, 320, 3), 235, np.uint8)  # on white paper: the loose outline's margin is paper too
    draw_card(frame, *RIGHT, RED)
    loose = quad(RIGHT[0] - 8, RIGHT[1] - 2, W + 16, H + 4)[None]  # aspect 0.83..0.9: may be a spread
    dets = name_outlines(frame, loose, np.array([0.9], np.float32), classifier, frame=0)
    assert names(dets) == {"Kh"} and len(dets) == 1


def test_an_outline_slipped_onto_its_neighbour_is_read_again_where_its_card_lies(
    classifier: CornerClassifier,
) -> None:
    right = (140, 80)
    frame = spread_frame(right)
    # The left card's outline is right; the right card's slipped left, so its corners see the left card's index.
    outlines = np.stack([quad(*LEFT), quad(right[0] - 0.35 * W, right[1])])
    scores = np.array([0.95, 0.9], np.float32)
    first_look = name_outlines(frame, outlines, scores, classifier, frame=0, second_look=False)
    assert names(first_look) == {"As"}
    dets = name_outlines(frame, outlines, scores, classifier, frame=0)
    assert names(dets) == {"As", "Kh"}
    kh = next(d for d in dets if d.card == Card.parse("Kh"))
    assert kh.box[0] > right[0] - 0.2 * W  # moved away from the ace, onto its own card


def test_the_second_look_moves_an_outline_only_away_from_the_card_it_overlaps() -> None:
    outline = quad(100, 80)
    everywhere = cardcrop.shifted_outlines(outline)
    assert len(everywhere) == len(cardcrop.SECOND_LOOK_SHIFTS)
    away = cardcrop.shifted_outlines(outline, away_from=(60.0, 136.0))  # a card to the left
    assert 0 < len(away) < len(everywhere)
    assert all(q.mean(axis=0)[0] > outline.mean(axis=0)[0] for q in away)


class ReadsAs:
    """A calibrated classifier stand-in: every outline reads as ``card`` with chance ``chance``."""

    calibration = object()  # name_outlines only asks whether there is one
    default_min_confidence = 0.6

    def __init__(self, card: str, chance: float, profile: object = None) -> None:
        self.card, self.chance = Card.parse(card), chance
        self.profile = profile

    def classify(
        self, frame: np.ndarray, quads: np.ndarray, refine: bool = True, polarity_apart: bool = True
    ) -> list[tuple[Card, float, float, None]]:
        return [(self.card, self.chance, self.chance, None)] * len(quads)

    def read_spreads(self, frame: np.ndarray, quads: np.ndarray) -> list[None]:
        return [None] * len(quads)

    def confidence(self, finder_score: float, classifier_conf: float) -> float:
        return classifier_conf


class JokerDeck:
    """A profile stand-in: the deck's Joker is enrolled (its face is not, so it is not read by its face)."""

    holds_benny = True
    reads_benny_faces = False

    def prints_alike(self, card: str) -> bool:
        return False  # a deck that prints no cousins alike


@pytest.mark.parametrize(
    ("card", "chance", "reported", "unsure_with_profile"),
    [
        ("B", 0.5, None, None),
        ("B", 0.7, None, 0.7 * 0.6 / 0.8),
        ("B", 0.85, 0.85, 0.85),
        ("Kh", 0.7, 0.7, 0.7),
        ("Kh", 0.5, None, None),
    ],
)
def test_the_joker_must_be_read_more_surely_than_a_card_with_an_index(
    card: str, chance: float, reported: float | None, unsure_with_profile: float | None
) -> None:
    # A Joker read from the floor (0.6) up to MIN_JOKER_CONFIDENCE (0.8) is dropped; with a profile that holds
    # the deck's Joker it is reported under the floor, to be checked.
    frame = np.zeros((260, 320, 3), np.uint8)
    for profile, expect in ((None, reported), (JokerDeck(), unsure_with_profile)):
        reader = ReadsAs(card, chance, profile)
        dets = name_outlines(frame, quad(*LEFT)[None], np.array([0.9], np.float32), reader, frame=0)  # type: ignore[arg-type]
        expected = [] if expect is None else [(card, round(expect, 4))]
        assert [(str(d.card), round(d.confidence, 4)) for d in dets] == expected


def test_of_jokers_read_unsurely_only_the_likeliest_is_reported_and_none_beside_a_sure_one() -> None:
    from vision.onnx_detector import _unsure_joker

    q, benny, king = quad(*LEFT), Card.parse("B"), Card.parse("Kh")
    assert _unsure_joker([[(q, benny, 0.65)], [(q, benny, 0.75)], [(q, king, 0.9)]], 0.6, 0.8) == (1, benny)
    assert _unsure_joker([[(q, benny, 0.65)], [(q, benny, 0.85)]], 0.6, 0.8) is None  # the sure one is the Joker
    assert _unsure_joker([[(q, benny, 0.55)], [(q, None, 0.0)]], 0.6, 0.8) is None  # under the floor
    assert _unsure_joker([[(q, benny, 0.7)]], 0.6, 0.6) is None  # no line of its own (no calibration)


def test_the_surer_outline_is_moved_only_when_its_card_stays_reported() -> None:
    # Of two outlines that name one card, the surer may be moved only if another outline reports that card.
    from vision.onnx_detector import _repeats, _reported_elsewhere

    q = quad(*LEFT)
    ace, king = Card.parse("As"), Card.parse("Kh")
    assert _repeats([(q, ace, 0.5)], [(q, ace, 0.95)])
    assert not _repeats([(q, king, 0.9)], [(q, ace, 0.95)])
    assert not _repeats([(q, None, 0.0)], [(q, ace, 0.95)])
    assert _reported_elsewhere([[(q, ace, 0.95)], [(q, ace, 0.7)]], 0, floor=0.6)
    assert not _reported_elsewhere([[(q, ace, 0.95)], [(q, ace, 0.5)]], 0, floor=0.6)  # the ace would be lost
    assert _reported_elsewhere([[(q, ace, 0.95)], [(q, ace, 0.5)], [(q, ace, 0.65)]], 0, floor=0.6)


def test_an_outline_beside_a_surer_one_that_reads_no_card_is_read_again_moved_away_from_it(
    classifier: CornerClassifier,
) -> None:
    # Two cards apart on white paper; the king's outline lies off it, towards the ace, where its corners see
    # blank paper. Moved away from the ace, it finds the king.
    frame = np.full((260, 360, 3), 235, np.uint8)
    draw_card(frame, *LEFT, BLACK)
    draw_card(frame, 200, 80, RED)
    outlines = np.stack([quad(*LEFT), quad(172, 80)])
    scores = np.array([0.95, 0.95], np.float32)
    assert names(name_outlines(frame, outlines, scores, classifier, frame=0, second_look=False)) == {"As"}
    dets = name_outlines(frame, outlines, scores, classifier, frame=0)
    assert names(dets) == {"As", "Kh"}
    kh = next(d for d in dets if d.card == Card.parse("Kh"))
    assert kh.box[0] > 172  # moved right, away from the ace
