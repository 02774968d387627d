"""A deck profile: the house deck learnt once, so the reader names that deck's cards surely.

The corner classifier (``models/corner-cls.onnx``) was trained on synthetic
decks; a pub's deck prints its indices its own way. Enrolment shows the
reader each card of the deck once and keeps, per card, the classifier's own
**features** (its ``features`` output: the 128-wide vector its last layer
reads) of the card's two index corners. At run time each corner crop is
compared with those prototypes (cosine similarity) and that evidence is
combined with the classifier's prediction (:class:`ProfileMatcher`). Only
numpy and ONNX Runtime are needed, no torch.

Files, in the data folder (``<data folder>/decks/<NAME>/``)::

    profile.json          format, version, name, when made, classifier, cards (below)
    crops/<card>-<corner>.png   each prototype's corner crop (64x48, upright), e.g. crops/Qh-TL.png;
                                a second view of the same corner: crops/Qh-TL-2.png
    crops/<card>-face.png       the card upright (72x100), for a contact sheet; the Joker's face
                                is also a prototype (crops/B-face.png, with features)

``profile.json``::

    {"format": "euchre-table deck profile", "version": 1, "name": "house",
     "created": "2026-12-01T16:30:00+00:00", "classifier": {"features": 128, "sha256": "..."},
     "dark_paper": false,
     "cards": {"Qh": {"prototypes": [{"corner": "TL", "crop": "crops/Qh-TL.png", "features": [...]},
                                    {"corner": "BR", "crop": "crops/Qh-BR.png", "features": [...]}],
                     "face": "crops/Qh-face.png"},
               "B": {"prototypes": [...], "face": "crops/B-face.png",
                     "face_features": [[...], [...]]}}}   (every card: its face, both ways up)

Cards are named in EGN (``table.cards.Card``: ``Qh``, ``Tc``, ``B``). ``dark_paper`` (optional, false where
absent): the deck is printed light on dark paper (most of its cards were judged so at enrolment,
:data:`DARK_DECK_SHARE`), its crops are kept turned over, and the reader reads every card of it turned over, as
the classifier reads a dark card (``vision.onnx_detector.CornerClassifier.classify``).

API (stable; the enrolment screen builds on it):

- :class:`DeckProfile` (dataclass): ``name``, ``created``, ``cards`` (card -> :class:`CardPrototypes`),
  ``features`` (width), ``classifier_sha256``, ``dark_paper``; ``profile.card_list()``; ``len(profile)``.
- :func:`save_profile` ``(profile, folder)`` writes the files above into ``folder`` (made if needed).
- :func:`finish_replacing` ``(folder)``: where a power cut fell while a new profile replaced an old one
  (``<name>.new`` and ``<name>.old`` beside a missing ``<name>``), puts the whole one in place;
  :func:`configured_profile` calls it.
- :func:`load_profile` ``(folder) -> DeckProfile``: a missing, corrupt or hostile profile raises
  ``vision.errors.UserError`` with one line naming the file and what is wrong.
- A profile made with another classifier (its ``sha256``) has its features taken again from its crops when
  the reader loads it (:func:`refeaturise`), so a retrained model does not need the deck enrolled again.
- :func:`profile_folder` ``(data_dir, name)``: ``<data_dir>/decks/<name>``; :func:`check_name`;
  :func:`configured_profile` ``(data_dir, deck)``: the profile ``[camera] deck`` names, or None.
- :class:`ProfileBuilder` ``(classifier)`` (a ``vision.onnx_detector.CornerClassifier``; or
  ``ProfileBuilder.for_detector(detector)``): ``add(card, frame_bgr, quad)`` adds one card seen in a
  frame (``quad``: its (4, 2) float32 outline in frame pixels, as ``OnnxDetector.outlines`` gives;
  adding a card again adds a view, up to :data:`MAX_VIEWS`); ``remove(card)``; ``cards``;
  ``missing(deck_cards) -> list[Card]``; ``build(name) -> DeckProfile``.
- The reader: ``OnnxDetector(model, profile=profile)`` or ``vision.detector.load_detector(model,
  profile=profile)`` (a :class:`DeckProfile` or a folder). Without a profile it reads exactly as before.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import math
import re
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from table import durable
from table.cards import Card, CardParseError, Suit
from vision.errors import UserError

if TYPE_CHECKING:
    from vision.calibration import ConfidenceCalibration

FORMAT = "euchre-table deck profile"
VERSION = 1
PROFILE_FILE = "profile.json"
CROPS_DIR = "crops"
DECKS_DIR = "decks"
# A card seen again adds a view, up to this many per card.
MAX_VIEWS = 4
# Refused before parsing: a real profile is well under this (33 cards x 4 views x 2 corners x 128 numbers).
MAX_PROFILE_BYTES = 4_000_000
MAX_NESTING = 8
MAX_CROP_BYTES = 1_000_000  # a crop PNG is a few kB
FACE_W, FACE_H = 72, 100
# The Joker's face prototype: the middle of the card, cut to the classifier's crop size.
FACE_U = (0.2, 0.8)
FACE_V = (0.22, 0.78)
CORNERS = ("TL", "TR", "BR", "BL")
# The key in models/classes.json of the reading confidence refitted for reading with a profile.
PROFILE_CALIBRATION_KEY = "profile_calibration"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_CROP = re.compile(rf"{CROPS_DIR}/[A-Za-z0-9_.-]{{1,80}}\.png")

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Prototype:
    """One corner of one card as enrolled: which corner, its crop's file (relative), its features."""

    corner: str
    crop: str
    features: FloatArray


@dataclass
class CardPrototypes:
    """What the profile keeps of one card: its corner prototypes, its face picture and (Joker) face features."""

    prototypes: list[Prototype]
    face: str | None = None
    face_features: FloatArray | None = None


@dataclass
class DeckProfile:
    """One deck, enrolled. ``images`` holds the crops (file name -> BGR uint8) until saved or after loading."""

    name: str
    cards: dict[Card, CardPrototypes]
    features: int
    classifier_sha256: str = ""
    created: str = field(default_factory=lambda: _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"))
    images: dict[str, npt.NDArray[np.uint8]] = field(default_factory=dict, repr=False)
    version: int = VERSION
    folder: Path | None = None  # where it was loaded from (its crops lie there)
    dark_paper: bool = False  # printed light on dark paper: crops kept turned over, every card read turned over

    def __len__(self) -> int:
        return len(self.cards)

    def card_list(self) -> list[Card]:
        """The enrolled cards, in deck order (clubs, diamonds, hearts, spades; 7 to ace; the Benny last)."""
        return sorted(self.cards, key=_card_order)


def _card_order(card: Card) -> tuple[int, int]:
    from vision.cardcrop import CARD_CLASSES

    name = str(card)
    return (CARD_CLASSES.index(name), 0) if name in CARD_CLASSES else (len(CARD_CLASSES), 0)


def check_name(name: str) -> str:
    """A deck's name as a folder name: letters, digits, ``_ . -``, at most 64; else UserError."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise UserError(
            f"deck name {name!r}: use letters, digits, '_', '.' or '-' (at most 64, not starting with a dot)"
        )
    return name


def profile_folder(data_dir: str | Path, name: str) -> Path:
    """Where deck ``name`` lives: ``<data_dir>/decks/<name>``."""
    return Path(data_dir) / DECKS_DIR / check_name(name)


def file_sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# --- Saving and loading -------------------------------------------------------------------------------


def _floats(v: FloatArray) -> list[float]:
    return [round(float(x), 5) for x in np.asarray(v, np.float32).ravel()]


def save_profile(profile: DeckProfile, folder: str | Path) -> Path:
    """Write ``profile.json`` and its crops into ``folder`` (made if needed); returns the JSON's path.

    Every file is fsynced, and the JSON is written last, through a temporary file, so a profile is never
    half written, a power cut included. A full disk raises OSError (the caller names the folder).
    """
    folder = Path(folder)
    (folder / CROPS_DIR).mkdir(parents=True, exist_ok=True)
    for rel, image in profile.images.items():
        ok, png = cv2.imencode(".png", image)
        if not ok:
            raise UserError(f"{folder / rel}: cannot encode this crop")
        durable.write_synced(folder / rel, png.tobytes())
    cards: dict[str, Any] = {}
    for card in profile.card_list():
        entry = profile.cards[card]
        protos = [{"corner": p.corner, "crop": p.crop, "features": _floats(p.features)} for p in entry.prototypes]
        out: dict[str, Any] = {"prototypes": protos}
        if entry.face is not None:
            out["face"] = entry.face
        if entry.face_features is not None:
            out["face_features"] = [_floats(f) for f in entry.face_features]
        cards[str(card)] = out
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "name": profile.name,
        "created": profile.created,
        "classifier": {"features": profile.features, "sha256": profile.classifier_sha256},
        "dark_paper": profile.dark_paper,
        "cards": cards,
    }
    durable.fsync_dir(folder / CROPS_DIR)
    path = folder / PROFILE_FILE
    durable.replace_atomically(path, (json.dumps(doc, indent=1) + "\n").encode("utf-8"))
    return path


def replacing_folders(folder: Path) -> tuple[Path, Path]:
    """The two folders beside a deck's while a new profile replaces it: ``<name>.new`` (the new profile,
    written whole first) and ``<name>.old`` (the one it replaces, until the new one is in place)."""
    return folder.with_name(folder.name + ".new"), folder.with_name(folder.name + ".old")


def finish_replacing(folder: Path) -> None:
    """Where a power cut fell between the two renames that put a new profile in place of an old one
    (``companion.commands.enrol.save_deck``), so ``folder`` is missing: put the new one there if it was
    written whole (its ``profile.json`` is written last), else the old one back. Nothing to do otherwise."""
    if folder.exists():
        return
    fresh, old = replacing_folders(folder)
    for candidate in (fresh, old):
        if (candidate / PROFILE_FILE).is_file():
            try:
                candidate.rename(folder)
            except OSError:
                return  # a read-only data folder: loading then says the profile is missing
            durable.fsync_dir(folder.parent)
            if candidate is fresh:
                shutil.rmtree(old, ignore_errors=True)
            return


class _Bad(Exception):
    pass


def _depth(obj: object, limit: int) -> int:
    stack: list[tuple[object, int]] = [(obj, 1)]
    deepest = 0
    while stack:
        item, d = stack.pop()
        deepest = max(deepest, d)
        if d > limit:
            return d
        if isinstance(item, dict):
            stack.extend((v, d + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, d + 1) for v in item)
    return deepest


def _vector(value: object, width: int, where: str) -> FloatArray:
    if not isinstance(value, list) or len(value) != width:
        raise _Bad(f"{where}: expected a list of {width} numbers")
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in value):
        raise _Bad(f"{where}: expected finite numbers")
    return np.asarray(value, np.float32)


def _crop_path(value: object, where: str) -> str:
    if not isinstance(value, str) or ".." in value or not _CROP.fullmatch(value):
        raise _Bad(f"{where}: expected a file name under {CROPS_DIR}/ ending in .png")
    return value


def _parse(doc: object) -> DeckProfile:
    if not isinstance(doc, dict):
        raise _Bad("expected a JSON object")
    if doc.get("format") != FORMAT:
        raise _Bad(f'not a deck profile ("format" is not {FORMAT!r})')
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise _Bad('"version" must be a whole number')
    if version > VERSION:
        raise _Bad(f"version {version} is newer than this program reads ({VERSION}); update euchre-table")
    if version < 1:
        raise _Bad(f"unknown version {version}")
    name = doc.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise _Bad('"name" must be a deck name (letters, digits, _ . -)')
    created = doc.get("created", "")
    if not isinstance(created, str) or len(created) > 64:
        raise _Bad('"created" must be a date string')
    cls = doc.get("classifier")
    if not isinstance(cls, dict):
        raise _Bad('"classifier" must be an object')
    width, sha = cls.get("features"), cls.get("sha256", "")
    if not isinstance(width, int) or isinstance(width, bool) or not 1 <= width <= 4096:
        raise _Bad('"classifier.features" must be a width from 1 to 4096')
    if not isinstance(sha, str) or len(sha) > 64:
        raise _Bad('"classifier.sha256" must be a hex string')
    dark_paper = doc.get("dark_paper", False)
    if not isinstance(dark_paper, bool):
        raise _Bad('"dark_paper" must be true or false')
    raw_cards = doc.get("cards")
    if not isinstance(raw_cards, dict) or not raw_cards:
        raise _Bad('"cards" must be an object naming at least one card')
    if len(raw_cards) > 40:
        raise _Bad(f'"cards" names {len(raw_cards)} cards (a deck has at most 33)')
    cards: dict[Card, CardPrototypes] = {}
    for key, entry in raw_cards.items():
        try:
            card = Card.parse(key)
        except CardParseError:
            raise _Bad(f"cards: {key[:20]!r} is not a card") from None
        where = f"cards.{key}"
        if not isinstance(entry, dict):
            raise _Bad(f"{where}: expected an object")
        protos = entry.get("prototypes")
        if not isinstance(protos, list) or not 1 <= len(protos) <= 4 * MAX_VIEWS:
            raise _Bad(f"{where}.prototypes: expected a list of 1 to {4 * MAX_VIEWS}")
        out: list[Prototype] = []
        for k, p in enumerate(protos):
            w = f"{where}.prototypes[{k}]"
            if not isinstance(p, dict) or p.get("corner") not in CORNERS:
                raise _Bad(f"{w}: expected an object with a corner ({', '.join(CORNERS)})")
            crop = _crop_path(p.get("crop"), f"{w}.crop")
            out.append(Prototype(str(p["corner"]), crop, _vector(p.get("features"), width, f"{w}.features")))
        face = entry.get("face")
        face_features = entry.get("face_features")
        if face_features is not None:
            if not isinstance(face_features, list) or not 1 <= len(face_features) <= 2 * MAX_VIEWS:
                raise _Bad(f"{where}.face_features: expected a list of 1 to {2 * MAX_VIEWS} vectors")
            faces = np.stack([_vector(f, width, f"{where}.face_features[{k}]") for k, f in enumerate(face_features)])
        cards[card] = CardPrototypes(
            out,
            None if face is None else _crop_path(face, f"{where}.face"),
            None if face_features is None else faces,
        )
    return DeckProfile(
        name=name, cards=cards, features=width, classifier_sha256=sha, created=created, version=version,
        dark_paper=dark_paper,
    )


def load_profile(folder: str | Path, images: bool = False) -> DeckProfile:
    """The profile in ``folder`` (or the ``profile.json`` named); UserError if missing, corrupt or not a profile.

    ``images``: also read the crops into ``profile.images`` (a missing crop is then an error too).
    """
    folder = Path(folder)
    path = folder if folder.suffix == ".json" else folder / PROFILE_FILE
    folder = path.parent
    if not path.is_file():
        raise UserError(f"{path}: deck profile not found (enrol the deck with `euchre-table enrol`)")
    try:
        size = path.stat().st_size
        if size > MAX_PROFILE_BYTES:
            raise _Bad(f"{size} bytes is too big for a deck profile")
        text = path.read_text(encoding="utf-8")
        try:
            doc = json.loads(text)
        except RecursionError:
            raise _Bad("nested too deeply") from None
        except ValueError as exc:
            raise _Bad(f"not valid JSON ({exc})") from None
        if _depth(doc, MAX_NESTING) > MAX_NESTING:
            raise _Bad("nested too deeply")
        profile = _parse(doc)
    except _Bad as exc:
        raise UserError(f"{path}: corrupt deck profile: {exc}; enrol the deck again") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read the deck profile ({exc})") from None
    profile.folder = folder
    if images:
        read_images(profile)
    return profile


def read_images(profile: DeckProfile, missing_ok: bool = False) -> None:
    """Read a loaded profile's crops into ``profile.images``; a missing one raises UserError naming it (with
    ``missing_ok``: is left out, as is one unreadable or too big)."""
    if profile.folder is None:
        return
    for entry in profile.cards.values():
        for rel in [p.crop for p in entry.prototypes] + ([entry.face] if entry.face else []):
            if rel in profile.images:
                continue
            path = profile.folder / rel
            try:
                too_big = path.stat().st_size > MAX_CROP_BYTES
            except OSError:
                too_big = False
            image = None if too_big else cv2.imread(str(path), cv2.IMREAD_COLOR)
            bad = image is None or image.shape[0] > 4 * FACE_H or image.shape[1] > 4 * FACE_W
            if bad and missing_ok:
                continue
            if image is None:
                raise UserError(f"{path}: crop of the deck profile missing, unreadable or too big")
            if image.shape[0] > 4 * FACE_H or image.shape[1] > 4 * FACE_W:
                raise UserError(f"{path}: crop of the deck profile is {image.shape[1]}x{image.shape[0]}, not a crop")
            profile.images[rel] = np.asarray(image, np.uint8)


def refeaturise(profile: DeckProfile, classifier: FeatureClassifier) -> DeckProfile:
    """The profile with its features recomputed by ``classifier`` from its crops: for a profile made with
    another classifier (a retrained model), so the deck need not be enrolled again. The corner crops are the
    classifier's input as it was cut; the face's features come from the middle of the stored face picture."""
    from vision import cardcrop

    read_images(profile)
    cards: dict[Card, CardPrototypes] = {}
    for card, entry in profile.cards.items():
        batch = [cardcrop.normalise_crop(profile.images[p.crop]) for p in entry.prototypes]
        faces = 0
        if entry.face is not None and entry.face_features is not None:
            middle = _face_middle(profile.images[entry.face])
            batch += [
                cardcrop.normalise_crop(middle),
                cardcrop.normalise_crop(np.ascontiguousarray(middle[::-1, ::-1])),
            ]
            faces = 2
        _, feats = classifier.run(np.stack(batch).astype(np.float32))
        protos = [Prototype(p.corner, p.crop, _unit(f)) for p, f in zip(entry.prototypes, feats, strict=False)]
        face_features = np.stack([_unit(f) for f in feats[len(entry.prototypes) :]]) if faces else None
        cards[card] = CardPrototypes(protos, entry.face, face_features)
    return DeckProfile(
        name=profile.name,
        cards=cards,
        features=int(feats.shape[1]),
        classifier_sha256=file_sha256(classifier.path),
        created=profile.created,
        images=profile.images,
        folder=profile.folder,
        dark_paper=profile.dark_paper,
    )


def _face_middle(face: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The middle of a stored face picture (FACE_U x FACE_V) at the classifier's crop size."""
    from vision import cardcrop

    h, w = face.shape[:2]
    x0, x1 = round(FACE_U[0] * w), round(FACE_U[1] * w)
    y0, y1 = round(FACE_V[0] * h), round(FACE_V[1] * h)
    middle = cv2.resize(face[y0:y1, x0:x1], (cardcrop.CROP_W, cardcrop.CROP_H), interpolation=cv2.INTER_AREA)
    return np.asarray(middle, np.uint8)


def configured_profile(data_dir: str | Path, deck: str) -> DeckProfile | None:
    """The profile the config's ``[camera] deck`` names, from ``<data_dir>/decks/<deck>`` (None: no deck named).

    A missing or corrupt profile raises UserError, one line naming the deck and the file.
    """
    if not deck:
        return None
    try:
        folder = profile_folder(data_dir, deck)
        finish_replacing(folder)
        return load_profile(folder)
    except UserError as exc:
        raise UserError(f"[camera] deck = {deck!r}: {exc}") from None


def resolve_profile(profile: DeckProfile | str | Path | None) -> DeckProfile | None:
    """A profile given as itself, a folder or a ``profile.json`` path (None stays None)."""
    if profile is None or isinstance(profile, DeckProfile):
        return profile
    return load_profile(profile)


# --- Building a profile -------------------------------------------------------------------------------


def face_image(frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """The card inside ``quad`` upright, FACE_W x FACE_H, BGR."""
    from vision import cardcrop

    q = cardcrop.order_corners(quad)
    dst = np.array([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]], np.float32)
    m = cv2.getPerspectiveTransform(q, dst)
    out = cv2.warpPerspective(frame_bgr, m, (FACE_W, FACE_H), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(out, np.uint8)


def face_crop(frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """The middle of the card (FACE_U x FACE_V), upright, at the classifier's crop size (BGR uint8)."""
    from vision import cardcrop

    q = cardcrop.order_corners(quad)
    h = cardcrop._region_homography(q, FACE_U[0], FACE_U[1], FACE_V[0], FACE_V[1])
    out = cv2.warpPerspective(
        frame_bgr,
        h,
        (cardcrop.CROP_W, cardcrop.CROP_H),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(out, np.uint8)


class FeatureClassifier(Protocol):
    """What a profile needs of the corner classifier (``vision.onnx_detector.CornerClassifier``)."""

    path: Path
    classes: list[str]

    def run(self, crops: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Logits (n, classes) and features (n, width) of a batch of crops."""
        ...


class TwoStageReader(Protocol):
    """What enrolment needs of the reader (``vision.onnx_detector.OnnxDetector``)."""

    path: Path

    @property
    def classifier(self) -> FeatureClassifier | None: ...


@dataclass
class _View:
    crops: list[npt.NDArray[np.uint8]]  # the four corners, TL TR BR BL (BGR)
    features: FloatArray  # (4, D)
    index_corners: tuple[int, int]
    face: npt.NDArray[np.uint8]
    face_features: FloatArray | None
    turned: _View | None = None  # a view not judged dark: the same cut turned over (ProfileBuilder.build)

    @property
    def dark(self) -> bool:
        """Whether its crops are turned over: the card was judged printed light on dark paper, or this is such a
        view's turned-over twin."""
        return self.turned is None


def _index_pair(seen: FloatArray) -> tuple[int, int]:
    """The two diagonal corners (of TL TR BR BL) that show the index more surely, by the classifier."""
    return (0, 2) if seen[0] + seen[2] >= seen[1] + seen[3] else (1, 3)


# Where more than this share of a deck's views is judged printed light on dark paper, the deck is such a deck, and
# every card is kept as the classifier reads a dark card: a court whose picture fills its face, or a card cut along
# a loose outline, may not be judged dark alone (at the simulated table, 4 of a one-ink deck's 24 cards).
DARK_DECK_SHARE = 0.5


class ProfileBuilder:
    """Collects the cards of one deck, seen one by one or many to a frame, into a :class:`DeckProfile`."""

    def __init__(self, classifier: FeatureClassifier) -> None:
        self.classifier = classifier
        self._views: dict[Card, list[_View]] = {}

    @classmethod
    def for_detector(cls, detector: TwoStageReader) -> ProfileBuilder:
        if detector.classifier is None:
            raise UserError(f"{detector.path}: enrolment needs the two-stage reader (finder and corner classifier)")
        return cls(detector.classifier)

    @property
    def cards(self) -> list[Card]:
        """The cards added so far, in deck order."""
        return sorted(self._views, key=_card_order)

    def add(self, card: Card | str, frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike) -> None:
        """Add ``card`` as seen in ``frame_bgr`` inside ``quad`` ((4, 2) outline in frame pixels).

        The outline is snapped to the card's paper edge (``cardcrop.judged_outline``, as the reader snaps
        it) and its four corners are cut as the reader cuts them; the two diagonal corners that show the
        index more surely (by the classifier) are kept. A card printed light on dark paper is kept as the
        classifier reads it, its corners' lightness turned over (``cardcrop.lightness_inverted``): read as
        printed, the classifier sees no index there, and a prototype of a crop it sees no index in never
        counts. A card already added gains a view, up to :data:`MAX_VIEWS`.
        """
        from vision import cardcrop

        card = card if isinstance(card, Card) else Card.parse(card)
        frame_bgr = np.ascontiguousarray(frame_bgr)
        hypotheses, dark = cardcrop.judged_outline(frame_bgr, np.asarray(quad, np.float32).reshape(4, 2))
        q = hypotheses[0]
        # The PNGs are the crops as the classifier reads them (refeaturise cuts its input from them).
        crops = cardcrop.corner_crops_bgr(frame_bgr, q)
        if dark:
            crops = [cardcrop.lightness_inverted(c) for c in crops]
            turned = []
        else:
            # Cut turned over as well, along the outline as given (the white-paper snap takes a dark card's light
            # picture for its paper): where most of the deck is judged dark, the card is kept that way (build()),
            # as a court whose picture fills its face may not be judged dark alone.
            given = cardcrop.order_corners(np.asarray(quad, np.float32).reshape(4, 2))
            turned = [cardcrop.lightness_inverted(c) for c in cardcrop.corner_crops_bgr(frame_bgr, given)]
        batch = [cardcrop.normalise_crop(c) for c in crops + turned]
        fc = face_crop(frame_bgr, q)
        # The face both ways up: the reader may see the card turned half round.
        batch += [cardcrop.normalise_crop(fc), cardcrop.normalise_crop(np.ascontiguousarray(fc[::-1, ::-1]))]
        logits, feats = self.classifier.run(np.stack(batch).astype(np.float32))
        none = self.classifier.classes.index(cardcrop.NONE_CLASS)
        seen = 1.0 - cardcrop.softmax(logits[:-2])[:, none]
        face = face_image(frame_bgr, q)
        view = _View(crops, feats[:4], _index_pair(seen[:4]), face, feats[-2:])
        if not dark:
            view.turned = _View(turned, feats[4:8], _index_pair(seen[4:8]), face, feats[-2:])
        views = self._views.setdefault(card, [])
        if len(views) < MAX_VIEWS:
            views.append(view)

    def remove(self, card: Card | str) -> None:
        """Forget every view of ``card``."""
        self._views.pop(card if isinstance(card, Card) else Card.parse(card), None)

    def missing(self, deck_cards: Iterable[Card | str]) -> list[Card]:
        """The cards of ``deck_cards`` not added yet, in the order given."""
        out = []
        for c in deck_cards:
            card = c if isinstance(c, Card) else Card.parse(c)
            if card not in self._views:
                out.append(card)
        return out

    def build(self, name: str) -> DeckProfile:
        """The profile of the cards added (UserError if none, or a bad name)."""
        check_name(name)
        if not self._views:
            raise UserError(f"deck {name!r}: no card was enrolled")
        cards: dict[Card, CardPrototypes] = {}
        images: dict[str, npt.NDArray[np.uint8]] = {}
        width = 0
        every = [v for views in self._views.values() for v in views]
        dark_deck = sum(v.dark for v in every) > DARK_DECK_SHARE * len(every)
        for card in self.cards:
            protos: list[Prototype] = []
            for k, view in enumerate(self._views[card]):
                if dark_deck and view.turned is not None:
                    view = view.turned
                suffix = "" if k == 0 else f"-{k + 1}"
                for i in view.index_corners:
                    rel = f"{CROPS_DIR}/{card}-{CORNERS[i]}{suffix}.png"
                    images[rel] = view.crops[i]
                    protos.append(Prototype(CORNERS[i], rel, _unit(view.features[i])))
                    width = view.features.shape[1]
            face = f"{CROPS_DIR}/{card}-face.png"
            images[face] = self._views[card][0].face
            ff = [_unit(f) for v in self._views[card] if v.face_features is not None for f in v.face_features]
            cards[card] = CardPrototypes(protos, face, np.stack(ff) if ff else None)
        return DeckProfile(
            name=name, cards=cards, features=width, classifier_sha256=file_sha256(self.classifier.path), images=images,
            dark_paper=dark_deck,
        )


def _unit(v: npt.ArrayLike) -> FloatArray:
    a = np.asarray(v, np.float32)
    n = float(np.linalg.norm(a))
    return (a / n).astype(np.float32) if n > 0 else a


# --- Reading with a profile ---------------------------------------------------------------------------

# How the classifier's prediction and the prototypes' similarity are combined (see ProfileMatcher). Chosen by
# lab/profile_study.py on the five held-out synthetic decks, each enrolled from rendered frames
# (lab/profile_synth.py), with the reading confidence refitted leaving one deck out (models/MODEL_CARD.md).
TEMPERATURE = 0.1  # cosine similarity / TEMPERATURE are the prototypes' logits
PROTO_WEIGHT = 1.0  # the prototypes' log-probabilities' weight beside the classifier's
UNENROLLED_SIMILARITY = 0.6  # the similarity a card that the profile lacks is given
# A crop at least this like a prototype sees an index whatever the classifier says (None: the classifier
# alone says which crops see an index; 0.85 and 0.9 both added false readings).
SEEN_SIMILARITY: float | None = None
PER_CARD = False  # multiply per crop (False) or the two sources' per-card votes (True)
TEMPERED = False  # fuse as a weighted geometric mean (as sharp as its parts) rather than a product
CENTRE = False  # compare features after taking away the mean of the deck's prototypes
# The prototypes' vote is shared evenly between a card and its twin (same rank, the other suit of its colour:
# Ah and Ad), so between twins the classifier alone decides. The features tell twins apart worst: with each
# card's own vote, the five held-out decks read with their enrolments made 3-7 red-suit swaps where the
# classifier alone made 1-2; shared evenly, 1-4, and precision rose on four decks of five; shared by half
# (each card keeping 3/4 of its own), worse on four (models/MODEL_CARD.md, "Deck profiles").
TWINS_POOLED = True
# The Joker (no common index) is also read from its face: the middle of an outline that names no other card
# surely, at least this much more like the Joker's face than like any other card's (cosine similarity), is the
# Joker, at BENNY_FACE_CONFIDENCE. The margin was 0.04 until 2026-12-05 (chosen on the test scenes). 0.06 was
# chosen on a draw of the three held-out decks with a Joker kept for choosing (200 scenes each from seed offset
# 250000, with their rendered enrolments; per frame, the outline the rule would read): at 0.04 / 0.05 / 0.06 /
# 0.07 it was the Joker 24 / 22 / 21 / 19 times and not 4 / 3 / 1 / 0 times; on the validation draw (offset
# 500000) 18 / 18 / 18 / 15 and 6 / 2 / 2 / 0. The simulated table's drawn Joker is still read by its face
# (British rules, models/MODEL_CARD.md, "Deck profiles").
BENNY_FACE_MARGIN = 0.06
# Under the share right at 0.06 on either draw (21 of 22, 18 of 20), and above the Joker's line (0.8): sure.
BENNY_FACE_CONFIDENCE = 0.85
# Cousins (the same rank in the suits of the other colour: Kd and Ks) whose enrolled corners are at least this
# alike (the cosine similarity of their nearest prototypes) are ones the deck does not tell apart by its corners:
# the classifier tells them apart by colour, and such a deck prints them in one ink. A reading of either is then
# doubted by the other as far as the face cannot tell them apart (``ProfileMatcher._alike_doubted``): a number
# card by its pips, a court by the suit marks in its picture; where the face does not tell, the reading is
# reported to be checked, and proves no renege. Enrolled at the simulated table (seed 1), the five held-out decks'
# closest cousins were 0.79-0.86 as drawn, 0.75-0.84 dark, up to 0.92 tinted and 0.94 four-colour; printed in one
# ink, 10-14 pairs of 24 from 0.88 up (seeds 0-2), the diamonds and spades of nearly every rank among them
# (`gnome-orell`'s kings 0.891 at seed 0: hence 0.88, not 0.9). Model card, "Deck profiles", "Cousins a deck
# prints alike". None: off.
INDISTINCT_COUSINS: float | None = 0.88
# ... and only in a deck where at least this share of its enrolled cousin pairs are so alike: one that has lost
# the colour the classifier tells cousins by. A deck printed in colour may have a pair or a few alike in shape
# (`kde-jolly-royal` tinted: 5 of 24, the classifier still telling them apart by colour: doubted, they cost 1.9
# points of recall per frame for no wrong reading fewer); printed in one ink, 10-14 of 24 at the simulated table.
ALIKE_DECK_SHARE = 1 / 3
# ... unless the card's face is nearer its own enrolled face than any such cousin's by at least this much (the
# cosine similarity of the corner classifier's features of the card's middle, as enrolment keeps each face): in a
# deck printed in one ink the suits' shapes are alike in the corners, but a court's picture and a number card's
# pips are the card's own. At the simulated table, seeds 3 and 4 (the frames kept for choosing), of the readings
# so doubted with a share of 0.5 or more, `gnome-orell` in one ink: from 0.1 up 142 right and none wrong (0.05:
# 283 and none; every wrong one under -0.02); `kde-jolly-royal`: 125 and none (0.05: 378 and 2). Model card,
# "Deck profiles", "Told apart by the deck's own faces". None: the face reader alone tells them apart.
ALIKE_FACE_MARGIN: float | None = 0.1
# ... and where the card's face is nearer a cousin's enrolled face than the card's own by that margin (and nearer
# than any other such cousin's: until 2026-12-07 by that margin too, which left a one-ink king of diamonds read as
# the king of spades whenever the king of hearts' picture was near as well; per frame at the simulated table,
# `gnome-orell` enrolled seeds 0-2, readings to check naming the card in sight 96 -> 101 of 107, `kde-jolly-royal`
# 136 of 138 either way), and the corners' vote ranks that cousin next, the reading names the cousin: the corners,
# which the deck prints alike, gave the rank, the deck's own picture the suit. It stays a reading to be checked (the
# card the corners named its rival): named sure, such readings gained `gnome-orell` in one ink 1.4-4.1 points of
# recall per frame at the simulated table but read 2 jacks of spades and a ten of spades wrong (seeds 0-4 of both
# one-ink decks; model card, "Deck profiles", "Named by the deck's own faces"). False: the reading is only doubted.
ALIKE_FACE_SWITCH = True


class ProfileMatcher:
    """Names a card from its crops' logits and features with a profile (``CornerClassifier`` calls it).

    Per crop: the cosine similarity of its features to each enrolled card's nearest prototype (a card
    the profile lacks gets :data:`UNENROLLED_SIMILARITY`), over :data:`TEMPERATURE`, is a softmax over
    the cards, each card's share then pooled with its twin's (:data:`TWINS_POOLED`: Ah and Ad get the mean
    of their two shares); it is fused log-linearly with the classifier's softmax over the cards (``none``
    left out): ``log p = log p_classifier + PROTO_WEIGHT log p_prototypes``, renormalised. The crops' votes
    are then combined as ``cardcrop.combine_corners`` combines them, a crop counting as seeing an index
    where the classifier says so or where it is like a prototype (:data:`SEEN_SIMILARITY`). With the deck's
    lean between twin suits (:meth:`set_lean`, ``vision.twin_bias``), a reading is as sure as it is with the
    lean taken out, at most, and not sure at all where that would name another card (its twin, mostly).
    """

    def __init__(
        self,
        profile: DeckProfile,
        classes: list[str],
        temperature: float = TEMPERATURE,
        proto_weight: float = PROTO_WEIGHT,
        unenrolled: float = UNENROLLED_SIMILARITY,
        seen_similarity: float | None = SEEN_SIMILARITY,
        centre: bool = CENTRE,
        classifier_weight: float = 1.0,
        tempered: bool = TEMPERED,
        face_margin: float = BENNY_FACE_MARGIN,
        per_card: bool = PER_CARD,
        twins_pooled: bool = TWINS_POOLED,
        indistinct: float | None = INDISTINCT_COUSINS,
    ) -> None:
        from vision.cardcrop import NONE_CLASS

        self.profile = profile
        self.classes = list(classes)
        self.none_idx = self.classes.index(NONE_CLASS)
        self.card_names = [c for c in self.classes if c != NONE_CLASS]
        self.temperature = temperature
        self.proto_weight = proto_weight
        self.unenrolled = unenrolled
        self.seen_similarity = seen_similarity
        rows: list[FloatArray] = []
        owner: list[int] = []
        face_rows: list[FloatArray] = []
        face_owner: list[int] = []
        for card, entry in profile.cards.items():
            name = str(card)
            if name not in self.card_names:
                continue
            col = self.card_names.index(name)
            for p in entry.prototypes:
                rows.append(_unit(p.features))
                owner.append(col)
            if entry.face_features is not None:
                for f in entry.face_features:
                    face_rows.append(_unit(f))
                    face_owner.append(col)
        empty = np.zeros((0, profile.features), np.float32)
        self.prototypes = np.stack(rows).astype(np.float32) if rows else empty
        self.owner = np.asarray(owner, np.int64)
        # Prototypes grouped by card, so one reduceat takes each card's nearest.
        order = np.argsort(self.owner, kind="stable")
        self.prototypes, self.owner = self.prototypes[order], self.owner[order]
        self._cols, self._starts = np.unique(self.owner, return_index=True)
        self.faces = np.stack(face_rows).astype(np.float32) if face_rows else empty
        self.face_owner = np.asarray(face_owner, np.int64)
        self.enrolled = np.zeros(len(self.card_names), bool)
        self.enrolled[self.owner] = True
        self.classifier_weight = classifier_weight
        self.tempered = tempered
        self._benny = self.card_names.index("B") if "B" in self.card_names else -1
        self.face_margin = face_margin
        self.per_card = per_card
        self.twins_pooled = twins_pooled
        from vision.cardcrop import rank_rival_indices, twin_indices

        self._twins = twin_indices(tuple(self.card_names))
        self._rank_rivals = rank_rival_indices(tuple(self.card_names))
        # Per card, the cousins this deck prints alike (INDISTINCT_COUSINS): none where the line is None; and the
        # face reader's evidence between them (face_reader.alike_evidence_matrix), where there are any.
        self.indistinct = indistinct_cousins(profile, self.card_names, indistinct)
        from vision.face_reader import alike_evidence_matrix

        self._alike_matrix = alike_evidence_matrix(self.card_names)
        self.twin = np.asarray(self._twins, np.int64)
        # The deck's lean between twin suits, per card (vision.twin_bias; None: none measured).
        self.lean: FloatArray | None = None
        # Centred: the features (all >= 0, so all alike in angle) are compared after taking away the
        # mean of the deck's prototypes, so that what one card's corner has and the others lack counts.
        self.centre = self.prototypes.mean(axis=0) if centre and len(self.prototypes) else None
        if self.centre is not None:
            self.prototypes = self._unit_rows(self.prototypes - self.centre)
            self.faces = self._unit_rows(self.faces - self.centre) if len(self.faces) else self.faces

    @staticmethod
    def _unit_rows(a: npt.ArrayLike) -> FloatArray:
        f = np.asarray(a, np.float32)
        out: FloatArray = (f / np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-9)).astype(np.float32)
        return out

    def _as_compared(self, features: npt.ArrayLike) -> FloatArray:
        """``features`` (n, width) as the profile's prototypes and faces are compared: unit rows, centred on the
        prototypes' mean where the profile centres (:data:`CENTRE`)."""
        f = self._unit_rows(features)
        return self._unit_rows(f - self.centre) if self.centre is not None else f

    def similarity(self, features: npt.ArrayLike) -> FloatArray:
        """(n, cards): each crop's cosine similarity to each card's nearest prototype (unenrolled: the default)."""
        f = self._as_compared(features)
        sims = f @ self.prototypes.T  # (n, m)
        out = np.full((len(f), len(self.card_names)), self.unenrolled, np.float32)
        if len(self._cols):
            out[:, self._cols] = np.maximum.reduceat(sims, self._starts, axis=1)
        return out

    def combine(
        self, logits: npt.ArrayLike, features: npt.ArrayLike, min_index: float = 0.5,
        evidence: npt.ArrayLike | None = None,
    ) -> tuple[str, float]:
        """One card name and a confidence from one outline's crops (as ``cardcrop.combine_corners``, the face
        reader's ``evidence`` weighed in as there)."""
        name, conf, _, _ = self.shares(logits, features, min_index, evidence)
        return name, conf

    def shares(
        self, logits: npt.ArrayLike, features: npt.ArrayLike, min_index: float = 0.5,
        evidence: npt.ArrayLike | None = None, colour_blind: bool = False, face: npt.ArrayLike | None = None,
        face_features: npt.ArrayLike | None = None,
    ) -> tuple[str, float, float, str | None]:
        """:meth:`combine`'s name and confidence, the confidence before the twin doubt, and the card the vote
        ranks next (as ``cardcrop.corner_shares``; where the doubt between cousins printed alike cut the share,
        the cousin the face speaks for most). ``face``: the face reader's probabilities for the outline (``evidence`` is
        what they say per card), for the doubt between cousins the deck prints alike (:data:`INDISTINCT_COUSINS`;
        None: no face read); ``face_features``: the corner classifier's features of the card's middle, which lift
        that doubt where they are the card's own enrolled face's (:data:`ALIKE_FACE_MARGIN`; None: not read), and
        name the cousin instead, still to be checked, where they are that cousin's and the vote ranks it next
        (:data:`ALIKE_FACE_SWITCH`)."""
        from vision.cardcrop import NONE_CLASS, cousin_doubted, runner_up, softmax, weighed_shares

        lg = np.asarray(logits, np.float32).reshape(-1, len(self.classes))
        p = softmax(lg)
        sims = self.similarity(features)
        seen = 1.0 - p[:, self.none_idx]
        if self.seen_similarity is not None:
            seen = np.maximum(seen, (sims.max(axis=1) >= self.seen_similarity).astype(np.float32))
        if float(seen.max()) < min_index:
            return NONE_CLASS, float(1.0 - seen.max()), float(1.0 - seen.max()), None
        w = seen * (seen >= 0.5 * float(seen.max()))
        card_logits = np.delete(lg, self.none_idx, axis=1)
        z = sims / self.temperature
        log_proto = z - z.max(axis=1, keepdims=True)
        log_proto = log_proto - np.log(np.exp(log_proto).sum(axis=1, keepdims=True))
        if self.twins_pooled:  # a card and its twin each get the mean of their two shares
            pr = np.exp(log_proto)
            log_proto = np.log(np.maximum(0.5 * (pr + pr[:, self.twin]), 1e-30))
        mix = self._vote(card_logits, log_proto, w)
        benny = self._benny if self._benny >= 0 else None
        best, share, undoubted = weighed_shares(mix, evidence, benny, self._twins, self._rank_rivals)
        rival = runner_up(mix, evidence, best)
        if self.lean is not None:
            # The deck's lean between twin suits (vision.twin_bias) taken out: where the reading then goes to
            # the twin, or is less sure, it is doubted; the name stays (a wrong lean costs a check, not a swap).
            level = self._vote(card_logits + self.lean, log_proto, w)
            other, level_share, _ = weighed_shares(level, evidence, benny, self._twins, self._rank_rivals)
            share = np.float32(min(float(share), float(level_share))) if other == best else np.float32(0.0)
            rival = rival if other == best else other
        if colour_blind:
            share, undoubted = cousin_doubted(share, undoubted, mix, evidence, best, tuple(self.card_names))
        # The card's middle against each enrolled face, once, where the deck prints a cousin of the card alike.
        face_sims = None
        if face_features is not None and self.indistinct[best]:
            face_sims = self._face_similarities(face_features)
        cousin = self._cousin_by_face(face_sims, best)
        if cousin is not None and cousin == rival:
            # Named as the corners' runner-up whose enrolled face the card's middle is: still to be checked.
            best, rival, share = cousin, best, np.float32(0.0)
        else:
            alike_share, alike_rival = self._alike_doubted(share, face, best, face_sims, mix)
            if alike_share < share:
                share, rival = alike_share, alike_rival
        return (
            self.card_names[best], float(share * seen.max()), float(undoubted * seen.max()),
            self.card_names[rival] if rival is not None else None,
        )

    def prints_alike(self, card: str) -> bool:
        """Whether the deck prints a cousin of ``card`` (a name such as ``Kd``) alike (:data:`INDISTINCT_COUSINS`);
        False for a card the profile does not hold."""
        return card in self.card_names and bool(self.indistinct[self.card_names.index(card)])

    @property
    def tells_alike_by_face(self) -> bool:
        """Whether the profile holds cousins its deck prints alike and enrolled faces to tell them apart by
        (:data:`ALIKE_FACE_MARGIN`): only then does the reader look at each card's middle with the classifier."""
        return ALIKE_FACE_MARGIN is not None and any(self.indistinct) and len(self.faces) > 0

    def _face_similarities(self, face_features: npt.ArrayLike) -> FloatArray:
        """One face's cosine similarity to each enrolled face."""
        out: FloatArray = (self._as_compared(np.asarray(face_features, np.float32).reshape(1, -1)) @ self.faces.T)[0]
        return out

    def _margin(self, sims: FloatArray, best: int, rivals: Sequence[int]) -> float | None:
        """The face's cosine similarity (``sims``: :meth:`_face_similarities`) to ``best``'s nearest enrolled face
        less that to the nearest of ``rivals``' (None where either has no enrolled face)."""
        own, other = self._nearest(sims, [best]), self._nearest(sims, rivals)
        return None if own is None or other is None else own - other

    def _nearest(self, sims: FloatArray, cards: Sequence[int]) -> float | None:
        """The face's similarity to the nearest enrolled face of ``cards`` (None where they have none)."""
        mask = np.isin(self.face_owner, list(cards))
        return float(sims[mask].max()) if mask.any() else None

    def _cousin_by_face(self, face_sims: FloatArray | None, best: int) -> int | None:
        """The cousin of ``best`` the deck prints alike whose enrolled face the card's middle is nearest of those
        cousins' (strictly) and nearer than ``best``'s by :data:`ALIKE_FACE_MARGIN` (:data:`ALIKE_FACE_SWITCH`;
        ``face_sims``: the middle's :meth:`_face_similarities`); None where there is none, no face was read or the
        rule is off. Two red cousins of a black card may both be nearer than it: its picture rules it out, and
        which of them it is rests on the corners (the caller names the cousin only where their vote ranks it
        next)."""
        alike = self.indistinct[best]
        if not alike or face_sims is None or ALIKE_FACE_MARGIN is None or not ALIKE_FACE_SWITCH:
            return None
        near = {c: v for c in alike if (v := self._nearest(face_sims, [c])) is not None}
        own = self._nearest(face_sims, [best])
        if not near or own is None:
            return None
        cousin = max(near, key=near.__getitem__)
        if any(v >= near[cousin] for c, v in near.items() if c != cousin):
            return None
        return cousin if near[cousin] - own >= ALIKE_FACE_MARGIN else None

    def _alike_doubted(
        self, share: np.float32, face: npt.ArrayLike | None, best: int, face_sims: FloatArray | None = None,
        vote: npt.ArrayLike | None = None,
    ) -> tuple[np.float32, int | None]:
        """``share`` of the card ``best`` times (1 - the face's evidence for the likeliest cousin the deck prints
        alike over its evidence for ``best``): the corners' vote between them is the classifier's lean by colour,
        so the face alone may tell them apart (:data:`INDISTINCT_COUSINS`): a number card by its pips, a court by
        the suit marks in its picture (``face_reader.alike_evidence_matrix``). Without a face read the share falls
        to nothing, as where the face speaks for the cousin, and the reading is reported to be checked (its
        confidence before the doubt stands). As it is for a card with no such cousin, and for one whose middle
        (``face_sims``: :meth:`_face_similarities` of the classifier's features of it) is nearer its own enrolled
        face than any such cousin's by :data:`ALIKE_FACE_MARGIN`: the deck's own pictures and pips tell them
        apart. Returned with the cousin the doubt weighed it against (the one the face speaks for most; without a
        face read, the one the corners' ``vote`` weighs most), None where there was no doubt."""
        alike = self.indistinct[best]
        if not alike:
            return share, None
        if face_sims is not None and ALIKE_FACE_MARGIN is not None:
            margin = self._margin(face_sims, best, alike)
            if margin is not None and margin >= ALIKE_FACE_MARGIN:
                return share, None
        if face is None:
            weights = np.asarray(vote, np.float32) if vote is not None else None
            return np.float32(0.0), max(alike, key=lambda c: float(weights[c]) if weights is not None else 0.0)
        from vision.face_reader import weighed_evidence

        e = weighed_evidence(self._alike_matrix, face)  # floored: never 0
        cousin = max(alike, key=lambda c: float(e[c]))
        ratio = min(1.0, float(e[cousin]) / float(e[best]))
        return np.float32(share * (1.0 - ratio)), cousin

    def set_lean(self, offsets: Mapping[Suit, float]) -> None:
        """Doubt readings by the deck's lean between twin suits: ``offsets`` per suit
        (``twin_bias.suit_offsets``); all zero (an even-handed classifier): no doubt, reads as without."""
        suits = [Card.parse(n).suit for n in self.card_names]  # the Joker's is None: no offset
        lean = np.asarray([offsets.get(s, 0.0) if s is not None else 0.0 for s in suits], np.float32)
        self.lean = lean if bool(np.any(lean != 0.0)) else None

    def _vote(self, card_logits: FloatArray, log_proto: FloatArray, w: FloatArray) -> FloatArray:
        """The crops' fused vote over the cards: the classifier's log-softmax of ``card_logits`` and the
        prototypes' ``log_proto`` fused per crop (or per card, :data:`PER_CARD`), weighed by ``w``."""
        from vision.cardcrop import softmax

        log_cls = card_logits - card_logits.max(axis=1, keepdims=True)
        log_cls = log_cls - np.log(np.exp(log_cls).sum(axis=1, keepdims=True))
        total = max(float(w.sum()), 1e-9)
        if self.per_card:  # each source's crops voted first, then the two votes multiplied
            mix_cls = (w[:, None] * np.exp(log_cls)).sum(axis=0) / total
            mix_proto = (w[:, None] * np.exp(log_proto)).sum(axis=0) / total
            log_mix = self.classifier_weight * np.log(mix_cls + 1e-12) + self.proto_weight * np.log(mix_proto + 1e-12)
            if self.tempered:
                log_mix = log_mix / max(self.classifier_weight + self.proto_weight, 1e-9)
            out: FloatArray = softmax(log_mix[None])[0]
            return out
        fused_log = self.classifier_weight * log_cls + self.proto_weight * log_proto
        if self.tempered:  # a weighted geometric mean: as sharp as its parts, not sharper
            fused_log = fused_log / max(self.classifier_weight + self.proto_weight, 1e-9)
        fused = softmax(fused_log)
        vote: FloatArray = (w[:, None] * fused).sum(axis=0) / total
        return vote

    @property
    def holds_benny(self) -> bool:
        """Whether the profile has the Joker enrolled (the deck holds one)."""
        return bool(self._benny >= 0 and self.enrolled[self._benny])

    @property
    def reads_benny_faces(self) -> bool:
        """Whether the profile holds the Joker's face and other cards' faces to tell it from."""
        return bool((self.face_owner == self._benny).any() and (self.face_owner != self._benny).any())

    def benny_margin(self, face_features: npt.ArrayLike) -> FloatArray:
        """Per face crop (n, width): its cosine similarity to the Joker's nearest face prototype less that
        to the nearest face of any other card (positive: it looks more like the Joker). Centred as the faces are
        where the profile compares centred features (:data:`CENTRE`)."""
        sims = self._as_compared(face_features) @ self.faces.T
        benny = self.face_owner == self._benny
        out: FloatArray = (sims[:, benny].max(axis=1) - sims[:, ~benny].max(axis=1)).astype(np.float32)
        return out

    def nearest(self, logits: npt.ArrayLike, features: npt.ArrayLike) -> tuple[str, float]:
        """As :meth:`combine` with the prototypes alone (the classifier only says which crops see an index)."""
        saved = self.classifier_weight
        self.classifier_weight = 0.0
        try:
            return self.combine(logits, features)
        finally:
            self.classifier_weight = saved


def indistinct_cousins(
    profile: DeckProfile, card_names: list[str], line: float | None = INDISTINCT_COUSINS,
    deck_share: float = ALIKE_DECK_SHARE,
) -> tuple[tuple[int, ...], ...]:
    """Per card of ``card_names``, the indices of its cousins (the same rank in the other colour's suits) whose
    enrolled corners are at least ``line`` alike (cosine similarity of the nearest two prototypes): cards the
    deck prints alike. None for a card or cousin not enrolled, and for every card where ``line`` is None or
    fewer than ``deck_share`` of the enrolled cousin pairs are alike (:data:`ALIKE_DECK_SHARE`)."""
    from vision.cardcrop import cousin_indices

    cousins = cousin_indices(tuple(card_names))
    if line is None:
        return tuple(() for _ in card_names)
    features: dict[int, FloatArray] = {}
    for card, entry in profile.cards.items():
        name = str(card)
        if name in card_names and entry.prototypes:
            rows = np.stack([_unit(p.features) for p in entry.prototypes]).astype(np.float32)
            features[card_names.index(name)] = rows
    out: list[tuple[int, ...]] = []
    pairs = 0  # enrolled cousin pairs, each counted from both ends (as ``alike`` below)
    for k, mine in enumerate(cousins):
        own = features.get(k)
        if own is None:
            out.append(())
            continue
        enrolled = [c for c in mine if c in features]
        pairs += len(enrolled)
        out.append(tuple(c for c in enrolled if float((own @ features[c].T).max()) >= line))
    alike = sum(len(cs) for cs in out)
    if not alike or alike < deck_share * pairs:
        return tuple(() for _ in card_names)
    return tuple(out)


def alike_pairs(profile: DeckProfile, line: float | None = INDISTINCT_COUSINS) -> list[tuple[Card, Card]]:
    """The pairs of cousins ``profile`` enrolled alike (:func:`indistinct_cousins`), each once, in deck order:
    what an enrolment tells the players it will ask them to check."""
    names = [str(c) for c in profile.cards]
    alike = indistinct_cousins(profile, names, line)
    return [
        (Card.parse(names[k]), Card.parse(names[c])) for k, cousins in enumerate(alike) for c in cousins if k < c
    ]


def profile_calibration_for(classifier_path: Path) -> ConfidenceCalibration | None:
    """The reading confidence refitted for reading with a profile: ``"profile_calibration"`` in the
    ``classes.json`` beside the classifier (None where there is none: the shipped one is used)."""
    from vision.calibration import ConfidenceCalibration

    path = Path(classifier_path).parent / "classes.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"{path}: cannot read the class list ({exc})") from None
    if not isinstance(data, dict) or PROFILE_CALIBRATION_KEY not in data:
        return None
    try:
        return ConfidenceCalibration.from_json(data[PROFILE_CALIBRATION_KEY], f"{path} ({PROFILE_CALIBRATION_KEY})")
    except ValueError as exc:
        raise UserError(str(exc)) from None


def profile_summary(profile: DeckProfile) -> Mapping[str, object]:
    """A few words about a profile, for a command's output."""
    return {"deck": profile.name, "cards": len(profile), "created": profile.created}
