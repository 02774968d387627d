"""A deck printed in one ink: its enrolled index pictures compared, pixel by pixel, with a card's corners.

A deck printed light on dark paper (a black-and-gold deck) often prints all four suits in the same ink, so
nothing but a pip's shape tells a diamond from a spade. At the table a card's index pip is 6-8 px tall; the
dark classifier (``corner-cls-dark.onnx``, taught suits by shape) mostly tells them apart, but not always: at
the simulated table a one-ink deck's king of diamonds was read as the king of spades, surely, in 12 of 284
readings of one game (every fourth frame), and the profile's prototypes (the corner classifier's features,
learnt on colour) could not overrule it (model card, "Deck profiles"). Yet the enrolment kept the deck's own
index corners (``crops/<card>-<corner>.png``), and compared as pictures (normalised cross-correlation, a few
pixels of slack for the outline's error) the reading's corners match the king of diamonds' far better than
the king of spades'.

So with a profile of such a deck (``dark_paper``), a reading whose corners match a **cousin** (its rank in a
suit of the other colour, the one-ink confusion) better than the card named, by more than
:data:`COUSIN_MARGIN`, is doubted: reported to be checked, so the engine proves no renege with it
(``vision.onnx_detector.name_outlines``, ``_to_check``). It never renames a card. Only numpy and OpenCV.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np
import numpy.typing as npt

from table.cards import Card, CardParseError, Suit

FloatArray = npt.NDArray[np.float32]

# A reading is doubted where a cousin's enrolled corners match its corners better than the named card's by more
# than this (normalised cross-correlation, -1..1). Chosen at the simulated table, enrolled, every fourth frame of
# `gnome-orell` printed in one ink, seeds 0-2 (a throwaway script over lab.frame_study's games, each outline's
# margin recorded): a card is no longer read surely in a frame where every outline naming it is doubted; from 0.5,
# 0.6, 0.65 and 0.7 up that took 12, 9, 6 and 3 of the 15 wrong readings and 21, 10, 1 and 1 of the 790 right
# ones. From 0.65 up no right reading of `gnome-orell` printed dark (seeds 0-1, 587) or of two other one-ink
# decks (seed 0, 602) was.
COUSIN_MARGIN = 0.65
# A doubted reading's confidence is multiplied by this (under the reading line, so reported to be checked).
DOUBT = 0.25
# A reading's corners come four to an outline hypothesis (TL, TR, BR, BL: ``cardcrop.corner_crops``).
CORNERS_PER_CUT = 4
# An enrolled corner is compared with a cut's corners on its diagonal: an index printed at TL is printed at BR
# too, and a card read the other way up shows it there.
_DIAGONALS = {"TL": (0, 2), "BR": (0, 2), "TR": (1, 3), "BL": (1, 3)}
# Pixels of each enrolled picture's border left out, so it can slide over the corner by as much each way.
SLACK = 4


def picture(crop: npt.ArrayLike) -> FloatArray:
    """A corner crop as compared: one channel (the channels' mean), zero mean, unit spread. ``crop``: (H, W, 3)
    or (3, H, W) as the classifier reads it, any scale (cross-correlation ignores brightness and contrast)."""
    a = np.asarray(crop, np.float32)
    if a.ndim == 3:
        a = a.mean(axis=0 if a.shape[0] == 3 and a.shape[2] != 3 else 2)
    a = a - float(a.mean())
    spread = float(a.std())
    return (a / spread if spread > 1e-6 else a).astype(np.float32)


def _cousins(card: Card) -> list[str]:
    """Its rank in the suits of the other colour (none for the Joker)."""
    if card.rank is None or card.suit is None:
        return []
    return [str(Card.of(card.rank, s)) for s in Suit if s.is_red != card.suit.is_red]


class IndexPictures:
    """Per card of a profile, its enrolled index corners as pictures; compares a reading's corners with them."""

    def __init__(
        self,
        pictures: Mapping[str, Sequence[FloatArray]],
        margin: float = COUSIN_MARGIN,
        corners_of: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        """``pictures`` per card name; ``corners_of``: per card, the corner (TL, TR, BR or BL) each picture was cut
        from, so it is compared with a reading's corners of that diagonal alone (TL and BR, or TR and BL: the
        card may lie either way up); without it, with every corner."""
        self.margin = margin
        # Per card, each enrolled picture with its border cut off (SLACK), to slide over a corner crop, and the
        # indices of a cut's corners (TL TR BR BL) it is compared with.
        self.pictures: dict[str, list[tuple[FloatArray, tuple[int, ...]]]] = {}
        for name, pics in pictures.items():
            corners = list((corners_of or {}).get(name, ())) + [""] * len(pics)
            self.pictures[name] = [
                (np.ascontiguousarray(p[SLACK:-SLACK, SLACK:-SLACK]), _DIAGONALS.get(corner, (0, 1, 2, 3)))
                for p, corner in zip(pics, corners, strict=False)
                if min(p.shape) > 2 * SLACK + 2
            ]

    def match(self, corners: Sequence[FloatArray], card: str) -> float | None:
        """The best normalised cross-correlation of any of a cut's ``corners`` (:func:`picture`s, TL TR BR BL)
        with any enrolled picture of ``card``, slid by up to :data:`SLACK` pixels; None where the card has none."""
        pics = self.pictures.get(card)
        if not pics:
            return None
        best = -1.0
        for pic, where in pics:
            for k in where:
                if k >= len(corners):
                    continue
                corner = corners[k]
                if pic.shape[0] > corner.shape[0] or pic.shape[1] > corner.shape[1]:
                    continue
                best = max(best, float(cv2.matchTemplate(corner, pic, cv2.TM_CCOEFF_NORMED).max()))
        return best

    def cousin_margin(self, corners: Sequence[FloatArray], card: str) -> float:
        """How much better a cousin of ``card`` matches ``corners`` than ``card`` itself (negative: worse;
        -inf where the card or every cousin has no picture). ``corners``: the four corners (TL, TR, BR, BL) of
        each of the outline's hypotheses in turn, as ``cardcrop.corner_crops`` cuts them; the hypothesis whose
        corners match the deck's pictures best (its cut lies best on the card) is the one compared."""
        try:
            parsed = Card.parse(card)
        except CardParseError:
            return float("-inf")
        cousins = [c for c in _cousins(parsed) if self.pictures.get(c)]
        if not self.pictures.get(card) or not cousins:
            return float("-inf")
        best_fit, margin = float("-inf"), float("-inf")
        for start in range(0, len(corners), CORNERS_PER_CUT):
            cut = corners[start : start + CORNERS_PER_CUT]
            own = self.match(cut, card)
            rival = max(m for c in cousins if (m := self.match(cut, c)) is not None)
            assert own is not None
            if max(own, rival) > best_fit:
                best_fit, margin = max(own, rival), rival - own
        return margin

    def doubts(self, corners: Sequence[FloatArray], card: str) -> bool:
        """Whether a cousin matches ``corners`` better than ``card`` by more than the margin."""
        return self.cousin_margin(corners, card) > self.margin


def index_pictures(
    profile_images: Mapping[str, npt.NDArray[np.uint8]], crops_of: Mapping[str, Sequence[tuple[str, str]]]
) -> IndexPictures:
    """The :class:`IndexPictures` of a profile: ``crops_of`` per card name, its corner crops as (corner, relative
    path), read from ``profile_images`` (a path missing there is left out)."""
    from vision.cardcrop import normalise_crop

    # In the form the classifier reads (a reading's corners are compared in that form too).
    kept = {name: [(c, rel) for c, rel in crops if rel in profile_images] for name, crops in crops_of.items()}
    pictures = {name: [picture(normalise_crop(profile_images[rel])) for _, rel in kept[name]] for name in kept}
    return IndexPictures(pictures, corners_of={name: [c for c, _ in crops] for name, crops in kept.items()})
