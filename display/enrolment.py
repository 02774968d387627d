"""Enrolment: the house deck learnt once through the camera, card by card, with the players naming the unsure ones.

The players lay the deck face up on the mat, all at once in rows or a few
cards at a time. :class:`Enrolment` is fed every camera frame: the reader's
finder outlines the cards, each outline is followed from frame to frame by
its centre, and once a card has lain still for :data:`STILL_FRAMES` frames it
is read over :data:`READS` frames (the corner classifier's probabilities,
averaged). A card read surely (:data:`SURE`) as a card of the deck not yet
enrolled is enrolled at once; any other card becomes a question: the screen
shows it with its candidates (the deck's missing cards, likeliest first; the
Joker first when no corner shows an index) and the players step through
them and confirm (:meth:`Enrolment.act`). Each enrolled card goes to the
profile builder (``vision.deck_profile.ProfileBuilder``) with the frame and
outline it was read in. When every card of the deck is in (or the players
finish early, confirming twice), :meth:`Enrolment.finish` builds the profile.

Nothing here draws or touches pygame (``display.enrol_screen`` does), so the
whole flow is testable with a fake reader. The panel's buttons keep their
bidding names; here they mean (:func:`enrol_action`): Pass next candidate,
a suit button the next candidate of that suit, Call this one, Alone the
Joker (where the deck has one, else skip), New game skip (not a card of the
deck), Undo take back the last card enrolled.
"""

from __future__ import annotations

import enum
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

from display.actions import Action, ButtonAction
from table.cards import BENNY, Card, Suit
from vision.detection import detail_scale

if TYPE_CHECKING:
    from vision.deck_profile import DeckProfile
    from vision.onnx_detector import OnnxDetector

Image = npt.NDArray[np.uint8]
Quad = npt.NDArray[np.float32]

STILL_FRAMES = 3  # a card lies still this many frames before it is read
READS = 3  # frames whose readings are averaged
SURE = 0.85  # a reading this sure (of a card not enrolled yet) enrols the card without asking
GONE_FRAMES = 8  # a card not outlined for this many frames has been taken away
MOVE_FRACTION = 0.08  # a centre that moves more than this share of the card's long side: the card moved
SAME_CARD_FRACTION = 0.45  # an outline this near (share of the long side) a card followed is that card
# An enrolled card whose centre ends up this far (share of the long side) from where it was enrolled has been
# taken away or pushed aside: what lies there is read anew (it may be the next card, laid in its place).
TAKEN_FRACTION = 0.3
LOST_FRAMES = 2  # an enrolled card outlined again after more frames than this unseen is read again, as above
DARK_DECK_MIN_JUDGED = 6  # outlines judged before the deck may be taken to be printed light on dark paper
MIN_INDEX = 0.5  # below this chance that any corner shows an index, the Joker leads the candidates


class EnrolAction(enum.Enum):
    NEXT = "next"
    PREV = "prev"
    PICK = "pick"  # choose ``Step.card`` (a tap on a candidate) without confirming it
    SUIT = "suit"
    JOKER = "joker"
    CONFIRM = "confirm"
    SKIP = "skip"
    UNDO = "undo"
    QUIT = "quit"


@dataclass(frozen=True)
class Step:
    """One request from the players: ``suit`` only with ``EnrolAction.SUIT``; ``card``: pick that card (touch)."""

    kind: EnrolAction
    suit: Suit | None = None
    card: Card | None = None


def enrol_action(action: Action, has_joker: bool) -> Step | None:
    """What a panel button (or its keyboard key) means during enrolment (see the module docstring)."""
    kind = action.kind
    if kind in (ButtonAction.PASS, ButtonAction.NEXT_READING, ButtonAction.SUIT_CYCLE):
        return Step(EnrolAction.NEXT)
    if kind is ButtonAction.SUIT:
        return Step(EnrolAction.SUIT, action.suit)
    if kind is ButtonAction.CALL:
        return Step(EnrolAction.CONFIRM)
    if kind is ButtonAction.ALONE:
        return Step(EnrolAction.JOKER if has_joker else EnrolAction.SKIP)
    if kind in (ButtonAction.NEW_GAME, ButtonAction.MISDEAL, ButtonAction.DISMISS_RENEGE):
        return Step(EnrolAction.SKIP)
    if kind is ButtonAction.UNDO:
        return Step(EnrolAction.UNDO)
    if kind is ButtonAction.QUIT:
        return Step(EnrolAction.QUIT)
    return None


@dataclass(frozen=True)
class Ranking:
    """What the reader makes of one card: every card class with its probability (best first), and the chance
    that any corner shows an index at all."""

    cards: tuple[tuple[Card, float], ...]
    index_seen: float

    def best(self, among: Sequence[Card]) -> tuple[Card | None, float]:
        allowed = set(among)
        return next(((c, p) for c, p in self.cards if c in allowed), (None, 0.0))


class CardReader(Protocol):
    """The camera path's card reader, as enrolment uses it (``OnnxReader`` wraps the app's detector)."""

    def outlines(self, frame_bgr: Image) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Card outlines (K, 4, 2) in frame pixels and the finder's scores (K,)."""
        ...

    def rank(self, frame_bgr: Image, quad: Quad) -> Ranking:
        """Every card the outline may be, likeliest first."""
        ...


class Builder(Protocol):
    """What enrolment needs of ``vision.deck_profile.ProfileBuilder``."""

    def add(self, card: Card | str, frame_bgr: Image, quad: npt.ArrayLike) -> None: ...

    def remove(self, card: Card | str) -> None: ...

    def build(self, name: str) -> DeckProfile: ...


class OnnxReader:
    """The app's two-stage detector as a :class:`CardReader`: its finder's outlines, its classifier's ranking.

    The ranking weighs the corners (and their outline hypotheses) as ``vision.cardcrop.combine_corners``
    does, but keeps every card's probability, not only the best.
    """

    def __init__(self, detector: OnnxDetector) -> None:
        from vision.errors import UserError

        if detector.classifier is None:
            raise UserError(f"{detector.path}: enrolment needs the two-stage reader (finder and corner classifier)")
        self.detector = detector
        self.classifier = detector.classifier
        # The first finder's outlines judged printed light on dark paper, and judged at all, over the enrolment.
        self._judged_dark = 0
        self._judged = 0

    def outlines(self, frame_bgr: Image) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        found = self.detector.card_outlines(frame_bgr, self.dark_deck)
        self._judged_dark += found.judged_dark
        self._judged += found.judged
        return found.quads, found.scores

    @property
    def dark_deck(self) -> bool:
        """Whether the deck is taken to be printed light on dark paper: most of the outlines judged so far
        (:data:`DARK_DECK_MIN_JUDGED` at least) were judged so. Once it is, it stays so: outlines are no longer
        judged (``OnnxDetector.card_outlines``)."""
        from vision.deck_profile import DARK_DECK_SHARE

        return self._judged >= DARK_DECK_MIN_JUDGED and self._judged_dark > DARK_DECK_SHARE * self._judged

    def rank(self, frame_bgr: Image, quad: Quad) -> Ranking:
        from vision import cardcrop

        crops = cardcrop.corner_crops(frame_bgr, quad)
        logits, _features = self.classifier.run(crops)
        return rank_from_logits(logits, self.classifier.classes)


def rank_from_logits(logits: npt.ArrayLike, classes: Sequence[str]) -> Ranking:
    """Per-crop logits (k, classes) -> a :class:`Ranking` (corners weighted as ``cardcrop.combine_corners``)."""
    from vision.cardcrop import NONE_CLASS, softmax

    p = softmax(logits).reshape(-1, len(classes))
    none_idx = list(classes).index(NONE_CLASS)
    seen = 1.0 - p[:, none_idx]
    top = float(seen.max())
    w = seen * (seen >= 0.5 * top) if top > 0 else np.ones_like(seen)
    card_p = np.delete(p, none_idx, axis=1)
    card_p = card_p / np.maximum(card_p.sum(axis=1, keepdims=True), 1e-9)
    mix = (w[:, None] * card_p).sum(axis=0) / max(float(w.sum()), 1e-9)
    names = [c for c in classes if c != NONE_CLASS]
    order = np.argsort(-mix)
    return Ranking(tuple((Card.parse(names[i]), float(mix[i])) for i in order), top)


class CardState(enum.Enum):
    SETTLING = "settling"  # seen, not yet still long enough to read
    READING = "reading"
    ASKING = "asking"  # waits for the players to name it
    ENROLLED = "enrolled"
    SKIPPED = "skipped"  # the players said it is not a card of the deck


@dataclass
class OnMat:
    """One card lying on the mat, followed from frame to frame."""

    id: int
    quad: Quad
    first_frame: int
    last_frame: int
    still_since: int
    state: CardState = CardState.SETTLING
    card: Card | None = None  # as enrolled (or known)
    by_players: bool = False  # named by the players (else by the reader)
    readings: list[Ranking] = field(default_factory=list)
    ranking: Ranking | None = None  # the averaged readings
    frame: Image | None = None  # the frame it was read in (for the profile builder)
    read_quad: Quad | None = None
    face: Image | None = None  # the card upright, small (BGR), for the screen
    why: str = ""  # why the players are asked
    gone: bool = False  # an enrolled card taken off the mat (kept for its picture and for Undo)
    was: Card | None = None  # an enrolled card that moved here: read again, it is that card unless read otherwise
    enrolled_at: tuple[float, float] | None = None  # its centre when enrolled

    @property
    def centre(self) -> tuple[float, float]:
        c = self.quad.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def long_side(self) -> float:
        q = self.quad
        return max(float(np.linalg.norm(q[i] - q[(i + 1) % 4])) for i in range(4))


@dataclass
class Question:
    """A card the reader could not name: its candidates (likeliest first) and the one chosen now."""

    card_id: int
    candidates: list[Card]
    index: int = 0
    why: str = ""

    @property
    def chosen(self) -> Card | None:
        return self.candidates[self.index] if self.candidates else None


@dataclass(frozen=True)
class Enrolled:
    """One card of the deck as enrolled: by the reader or by the players, and when (the frame)."""

    card: Card
    by_players: bool
    frame: int
    card_id: int


class Enrolment:
    """The enrolment's state; :meth:`update` with each frame, :meth:`act` with each request from the players."""

    def __init__(
        self,
        deck: Sequence[Card],
        reader: CardReader,
        builder: Builder,
        *,
        clock: Callable[[], float] = time.monotonic,
        sure: float = SURE,
    ) -> None:
        self.deck = tuple(deck)
        self.reader = reader
        self.builder = builder
        self.clock = clock
        self.sure = sure
        self.cards: list[OnMat] = []
        self.enrolled: dict[Card, Enrolled] = {}
        self.history: list[Card] = []  # enrolment order, for Undo
        self.question: Question | None = None
        self.message = "Lay the deck face up on the mat: all at once in rows, or a few cards at a time."
        self.presses = 0
        self.frame_number = -1
        self.started: float | None = None
        self.ended: float | None = None
        self.quit = False
        self.finish_armed = False
        # Once it has ended: where the profile was saved, or why it could not be (a full disk), and whether the
        # players asked to try again (Call on the contact sheet after a failed save).
        self.saved: str | None = None
        self.unsaved: str | None = None
        # What the players should know of the saved deck (it prints some suits alike), for the contact sheet.
        self.note: str | None = None
        self.retry_save = False
        self._next_id = 0

    # --- what the screen shows

    @property
    def missing(self) -> list[Card]:
        return [c for c in self.deck if c not in self.enrolled]

    @property
    def complete(self) -> bool:
        return not self.missing

    @property
    def done(self) -> bool:
        return self.ended is not None

    @property
    def has_joker(self) -> bool:
        return BENNY in self.deck

    @property
    def asking(self) -> list[OnMat]:
        return [c for c in self.cards if c.state is CardState.ASKING]

    def card(self, card_id: int) -> OnMat | None:
        return next((c for c in self.cards if c.id == card_id), None)

    def faces(self) -> dict[Card, Image]:
        """The enrolled cards' upright pictures (from the frame each was enrolled in)."""
        out: dict[Card, Image] = {}
        for card, e in self.enrolled.items():
            on_mat = self.card(e.card_id)
            if on_mat is not None and on_mat.face is not None:
                out[card] = on_mat.face
        return out

    def elapsed(self) -> float:
        if self.started is None:
            return 0.0
        return (self.ended if self.ended is not None else self.clock()) - self.started

    # --- the camera

    def update(self, frame_bgr: Image, frame: int, detail_bgr: Image | None = None) -> None:
        """Follow the cards in one frame; read those that lie still; enrol the sure ones, ask about the rest.

        ``detail_bgr``: the same view larger (the Pi camera's ``main`` stream, ``Frame.display_bgr``); cards
        are then read and enrolled from it, as the reader names them at the table
        (``vision.detector.detect_frame``), while the finder follows them in ``frame_bgr``."""
        if self.done:
            return
        if self.started is None:
            self.started = self.clock()
        self.frame_number = frame
        quads, _scores = self.reader.outlines(frame_bgr)
        claimed: set[int] = set()
        for quad in np.asarray(quads, np.float32).reshape(-1, 4, 2):
            follow = self._follow(quad, claimed)
            if follow is None:
                follow = OnMat(self._next_id, quad, frame, frame, frame)
                self._next_id += 1
                self.cards.append(follow)
            else:
                moved = math.dist(follow.centre, _centre(quad)) > MOVE_FRACTION * follow.long_side
                if follow.state is CardState.ENROLLED and self._maybe_swapped(follow, quad, frame):
                    follow = self._reopen(follow, quad, frame)
                elif moved and follow.state in (CardState.SETTLING, CardState.READING):
                    follow.still_since, follow.readings, follow.state = frame, [], CardState.SETTLING
                follow.quad = quad
                follow.last_frame = frame
            claimed.add(follow.id)
        for c in self.cards:
            reading = c.state in (CardState.SETTLING, CardState.READING)
            if reading and c.id in claimed and frame - c.still_since >= STILL_FRAMES:
                self._read(c, frame_bgr, detail_bgr)
        self._forget_gone(frame)
        self._next_question()

    @staticmethod
    def _maybe_swapped(c: OnMat, quad: Quad, frame: int) -> bool:
        """Whether an enrolled card may have been taken away and another laid in its place: its outline is far
        from where it was enrolled (``TAKEN_FRACTION``), or comes back after ``LOST_FRAMES`` unseen."""
        far = c.enrolled_at is not None and math.dist(c.enrolled_at, _centre(quad)) > TAKEN_FRACTION * c.long_side
        return far or frame - c.last_frame > LOST_FRAMES

    def _reopen(self, c: OnMat, quad: Quad, frame: int) -> OnMat:
        """What lies where enrolled card ``c`` lay is followed and read anew; ``c`` keeps its enrolment (and its
        picture) as gone. Read as the same card, the new follower quietly takes it over (:meth:`_read`)."""
        c.gone = True
        new = OnMat(self._next_id, quad, frame, frame, frame, was=c.card)
        self._next_id += 1
        self.cards.append(new)
        return new

    def _follow(self, quad: Quad, claimed: set[int]) -> OnMat | None:
        centre = _centre(quad)
        best: tuple[float, OnMat] | None = None
        for c in self.cards:
            if c.id in claimed or c.gone:
                continue
            d = math.dist(c.centre, centre)
            if d <= SAME_CARD_FRACTION * c.long_side and (best is None or d < best[0]):
                best = (d, c)
        return best[1] if best is not None else None

    def _read(self, c: OnMat, frame_bgr: Image, detail_bgr: Image | None = None) -> None:
        c.state = CardState.READING
        scale = detail_scale(frame_bgr, detail_bgr)
        image, quad = frame_bgr, c.quad
        if detail_bgr is not None and scale is not None:
            image, quad = detail_bgr, (c.quad * np.array(scale, np.float32)).astype(np.float32)
        c.readings.append(self.reader.rank(image, quad))
        if c.frame is None or len(c.readings) == 1:
            c.frame, c.read_quad = image, quad.copy()
            c.face = _face(image, quad)
        if len(c.readings) < READS:
            return
        c.ranking = _average(c.readings)
        card, p = c.ranking.best(self.deck)
        if card is not None and card == self._moved_here(c):
            self._known(c)  # an enrolled card that moved or was lost a moment, read as itself
            return
        if card is None:
            self._ask(c, "not a card of this deck")
            return
        if p >= self.sure and c.ranking.index_seen >= MIN_INDEX:
            if card not in self.enrolled:
                self._enrol(c, card, by_players=False)
                return
            # A deck has each card once: another card misread, or this one laid again ("not a card" then).
            self._ask(c, f"read as {card.name}, which is in already")
            return
        self._ask(c, "the reader is not sure")

    def _moved_here(self, c: OnMat) -> Card | None:
        """The enrolled card that lay where ``c`` lies and moved or was lost a moment (None: no such card)."""
        return c.was if c.was is not None and c.was in self.enrolled else None

    def _known(self, c: OnMat) -> None:
        """``c`` is the enrolled card ``c.was``, moved (no second enrolment, no question)."""
        c.state, c.card, c.enrolled_at, c.why = CardState.ENROLLED, c.was, c.centre, ""

    def _ask(self, c: OnMat, why: str) -> None:
        c.state, c.card, c.why = CardState.ASKING, None, why

    def _enrol(self, c: OnMat, card: Card, by_players: bool) -> None:
        assert c.frame is not None and c.read_quad is not None
        self.builder.add(card, c.frame, c.read_quad)
        c.state, c.card, c.by_players = CardState.ENROLLED, card, by_players
        c.enrolled_at = c.centre
        self.enrolled[card] = Enrolled(card, by_players, self.frame_number, c.id)
        self.history.append(card)
        self.finish_armed = False
        who = "you named" if by_players else "read"
        left = len(self.missing)
        self.message = f"{card.name}: {who}. " + (f"{left} to go." if left else "That is the whole deck.")
        if self.complete:
            self.finish()

    def _forget_gone(self, frame: int) -> None:
        keep = []
        for c in self.cards:
            if frame - c.last_frame <= GONE_FRAMES or c.gone:
                keep.append(c)
            elif c.state is CardState.ENROLLED:
                c.gone = True
                keep.append(c)
            elif self.question is not None and self.question.card_id == c.id:
                self.question = None
        self.cards = keep

    def _next_question(self) -> None:
        if self.question is not None and self.card(self.question.card_id) is not None:
            q = self.question
            on_mat = self.card(q.card_id)
            if on_mat is not None and on_mat.state is CardState.ASKING:
                return
        self.question = None
        waiting = sorted(self.asking, key=lambda c: (round(c.centre[1] / max(c.long_side, 1.0)), c.centre[0]))
        if waiting:
            self.question = self._question_for(waiting[0])

    def _question_for(self, c: OnMat) -> Question:
        missing = self.missing
        # A card that lies where an enrolled one lay may be that card: it is a candidate too.
        moved = self._moved_here(c)
        allowed = [*missing, *([moved] if moved is not None else [])]
        among = set(allowed)
        ranked = [card for card, _p in c.ranking.cards if card in among] if c.ranking else []
        ranked += [card for card in allowed if card not in ranked]
        if self.has_joker and BENNY in ranked and c.ranking is not None and c.ranking.index_seen < MIN_INDEX:
            ranked.remove(BENNY)
            ranked.insert(0, BENNY)
        return Question(c.id, ranked, 0, c.why)

    # --- the players

    def act(self, step: Step) -> None:
        """One press of the panel, a key or a touch (see :func:`enrol_action`)."""
        if self.done:  # the contact sheet is up: Call (or quit) closes it; after a failed save Call tries again
            if step.kind is EnrolAction.CONFIRM and self.unsaved is not None:
                self.retry_save = True
            elif step.kind in (EnrolAction.QUIT, EnrolAction.CONFIRM):
                self.quit = True
            return
        self.presses += 1
        q = self.question
        kind = step.kind
        if kind is EnrolAction.QUIT:
            self.quit = True
            return
        if kind is EnrolAction.UNDO:
            self._undo()
            return
        if q is None or not q.candidates:
            if kind is EnrolAction.CONFIRM:
                self._confirm_finish()
            return
        n = len(q.candidates)
        if step.card is not None and step.card in q.candidates:
            q.index = q.candidates.index(step.card)
        if kind is EnrolAction.NEXT:
            q.index = (q.index + 1) % n
        elif kind is EnrolAction.PREV:
            q.index = (q.index - 1) % n
        elif kind is EnrolAction.SUIT and step.suit is not None:
            self._jump(q, lambda card: card.suit is step.suit, step.suit.noun)
        elif kind is EnrolAction.JOKER:
            self._jump(q, lambda card: card.is_benny, "Joker")
        elif kind is EnrolAction.SKIP:
            on_mat = self.card(q.card_id)
            if on_mat is not None:
                on_mat.state = CardState.SKIPPED
            self.message = "Left out: not a card of this deck."
            self.question = None
            self._next_question()
        elif kind is EnrolAction.CONFIRM:
            on_mat = self.card(q.card_id)
            chosen = q.chosen
            self.question = None
            if on_mat is not None and chosen is not None and chosen == self._moved_here(on_mat):
                self._known(on_mat)
                self.message = f"{chosen.name}: in already, moved."
            elif on_mat is not None and chosen is not None:
                self._enrol(on_mat, chosen, by_players=True)
            self._next_question()

    def _jump(self, q: Question, match: Callable[[Card], bool], what: str) -> None:
        n = len(q.candidates)
        for k in range(1, n + 1):
            i = (q.index + k) % n
            if match(q.candidates[i]):
                q.index = i
                return
        self.message = f"No {what} is missing from the deck."

    def _undo(self) -> None:
        if not self.history:
            self.message = "Nothing to undo."
            return
        card = self.history.pop()
        e = self.enrolled.pop(card)
        self.builder.remove(card)
        # The card where it lies now (an enrolled card that moved is followed anew), else where it was enrolled.
        live = (c for c in self.cards if not c.gone and c.state is CardState.ENROLLED and c.card == card)
        on_mat = next(live, None) or self.card(e.card_id)
        if on_mat is not None:
            on_mat.state, on_mat.card, on_mat.why = CardState.ASKING, None, f"taken back: was {card.name}"
            self.question = self._question_for(on_mat)
        self.message = f"Took back {card.name}."

    def _confirm_finish(self) -> None:
        missing = self.missing
        if not self.enrolled:
            self.message = "No card is enrolled yet."
            return
        if self.finish_armed:
            self.finish()
            return
        self.finish_armed = True
        self.message = f"{len(missing)} cards are missing. Press Call again to save the deck without them."

    def finish(self) -> None:
        """End enrolment (the screen then shows the contact sheet)."""
        if self.ended is None:
            self.ended = self.clock()
            self.question = None
            self.message = (
                "The whole deck is enrolled." if self.complete else f"Saved without {len(self.missing)} cards."
            )

    def save_failed(self, why: str) -> None:
        """The profile could not be saved (``why``: the one-line reason); the contact sheet offers to try again."""
        self.saved, self.unsaved, self.retry_save = None, why, False

    def save_done(self, where: str, note: str | None = None) -> None:
        """The profile was saved in ``where``; ``note``: what the players should know of the deck, or None."""
        self.saved, self.unsaved, self.retry_save = where, None, False
        self.note = note

    @property
    def wants_saving(self) -> bool:
        """Ended with cards enrolled, not saved yet, and not failed since the players last asked to try."""
        return self.done and bool(self.enrolled) and self.saved is None and (self.unsaved is None or self.retry_save)

    def build(self, name: str) -> DeckProfile:
        """The profile of the cards enrolled (``ProfileBuilder.build``)."""
        return self.builder.build(name)


def _centre(quad: Quad) -> tuple[float, float]:
    c = np.asarray(quad, np.float32).reshape(4, 2).mean(axis=0)
    return float(c[0]), float(c[1])


def _average(readings: Sequence[Ranking]) -> Ranking:
    total: dict[Card, float] = {}
    for r in readings:
        for card, p in r.cards:
            total[card] = total.get(card, 0.0) + p / len(readings)
    cards = tuple(sorted(total.items(), key=lambda kv: -kv[1]))
    return Ranking(cards, float(np.mean([r.index_seen for r in readings])))


def _face(frame_bgr: Image, quad: Quad) -> Image:
    from vision.deck_profile import face_image

    return face_image(frame_bgr, quad)
