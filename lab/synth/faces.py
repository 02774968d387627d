"""Card faces for rendering: the fetched artwork's manifest, the train/held-out deck split, and procedural faces.

Faces are BGRA uint8 images of one card, upright, with transparent rounded
corners. Fetched faces come from ``fetch_art.py``'s manifest; procedural faces
(drawn here with OpenCV) let tests and smoke runs render scenes on a machine
without the fetched artwork.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.cardcrop import CARD_CLASSES

# Decks kept out of training entirely; the synthetic test set is rendered from these only.
# Chosen to look unlike the training decks in different ways: tigullio (Italian-style court art,
# shiny KDE variant held out with it so no twin leaks into training), orell (dark ornate courts,
# cream paper), jolly-royal (giant rank letters as courts, shaded paper), neoclassical (modern art).
# The most realistic decks (cardsJS, the scanned-looking Bicycle-style ones) stay in training:
# the real photos are of such a deck and they matter most there.
HELD_OUT_DECKS = frozenset(
    {"gnome-tigullio", "kde-tigullio-international", "gnome-orell", "kde-jolly-royal", "gnome-neoclassical"}
)

# Where each deck prints its index, for labelling corner crops. Default: top-left and bottom-right.
INDEX_ALL_FOUR = frozenset({"gnome-bonded", "gnome-dondorf"})
INDEX_TOP_RIGHT = frozenset({"kde-oxygen", "kde-oxygen-air", "kde-oxygen-white"})
# Decks whose index does not fit the corner crop (tango_nuevo prints rank and suit across the whole top):
# used for the card finder, not for the classifier.
NO_CLASSIFIER = frozenset({"gnome-tango_nuevo"})

BGRA = npt.NDArray[np.uint8]


@dataclass
class FaceSet:
    """Faces by deck: ``faces[deck][card] -> BGRA image``; ``backs`` are card backs (not cards)."""

    faces: dict[str, dict[str, BGRA]] = field(default_factory=dict)
    backs: list[BGRA] = field(default_factory=list)

    def decks(self) -> list[str]:
        return sorted(self.faces)


def index_corners(deck: str) -> tuple[str, ...]:
    """Which corners (TL, TR, BR, BL) of an upright card of ``deck`` show the index."""
    if deck in INDEX_ALL_FOUR:
        return ("TL", "TR", "BR", "BL")
    if deck in INDEX_TOP_RIGHT:
        return ("TR", "BL")
    return ("TL", "BR")


def load_manifest(art_dir: Path, decks: set[str] | None = None, exclude: frozenset[str] = frozenset()) -> FaceSet:
    """Read ``art_dir/manifest.csv`` and load the faces of the chosen decks."""
    fs = FaceSet()
    with open(art_dir / "manifest.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            deck = row["deck"]
            if (decks is not None and deck not in decks) or deck in exclude:
                continue
            read = cv2.imread(str(art_dir / row["path"]), cv2.IMREAD_UNCHANGED)
            if read is None or read.ndim != 3 or read.shape[2] != 4:
                raise ValueError(f"{art_dir / row['path']}: not a BGRA image")
            img = cast(BGRA, read)  # fetch_art writes 8-bit PNGs
            if row["card"] == "back":
                fs.backs.append(img)
            else:
                fs.faces.setdefault(deck, {})[row["card"]] = img
    return fs


def rounded_mask(w: int, h: int, radius_frac: float = 0.05) -> npt.NDArray[np.uint8]:
    r = max(2, round(radius_frac * w))
    m = np.zeros((h, w), np.uint8)
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in [(r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)]:
        cv2.circle(m, (cx, cy), r, 255, -1, lineType=cv2.LINE_AA)
    return m


def draw_suit(img: BGRA, suit: str, cx: float, cy: float, size: float, color: tuple[int, ...]) -> None:
    """Draw a suit pip of height ``size`` centred at (cx, cy) with OpenCV primitives."""
    s = size / 2
    if suit == "d":
        pts = np.array([[cx, cy - s], [cx + 0.7 * s, cy], [cx, cy + s], [cx - 0.7 * s, cy]], np.int32)
        cv2.fillPoly(img, [pts], color, cv2.LINE_AA)
    elif suit == "h":
        r = 0.5 * s
        cv2.circle(img, (round(cx - r), round(cy - 0.3 * s)), round(r), color, -1, cv2.LINE_AA)
        cv2.circle(img, (round(cx + r), round(cy - 0.3 * s)), round(r), color, -1, cv2.LINE_AA)
        pts = np.array([[cx - 2 * r, cy - 0.2 * s], [cx + 2 * r, cy - 0.2 * s], [cx, cy + s]], np.int32)
        cv2.fillPoly(img, [pts], color, cv2.LINE_AA)
    elif suit == "s":
        r = 0.45 * s
        cv2.circle(img, (round(cx - r), round(cy + 0.15 * s)), round(r), color, -1, cv2.LINE_AA)
        cv2.circle(img, (round(cx + r), round(cy + 0.15 * s)), round(r), color, -1, cv2.LINE_AA)
        pts = np.array([[cx - 2 * r, cy + 0.05 * s], [cx + 2 * r, cy + 0.05 * s], [cx, cy - s]], np.int32)
        cv2.fillPoly(img, [pts], color, cv2.LINE_AA)
        stem = np.array([[cx, cy + 0.2 * s], [cx + 0.35 * s, cy + s], [cx - 0.35 * s, cy + s]], np.int32)
        cv2.fillPoly(img, [stem], color, cv2.LINE_AA)
    else:  # clubs
        r = 0.33 * s
        for dx, dy in [(0, -0.45), (-0.55, 0.15), (0.55, 0.15)]:
            cv2.circle(img, (round(cx + dx * s), round(cy + dy * s)), round(r * 1.1), color, -1, cv2.LINE_AA)
        stem = np.array([[cx, cy], [cx + 0.3 * s, cy + s], [cx - 0.3 * s, cy + s]], np.int32)
        cv2.fillPoly(img, [stem], color, cv2.LINE_AA)


def procedural_face(card: str, style: int = 0, height: int = 400) -> BGRA:
    """A plain synthetic face for ``card`` (EGN, ``B`` = Joker): index top-left and bottom-right, pips in the middle."""
    aspect = (0.714, 0.643, 0.69)[style % 3]
    w = round(height * aspect)
    img = np.zeros((height, w, 4), np.uint8)
    paper = (245, 248, 250, 255) if style % 2 == 0 else (225, 238, 244, 255)
    img[:] = paper
    half = np.zeros((height, w, 4), np.uint8)
    if card == "B":
        colour: tuple[int, ...] = (20, 20, 20, 255)
        rank_text = "JK"
    else:
        colour = (30, 30, 200, 255) if card[1] in "dh" else (20, 20, 20, 255)
        rank_text = "10" if card[0] == "T" else card[0]
    font = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX)[style % 3]
    # index drawn once on a transparent layer, then stamped top-left and (turned) bottom-right
    scale = height / 260 * (0.8 if len(rank_text) > 1 else 1.0)
    thick = max(2, round(height / 130))
    (tw, th), _ = cv2.getTextSize(rank_text, font, scale, thick)
    x0, y0 = round(0.05 * w), round(0.04 * height)
    cv2.putText(half, rank_text, (x0, y0 + th), font, scale, colour, thick, cv2.LINE_AA)
    if card != "B":
        draw_suit(half, card[1], x0 + tw / 2, y0 + th + 0.08 * height, 0.09 * height, colour)
    both = np.maximum(half, half[::-1, ::-1])
    m = both[:, :, 3:4].astype(np.float32) / 255
    img[:, :, :3] = (both[:, :, :3] * m + img[:, :, :3] * (1 - m)).astype(np.uint8)
    if card == "B":
        cv2.circle(img, (w // 2, height // 2), round(0.2 * w), (40, 40, 200, 255), -1, cv2.LINE_AA)
    elif card[0] in "JQK":
        cv2.rectangle(img, (round(0.22 * w), round(0.17 * height)), (round(0.78 * w), round(0.83 * height)),
                      (60, 120, 180, 255), -1)
        cv2.putText(img, card[0], (round(0.33 * w), round(0.6 * height)), font, height / 100, colour, thick * 2)
    else:
        n = {"7": 7, "8": 8, "9": 9, "T": 10, "A": 1}[card[0]]
        for i in range(n):
            a = 2 * math.pi * i / n
            cx = w / 2 + (0.2 * w * math.cos(a) if n > 1 else 0)
            cy = height / 2 + (0.25 * height * math.sin(a) if n > 1 else 0)
            draw_suit(img, card[1], cx, cy, (0.1 if n > 1 else 0.3) * height, colour)
    img[:, :, 3] = rounded_mask(w, height)
    return img


def procedural_faceset(styles: int = 2, height: int = 400) -> FaceSet:
    """Procedural decks (one per style), for tests and for machines without the fetched artwork."""
    fs = FaceSet()
    for s in range(styles):
        fs.faces[f"procedural-{s}"] = {c: procedural_face(c, s, height) for c in CARD_CLASSES}
    fs.backs = [procedural_back(s, height) for s in range(2)]
    return fs


def procedural_back(style: int, height: int = 400) -> BGRA:
    """A card back (a patterned card that is *not* a face): red or blue lattice on a white border."""
    w = round(height * 0.714)
    img = np.zeros((height, w, 4), np.uint8)
    img[:] = (245, 245, 245, 255)
    colour = ((40, 40, 180, 255), (150, 60, 20, 255))[style % 2]
    b = round(0.06 * w)
    cv2.rectangle(img, (b, b), (w - b, height - b), colour, -1)
    step = max(6, height // 30)
    for k in range(-height, w + height, step):
        cv2.line(img, (k, 0), (k + height, height), (230, 230, 230, 255), 1)
        cv2.line(img, (k, height), (k + height, 0), (230, 230, 230, 255), 1)
    cv2.rectangle(img, (0, 0), (w - 1, b), (245, 245, 245, 255), -1)
    img[:, :, 3] = rounded_mask(w, height)
    return img
