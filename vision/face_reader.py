"""The face reader: a second look at a named card, at its middle rather than its corners.

The corner classifier names a card from its index, which on a card 75-110 px tall (the table's `lores`
stream) is a rank 10-15 px tall over a pip of 6-8 px. There it confuses a card with its twin (the same
rank in the other suit of its colour: clubs and spades drawn alike) and with a neighbouring rank (9 and
10). The card's middle holds the same facts larger and several times over: a number card's pips are
1.5-2 times the index pip's size. The face reader is a small
network (``face-cls.onnx`` beside the corner classifier; trained on synthetic faces only, ``python -m
lab.synth.face_crops``, ``euchre-table train face``) that reads the middle (``cardcrop.face_crop_bgr``) as
one of :data:`FACE_CLASSES`: a kind (ace, 7, 8, 9, 10, or a court) in a suit; a number card of a suit
whose kind it cannot see (``N`` and the suit: a hand or another card over part of the face, where a pip
may be hidden); or ``none`` (no face to see: a back, a face under another card, a blur).

Its answer is weighed into the corners' vote (``cardcrop.weigh_by_face``) as evidence per card, with
what it cannot tell apart pooled:

- a court's picture differs from deck to deck and seldom shows its rank, so for a jack, queen or king
  only "a court" counts, in any suit (a court's suit is mostly shown by its index alone);
- a number card's evidence is half its kind (:data:`KIND_SHARE`, :data:`NUMBER_GROUPS`), half its suit
  alone; an unseen kind speaks for every number card of its suit alike. At the table a hand or another
  card often covers a pip, and a nine with one pip covered looks like an eight: the reader was taught to
  answer the unseen kind there, and the suit's half keeps a wrong count from outvoting sure corners;
- ``none`` weighs every card alike, so a face the reader cannot see changes nothing;
- the Joker has no common face and the reader was not taught it (it calls it ``none``): a reading the
  corners give the Joker is left as it is (``weigh_by_face``'s ``unjudged``), and as another card's rival
  the Joker gets the mean of the cards' evidence.

The evidence is raised to :data:`FACE_WEIGHT` (a tempered product: the face is a weaker witness than the
corners), and it may only re-decide which card the corners named, never make a reading surer than the
corners' own vote (``weigh_by_face``). A card judged printed light on dark paper (``is_dark_card``) is
read turned over (``cardcrop.lightness_inverted``), as its corners are: the reader was taught such decks so
(:data:`READS_DARK_FACES`), a deck printed all in one ink among them, whose suits only the pips' shapes tell
apart. Without ``face-cls.onnx`` the reader reads as before. See the model card ("How a frame is read", "The
face reader").
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision import cardcrop

FACE_READER_NAME = "face-cls.onnx"
FACE_KINDS = "A789TC"  # C: a court (jack, queen or king)
NUMBER_KINDS = "A789T"
UNSEEN_KIND = "N"  # a number card whose pips are not all in view: its suit, kind unknown
FACE_CLASSES: tuple[str, ...] = (
    *(kind + suit for kind in FACE_KINDS for suit in cardcrop.SUITS),
    *(UNSEEN_KIND + suit for suit in cardcrop.SUITS),
    cardcrop.NONE_CLASS,
)
FACE_NONE = len(FACE_CLASSES) - 1
_CARD_CLASSES = len(FACE_KINDS) * len(cardcrop.SUITS)  # the classes that name a kind in a suit
# Number-card kinds the face evidence does not tell apart: none. The reader takes most 7s it misses for 8s,
# but pooling the two lost precision on two held-out decks (`kde-jolly-royal`, `kde-tigullio-international`).
NUMBER_GROUPS: tuple[str, ...] = ("A", "7", "8", "9", "T")
# How much of a number card's evidence is its kind (its group in :data:`NUMBER_GROUPS`), the rest its suit
# alone. At the table a hand or another card often covers a pip, and a nine with one pip covered looks
# like an eight: the reader is taught to answer the suit's unseen kind there (``N`` + suit). 0.5 chosen on
# the held-out decks' test scenes, without and with their profiles: 0 (the suit alone) read no deck
# better, 1 lost a reading on `gnome-neoclassical` (model card, "The face reader").
KIND_SHARE = 0.5
# The evidence's exponent: 0.5 chosen on the five held-out decks' test scenes, without and with their
# profiles (1.0 moved precision down on four of them), and checked per frame at the simulated table.
FACE_WEIGHT = 0.5
_EVIDENCE_FLOOR = 1e-4  # no card's evidence is quite zero: the corners may outvote a sure face
# Whether the reader reads a card judged printed light on dark paper, turned over (``cardcrop.lightness_inverted``).
# The shipped reader was taught such faces so (``python -m lab.synth.face_crops --restyle``: gold, silver and white
# print on dark paper, and decks printed all in one ink, seen turned over); a reader taught light paper alone
# must not read them (it reads suits by colour: a one-ink ace of diamonds turned over was read as the ace of
# spades at 0.90). Model card, "The face reader".
READS_DARK_FACES = True

FloatArray = npt.NDArray[np.float32]


def face_class(card: str | None, pips_in_view: bool = True) -> int:
    """The face reader's class index for a card name (None, the Joker ``B`` and ``none``: :data:`FACE_NONE`);
    a number card whose pips are not all in view (``pips_in_view`` false) is its suit's unseen kind."""
    if card is None or card in ("B", cardcrop.NONE_CLASS):
        return FACE_NONE
    rank, suit = card[0], card[1]
    kind = "C" if rank in "JQK" else rank
    if kind not in FACE_KINDS or suit not in cardcrop.SUITS:
        raise ValueError(f"{card!r}: not a card the face reader knows")
    if not pips_in_view and kind in NUMBER_KINDS:
        return FACE_CLASSES.index(UNSEEN_KIND + suit)
    return FACE_KINDS.index(kind) * len(cardcrop.SUITS) + cardcrop.SUITS.index(suit)


def evidence_matrix(card_names: Sequence[str], kind_share: float | None = None,
                    groups: Sequence[str] | None = None) -> FloatArray:
    """(cards, len(FACE_CLASSES)): row c maps the reader's probabilities to how likely its face is card c's
    (``matrix @ p``).

    - A number card: ``kind_share`` (default :data:`KIND_SHARE`) of it is its kind, the mean probability of
      its group's classes in its suit (``groups``, default :data:`NUMBER_GROUPS`) plus a fifth of its suit's
      unseen kind; the rest is its suit, a fifth of the probability of every number class of its suit,
      the unseen kind included.
    - A court: the mean probability of a court in any suit.
    - Every card: plus ``p(none)`` over 24 (the classes that name a kind in a suit), so that a face not
      seen weighs every card alike.
    - A name the reader has no class for (the Joker, any other rank): the mean of the cards' rows.
    """
    share = KIND_SHARE if kind_share is None else kind_share
    number_groups = NUMBER_GROUPS if groups is None else tuple(groups)
    n_numbers = len(NUMBER_KINDS)
    m = np.zeros((len(card_names), len(FACE_CLASSES)), np.float32)
    known: list[int] = []
    for row, name in enumerate(card_names):
        rank, suit = name[:1], name[1:]
        if suit not in cardcrop.SUITS or len(suit) != 1:
            continue
        if rank in ("J", "Q", "K"):
            m[row, [face_class(rank + other) for other in cardcrop.SUITS]] = 1.0 / len(cardcrop.SUITS)
        elif rank in NUMBER_KINDS:
            group = next((g for g in number_groups if rank in g), rank)
            m[row, [face_class(r + suit) for r in NUMBER_KINDS]] += (1.0 - share) / n_numbers
            m[row, [face_class(r + suit) for r in group]] += share / len(group)
            m[row, face_class(name, pips_in_view=False)] = 1.0 / n_numbers
        else:
            continue
        m[row, FACE_NONE] = 1.0 / _CARD_CLASSES
        known.append(row)
    unknown = [row for row in range(len(card_names)) if row not in known]
    if unknown:
        if known:
            m[unknown] = m[known].mean(axis=0)
        else:
            m[unknown, FACE_NONE] = 1.0
    return m


def alike_evidence_matrix(card_names: Sequence[str]) -> FloatArray:
    """As :func:`evidence_matrix`, but a court's row is the reader's chance of a court in a suit of its colour
    (and ``p(none)`` over 24, as every row): between a court and its cousins (its rank in the other colour),
    which a deck printed all in one ink shows alike in its corners, the picture's suit marks are all there is
    to tell by. Not weighed into the vote (a court's suit is mostly shown by its index alone, and pictures
    differ by deck); only the doubt between cousins such a deck prints alike uses it
    (``vision.deck_profile.INDISTINCT_COUSINS``)."""
    m = evidence_matrix(card_names)
    for row, name in enumerate(card_names):
        rank, suit = name[:1], name[1:]
        if rank not in ("J", "Q", "K") or suit not in cardcrop.SUITS or len(suit) != 1:
            continue
        red = suit in "hd"
        same = [s for s in cardcrop.SUITS if (s in "hd") == red]
        m[row] = 0.0
        m[row, [face_class(rank + s) for s in same]] = 1.0 / len(same)
        m[row, FACE_NONE] = 1.0 / _CARD_CLASSES
    return m


def weighed_evidence(matrix: npt.ArrayLike, probabilities: npt.ArrayLike, weight: float = FACE_WEIGHT) -> FloatArray:
    """``matrix @ probabilities`` (a face's evidence per card), floored and raised to ``weight``."""
    p = np.asarray(probabilities, np.float32)
    out: FloatArray = np.power(np.asarray(matrix, np.float32) @ p + _EVIDENCE_FLOOR, weight).astype(np.float32)
    return out


class FaceReader:
    """The face reader's ONNX model: per outline, its probabilities over :data:`FACE_CLASSES`, and the
    evidence per card they give."""

    def __init__(self, path: Path, session: Any, weight: float = FACE_WEIGHT) -> None:
        """``session``: an ONNX Runtime session of ``path`` (``vision.onnx_detector.load_face_reader`` opens
        one and builds the reader). It reads cards printed light on dark paper, turned over, as
        :data:`READS_DARK_FACES` says (``reads_dark``)."""
        from vision.errors import UserError

        self.path = Path(path)
        self.session = session
        self.input_name = self.session.get_inputs()[0].name
        shape = self.session.get_outputs()[0].shape
        if len(shape) != 2 or (isinstance(shape[1], int) and shape[1] != len(FACE_CLASSES)):
            raise UserError(f"{self.path}: face reader output {shape} does not match {len(FACE_CLASSES)} classes")
        self.weight = weight
        self.reads_dark = READS_DARK_FACES
        self._matrices: dict[tuple[str, ...], FloatArray] = {}

    def probabilities(
        self, frame_bgr: npt.NDArray[np.uint8], outlines: Sequence[npt.ArrayLike],
        turned: Sequence[bool] | None = None,
    ) -> FloatArray:
        """(len(outlines), len(FACE_CLASSES)): the reader's softmax for each outline's face (frame pixels).
        ``turned``: per outline, whether its face is read turned over (a card printed light on dark paper)."""
        if not len(outlines):
            return np.zeros((0, len(FACE_CLASSES)), np.float32)
        flags = [False] * len(outlines) if turned is None else list(turned)
        if len(flags) != len(outlines):
            raise ValueError(f"{len(flags)} turned flags for {len(outlines)} outlines")
        cut = [cardcrop.face_crop_bgr(frame_bgr, q) for q in outlines]
        crops = np.stack([cardcrop.normalise_crop(cardcrop.lightness_inverted(c) if t else c)
                          for c, t in zip(cut, flags, strict=True)])
        logits = self.session.run(None, {self.input_name: crops.astype(np.float32)})[0]
        return cardcrop.softmax(logits)

    def evidence(self, card_names: Sequence[str], probabilities: npt.ArrayLike) -> FloatArray:
        """Per card of ``card_names``: how likely the face is that card's (:func:`evidence_matrix`), raised
        to the reader's weight, for ``cardcrop.weigh_by_face``."""
        key = tuple(card_names)
        matrix = self._matrices.get(key)
        if matrix is None:
            matrix = self._matrices[key] = evidence_matrix(key)
        return weighed_evidence(matrix, probabilities, self.weight)


def face_reader_path_for(model: Path) -> Path | None:
    """The face reader beside the finder ``model`` (as its corner classifier), if there is one."""
    path = Path(model).parent / FACE_READER_NAME
    return path if path.is_file() else None
