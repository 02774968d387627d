"""Turns a YOLO network's raw output into card detections: letterbox, decode, NMS and per-card merging, in numpy.

Everything between "a BGR frame" and "a list of CardDetection" that does not
need the network lives here, so both detector backends and the tests share
one implementation:

- :func:`letterbox` scales a frame into the square network input the way
  Ultralytics does for exported models (aspect kept, grey 114 padding split
  evenly), and :class:`Letterbox` maps points back to frame pixels.
- :func:`decode` reads the three output layouts a YOLO ONNX export can have:
  ``[1, 4+nc, N]`` (detect: cx, cy, w, h, class scores),
  ``[1, 4+nc+1, N]`` (oriented boxes: cx, cy, w, h, class scores, angle in
  radians) and the NMS-free end-to-end ``[1, K, 6]`` / ``[1, K, 7]``
  (x1, y1, x2, y2, score, class [, angle]; or cx, cy, w, h, score, class,
  angle for oriented boxes).
- :func:`nms` is greedy non-maximum suppression, class-agnostic by default
  because one place on the table holds one card; oriented boxes are compared
  with the same probabilistic IoU Ultralytics uses, so both backends keep the
  same boxes.
- :func:`merge_same_card` is the one place where two detections of one card
  (its two corner indices, or a card found twice) become one card. It runs
  here, once; the tracker never merges.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from table.cards import Card
from vision.detection import CardDetection

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]

PAD_VALUE = 114  # Ultralytics pads with this grey; the network was trained on it.


@dataclass(frozen=True)
class Letterbox:
    """How a frame was placed into the network input: ``input = frame * scale + (pad_x, pad_y)``."""

    scale: float
    pad_x: int
    pad_y: int
    frame_width: int
    frame_height: int

    def to_frame(self, points: npt.ArrayLike, clip: bool = True) -> FloatArray:
        """Network-input (x, y) points, shape (..., 2), back to frame pixels (clipped to the frame if ``clip``)."""
        pts = np.asarray(points, dtype=np.float32).copy()
        pts[..., 0] = (pts[..., 0] - self.pad_x) / self.scale
        pts[..., 1] = (pts[..., 1] - self.pad_y) / self.scale
        if clip:
            pts[..., 0] = np.clip(pts[..., 0], 0, self.frame_width)
            pts[..., 1] = np.clip(pts[..., 1], 0, self.frame_height)
        return pts

    def to_input(self, points: npt.ArrayLike) -> FloatArray:
        """Frame (x, y) points, shape (..., 2), to network-input pixels."""
        pts = np.asarray(points, dtype=np.float32).copy()
        pts[..., 0] = pts[..., 0] * self.scale + self.pad_x
        pts[..., 1] = pts[..., 1] * self.scale + self.pad_y
        return pts


def letterbox(frame_bgr: npt.NDArray[np.uint8], size: int | tuple[int, int]) -> tuple[npt.NDArray[np.uint8], Letterbox]:
    """Resize ``frame_bgr`` into a ``size`` (square, or (height, width)) image, keeping its aspect.

    Same arithmetic as Ultralytics' ``LetterBox(auto=False, center=True)``,
    so the ONNX and Ultralytics backends feed the network identical pixels.
    """
    import cv2

    out_h, out_w = (size, size) if isinstance(size, int) else size
    h, w = frame_bgr.shape[:2]
    scale = min(out_h / h, out_w / w)
    new_w, new_h = int(round(w * scale)), int(round(h * scale))
    dw, dh = (out_w - new_w) / 2.0, (out_h - new_h) / 2.0
    # The -0.1/+0.1 split the odd pixel the way Ultralytics does.
    top, bottom = int(round(dh - 0.1)), int(round(dh + 0.1))
    left, right = int(round(dw - 0.1)), int(round(dw + 0.1))
    resized = (
        frame_bgr if (new_w, new_h) == (w, h) else cv2.resize(frame_bgr, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
    )
    padded = cv2.copyMakeBorder(resized, top, bottom, left, right, cv2.BORDER_CONSTANT, value=(PAD_VALUE,) * 3)
    box = Letterbox(scale=scale, pad_x=left, pad_y=top, frame_width=w, frame_height=h)
    return np.asarray(padded, dtype=np.uint8), box


def to_tensor(image_bgr: npt.NDArray[np.uint8]) -> FloatArray:
    """HWC BGR uint8 -> 1x3xHxW RGB float32 in 0..1, the layout YOLO networks take."""
    rgb = image_bgr[:, :, ::-1]
    chw = np.ascontiguousarray(rgb.transpose(2, 0, 1), dtype=np.float32)
    chw *= 1.0 / 255.0
    return chw[None]


@dataclass(frozen=True)
class Raw:
    """Decoded candidates in network-input pixels, before NMS.

    ``boxes`` is (M, 4) axis-aligned x1, y1, x2, y2; ``angles`` is (M,) in
    radians for oriented boxes (then ``xywh`` holds the rotated box's centre
    and side lengths) or ``None``.
    """

    boxes: FloatArray
    scores: FloatArray
    classes: IntArray
    xywh: FloatArray
    angles: FloatArray | None

    def __len__(self) -> int:
        return int(self.scores.shape[0])

    def take(self, index: npt.ArrayLike) -> Raw:
        idx = np.asarray(index, dtype=np.int64)
        return Raw(
            boxes=self.boxes[idx],
            scores=self.scores[idx],
            classes=self.classes[idx],
            xywh=self.xywh[idx],
            angles=None if self.angles is None else self.angles[idx],
        )


def output_layout(shape: Sequence[int], num_classes: int, end2end: bool | None = None) -> str:
    """Which layout a raw output of ``shape`` is: ``"detect"``, ``"obb"``, ``"e2e"`` or ``"e2e-obb"``.

    ``end2end`` (from the model's metadata) settles the rare shapes that fit
    two layouts; without it, a channel count of exactly 4+nc or 5+nc is read
    as the dense layout.
    """
    if len(shape) != 3 or shape[0] != 1:
        raise ValueError(f"expected a YOLO output of shape [1, C, N] or [1, K, 6|7], got {list(shape)}")
    channels, last = int(shape[1]), int(shape[2])
    dense = {4 + num_classes: "detect", 5 + num_classes: "obb"}
    if end2end is not True and channels in dense:
        return dense[channels]
    if end2end is not False and last in (6, 7):
        return "e2e" if last == 6 else "e2e-obb"
    raise ValueError(
        f"a YOLO output of shape {list(shape)} does not fit {num_classes} classes "
        f"(expected [1, {4 + num_classes}, N], [1, {5 + num_classes}, N], or [1, K, 6|7])"
    )


def _xywh_to_xyxy(xywh: FloatArray) -> FloatArray:
    half = xywh[:, 2:4] / 2.0
    return np.concatenate([xywh[:, 0:2] - half, xywh[:, 0:2] + half], axis=1).astype(np.float32)


def rotated_corners(xywh: npt.ArrayLike, angles: npt.ArrayLike) -> FloatArray:
    """Corner points (M, 4, 2) of rotated boxes: centre, width, height and angle in radians."""
    b = np.asarray(xywh, dtype=np.float32).reshape(-1, 4)
    a = np.asarray(angles, dtype=np.float32).reshape(-1)
    cos, sin = np.cos(a), np.sin(a)
    # Half-axis vectors along the box's width and height.
    vx = np.stack([cos, sin], axis=1) * (b[:, 2:3] / 2.0)
    vy = np.stack([-sin, cos], axis=1) * (b[:, 3:4] / 2.0)
    c = b[:, 0:2]
    return np.stack([c - vx - vy, c + vx - vy, c + vx + vy, c - vx + vy], axis=1).astype(np.float32)


def rotated_aabb(xywh: FloatArray, angles: FloatArray) -> FloatArray:
    """Axis-aligned x1, y1, x2, y2 boxes (M, 4) around rotated boxes."""
    corners = rotated_corners(xywh, angles)
    return np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1).astype(np.float32)


def decode(
    output: npt.ArrayLike,
    num_classes: int,
    conf_threshold: float = 0.25,
    end2end: bool | None = None,
) -> Raw:
    """Candidates above ``conf_threshold`` from one image's raw YOLO output (any layout, see module doc).

    Each candidate takes its best class, as Ultralytics' single-label NMS does.
    """
    out = np.asarray(output, dtype=np.float32)
    layout = output_layout(out.shape, num_classes, end2end)
    if layout in ("detect", "obb"):
        pred = out[0].T  # (N, C): one row per anchor
        cls_scores = pred[:, 4 : 4 + num_classes]
        classes = cls_scores.argmax(axis=1).astype(np.int64)
        scores = cls_scores[np.arange(pred.shape[0]), classes]
        keep = scores > conf_threshold
        xywh = pred[keep, 0:4]
        angles = pred[keep, 4 + num_classes] if layout == "obb" else None
        classes, scores = classes[keep], scores[keep]
    else:
        pred = out[0]
        keep = pred[:, 4] > conf_threshold
        pred = pred[keep]
        scores, classes = pred[:, 4], pred[:, 5].round().astype(np.int64)
        if layout == "e2e":
            boxes = pred[:, 0:4]
            xywh = np.concatenate([(boxes[:, 0:2] + boxes[:, 2:4]) / 2.0, boxes[:, 2:4] - boxes[:, 0:2]], axis=1)
            angles = None
        else:
            xywh, angles = pred[:, 0:4], pred[:, 6]
    xywh = np.ascontiguousarray(xywh, dtype=np.float32)
    if angles is not None:
        angles = np.ascontiguousarray(angles, dtype=np.float32)
        boxes = rotated_aabb(xywh, angles)
    else:
        boxes = _xywh_to_xyxy(xywh)
    return Raw(boxes=boxes, scores=scores.astype(np.float32), classes=classes, xywh=xywh, angles=angles)


def box_iou(box: FloatArray, others: FloatArray) -> FloatArray:
    """IoU of one x1, y1, x2, y2 box against (M, 4) boxes."""
    x1 = np.maximum(box[0], others[:, 0])
    y1 = np.maximum(box[1], others[:, 1])
    x2 = np.minimum(box[2], others[:, 2])
    y2 = np.minimum(box[3], others[:, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = (box[2] - box[0]) * (box[3] - box[1])
    areas = (others[:, 2] - others[:, 0]) * (others[:, 3] - others[:, 1])
    iou: FloatArray = (inter / np.maximum(area + areas - inter, 1e-9)).astype(np.float32)
    return iou


def _covariance(xywh: FloatArray, angles: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    a, b = xywh[:, 2] ** 2 / 12.0, xywh[:, 3] ** 2 / 12.0
    cos, sin = np.cos(angles), np.sin(angles)
    return a * cos**2 + b * sin**2, a * sin**2 + b * cos**2, (a - b) * cos * sin


def probiou_matrix(xywh1: FloatArray, angles1: FloatArray, xywh2: FloatArray, angles2: FloatArray) -> FloatArray:
    """Probabilistic IoU (Ultralytics' oriented-box NMS measure) of (M,) rotated boxes against (K,): (M, K)."""
    eps = 1e-7
    a1, b1, c1 = (v[:, None] for v in _covariance(xywh1, angles1))
    a2, b2, c2 = (v[None, :] for v in _covariance(xywh2, angles2))
    dx = xywh1[:, 0:1] - xywh2[None, :, 0]
    dy = xywh1[:, 1:2] - xywh2[None, :, 1]
    denom = (a1 + a2) * (b1 + b2) - (c1 + c2) ** 2 + eps
    t1 = ((a1 + a2) * dy**2 + (b1 + b2) * dx**2) / denom * 0.25
    t2 = ((c1 + c2) * (-dx) * dy) / denom * 0.5
    det1 = np.clip(a1 * b1 - c1**2, 0, None)
    det2 = np.clip(a2 * b2 - c2**2, 0, None)
    t3 = np.log(((a1 + a2) * (b1 + b2) - (c1 + c2) ** 2) / (4.0 * np.sqrt(det1 * det2) + eps) + eps) * 0.5
    bd = np.clip(t1 + t2 + t3, eps, 100.0)
    hd = np.sqrt(1.0 - np.exp(-bd) + eps)
    overlap: FloatArray = (1.0 - hd).astype(np.float32)
    return overlap


MAX_NMS = 3000  # candidates kept for NMS, best first; a table never holds more than a few dozen cards


def nms(raw: Raw, iou_threshold: float = 0.5, agnostic: bool = True, max_det: int = 300) -> Raw:
    """Non-maximum suppression, best score first.

    Axis-aligned boxes get classic greedy NMS. Oriented boxes are compared
    with :func:`probiou` and suppressed the "fast NMS" way (a box goes if any
    better box overlaps it, even one that was itself suppressed), because
    that is what Ultralytics does for them and both backends must keep the
    same boxes. ``agnostic`` (the default) lets a box suppress boxes of any
    class: a spot on the table holds one card, so two names for it are two
    guesses, not two cards.
    """
    if len(raw) == 0:
        return raw
    order = np.argsort(-raw.scores, kind="stable")[:MAX_NMS]
    if raw.angles is not None:
        return raw.take(_fast_nms_rotated(raw, order, iou_threshold, agnostic)[:max_det])
    suppressed = np.zeros(len(raw), dtype=bool)
    keep: list[int] = []
    for pos, i in enumerate(order):
        if suppressed[i]:
            continue
        keep.append(int(i))
        if len(keep) >= max_det:
            break
        rest = order[pos + 1 :]
        rest = rest[~suppressed[rest]]
        if not agnostic:
            rest = rest[raw.classes[rest] == raw.classes[i]]
        if rest.size:
            suppressed[rest[box_iou(raw.boxes[i], raw.boxes[rest]) > iou_threshold]] = True
    return raw.take(keep)


def _fast_nms_rotated(raw: Raw, order: IntArray, iou_threshold: float, agnostic: bool) -> IntArray:
    assert raw.angles is not None
    xywh, angles = raw.xywh[order], raw.angles[order]
    overlap = np.triu(probiou_matrix(xywh, angles, xywh, angles), k=1)
    if not agnostic:
        cls = raw.classes[order]
        overlap = overlap * (cls[:, None] == cls[None, :])
    keep = ~(overlap > iou_threshold).any(axis=0)
    return order[keep]


def to_detections(
    raw: Raw,
    box: Letterbox,
    class_cards: Sequence[Card | None],
    frame: int,
) -> list[CardDetection]:
    """Kept candidates -> CardDetections in frame pixels. A class mapped to ``None`` (not a card) is dropped.

    Oriented boxes keep their four corner points (unclipped: a card partly out
    of view keeps its true outline); the box is clipped to the frame.
    """
    dets: list[CardDetection] = []
    quads = frame_quads(raw, box) if raw.angles is not None else None
    for k in range(len(raw)):
        card = class_cards[int(raw.classes[k])]
        if card is None:
            continue
        if quads is not None:
            dets.append(quad_detection(card, float(raw.scores[k]), quads[k], box.frame_width, box.frame_height, frame))
            continue
        (x1, y1), (x2, y2) = box.to_frame(raw.boxes[k].reshape(2, 2))
        dets.append(
            CardDetection(
                card=card,
                confidence=float(raw.scores[k]),
                box=(float(x1), float(y1), float(x2), float(y2)),
                frame=frame,
            )
        )
    return dets


def _box_gap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Distance between two axis-aligned boxes (0 when they touch or overlap)."""
    dx = max(0.0, max(a[0], b[0]) - min(a[2], b[2]))
    dy = max(0.0, max(a[1], b[1]) - min(a[3], b[3]))
    return math.hypot(dx, dy)


def merge_same_card(detections: Sequence[CardDetection], max_gap: float = 4.0) -> list[CardDetection]:
    """Merge detections of the same card that lie close together into one detection per card.

    A card shows its index in two opposite corners, and a detector may find
    both (or box one card twice). Two detections with the same card are one
    card when the gap between their boxes is at most ``max_gap`` times the
    longer side of the larger box: for corner-index boxes that spans the
    card's diagonal; for whole-card boxes it means "touching or close".
    Detections further apart stay separate (a second deck, or a misread the
    tracker should see). The merged detection has the union box, the highest
    confidence, and the corner points of the member that gave them (the most
    confident one). Order: by confidence, highest first.
    """
    remaining = sorted(detections, key=lambda d: -d.confidence)
    merged: list[CardDetection] = []
    while remaining:
        seed = remaining.pop(0)
        group = [seed]
        changed = True
        # Grow the group transitively, so the two corners plus a whole-card box all join.
        while changed:
            changed = False
            for other in list(remaining):
                if other.card != seed.card:
                    continue
                for member in group:
                    scale = max(
                        member.box[2] - member.box[0],
                        member.box[3] - member.box[1],
                        other.box[2] - other.box[0],
                        other.box[3] - other.box[1],
                    )
                    if _box_gap(member.box, other.box) <= max_gap * scale:
                        group.append(other)
                        remaining.remove(other)
                        changed = True
                        break
        if len(group) == 1:
            merged.append(seed)
            continue
        x1 = min(d.box[0] for d in group)
        y1 = min(d.box[1] for d in group)
        x2 = max(d.box[2] for d in group)
        y2 = max(d.box[3] for d in group)
        corners = next((d.corners for d in group if d.corners is not None), None)
        merged.append(
            CardDetection(
                card=seed.card, confidence=seed.confidence, box=(x1, y1, x2, y2), frame=seed.frame, corners=corners,
                rival=seed.rival,
            )
        )
    return merged


def class_cards(names: dict[int, str] | Sequence[str]) -> list[Card | None]:
    """The card for each class index, from the model's class names (``"Jd"``, ``"B"``; case and ``10`` allowed).

    A name that is not a card (such as ``"card"`` for a card-finding class)
    maps to ``None``: such boxes are not reported as cards.
    """
    from table.cards import CardParseError

    items = sorted(names.items()) if isinstance(names, dict) else list(enumerate(names))
    if [k for k, _ in items] != list(range(len(items))):
        raise ValueError(f"class indices must run 0..{len(items) - 1}, got {[k for k, _ in items]}")
    cards: list[Card | None] = []
    for _, name in items:
        text = str(name).strip()
        if len(text) >= 2 and text[-1] in "CDHS":
            text = text[:-1] + text[-1].lower()
        try:
            cards.append(Card.parse(text))
        except CardParseError:
            cards.append(None)
    return cards


def frame_quads(raw: Raw, box: Letterbox) -> FloatArray:
    """Each kept candidate's four corner points (K, 4, 2) in frame pixels (a rectangle for an axis-aligned box)."""
    if raw.angles is not None:
        pts = rotated_corners(raw.xywh, raw.angles)
    else:
        b = raw.boxes
        pts = np.stack([b[:, [0, 1]], b[:, [2, 1]], b[:, [2, 3]], b[:, [0, 3]]], axis=1)
    return box.to_frame(pts, clip=False)


def quad_detection(
    card: Card, confidence: float, quad: FloatArray, width: int, height: int, frame: int, rival: Card | None = None
) -> CardDetection:
    """A CardDetection for a card outlined by ``quad`` (4, 2) in frame pixels; the box is clipped to the frame.
    ``rival``: the card a doubted reading most likely is instead (``CardDetection.rival``)."""
    x1, y1 = np.maximum(quad.min(axis=0), 0.0)
    x2, y2 = np.minimum(quad.max(axis=0), (width, height))
    return CardDetection(
        card=card,
        confidence=float(confidence),
        box=(float(x1), float(y1), float(x2), float(y2)),
        frame=frame,
        corners=tuple((float(x), float(y)) for x, y in quad),
        rival=rival,
    )
