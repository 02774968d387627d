"""A deck profile from labelled photos (``euchre-table enrol --from-photos IMAGES LABELS``).

The photos are labelled as ``euchre-table eval-vision`` reads them: a CSV
``image,class,x_center,y_center,width,height`` (one row per card, the box
around the whole card, axis-aligned, normalised to 0..1; ``class`` in EGN).
Each labelled card is matched to the finder's outline whose bounding box
overlaps its box most (IoU at least :data:`MIN_MATCH_IOU`, one outline per
card), and that outline is added to a ``vision.deck_profile.ProfileBuilder``.
A card the finder did not outline is skipped and reported.

    from vision.enrol_photos import enrol_from_photos
    result = enrol_from_photos(Path("photos"), Path("photos/labels.csv"), "house", out=folder)
    result.profile, result.added, result.skipped   # skipped: (image, card, why)

``images`` restricts enrolment to some of the photos (by file name), so a
profile can be built from one half of a set and scored on the other
(:func:`split_halves`).
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from table.cards import Card, CardParseError
from vision.errors import UserError

if TYPE_CHECKING:
    from vision.deck_profile import DeckProfile
    from vision.onnx_detector import OnnxDetector

LABEL_HEADER = ("image", "class", "x_center", "y_center", "width", "height")
# A labelled box and an outline's bounding box are the same card from this IoU up (labels are approximate).
MIN_MATCH_IOU = 0.3
MAX_LABEL_ROWS = 100_000


@dataclass
class PhotoLabel:
    card: Card
    box: tuple[float, float, float, float]  # x_center, y_center, width, height, 0..1


@dataclass
class EnrolResult:
    """What enrolment from photos made: the profile, per card added its photo, and what was skipped."""

    profile: DeckProfile
    added: list[tuple[str, Card]] = field(default_factory=list)
    skipped: list[tuple[str, Card, str]] = field(default_factory=list)
    folder: Path | None = None


def read_photo_labels(path: Path) -> dict[str, list[PhotoLabel]]:
    """Label rows grouped by image file name; a bad file raises UserError naming the file and line."""
    if not path.is_file():
        raise UserError(f"{path}: labels file not found")
    labels: dict[str, list[PhotoLabel]] = {}
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            reader = csv.reader(fh)
            header = next(reader, None)
            if header is None or tuple(h.strip() for h in header) != LABEL_HEADER:
                raise UserError(f"{path}:1: expected the header {','.join(LABEL_HEADER)!r}")
            for rows, row in enumerate(reader):
                if rows >= MAX_LABEL_ROWS:
                    raise UserError(f"{path}: more than {MAX_LABEL_ROWS} rows")
                if not row or all(not c.strip() for c in row):
                    continue
                line = reader.line_num
                if len(row) != len(LABEL_HEADER):
                    raise UserError(f"{path}:{line}: expected {len(LABEL_HEADER)} fields, got {len(row)}")
                try:
                    card = Card.parse(row[1].strip())
                    x, y, w, h = (float(v) for v in row[2:6])
                except (CardParseError, ValueError):
                    raise UserError(f"{path}:{line}: expected a card and four numbers, got {row[1:6]}") from None
                if not all(0.0 <= v <= 1.0 for v in (x, y, w, h)):
                    raise UserError(f"{path}:{line}: box coordinates must lie in 0..1")
                labels.setdefault(row[0].strip(), []).append(PhotoLabel(card, (x, y, w, h)))
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not a UTF-8 text file ({exc.reason})") from None
    except csv.Error as exc:
        raise UserError(f"{path}: not a readable CSV file ({exc})") from None
    return labels


def split_halves(names: Iterable[str]) -> tuple[list[str], list[str]]:
    """Two halves of a photo set by a stable rule: sorted by file name, alternately (1st, 3rd, ... / 2nd, ...)."""
    ordered = sorted(names)
    return ordered[0::2], ordered[1::2]


def _box_iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def enrol_from_photos(
    images_dir: Path,
    labels_csv: Path,
    name: str,
    detector: OnnxDetector | None = None,
    out: Path | None = None,
    images: Iterable[str] | None = None,
    progress: Callable[[str], None] | None = None,
) -> EnrolResult:
    """Build deck ``name``'s profile from labelled photos; save it into ``out`` when given.

    ``detector``: the two-stage reader whose finder outlines the cards and whose classifier gives the
    features (default: the shipped model, one thread). ``images``: only these photos (file names).
    ``progress`` is told each photo's name as it is read. UserError where nothing could be enrolled.
    """
    from vision.deck_profile import ProfileBuilder, check_name, save_profile

    check_name(name)
    labels = read_photo_labels(labels_csv)
    if not images_dir.is_dir():
        raise UserError(f"{images_dir}: not a folder of images")
    if detector is None:
        from vision.models import default_model_path
        from vision.onnx_detector import OnnxDetector

        detector = OnnxDetector(default_model_path(), threads=1)
    builder = ProfileBuilder.for_detector(detector)
    wanted = set(images) if images is not None else None
    result_added: list[tuple[str, Card]] = []
    skipped: list[tuple[str, Card, str]] = []
    for image in sorted(labels):
        if wanted is not None and image not in wanted:
            continue
        if progress is not None:
            progress(image)
        read = cv2.imread(str(images_dir / image), cv2.IMREAD_COLOR)
        if read is None:
            skipped += [(image, lab.card, "image missing or unreadable") for lab in labels[image]]
            continue
        frame = np.ascontiguousarray(read, np.uint8)
        fh, fw = frame.shape[:2]
        quads, _ = detector.outlines(frame)
        boxes = [
            (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())) for q in quads
        ]
        pairs = []
        for li, lab in enumerate(labels[image]):
            x, y, w, h = lab.box
            lb = ((x - w / 2) * fw, (y - h / 2) * fh, (x + w / 2) * fw, (y + h / 2) * fh)
            pairs += [(_box_iou(lb, b), li, qi) for qi, b in enumerate(boxes)]
        used_l: set[int] = set()
        used_q: set[int] = set()
        for iou, li, qi in sorted(pairs, reverse=True):
            if iou < MIN_MATCH_IOU or li in used_l or qi in used_q:
                continue
            used_l.add(li)
            used_q.add(qi)
            builder.add(labels[image][li].card, frame, quads[qi])
            result_added.append((image, labels[image][li].card))
        skipped += [
            (image, lab.card, "not outlined by the finder") for li, lab in enumerate(labels[image]) if li not in used_l
        ]
    if not result_added:
        raise UserError(f"{labels_csv}: no labelled card could be enrolled (none outlined, or no photo found)")
    profile = builder.build(name)
    result = EnrolResult(profile, result_added, skipped)
    if out is not None:
        save_profile(profile, out)
        result.folder = Path(out)
    return result
