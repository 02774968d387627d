"""The corner-index crop recipe shared by classifier training and inference (numpy + OpenCV only).

A card found by the oriented-box detector is described by its four corners
in frame pixels. This module puts the card upright (long side vertical),
cuts out its four corners as small RGB crops in which the corner index
(rank over suit pip) reads upright, normalises each crop by its own paper
white, and turns the classifier's per-corner answers into one card name.

The index of a real card sits in the top-left corner and, turned 180
degrees, in the bottom-right; a few decks print it in all four corners or
top-right/bottom-left. Because the two indices are 180 degrees apart, the
upright card's remaining 180-degree ambiguity does not matter: the same four
crops come out either way, only in a different order.

Training (``lab/synth/crops.py``) and inference (``vision/onnx_detector``
and friends) both call :func:`corner_crops`, so the network always sees
exactly the pixels it was trained on.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from table.cards import Card, Suit

CROP_H = 64
CROP_W = 48
# The corner region in card coordinates (u across, v down, 0..1 over the card).
# Indices occupy up to ~20% of the width and ~32% of the height; the small
# negative margin keeps an index whole when the detector's box is a little tight.
U0, U1 = -0.03, 0.36
V0, V1 = -0.025, 0.34
CORNER_NAMES = ("TL", "TR", "BR", "BL")
# refine_quad accepts a found card outline whose area is within this ratio of the finder's box
# (the finder's boxes tend to be loose, rarely tight)
REFINE_AREA = (0.35, 1.5)

SUITS = "cdhs"
RANKS = "789TJQKA"
CARD_CLASSES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + ("B",)
NONE_CLASS = "none"
JOKER = "B"  # the Joker's (the Benny's) class
CLASSIFIER_CLASSES: tuple[str, ...] = (*CARD_CLASSES, NONE_CLASS)

FloatArray = npt.NDArray[np.float32]


def obb_to_corners(cx: float, cy: float, w: float, h: float, angle: float) -> FloatArray:
    """Ultralytics ``xywhr`` (angle in radians) to four corner points, shape (4, 2)."""
    c, s = math.cos(angle), math.sin(angle)
    v1 = np.array([w / 2 * c, w / 2 * s], np.float32)
    v2 = np.array([-h / 2 * s, h / 2 * c], np.float32)
    ctr = np.array([cx, cy], np.float32)
    return np.stack([ctr + v1 + v2, ctr + v1 - v2, ctr - v1 - v2, ctr - v1 + v2]).astype(np.float32)


def order_corners(quad: npt.ArrayLike) -> FloatArray:
    """Order four corner points as TL, TR, BR, BL of the upright card (short edge first, clockwise on screen)."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    ctr = q.mean(axis=0)
    ang = np.arctan2(q[:, 1] - ctr[1], q[:, 0] - ctr[0])
    q = q[np.argsort(ang)]  # increasing angle with y down = clockwise on screen
    e01 = float(np.linalg.norm(q[1] - q[0]))
    e12 = float(np.linalg.norm(q[2] - q[1]))
    if e01 > e12:  # make edge 0->1 a short (top) edge
        q = np.roll(q, -1, axis=0)
    # Of the two upright choices (180 degrees apart), start at the one nearer the frame's top-left:
    # it makes the order deterministic; the crops are the same set either way.
    if q[2].sum() < q[0].sum():
        q = np.roll(q, -2, axis=0)
    return q.astype(np.float32)


def _region_homography(
    quad: FloatArray, u0: float, u1: float, v0: float, v1: float, size: tuple[int, int] = (CROP_W, CROP_H)
) -> npt.NDArray[np.float64]:
    """Homography from the pixels of a picture of ``size`` (width, height; default a crop's) to frame pixels
    for the card region [u0,u1] x [v0,v1]."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    card = cv2.getPerspectiveTransform(unit, quad.astype(np.float32))  # card (u, v) -> frame
    crop_to_uv = np.array(
        [[(u1 - u0) / size[0], 0, u0], [0, (v1 - v0) / size[1], v0], [0, 0, 1]], np.float64
    )  # crop pixel (x, y) -> (u, v); pixel centres handled by OpenCV's convention
    h: npt.NDArray[np.float64] = card @ crop_to_uv
    return h


def normalise_crop(crop_bgr: npt.NDArray[np.uint8]) -> FloatArray:
    """BGR uint8 crop (H, W, 3) -> RGB float32 (3, H, W), each channel divided by its paper white (90th pct)."""
    x = crop_bgr.astype(np.float32)
    white = np.percentile(x.reshape(-1, 3), 90, axis=0)
    white = np.maximum(white, 25.0)
    x = np.clip(x / white, 0.0, 1.2)
    return np.ascontiguousarray(x[:, :, ::-1].transpose(2, 0, 1))


def _shrunk_around(
    frame: npt.NDArray[np.uint8], q: FloatArray, factor: float
) -> tuple[npt.NDArray[np.uint8], FloatArray]:
    """The part of ``frame`` round outline ``q`` shrunk by ``factor`` (area filter), and ``q`` in its pixels
    (a big card would alias when warped straight down to a crop); the frame unchanged where that part is
    too small."""
    x0, y0 = np.floor(q.min(axis=0)).astype(int) - 4
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + 4
    fh, fw = frame.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(fw, x1), min(fh, y1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return frame, q
    sub = frame[y0:y1, x0:x1]
    new_w = max(2, round((x1 - x0) / factor))
    new_h = max(2, round((y1 - y0) / factor))
    small = cast(npt.NDArray[np.uint8], cv2.resize(sub, (new_w, new_h), interpolation=cv2.INTER_AREA))
    sx, sy = new_w / (x1 - x0), new_h / (y1 - y0)
    return small, np.stack([(q[:, 0] - x0) * sx, (q[:, 1] - y0) * sy], axis=1).astype(np.float32)


def corner_crops_bgr(
    frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike, corners: Sequence[int] = (0, 1, 2, 3)
) -> list[npt.NDArray[np.uint8]]:
    """The corner crops (TL, TR, BR, BL; or those of ``corners``, indices into that order, in their
    order) as upright BGR uint8 images of CROP_H x CROP_W."""
    frame, q = _upright_source(frame_bgr, quad, V1 - V0)
    turned = np.roll(q, -2, axis=0)  # the same card seen upside down: its TL is our BR
    regions = [
        (q, U0, U1, V0, V1),  # TL
        (q, 1 - U1, 1 - U0, V0, V1),  # TR
        (turned, U0, U1, V0, V1),  # BR, turned 180 degrees
        (turned, 1 - U1, 1 - U0, V0, V1),  # BL, turned 180 degrees
    ]
    return [_cut_region(frame, *regions[k]) for k in corners]


def _upright_source(
    frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike, v_span: float
) -> tuple[npt.NDArray[np.uint8], FloatArray]:
    """The frame to cut a crop of ``v_span`` of the card's height from, and the card's ordered corners in
    it: a big card would alias when warped straight down to CROP_H px, so the frame round it is shrunk
    first (area filter)."""
    q = order_corners(quad)
    long_side = max(float(np.linalg.norm(q[3] - q[0])), float(np.linalg.norm(q[2] - q[1])))
    factor = v_span * long_side / CROP_H
    if factor > 1.5:
        return _shrunk_around(frame_bgr, q, factor)
    return frame_bgr, q


def _cut_region(
    frame: npt.NDArray[np.uint8], q: FloatArray, u0: float, u1: float, v0: float, v1: float
) -> npt.NDArray[np.uint8]:
    """The card region [u0,u1] x [v0,v1] of the card with ordered corners ``q``, as a CROP_H x CROP_W image."""
    h = _region_homography(q, u0, u1, v0, v1)
    crop = cv2.warpPerspective(
        frame, h, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE,
    )
    return cast(npt.NDArray[np.uint8], crop)  # warped from a uint8 frame


def refine_quad(frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike) -> FloatArray:
    """Snap a rough card outline to the card's paper edge where the image shows it clearly.

    The finder's oriented box can be a few degrees or pixels off, and the
    corner crops are small. Cards are white paper: in a window around the
    outline, the brightest-and-greyest pixels (the minimum of B, G, R, Otsu
    threshold) that overlap the outline form the card; its convex outline (a
    4-point polygon where it has one, else the minimum-area rectangle)
    replaces the rough one when it is card-shaped and agrees with it in
    place and size. Otherwise (a card on white paper, two cards touching) the
    rough outline is returned unchanged, ordered.
    """
    q = order_corners(quad)
    snapped = snapped_outline(frame_bgr, q)
    return q if snapped is None else snapped


def snapped_outline(
    frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike, dark_paper: bool = False,
    area: tuple[float, float] = REFINE_AREA,
) -> FloatArray | None:
    """:func:`refine_quad`'s snapped outline, or None where it cannot snap. ``dark_paper``: the card is the
    darkest-and-greyest pixels instead (the maximum of B, G, R under its Otsu threshold), for a card printed
    light on dark paper, whose light print and pictures the white-paper look takes for the card. ``area``: the
    snapped outline's area over the box's, the range accepted."""
    q = order_corners(quad)
    fh, fw = frame_bgr.shape[:2]
    long_side = max(float(np.linalg.norm(q[3] - q[0])), float(np.linalg.norm(q[1] - q[0])), 1.0)
    pad = 0.3 * long_side
    x0, y0 = (np.floor(q.min(axis=0) - pad)).astype(int)
    x1, y1 = (np.ceil(q.max(axis=0) + pad)).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(fw, x1), min(fh, y1)
    if x1 - x0 < 16 or y1 - y0 < 16:
        return None
    roi = frame_bgr[y0:y1, x0:x1]
    # work at ~160 px on the long side: enough for the edge, cheap
    scale = min(1.0, 160.0 / max(roi.shape[:2]))
    if scale < 1.0:
        small = cv2.resize(roi, (max(8, round(roi.shape[1] * scale)), max(8, round(roi.shape[0] * scale))),
                           interpolation=cv2.INTER_AREA)
        roi = cast(npt.NDArray[np.uint8], small)
    # the darkest channel per pixel, or on dark paper the brightest (OpenCV's per-element min and max: numpy's
    # reduction over the channel axis is several times slower on these small images, and the result is the same)
    if dark_paper:
        channel = cv2.max(cv2.max(roi[:, :, 0], roi[:, :, 1]), roi[:, :, 2])
    else:
        channel = cv2.min(cv2.min(roi[:, :, 0], roi[:, :, 1]), roi[:, :, 2])
    grey = cv2.GaussianBlur(channel, (3, 3), 0)
    polarity = cv2.THRESH_BINARY_INV if dark_paper else cv2.THRESH_BINARY
    _, otsu = cv2.threshold(grey, 0, 255, polarity + cv2.THRESH_OTSU)
    k = max(3, round(0.04 * long_side * scale) | 1)
    closed = cv2.morphologyEx(otsu, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = cast(npt.NDArray[np.uint8], closed)
    local = ((q - np.array([x0, y0], np.float32)) * scale).astype(np.float32)
    det_mask = np.zeros_like(mask)
    cv2.fillPoly(det_mask, [np.round(local).astype(np.int32)], 255)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    bx, by, bw, bh = cv2.boundingRect(np.round(local).astype(np.int32))
    best, best_overlap = None, 0
    for c in contours:
        # each blob filled within its own bounding box only (the threshold leaves many specks)
        x, y, w, h = cv2.boundingRect(c)
        if x >= bx + bw or bx >= x + w or y >= by + bh or by >= y + h:
            continue  # no pixel of it inside the box
        m = np.zeros((h, w), np.uint8)
        cv2.drawContours(m, [c], -1, 255, -1, offset=(-x, -y))
        overlap = int(np.count_nonzero(m & det_mask[y : y + h, x : x + w]))
        if overlap > best_overlap:
            best, best_overlap = c, overlap
    if best is None:
        return None
    hull = cv2.convexHull(best)
    hull_area = float(cv2.contourArea(hull))
    det_area = float(cv2.contourArea(local))
    if det_area <= 0 or not area[0] <= hull_area / det_area <= area[1]:
        return None
    approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
    cand = approx.reshape(-1, 2).astype(np.float32) if len(approx) == 4 else cv2.boxPoints(cv2.minAreaRect(hull))
    cand_area = abs(float(cv2.contourArea(cand.astype(np.float32))))
    if cand_area <= 0 or hull_area / cand_area < 0.9:  # not a clean quadrilateral blob
        return None
    cand = order_corners(cand)
    short = min(float(np.linalg.norm(cand[1] - cand[0])), float(np.linalg.norm(cand[2] - cand[3])))
    long_ = max(float(np.linalg.norm(cand[3] - cand[0])), float(np.linalg.norm(cand[2] - cand[1])))
    if long_ <= 0 or not 0.55 <= short / long_ <= 0.85:
        return None
    if float(np.linalg.norm(cand.mean(axis=0) - local.mean(axis=0))) > 0.2 * long_side * scale:
        return None
    return order_corners(cand / scale + np.array([x0, y0], np.float32))


# Outline hypotheses tried per card (scale about the centre): the finder's boxes run loose more often than tight.
HYPOTHESIS_SCALES = (1.0, 0.88)


def outline_hypotheses(
    frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike, refine: bool = True, snapped: FloatArray | None = None
) -> list[FloatArray]:
    """The outlines whose corners are classified for one finder box.

    With ``refine``, the snapped outline (``snapped`` where the caller snapped it, else :func:`refine_quad`;
    the box itself where it cannot snap), then the box at each of :data:`HYPOTHESIS_SCALES`.
    The count is fixed, so every card gets the same number of crops.
    """
    q = order_corners(quad)
    out: list[FloatArray] = []
    if refine:
        out.append(refine_quad(frame_bgr, q) if snapped is None else snapped)
    ctr = q.mean(axis=0)
    out += [((q - ctr) * s + ctr).astype(np.float32) for s in HYPOTHESIS_SCALES]
    return out


# A card whose paper is darker than its print (a black-and-gold deck, a navy one): the median lightness of
# its margin is under this share of its brightest print's. White paper keeps its margin near the top, even
# in a dim room or round a dark court picture.
DARK_PAPER_RATIO = 0.4
# The paper is judged on this many bands round the card's edge, each a step further in (the margin, then two
# more within it, each about 7% of the card's height and width; together they reach about a fifth in):
# the card is dark where the margin is under DARK_PAPER_RATIO, or a band within it under DARK_INNER_RATIO.
# The finder's outline of a dark card on a light mat is often a few percent loose, and a loose outline's
# margin is the mat: at the simulated table 32% of a dark deck's outlined cards were judged dark on the margin
# alone. The bands within are held to a stricter ratio because a pile of cards face down, a white margin
# round a dense pattern, comes down to 0.37 there (read turned over, it was named a king and a queen of spades).
# Courts' pictures and pips lie further in than the bands reach on the decks measured (model card,
# "How a frame is read").
DARK_BANDS = 3
DARK_INNER_RATIO = 0.3


def _card_lightness(
    frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike, lo: float, hi: float, size: tuple[int, int]
) -> tuple[FloatArray, float] | None:
    """The card's region [lo, hi] across and down as a grey picture of ``size`` (width, height), and its
    brightest print's lightness (97th percentile); None where even that is too dark to judge paper by."""
    h = _region_homography(order_corners(quad), lo, hi, lo, hi, size)
    face = cv2.warpPerspective(frame_bgr, h, size, flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
    light = cv2.cvtColor(cast(npt.NDArray[np.uint8], face), cv2.COLOR_BGR2GRAY).astype(np.float32)
    top = float(np.percentile(light, 97))
    return None if top < 40.0 else (light, top)


def is_dark_card(frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike) -> bool:
    """Whether the card inside ``quad`` is printed light on dark paper (see :data:`DARK_PAPER_RATIO` and
    :data:`DARK_BANDS`)."""
    looked = _card_lightness(frame_bgr, quad, 0.02, 0.98, (40, 56))
    if looked is None:
        return False
    light, top = looked
    for k in range(DARK_BANDS):
        # band k: 4 rows top and bottom and 3 columns each side, k such steps in from the edge
        inner = light[4 * k : 56 - 4 * k, 3 * k : 40 - 3 * k]
        band = np.concatenate(
            [inner[:4].ravel(), inner[-4:].ravel(), inner[4:-4, :3].ravel(), inner[4:-4, -3:].ravel()]
        )
        if float(np.median(band)) < (DARK_PAPER_RATIO if k == 0 else DARK_INNER_RATIO) * top:
            return True
    return False


# A dark card's outline snapped to its dark paper covers most of the finder's box (a loose box is at most a
# few percent too large each side); a smaller dark blob inside the box is a picture or pips, not the card.
DARK_SNAP_AREA = (0.65, REFINE_AREA[1])
# The ring just inside a snapped outline, as a share of the card's height and width: a court's picture can
# reach this near the edge (a deck whose pictures fill the face), but the paper always shows round it.
DARK_EDGE = (0.01, 0.04)


def _dark_edge(frame_bgr: npt.NDArray[np.uint8], quad: FloatArray) -> bool:
    """Whether the thin ring of paper just inside ``quad`` (:data:`DARK_EDGE`) is dark: its median lightness
    under :data:`DARK_PAPER_RATIO` of the card's brightest print."""
    looked = _card_lightness(frame_bgr, quad, 0.0, 1.0, (80, 112))
    if looked is None:
        return False
    light, top = looked
    h, w = light.shape
    (x0, y0), (x1, y1) = [(round(f * w), round(f * h)) for f in DARK_EDGE]
    ring = np.zeros(light.shape, bool)
    ring[y0:y1, x0 : w - x0] = ring[h - y1 : h - y0, x0 : w - x0] = True
    ring[y0 : h - y0, x0:x1] = ring[y0 : h - y0, w - x1 : w - x0] = True
    return float(np.median(light[ring])) < DARK_PAPER_RATIO * top


def judged_outline(
    frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike, refine: bool = True
) -> tuple[list[FloatArray], bool]:
    """The outlines whose corners are read for one finder box (:func:`outline_hypotheses`), and whether the
    card is printed light on dark paper (:func:`is_dark_card`).

    With ``refine``, the box is also snapped as a dark card (:func:`snapped_outline` with ``dark_paper``), and
    where that outline's paper is dark it stands for the card: it is the first hypothesis, and the card is
    dark. The white-paper snap cannot find a dark card (its light print and pictures are what it takes for
    paper), and the finder's box round a dark card on a light mat runs loose (model card, "How a frame is
    read"): judged on the loose box, the margin is the mat.
    """
    q = order_corners(quad)
    if refine:
        snapped = snapped_outline(frame_bgr, q, dark_paper=True, area=DARK_SNAP_AREA)
        if snapped is not None and (is_dark_card(frame_bgr, snapped) or _dark_edge(frame_bgr, snapped)):
            return outline_hypotheses(frame_bgr, q, snapped=snapped), True
    return outline_hypotheses(frame_bgr, q, refine), is_dark_card(frame_bgr, q)


# Turned over, print keeps its hue only where it is red (CIELAB a* this far above neutral and more, fully from
# RED_HUE_FULL): gold print on black would turn into a dark olive brown, which the classifier takes for red
# print (a gold ace of clubs read as the ace of diamonds), so any print that is not red turns grey, as black
# print is on a white card. At the simulated table, a gold-and-red deck on dark paper: 10 wrong readings in
# 498 frames with the hue kept, 2 with it turned grey (model card, "How a frame is read").
RED_HUE_FROM, RED_HUE_FULL = 12.0, 32.0


def lightness_inverted(crop_bgr: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The crop with its lightness turned over (CIELAB L -> 255 - L), red print kept red and any other print
    turned grey (:data:`RED_HUE_FROM`): dark paper with gold and red print reads as white paper with black
    and dark red print, as the classifier learnt cards."""
    lab = cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[:, :, 0] = 255.0 - lab[:, :, 0]
    redness = lab[:, :, 1] - 128.0
    keep = np.clip((redness - RED_HUE_FROM) / (RED_HUE_FULL - RED_HUE_FROM), 0.0, 1.0)
    lab[:, :, 1] = 128.0 + redness * keep
    lab[:, :, 2] = 128.0 + (lab[:, :, 2] - 128.0) * keep
    out = np.clip(np.round(lab), 0, 255).astype(np.uint8)
    return cast(npt.NDArray[np.uint8], cv2.cvtColor(out, cv2.COLOR_LAB2BGR))


# A dark card shows red print where at least this share of its index corners' pixels is red (CIELAB a* from
# RED_HUE_FULL above neutral) and light (L from RED_PRINT_LIGHTNESS of 255): red ink on dark paper. Dark red paper
# (a wine-coloured deck) is red but not light; gold print is light but not red. Chosen at the simulated table on
# decks printed dark with red kept red and printed all in one ink (model card, "How a frame is read", step 14).
RED_PRINT_SHARE = 0.02
RED_PRINT_LIGHTNESS = 100.0


def shows_red_print(frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike) -> bool:
    """Whether the card of outline ``quad`` shows red print in its index corners (:data:`RED_PRINT_SHARE`): asked
    of a card printed light on dark paper, whether its deck prints its red suits red or all in one ink."""
    lab = cv2.cvtColor(np.concatenate(corner_crops_bgr(frame_bgr, quad)), cv2.COLOR_BGR2LAB).astype(np.float32)
    red = (lab[:, :, 1] - 128.0 >= RED_HUE_FULL) & (lab[:, :, 0] >= RED_PRINT_LIGHTNESS)
    return float(red.mean()) >= RED_PRINT_SHARE


def corner_crops(
    frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike, refine: bool = True, dark: bool | None = None,
    hypotheses: list[FloatArray] | None = None, turned_only: bool = False,
) -> FloatArray:
    """Classifier input for one card: float32 (4k, 3, CROP_H, CROP_W), corners TL, TR, BR, BL of each of
    the k :func:`outline_hypotheses`. Classify them all and pass the logits, as one block, to
    :func:`combine_corners`: corners that see no index drop out of the vote. A card that may be printed
    light on dark paper (:func:`judged_outline`) is also cut with its lightness turned over
    (:func:`lightness_inverted`), 8k crops then: whichever way the classifier sees an index wins the vote,
    so a white card wrongly judged dark (a deck with a black panel inside a white margin) still reads.
    ``dark`` and ``hypotheses``: whether the card is dark and its outlines, already worked out for this
    outline by the caller (None: worked out here, as :func:`judged_outline` works them out). ``turned_only``: a dark
    card is cut turned over alone, 4k crops (a deck known to be printed light on dark paper).
    """
    if hypotheses is None or dark is None:
        judged, judged_dark = judged_outline(frame_bgr, quad, refine)
        hypotheses = judged if hypotheses is None else hypotheses
        dark = judged_dark if dark is None else dark
    cut = [c for q in hypotheses for c in corner_crops_bgr(frame_bgr, q)]
    crops = [] if dark and turned_only else [normalise_crop(c) for c in cut]
    if dark:
        crops += [normalise_crop(lightness_inverted(c)) for c in cut]
    return np.stack(crops).astype(np.float32)


# The face crop: the card's middle, upright, where a number card's pips and a court's picture lie (card
# coordinates as U0..V1 above). It leaves out most of each index, so the face reader's view of a card is
# a second one, not the corner classifier's again.
FACE_U0, FACE_U1 = 0.1, 0.9
FACE_V0, FACE_V1 = 0.07, 0.93


def face_crop_bgr(frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """The card's middle (:data:`FACE_U0`..:data:`FACE_V1`) upright as a BGR uint8 CROP_H x CROP_W image,
    for the face reader (``vision.face_reader``); either way up, as :func:`order_corners` picks it."""
    frame, q = _upright_source(frame_bgr, quad, FACE_V1 - FACE_V0)
    return _cut_region(frame, q, FACE_U0, FACE_U1, FACE_V0, FACE_V1)


def softmax(logits: npt.ArrayLike) -> FloatArray:
    z = np.asarray(logits, np.float32)
    # numpy's stubs give a ufunc's and a keepdims reduction's result as Any
    peak: FloatArray = z.max(axis=-1, keepdims=True)
    e: FloatArray = np.exp(z - peak)
    total: FloatArray = e.sum(axis=-1, keepdims=True)
    return (e / total).astype(np.float32)


# How much a face that doubts the card named lowers its share: the share times (the face's evidence for that
# card over its evidence for the card it likes best) to this power. 0: the face only re-decides (as until
# the face reader's twentieth round). 0.5 chosen on the held-out decks, the real sets and per frame at the
# simulated table (1 lost more recall for no fewer wrong readings per frame; model card, "The face reader").
FACE_DOUBT = 0.5


# How much a card named with its twin close behind (the same rank in the other suit of its colour: clubs and
# spades, hearts and diamonds) is doubted: its share times (1 - the twin's weight over its own) to this power,
# the weights being the corners' vote times the face's evidence. Corners split 0.6 / 0.35 between a king of
# spades and the king of clubs are a coin toss on the suit, which the reporting line, fitted on readings that
# are mostly not split, let through at 0.85-0.93; a suit swap is the reading that costs a Euchre table most
# (the left bower). 1 since 2026-12-05, with the readings it takes under the line reported to be checked
# (``onnx_detector._to_check``): alone it delayed a right card split with its twin at the simulated table
# until the next seat's card had landed. 0: off (model card, "Twins in doubt").
TWIN_DOUBT = 1.0


@functools.cache
def twin_indices(names: tuple[str, ...]) -> tuple[int, ...]:
    """Per card name, the index of its twin among ``names`` (its rank in the other suit of its colour,
    ``Suit.partner``: Ah -> Ad), else its own (the Joker, or a twin not among the names)."""
    index = {name: k for k, name in enumerate(names)}
    out = []
    for k, name in enumerate(names):
        twin = Card.parse(name).twin
        out.append(index.get(str(twin), k) if twin is not None else k)
    return tuple(out)


# How much a dark card's turned-over reading is doubted by the same rank in the suits of the other colour (its
# cousins: a king of diamonds' are the kings of spades and clubs), as TWIN_DOUBT doubts a twin. Turned over, print
# that is not red turns grey (lightness_inverted), so a deck printed all in one ink (black and gold) shows its
# hearts and diamonds grey, and the classifier, which learnt suits by colour as well as shape, leans to the
# black suits: gold kings of diamonds were read as the king of spades, split 0.6 / 0.4 between the two. Where
# the print is red the classifier tells the colours apart and a cousin weighs little. 0: off (model card, "How
# a frame is read", step 8).
COUSIN_DOUBT = 1.0

# How much a card read with a deck profile (vision.deck_profile) and named with another rank of its suit close
# behind is doubted, as TWIN_DOUBT doubts a twin: its share times (1 - the surest other rank's weight over its
# own) to this power. A small or blurred index is told from its neighbours by a stroke or two (9 and 10, 8 and
# 9, king and queen), and the reporting line with a profile, fitted on readings mostly not split, let such
# splits through: 0.69 / 0.22 between a ten and an eight of hearts was reported at 0.93. 0.5 was chosen on the
# held-out decks' draw kept for choosing, the least of 0.5, 1 and 2 that took every deck read with its profile
# to precision 0.98, and held on the two other draws; the readings it takes under the line are reported to be
# checked, as the twin's are. Without a profile the reader does not apply it: there it cost the real photos
# of `real-photos-dev` 3 of their 274 cards (recall 0.960 to 0.949, under that set's bar of 0.95), and those of
# `real-photos-dev2` one right reading for one wrong one (model card, "Ranks in doubt"). 0: off.
RANK_DOUBT = 0.5


@functools.cache
def rank_rival_indices(names: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """Per card name, the indices among ``names`` of the other ranks of its suit (none for the Joker)."""
    cards = [Card.parse(name) for name in names]
    return tuple(
        () if card.suit is None else tuple(k for k, c in enumerate(cards) if c.suit == card.suit and c != card)
        for card in cards
    )


@functools.cache
def cousin_indices(names: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """Per card name, the indices among ``names`` of its rank in the suits of the other colour (none for the
    Joker)."""
    index = {name: k for k, name in enumerate(names)}
    out: list[tuple[int, ...]] = []
    for name in names:
        card = Card.parse(name)
        if card.rank is None or card.suit is None:
            out.append(())
            continue
        cousins = [str(Card.of(card.rank, s)) for s in Suit if s.is_red != card.suit.is_red]
        out.append(tuple(index[c] for c in cousins if c in index))
    return tuple(out)


def weigh_by_face(
    mix: FloatArray, evidence: npt.ArrayLike | None, unjudged: int | None = None,
    twins: Sequence[int] | None = None,
) -> tuple[int, np.float32]:
    """The card the corners' vote names and its share, as :func:`weighed_shares` gives them."""
    best, share, _ = weighed_shares(mix, evidence, unjudged, twins)
    return best, share


def weighed_shares(
    mix: FloatArray, evidence: npt.ArrayLike | None, unjudged: int | None = None,
    twins: Sequence[int] | None = None, rank_rivals: Sequence[Sequence[int]] | None = None,
) -> tuple[int, np.float32, np.float32]:
    """The card the corners' vote ``mix`` (over the cards) names, and its share, once weighed by the face
    reader's ``evidence`` (per card, ``vision.face_reader.FaceReader.evidence``; None: no face read).

    The evidence may change which card is named (the product of the two, renormalised), but the share is
    never above the corners' own surest: the face re-decides between the cards the corners saw, and never
    makes a reading surer than they did (so a card back whose pattern looks like pips, or a face half
    under another card, cannot lift a doubtful corner reading over the reporting line). Where the face's
    evidence for the card named is below its evidence for another card (the corners outvoted it), the share
    falls with the ratio (:data:`FACE_DOUBT`): a face showing club pips makes a jack of clubs the corners
    half believe less sure, where renormalising alone would barely move it. ``unjudged``: a card the face
    reader was not taught (the Joker): where the corners name it, their reading stands. ``twins``: per card,
    its twin's index (:func:`twin_indices`); where given, a card whose twin weighs nearly as much is doubted
    (:data:`TWIN_DOUBT`). ``rank_rivals``: per card, the other ranks of its suit (:func:`rank_rival_indices`);
    where given, a card whose surest such rival weighs nearly as much is doubted too (:data:`RANK_DOUBT`). The
    share is float32, as the vote: without evidence, twins or rank rivals it is the vote's own to the last bit.
    Returned with the share before the twin and rank doubts (the same where they are off, none are given or
    the card has no such rival), which ``onnx_detector._to_check`` needs.
    """
    m = np.asarray(mix, np.float32)
    top = int(np.argmax(m))
    if evidence is None or top == unjudged:
        return top, _split_doubted(m[top], m, top, twins, rank_rivals), m[top]
    e = np.asarray(evidence, np.float64)
    weighed = m.astype(np.float64) * e
    total = float(weighed.sum())
    if not total > 0.0:
        return top, _split_doubted(m[top], m, top, twins, rank_rivals), m[top]
    best = int(np.argmax(weighed))
    share = min(float(weighed[best] / total), float(m[top]))
    doubt = float(e[best]) / float(e.max())
    face_share = np.float32(share * doubt**FACE_DOUBT)
    return best, _split_doubted(face_share, weighed, best, twins, rank_rivals), face_share


def _twin_doubted(share: np.float32, weights: npt.ArrayLike, best: int, twins: Sequence[int] | None) -> np.float32:
    """``share`` times (1 - the twin's weight over that of the card ``best`` in ``weights``) to the power
    :data:`TWIN_DOUBT` (``twins``: per card, its twin's index); as it is where the card has no twin, no twins
    are given or the doubt is off."""
    if twins is None:
        return share
    twin = int(twins[best])
    return _doubted(share, weights, best, () if twin == best else (twin,), TWIN_DOUBT)


def _split_doubted(
    share: np.float32, weights: npt.ArrayLike, best: int, twins: Sequence[int] | None,
    rank_rivals: Sequence[Sequence[int]] | None,
) -> np.float32:
    """``share`` doubted by the twin of the card ``best`` (:func:`_twin_doubted`), then by the surest other rank
    of its suit (:data:`RANK_DOUBT`; ``rank_rivals``: per card, :func:`rank_rival_indices`; none given: no rank
    doubt)."""
    share = _twin_doubted(share, weights, best, twins)
    if rank_rivals is None:
        return share
    return _doubted(share, weights, best, rank_rivals[best], RANK_DOUBT)


def _doubted(
    share: np.float32, weights: npt.ArrayLike, best: int, rivals: Sequence[int], power: float
) -> np.float32:
    """``share`` times (1 - the surest of ``rivals``' weight over that of the card ``best`` in ``weights``) to
    ``power``: the twin, rank and cousin doubts. As it is where there is no rival or ``power`` is 0."""
    w = np.asarray(weights, np.float64)
    if not rivals or power == 0.0 or not float(w[best]) > 0.0:
        return share
    ratio = min(1.0, max(float(w[r]) for r in rivals) / float(w[best]))
    return np.float32(share * (1.0 - ratio) ** power)


def combine_corners(
    logits: npt.ArrayLike, classes: Sequence[str] = CLASSIFIER_CLASSES, min_index: float = 0.5,
    evidence: npt.ArrayLike | None = None,
) -> tuple[str, float]:
    """One card name from the per-corner logits (shape (k, len(classes))), and a confidence in 0..1.

    Each corner's vote is weighted by how sure it is that it sees an index
    (1 - p(none)); corners that see no index drop out. If no corner sees an
    index with at least ``min_index``, the answer is ``("none", p)``. ``evidence``: the face reader's,
    per card (the classes but ``none``, in order), weighed in by :func:`weigh_by_face`.
    """
    name, conf, _, _ = corner_shares(logits, classes, min_index, evidence)
    return name, conf


def corner_shares(
    logits: npt.ArrayLike, classes: Sequence[str] = CLASSIFIER_CLASSES, min_index: float = 0.5,
    evidence: npt.ArrayLike | None = None, colour_blind: bool = False,
) -> tuple[str, float, float, str | None]:
    """:func:`combine_corners`' name and confidence, the confidence before the twin doubt
    (:func:`weighed_shares`; the same where nothing is named), and the card the vote ranks next
    (:func:`runner_up`: the likeliest other reading, which a check names; None where nothing is named).
    ``colour_blind``: the crops are a dark card's turned over, whose print may be all one ink, so the card is
    also doubted by its cousins (:data:`COUSIN_DOUBT`), before and after the twin doubt alike."""
    p = softmax(logits).reshape(-1, len(classes))
    none_idx = list(classes).index(NONE_CLASS)
    seen = 1.0 - p[:, none_idx]
    if float(seen.max()) < min_index:
        return NONE_CLASS, float(1.0 - seen.max()), float(1.0 - seen.max()), None
    w = seen * (seen >= 0.5 * float(seen.max()))
    card_p = np.delete(p, none_idx, axis=1)
    card_p = card_p / np.maximum(card_p.sum(axis=1, keepdims=True), 1e-9)
    mix = (w[:, None] * card_p).sum(axis=0) / max(float(w.sum()), 1e-9)
    names = [c for c in classes if c != NONE_CLASS]
    joker = names.index(JOKER) if JOKER in names else None
    best, share, undoubted = weighed_shares(mix, evidence, joker, twin_indices(tuple(names)))
    if colour_blind:
        share, undoubted = cousin_doubted(share, undoubted, mix, evidence, best, tuple(names))
    rival = runner_up(mix, evidence, best)
    return (
        names[best], float(share * seen.max()), float(undoubted * seen.max()),
        names[rival] if rival is not None else None,
    )


def runner_up(mix: npt.ArrayLike, evidence: npt.ArrayLike | None, best: int) -> int | None:
    """The card the corners' vote ``mix`` ranks next after ``best``, the vote weighed by the face reader's
    ``evidence`` where given (as :func:`weighed_shares` weighs it): the card a doubted reading most likely is
    instead (its twin where the twin doubt cut it, a neighbouring rank where the rank doubt did), which the
    table is asked to check it against. None where no other card has any weight."""
    w = np.asarray(mix, np.float64)
    if evidence is not None:
        weighed = w * np.asarray(evidence, np.float64)
        if float(weighed.sum()) > 0.0:
            w = weighed
    others = w.copy()
    others[best] = -np.inf
    k = int(np.argmax(others))
    return k if float(others[k]) > 0.0 else None


def cousin_doubted(
    share: np.float32, undoubted: np.float32, mix: FloatArray, evidence: npt.ArrayLike | None, best: int,
    names: tuple[str, ...],
) -> tuple[np.float32, np.float32]:
    """A dark card's turned-over reading of ``names[best]``, ``share`` and its ``undoubted`` share alike, doubted by
    its cousins' weight in the vote ``mix`` (times the face reader's ``evidence`` where given): :data:`COUSIN_DOUBT`.
    Without a profile (:func:`corner_shares`) and with one (``vision.deck_profile.ProfileMatcher.shares``)."""
    cousins = cousin_indices(names)[best]
    weights = mix if evidence is None else mix * np.asarray(evidence, np.float32)
    return (
        _doubted(share, weights, best, cousins, COUSIN_DOUBT),
        _doubted(undoubted, weights, best, cousins, COUSIN_DOUBT),
    )


# --- Two cards of a spread boxed as one ---------------------------------------------------------------
#
# Cards laid side by side, each covering part of the next (a hand laid down, a trick pushed together),
# are sometimes found as one outline around both. Such an outline is squarer than a card: a card is
# about 0.71 as wide as it is tall, two cards overlapping by half are about 1.07. Its two ends are the
# outer sides of the two cards, and each card's index in the corner on its outer side is never covered
# by the other card. So the spread is read as two card-shaped outlines, one at each end, each named
# from the two corners of its outer side only (the inner corners lie under or on the other card).

# A poker-size card's width over its height (63.5 x 88.9 mm).
CARD_ASPECT = 0.714
# An outline at least this square (short side over long side) may be two cards of a spread.
SPREAD_MIN_ASPECT = 0.84
# The outline is tried as found and shrunk about its centre (the finder's boxes run loose).
SPREAD_SCALES = (1.0, 0.92)


def _unit(v: FloatArray) -> FloatArray:
    n = float(np.linalg.norm(v))
    return (v / n).astype(np.float32) if n > 0 else v


def spread_halves(quad: npt.ArrayLike) -> list[tuple[FloatArray, FloatArray]]:
    """The ways one outline may be two cards of a spread: per way, the two card outlines (4, 2).

    Each card outline starts with the two points of its outer side (the
    outline's end it sits at). An outline that is not square enough to hold
    two overlapping cards gives none. Both ways are tried for a square
    outline: the cards standing along its long side, or along its short one.
    """
    q = order_corners(quad)
    top, bottom = float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[2] - q[3]))
    left, right = float(np.linalg.norm(q[3] - q[0])), float(np.linalg.norm(q[2] - q[1]))
    short, long_ = (top + bottom) / 2, (left + right) / 2
    if long_ <= 0 or short / long_ < SPREAD_MIN_ASPECT:
        return []
    ways: list[tuple[FloatArray, FloatArray]] = []
    # The cards stand as tall as the long side; they spread along the short side (TL->TR).
    width = CARD_ASPECT * long_
    d_top, d_bot = _unit(q[1] - q[0]), _unit(q[2] - q[3])
    first = np.stack([q[0], q[3], q[3] + d_bot * width, q[0] + d_top * width])
    second = np.stack([q[1], q[2], q[2] - d_bot * width, q[1] - d_top * width])
    ways.append((first.astype(np.float32), second.astype(np.float32)))
    # The cards stand as tall as the short side; they spread along the long side (TL->BL).
    width = CARD_ASPECT * short
    d_left, d_right = _unit(q[3] - q[0]), _unit(q[2] - q[1])
    first = np.stack([q[0], q[1], q[1] + d_right * width, q[0] + d_left * width])
    second = np.stack([q[3], q[2], q[2] - d_right * width, q[3] - d_left * width])
    ways.append((first.astype(np.float32), second.astype(np.float32)))
    return ways


def outer_side_crops(frame_bgr: npt.NDArray[np.uint8], card: npt.ArrayLike) -> FloatArray:
    """Classifier input for one card of a spread (:func:`spread_halves`): the crops of the two corners on
    its outer side (its first two points), for the outline as found and shrunk by :data:`SPREAD_SCALES`;
    float32 (2k, 3, CROP_H, CROP_W), to be combined by :func:`combine_corners`.
    """
    c = np.asarray(card, np.float32).reshape(4, 2)
    ctr = c.mean(axis=0)
    out: list[FloatArray] = []
    for s in SPREAD_SCALES:
        scaled = ((c - ctr) * s + ctr).astype(np.float32)
        ordered = order_corners(scaled)
        outer = [int(np.argmin(np.linalg.norm(ordered - point, axis=1))) for point in scaled[:2]]
        out += [normalise_crop(crop) for crop in corner_crops_bgr(frame_bgr, ordered, outer)]
    return np.stack(out).astype(np.float32)


# --- A second look at an outline that repeats its neighbour's card ------------------------------------
#
# Where cards overlap, the finder sometimes outlines a covered card a little off its place, towards the
# card on top of it; its corners then show the top card's index, and it repeats that card's name. Such an
# outline is tried again shifted along the card's sides, to find the corner of the card it was meant for.

# (across, along): shifts in units of the outline's short side (across) and long side (along).
SECOND_LOOK_SHIFTS: tuple[tuple[float, float], ...] = (
    (0.15, 0.0),
    (-0.15, 0.0),
    (0.3, 0.0),
    (-0.3, 0.0),
    (0.45, 0.0),
    (-0.45, 0.0),
    (0.0, 0.12),
    (0.0, -0.12),
)


def shifted_outlines(quad: npt.ArrayLike, away_from: npt.ArrayLike | None = None) -> npt.NDArray[np.float32]:
    """The outline moved by each of :data:`SECOND_LOOK_SHIFTS` (K, 4, 2), ordered as :func:`order_corners`
    orders it; with ``away_from`` (a point), only the moves that take its centre further from that point.
    """
    q = order_corners(quad)
    across = ((q[1] - q[0]) + (q[2] - q[3])) / 2
    along = ((q[3] - q[0]) + (q[2] - q[1])) / 2
    moves = [a * across + b * along for a, b in SECOND_LOOK_SHIFTS]
    if away_from is not None:
        outward = q.mean(axis=0) - np.asarray(away_from, np.float32)
        moves = [m for m in moves if float(np.dot(m, outward)) > 0]
    return np.stack([q + m for m in moves]).astype(np.float32) if moves else np.zeros((0, 4, 2), np.float32)


# --- A card cut by the frame's edge ---------------------------------------------------------------------
#
# The finder outlines a card that runs off the frame round its part in the frame. Its corner crops are cut
# as fractions of a whole card's outline, so on a cut card they fall in the wrong places (and a card cut
# to a square has no long side to say which way it lies). Where a side of the outline lies on the frame's
# edge, the card is completed beyond that edge to a whole card's proportions, both ways it could lie, and
# the corners still in the frame are read again.

# A side of an outline lies on the frame's edge when both its ends are this close to it (pixels), or beyond.
EDGE_MARGIN = 3.0
# A completion must lengthen the outline by at least this factor (else the card was not cut).
MIN_COMPLETION = 1.08


def completed_outlines(quad: npt.ArrayLike, width: int, height: int) -> list[FloatArray]:
    """Whole-card outlines (each (4, 2), ordered as :func:`order_corners`) for an outline with a side on
    the edge of a ``width`` x ``height`` frame: that side moved outwards until the card is a card's shape,
    the cut side being its short side or its long side. Empty when no side lies on the edge."""
    q = order_corners(quad).astype(np.float64)
    limits = ((0, 0.0, -1.0), (0, width - 1.0, 1.0), (1, 0.0, -1.0), (1, height - 1.0, 1.0))
    out: list[FloatArray] = []
    for k in range(4):
        a, b = q[k], q[(k + 1) % 4]
        if not any(all(sign * (p[axis] - lim) >= -EDGE_MARGIN for p in (a, b)) for axis, lim, sign in limits):
            continue
        d = q[(k + 3) % 4]  # the corner across the outline from a, on the side opposite this one
        along = float(np.linalg.norm(b - a))
        outward = a - d
        across = float(np.linalg.norm(outward))
        if along < 4.0 or across < 4.0:
            continue
        unit = outward / across
        for whole in (along / CARD_ASPECT, along * CARD_ASPECT):
            if whole >= across * MIN_COMPLETION:
                grown = q.copy()
                grown[k] = a + unit * (whole - across)
                grown[(k + 1) % 4] = b + unit * (whole - across)
                out.append(order_corners(grown))
    return out
