"""A deck's lean between twin suits, learnt from its enrolment: which reading of a twin pair to doubt.

The corner classifier leans, on some decks, towards one suit of a colour: read with its
profile, ``kde-jolly-royal``'s 200 test scenes had 11 clubs read as spades, and no spade read
as a club. A deck profile holds each card's index corners, labelled, so the lean can be
measured once the deck is enrolled: for every enrolled corner crop, and for blurred and shrunk
copies of it (the sizes and sharpness the reader meets at the table, where a clean enrolment
crop is read surely whatever the lean), the margin of the classifier's logit for the card over
its twin's. Per colour, the offset ``delta`` that, added to one suit's logits and taken from
the other's, best separates the two suits' crops (logistic loss on the margins plus
``LAM * delta**2``) is the deck's lean; where the classifier is even-handed it comes out near
zero.

The lean is used to doubt, never to rename (``ProfileMatcher.shares``): a reading that the classifier with
the lean taken out would give to another card (its twin, mostly), or give less surely, keeps its name with
the lower share. A
wrong correction then costs a reading to check, never a suit swap: with the offset added to the logits
outright, the one deck with a strong lean gained and two decks with a weak one swapped hearts for
diamonds twice (models/MODEL_CARD.md, "Deck profiles").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from table.cards import Card, Suit

if TYPE_CHECKING:
    from vision.deck_profile import DeckProfile

FloatArray = npt.NDArray[np.float32]

# The pairs of twin suits (``Suit.partner``): the offset is added to the first suit's logits and taken from the
# second's.
SUIT_PAIRS: tuple[tuple[Suit, Suit], ...] = tuple((s, s.partner) for s in Suit if s.value < s.partner.value)
# Shrunk to these fractions and blown up again (the crop of a card far from the camera), and blurred with
# these Gaussian sigmas (out of focus, moving): four harder copies of each enrolled corner crop.
SHRINKS = (0.5, 0.375)
BLURS = (1.2, 1.8)
LAM = 0.5  # the penalty on the offset's square: a weak pull towards no lean
MAX_OFFSET = 6.0  # logits; a bound the fit never reaches on real leans (the strongest measured is about 2)
MIN_OFFSET = 1e-3  # a fitted offset smaller than this is no lean


class LogitClassifier(Protocol):
    """What the fit needs of the corner classifier (``onnx_detector.CornerClassifier``)."""

    classes: list[str]

    def run(self, crops: FloatArray) -> tuple[FloatArray, FloatArray]: ...


def harder_copies(crop_bgr: npt.NDArray[np.uint8]) -> list[npt.NDArray[np.uint8]]:
    """``crop_bgr`` shrunk (each of :data:`SHRINKS`) and blurred (each of :data:`BLURS`), at its own size."""
    h, w = crop_bgr.shape[:2]
    out: list[npt.NDArray[np.uint8]] = []
    for f in SHRINKS:
        small = cv2.resize(crop_bgr, (max(2, round(w * f)), max(2, round(h * f))), interpolation=cv2.INTER_AREA)
        out.append(np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), np.uint8))
    for sigma in BLURS:
        out.append(np.asarray(cv2.GaussianBlur(crop_bgr, (0, 0), sigma), np.uint8))
    return out


def fit_offset(first: npt.ArrayLike, second: npt.ArrayLike, lam: float = LAM) -> float:
    """The offset ``d`` that minimises sum(log(1 + exp(-(a + d)))) + sum(log(1 + exp(-(b - d)))) + lam d^2
    over the first suit's margins ``a`` and the second's ``b`` (convex: Newton's method, safeguarded by
    bisection within +-:data:`MAX_OFFSET`). 0.0 where either suit has no margin."""
    a = np.asarray(first, np.float64).ravel()
    b = np.asarray(second, np.float64).ravel()
    if a.size == 0 or b.size == 0:
        return 0.0

    def grad_hess(d: float) -> tuple[float, float]:
        pa = 1.0 / (1.0 + np.exp(a + d))  # sigmoid(-(a + d))
        pb = 1.0 / (1.0 + np.exp(b - d))
        g = float(-pa.sum() + pb.sum() + 2.0 * lam * d)
        h = float((pa * (1 - pa)).sum() + (pb * (1 - pb)).sum() + 2.0 * lam)
        return g, h

    lo, hi, d = -MAX_OFFSET, MAX_OFFSET, 0.0
    for _ in range(100):
        g, h = grad_hess(d)
        if abs(g) < 1e-9:
            break
        if g > 0:
            hi = d
        else:
            lo = d
        step = d - g / h
        d = step if lo < step < hi else 0.5 * (lo + hi)
        if hi - lo < 1e-9:
            break
    return float(d)


def twin_margins(
    classifier: LogitClassifier, crops: Sequence[tuple[Card, npt.NDArray[np.uint8]]]
) -> dict[Suit, list[float]]:
    """Per suit: the classifier's logit for each crop's card less that for its twin, over the crops
    and their :func:`harder_copies` (``crops``: (card, BGR corner crop as the reader cuts it)); cards
    without a twin (the Joker) or outside the classifier's classes are left out."""
    from vision.cardcrop import normalise_crop

    batch: list[FloatArray] = []
    pairs: list[tuple[Suit, int, int]] = []
    for card, crop in crops:
        twin = card.twin
        if twin is None or card.suit is None or not {str(card), str(twin)} <= set(classifier.classes):
            continue
        i, t = classifier.classes.index(str(card)), classifier.classes.index(str(twin))
        for c in [crop, *harder_copies(crop)]:
            batch.append(normalise_crop(c))
            pairs.append((card.suit, i, t))
    margins: dict[Suit, list[float]] = {}
    if not batch:
        return margins
    logits, _ = classifier.run(np.stack(batch).astype(np.float32))
    for row, (suit, i, t) in zip(logits, pairs, strict=True):
        margins.setdefault(suit, []).append(float(row[i] - row[t]))
    return margins


def suit_offsets(margins: dict[Suit, list[float]], lam: float = LAM) -> dict[Suit, float]:
    """Per suit: the offset to add to that suit's logits (half the pair's fitted offset, with
    opposite signs for the two suits of a colour; 0.0 for a pair with a suit not enrolled)."""
    out = {s: 0.0 for pair in SUIT_PAIRS for s in pair}
    for first, second in SUIT_PAIRS:
        d = fit_offset(margins.get(first, []), margins.get(second, []), lam)
        if abs(d) >= MIN_OFFSET:
            out[first], out[second] = d / 2, -d / 2
    return out


def deck_lean(profile: DeckProfile, classifier: LogitClassifier, lam: float = LAM) -> dict[Suit, float]:
    """The enrolled deck's lean between twin suits (:func:`suit_offsets`), from the corner crops it has
    (read from the profile's folder where not in memory; one missing there is left out, as the profile reads
    with its features alone; without any crop, no lean is measured: all 0.0)."""
    from vision.deck_profile import read_images

    read_images(profile, missing_ok=True)
    crops = [
        (card, profile.images[p.crop])
        for card, entry in profile.cards.items()
        for p in entry.prototypes
        if p.crop in profile.images
    ]
    return suit_offsets(twin_margins(classifier, crops), lam)
