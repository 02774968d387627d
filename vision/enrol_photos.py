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

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np
import numpy.typing as npt

from table.cards import Card
from vision.errors import UserError
from vision.labels import LabelledCard, read_labels

if TYPE_CHECKING:
    from vision.deck_profile import DeckProfile
    from vision.onnx_detector import OnnxDetector

# A labelled box and an outline's bounding box are the same card from this IoU up (labels are approximate).
MIN_MATCH_IOU = 0.3


@dataclass
class EnrolResult:
    """What enrolment from photos made: the profile, per card added its photo, and what was skipped."""

    profile: DeckProfile
    added: list[tuple[str, Card]] = field(default_factory=list)
    skipped: list[tuple[str, Card, str]] = field(default_factory=list)
    folder: Path | None = None


def match_labels(
    labels: Sequence[LabelledCard], quads: npt.NDArray[np.float32], frame_size: tuple[int, int]
) -> dict[int, int]:
    """Which finder outline is which labelled card: label index -> outline index, one to one, the pairs
    whose boxes overlap most first, from an IoU of :data:`MIN_MATCH_IOU` (labels' boxes are approximate)."""
    fw, fh = frame_size
    boxes = [(float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())) for q in quads]
    pairs = []
    for li, lab in enumerate(labels):
        x, y, w, h = lab.box
        lb = ((x - w / 2) * fw, (y - h / 2) * fh, (x + w / 2) * fw, (y + h / 2) * fh)
        pairs += [(_box_iou(lb, b), li, qi) for qi, b in enumerate(boxes)]
    matched: dict[int, int] = {}
    for iou, li, qi in sorted(pairs, reverse=True):
        if iou >= MIN_MATCH_IOU and li not in matched and qi not in matched.values():
            matched[li] = qi
    return matched


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
    labels = read_labels(labels_csv)
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
        # Enrolment's outlines: a card judged printed light on dark paper outlined by the dark-deck finder.
        quads = detector.card_outlines(frame).quads
        matched = match_labels(labels[image], quads, (fw, fh))
        used_l = set(matched)
        for li, qi in matched.items():
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
