"""Synthetic overhead views of a Euchre table: cards as players leave them, with labels, deterministic from a seed.

:func:`render_scene` draws one frame: a procedural table surface (felt,
wood, cloth, carpet, printed mat), cards laid out as in play (a trick pile
with overlaps in the middle, a card near each seat, the up-card on the kitty,
a fanned hand, or a loose scatter), card backs and table clutter that are
*not* cards, hands and sleeves over the cards, a camera tilt (one homography
for the whole table), then pub lighting (uneven light, colour casts, glare,
shadows), blur, noise and JPEG artefacts.

Every face-up card whose visible part is at least ``MIN_VISIBLE`` of its area
is labelled with its four corners (TL, TR, BR, BL of the upright card, in
frame pixels, the whole card even where covered) and the box of its visible
pixels. Pure numpy + OpenCV; the same seed gives the same pixels.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, TypeVar, cast

import cv2
import numpy as np
import numpy.typing as npt

from lab.synth.faces import BGRA, FaceSet

if TYPE_CHECKING:
    from cv2.typing import MatLike

K = TypeVar("K")  # what a deck's faces are keyed by (a card, or its name)

MIN_VISIBLE = 0.25  # a card less visible than this is not labelled (too little of it to find)
MIN_IN_FRAME = 0.45  # a card cut by the frame's edge is labelled while this much of it is in the frame
MIN_EDGE_IN_FRAME = 0.25  # ... in an edge scene (``render_scene(edges=True)``), where cuts are the point
EDGE_IN_FRAME = (0.35, 0.85)  # how much of a card moved onto the frame's edge stays in the frame (roughly)
# Strip scenes label a card with less than MIN_VISIBLE showing when one of its two index corners shows whole
# enough to be read: at least INDEX_SHOWING of the corner's index region, and MIN_STRIP_VISIBLE of the card.
MIN_STRIP_VISIBLE = 0.06
INDEX_SHOWING = 0.85
INDEX_REGION = (0.2, 0.3)  # (across, down) from a corner, as fractions of the card: where its index is printed
STRIP_STEP = (0.12, 0.8)  # a strip scene's spread steps, as fractions of a card's width (hard: 0.25-0.8)
# Frame sizes (w, h): a little above the network input, so the resize to it still averages pixels.
SIZES = ((512, 384), (512, 288), (384, 512), (448, 448), (512, 320), (480, 360))
# Close-up scenes (``render_scene(closeup=True)``): a card photographed or held up near the camera, as
# large as CLOSEUP_HEIGHT of the frame's short side (log-uniform), in webcam, phone and square shapes.
CLOSEUP_HEIGHT = (0.3, 1.0)
CLOSEUP_SIZES = ((512, 288), (512, 384), (384, 512), (336, 448), (448, 448))
# Near scenes (``render_scene(near=True)``): closer still, as NEAR_HEIGHT of the short side (log-uniform), so a
# card may be taller than the frame is wide: half of them one card or two lying on a surface under a phone
# (wood, cloth, stone, a white table or the floor, the phone's shadow across them), half a card held up in
# front of a person drawn large, with a face, near a bright window (a webcam's view).
NEAR_HEIGHT = (0.5, 1.4)
NEAR_SIZES = ((384, 512), (336, 448), (512, 384), (512, 288), (448, 448))
# Laid-out scenes (``render_scene(laid_out=True)``): LAID_OUT_CARDS whole cards laid apart on a surface in rows and
# photographed from above by a phone (LAID_OUT_SIZES: a phone's shapes at the size such photos are often kept,
# as the real phone photos of ``real-photos-dev2``, 640x853), as the real photos kept aside to judge the reader lay
# 3 to 12 cards out on a table: the cards as large as the rows let them be, square to the rows or turned a little.
LAID_OUT_CARDS = (3, 12)
LAID_OUT_SIZES = ((480, 640), (640, 853), (640, 480), (853, 640), (600, 600))

Image = npt.NDArray[np.uint8]
Rng = np.random.Generator
SKIN_TONES = ((90, 120, 170), (120, 160, 210), (60, 90, 140), (40, 60, 90), (150, 180, 225))  # BGR


def _skin(rng: Rng) -> npt.NDArray[np.float32]:
    """One of :data:`SKIN_TONES` (a person's face, a hand)."""
    return np.array(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float32)


def _f32(img: MatLike) -> npt.NDArray[np.float32]:
    """What cv2 returns for a float32 image it was given: float32 (its stubs say only "a matrix")."""
    return cast(npt.NDArray[np.float32], img)


def _u8(img: MatLike) -> Image:
    """What cv2 returns for a uint8 image it was given, or decodes: uint8 (its stubs say only "a matrix")."""
    return cast(Image, img)


@dataclass
class Degradation:
    """The blurs and resolution loss :func:`degrade` gave an image (0 / 1.0 where not applied); its noise and
    JPEG artefacts are left out, as they blur nothing."""

    gaussian: float = 0.0  # defocus: the Gaussian's sigma, px
    motion: int = 0  # motion blur: the streak's length, px
    scale: float = 1.0  # resolution loss: the factor the image was shrunk by before being enlarged back

    def blur_sigma(self) -> float:
        """The sd (px) of the whole blur these effects amount to, a sharp render's own 0.5 px included: the
        Gaussian's sigma, a streak's sd (length / sqrt(12)) and a shrink's (0.4 / scale) added in quadrature."""
        total = 0.25 + self.gaussian**2 + self.motion**2 / 12.0
        if self.scale < 1.0:
            total += (0.4 / self.scale) ** 2
        return math.sqrt(total)


@dataclass
class SceneCard:
    """One labelled card: EGN name, deck, corners (4, 2) TL TR BR BL, visible fraction and visible box."""

    card: str
    deck: str
    corners: npt.NDArray[np.float32]
    visible: float
    visible_box: tuple[float, float, float, float]
    layer: int = -1  # its value in ``Scene.owner``


@dataclass
class Scene:
    image: Image  # BGR uint8
    cards: list[SceneCard] = field(default_factory=list)
    seed: int = 0
    # per pixel, what lies on top: a card's ``layer``, -1 the table, -2 a hand, -3 a card back
    owner: npt.NDArray[np.int16] | None = None
    # Face-up cards left unlabelled (too little of them showing, or cut by the frame) whose index still shows
    # whole enough to be read (``index_showing``): a reader naming one is right, and evaluation ignores it.
    readable_unlabelled: list[str] = field(default_factory=list)
    # What the camera effects did to the whole picture (blur, resolution loss), where render_scene drew it.
    degradation: Degradation | None = None
    # How the deck is printed: one of DECK_STYLES where render_scene(restyle=) reprinted it, else None (the
    # artwork as it is).
    deck_style: str | None = None


# ---------------------------------------------------------------- backgrounds


def _noise(rng: Rng, h: int, w: int, scale: float) -> npt.NDArray[np.float32]:
    """Smooth noise in -1..1 with features about ``scale`` pixels across."""
    sh, sw = max(2, round(h / scale)), max(2, round(w / scale))
    small = rng.standard_normal((sh, sw)).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(big / 2.0, -1, 1)


def _palette(rng: Rng, kind: str) -> npt.NDArray[np.float32]:
    if kind == "felt":
        base = [(40, 110, 30), (110, 60, 20), (30, 30, 140), (60, 60, 60), (30, 25, 20), (90, 40, 90), (30, 90, 90)]
    elif kind == "wood":
        base = [(40, 80, 140), (30, 60, 110), (60, 110, 170), (25, 45, 80), (90, 140, 190), (20, 30, 50)]
    elif kind == "carpet":
        base = [(60, 50, 120), (50, 80, 60), (90, 90, 90), (120, 100, 80), (40, 40, 100), (140, 140, 150)]
    else:
        base = [(200, 200, 200), (60, 140, 200), (180, 120, 60), (50, 50, 160), (120, 160, 60), (230, 220, 210)]
    c = np.array(base[rng.integers(len(base))], np.float32)
    return np.clip(c * rng.uniform(0.7, 1.3, 3), 0, 255)


def background(rng: Rng, h: int, w: int) -> Image:
    """A procedural table surface (drawn at half size, then enlarged: textures survive, time halves)."""
    full_h, full_w = h, w
    h, w = max(8, h // 2), max(8, w // 2)
    kind = str(rng.choice(["felt", "wood", "cloth", "carpet", "mat", "felt", "wood"]))
    col = _palette(rng, kind)
    if kind == "felt":
        img = col + 40 * _noise(rng, h, w, rng.uniform(40, 200))[..., None]
        img += rng.normal(0, rng.uniform(3, 10), (h, w, 1)).astype(np.float32)
    elif kind == "wood":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a = rng.uniform(0, math.pi)
        t = xx * math.cos(a) + yy * math.sin(a)
        warp = 25 * _noise(rng, h, w, rng.uniform(60, 200))
        grain = np.sin((t + warp) * rng.uniform(0.05, 0.3)) * 0.5 + 0.5
        fine = _noise(rng, h, w, 3)
        img = col * (0.7 + 0.35 * grain[..., None] + 0.08 * fine[..., None])
        plank = rng.uniform(60, 250)
        seams = (np.abs((xx * -math.sin(a) + yy * math.cos(a)) % plank) < 2).astype(np.float32)
        img *= (1 - 0.5 * seams)[..., None]
    elif kind == "cloth":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(12, 80)
        c2 = _palette(rng, "mat")
        sx = (np.sin(xx * 2 * math.pi / period) > rng.uniform(-0.5, 0.5)).astype(np.float32)
        sy = (np.sin(yy * 2 * math.pi / period) > rng.uniform(-0.5, 0.5)).astype(np.float32)
        m = 0.5 * (sx + sy)
        img = col * (1 - m[..., None]) + c2 * m[..., None]
        img += rng.normal(0, 6, (h, w, 1)).astype(np.float32)
        img = cv2.GaussianBlur(img, (0, 0), 0.8)
    elif kind == "carpet":
        img = col + 50 * _noise(rng, h, w, rng.uniform(5, 30))[..., None] * rng.uniform(0.5, 1.2, 3)
        img += rng.normal(0, 14, (h, w, 3)).astype(np.float32)
        img = _f32(cv2.GaussianBlur(img, (0, 0), 0.7))
    else:  # printed mat: a base colour with logos, rings, lines and text
        mat = np.empty((h, w, 3), np.uint8)  # drawn in 8 bits: OpenCV's text drawing needs them
        mat[:] = col.astype(np.uint8)
        for _ in range(rng.integers(3, 12)):
            c = tuple(float(v) for v in rng.uniform(0, 255, 3))
            shape = rng.integers(4)
            x, y = int(rng.integers(w)), int(rng.integers(h))
            if shape == 0:
                cv2.circle(mat, (x, y), int(rng.integers(10, 120)), c, int(rng.choice([-1, 2, 6])), cv2.LINE_AA)
            elif shape == 1:
                cv2.line(mat, (x, y), (int(rng.integers(w)), int(rng.integers(h))), c, int(rng.integers(1, 8)))
            elif shape == 2:
                text = "".join(chr(int(c)) for c in rng.integers(65, 91, rng.integers(3, 9)))
                cv2.putText(mat, text, (x, y), int(rng.integers(8)), rng.uniform(0.8, 3), c, int(rng.integers(1, 5)))
            else:
                cv2.ellipse(mat, (x, y), (int(rng.integers(10, 150)), int(rng.integers(10, 80))),
                            float(rng.uniform(0, 180)), 0, 360, c, -1, cv2.LINE_AA)
        img = mat.astype(np.float32) + rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    small = np.clip(img, 0, 255).astype(np.uint8)
    return _u8(cv2.resize(small, (full_w, full_h), interpolation=cv2.INTER_LINEAR))


def _light_surface(
    rng: Rng, h: int, w: int, grey: tuple[float, float], tint: tuple[float, float], mottle: float, scale: float
) -> Image:
    """A plain light surface (a white table, paper, a light floor): a ``grey`` level tinted per channel by
    ``tint``, mottled by up to ``mottle`` at up to ``scale`` px, and a little sensor noise."""
    base = rng.uniform(*grey) * rng.uniform(*tint, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base.astype(np.float32)
    img += mottle * _noise(rng, h, w, rng.uniform(20, scale))[..., None]
    img += rng.normal(0, 2.5, (h, w, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def room_background(rng: Rng, h: int, w: int) -> Image:
    """What lies behind a card held up to a camera: a room out of focus (walls, furniture, windows, lamps,
    and often a person), or a plain light surface (a white table, paper) for a white card on white."""
    kind = str(rng.choice(["room", "room", "person", "light"]))
    if kind == "light":
        return _light_surface(rng, h, w, (185, 250), (0.93, 1.03), 12, 120)
    def muted() -> tuple[float, float, float]:  # rooms are mostly greys, beiges and dull colours
        grey = rng.uniform(15, 235)
        tint = rng.uniform(-0.3, 0.3, 3) * (1.0 if rng.random() < 0.25 else 0.35)
        b, g, r = np.clip(grey * (1 + tint), 0, 255)
        return float(b), float(g), float(r)

    img = np.empty((h, w, 3), np.float32)
    img[:] = muted()
    for _ in range(int(rng.integers(4, 12))):  # walls, furniture, doors, shelves: big soft blocks
        x0, y0 = int(rng.integers(-w // 4, w)), int(rng.integers(-h // 4, h))
        x1, y1 = x0 + int(rng.uniform(0.1, 0.8) * w), y0 + int(rng.uniform(0.1, 0.9) * h)
        cv2.rectangle(img, (x0, y0), (x1, y1), muted(), -1)
    for _ in range(int(rng.integers(0, 4))):  # ceiling lights and window panes: bright bars
        x0, y0 = int(rng.integers(w)), int(rng.integers(h // 2))
        length, angle = rng.uniform(0.05, 0.4) * w, rng.uniform(-0.5, 0.5)
        x1, y1 = int(x0 + length * math.cos(angle)), int(y0 + length * math.sin(angle))
        cv2.line(img, (x0, y0), (x1, y1), (250.0, 250.0, 250.0), int(rng.integers(2, 9)), cv2.LINE_AA)
    if kind == "person":  # a head and shoulders behind the card
        skin = _skin(rng) * rng.uniform(0.8, 1.1)
        cx, top = rng.uniform(0.3, 0.7) * w, rng.uniform(0.0, 0.35) * h
        r = rng.uniform(0.12, 0.25) * h
        shirt = muted()
        cv2.ellipse(img, (int(cx), int(top + 2.6 * r + h)), (int(2.2 * r), int(h)), 0, 0, 360, shirt, -1)
        cv2.ellipse(img, (int(cx), int(top + r * 1.3)), (int(r * 0.8), int(r * 1.05)), 0, 0, 360,
                    tuple(float(v) for v in skin), -1, cv2.LINE_AA)
        hair = tuple(float(v) for v in rng.uniform(10, 90, 3))
        cv2.ellipse(img, (int(cx), int(top + r * 0.7)), (int(r * 0.85), int(r * 0.6)), 0, 180, 360, hair, -1)
    img = _f32(cv2.GaussianBlur(img, (0, 0), rng.uniform(2, 7)))  # the camera focuses on the card
    img += rng.normal(0, 3, (h, w, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _hold_card(rng: Rng, img: npt.NDArray[np.float32], owner: npt.NDArray[np.int16],
               quad: npt.NDArray[np.float32]) -> None:
    """Fingers and a thumb holding a card at one of its edges, drawn over it (``owner`` -2 there)."""
    h, w = owner.shape
    side = int(rng.integers(4))
    a, b = quad[side], quad[(side + 1) % 4]
    centre = quad.mean(axis=0)
    edge_len = float(np.linalg.norm(b - a))
    inward = centre - (a + b) / 2
    inward /= max(float(np.linalg.norm(inward)), 1e-6)
    card_h = float(np.linalg.norm(quad[0] - quad[3]))
    skin = _skin(rng) * rng.uniform(0.8, 1.15)
    layer = np.zeros((h, w), np.uint8)
    finger_w = max(2.0, card_h * rng.uniform(0.05, 0.08))
    angle = math.degrees(math.atan2(inward[1], inward[0]))
    t0 = rng.uniform(0.15, 0.6)
    for k in range(int(rng.integers(1, 4))):  # fingertips over the card's edge
        t = min(0.95, t0 + k * finger_w * 2.1 / max(edge_len, 1.0))
        base = a + (b - a) * t
        reach = card_h * rng.uniform(0.04, 0.16)
        tip = base + inward * reach
        mid = (base + tip) / 2 - inward * reach * 0.6
        cv2.ellipse(layer, (int(mid[0]), int(mid[1])), (int(reach * 1.1) + 1, int(finger_w)), angle, 0, 360, 255,
                    -1, cv2.LINE_AA)
    # the palm beyond the edge
    palm = (a + b) / 2 + (b - a) * rng.uniform(-0.2, 0.2) - inward * card_h * rng.uniform(0.1, 0.25)
    cv2.ellipse(layer, (int(palm[0]), int(palm[1])), (int(card_h * 0.3), int(card_h * 0.18)), angle, 0, 360, 255, -1)
    col = np.empty((h, w, 3), np.float32)
    col[:] = skin
    col += rng.standard_normal((h, w, 1), dtype=np.float32) * np.float32(6)
    alpha = cv2.GaussianBlur(layer.astype(np.float32) / 255.0, (0, 0), 1.0)[..., None]
    img[:] = img * (1 - alpha) + col * alpha
    owner[layer > 127] = -2


def low_light(rng: Rng, img: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """A dim room through a small camera: the picture darkened, then the sensor's noise and a little smear."""
    img = img * np.float32(rng.uniform(0.25, 0.6)) * rng.uniform(0.85, 1.15, 3).astype(np.float32)
    img += rng.standard_normal(img.shape, dtype=np.float32) * np.float32(rng.uniform(2, 7))
    if rng.random() < 0.6:
        img = _f32(cv2.GaussianBlur(img, (0, 0), rng.uniform(0.6, 1.6)))
    return img


# ---------------------------------------------------------------- decks unlike the artwork's


DECK_STYLES = ("dark", "tinted", "four_colour")
# Styles drawn only when asked for (``--styles``, ``frame_study --restyle``), never by default, so the sets and
# training data built before them stay as they were. ``one_ink``: dark paper with every suit in the one ink,
# hearts and diamonds gold as well: its suits told apart by their shapes alone.
MORE_STYLES = ("one_ink",)
ALL_STYLES = DECK_STYLES + MORE_STYLES
DARK_PAPER_STYLES = ("dark", "one_ink")  # printed light on dark paper
GOLD = (70.0, 175.0, 215.0)  # BGR


def _ink_alpha(bgr: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """How much of each pixel is print rather than paper (0 paper .. 1 ink), from its darkness and colour."""
    lo, hi = bgr.min(axis=2), bgr.max(axis=2)
    dark = np.clip((225.0 - lo) / 120.0, 0.0, 1.0)
    colour = np.clip((hi - lo - 30.0) / 90.0, 0.0, 1.0)
    return _f32(np.maximum(dark, colour))


def restyle_face(face: BGRA, card: str, style: str, paper: tuple[float, float, float],
                 ink: tuple[float, float, float]) -> BGRA:
    """One face printed another way, its alpha kept.

    ``dark``: dark paper (``paper``), the black print in ``ink`` (gold, silver, white), the red print a
    lighter red (a black-and-gold or a navy deck). ``one_ink``: as ``dark`` with the red print in ``ink``
    too (an all-gold deck). ``tinted``: coloured paper (``paper``), the print kept.
    ``four_colour``: white paper, diamonds in blue and clubs in green (``ink`` unused).
    """
    bgr = face[:, :, :3].astype(np.float32)
    alpha = _ink_alpha(bgr)[..., None]
    b, g, r = bgr[..., 0], bgr[..., 1], bgr[..., 2]
    red = ((r - np.maximum(g, b)) > 40)[..., None]
    out: npt.NDArray[np.float32]
    if style in DARK_PAPER_STYLES:
        light_red = np.array([90.0, 90.0, 235.0] if style == "dark" else ink, np.float32)
        ink_col = np.where(red, light_red, np.array(ink, np.float32))
        out = _f32(np.array(paper, np.float32) * (1 - alpha) + ink_col * alpha)
    elif style == "tinted":
        out = _f32(bgr * (np.array(paper, np.float32) / 255.0))
    else:
        suit = card[-1:] if card != "B" else ""
        recolour = {"d": (200.0, 90.0, 20.0), "c": (40.0, 140.0, 30.0)}.get(suit)
        out = bgr if recolour is None else _f32(bgr * (1 - alpha) + np.array(recolour, np.float32) * alpha)
    restyled = face.copy()
    restyled[:, :, :3] = np.clip(out, 0, 255).astype(np.uint8)
    return restyled


def deck_print(rng: Rng, style: str) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """The paper and ink (BGR) of one deck printed in ``style`` (:func:`restyle_face`), drawn from ``rng``:
    ``dark`` and ``one_ink``: black, navy, wine or green paper with gold, silver or white print; otherwise a
    light paper."""
    if style in DARK_PAPER_STYLES:
        darks = np.array([(15, 15, 15), (60, 25, 10), (20, 10, 60), (25, 55, 20)], np.float64)
        inks = np.array([GOLD, (200, 200, 200), (240, 240, 240)], np.float64)
        pb, pg, pr = darks[int(rng.integers(len(darks)))] * rng.uniform(0.6, 1.3)
        ib, ig, ir = inks[int(rng.integers(len(inks)))]
    else:
        pb, pg, pr = rng.uniform(170, 255, 3)
        ib = ig = ir = 0.0
    return (float(pb), float(pg), float(pr)), (float(ib), float(ig), float(ir))


def reprint_faces(faces: Mapping[K, BGRA], style: str, seed: int) -> dict[K, BGRA]:
    """Every face of a whole deck (keyed by its card, whose name ``str`` gives) printed in ``style`` (one of
    :data:`ALL_STYLES`), one paper and ink for the deck drawn from ``seed``: the table's deck printed another
    way (``lab.frame_study --restyle``, ``simulate --deck-print``)."""
    paper, ink = deck_print(np.random.default_rng(seed), style)
    return {card: restyle_face(face, str(card), style, paper, ink) for card, face in faces.items()}


def restyle_deck(rng: Rng, placements: list[Placement], styles: Sequence[str] = DECK_STYLES) -> str:
    """Print every face-up card of a scene in one style of ``styles`` (by default any of :data:`DECK_STYLES`),
    in place; returns it."""
    style = str(rng.choice(list(styles)))
    paper, ink = deck_print(rng, style)
    for p in placements:
        if p.card is not None:
            p.face = restyle_face(p.face, p.card, style, paper, ink)
    return style


# ---------------------------------------------------------------- geometry


CARD_MM = 88.9  # a poker-size card's height


@dataclass(frozen=True)
class MatPlacement:
    """Where the printed play mat lies in the (untilted) frame: its centre and scale."""

    centre: tuple[float, float]
    px_per_mm: float


_MAT_CACHE: dict[str, Image] = {}
MAT_PX_PER_MM = 2.0


def _mat_image(sheet: str) -> Image:
    if sheet not in _MAT_CACHE:
        from vision.mat import render_mat  # the product's own mat: markers, zones, labels

        _MAT_CACHE[sheet] = render_mat(sheet, px_per_mm=MAT_PX_PER_MM)
    return _MAT_CACHE[sheet]


def mat_background(rng: Rng, h: int, w: int) -> tuple[npt.NDArray[np.float32], MatPlacement]:
    """The product's printed mat (A3 or A2) lying on a table surface, filling most of the frame."""
    table = background(rng, h, w).astype(np.float32)
    sheet = "A3" if rng.random() < 0.7 else "A2"
    mat = _mat_image(sheet)
    mh, mw = mat.shape[:2]
    quarter = int(rng.integers(4))
    angle = quarter * math.pi / 2 + float(rng.normal(0, 0.06))
    # the camera sees the whole mat (markers in view) with a margin of table round it
    turned_w, turned_h = (mw, mh) if quarter % 2 == 0 else (mh, mw)
    scale = min(w / turned_w, h / turned_h) * float(rng.uniform(0.78, 0.97))
    cx, cy = w / 2 + float(rng.normal(0, 0.02 * w)), h / 2 + float(rng.normal(0, 0.02 * h))
    c, s_ = math.cos(angle) * scale, math.sin(angle) * scale
    m = np.array([[c, -s_, cx - c * mw / 2 + s_ * mh / 2], [s_, c, cy - s_ * mw / 2 - c * mh / 2]], np.float64)
    paper = np.array(rng.uniform(0.9, 1.0, 3), np.float32)  # paper tint and print darkness
    warped = cv2.warpAffine(mat.astype(np.float32) * paper, m, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpAffine(np.ones((mh, mw), np.float32), m, (w, h), flags=cv2.INTER_LINEAR)[..., None]
    img = table * (1 - mask) + warped * mask
    return img, MatPlacement((cx, cy), scale * MAT_PX_PER_MM)


def card_quad(cx: float, cy: float, ch: float, aspect: float, angle: float) -> npt.NDArray[np.float32]:
    """Corners TL, TR, BR, BL of an upright card of height ``ch`` turned by ``angle`` (radians) about (cx, cy)."""
    w, h = ch * aspect, ch
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float32)
    c, s = math.cos(angle), math.sin(angle)
    rot = np.array([[c, -s], [s, c]], np.float32)
    return (pts @ rot.T + np.array([cx, cy], np.float32)).astype(np.float32)


def frame_polygon(quad: npt.NDArray[np.float32], w: int, h: int) -> npt.NDArray[np.float32]:
    """The part of a convex outline inside the frame (w x h): a convex polygon, empty (0, 2) when none."""
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    area, poly = cv2.intersectConvexConvex(order_convex(quad), frame)
    if area <= 0 or poly is None:
        return np.zeros((0, 2), np.float32)
    return np.asarray(poly, np.float32).reshape(-1, 2)


def order_convex(quad: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The points of a convex outline in one turning order (what OpenCV's convex routines want)."""
    return np.asarray(cv2.convexHull(np.asarray(quad, np.float32)), np.float32).reshape(-1, 2)


def cut_cleanly(quad: npt.NDArray[np.float32], w: int, h: int, max_turn: float = 0.12) -> bool:
    """Whether a card runs off the frame across one edge only, its sides within ``max_turn`` (radians)
    of the frame's: then the box round its part in the frame is the card's own shape, cut."""
    out = [quad[:, 0].min() < 0, quad[:, 0].max() > w - 1, quad[:, 1].min() < 0, quad[:, 1].max() > h - 1]
    if sum(out) != 1:
        return False
    dx, dy = (quad[1] - quad[0]).astype(np.float64)
    turn = math.atan2(dy, dx) % (math.pi / 2)
    return min(turn, math.pi / 2 - turn) <= max_turn


def in_frame_fraction(quad: npt.NDArray[np.float32], w: int, h: int) -> float:
    total = abs(float(cv2.contourArea(np.asarray(quad, np.float32))))
    poly = frame_polygon(quad, w, h)
    return abs(float(cv2.contourArea(poly))) / total if total > 0 and len(poly) >= 3 else 0.0


def apply_h(hm: npt.NDArray[np.float64], pts: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    return _f32(cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float32), hm)).reshape(-1, 2)


def camera_tilt(rng: Rng, w: int, h: int, strength: float) -> npt.NDArray[np.float64]:
    """A homography from the flat table to the frame: each frame corner moved by up to ``strength`` of the size."""
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = src + rng.uniform(-strength, strength, (4, 2)).astype(np.float32) * np.array([w, h], np.float32)
    hm = cast(npt.NDArray[np.float64], cv2.getPerspectiveTransform(src, dst))  # a 3x3 float64 matrix
    return hm


# ---------------------------------------------------------------- layouts


@dataclass
class Placement:
    face: BGRA
    quad_table: npt.NDArray[np.float32]
    card: str | None  # None: a card back (not a card)
    deck: str


def _choose_faces(rng: Rng, fs: FaceSet, n: int) -> list[tuple[str, str, BGRA]]:
    decks = fs.decks()
    main = decks[int(rng.integers(len(decks)))]
    mixed = rng.random() < 0.15
    out = []
    used: set[tuple[str, str]] = set()
    for _ in range(n):
        deck = decks[int(rng.integers(len(decks)))] if mixed else main
        cards = sorted(fs.faces[deck])
        for _try in range(10):
            card = cards[int(rng.integers(len(cards)))]
            if (deck, card) not in used:
                break
        used.add((deck, card))
        out.append((deck, card, fs.faces[deck][card]))
    return out


def layout(
    rng: Rng, fs: FaceSet, w: int, h: int, mat: MatPlacement | None = None, hard: bool = False,
    strips: bool = False, closeup: bool = False, near: bool = False,
) -> list[Placement]:
    """Where the cards lie on the flat table (bottom first); on ``mat``, at its scale and round its centre.

    ``hard``: most scenes are a *spread* (2-4 cards side by side, each
    covering part of the next, as a player lays down a hand or pushes a trick
    together), and the cards may run off the frame's edge. ``strips`` (with ``hard``): the spreads may be
    tighter, down to a strip of each covered card showing, as a player fans a hand on the table.
    ``closeup``: one to three cards large in the frame (``CLOSEUP_HEIGHT``), as a card held up to a camera
    or photographed from near; mostly upright, some at any turn.
    """
    short = min(w, h)
    if near:
        return _near_layout(rng, fs, w, h)
    if closeup:
        n = int(rng.choice([1, 1, 1, 1, 1, 2, 2, 3]))
        ch = float(np.exp(rng.uniform(math.log(CLOSEUP_HEIGHT[0]), math.log(CLOSEUP_HEIGHT[1])))) * short
        if n > 1:
            ch *= 0.8
        upright = rng.random() < 0.6
        spots_c = []
        for _ in range(n):
            if upright:  # held up: near upright, now and then on its side or upside down
                quarter = float(rng.choice([0, math.pi / 2, math.pi, -math.pi / 2])) if rng.random() < 0.2 else 0.0
                a = float(rng.normal(0, 0.3)) + quarter
            else:
                a = float(rng.uniform(-math.pi, math.pi))
            spots_c.append((rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h, ch * rng.uniform(0.95, 1.05), a))
        out: list[Placement] = []
        for (deck, card, face), (cx, cy, sh, sa) in zip(_choose_faces(rng, fs, n), spots_c, strict=True):
            out.append(Placement(face, card_quad(cx, cy, sh, face.shape[1] / face.shape[0], sa), card, deck))
        return out
    ch = float(np.exp(rng.uniform(math.log(0.13), math.log(0.62)))) * short
    mode = str(rng.choice(["scatter", "table", "table", "fan", "row", "single"]))
    if hard and rng.random() < 0.7:
        mode = "spread"
    if mat is not None:
        ch = CARD_MM * mat.px_per_mm * float(rng.uniform(0.97, 1.03))
        mode = str(rng.choice(["table", "table", "table", "scatter"]))
    spots: list[tuple[float, float, float, float]] = []  # cx, cy, height, angle
    backs: list[tuple[float, float, float, float]] = []

    def jitter(s: float) -> float:
        return float(rng.normal(0, s))

    if mode == "spread":
        for _group in range(int(rng.integers(1, 3))):
            n = int(rng.integers(2, 5))
            gh = ch * rng.uniform(0.9, 1.25)
            a = rng.uniform(-math.pi, math.pi)  # the cards' turn; the spread runs along their width
            step = gh * 0.7 * rng.uniform(*(STRIP_STEP if strips else (0.25, 0.8)))
            ux, uy = math.cos(a), math.sin(a)  # along the card's width
            vx, vy = -math.sin(a), math.cos(a)  # along its height
            lo, hi = (-0.05, 1.05) if hard and rng.random() < 0.5 else (0.25, 0.75)
            cx, cy = rng.uniform(lo, hi) * w, rng.uniform(lo, hi) * h
            cx, cy = cx - ux * step * (n - 1) / 2, cy - uy * step * (n - 1) / 2
            row = []
            for i in range(n):
                dv = jitter(gh * 0.06)
                row.append((cx + ux * step * i + vx * dv, cy + uy * step * i + vy * dv, gh, a + jitter(0.05)))
            spots += row if rng.random() < 0.5 else row[::-1]  # the left card on top, or the right
    elif mode == "single":
        spots.append((rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h, ch * rng.uniform(1.0, 1.4),
                      rng.uniform(-math.pi, math.pi)))
    elif mode == "scatter":
        for _ in range(int(rng.integers(2, 7))):
            spots.append((rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h, ch * rng.uniform(0.9, 1.1),
                          rng.uniform(-math.pi, math.pi)))
    elif mode == "row":
        n = int(rng.integers(2, 6))
        a = rng.uniform(-math.pi, math.pi)
        step = ch * rng.uniform(0.35, 1.1)
        cx, cy = w / 2 - math.cos(a) * step * (n - 1) / 2, h / 2 - math.sin(a) * step * (n - 1) / 2
        rot = a + rng.choice([0, math.pi / 2, math.pi, -math.pi / 2]) + jitter(0.1)
        for i in range(n):
            spots.append((cx + math.cos(a) * step * i + jitter(3), cy + math.sin(a) * step * i + jitter(3), ch,
                          rot + jitter(0.05)))
    elif mode == "fan":
        n = int(rng.integers(2, 6))
        a0 = rng.uniform(-math.pi, math.pi)
        px, py = rng.uniform(0.35, 0.65) * w, rng.uniform(0.35, 0.65) * h
        spread = rng.uniform(0.2, 0.45)
        for i in range(n):
            a = a0 + (i - (n - 1) / 2) * spread
            # card centre half a card up from the pivot, turned by a
            cx, cy = px + math.sin(a) * ch * 0.45, py - math.cos(a) * ch * 0.45
            spots.append((cx, cy, ch, a))
    else:  # table: kitty, trick pile and seat cards, seen from above
        cx0, cy0 = w / 2 + jitter(0.05 * w), h / 2 + jitter(0.05 * h)
        if mat is not None:
            cx0, cy0 = mat.centre[0] + jitter(0.3 * ch), mat.centre[1] + jitter(0.3 * ch)
        if rng.random() < 0.4:  # the kitty: backs under the up-card
            kx, ky = cx0 + rng.uniform(-0.3, 0.3) * w, cy0 + rng.uniform(-0.3, 0.3) * h
            ka = rng.uniform(-math.pi, math.pi)
            for _ in range(int(rng.integers(1, 4))):
                backs.append((kx + jitter(3), ky + jitter(3), ch, ka + jitter(0.1)))
            if rng.random() < 0.7:
                spots.append((kx + jitter(ch * 0.05), ky + jitter(ch * 0.05), ch, ka + jitter(0.15)))
        n_trick = int(rng.integers(0, 5))
        first = int(rng.integers(4))
        for i in range(n_trick):
            seat = (first + i) % 4
            sa = seat * math.pi / 2
            off = ch * rng.uniform(0.15, 0.55)
            spots.append((cx0 + math.sin(sa) * off + jitter(ch * 0.08), cy0 + math.cos(sa) * off + jitter(ch * 0.08),
                          ch, -sa + jitter(0.35) + rng.choice([0, math.pi])))
        for seat in range(4):
            if rng.random() < 0.35:
                sa = seat * math.pi / 2
                spots.append((cx0 + math.sin(sa) * 0.38 * w + jitter(10), cy0 + math.cos(sa) * 0.38 * h + jitter(10),
                              ch, -sa + jitter(0.3)))
        if not spots:
            spots.append((cx0, cy0, ch, rng.uniform(-math.pi, math.pi)))
    if rng.random() < 0.2:  # a face-down card somewhere
        backs.append((rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h, ch, rng.uniform(-math.pi, math.pi)))
    placements: list[Placement] = []
    back_faces = fs.backs
    for bx, by, bh, ba in backs:
        if back_faces:
            bf = back_faces[int(rng.integers(len(back_faces)))]
            aspect = bf.shape[1] / bf.shape[0]
            placements.append(Placement(bf, card_quad(bx, by, bh, aspect, ba), None, "back"))
    for (deck, card, face), (cx, cy, sh, sa) in zip(_choose_faces(rng, fs, len(spots)), spots, strict=True):
        aspect = face.shape[1] / face.shape[0]
        placements.append(Placement(face, card_quad(cx, cy, sh, aspect, sa), card, deck))
    return placements


# ---------------------------------------------------------------- drawing


def _near_layout(rng: Rng, fs: FaceSet, w: int, h: int) -> list[Placement]:
    """One card or two at ``NEAR_HEIGHT`` of the frame's short side, mostly square to the frame (a photo is
    taken that way), some at any turn; two cards lie side by side, apart or overlapping a little."""
    n = 1 if rng.random() < 0.75 else 2
    ch = float(np.exp(rng.uniform(math.log(NEAR_HEIGHT[0]), math.log(NEAR_HEIGHT[1])))) * min(w, h)
    if n == 2:
        ch *= 0.7
    square = rng.random() < 0.7
    base = float(rng.choice([0.0, math.pi / 2, math.pi, -math.pi / 2])) if rng.random() < 0.35 else 0.0
    out: list[Placement] = []
    cx, cy = rng.uniform(0.35, 0.65) * w, rng.uniform(0.35, 0.65) * h
    for k, (deck, card, face) in enumerate(_choose_faces(rng, fs, n)):
        a = base + (float(rng.normal(0, 0.08)) if square else float(rng.uniform(-math.pi, math.pi)))
        aspect = face.shape[1] / face.shape[0]
        dx = (k - (n - 1) / 2) * ch * aspect * rng.uniform(0.6, 1.15)
        x = cx + dx * math.cos(base) + float(rng.normal(0, 0.03)) * w
        y = cy + dx * math.sin(base) + float(rng.normal(0, 0.03)) * h
        out.append(Placement(face, card_quad(x, y, ch * rng.uniform(0.97, 1.03), aspect, a), card, deck))
    return out


def _laid_out_layout(rng: Rng, fs: FaceSet, w: int, h: int) -> list[Placement]:
    """:data:`LAID_OUT_CARDS` whole cards laid apart in rows (the last row centred), the rows filling most of the
    frame, across it a quarter of the time; each card either way up, square to the rows or (a quarter of the
    scenes) turned a little, with more room between them."""
    n = int(rng.integers(LAID_OUT_CARDS[0], LAID_OUT_CARDS[1] + 1))
    chosen = _choose_faces(rng, fs, n)
    aspect = chosen[0][2].shape[1] / chosen[0][2].shape[0]
    across = rng.random() < 0.25  # the cards' height runs along the frame's width
    turned = rng.random() < 0.25
    gap = float(rng.uniform(1.3, 1.6) if turned else rng.uniform(1.08, 1.5))  # a cell's side over the card's
    room_w, room_h = (h, w) if across else (w, h)  # the frame measured along the cards' width and height
    ch, cols = max((min(0.92 * room_w / (c * aspect * gap), 0.92 * room_h / (math.ceil(n / c) * gap)), c)
                   for c in range(1, n + 1))  # fmt: skip
    ch *= float(rng.uniform(0.75, 1.0))
    rows = math.ceil(n / cols)
    cell_w, cell_h = ch * aspect * gap, ch * gap
    grid = (math.pi / 2 if across else 0.0) + float(rng.normal(0, 0.04))
    cos, sin = math.cos(grid), math.sin(grid)
    cx0, cy0 = w / 2 + float(rng.normal(0, 0.02)) * w, h / 2 + float(rng.normal(0, 0.02)) * h
    out: list[Placement] = []
    for k, (deck, card, face) in enumerate(chosen):
        row, col = divmod(k, cols)
        in_row = min(cols, n - row * cols)
        x = (col - (in_row - 1) / 2) * cell_w + float(rng.normal(0, 0.03)) * ch
        y = (row - (rows - 1) / 2) * cell_h + float(rng.normal(0, 0.03)) * ch
        a = grid + float(rng.normal(0, 0.2 if turned else 0.03)) + (math.pi if rng.random() < 0.5 else 0.0)
        quad = card_quad(cx0 + x * cos - y * sin, cy0 + x * sin + y * cos, ch, face.shape[1] / face.shape[0], a)
        out.append(Placement(face, quad, card, deck))
    return out


def near_surface(rng: Rng, h: int, w: int) -> Image:
    """What a card lies on when photographed from near: a table surface (:func:`background`), a white table
    or a light floor, or speckled stone (granite, terrazzo)."""
    kind = str(rng.choice(["table", "table", "light", "stone"]))
    if kind == "table":
        return background(rng, h, w)
    if kind == "light":
        return _light_surface(rng, h, w, (170, 250), (0.92, 1.04), 14, 150)
    img = np.empty((h, w, 3), np.float32)
    img[:] = (rng.uniform(40, 200) * rng.uniform(0.85, 1.1, 3)).astype(np.float32)
    for _ in range(int(rng.integers(2, 4))):  # specks of a few tones at a few sizes
        mask = _noise(rng, h, w, rng.uniform(1.0, 4.0)) > rng.uniform(0.3, 0.7)
        img[mask] = (rng.uniform(10, 245) * rng.uniform(0.9, 1.1, 3)).astype(np.float32)
    img = _f32(cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.2)))
    return np.clip(img, 0, 255).astype(np.uint8)


def office_details(rng: Rng, img: npt.NDArray[np.float32]) -> None:
    """What an office or a pub behind a webcam holds, drawn in place (float32 BGR): a window or glass
    partition in a dark frame with mullions and a transom, often a band of frosted dashes across the glass
    (the marks on a glass door), rows of ceiling strip lights, blinds, and a door frame's post. Real
    webcam photos show these sharp enough that a frame bar under a strip of dashes, cut as a card's
    corner, was read as an index; the renderer's rooms had only soft blocks and bright bars.
    """
    h, w = img.shape[:2]

    def grey(lo: float, hi: float) -> tuple[float, float, float]:
        b, g, r = rng.uniform(lo, hi) * rng.uniform(0.9, 1.08, 3)
        return float(b), float(g), float(r)

    def bar() -> int:
        return max(2, int(round(float(rng.uniform(0.006, 0.025)) * w)))

    if rng.random() < 0.8:  # a window or a glass partition in its frame
        x0, y0 = int(rng.uniform(-0.3, 0.8) * w), int(rng.uniform(-0.3, 0.4) * h)
        ww, wh = int(rng.uniform(0.25, 0.9) * w), int(rng.uniform(0.4, 1.2) * h)
        glass = grey(150, 245)
        cv2.rectangle(img, (x0, y0), (x0 + ww, y0 + wh), glass, -1)
        frame = grey(15, 90)
        cv2.rectangle(img, (x0, y0), (x0 + ww, y0 + wh), frame, bar())
        for _ in range(int(rng.integers(1, 5))):  # mullions
            x = x0 + int(rng.uniform(0.1, 0.9) * ww)
            cv2.line(img, (x, y0), (x, y0 + wh), frame, bar())
        for _ in range(int(rng.integers(0, 3))):  # transoms
            y = y0 + int(rng.uniform(0.1, 0.9) * wh)
            cv2.line(img, (x0, y), (x0 + ww, y), frame, bar())
        if rng.random() < 0.6:  # a band of dashes (or frosting) across the glass
            y = y0 + int(rng.uniform(0.2, 0.8) * wh)
            band = max(3, round(rng.uniform(0.015, 0.06) * h))
            period = max(4, round(rng.uniform(0.01, 0.05) * w))
            duty = rng.uniform(0.3, 0.7)
            light, dark = grey(200, 255), grey(20, 110)
            cv2.rectangle(img, (x0, y), (x0 + ww, y + band), light, -1)
            if rng.random() < 0.75:
                for x in range(x0, x0 + ww, period):
                    cv2.rectangle(img, (x, y), (x + max(1, round(duty * period)), y + band), dark, -1)
    for _ in range(int(rng.integers(0, 3))):  # rows of ceiling strip lights, smaller towards the back
        x, y = rng.uniform(-0.1, 0.8) * w, rng.uniform(0.0, 0.45) * h
        length, thick = rng.uniform(0.06, 0.22) * w, rng.uniform(0.006, 0.02) * h
        angle = rng.uniform(-0.35, 0.35)
        shrink, gap = rng.uniform(0.6, 0.9), rng.uniform(0.3, 1.0)
        for _ in range(int(rng.integers(2, 7))):
            x1, y1 = x + length * math.cos(angle), y + length * math.sin(angle)
            cv2.line(img, (int(x), int(y)), (int(x1), int(y1)), grey(235, 255), max(1, round(thick)), cv2.LINE_AA)
            x, y = x1 + gap * length * math.cos(angle), y1 + gap * length * math.sin(angle)
            length, thick = length * shrink, thick * shrink
    if rng.random() < 0.3:  # blinds
        x0, y0 = int(rng.uniform(-0.2, 0.8) * w), int(rng.uniform(-0.2, 0.5) * h)
        ww, wh = int(rng.uniform(0.15, 0.5) * w), int(rng.uniform(0.2, 0.6) * h)
        period = max(3, round(rng.uniform(0.008, 0.03) * h))
        light, dark = grey(150, 250), grey(40, 140)
        for y in range(y0, y0 + wh, period):
            cv2.rectangle(img, (x0, y), (x0 + ww, y + period // 2), light, -1)
            cv2.rectangle(img, (x0, y + period // 2), (x0 + ww, y + period), dark, -1)
    if rng.random() < 0.4:  # a door frame or a partition's post
        x = int(rng.uniform(0.0, 1.0) * w)
        cv2.line(img, (x, 0), (x + int(rng.uniform(-0.05, 0.05) * w), h), grey(10, 80), bar() * 2)


def person_background(rng: Rng, h: int, w: int, office: Rng | None = None) -> Image:
    """A webcam's view behind a card held up: a room with a bright window, and a person drawn large (head
    with eyes, brows, nose and mouth, hair, ears, neck, shoulders in a shirt), often lit from behind.
    ``office``: a generator of its own for :func:`office_details`, drawn behind the person (None: none)."""
    img = room_background(rng, h, w).astype(np.float32)
    if office is not None:
        office_details(office, img)
    if rng.random() < 0.6:  # a bright window with its frame
        x0, y0 = int(rng.uniform(-0.2, 0.7) * w), int(rng.uniform(-0.2, 0.3) * h)
        ww, wh = int(rng.uniform(0.2, 0.6) * w), int(rng.uniform(0.3, 0.8) * h)
        cv2.rectangle(img, (x0, y0), (x0 + ww, y0 + wh), tuple(float(v) for v in rng.uniform(215, 255, 3)), -1)
        for k in range(1, int(rng.integers(1, 4))):
            x = x0 + ww * k // 3
            cv2.line(img, (x, y0), (x, y0 + wh), tuple(float(v) for v in rng.uniform(30, 120, 3)), 3)
    skin = _skin(rng) * rng.uniform(0.8, 1.1)
    r = rng.uniform(0.22, 0.42) * h  # the head's half-height
    cx, cy = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.5) * h
    shirt = tuple(float(v) for v in rng.uniform(20, 200) * rng.uniform(0.7, 1.2, 3))
    cv2.ellipse(img, (int(cx), int(cy + 3.2 * r)), (int(2.6 * r), int(2.0 * r)), 0, 0, 360, shirt, -1)
    cv2.rectangle(img, (int(cx - 0.35 * r), int(cy + 0.6 * r)), (int(cx + 0.35 * r), int(cy + 1.5 * r)),
                  tuple(float(v) for v in skin * 0.85), -1)
    for side in (-1, 1):  # ears
        cv2.ellipse(img, (int(cx + side * 0.78 * r), int(cy + 0.05 * r)), (int(0.14 * r), int(0.25 * r)), 0, 0, 360,
                    tuple(float(v) for v in skin * 0.9), -1, cv2.LINE_AA)
    face = np.zeros((h, w), np.float32)
    cv2.ellipse(face, (int(cx), int(cy)), (int(0.78 * r), int(r)), 0, 0, 360, 1.0, -1, cv2.LINE_AA)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    shade = 1.0 - 0.25 * np.clip((xx - cx) / (0.8 * r), -1, 1) * rng.choice([-1.0, 1.0])  # lit from one side
    img = img * (1 - face[..., None]) + (skin * shade[..., None]) * face[..., None]
    hair = tuple(float(v) for v in rng.uniform(10, 110) * rng.uniform(0.7, 1.2, 3))
    cv2.ellipse(img, (int(cx), int(cy - 0.35 * r)), (int(0.82 * r), int(0.7 * r)), 0, 180, 360, hair, -1)
    if rng.random() < 0.4:  # a beard
        cv2.ellipse(img, (int(cx), int(cy + 0.45 * r)), (int(0.6 * r), int(0.55 * r)), 0, 0, 180, hair, -1)
    dark = tuple(float(v) for v in skin * 0.35)
    for side in (-1, 1):
        ex, ey = int(cx + side * 0.32 * r), int(cy - 0.05 * r)
        cv2.ellipse(img, (ex, ey), (int(0.13 * r), int(0.06 * r)), 0, 0, 360, (235.0, 235.0, 235.0), -1)
        cv2.circle(img, (ex, ey), max(1, int(0.05 * r)), (30.0, 30.0, 40.0), -1)
        cv2.line(img, (ex - int(0.15 * r), ey - int(0.17 * r)), (ex + int(0.15 * r), ey - int(0.2 * r)), hair,
                 max(1, int(0.05 * r)))
    cv2.line(img, (int(cx), int(cy)), (int(cx - 0.06 * r), int(cy + 0.3 * r)), dark, max(1, int(0.03 * r)))
    cv2.ellipse(img, (int(cx), int(cy + 0.55 * r)), (int(0.22 * r), int(0.06 * r)), 0, 0, 180,
                tuple(float(v) for v in skin * 0.6), max(1, int(0.04 * r)))
    img = _f32(cv2.GaussianBlur(img, (0, 0), rng.uniform(0.8, 3.0)))
    return np.clip(img, 0, 255).astype(np.uint8)


def _phone_shadow(rng: Rng, img: npt.NDArray[np.float32]) -> None:
    """The shadow of the phone and the hand holding it, a soft dark shape from one edge (in place)."""
    h, w = img.shape[:2]
    layer = np.zeros((h, w), np.float32)
    pts = np.array([[rng.uniform(-0.2, 1.2) * w, rng.uniform(-0.2, 1.2) * h] for _ in range(4)], np.float32)
    pts[0] = [rng.uniform(0, w), -0.1 * h] if rng.random() < 0.5 else [-0.1 * w, rng.uniform(0, h)]
    cv2.fillPoly(layer, [cv2.convexHull(pts).astype(np.int32)], 1.0, cv2.LINE_AA)
    layer = _f32(cv2.GaussianBlur(layer, (0, 0), rng.uniform(4, 25)))
    img *= 1 - rng.uniform(0.25, 0.6) * layer[..., None]


def _warp_face(face: BGRA, quad: npt.NDArray[np.float32], w: int, h: int) -> tuple[npt.NDArray[np.float32], int, int]:
    """Warp a BGRA face onto ``quad``; returns a float32 BGRA patch (alpha 0..1) and its top-left offset."""
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return np.zeros((0, 0, 4), np.float32), 0, 0
    target_h = float(np.linalg.norm(quad[3] - quad[0]))
    fh = face.shape[0]
    if target_h * 1.3 < fh:  # area-filter down first, or small cards alias
        scale = target_h * 1.3 / fh
        face = _u8(cv2.resize(face, (max(2, round(face.shape[1] * scale)), max(2, round(fh * scale))),
                              interpolation=cv2.INTER_AREA))
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(src, (quad - np.array([x0, y0], np.float32)).astype(np.float32))
    # premultiplied alpha so the transparent border does not bleed black
    f = face.astype(np.float32)
    f[:, :, :3] *= f[:, :, 3:4] / 255.0
    patch = _f32(
        cv2.warpPerspective(f, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    )
    patch[:, :, 3] /= 255.0
    return patch, int(x0), int(y0)


def _card_shading(rng: Rng, ph: int, pw: int) -> npt.NDArray[np.float32]:
    """A gentle brightness ramp across a card (curl, tilt against the light)."""
    yy, xx = np.mgrid[0:ph, 0:pw].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    t: npt.NDArray[np.float32] = (xx * math.cos(a) + yy * math.sin(a)) / max(pw, ph)
    return (1.0 + rng.uniform(-0.15, 0.1) * t).astype(np.float32)


def _draw_hand(rng: Rng, img: npt.NDArray[np.float32], owner: npt.NDArray[np.int16]) -> None:
    """A hand with a sleeve reaching in from a frame edge."""
    h, w = owner.shape
    edge = int(rng.integers(4))
    t = rng.uniform(0.1, 0.9)
    reach = rng.uniform(0.15, 0.5)
    base = [(t * w, 0), (w, t * h), (t * w, h), (0, t * h)][edge]
    inward = [(0, 1), (-1, 0), (0, -1), (1, 0)][edge]
    ang = math.atan2(inward[1], inward[0]) + rng.normal(0, 0.35)
    tip = (base[0] + math.cos(ang) * reach * min(w, h) * 1.5, base[1] + math.sin(ang) * reach * min(w, h) * 1.5)
    width = rng.uniform(0.08, 0.16) * min(w, h)
    layer = np.zeros((h, w), np.uint8)
    col_img = np.zeros((h, w, 3), np.float32)
    skin = _skin(rng) * rng.uniform(0.85, 1.15)
    sleeve = rng.uniform(10, 230, 3).astype(np.float32)
    nx, ny = -math.sin(ang), math.cos(ang)
    mid = (base[0] + (tip[0] - base[0]) * 0.6, base[1] + (tip[1] - base[1]) * 0.6)
    arm = np.array([[base[0] + nx * width, base[1] + ny * width], [mid[0] + nx * width, mid[1] + ny * width],
                    [mid[0] - nx * width, mid[1] - ny * width], [base[0] - nx * width, base[1] - ny * width]], np.int32)
    cv2.fillPoly(layer, [arm], 255, cv2.LINE_AA)
    col_img[layer > 0] = sleeve
    hand = np.zeros((h, w), np.uint8)
    hc = (mid[0] + (tip[0] - mid[0]) * 0.5, mid[1] + (tip[1] - mid[1]) * 0.5)
    axes = (int(np.linalg.norm(np.subtract(tip, mid)) * 0.6) + 1, int(width * 0.9) + 1)
    cv2.ellipse(hand, (int(hc[0]), int(hc[1])), axes, math.degrees(ang), 0, 360, 255, -1, cv2.LINE_AA)
    col_img[hand > 0] = skin
    layer = np.maximum(layer, hand)
    ys, xs = np.nonzero(layer)
    if len(xs) == 0:
        return
    pad = int(width) + 4
    x0, y0 = max(0, int(xs.min()) - pad), max(0, int(ys.min()) - pad)
    x1, y1 = min(w, int(xs.max()) + pad + 1), min(h, int(ys.max()) + pad + 1)
    lay = layer[y0:y1, x0:x1]
    col = col_img[y0:y1, x0:x1] + rng.standard_normal((y1 - y0, x1 - x0, 1), dtype=np.float32) * np.float32(5)
    a = cv2.GaussianBlur(lay.astype(np.float32) / 255.0, (0, 0), 1.2)[..., None]
    shift = int(width * 0.3)
    sh = cv2.GaussianBlur(np.roll(lay, (shift, shift), (0, 1)).astype(np.float32) / 255.0, (0, 0), width * 0.3)
    roi = img[y0:y1, x0:x1]
    roi *= 1 - 0.35 * sh[..., None]  # its shadow first
    roi[:] = roi * (1 - a) + col * a
    owner[layer > 127] = -2


def _clutter(rng: Rng, img: npt.NDArray[np.float32]) -> None:
    """Things on a pub table that are not cards: coasters, a phone, coins, paper slips."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(0, 4))):
        kind = int(rng.integers(4))
        x, y = int(rng.integers(w)), int(rng.integers(h))
        s = int(rng.uniform(0.05, 0.2) * min(w, h))
        c = tuple(float(v) for v in rng.uniform(0, 255, 3))
        if kind == 0:  # coaster
            cv2.circle(img, (x, y), s, c, -1, cv2.LINE_AA)
            cv2.circle(img, (x, y), int(s * 0.7), tuple(float(v) for v in rng.uniform(0, 255, 3)), 3, cv2.LINE_AA)
        elif kind == 1:  # phone
            box = cv2.boxPoints(((x, y), (s * 1.0, s * 2.0), float(rng.uniform(0, 180)))).astype(np.int32)
            cv2.fillPoly(img, [box], (20, 20, 25), cv2.LINE_AA)
        elif kind == 2:  # coins
            for _k in range(int(rng.integers(1, 5))):
                cv2.circle(img, (x + int(rng.integers(-20, 20)), y + int(rng.integers(-20, 20))), max(3, s // 6),
                           (60, 150, 190) if rng.random() < 0.5 else (170, 170, 170), -1, cv2.LINE_AA)
        else:  # a white paper slip (score sheet): white but not a card
            box = cv2.boxPoints(((x, y), (s * rng.uniform(1.2, 3), s * rng.uniform(0.3, 1.0)),
                                 float(rng.uniform(0, 180)))).astype(np.int32)
            cv2.fillPoly(img, [box], (235, 240, 240), cv2.LINE_AA)
            for k in range(3):
                cv2.line(img, tuple(box[0] + (0, 6 * k + 4)), tuple(box[1] + (0, 6 * k + 4)), (90, 60, 40), 1)


def photometric(rng: Rng, img: npt.NDArray[np.float32], strength: float = 1.0) -> npt.NDArray[np.float32]:
    """Pub lighting and camera effects on a float BGR image (0..255); returns float32."""
    h, w = img.shape[:2]
    # uneven light: a smooth field plus a directional ramp, then a vignette (computed small, it is smooth)
    sh, sw = max(4, h // 8), max(4, w // 8)
    field = 1.0 + strength * rng.uniform(0.1, 0.45) * _noise(rng, sh, sw, max(sh, sw) / rng.uniform(1, 3))
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    ramp = ((xx - sw / 2) * math.cos(a) + (yy - sh / 2) * math.sin(a)) / max(sw, sh)
    field *= 1.0 + strength * rng.uniform(0, 0.6) * ramp
    r2 = ((xx - sw / 2) ** 2 + (yy - sh / 2) ** 2) / ((sw / 2) ** 2 + (sh / 2) ** 2)
    field *= 1.0 - strength * rng.uniform(0, 0.35) * r2
    # colour cast: warm pub bulbs, cool daylight, green-ish fluorescent
    cast = np.array([rng.uniform(0.7, 1.1), rng.uniform(0.85, 1.1), rng.uniform(0.9, 1.3)], np.float32)
    if rng.random() < 0.3:
        cast = rng.uniform(0.8, 1.2, 3).astype(np.float32)
    gain = (1 + strength * (cast - 1)) * rng.uniform(0.55, 1.25)
    field3 = cv2.resize((field[..., None] * gain).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    img = _f32(cv2.multiply(img, field3))
    # glare: bright soft blobs (glossy cards under a lamp)
    for _ in range(int(rng.integers(0, 3)) if rng.random() < 0.5 * strength else 0):
        g = np.zeros((h, w), np.float32)
        cv2.ellipse(g, (int(rng.integers(w)), int(rng.integers(h))),
                    (int(rng.uniform(0.03, 0.2) * w), int(rng.uniform(0.02, 0.12) * h)),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        g = _f32(cv2.GaussianBlur(g, (0, 0), rng.uniform(3, 20)))
        img = img + g[..., None] * rng.uniform(60, 200)
    gamma = rng.uniform(0.75, 1.35)
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** gamma, 0, 255).astype(np.uint8)
    return cv2.LUT(np.clip(img, 0, 255).astype(np.uint8), lut).astype(np.float32)


def degrade(
    rng: Rng, img: npt.NDArray[np.float32], strength: float = 1.0, record: Degradation | None = None
) -> Image:
    """Blur (defocus or motion), resolution loss, sensor noise and JPEG artefacts; returns BGR uint8.

    ``record``, where given, is filled with the blurs done; the random draws are the same either way."""
    h, w = img.shape[:2]
    rec = record if record is not None else Degradation()
    if rng.random() < 0.35 * strength:
        rec.gaussian = float(rng.uniform(0.4, 1.8))
        img = _f32(cv2.GaussianBlur(img, (0, 0), rec.gaussian))
    if rng.random() < 0.2 * strength:
        k = int(rng.integers(3, 10))
        rec.motion = k
        kern = np.zeros((k, k), np.float32)
        kern[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        kern = _f32(cv2.warpAffine(kern, rot, (k, k)))
        kern /= max(float(kern.sum()), 1e-6)
        img = _f32(cv2.filter2D(img, -1, kern))
    if rng.random() < 0.3 * strength:
        f = rng.uniform(0.35, 0.8)
        rec.scale = float(f)
        small = cv2.resize(img, (max(8, round(w * f)), max(8, round(h * f))), interpolation=cv2.INTER_AREA)
        img = _f32(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR))
    sigma = rng.uniform(0, 9) * strength
    if sigma > 0.5:
        img = img + rng.standard_normal(img.shape, dtype=np.float32) * np.float32(sigma)
    out = np.clip(img, 0, 255).astype(np.uint8)
    q = int(rng.integers(30, 96))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return _u8(decoded) if decoded is not None else out


def index_regions(quad: npt.NDArray[np.float32]) -> list[npt.NDArray[np.float32]]:
    """The two regions of a card (corners TL TR BR BL, in the frame) where its index is printed: at its
    top-left corner and, turned, at its bottom-right."""
    out = []
    du, dv = INDEX_REGION
    for k in (0, 2):
        o, a, b = quad[k], quad[(k + 1) % 4], quad[(k + 3) % 4]  # the corner and its two neighbours
        u, v = (a - o) * du, (b - o) * dv
        out.append(np.array([o, o + u, o + u + v, o + v], np.float32))
    return out


def _note_readable(
    scene: Scene, owner: npt.NDArray[np.int16], layer: int, quad: npt.NDArray[np.float32], card: str
) -> None:
    """Add ``card`` (a face-up card left unlabelled) to ``scene.readable_unlabelled`` if its index shows."""
    if index_showing(owner, layer, quad):
        scene.readable_unlabelled.append(card)


def index_showing(owner: npt.NDArray[np.int16], layer: int, quad: npt.NDArray[np.float32]) -> bool:
    """Whether at least ``INDEX_SHOWING`` of one of the card's index regions is in the frame and shows this
    card (``owner`` is the scene's top layer per pixel; ``layer`` the card's)."""
    h, w = owner.shape
    for region in index_regions(quad):
        area = abs(float(cv2.contourArea(region)))
        if area < 1:
            continue
        x0, y0 = np.floor(region.min(axis=0)).astype(int)
        x1, y1 = np.ceil(region.max(axis=0)).astype(int) + 1
        cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if cx1 <= cx0 or cy1 <= cy0:
            continue
        mask = np.zeros((cy1 - cy0, cx1 - cx0), np.uint8)
        cv2.fillConvexPoly(mask, np.round(region - [cx0, cy0]).astype(np.int32), 1)
        shown = int(np.count_nonzero(mask & (owner[cy0:cy1, cx0:cx1] == layer)))
        if shown >= INDEX_SHOWING * area:
            return True
    return False


def _onto_edges(rng: Rng, placements: list[Placement], w: int, h: int) -> None:
    """Move one or two face-up cards (in place) so that each straddles a frame edge, keeping its turn.

    The card slides along the edge's normal only: its centre goes where roughly a fraction
    ``EDGE_IN_FRAME`` of its extent across that edge stays inside, its place along the edge is kept
    (within the middle 80%).
    """
    faces = [i for i, p in enumerate(placements) if p.card is not None]
    if not faces:
        return
    count = min(len(faces), int(rng.integers(1, 3)))
    frame = np.array([w, h], np.float64)
    for i in rng.choice(faces, size=count, replace=False):
        p = placements[int(i)]
        centre = p.quad_table.mean(axis=0).astype(np.float64)
        edge = int(rng.integers(4))  # left, right, top, bottom
        axis, along = (0, 1) if edge < 2 else (1, 0)
        reach = float(np.abs(p.quad_table[:, axis] - centre[axis]).max())  # half the card's extent across the edge
        inside = float(rng.uniform(*EDGE_IN_FRAME)) * 2 * reach
        target = centre.copy()
        target[axis] = inside - reach if edge in (0, 2) else frame[axis] - inside + reach
        target[along] = np.clip(centre[along], 0.1 * frame[along], 0.9 * frame[along])
        p.quad_table = (p.quad_table + (target - centre)).astype(np.float32)


def render_scene(
    fs: FaceSet,
    seed: int,
    size: tuple[int, int] | None = None,
    effects: float = 1.0,
    on_mat: bool = False,
    hard: bool = False,
    strips: bool = False,
    edges: bool = False,
    closeup: bool = False,
    restyle: float = 0.0,
    near: bool = False,
    stretch: float = 0.0,
    office: float = 0.0,
    styles: Sequence[str] = DECK_STYLES,
    laid_out: bool = False,
) -> Scene:
    """Render one labelled table scene from ``fs``; ``size`` is (width, height); same seed, same scene.

    ``on_mat``: the cards lie on the product's printed play mat (``vision.mat``), at its scale.
    ``hard``: mostly spreads of cards covering each other side by side (:func:`layout`), and face-up
    cards may run off the frame: such a card is labelled while at least ``MIN_IN_FRAME`` of it is
    in the frame (its corners stay the whole card's; the label writer clips them).
    ``strips`` (implies ``hard``): spreads may be tight, and a card mostly covered is still labelled when
    one of its index corners shows (:func:`index_showing`), since that is all a reader needs.
    ``edges`` (implies ``hard``): one or two face-up cards are moved onto the frame's edge at whatever
    turn they lie (a photo or a camera that cuts cards off), and a cut card is labelled while at least
    ``MIN_EDGE_IN_FRAME`` of it is in the frame.
    ``closeup``: one to three cards large in the frame (``CLOSEUP_HEIGHT`` of its short side) in front of a
    room, a person or a light surface, often held by fingers at an edge, the camera more tilted, the room
    often dim (:func:`low_light`); a card may run off the frame as in an edge scene.
    ``near`` (implies ``closeup``'s cut cards and tilt): closer still (``NEAR_HEIGHT``), a card lying under a phone
    or held up in front of a person drawn large (:func:`_near_layout`, :func:`near_surface`,
    :func:`person_background`).
    ``restyle``: the chance that the scene's cards are printed unlike any artwork (:func:`restyle_deck`:
    dark paper with gold or silver print, coloured paper, four-colour suits); drawn from a generator of
    its own, so a scene with ``restyle=0`` is the same as before the option existed. ``styles``: the styles
    a restyled deck is drawn from (default all of :data:`DECK_STYLES`; ``("dark",)``: a black-and-gold kind
    of deck in every restyled scene).
    ``stretch``: the chance that the picture's pixels are not square (:func:`stretch_scene`: a 4:3 camera's
    picture shown at 16:9, a landscape photo stored as portrait); drawn from a generator of its own, so a
    scene with ``stretch=0`` is the same as before the option existed.
    ``office``: the chance that a near scene's person, or a close-up's room, is an office with a window, lights
    and frames (:func:`office_details`); drawn from a generator of its own, so a scene with ``office=0`` is the
    same as before the option existed (a close-up's office since 2026-12-06).
    ``laid_out``: 3 to 12 whole cards laid apart in rows on a surface under a phone (:func:`_laid_out_layout`,
    :func:`near_surface`), the light now and then dim; no hand over them.
    """
    closeup = closeup or near
    hard = hard or strips or edges or closeup
    rng = np.random.default_rng(seed)
    sizes = LAID_OUT_SIZES if laid_out else NEAR_SIZES if near else CLOSEUP_SIZES if closeup else SIZES
    w, h = size if size is not None else sizes[int(rng.integers(len(sizes)))]
    tilt = camera_tilt(rng, w, h, rng.uniform(0.0, 0.28 if closeup else 0.14) * (1 if rng.random() < 0.8 else 0))
    mat: MatPlacement | None = None
    held_up = near and rng.random() < 0.5
    office_rng = np.random.default_rng([seed, 9]) if office > 0 and closeup else None
    if office_rng is not None and office_rng.random() >= office:
        office_rng = None
    if laid_out:
        img = near_surface(rng, h, w).astype(np.float32)
    elif near:
        img = (person_background(rng, h, w, office_rng) if held_up else near_surface(rng, h, w)).astype(np.float32)
    elif closeup:
        img = room_background(rng, h, w).astype(np.float32)
        if office_rng is not None:  # the room is an office, its window and lights sharper than the blurred room
            office_details(office_rng, img)
    elif on_mat:
        img, mat = mat_background(rng, h, w)
    else:
        img = background(rng, h, w).astype(np.float32)
    img = _f32(cv2.warpPerspective(img, tilt, (w, h), borderMode=cv2.BORDER_REFLECT))
    _clutter(rng, img)
    owner = np.full((h, w), -1, np.int16)
    if laid_out:
        placements = _laid_out_layout(rng, fs, w, h)
    else:
        placements = layout(rng, fs, w, h, mat, hard, strips, closeup, near)
    deck_style: str | None = None
    if restyle > 0:
        style_rng = np.random.default_rng([seed, 7])
        if style_rng.random() < restyle:
            deck_style = restyle_deck(style_rng, placements, styles)
    if edges or (closeup and rng.random() < 0.3):
        _onto_edges(rng, placements, w, h)
    cut = edges or closeup
    quads: list[npt.NDArray[np.float32]] = []
    areas: list[float] = []
    for i, p in enumerate(placements):
        quad = apply_h(tilt, p.quad_table)
        # keep face-up cards inside the frame; hard scenes let one run off a single edge it lies square to
        if p.card is not None and not cut and not (hard and cut_cleanly(quad, w, h)):
            lo = np.maximum(0.0, -quad.min(axis=0))
            hi = np.maximum(0.0, quad.max(axis=0) - np.array([w - 1, h - 1], np.float32))
            quad = (quad + lo - hi).astype(np.float32)
        quads.append(quad)
        areas.append(abs(float(cv2.contourArea(quad))))
        patch, x0, y0 = _warp_face(p.face, quad, w, h)
        if patch.size == 0:
            continue
        ph, pw = patch.shape[:2]
        alpha = patch[:, :, 3:4]
        roi = img[y0:y0 + ph, x0:x0 + pw]
        # a soft shadow to one side (cards have thickness, lamps are above)
        if rng.random() < 0.8:
            sd = max(1, round(min(pw, ph) * rng.uniform(0.01, 0.04)))
            sh = np.roll(alpha[:, :, 0], (sd, sd), (0, 1))
            sh = _f32(cv2.GaussianBlur(sh, (0, 0), max(0.8, sd)))
            roi *= 1 - rng.uniform(0.15, 0.45) * sh[..., None]
        colour = patch[:, :, :3] * _card_shading(rng, ph, pw)[..., None] * rng.uniform(0.85, 1.05)
        roi[:] = roi * (1 - alpha) + colour  # premultiplied
        idx = i if p.card is not None else -3
        sub = owner[y0:y0 + ph, x0:x0 + pw]
        sub[alpha[:, :, 0] > 0.5] = idx
    if near and not held_up:
        if rng.random() < 0.5:
            _phone_shadow(rng, img)
    elif closeup:
        for i, p in enumerate(placements):
            if p.card is not None and (held_up or rng.random() < 0.5):
                _hold_card(rng, img, owner, quads[i])
    elif not laid_out and rng.random() < 0.3 * effects:
        for _ in range(int(rng.integers(1, 3))):
            _draw_hand(rng, img, owner)
    img = photometric(rng, img, effects)
    if closeup and rng.random() < (0.3 if near and not held_up else 0.45) or laid_out and rng.random() < 0.2:
        img = low_light(rng, img)
    done = Degradation()
    out = degrade(rng, img, effects, record=done)
    scene = Scene(out, [], seed, owner, degradation=done, deck_style=deck_style)
    for i, p in enumerate(placements):
        if p.card is None or areas[i] < 1:
            continue
        ys, xs = np.nonzero(owner == i)
        vis = len(xs) / areas[i]
        q = quads[i]
        if vis < MIN_VISIBLE and not (strips and vis >= MIN_STRIP_VISIBLE and index_showing(owner, i, q)):
            _note_readable(scene, owner, i, q, str(p.card))
            continue
        if hard:
            if in_frame_fraction(q, w, h) < (MIN_EDGE_IN_FRAME if cut else MIN_IN_FRAME):
                _note_readable(scene, owner, i, q, str(p.card))
                continue
        # the whole outline must be (nearly) in frame, or its corners cannot be labelled
        elif (q[:, 0].min() < -0.02 * w or q[:, 1].min() < -0.02 * h or q[:, 0].max() > 1.02 * w
                or q[:, 1].max() > 1.02 * h):
            _note_readable(scene, owner, i, q, str(p.card))
            continue
        box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
        scene.cards.append(SceneCard(str(p.card), p.deck, q.astype(np.float32), float(min(vis, 1.0)), box, i))
    if stretch > 0:
        stretch_rng = np.random.default_rng([seed, 8])
        if stretch_rng.random() < stretch:
            factor = float(np.exp(stretch_rng.uniform(np.log(STRETCH_RANGE[0]), np.log(STRETCH_RANGE[1]))))
            across = stretch_rng.random() < 0.5
            scene = stretch_scene(scene, (factor, 1.0) if across else (1.0, factor))
    return scene


# How much longer one side of a stretched picture is drawn than it was seen (log-uniform): 4:3 shown at 16:9
# is 1.33; a 4:3 landscape photo stored as 3:4 portrait stretches its height 1.33 and squeezes its width 0.75,
# 1.78 between them.
STRETCH_RANGE = (1.1, 1.8)


def stretch_scene(scene: Scene, factors: tuple[float, float]) -> Scene:
    """``scene`` with its picture resized by (x, y) ``factors``, its labels, owner map and boxes with it."""
    h, w = scene.image.shape[:2]
    fx, fy = factors
    size = (max(1, round(w * fx)), max(1, round(h * fy)))
    sx, sy = size[0] / w, size[1] / h
    image = np.asarray(cv2.resize(scene.image, size, interpolation=cv2.INTER_LINEAR), np.uint8)
    owner = None
    if scene.owner is not None:
        owner = np.asarray(cv2.resize(scene.owner, size, interpolation=cv2.INTER_NEAREST), np.int16)
    scale = np.array([sx, sy], np.float32)
    cards = [
        replace(
            c,
            corners=(c.corners * scale).astype(np.float32),
            visible_box=(c.visible_box[0] * sx, c.visible_box[1] * sy, c.visible_box[2] * sx, c.visible_box[3] * sy),
        )
        for c in scene.cards
    ]
    return replace(scene, image=image, cards=cards, owner=owner)
