"""The table's card detector: YOLO networks exported to ONNX, run by ONNX Runtime with numpy post-processing.

This is the runtime path on the Pi, so it imports neither torch nor
Ultralytics (a test checks ``"torch" not in sys.modules`` after a detect).

Two model shapes are served:

- **two stages** (the shipped model, see ``lab/synth/README.md``): a
  finder whose only class is ``card`` (oriented boxes around whole cards),
  then the corner-index classifier ``corner-cls.onnx`` on the four corner
  crops of each card (``vision.cardcrop``), whose votes make one card name.
  Chosen when no finder class names a card.
- **one stage**: a YOLO whose classes are the cards themselves (whole-card
  or corner-index boxes), decoded straight to cards.

The finder's class names, input size and task come from the metadata
Ultralytics writes into the ONNX file (``names``, ``imgsz``, ``task``,
``end2end``); the output layouts understood are listed in
``vision.postprocess``. NMS and the merging of two detections of one card
happen in ``vision.postprocess``, once, for both backends.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from table.cards import Card, CardParseError
from vision import postprocess as pp
from vision.calibration import ConfidenceCalibration
from vision.deck_judgement import DeckJudgement, FrameVerdict
from vision.detection import CardDetection, detail_scale, scaled_detection
from vision.errors import UserError

if TYPE_CHECKING:
    from vision.deck_profile import DeckProfile, ProfileMatcher
    from vision.face_reader import FaceReader

DEFAULT_CONF = 0.25
# Outlines overlapping more than this (probabilistic IoU of the oriented boxes) are one card. Cards laid
# side by side in a spread overlap a lot: at 0.5 the second card's outline was suppressed by the first's.
# Chosen on the synthetic held-out decks and the real dev photos together (models/MODEL_CARD.md): both gain
# recall from 0.5 to 0.65 at the same precision; above 0.7 precision falls on both.
DEFAULT_IOU = 0.65
# Two detections of one card: corner-index boxes lie up to a card's length apart; whole-card boxes
# of one card overlap. In units of the larger box's longer side (see postprocess.merge_same_card).
MERGE_GAP_CORNERS = 4.0
MERGE_GAP_WHOLE_CARDS = 0.0
# Two stages: a card is reported when finder score x classifier confidence reaches this. Weak finder
# boxes on paper, envelopes or card backs get a name too, but a doubtful one; this drops them.
MIN_CARD_CONFIDENCE = 0.25
# With a calibration beside the models (vision.calibration) the confidence is the chance that the card
# is named right, and a card is reported from this chance up: the engine's "check this card" line.
MIN_CALIBRATED_CONFIDENCE = 0.6
# At most this many candidates survive NMS: a table holds one deck (33 cards at most), and the
# classifier's cost grows with every outline it names.
MAX_CARDS = 40
# A calibrated reading of the Joker is sure from this chance up. Chosen on the synthetic held-out decks
# (the real dev photos hold no Joker): at 0.8 the false Jokers fell from 4 to 1 and no true one was lost;
# at 0.9, 5 of 6 true ones were lost. One from the calibrated floor up to this line is reported to be
# checked (``_unsure_joker``): on the three held-out decks with a Joker, read with their enrolments, that
# read 39 of their 51 Jokers instead of 35, and took 8 other cards for the Joker instead of 5 (and reported
# it where no card lay twice, as before).
MIN_JOKER_CONFIDENCE = 0.8
# The dark look (``OnnxDetector.detect``): a frame is read again by the finder taught decks printed light on dark
# paper where the first reading named a card judged so with at least this share of the corners' vote (before
# the twin doubt, which weighs the suit, not whether a card is there). Outlines
# of a face, a shirt or a dark window behind a card held up to a webcam are judged dark too, but name nothing
# so surely; read again, such frames gave two wrong jacks of clubs in `real-photos-dev2`.
DARK_LOOK_SHARE = 0.5
# Two detections from two readings of one frame lie on one card where their boxes overlap this much (IoU):
# ``merged_readings`` keeps the surer. Two cards of a spread overlap less than one card's two outlines.
SAME_CARD_OVERLAP = 0.5
# The near look (``OnnxDetector.detect``): where every look before it named nothing surely and the finder outlined
# something, the frame is read again through the same looks by the finder taught cards large in the frame (held up
# before a room or an office, photographed from near), and its reading stands where its surest reaches this line:
# the searching looks' line, since the calibration was fitted on the first finder's scores. Chosen on validation
# draws of near scenes and close-ups before an office (seeds apart from the test sets): 0.6 / 0.7 / 0.8 named 11 /
# 9 / 7 more of their 841 cards than without the look, for 1 / 1 / 0 more wrong readings (models/MODEL_CARD.md).
NEAR_LOOK_MIN_CONFIDENCE = 0.8
# With a deck profile that knows the Joker's face, an outline whose corners name another card under this
# reading confidence is still looked at as the Joker by its face (``_benny_by_face``): a Joker's corner
# (a star, a word, a small picture) reads as some card, most often a jack, at middling confidence. On the
# three held-out decks with a Joker (200 scenes each, read with their rendered enrolments), 0 / 0.8 / 0.9
# read 31 / 35 / 35 of their 51 Jokers, and took 4 / 5 / 6 other cards for the Joker (models/MODEL_CARD.md).
BENNY_FACE_OVERRIDES_BELOW = 0.8
# ... and only an outline the finder is this sure of is looked at so. The Joker's face is mostly picture
# and paper, and a faint outline of bare mat (a printed zone's corner, a sliver of the trick area) was read
# as the Joker by its face at full confidence: on the simulated table, British rules seed 2, such outlines
# (finder 0.25-0.41) put a Joker at seat 2 mid-hand three times. On the three held-out decks with a Joker
# (200 scenes each, with their rendered enrolments), the face rule's Jokers from outlines under 0.5 were
# right 1 time in 5, from 0.5 up 21 times in 25 (models/MODEL_CARD.md, "Deck profiles").
BENNY_FACE_MIN_FINDER_SCORE = 0.5
# An outline is read again (name_outlines' second look) when its box overlaps a surer outline's this much (IoU).
SECOND_LOOK_OVERLAP = 0.05
# A reading of a card whose deck prints a cousin of it alike (a profile's ``prints_alike``: every suit in one
# ink), which a doubt took under the reporting line, is reported to be checked where its confidence before the
# doubt reached this share of the line (``_to_check``; other doubted readings from the line itself): the corners
# of such a deck say less about which of the two it is, not whether a card lies there. Chosen 2026-12-07 per
# frame at the simulated table: model card, "Deck profiles", "Checked from lower down".
DOUBTED_CHECK_SHARE = 0.6
# A card found by the second look is reported from this confidence up, above the first look's line: a
# moved outline's corner may fall on a court picture. At 0.7 / 0.8 / 0.9 the real dev photos gained 3 / 3
# / 2 cards and 3 / 0 / 0 false readings (models/MODEL_CARD.md).
SECOND_LOOK_MIN_CONFIDENCE = 0.8
# A card cut by the frame's edge, read from its completed outline (cardcrop.completed_outlines), is
# reported from this confidence up. Chosen on 300 edge scenes of the held-out decks (`lab.synth.build
# test --edges 1`): at 0.6 / 0.7 / 0.8 / 0.9 the cards gained were 27 / 25 / 20 / 18 and the false
# readings 5 / 3 / 0 / 0 (models/MODEL_CARD.md).
CUT_CARD_MIN_CONFIDENCE = 0.8
# A frame in which no card is named is looked at again as from this many times further away
# (``OnnxDetector.zoomed_out_outlines``): cards far larger in the frame than at the table, held up to the
# camera or photographed from near. Chosen on the held-out decks' close-up scenes (``lab.synth.build test
# --closeups 1``): 1.8 and 2.5 found the same share of cards there, 1.8 costs less.
ZOOM_OUT: float | None = 1.8
# A frame in which the finder outlined something but no card is named is looked at once more with its
# local contrast evened out (CLAHE on the lightness: ``contrast_evened``), for a dim room or a card lit
# from one side. A frame with no outline at all, such as an empty mat, is not looked at again.
CONTRAST_LOOK = True
# A frame in which the finder outlined something but no card is named is looked at again squeezed to these
# pixel aspects (width over height scaled by each; below 1 narrower, above 1 lower): a picture whose pixels
# are not square, such as a photo stored at another aspect than its camera's, shows a turned card as a
# slanted shape that no card outline fits.
ASPECT_LOOK: tuple[float, ...] = (0.75, 4 / 3)
ASPECT_LOOK_MIN_CONFIDENCE = 0.8
# A still photo (``OnnxDetector(tile_look=True)``, as ``eval-vision`` reads one) whose surely named cards are small
# to the finder, the median's longer side under this many of the finder's input pixels, is read again in tiles
# (``OnnxDetector._tile_look``): cards laid out in rows under a phone span 24-36 of them, where the finder misses
# some that it finds enlarged. The live table does not take this look: it reads each card over many frames, and
# the tiles took a photo 1.7-1.9 times its reading without them. Chosen on the validation draws of laid-out scenes
# (seeds apart from the test draws; models/MODEL_CARD.md, "How a frame is read", step 12).
TILE_LOOK_BELOW = 90.0
# The tiles: this many across and down, each overlapping its neighbour by this many card lengths (the named
# cards' median longer side), so that a card cut by one tile's edge lies whole in the next.
TILE_GRID = 2
TILE_OVERLAP = 1.2
# A tile's reading is kept only where it is sure and no sure reading of the whole photo lies (their boxes' IoU
# under this): the tiles add cards the photo's reading missed or only half believed, never change one it named.
TILE_NEW_OVERLAP = 0.1
# A still photo (``OnnxDetector(dark_deck_look=True)``) in which at least this share of the surely named cards is
# judged printed light on dark paper (``cardcrop.judged_outline``) is read again as a photo of such a deck
# (``OnnxDetector._dark_deck_look``): one photo holds one deck, and a card of it that is not judged dark alone (a
# court whose picture fills its face, a blurred or dim one) is otherwise cut as a white card only, and named as
# another or not at all. Chosen on the validation draws of laid-out scenes printed dark and in one ink
# (models/MODEL_CARD.md, "How a frame is read", step 13): 0.25 and 0.5 read them alike; 0.5 asks more of a white
# deck whose number cards hold a dark panel, which is judged dark too.
DARK_DECK_SHARE = 0.5
# At a live table (``OnnxDetector(table_deck_look=True)``) the deck is judged over the frames
# (``vision.deck_judgement``), and a card the dark-deck look names is kept from this line up, the searching looks'
# line (:data:`NEAR_LOOK_MIN_CONFIDENCE`): a game's frames hold what a photo of a laid-out deck does not, cards
# coming face down and a deck printed all in one ink, whose court cousins the look's readings swap. Measured at the
# simulated table: of the readings the look added to a dark deck's frames, 179 right and 2 wrong from 0.6, 144 and
# 1 from 0.8 (models/MODEL_CARD.md, "How a frame is read", step 14).
TABLE_DARK_DECK_LINE = 0.8
CONTRAST_CLIP = 2.0
CONTRAST_TILES = 8
# The classifier's second output, read only with a deck profile (vision.deck_profile).
FEATURES_OUTPUT = "features"


# An outline's reading: the outline (4, 2) in frame pixels, its card (None: none named) and confidence.
Reading = tuple[npt.NDArray[np.float32], Card | None, float]
# A reading that names a card.
NamedReading = tuple[npt.NDArray[np.float32], Card, float]
# Which finder reads a frame: the first, or one a look reads (the dark look's, the near look's).
Finder = Literal["first", "dark", "near"]


def _literal(text: str | None) -> Any:
    if text is None:
        return None
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def ort_session(path: Path, threads: int | None, what: str) -> Any:
    """An ONNX Runtime CPU session; ``threads`` limits intra-op threads (None: one per core)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.log_severity_level = 3
    if threads is not None:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    if not path.is_file():
        raise UserError(f"{path}: {what} not found")
    try:
        return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # ORT raises its own exception types for a corrupt file
        raise UserError(f"{path}: cannot load this {what} ({str(exc).splitlines()[0]})") from None


# A classifier's crops go through ONNX Runtime this many at a time: its memory for the network's activations
# grows with the batch, and a frame of many cards, each cut from several outlines and, judged dark, both ways,
# makes hundreds of crops (reader peak RSS on the dev photos 383 MB in one batch, 2026-12-05).
CLASSIFIER_CHUNK = 64


def run_in_chunks(
    session: Any, outputs: list[str], input_name: str, crops: npt.NDArray[np.float32], chunk: int = CLASSIFIER_CHUNK
) -> list[npt.NDArray[np.float32]]:
    """``session.run(outputs, {input_name: crops})``, ``chunk`` crops at a time, each output joined back."""
    if len(crops) <= chunk:
        return [np.asarray(o, np.float32) for o in session.run(outputs, {input_name: crops})]
    parts = [session.run(outputs, {input_name: crops[i : i + chunk]}) for i in range(0, len(crops), chunk)]
    return [np.concatenate([np.asarray(p[k], np.float32) for p in parts]) for k in range(len(outputs))]


def load_face_reader(path: Path, threads: int | None) -> FaceReader:
    """The face reader (``vision.face_reader``) in ``path``, on an ONNX Runtime session of its own."""
    from vision.face_reader import FaceReader

    return FaceReader(path, ort_session(path, threads, "face reader"))


class ModelInfo:
    """What the post-processing needs to know about a finder network, read from its ONNX metadata."""

    def __init__(self, names: dict[int, str], imgsz: tuple[int, int], task: str, end2end: bool | None) -> None:
        self.names = names
        self.cards: list[Card | None] = pp.class_cards(names)
        self.imgsz = imgsz
        self.task = task
        self.end2end = end2end

    @property
    def names_cards(self) -> bool:
        """Whether the classes are cards (one stage) rather than "a card is here" (two stages)."""
        return any(card is not None for card in self.cards)

    @classmethod
    def from_metadata(cls, meta: dict[str, str], input_shape: list[Any], source: Path) -> ModelInfo:
        names = _literal(meta.get("names"))
        if not isinstance(names, dict) or not names:
            raise UserError(f"{source}: the model has no class names in its metadata (export it with Ultralytics)")
        imgsz_meta = _literal(meta.get("imgsz"))
        if isinstance(imgsz_meta, (list, tuple)) and len(imgsz_meta) == 2:
            imgsz = (int(imgsz_meta[0]), int(imgsz_meta[1]))
        elif isinstance(imgsz_meta, int):
            imgsz = (imgsz_meta, imgsz_meta)
        elif len(input_shape) == 4 and all(isinstance(v, int) for v in input_shape[2:]):
            imgsz = (int(input_shape[2]), int(input_shape[3]))
        else:
            raise UserError(f"{source}: cannot tell the model's input size (no imgsz metadata, dynamic input)")
        e2e = _literal(meta.get("end2end"))
        return cls(
            names={int(k): str(v) for k, v in names.items()},
            imgsz=imgsz,
            task=str(meta.get("task", "detect")),
            end2end=e2e if isinstance(e2e, bool) else None,
        )


# A card that may be printed light on dark paper (``cardcrop.is_dark_card``) is cut both as it is and with its
# lightness turned over, and the two sets of crops are read apart (``CornerClassifier.classify``; pooled in one
# vote until 2026-12-04, where gold print on black read as it is, some card at middling confidence, halved the
# share of the card the turned-over crops name). Where the two ways name different cards, the surer stands only
# if it is this many times as sure as the other, else they are pooled. A white deck with a black panel inside
# its margin (`kde-oxygen`, a training deck) is judged dark, and its two ways then disagree at ratios of
# 1.04-1.37, the turned-over one mostly wrong; gold-on-black faces of the held-out decks, where they disagree,
# at 1.2-8, the turned-over one right (model card, "How a frame is read", step 8).
POLARITY_MARGIN = 1.5


_R = TypeVar("_R", tuple[str, float], tuple[str, float, float], tuple[str, float, float, str | None])


def surer_reading(first: _R, second: _R, margin: float = POLARITY_MARGIN) -> _R | None:
    """Of two readings of one outline (``cardcrop.combine_corners``' name and confidence, and anything
    after them; the name ``none`` where no index was seen, the confidence then that of seeing none): the
    one that names a card where the other does not; of two that name the same card, the surer; of two that
    name different cards, the surer where it is at least ``margin`` times as sure as the other, else None (no
    clear winner). Two that see no index give the first."""
    from vision.cardcrop import NONE_CLASS

    if (first[0] == NONE_CLASS) != (second[0] == NONE_CLASS):
        return second if first[0] == NONE_CLASS else first
    if first[0] == NONE_CLASS:
        return first
    surer, other = (second, first) if second[1] > first[1] else (first, second)
    if surer[0] == other[0] or surer[1] >= margin * other[1]:
        return surer
    return None


def _check_outputs(session: Any, path: Path, classes: int) -> None:
    """UserError unless the classifier ``session`` (of ``path``) gives one logit per class of ``classes``."""
    shape = session.get_outputs()[0].shape
    if len(shape) != 2 or (isinstance(shape[1], int) and shape[1] != classes):
        raise UserError(f"{path}: classifier output {shape} does not match {classes} classes")


class CornerClassifier:
    """Names the card inside each outline from its four corner crops (``vision.cardcrop``), in one batch.

    ``path`` is the corner classifier: it makes and reads deck profiles (its features output), and names the
    cards where no other is given. ``unenrolled``: a classifier with the same classes that names the cards of
    a deck read without a profile (``corner-cls-unenrolled.onnx``, ``vision.models``); a profile is always
    read with ``path``'s, the network its features and prototypes come from. The two are kept apart because
    training that widens what the reader knows of unseen decks (rooms behind a held card: model card,
    "Training", twenty-second round) moves the features a profile compares and cost precision with profiles.
    ``dark``: a classifier of the same classes that names a dark card's corners turned over
    (``corner-cls-dark.onnx``), with a profile or without; with one, the features are still ``path``'s.
    """

    def __init__(
        self,
        path: Path,
        classes: Sequence[str] | None = None,
        threads: int | None = None,
        calibration: ConfidenceCalibration | None = None,
        profile: DeckProfile | None = None,
        face: FaceReader | None = None,
        unenrolled: Path | None = None,
        dark: Path | None = None,
    ) -> None:
        from vision import cardcrop

        self.path = Path(path)
        # The face reader (vision.face_reader): a second look at each outline's middle, weighed into the
        # corners' vote in classify(); None: the corners alone.
        self.face = face
        self.calibration = calibration
        self.session = ort_session(self.path, threads, "corner-index classifier")
        self.input_name = self.session.get_inputs()[0].name
        self.classes = list(classes) if classes is not None else list(cardcrop.CLASSIFIER_CLASSES)
        outputs = [o.name for o in self.session.get_outputs()]
        self.logits_name = outputs[0]
        # The features output (the input of the last layer, lab/classifier_features.py) serves deck profiles.
        self.features_name = FEATURES_OUTPUT if FEATURES_OUTPUT in outputs else None
        _check_outputs(self.session, self.path, len(self.classes))
        if cardcrop.NONE_CLASS not in self.classes:
            raise UserError(f"{self.path}: the classifier's classes lack {cardcrop.NONE_CLASS!r}")
        # The network that names the cards without a profile (None: this one), and its logits' name.
        self.unenrolled_path = Path(unenrolled) if unenrolled is not None else None
        self.unenrolled_session, self._unenrolled_io = self._second_classifier(self.unenrolled_path, threads)
        # The network that names a dark card's corners turned over (None: as the rest).
        self.dark_path = Path(dark) if dark is not None else None
        self.dark_session, self._dark_io = self._second_classifier(self.dark_path, threads)
        self.cards: dict[str, Card] = {}
        for name in self.classes:
            if name == cardcrop.NONE_CLASS:
                continue
            try:
                self.cards[name] = Card.parse(name)
            except CardParseError:
                raise UserError(f"{self.path}: classifier class {name!r} is not a card") from None
        self.profile: ProfileMatcher | None = None
        self.shipped_calibration = calibration
        # How many outlines :meth:`classify` has judged printed light on dark paper and named with a share of
        # :data:`DARK_LOOK_SHARE` or more (``OnnxDetector.detect`` zeroes it before a frame and looks at it
        # after: its dark look).
        self.judged_dark = 0
        # Whether every outline is read as a card that may be printed light on dark paper (:meth:`as_maybe_dark`).
        self._maybe_dark = False
        if profile is not None:
            self.use_profile(profile)

    def _second_classifier(self, path: Path | None, threads: int | None) -> tuple[Any, tuple[str, str]]:
        """A session of another classifier of this one's classes and crops (None where ``path`` is None), and
        its input's and logits' names; UserError where it does not fit."""
        if path is None:
            return None, ("", "")
        session = ort_session(path, threads, "corner-index classifier")
        _check_outputs(session, path, len(self.classes))
        crop, own = session.get_inputs()[0].shape, self.session.get_inputs()[0].shape
        if len(crop) != len(own) or any(
            isinstance(a, int) and isinstance(b, int) and a != b for a, b in zip(crop[1:], own[1:], strict=False)
        ):
            raise UserError(f"{path}: its crops {crop[1:]} are not {self.path.name}'s {own[1:]}")
        return session, (session.get_inputs()[0].name, session.get_outputs()[0].name)

    @contextmanager
    def as_maybe_dark(self) -> Iterator[None]:
        """Within: :meth:`classify` reads every outline the way it reads a card judged printed light on dark
        paper: cut as it is and turned over, the two ways read apart (turned over, by the dark classifier), a
        clearly surer way standing. A dark card not judged so alone (a court whose picture fills its face) is
        then read turned over too, and a white card still reads as printed."""
        was, self._maybe_dark = self._maybe_dark, True
        try:
            yield
        finally:
            self._maybe_dark = was

    def use_profile(self, profile: DeckProfile | None) -> None:
        """Read with ``profile`` (``vision.deck_profile``) from now on; None: without one, as shipped."""
        from vision.deck_profile import ProfileMatcher, file_sha256, profile_calibration_for, refeaturise
        from vision.twin_bias import deck_lean

        if profile is None:
            self.profile = None
            self.calibration = self.shipped_calibration
            return
        if self.features_name is None:
            raise UserError(f"{self.path}: this classifier has no features output, so it cannot use a deck profile")
        if profile.classifier_sha256 and profile.classifier_sha256 != file_sha256(self.path):
            if profile.folder is None:
                raise UserError(f"deck profile {profile.name!r}: made with another classifier; enrol the deck again")
            # A retrained classifier: the deck's features are taken again from its stored crops.
            profile = refeaturise(profile, self)
        width = self.session.get_outputs()[[o.name for o in self.session.get_outputs()].index(self.features_name)].shape
        if isinstance(width[-1], int) and width[-1] != profile.features:
            raise UserError(
                f"deck profile {profile.name!r}: made with another classifier ({profile.features} features, "
                f"this one has {width[-1]}); enrol the deck again"
            )
        self.profile = ProfileMatcher(profile, self.classes)
        self.profile.set_lean(deck_lean(profile, self))
        # The fused confidence is sharper than the classifier's: its chance of being right is refitted.
        if self.shipped_calibration is not None:
            self.calibration = profile_calibration_for(self.path) or self.shipped_calibration

    def run(self, crops: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The classifier's logits (n, classes) and features (n, width) for a batch of crops."""
        if self.features_name is None:
            raise UserError(f"{self.path}: this classifier has no features output")
        logits, feats = run_in_chunks(self.session, [self.logits_name, self.features_name], self.input_name, crops)
        return logits, feats

    def _outputs(
        self, crops: npt.NDArray[np.float32]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32] | None]:
        """Logits, and features where a profile reads them: with a profile the corner classifier's, else the
        unenrolled classifier's where there is one."""
        if self.profile is not None:
            return self.run(crops)
        if self.unenrolled_session is not None:
            input_name, logits_name = self._unenrolled_io
            return run_in_chunks(self.unenrolled_session, [logits_name], input_name, crops)[0], None
        return run_in_chunks(self.session, [self.logits_name], self.input_name, crops)[0], None

    def _name(
        self, logits: npt.NDArray[np.float32], feats: npt.NDArray[np.float32] | None, start: int, stop: int,
        evidence: npt.NDArray[np.float32] | None = None, colour_blind: bool = False,
        face: npt.NDArray[np.float32] | None = None, face_features: npt.NDArray[np.float32] | None = None,
    ) -> tuple[str, float, float, str | None]:
        """One card name and confidence from the crops start:stop of a batch (``evidence``: the face
        reader's, per card, ``cardcrop.weigh_by_face``), the confidence before the twin doubt
        (``cardcrop.TWIN_DOUBT``; the same where it is off or nothing is named), and the card the vote ranks
        next (``cardcrop.runner_up``; None where nothing is named). ``colour_blind``: a dark
        card's turned-over crops, doubted by their cousins (``cardcrop.COUSIN_DOUBT``), with a profile or without.
        ``face``: the face reader's probabilities, for a profile's doubt between cousins its deck prints alike
        (``vision.deck_profile.INDISTINCT_COUSINS``); ``face_features``: the classifier's features of the card's
        middle, which lift that doubt where they are the card's own enrolled face's (:meth:`_face_features`)."""
        from vision import cardcrop

        if self.profile is not None and feats is not None:
            return self.profile.shares(
                logits[start:stop], feats[start:stop], evidence=evidence, colour_blind=colour_blind, face=face,
                face_features=face_features,
            )
        return cardcrop.corner_shares(logits[start:stop], self.classes, evidence=evidence, colour_blind=colour_blind)

    @property
    def default_min_confidence(self) -> float:
        return MIN_CALIBRATED_CONFIDENCE if self.calibration is not None else MIN_CARD_CONFIDENCE

    def confidence(self, finder_score: float, classifier_conf: float) -> float:
        """A reading's confidence: calibrated where a calibration is loaded, else the product of the two."""
        if self.calibration is not None:
            return self.calibration(finder_score, classifier_conf)
        return finder_score * classifier_conf

    def classify(
        self, frame_bgr: npt.NDArray[np.uint8], quads: npt.NDArray[np.float32], refine: bool = True,
        polarity_apart: bool = True,
    ) -> list[tuple[Card | None, float, float, Card | None]]:
        """Per outline (K, 4, 2) in frame pixels: the card (None: no index seen), the classifier's confidence,
        that confidence before the twin doubt (``cardcrop.TWIN_DOUBT``: a card named with its twin close
        behind, the same where the doubt is off), and the card the vote ranks next (the one a doubted reading
        most likely is instead; None where none).

        ``refine``: also read each outline snapped to the card's paper edge (``cardcrop.outline_hypotheses``).
        ``polarity_apart``: a card that may be printed light on dark paper is read as it is and turned over
        apart, and a clearly surer way stands (:func:`surer_reading`); False, or no clear winner: the two
        pooled in one vote.
        """
        from vision import cardcrop

        if len(quads) == 0:
            return []
        judged = [cardcrop.judged_outline(frame_bgr, q, refine) for q in quads]
        hypotheses = [h for h, _ in judged]
        # A deck enrolled as printed light on dark paper (the profile's dark_paper): every card of it is read as
        # such a card, and only turned over (read as printed, the classifier sees no index on dark paper), its
        # crops named by the dark classifier; a court whose picture fills its face may not be judged dark alone.
        dark_deck = self.profile is not None and self.profile.profile.dark_paper
        judged_dark = [d or dark_deck for _, d in judged]
        # Within as_maybe_dark(), every card is read as one judged dark is: both ways, apart.
        dark = [d or self._maybe_dark for d in judged_dark]
        # corner_crops gives 4 crops per outline hypothesis (twice that for a dark card read both ways), and the
        # number of hypotheses varies by card.
        per_card = [cardcrop.corner_crops(frame_bgr, q, refine, dark=d, hypotheses=h, turned_only=dark_deck)
                    for q, d, h in zip(quads, dark, hypotheses, strict=True)]
        crops = np.concatenate(per_card).astype(np.float32)
        if self.dark_session is not None and any(dark):
            # A dark card's turned-over crops (the second half of its block; all of it for a dark deck's) are
            # named by the dark classifier, every other crop as without it. With a profile, the features of every
            # crop are still the corner classifier's, the network the prototypes come from: the profile weighs the
            # dark classifier's naming with them (read by the corner classifier's naming, a one-ink deck's red
            # suits went to spades: 213 wrong readings in 904 at the simulated table, model card, "Deck profiles").
            ends = np.cumsum([len(b) for b in per_card])
            turned = np.zeros(len(crops), bool)
            for end, block, d in zip(ends, per_card, dark, strict=True):
                if d:
                    turned[end - (len(block) if dark_deck else len(block) // 2) : end] = True
            input_name, logits_name = self._dark_io
            if self.profile is not None:
                logits, feats = self._outputs(crops)
            else:
                logits = np.empty((len(crops), len(self.classes)), np.float32)
                logits[~turned] = self._outputs(crops[~turned])[0]
                feats = None
            logits[turned] = run_in_chunks(self.dark_session, [logits_name], input_name, crops[turned])[0]
        else:
            logits, feats = self._outputs(crops)
        evidence, faces = self._face_evidence(frame_bgr, hypotheses, dark)
        face_feats = self._face_features(frame_bgr, hypotheses)
        answers: list[tuple[Card | None, float, float, Card | None]] = []
        start = 0
        for k, block in enumerate(per_card):
            stop = start + len(block)
            if dark[k] and polarity_apart and not dark_deck:
                # Cut as it is and with its lightness turned over: the card is printed one way or the other,
                # so the two are read apart, and a clearly surer way stands (else pooled, below). The face, read
                # turned over, weighs in on the turned-over way alone.
                half = start + len(block) // 2
                reading = surer_reading(
                    self._name(logits, feats, start, half, None),
                    self._name(logits, feats, half, stop, evidence[k], colour_blind=True, face=faces[k],
                               face_features=face_feats[k]),
                )
            else:
                reading = None
            name, conf, undoubted, rival = (
                reading if reading is not None
                else self._name(logits, feats, start, stop, evidence[k], colour_blind=dark[k], face=faces[k],
                                face_features=face_feats[k])
            )
            start = stop
            answers.append((self.cards.get(name), conf, undoubted, self.cards.get(rival) if rival else None))
        self.judged_dark += sum(
            1 for d, (card, _, undoubted, _) in zip(judged_dark, answers, strict=True)
            if d and card is not None and undoubted >= DARK_LOOK_SHARE
        )
        return answers

    def face_features(
        self, frame_bgr: npt.NDArray[np.uint8], outlines: Sequence[npt.ArrayLike]
    ) -> npt.NDArray[np.float32]:
        """The classifier's features (n, width) of each outline's middle, cut as enrolment keeps a card's face
        (``deck_profile.face_crop``): what a profile's faces are compared with."""
        from vision import cardcrop
        from vision.deck_profile import face_crop

        crops = np.stack([cardcrop.normalise_crop(face_crop(frame_bgr, q)) for q in outlines]).astype(np.float32)
        return self.run(crops)[1]

    def _face_features(
        self, frame_bgr: npt.NDArray[np.uint8], hypotheses: list[list[npt.NDArray[np.float32]]]
    ) -> list[npt.NDArray[np.float32] | None]:
        """Per outline, :meth:`face_features` of its first hypothesis, where the profile holds cousins its deck
        prints alike (``ProfileMatcher.tells_alike_by_face``; else None)."""
        if self.profile is None or not self.profile.tells_alike_by_face:
            return [None] * len(hypotheses)
        return list(self.face_features(frame_bgr, [h[0] for h in hypotheses]))

    def _face_evidence(
        self, frame_bgr: npt.NDArray[np.uint8], hypotheses: list[list[npt.NDArray[np.float32]]], dark: list[bool]
    ) -> tuple[list[npt.NDArray[np.float32] | None], list[npt.NDArray[np.float32] | None]]:
        """Per outline, the face reader's evidence per card, and its probabilities (None: no face reader, or a
        card printed light on dark paper and a reader not taught such faces). A card judged dark is read turned
        over, as its corners are. The face is cut from the outline's first hypothesis (the snapped one where
        the outline was refined)."""
        out: list[npt.NDArray[np.float32] | None] = [None] * len(hypotheses)
        faces: list[npt.NDArray[np.float32] | None] = [None] * len(hypotheses)
        if self.face is None:
            return out, faces
        looked = [k for k, d in enumerate(dark) if not d or self.face.reads_dark]
        if not looked:
            return out, faces
        probs = self.face.probabilities(frame_bgr, [hypotheses[k][0] for k in looked], [dark[k] for k in looked])
        names = self.profile.card_names if self.profile is not None else list(self.cards)
        for k, p in zip(looked, probs, strict=True):
            out[k] = self.face.evidence(names, p)
            faces[k] = p
        return out, faces

    def read_spreads(
        self, frame_bgr: npt.NDArray[np.uint8], quads: npt.NDArray[np.float32]
    ) -> list[SpreadReading | None]:
        """Per outline: the two cards it holds if it is two cards of a spread boxed as one, else None.

        An outline square enough (``cardcrop.spread_halves``) is tried both
        ways; a way counts when both of its cards are named, and named
        differently, from the corners of their outer sides. Of the ways that
        count, the one whose less sure card is surer wins.
        """
        from vision import cardcrop

        ways = [cardcrop.spread_halves(q) for q in quads]
        blocks = [cardcrop.outer_side_crops(frame_bgr, card) for per in ways for way in per for card in way]
        if not blocks:
            return [None] * len(quads)
        logits, feats = self._outputs(np.concatenate(blocks).astype(np.float32))
        per_card = 2 * len(cardcrop.SPREAD_SCALES)  # outer_side_crops: two corners per outline scale
        out: list[SpreadReading | None] = []
        start = 0
        for per in ways:
            best: SpreadReading | None = None
            for way in per:
                named: list[NamedReading] = []
                for card_quad in way:
                    name, conf, _, _ = self._name(logits, feats, start, start + per_card)
                    start += per_card
                    card = self.cards.get(name)
                    if card is not None:
                        named.append((card_quad, card, conf))
                if len(named) == 2 and named[0][1] != named[1][1]:
                    reading = SpreadReading(named[0], named[1])
                    if best is None or reading.weaker > best.weaker:
                        best = reading
            out.append(best)
        return out


@dataclass(frozen=True)
class SpreadReading:
    """Two cards of a spread found as one outline: per card its outline (4, 2), name and classifier confidence."""

    first: NamedReading
    second: NamedReading

    @property
    def weaker(self) -> float:
        return min(self.first[2], self.second[2])


def reading_floor(classifier: CornerClassifier | None, min_confidence: float | None) -> float:
    """The confidence under which a named card is dropped: as asked, else the classifier's default."""
    if min_confidence is not None:
        return min_confidence
    return classifier.default_min_confidence if classifier is not None else MIN_CARD_CONFIDENCE


def name_outlines(
    frame_bgr: npt.NDArray[np.uint8],
    quads: npt.NDArray[np.float32],
    scores: npt.NDArray[np.float32],
    classifier: CornerClassifier,
    frame: int,
    min_confidence: float | None = None,
    split_spreads: bool = True,
    second_look: bool = True,
    complete_cut: bool = True,
) -> list[CardDetection]:
    """Second stage: card outlines (K, 4, 2) in frame pixels with finder scores -> named cards.

    The confidence is ``classifier.confidence`` of the finder's score and the
    classifier's (calibrated where ``classes.json`` holds a calibration); an
    outline whose corners show no index, or whose confidence is below
    ``min_confidence`` (default: the classifier's), is dropped. With
    ``split_spreads``, an outline that reads as two cards of a spread
    (``CornerClassifier.read_spreads``), both sure enough, gives those two
    cards instead of one. With ``second_look``, an outline that overlaps a
    surer one and repeats its card (or names none surely) is read again
    shifted along its sides (``cardcrop.shifted_outlines``); the surest
    reading of a card no other outline names replaces it. With
    ``complete_cut``, an outline that still names no card and has a side on
    the frame's edge is read again completed to a whole card beyond the edge
    (``cardcrop.completed_outlines``), under the same rule.
    """
    from vision import cardcrop

    floor = reading_floor(classifier, min_confidence)
    h, w = frame_bgr.shape[:2]
    answers = classifier.classify(frame_bgr, quads)
    spreads = classifier.read_spreads(frame_bgr, quads) if split_spreads else [None] * len(quads)
    # Per outline, what it reads as: one card, or two for a spread; (outline, card, confidence).
    readings: list[list[Reading]] = []
    # Per outline read as one card that its twin follows closely (cardcrop.TWIN_DOUBT): that reading, its
    # confidence before the doubt, and the card the vote ranks next (see _to_check).
    split: dict[int, tuple[Reading, float, Card | None]] = {}
    for i, (quad, score, answer, spread) in enumerate(zip(quads, scores, answers, spreads, strict=True)):
        card, conf, undoubted, rival = answer
        if spread is not None:
            halves = [
                (cardcrop.order_corners(q), c, classifier.confidence(float(score), p))
                for q, c, p in (spread.first, spread.second)
            ]
            if all(p >= floor for _, _, p in halves):
                readings.append(list(halves))
                continue
        first: Reading = (quad, card, classifier.confidence(float(score), conf) if card is not None else 0.0)
        readings.append([first])
        if card is not None and undoubted > conf:
            split[i] = (first, classifier.confidence(float(score), undoubted), rival)
    if second_look and len(quads) > 1:
        _second_look(frame_bgr, quads, scores, classifier, readings, floor)
    if complete_cut:
        _complete_cut(frame_bgr, quads, scores, classifier, readings, floor)
    profile = getattr(classifier, "profile", None)  # stand-in classifiers in tests have none
    if profile is not None and profile.reads_benny_faces:
        _benny_by_face(frame_bgr, quads, scores, classifier, readings, floor)
    # The Joker has no index common to decks (its corner shows a picture, a star or a word), so a
    # calibrated reading of it must reach a line of its own to be sure; one from the floor up to that line
    # is reported to be checked (``_unsure_joker``) where the deck is known to hold one (a profile with its
    # Joker enrolled): without that, a picture read as the Joker at middling confidence is more often some
    # other card (the real photos, whose decks show no Joker: 3 such readings in 292 photos).
    joker_floor = max(floor, MIN_JOKER_CONFIDENCE) if classifier.calibration is not None else floor
    unsure = _unsure_joker(readings, floor, joker_floor) if profile is not None and profile.holds_benny else None
    found = [
        pp.quad_detection(card, p * floor / joker_floor if (i, card) == unsure else p, q, w, h, frame)
        for i, per in enumerate(readings)
        for q, card, p in per
        if card is not None and ((p >= joker_floor if card.is_benny else p >= floor) or (i, card) == unsure)
    ]
    alike = profile.prints_alike if profile is not None else None
    return found + _to_check(readings, split, {d.card for d in found}, floor, w, h, frame, alike)


def _to_check(
    readings: list[list[Reading]], split: dict[int, tuple[Reading, float, Card | None]], named: set[Card],
    floor: float, w: int, h: int, frame: int, alike: Callable[[str], bool] | None = None,
) -> list[CardDetection]:
    """The readings the twin doubt (``cardcrop.TWIN_DOUBT``; with a profile the rank doubt too,
    ``cardcrop.RANK_DOUBT``, and the doubt between cousins printed alike) took under ``floor`` that were from
    ``floor`` up before it (a card whose deck prints a cousin of it alike, ``alike``: from ``floor`` times
    :data:`DOUBTED_CHECK_SHARE` up), reported to be checked: their confidence before the doubt scaled by
    ``floor``, so under it and in the same order, each with the card the vote ranked next as its ``rival`` (the
    check names it). ``split``: per outline, its first reading, that confidence and that card. A card and its
    twin split the corners' vote: the card is likely there, its suit is not sure. Not reporting it at all held
    back a right card at the table until a surer look, after the next seat's card, and the engine then saw the
    play out of order;
    reported under the line, the tracker lands it flagged uncertain in its turn, the engine asks the table
    to check it and proves no renege with it, and a later sure reading confirms or corrects it. Only where
    the outline still holds that reading (no second look replaced it) and no outline names the card surely."""
    out: list[CardDetection] = []
    for i, (reading, undoubted, rival) in sorted(split.items(), key=lambda kv: (-kv[1][1], kv[0])):  # likeliest first
        quad, card, p = reading
        if card is None or card in named or p >= floor or not _holds(readings[i], reading):
            continue
        if undoubted < (floor * DOUBTED_CHECK_SHARE if alike is not None and alike(str(card)) else floor):
            continue
        named.add(card)
        conf = min(undoubted * floor, float(np.nextafter(floor, 0.0)))
        out.append(pp.quad_detection(card, conf, quad, w, h, frame, rival=rival))
    return out


def _holds(per: list[Reading], reading: Reading) -> bool:
    """Whether an outline's readings are that one reading still (the same tuple: none replaced it)."""
    return len(per) == 1 and per[0] is reading


def _unsure_joker(readings: list[list[Reading]], floor: float, joker_floor: float) -> tuple[int, Card] | None:
    """The outline read as the Joker under ``joker_floor`` but from ``floor`` up, to be reported with its
    confidence scaled under ``floor``, the engine's "check this card" line (the tracker lands it flagged
    uncertain, the engine names it, asks the table to check it, and proves no renege with it). None where
    an outline reads as the Joker surely, as a deck holds one; else the likeliest such outline."""
    if _reads_joker_surely(readings, joker_floor):
        return None
    unsure = [
        (p, i, c) for i, per in enumerate(readings) for _, c, p in per if c is not None and c.is_benny and p >= floor
    ]
    if not unsure:
        return None
    _, i, card = max(unsure, key=lambda x: x[0])
    return i, card


def _reads_joker_surely(readings: list[list[Reading]], line: float) -> bool:
    """Whether an outline is read as the Joker from ``line`` up."""
    return any(c is not None and c.is_benny and p >= line for per in readings for _, c, p in per)


def _second_look(
    frame_bgr: npt.NDArray[np.uint8],
    quads: npt.NDArray[np.float32],
    scores: npt.NDArray[np.float32],
    classifier: CornerClassifier,
    readings: list[list[Reading]],
    floor: float,
) -> None:
    """Read again, shifted, the outlines that overlap a surer outline and add no card of their own (in place)."""
    from vision import cardcrop

    boxes = np.concatenate([quads.min(axis=1), quads.max(axis=1)], axis=1).astype(np.float32)
    best = [max((p for _, c, p in per if c is not None), default=0.0) for per in readings]
    order = sorted(range(len(quads)), key=lambda i: -best[i])
    named: set[Card] = set()
    again: list[tuple[int, int]] = []  # (outline to read again, the surer outline it overlaps most)
    for rank, i in enumerate(order):
        cards = [c for _, c, p in readings[i] if c is not None and p >= floor]
        if cards and not set(cards) <= named:
            named.update(cards)
            continue
        surer = [j for j in order[:rank] if best[j] >= floor]
        if not surer:
            continue
        overlaps = pp.box_iou(boxes[i], boxes[surer])
        if float(overlaps.max()) > SECOND_LOOK_OVERLAP:
            again.append((i, surer[int(np.argmax(overlaps))]))
    if not again:
        return
    # The outline lies off its card towards the card on top, so it is moved away from that card only. Where
    # it repeats that card's name, which of the two outlines slipped is not known (the slipped one may read
    # the index more surely), so the surer one is also tried, moved away from it.
    tries: list[tuple[int, int]] = []  # (outline moved, outline it is moved away from)
    for i, j in again:
        tries.append((i, j))
        if _repeats(readings[i], readings[j]) and _reported_elsewhere(readings, j, floor):
            tries.append((j, i))
    shifted = [
        (float(scores[k]), cardcrop.shifted_outlines(quads[k], away_from=quads[a].mean(axis=0))) for k, a in tries
    ]
    # Per try, its readings sure enough to count, surest first.
    sure = _sure_readings(frame_bgr, shifted, classifier, max(floor, SECOND_LOOK_MIN_CONFIDENCE))
    found = dict(zip(tries, sure, strict=True))
    # Moving an outline only ever takes a card away from the others, so whether the surer one's card is
    # still reported elsewhere is asked again as they move.
    moved: set[int] = set()
    for i, j in again:
        for k, a in ((i, j), (j, i)):
            if k in moved or (k, a) not in found or (k == j and not _reported_elsewhere(readings, j, floor)):
                continue
            new = next((r for r in found[(k, a)] if r[1] not in named), None)
            if new is not None:
                readings[k] = [new]
                named.add(new[1])
                moved.add(k)
                break


def _complete_cut(
    frame_bgr: npt.NDArray[np.uint8],
    quads: npt.NDArray[np.float32],
    scores: npt.NDArray[np.float32],
    classifier: CornerClassifier,
    readings: list[list[Reading]],
    floor: float,
) -> None:
    """Read again, completed beyond the frame's edge, the outlines on that edge that name no card (in place)."""
    from vision import cardcrop

    h, w = frame_bgr.shape[:2]
    named = {c for per in readings for _, c, p in per if c is not None and p >= floor}
    tries: list[tuple[int, npt.NDArray[np.float32]]] = []  # (outline, its completions)
    for i, per in enumerate(readings):
        if any(c is not None and p >= floor for _, c, p in per):
            continue
        whole = cardcrop.completed_outlines(quads[i], w, h)
        if whole:
            tries.append((i, np.stack(whole)))
    groups = [(float(scores[i]), whole) for i, whole in tries]
    sure_per_try = _sure_readings(frame_bgr, groups, classifier, max(floor, CUT_CARD_MIN_CONFIDENCE))
    for (i, _), sure in zip(tries, sure_per_try, strict=True):
        new = next((r for r in sure if r[1] not in named), None)
        if new is not None:
            readings[i] = [new]
            named.add(new[1])


def _benny_by_face(
    frame_bgr: npt.NDArray[np.uint8],
    quads: npt.NDArray[np.float32],
    scores: npt.NDArray[np.float32],
    classifier: CornerClassifier,
    readings: list[list[Reading]],
    floor: float,
) -> None:
    """With a deck profile that knows the Joker's face: of the outlines that name no other card surely
    (under :data:`BENNY_FACE_OVERRIDES_BELOW`) and that the finder outlined from
    :data:`BENNY_FACE_MIN_FINDER_SCORE` up, the one whose face is most like the Joker's
    (``ProfileMatcher.benny_margin``) is read as the Joker (in place)."""
    from vision.deck_profile import BENNY_FACE_CONFIDENCE

    assert classifier.profile is not None
    joker_line = max(floor, MIN_JOKER_CONFIDENCE)
    if _reads_joker_surely(readings, joker_line):
        return  # the corners read it already
    def looked_at(per: list[Reading]) -> bool:
        """Names no card surely, or one card under the override line, or the Joker itself."""
        if not any(c is not None and p >= floor for _, c, p in per):
            return True
        card, p = per[0][1], per[0][2]
        return len(per) == 1 and card is not None and (card.is_benny or p < BENNY_FACE_OVERRIDES_BELOW)

    open_ = [i for i, per in enumerate(readings) if looked_at(per) and float(scores[i]) >= BENNY_FACE_MIN_FINDER_SCORE]
    if not open_:
        return
    from vision import cardcrop

    margins = classifier.profile.benny_margin(classifier.face_features(frame_bgr, [quads[i] for i in open_]))
    best = int(np.argmax(margins))
    if margins[best] < classifier.profile.face_margin:
        return
    i = open_[best]
    quad, card, p = readings[i][0]
    benny = next(c for c in classifier.cards.values() if c.is_benny)
    # A deck holds one Joker: only the outline most like it is read so.
    readings[i] = [(cardcrop.order_corners(quads[i]), benny, max(p if card == benny else 0.0, BENNY_FACE_CONFIDENCE))]


def _sure_readings(
    frame_bgr: npt.NDArray[np.uint8],
    groups: list[tuple[float, npt.NDArray[np.float32]]],
    classifier: CornerClassifier,
    line: float,
) -> list[list[NamedReading]]:
    """Per group (a finder score and the outlines (K, 4, 2) tried for its outline), the cards read from
    ``line`` up, surest first. All groups are classified in one call, without refinement, and a card that may
    be printed light on dark paper with its two ways pooled: the surest of many tries is kept here, and the
    surer of two ways for each try as well would let a stray reading through (a shadowed face read as a
    jack of clubs, on the real photos)."""
    if not groups:
        return []
    outlines_tried = np.concatenate([outlines for _, outlines in groups])
    answers = classifier.classify(frame_bgr, outlines_tried, refine=False, polarity_apart=False)
    out: list[list[NamedReading]] = []
    start = 0
    for score, outlines in groups:
        sure: list[NamedReading] = []
        for q, (card, conf, _, _) in zip(outlines, answers[start : start + len(outlines)], strict=True):
            if card is not None and (p := classifier.confidence(score, conf)) >= line:
                sure.append((q, card, p))
        out.append(sorted(sure, key=lambda r: -r[2]))
        start += len(outlines)
    return out


def _repeats(
    reading: list[Reading],
    surer: list[Reading],
) -> bool:
    """Whether an outline reads as the one card that a surer outline reads as (however surely)."""
    if len(reading) != 1 or len(surer) != 1:
        return False
    card, surer_card = reading[0][1], surer[0][1]
    return card is not None and card == surer_card


def _reported_elsewhere(
    readings: list[list[Reading]], k: int, floor: float
) -> bool:
    """Whether outline ``k``'s card is also reported by another outline: only then may ``k`` be moved."""
    card = readings[k][0][1]
    return any(c == card and p >= floor for i, per in enumerate(readings) if i != k for _, c, p in per)


def _cut_by_inner_edge(
    quad: npt.NDArray[np.float32], x0: int, y0: int, tile_w: int, tile_h: int, width: int, height: int
) -> bool:
    """Whether ``quad``, in a tile's pixels (the tile at ``x0``, ``y0`` of a ``width`` x ``height`` picture), reaches
    one of the tile's edges that lie inside the picture: the finder's outlines are clipped to its input, so a card
    the tile cuts ends on that edge."""
    (left, top), (right, bottom) = quad.min(0), quad.max(0)
    edge = 2.0
    return bool(
        (x0 > 0 and left < edge) or (y0 > 0 and top < edge)
        or (x0 + tile_w < width and right > tile_w - edge) or (y0 + tile_h < height and bottom > tile_h - edge)
    )


def _squeezed_size(width: int, height: int, sx: float, sy: float) -> tuple[int, int]:
    """(width, height) of a picture of ``width`` x ``height`` resized by ``sx`` across and ``sy`` down."""
    return max(1, round(width * sx)), max(1, round(height * sy))


def _squeezed(image_bgr: npt.NDArray[np.uint8], sx: float, sy: float) -> npt.NDArray[np.uint8]:
    """``image_bgr`` resized by ``sx`` across and ``sy`` down (each at most 1), averaging as it shrinks."""
    import cv2

    h, w = image_bgr.shape[:2]
    size = _squeezed_size(w, h, sx, sy)
    return np.asarray(cv2.resize(image_bgr, size, interpolation=cv2.INTER_AREA), np.uint8)


def contrast_evened(frame_bgr: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """``frame_bgr`` with its lightness's local contrast evened out (CLAHE in CIELAB; colours kept)."""
    import cv2

    lab = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2LAB)
    clahe = cv2.createCLAHE(clipLimit=CONTRAST_CLIP, tileGridSize=(CONTRAST_TILES, CONTRAST_TILES))
    lab[:, :, 0] = clahe.apply(np.ascontiguousarray(lab[:, :, 0]))
    return np.asarray(cv2.cvtColor(lab, cv2.COLOR_LAB2BGR), np.uint8)


class CardOutlines(NamedTuple):
    """:meth:`OnnxDetector.card_outlines`' answer."""

    quads: npt.NDArray[np.float32]  # (K, 4, 2) in frame pixels
    scores: npt.NDArray[np.float32]  # (K,)
    judged_dark: int  # how many of the first finder's outlines were judged printed light on dark paper
    judged: int  # ... of how many judged (none where there is no dark-deck finder, or the deck is known dark)


def _boxes(quads: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Outlines' (K, 4, 2) axis-aligned boxes (K, 4): x1, y1, x2, y2."""
    return np.concatenate([quads.min(axis=1), quads.max(axis=1)], axis=1).astype(np.float32)


def merged_readings(
    first: Sequence[CardDetection], second: Sequence[CardDetection], overlap: float = SAME_CARD_OVERLAP
) -> list[CardDetection]:
    """Two readings of one frame made one: every detection of each, but where a detection of one lies on a
    detection of the other (their boxes' IoU from ``overlap`` up), only the surer of the two (the first's on a
    tie). Detections within one reading are left as they are: cards of a spread overlap."""

    def beaten(d: CardDetection, others: Sequence[CardDetection], strictly: bool) -> bool:
        if not others:
            return False
        boxes = np.array([o.box for o in others], np.float32)
        ious = pp.box_iou(np.array(d.box, np.float32), boxes)
        return any(
            iou >= overlap and (o.confidence > d.confidence if strictly else o.confidence >= d.confidence)
            for iou, o in zip(ious, others, strict=True)
        )

    return [d for d in first if not beaten(d, second, True)] + [d for d in second if not beaten(d, first, False)]


def _finder_io(session: Any, path: Path) -> tuple[str, ModelInfo]:
    """A finder session's input name and what its metadata says of it (UserError where it says too little)."""
    inp = session.get_inputs()[0]
    meta = session.get_modelmeta().custom_metadata_map
    return inp.name, ModelInfo.from_metadata(dict(meta), list(inp.shape), path)


class OnnxDetector:
    """Cards in a BGR frame from a YOLO ONNX model, plus the corner classifier when the model only finds cards.

    ``threads`` sets ONNX Runtime's intra-op threads for both networks (None:
    one per core). ``conf_threshold`` drops weaker finder candidates before
    NMS; with two stages, ``min_confidence`` drops cards whose reading
    confidence is lower (default :data:`MIN_CALIBRATED_CONFIDENCE` with the
    calibration in ``classes.json``, else :data:`MIN_CARD_CONFIDENCE` on the
    product of the two scores). ``classifier`` defaults to ``corner-cls.onnx`` beside ``model``
    (``vision.models``); ``merge_gap`` defaults to the model kind's
    (:data:`MERGE_GAP_WHOLE_CARDS` with a classifier, else
    :data:`MERGE_GAP_CORNERS`). ``profile``: a deck profile (``vision.deck_profile``; the profile, its
    folder or its ``profile.json``) with which the classifier names the cards of that deck; None reads as
    shipped. ``zoom_out``: where a frame names no card, look again with the frame shrunk to 1/``zoom_out``
    of the finder's input (:meth:`zoomed_out_outlines`), for cards far larger than at the table.
    ``contrast_look``: where the finder outlined something but nothing is named, look again at the frame
    with its local contrast evened out (:func:`contrast_evened`). ``face_reader``: weigh in the face
    reader ``face-cls.onnx`` beside ``model`` where there is one (``vision.face_reader``); False: the
    corners alone. ``dark_finder`` and ``near_finder``: read frames again, in the dark look and the near look
    (:meth:`detect`), with ``card-obb-dark.onnx`` and ``card-obb-near.onnx`` where they lie beside ``model``
    (``vision.models``); False: never. ``tile_look``: read each frame as a still photo, taking the tile look
    where its named cards are small to the finder (:meth:`_tile_look`); off for the live table.
    ``dark_deck_look``: read each frame as a still photo of one deck, again as a deck printed light on dark
    paper where its sure readings are mostly judged such cards (:meth:`_dark_deck_look`); off for the live table.
    ``table_deck_look``: the frames are a live table's, one game's after another: its deck is judged over them
    (:attr:`deck_judgement`, ``vision.deck_judgement``), and while it is judged dark each frame takes the dark-deck
    look, the cards it names kept from :data:`TABLE_DARK_DECK_LINE` up (this judgement stands in for
    ``dark_deck_look``'s photo by photo).
    """

    def __init__(
        self,
        model: Path,
        threads: int | None = None,
        conf_threshold: float | None = None,
        iou_threshold: float = DEFAULT_IOU,
        merge_gap: float | None = None,
        classifier: Path | None = None,
        min_confidence: float | None = None,
        profile: DeckProfile | str | Path | None = None,
        zoom_out: float | None = ZOOM_OUT,
        contrast_look: bool = CONTRAST_LOOK,
        face_reader: bool = True,
        aspect_look: tuple[float, ...] | None = None,
        dark_finder: bool = True,
        near_finder: bool = True,
        tile_look: bool = False,
        dark_deck_look: bool = False,
        table_deck_look: bool = False,
    ) -> None:
        from vision.deck_profile import resolve_profile
        from vision.face_reader import face_reader_path_for
        from vision.models import (
            calibration_for,
            classifier_classes_for,
            classifier_path_for,
            dark_classifier_path_for,
            dark_finder_path_for,
            near_finder_path_for,
            unenrolled_classifier_path_for,
        )

        self.path = Path(model)
        self.session = ort_session(self.path, threads, "ONNX model")
        self.input_name, self.info = _finder_io(self.session, self.path)
        self.conf_threshold = DEFAULT_CONF if conf_threshold is None else conf_threshold
        self.iou_threshold = iou_threshold
        self.classifier: CornerClassifier | None = None
        if not self.info.names_cards:
            cls_path = classifier if classifier is not None else classifier_path_for(self.path)
            if cls_path is None:
                raise UserError(
                    f"{self.path}: this model only finds cards (classes {sorted(self.info.names.values())}); "
                    f"its corner-index classifier corner-cls.onnx is not beside it"
                )
            face_path = face_reader_path_for(self.path) if face_reader else None
            self.classifier = CornerClassifier(
                cls_path, classifier_classes_for(self.path), threads, calibration_for(self.path),
                resolve_profile(profile), load_face_reader(face_path, threads) if face_path is not None else None,
                # A classifier given by hand reads both ways; the shipped pair is looked for beside the finder.
                unenrolled=unenrolled_classifier_path_for(self.path) if classifier is None else None,
                dark=dark_classifier_path_for(self.path) if classifier is None else None,
            )
        elif profile is not None:
            raise UserError(f"{self.path}: a deck profile needs the two-stage reader (finder and corner classifier)")
        # The finder taught decks printed light on dark paper, where one lies beside this one: the dark look.
        dark_path = dark_finder_path_for(self.path) if dark_finder and self.classifier is not None else None
        self.dark_finder, self._dark_input_name = self._second_finder(dark_path, threads, "dark-deck finder")
        # The finder taught cards large in the frame, where one lies beside this one: the near look.
        near_path = near_finder_path_for(self.path) if near_finder and self.classifier is not None else None
        self.near_finder, self._near_input_name = self._second_finder(near_path, threads, "near-card finder")
        self.min_confidence = reading_floor(self.classifier, min_confidence)
        if merge_gap is None:
            merge_gap = MERGE_GAP_WHOLE_CARDS if self.classifier is not None else MERGE_GAP_CORNERS
        self.merge_gap = merge_gap
        self.zoom_out: float | None = zoom_out
        self.contrast_look = contrast_look
        self.aspect_look: tuple[float, ...] = ASPECT_LOOK if aspect_look is None else aspect_look
        self.tile_look = tile_look
        self.dark_deck_look = dark_deck_look
        self.deck_judgement = DeckJudgement() if table_deck_look else None
        # How often each look after the first ran, and how often it named the frame's cards ("...-named"), for
        # measuring what the looks cost and gain (``lab.frame_study`` prints them).
        self.looks: Counter[str] = Counter()

    def _second_finder(self, path: Path | None, threads: int | None, what: str) -> tuple[Any, str]:
        """A finder read in one of the looks (None where ``path`` is None) and its input's name; it must take
        the first finder's input and name its classes."""
        if path is None:
            return None, ""
        session = ort_session(path, threads, what)
        input_name, info = _finder_io(session, path)
        if (info.imgsz, info.names, info.end2end) != (self.info.imgsz, self.info.names, self.info.end2end):
            raise UserError(f"{path}: its input or classes are not {self.path.name}'s")
        return session, input_name

    @property
    def input_size(self) -> tuple[int, int]:
        """(height, width) of the finder's input."""
        return self.info.imgsz

    def raw_output(
        self, frame_bgr: npt.NDArray[np.uint8], finder: Finder = "first"
    ) -> tuple[npt.NDArray[np.float32], pp.Letterbox]:
        """The finder's first output for one frame, and how the frame was letterboxed (``finder``: "first", or
        "dark" or "near" for the finder taught dark decks or cards large in the frame, of the same input and
        classes)."""
        image, box = pp.letterbox(frame_bgr, self.info.imgsz)
        session, name = {
            "first": (self.session, self.input_name),
            "dark": (self.dark_finder, self._dark_input_name),
            "near": (self.near_finder, self._near_input_name),
        }[finder]
        out = session.run(None, {name: pp.to_tensor(image)})[0]
        return np.asarray(out, dtype=np.float32), box

    def _candidates(self, frame_bgr: npt.NDArray[np.uint8], finder: Finder = "first") -> tuple[pp.Raw, pp.Letterbox]:
        out, box = self.raw_output(frame_bgr, finder)
        raw = pp.decode(out, len(self.info.names), self.conf_threshold, self.info.end2end)
        # End-to-end heads skip NMS but may name one box twice; agnostic NMS keeps the better name.
        return pp.nms(raw, self.iou_threshold, max_det=MAX_CARDS), box

    def outlines(self, frame_bgr: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The finder's card outlines (K, 4, 2) in frame pixels after NMS, and their scores (K,)."""
        raw, box = self._candidates(frame_bgr)
        return pp.frame_quads(raw, box), np.asarray(raw.scores, np.float32)

    def card_outlines(self, frame_bgr: npt.NDArray[np.uint8], dark_deck: bool = False) -> CardOutlines:
        """As :meth:`outlines`, with a dark deck's cards outlined by the finder taught such decks (enrolment's
        outlines): where the first finder outlines a card judged printed light on dark paper, the dark-deck
        finder's outlines of cards judged so stand in for the first's that lie on them (their boxes' IoU from
        :data:`SAME_CARD_OVERLAP` up), as the dark look reads them at the table. ``dark_deck``: the deck is
        known to be such a deck, so every outline of the dark-deck finder stands in, judged dark or not (a
        court whose picture fills its face may not be). The first finder's outlines run loose round a dark
        card, and a profile's crops cut along a loose outline miss the index the reader sees later."""
        from vision import cardcrop

        quads, scores = self.outlines(frame_bgr)
        if self.dark_finder is None:
            return CardOutlines(quads, scores, 0, 0)
        # A deck known to be dark needs no judging (nothing is judged then, and none is counted).
        judged_dark = 0 if dark_deck else sum(cardcrop.judged_outline(frame_bgr, q)[1] for q in quads)
        found = CardOutlines(quads, scores, judged_dark, 0 if dark_deck else len(quads))
        if not (dark_deck or judged_dark):
            return found
        raw, box = self._candidates(frame_bgr, "dark")
        dark_quads = pp.frame_quads(raw, box)
        keep = [k for k, q in enumerate(dark_quads) if dark_deck or cardcrop.judged_outline(frame_bgr, q)[1]]
        if not keep:
            return found
        dark_quads, dark_scores = dark_quads[keep], np.asarray(raw.scores, np.float32)[keep]
        dark_boxes = _boxes(dark_quads)
        first = [k for k, b in enumerate(_boxes(quads)) if not (pp.box_iou(b, dark_boxes) >= SAME_CARD_OVERLAP).any()]
        return found._replace(
            quads=np.concatenate([quads[first], dark_quads]).astype(np.float32),
            scores=np.concatenate([scores[first], dark_scores]).astype(np.float32),
        )

    def readings(self, frame_bgr: npt.NDArray[np.uint8]) -> list[tuple[float, Card | None, float]]:
        """Per finder outline: its score, the classifier's card (None: no index seen) and confidence.

        Before any threshold on the pair: what ``euchre-table train calibrate`` fits the confidence on.
        """
        if self.classifier is None:
            raise ValueError(f"{self.path}: readings need the two-stage model (finder and classifier)")
        raw, box = self._candidates(frame_bgr)
        answers = self.classifier.classify(frame_bgr, pp.frame_quads(raw, box))
        return [(float(s), card, conf) for s, (card, conf, _, _) in zip(raw.scores, answers, strict=True)]

    def zoomed_out_outlines(
        self, frame_bgr: npt.NDArray[np.uint8], scale: float, finder: Finder = "first"
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The finder's outlines of ``frame_bgr`` seen as from further away: the frame in the middle of a
        canvas ``scale`` times its size (letterbox grey), so each card spans fewer of the finder's input
        pixels. Outlines (K, 4, 2) in the frame's own pixels, and their scores. ``finder``: as
        :meth:`raw_output`'s."""
        import cv2

        h, w = frame_bgr.shape[:2]
        # The canvas is drawn no larger than the finder's input (it is letterboxed to that anyway), so the
        # second look costs no more memory than the first: the frame shrinks by ``shrink`` on the way.
        in_h, in_w = self.info.imgsz
        shrink = min(1.0, in_h / (h * scale), in_w / (w * scale))
        small_h, small_w = max(1, round(h * shrink)), max(1, round(w * shrink))
        small = frame_bgr if shrink == 1.0 else cv2.resize(frame_bgr, (small_w, small_h), interpolation=cv2.INTER_AREA)
        big_h, big_w = round(h * scale * shrink), round(w * scale * shrink)
        canvas = np.full((big_h, big_w, 3), pp.PAD_VALUE, np.uint8)
        y0, x0 = (big_h - small_h) // 2, (big_w - small_w) // 2
        canvas[y0 : y0 + small_h, x0 : x0 + small_w] = small
        raw, box = self._candidates(canvas, finder)
        quads = (pp.frame_quads(raw, box) - np.array([x0, y0], np.float32)) / np.array(
            [small_w / w, small_h / h], np.float32
        )
        return quads.astype(np.float32), np.asarray(raw.scores, np.float32)

    @property
    def reads_detail(self) -> bool:
        """Whether :meth:`detect` names cards from a larger picture of the same view (two-stage models)."""
        return self.classifier is not None

    def detect(
        self, frame_bgr: npt.NDArray[np.uint8], frame: int = 0, detail_bgr: npt.NDArray[np.uint8] | None = None
    ) -> list[CardDetection]:
        """The cards in ``frame_bgr``. ``detail_bgr``: the same view at a higher resolution (the Pi camera's
        ``main`` stream beside the ``lores`` one the finder reads); the classifier then cuts its crops from it,
        along the finder's outlines scaled to it (:func:`detail_scale`). Detections are in ``frame_bgr``'s
        pixels either way."""
        if self.classifier is None:
            raw, box = self._candidates(frame_bgr)
            return pp.merge_same_card(pp.to_detections(raw, box, self.info.cards, frame), self.merge_gap)
        if detail_scale(frame_bgr, detail_bgr) is None:
            detail_bgr = None  # none given, or no larger than the frame: nothing to gain
        dets, outlined, dark = self._read(frame_bgr, detail_bgr, frame, "first")
        if not self._surely(dets) and outlined and self.near_finder is not None:
            # Still nothing named: a card held up before a room or an office, or photographed from near, read
            # again through the same looks by the finder taught such scenes; its reading stands where its
            # surest reaches the line.
            self.looks["near"] += 1
            again, _, _ = self._read(frame_bgr, detail_bgr, frame, "near")
            if max((d.confidence for d in again), default=0.0) >= max(NEAR_LOOK_MIN_CONFIDENCE, self.min_confidence):
                self.looks["near-named"] += 1
                dets = again
        if self.deck_judgement is not None and self._dark_deck_readable():
            dark_deck = self.deck_judgement.look(lambda: self._frame_verdict(frame_bgr, dets))
        else:
            dark_deck = self._judged_dark_deck(frame_bgr, dets)
        if dark_deck:
            dets = self._dark_deck_look(frame_bgr, detail_bgr, dets, frame)
        if self.tile_look:
            # A photo read as a dark deck has its tiles read so too (each card both ways).
            with self.classifier.as_maybe_dark() if dark_deck else nullcontext():
                dets = merged_readings(dets, self._tile_look(frame_bgr, detail_bgr, dets, frame, dark or dark_deck))
        return pp.merge_same_card(dets, self.merge_gap)

    def _dark_deck_readable(self) -> bool:
        """Whether the dark-deck look may be taken: a dark-deck finder lies beside the first, and the deck is not
        known (a profile says whether its deck is dark)."""
        return self.dark_finder is not None and self.classifier is not None and self.classifier.profile is None

    def _judged_dark_deck(self, frame_bgr: npt.NDArray[np.uint8], dets: Sequence[CardDetection]) -> bool:
        """Whether a still photo's reading ``dets`` takes the dark-deck look: the look is on, it may be taken
        (:meth:`_dark_deck_readable`), and the photo is judged dark (:meth:`_frame_verdict`, its red print not
        asked: a photo is read both ways whatever its ink)."""
        if not self.dark_deck_look or not self._dark_deck_readable():
            return False
        verdict = self._frame_verdict(frame_bgr, dets, red=False)
        return verdict is not None and verdict.dark

    def _frame_verdict(
        self, frame_bgr: npt.NDArray[np.uint8], dets: Sequence[CardDetection], red: bool = True
    ) -> FrameVerdict | None:
        """What the reading ``dets`` of one frame says of its deck: whether at least :data:`DARK_DECK_SHARE` of its
        surely named cards are judged printed light on dark paper, and (``red``) how many of those judged dark are
        of a red suit and how many of them show red print (``cardcrop.shows_red_print``); None where no card is
        named surely."""
        from vision import cardcrop

        sure = [d for d in dets if d.confidence >= self.min_confidence and d.corners is not None]
        if not sure:
            return None
        judged = [(d, cardcrop.judged_outline(frame_bgr, np.array(d.corners, np.float32))) for d in sure]
        dark = [(d, hypotheses[0]) for d, (hypotheses, is_dark) in judged if is_dark]
        red_suited = [q for d, q in dark if d.card.suit is not None and d.card.suit.is_red] if red else []
        return FrameVerdict(
            len(dark) >= DARK_DECK_SHARE * len(sure),
            len(red_suited),
            sum(cardcrop.shows_red_print(frame_bgr, q) for q in red_suited),
        )

    def _dark_deck_look(
        self,
        frame_bgr: npt.NDArray[np.uint8],
        detail_bgr: npt.NDArray[np.uint8] | None,
        dets: Sequence[CardDetection],
        frame: int,
    ) -> list[CardDetection]:
        """``dets``, a still photo's reading (or a live table's frame, its deck judged dark), merged with its reading
        as a photo of a deck printed light on dark paper: every outline of the dark-deck finder stands in for the
        first finder's on its card (:meth:`card_outlines` with ``dark_deck``), and every card is read as one judged
        so, both ways apart (:meth:`CornerClassifier.as_maybe_dark`; not turned over alone, as an enrolled dark
        deck's are: a white deck whose number cards hold a dark panel is judged dark too, and its courts must still
        read as printed). Of the two readings of one card the surer stands (:func:`merged_readings`); of the
        second, sure readings alone count (at a live table, from :data:`TABLE_DARK_DECK_LINE` up)."""
        assert self.classifier is not None
        self.looks["dark-deck"] += 1
        outlines = self.card_outlines(frame_bgr, dark_deck=True)
        with self.classifier.as_maybe_dark():
            again = self._name(frame_bgr, detail_bgr, outlines.quads, outlines.scores, frame)
        # At a live table the look's cards are held to a line of their own (TABLE_DARK_DECK_LINE).
        line = self.min_confidence if self.deck_judgement is None else max(TABLE_DARK_DECK_LINE, self.min_confidence)
        sure = [d for d in again if d.confidence >= line]
        self.looks["dark-deck-named"] += bool(sure)
        return merged_readings(dets, sure)

    def _tile_look(
        self,
        frame_bgr: npt.NDArray[np.uint8],
        detail_bgr: npt.NDArray[np.uint8] | None,
        dets: Sequence[CardDetection],
        frame: int,
        judged_dark: bool,
    ) -> list[CardDetection]:
        """The cards the tiles add to ``dets``, a still photo's reading, where its surely named cards are small
        to the finder (:data:`TILE_LOOK_BELOW`), in the photo's pixels.

        The photo is cut into :data:`TILE_GRID` x :data:`TILE_GRID` overlapping tiles, each read by the first
        finder at its input's size (so enlarged), and by the dark-deck finder too where the photo's first reading
        judged a card printed light on dark paper (``judged_dark``: the dark look's rule). An outline cut by a
        tile's inner edge is left to the tile that holds its card whole, and one lying on a card the photo's
        reading named surely is not named again (most of a tile's outlines are such, and naming costs the
        most); the others are named from the photo itself. Kept: sure readings where no sure reading of ``dets``
        lies (:data:`TILE_NEW_OVERLAP`); one that lies on a reading only to be checked takes its place in
        :meth:`detect` (:func:`merged_readings`)."""
        sure = [d for d in dets if d.confidence >= self.min_confidence]
        if not sure:
            return []
        h, w = frame_bgr.shape[:2]
        in_h, in_w = self.info.imgsz
        card = float(np.median([max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in sure]))
        if card * min(in_h / h, in_w / w) >= TILE_LOOK_BELOW:
            return []
        self.looks["tiles"] += 1
        named_boxes = np.array([d.box for d in sure], np.float32)
        tile_w = min(w, round(w / TILE_GRID + card * TILE_OVERLAP))
        tile_h = min(h, round(h / TILE_GRID + card * TILE_OVERLAP))
        dark = judged_dark and self.dark_finder is not None
        finders: tuple[Finder, ...] = ("first", "dark") if dark else ("first",)
        found: list[CardDetection] = []
        for y0 in np.linspace(0, h - tile_h, TILE_GRID).round().astype(int):
            for x0 in np.linspace(0, w - tile_w, TILE_GRID).round().astype(int):
                tile = np.ascontiguousarray(frame_bgr[y0 : y0 + tile_h, x0 : x0 + tile_w])
                for finder in finders:
                    raw, box = self._candidates(tile, finder)
                    quads = pp.frame_quads(raw, box)
                    placed = (quads + np.array([x0, y0], np.float32)).astype(np.float32)
                    keep = [
                        k
                        for k, (quad, outline_box) in enumerate(zip(quads, _boxes(placed), strict=True))
                        if not _cut_by_inner_edge(quad, x0, y0, tile_w, tile_h, w, h)
                        and float(pp.box_iou(outline_box, named_boxes).max()) < SAME_CARD_OVERLAP
                    ]
                    if not keep:
                        continue
                    scores = np.asarray(raw.scores, np.float32)[keep]
                    named = self._name(frame_bgr, detail_bgr, placed[keep], scores, frame)
                    found = merged_readings(found, [d for d in named if d.confidence >= self.min_confidence])
        found = [
            d for d in found if float(pp.box_iou(np.array(d.box, np.float32), named_boxes).max()) < TILE_NEW_OVERLAP
        ]
        self.looks["tiles-named"] += bool(found)
        return found

    def _read(
        self, frame_bgr: npt.NDArray[np.uint8], detail_bgr: npt.NDArray[np.uint8] | None, frame: int, finder: Finder
    ) -> tuple[list[CardDetection], bool, bool]:
        """The frame read by ``finder`` ("first" or "near", as :meth:`raw_output`'s) and the classifier, with the
        looks that follow a first reading naming nothing surely (the dark look with the first finder alone),
        whether the finder outlined anything, and whether its reading (before any look) judged a card printed
        light on dark paper. The looks are counted in :attr:`looks`, those of the near finder's
        reading under "near ..." names."""
        assert self.classifier is not None
        tag = "" if finder == "first" else finder + " "
        raw, box = self._candidates(frame_bgr, finder)
        quads = pp.frame_quads(raw, box)
        self.classifier.judged_dark = 0
        dets = self._name(frame_bgr, detail_bgr, quads, raw.scores, frame)
        outlined = len(quads) > 0
        judged_dark = bool(self.classifier.judged_dark)
        if finder == "first" and self.dark_finder is not None and judged_dark:
            # A card judged printed light on dark paper: the frame is read again with the finder taught such
            # decks, which outlines them more tightly. Where it names a card surely, the two readings are
            # merged, the surer of two that lie on one card kept.
            self.looks["dark"] += 1
            dark_raw, dark_box = self._candidates(frame_bgr, "dark")
            dark_quads = pp.frame_quads(dark_raw, dark_box)
            if len(dark_quads):
                again = self._name(frame_bgr, detail_bgr, dark_quads, dark_raw.scores, frame)
                if self._surely(again):
                    self.looks["dark-named"] += 1
                    dets = merged_readings(dets, again)
        # "Named" is named surely: readings only to be checked (under the line) do not stop the looks
        # below, and are kept where those looks name nothing surely either.
        if not self._surely(dets) and self.zoom_out is not None:
            # Nothing named: a card far larger in the frame than at the table (held up to the camera,
            # photographed from near) is looked for again as from further away.
            self.looks[tag + "zoom-out"] += 1
            quads, scores = self.zoomed_out_outlines(frame_bgr, self.zoom_out, finder)
            outlined = outlined or len(quads) > 0
            if len(quads):
                again = self._name(frame_bgr, detail_bgr, quads, scores, frame)
                self.looks[tag + "zoom-out-named"] += self._surely(again)
                dets = again if self._surely(again) or not dets else dets
        if not self._surely(dets) and outlined and self.contrast_look:
            # Something outlined, nothing named: a dim or unevenly lit card, looked at with its contrast
            # evened out, finder and classifier both.
            self.looks[tag + "contrast"] += 1
            evened = self._look_at(frame_bgr, detail_bgr, contrast_evened, frame, finder)
            if evened is not None:
                self.looks[tag + "contrast-named"] += self._surely(evened)
                dets = evened if self._surely(evened) or not dets else dets
        if not self._surely(dets) and outlined and self.aspect_look:
            self.looks[tag + "aspect"] += 1
            again = self._aspect_looks(frame_bgr, detail_bgr, frame, finder)
            self.looks[tag + "aspect-named"] += bool(again)
            dets = again if again else dets
        return dets, outlined, judged_dark

    def _aspect_looks(
        self, frame_bgr: npt.NDArray[np.uint8], detail_bgr: npt.NDArray[np.uint8] | None, frame: int,
        finder: Finder = "first",
    ) -> list[CardDetection]:
        """The readings of the surest of the looks at the frame squeezed to each of :attr:`aspect_look`'s pixel
        aspects, in the frame's pixels: all of that look's readings, as the other looks give theirs, where its
        surest reaches :data:`ASPECT_LOOK_MIN_CONFIDENCE`; else empty."""
        h, w = frame_bgr.shape[:2]
        best: list[CardDetection] = []
        best_conf = ASPECT_LOOK_MIN_CONFIDENCE
        for aspect in self.aspect_look:
            sx, sy = (aspect, 1.0) if aspect < 1 else (1.0, 1.0 / aspect)
            found = self._look_at(frame_bgr, detail_bgr, partial(_squeezed, sx=sx, sy=sy), frame, finder) or []
            top = max((d.confidence for d in found), default=0.0)
            if top >= best_conf:
                best_conf = top
                small_w, small_h = _squeezed_size(w, h, sx, sy)
                best = [scaled_detection(d, w / small_w, h / small_h) for d in found]
        return best

    def _look_at(
        self,
        frame_bgr: npt.NDArray[np.uint8],
        detail_bgr: npt.NDArray[np.uint8] | None,
        change: Callable[[npt.NDArray[np.uint8]], npt.NDArray[np.uint8]],
        frame: int,
        finder: Finder = "first",
    ) -> list[CardDetection] | None:
        """Finder and classifier on the frame as ``change`` makes it (its detail picture changed the same way,
        only where something is outlined): the readings in the changed frame's pixels, or None where the
        finder outlines nothing there."""
        changed = change(frame_bgr)
        raw, box = self._candidates(changed, finder)
        quads = pp.frame_quads(raw, box)
        if not len(quads):
            return None
        detail = change(detail_bgr) if detail_bgr is not None else None
        return self._name(changed, detail, quads, raw.scores, frame)

    def _surely(self, dets: Sequence[CardDetection]) -> bool:
        """Whether any of ``dets`` is named from the reading line up (not only to be checked)."""
        return any(d.confidence >= self.min_confidence for d in dets)

    def _name(
        self,
        frame_bgr: npt.NDArray[np.uint8],
        detail_bgr: npt.NDArray[np.uint8] | None,
        quads: npt.NDArray[np.float32],
        scores: npt.NDArray[np.float32],
        frame: int,
    ) -> list[CardDetection]:
        """``name_outlines`` on the frame, or on its detail picture (where :func:`detail_scale` takes it) with
        the outlines scaled there and back."""
        assert self.classifier is not None
        scale = detail_scale(frame_bgr, detail_bgr)
        if detail_bgr is None or scale is None:
            return name_outlines(frame_bgr, quads, scores, self.classifier, frame, self.min_confidence)
        sx, sy = scale
        big = (quads * np.array([sx, sy], np.float32)).astype(np.float32)
        found = name_outlines(detail_bgr, big, scores, self.classifier, frame, self.min_confidence)
        return [scaled_detection(d, 1.0 / sx, 1.0 / sy) for d in found]
