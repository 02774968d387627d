"""Card decks drawn from system typefaces, so the corner classifier meets many more index designs.

The fetched artwork holds about 25 training decks, so the classifier has seen
about 25 ways of printing a queen's index. A deck it never saw (a held-out
deck, the simulated table's, a pub's own) prints its own letter forms, its own
pips, and lays them out its own way: the held-out decks' queens and kings are
the ranks read worst. These decks vary the index far more widely:

- the rank in any of the machine's Latin typefaces (serif, sans, slab,
  condensed, bold, light, italic), sometimes squeezed, sometimes stroked;
- the pip from a typeface that has the suit symbols, or drawn
  (``faces.draw_suit``), at its own size;
- the pip under the rank (the common layout) or beside it, with its own
  margins; sometimes a large pip or the court picture close beside the index;
- paper tints, ink colours, and court pictures taken from the training decks'
  own court cards (their middle only, never their index).

Typefaces come from the system font folders (Debian packages such as
``fonts-urw-base35``, ``fonts-texgyre``, ``fonts-freefont-ttf``,
``fonts-linuxlibertine``; the model card lists those used), else the DejaVu Sans
bundled for the scoreboard. Nothing here is needed at run time: only the crop
generator uses it. ``python -m lab.synth.font_faces OUT.png`` draws a
contact sheet of a few such decks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np
import numpy.typing as npt

from lab.synth.faces import BGRA, FaceSet, draw_suit, rounded_mask

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont

FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
# The scoreboard's DejaVu Sans ships with the project (display/typeface.py), so every machine has at least
# one typeface that draws the ranks and the suits; a system copy of the same file is used first.
BUNDLED_FONT_DIR = Path(__file__).resolve().parents[2] / "display" / "fonts"
SUIT_CHARS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
# Typefaces whose letters are not letters (symbols, maths, icons) or not Latin.
_SKIP_WORDS = ("math", "symbol", "emoji", "dingbat", "icon", "braille", "music", "ornament", "cjk", "arab",
               "hebrew", "deva", "thai", "khmer", "ethiopic", "tifinagh", "mongolian", "tibetan", "sign")
RANK_TEXT = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
# Number-card pip positions (x, y) as shares of the card, the usual arrangement.
_PIPS = {
    7: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    8: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.5, 0.65), (0.3, 0.8), (0.7, 0.8)],
    9: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.4), (0.7, 0.4), (0.5, 0.5), (0.3, 0.6), (0.7, 0.6), (0.3, 0.8), (0.7, 0.8)],
    10: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.3), (0.3, 0.4), (0.7, 0.4), (0.3, 0.6), (0.7, 0.6), (0.5, 0.7),
         (0.3, 0.8), (0.7, 0.8)],
}


@lru_cache(maxsize=512)
def _font(path: str, size: int) -> FreeTypeFont:
    from PIL import ImageFont  # Pillow: only the crop generator (a training-time tool) draws typefaces

    return ImageFont.truetype(path, size)


def _mask(path: str, text: str, size: int, stroke: int = 0) -> npt.NDArray[np.uint8]:
    """The text's ink as an 8-bit mask cropped to its bounding box (empty where the typeface draws nothing)."""
    from PIL import Image, ImageDraw

    font = _font(path, size)
    box = [round(v) for v in font.getbbox(text, stroke_width=stroke)]
    w, h = max(1, box[2] - box[0]), max(1, box[3] - box[1])
    img = Image.new("L", (w + 4, h + 4), 0)
    ImageDraw.Draw(img).text((2 - box[0], 2 - box[1]), text, fill=255, font=font, stroke_width=stroke,
                             stroke_fill=255)
    m = np.asarray(img, np.uint8)
    ys, xs = np.nonzero(m > 40)
    if len(ys) == 0:
        return np.zeros((0, 0), np.uint8)
    return np.ascontiguousarray(m[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


def _draws(path: str, text: str) -> bool:
    """Whether the typeface has a real glyph of its own for every character of ``text``.

    A missing glyph is drawn as the typeface's box; some typefaces also map characters they lack to
    one placeholder, so every character must look different from every other.
    """
    try:
        missing = _mask(path, "\U000f0000", 64)
        masks: list[npt.NDArray[np.uint8]] = []
        for ch in text:
            m = _mask(path, ch, 64)
            if m.size == 0 or any(m.shape == o.shape and np.array_equal(m, o) for o in [missing, *masks]):
                return False
            masks.append(m)
    except OSError:
        return False
    return True


@lru_cache(maxsize=1)
def system_fonts() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(typefaces that draw the ranks, typefaces that draw all four suit symbols), as file paths."""
    by_name: dict[str, Path] = {}
    for d in (*FONT_DIRS, BUNDLED_FONT_DIR):
        if d.is_dir():
            for p in sorted(d.rglob("*")):
                if p.suffix.lower() in (".ttf", ".otf"):
                    by_name.setdefault(p.name, p)
    ranks, suits = [], []
    for p in sorted(by_name.values()):
        name = p.name.lower()
        if any(w in name for w in _SKIP_WORDS):
            continue
        path = str(p)
        if _draws(path, "10JQKA789"):
            ranks.append(path)
        if _draws(path, "".join(SUIT_CHARS.values())):
            suits.append(path)
    return tuple(ranks), tuple(suits)


@dataclass(frozen=True)
class DeckStyle:
    """One drawn deck's design: every card of it shares these."""

    aspect: float
    paper: tuple[int, int, int]
    red: tuple[int, int, int]
    black: tuple[int, int, int]
    rank_font: str
    rank_size: float  # rank glyph height, share of the card's height
    squeeze: float  # horizontal scale of the rank glyphs (condensed faces)
    stroke: int
    suit_font: str | None  # None: pips drawn with OpenCV
    index_pip: float  # index pip height over rank height
    beside: bool  # pip beside the rank rather than under it
    margin: tuple[float, float]  # index's left and top margin, shares of the card's width and height
    big_pip_by_index: bool  # a large pip close beside the index (some modern decks)
    court_frame: float  # where the court picture starts, share of the card's width from each side


def random_style(rng: np.random.Generator, pip_min: float = 0.5) -> DeckStyle:
    """A deck's look; ``pip_min`` is the smallest index pip drawn, as a share of the rank's height."""
    ranks, suits = system_fonts()
    if not ranks:
        raise RuntimeError(f"no typeface draws the ranks: {BUNDLED_FONT_DIR} lacks DejaVu Sans and no system fonts")
    base = int(rng.integers(225, 256))
    paper = (base, min(255, base + int(rng.integers(-8, 6))), min(255, base + int(rng.integers(-25, 4))))
    red = (int(rng.integers(0, 70)), int(rng.integers(0, 60)), int(rng.integers(150, 235)))  # BGR
    dark = int(rng.integers(0, 60))
    black = (dark + int(rng.integers(0, 40)), dark, dark)
    suit_font = suits[int(rng.integers(len(suits)))] if suits and rng.random() < 0.6 else None
    return DeckStyle(
        aspect=float(rng.uniform(0.64, 0.72)),
        paper=paper,
        red=red,
        black=black,
        rank_font=ranks[int(rng.integers(len(ranks)))],
        rank_size=float(rng.uniform(0.075, 0.15)),
        squeeze=float(rng.choice([1.0, 1.0, rng.uniform(0.6, 0.95), rng.uniform(1.0, 1.2)])),
        stroke=int(rng.choice([0, 0, 0, 1, 2])),
        suit_font=suit_font,
        index_pip=float(rng.uniform(pip_min, 0.95)),
        beside=bool(rng.random() < 0.18),
        margin=(float(rng.uniform(0.03, 0.09)), float(rng.uniform(0.025, 0.07))),
        big_pip_by_index=bool(rng.random() < 0.5),
        court_frame=float(rng.uniform(0.12, 0.24)),
    )


def _stamp(img: BGRA, mask: npt.NDArray[np.uint8], x: int, y: int, colour: tuple[int, int, int]) -> None:
    """Ink ``mask`` onto ``img`` at top-left (x, y), clipped to the image."""
    h, w = img.shape[:2]
    mh, mw = mask.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(w, x + mw), min(h, y + mh)
    if x1 <= x0 or y1 <= y0:
        return
    a = mask[y0 - y:y1 - y, x0 - x:x1 - x].astype(np.float32)[:, :, None] / 255.0
    roi = img[y0:y1, x0:x1, :3].astype(np.float32)
    img[y0:y1, x0:x1, :3] = (roi * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


def _pip_mask(style: DeckStyle, suit: str, height: int) -> npt.NDArray[np.uint8]:
    """A suit pip's ink, ``height`` pixels tall."""
    height = max(4, height)
    if style.suit_font is not None:
        m = _mask(style.suit_font, SUIT_CHARS[suit], 200)
        if m.size:
            size = (max(2, round(m.shape[1] * height / m.shape[0])), height)
            return np.asarray(cv2.resize(m, size, interpolation=cv2.INTER_AREA), np.uint8)
    canvas = np.zeros((height + 4, height + 4, 4), np.uint8)
    draw_suit(canvas, suit, (height + 4) / 2, (height + 4) / 2, height, (255, 255, 255, 255))
    m = canvas[:, :, 3]
    ys, xs = np.nonzero(m > 40)
    return np.ascontiguousarray(m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]) if len(ys) else m


def _rank_mask(style: DeckStyle, rank: str, height: int) -> npt.NDArray[np.uint8]:
    """The rank's ink, ``height`` pixels tall, squeezed as the deck's typeface is."""
    m = _mask(style.rank_font, RANK_TEXT[rank], 200, style.stroke * 4)
    if m.size == 0:
        return np.zeros((height, height // 2), np.uint8)
    w = max(2, round(m.shape[1] * height / m.shape[0] * style.squeeze * (0.85 if rank == "T" else 1.0)))
    return np.asarray(cv2.resize(m, (w, height), interpolation=cv2.INTER_AREA), np.uint8)


def _index_layer(style: DeckStyle, card: str, h: int, w: int) -> tuple[BGRA, int]:
    """The index drawn top-left on a transparent layer, and where it ends on the right (x)."""
    layer = np.zeros((h, w, 4), np.uint8)
    rank, suit = card[0], card[1]
    colour = style.red if suit in "dh" else style.black
    rh = round(style.rank_size * h)
    rmask = _rank_mask(style, rank, rh)
    pmask = _pip_mask(style, suit, round(rh * style.index_pip))
    x0, y0 = round(style.margin[0] * w), round(style.margin[1] * h)
    ink = np.zeros((h, w), np.uint8)
    ink[y0:y0 + rmask.shape[0], x0:x0 + rmask.shape[1]] = rmask[: h - y0, : w - x0]
    gap = max(1, round(0.12 * rh))
    if style.beside:
        px, py = x0 + rmask.shape[1] + gap, y0 + (rh - pmask.shape[0]) // 2
    else:
        px, py = x0 + (rmask.shape[1] - pmask.shape[1]) // 2, y0 + rh + gap
    px, py = max(0, px), max(0, py)
    sub = ink[py:py + pmask.shape[0], px:px + pmask.shape[1]]
    np.maximum(sub, pmask[: sub.shape[0], : sub.shape[1]], out=sub)
    layer[:, :, :3] = colour
    layer[:, :, 3] = ink
    return layer, max(x0 + rmask.shape[1], px + pmask.shape[1])


def font_face(card: str, style: DeckStyle, rng: np.random.Generator, courts: list[BGRA],
              height: int = 400) -> BGRA:
    """One face of a drawn deck: the index top-left and (turned) bottom-right, pips or a court picture between."""
    h, w = height, round(height * style.aspect)
    img = np.zeros((h, w, 4), np.uint8)
    img[:, :, :3] = style.paper
    img[:, :, 3] = 255
    rank, suit = card[0], card[1]
    colour = style.red if suit in "dh" else style.black
    layer, ix = _index_layer(style, card, h, w)
    if rank in "JQK":
        f = style.court_frame
        x0, x1 = round(f * w), round((1 - f) * w)
        y0, y1 = round(f * 0.8 * h), round((1 - f * 0.8) * h)
        if courts and rng.random() < 0.8:
            src = courts[int(rng.integers(len(courts)))]
            sh, sw = src.shape[:2]
            mid = src[round(0.2 * sh):round(0.8 * sh), round(0.22 * sw):round(0.78 * sw), :3]
            img[y0:y1, x0:x1, :3] = cv2.resize(mid, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
        else:  # a plain picture: a tinted panel with the rank letter large
            tint = tuple(int(c) for c in rng.integers(60, 230, 3))
            cv2.rectangle(img, (x0, y0), (x1, y1), (*tint, 255), -1)
            big = _rank_mask(style, rank, round(0.3 * h))
            _stamp(img, big, (w - big.shape[1]) // 2, (h - big.shape[0]) // 2, colour)
        if rng.random() < 0.7:
            cv2.rectangle(img, (x0, y0), (x1, y1), (*colour, 255), max(1, round(0.006 * h)))
    elif rank == "A":
        big = _pip_mask(style, suit, round(h * float(rng.uniform(0.18, 0.4))))
        _stamp(img, big, (w - big.shape[1]) // 2, (h - big.shape[0]) // 2, colour)
    else:
        n = {"7": 7, "8": 8, "9": 9, "T": 10}[rank]
        size = round(h * float(rng.uniform(0.1, 0.14)))
        pip = _pip_mask(style, suit, size)
        flipped = pip[::-1, ::-1]
        # the pip columns keep clear of the index, as printed decks do
        half = min(0.2 * w * float(rng.uniform(0.85, 1.0)), 0.5 * w - ix - 0.6 * pip.shape[1])
        for px, py in _PIPS[n]:
            m = flipped if py > 0.55 else pip
            cx, cy = w / 2 + (px - 0.5) / 0.2 * max(half, 0.1 * w), h * py
            _stamp(img, m, round(cx - m.shape[1] / 2), round(cy - m.shape[0] / 2), colour)
    if style.big_pip_by_index and rank in "JQKA":
        # a pip as tall as the rank or taller, just beside the index, level with the rank's top or middle
        rh = style.rank_size * h
        big = _pip_mask(style, suit, round(rh * float(rng.uniform(0.8, 1.5))))
        bx = ix + round(w * float(rng.uniform(0.0, 0.04)))
        by = round(style.margin[1] * h + (rh - big.shape[0]) / 2 * float(rng.uniform(0.0, 1.0)))
        _stamp(img, big, bx, max(0, by), colour)
        _stamp(img, big[::-1, ::-1], w - bx - big.shape[1], h - max(0, by) - big.shape[0], colour)
    both = np.maximum(layer[:, :, 3], layer[::-1, ::-1, 3])
    _stamp(img, both, 0, 0, colour)
    img[:, :, 3] = rounded_mask(w, h, float(rng.uniform(0.03, 0.08)))
    return img


def font_faceset(seed: int, decks: int, cards: tuple[str, ...], courts: list[BGRA], height: int = 400,
                 pip_min: float = 0.5) -> FaceSet:
    """``decks`` drawn decks (``font-<seed>-<k>``) of ``cards``; the same seed draws the same decks."""
    rng = np.random.default_rng([seed, 7177])
    fs = FaceSet()
    for k in range(decks):
        style = random_style(rng, pip_min)
        fs.faces[f"font-{seed}-{k}"] = {c: font_face(c, style, rng, courts, height) for c in cards if c != "B"}
    return fs


def court_pictures(fs: FaceSet) -> list[BGRA]:
    """The court faces (J, Q, K) of a face set: the drawn decks borrow their middles as pictures."""
    return [face for deck in fs.decks() for card, face in sorted(fs.faces[deck].items()) if card[0] in "JQK"]


def preview(out: Path, seed: int = 0, decks: int = 8) -> None:
    """A contact sheet of a few drawn decks (one row per deck), for looking at what the classifier is shown."""
    from vision.cardcrop import CARD_CLASSES

    fs = font_faceset(seed, decks, CARD_CLASSES, [])
    rows = []
    for deck in fs.decks():
        faces = [fs.faces[deck][c] for c in ("Qc", "Kd", "Jh", "Ts", "9d", "As", "7c", "Qh")]
        cells = [cv2.resize(f, (150, round(150 / f.shape[1] * f.shape[0])))[:160, :, :3] for f in faces]
        hmax = max(c.shape[0] for c in cells)
        rows.append(np.hstack([cv2.copyMakeBorder(c, 0, hmax - c.shape[0], 2, 2, cv2.BORDER_CONSTANT,
                                                   value=(60, 90, 60)) for c in cells]))
    wmax = max(r.shape[1] for r in rows)
    sheet = np.vstack([cv2.copyMakeBorder(r, 2, 2, 0, wmax - r.shape[1], cv2.BORDER_CONSTANT) for r in rows])
    cv2.imwrite(str(out), sheet)


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Draw a contact sheet of decks drawn from typefaces (one row a deck).")
    ap.add_argument("out", type=Path, help="PNG to write")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--decks", type=int, default=8)
    args = ap.parse_args(argv)
    preview(args.out, args.seed, args.decks)
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
