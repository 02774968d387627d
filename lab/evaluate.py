"""Scores a card detector on labelled photos by card identity: precision, recall, F1 and suit swaps.

The score is about *which cards* the detector names, not where its boxes
are: the labels box whole visible cards, while a detector may box corner
indices. Per image, the SET of cards reported is compared with the SET of
cards labelled (a card reported twice counts once):

- true positive: a card both reported and labelled;
- false alarm: a card reported but not labelled;
- miss: a card labelled but not reported.

A card labelled twice in one image (a rendered scene may mix two decks;
real photos of one deck never do) is likewise one card of the set.

Over all images, ``precision = TP / (TP + false alarms)`` (1.0 when nothing
is reported), ``recall = TP / (TP + misses)`` (1.0 when nothing is
labelled), ``f1`` their harmonic mean (0.0 when both are 0).

A **red suit swap** is one labelled red card X of suit S in one image that
was missed while the card of the same rank in the other red suit (S's
partner: hearts <-> diamonds) was reported there and is not itself labelled
in that image. Each such pair is one miss plus one false alarm that the
engine would read as the wrong red suit: the error that turns into a false
renege alarm. A **black suit swap** is the same for clubs <-> spades. The
Benny has no suit and never swaps.

The confusion table pairs each labelled card with what was reported for it:
hits on the diagonal; then suit swaps; then a missed labelled card and an
unexplained reported card whose boxes overlap (at least half of the
reported box lies inside the labelled box); what is left is a miss
(reported ``none``) or a false alarm (labelled ``none``).

Cards to **ignore** (``evaluate(..., ignore=)``, ``eval-vision --ignore FILE``): a CSV with the header
``image,class`` naming cards that lie in an image but are not labelled, because too little of them shows
to find, though their index shows whole enough to be read (the synthetic test sets write one,
``ignore.csv``). Reporting such a card is neither a true positive nor a false alarm: it is left out, and
counted as ``ignored``. A card both labelled and listed counts as labelled.

Readings **to check**: a reading under the engine's check line (``table.renege.CHECK_CONFIDENCE``) is
one the engine records as "check this card" and proves nothing with (the reader reports a card split with
its twin, and a Joker it half believes, that way). It is no claim, so it is left out of the score and counted
apart (``to_check``, and how many of those cards lie in the image: ``to_check_right``; of the others, how
many name as their rival, the card the check offers instead, a card that lies there: ``to_check_rival_right``);
a card also reported from the line up counts once, as that.

Labels are a CSV with the header ``image,class,x_center,y_center,width,height``
(coordinates normalised to 0..1) as in ``data/real-photos-dev``. Every
image file in the images folder is scored; one with no label rows is a scene
with no cards, so anything reported there is a false alarm. A label row
naming an image that is not in the folder is an error.
"""

from __future__ import annotations

import csv
import dataclasses
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from table.cards import ALL_CARDS, Card
from table.renege import CHECK_CONFIDENCE
from vision.detector import Detector
from vision.errors import UserError
from vision.labels import LabelledCard, read_labels
from vision.sources.files import load_image

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp"})
NONE = "none"  # the confusion table's name for "no card" (a miss's report, a false alarm's label)


def list_images(images_dir: Path, labels: dict[str, list[LabelledCard]], labels_path: Path) -> list[str]:
    """The image files to score: every image in the folder; each labelled image must be there."""
    if not images_dir.is_dir():
        raise UserError(f"{images_dir}: images folder not found")
    present = sorted(p.name for p in images_dir.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
    names = set(present)
    for image, entries in labels.items():
        if image not in names:
            raise UserError(f"{labels_path}:{entries[0].line}: image {image!r} is not in {images_dir}")
    if not present:
        raise UserError(f"{images_dir}: no images (.jpg, .jpeg, .png, .bmp, .webp)")
    return present


@dataclass(frozen=True)
class ImageScore:
    """One image's outcome: the cards labelled and reported, and how they were paired up."""

    image: str
    labelled: frozenset[Card]
    reported: frozenset[Card]
    pairs: tuple[tuple[str, str], ...]  # (labelled, reported) card strings; "none" for a miss or false alarm
    red_suit_swaps: int
    black_suit_swaps: int
    ms: float
    ignored: int = 0  # reported cards on the image's ignore list (not labelled), left out of the score
    to_check: int = 0  # cards reported only under the engine's check line (not scored)
    to_check_right: int = 0  # ... of them, cards labelled in the image
    to_check_rival_right: int = 0  # ... of the rest, readings whose rival (CardDetection.rival) is labelled

    @property
    def true_positives(self) -> int:
        return len(self.labelled & self.reported)

    @property
    def false_alarms(self) -> int:
        return len(self.reported - self.labelled)

    @property
    def misses(self) -> int:
        return len(self.labelled - self.reported)


def _overlap_of_reported(
    label_box_px: tuple[float, float, float, float], reported_box: tuple[float, float, float, float]
) -> float:
    """Fraction of the reported box (x1, y1, x2, y2) that lies inside the labelled box."""
    lx1, ly1, lx2, ly2 = label_box_px
    rx1, ry1, rx2, ry2 = reported_box
    iw = max(0.0, min(lx2, rx2) - max(lx1, rx1))
    ih = max(0.0, min(ly2, ry2) - max(ly1, ry1))
    area = max((rx2 - rx1) * (ry2 - ry1), 1e-9)
    return iw * ih / area


def score_image(
    image: str,
    labelled: Sequence[LabelledCard],
    reported_boxes: dict[Card, tuple[float, float, float, float]],
    frame_size: tuple[int, int] = (1, 1),
    ms: float = 0.0,
    ignore: frozenset[Card] = frozenset(),
) -> ImageScore:
    """Compare one image's labelled cards with the reported ones (card -> a reported box, in pixels).

    ``frame_size`` is (width, height), to turn the normalised label boxes into
    pixels for the confusion table's box pairing; it does not affect the scores.
    Reported cards in ``ignore`` that are not labelled are left out (see the module's docstring).
    """
    lab = {entry.card: entry for entry in labelled}
    labelled_set = frozenset(lab)
    left_out = (frozenset(reported_boxes) & ignore) - labelled_set
    reported_set = frozenset(reported_boxes) - left_out
    pairs: list[tuple[str, str]] = [(str(c), str(c)) for c in sorted(labelled_set & reported_set, key=str)]
    missed = sorted(labelled_set - reported_set, key=str)
    extra = set(reported_set - labelled_set)
    red = black = 0
    still_missed: list[Card] = []
    for card in missed:
        if card.rank is not None and card.suit is not None:
            twin = Card(card.rank, card.suit.partner)
            if twin in extra:
                extra.discard(twin)
                pairs.append((str(card), str(twin)))
                if card.suit.is_red:
                    red += 1
                else:
                    black += 1
                continue
        still_missed.append(card)
    # Pair what is left by where it lies: the best-overlapping reported card for each miss.
    width, height = frame_size
    candidates: list[tuple[float, Card, Card]] = []
    for card in still_missed:
        cx, cy, w, h = lab[card].box
        px = ((cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height)
        for other in extra:
            overlap = _overlap_of_reported(px, reported_boxes[other])
            if overlap >= 0.5:
                candidates.append((overlap, card, other))
    candidates.sort(key=lambda t: (-t[0], str(t[1]), str(t[2])))
    paired_l: set[Card] = set()
    for _, card, other in candidates:
        if card in paired_l or other not in extra:
            continue
        paired_l.add(card)
        extra.discard(other)
        pairs.append((str(card), str(other)))
    pairs.extend((str(c), NONE) for c in still_missed if c not in paired_l)
    pairs.extend((NONE, str(c)) for c in sorted(extra, key=str))
    return ImageScore(
        image=image,
        labelled=labelled_set,
        reported=reported_set,
        pairs=tuple(pairs),
        red_suit_swaps=red,
        black_suit_swaps=black,
        ms=ms,
        ignored=len(left_out),
    )


@dataclass
class EvalResult:
    """Totals over a set of labelled images."""

    per_image: list[ImageScore] = field(default_factory=list)

    @property
    def images(self) -> int:
        return len(self.per_image)

    @property
    def cards(self) -> int:
        return sum(len(s.labelled) for s in self.per_image)

    @property
    def reported(self) -> int:
        return sum(len(s.reported) for s in self.per_image)

    @property
    def true_positives(self) -> int:
        return sum(s.true_positives for s in self.per_image)

    @property
    def false_alarms(self) -> int:
        return sum(s.false_alarms for s in self.per_image)

    @property
    def ignored(self) -> int:
        return sum(s.ignored for s in self.per_image)

    @property
    def misses(self) -> int:
        return sum(s.misses for s in self.per_image)

    @property
    def to_check(self) -> int:
        return sum(s.to_check for s in self.per_image)

    @property
    def to_check_right(self) -> int:
        return sum(s.to_check_right for s in self.per_image)

    @property
    def to_check_rival_right(self) -> int:
        return sum(s.to_check_rival_right for s in self.per_image)

    @property
    def precision(self) -> float:
        tp, fp = self.true_positives, self.false_alarms
        return tp / (tp + fp) if tp + fp else 1.0

    @property
    def recall(self) -> float:
        tp, fn = self.true_positives, self.misses
        return tp / (tp + fn) if tp + fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def red_suit_swaps(self) -> int:
        return sum(s.red_suit_swaps for s in self.per_image)

    @property
    def black_suit_swaps(self) -> int:
        return sum(s.black_suit_swaps for s in self.per_image)

    @property
    def ms_per_image(self) -> float:
        """Median detector time per image (reading the file from disk not included)."""
        return statistics.median(s.ms for s in self.per_image) if self.per_image else 0.0

    def confusion(self) -> Counter[tuple[str, str]]:
        """(labelled, reported) -> count over all images; ``"none"`` marks misses and false alarms."""
        counts: Counter[tuple[str, str]] = Counter()
        for s in self.per_image:
            counts.update(s.pairs)
        return counts


def evaluate(
    detector: Detector,
    images_dir: Path,
    labels_csv: Path,
    progress: Callable[[ImageScore], None] | None = None,
    ignore: dict[str, frozenset[Card]] | None = None,
) -> EvalResult:
    """Run ``detector`` on every image in ``images_dir`` and score it against ``labels_csv`` (and, where
    given, ``ignore``: per image, the cards whose reading is left out; :func:`read_ignore`)."""
    labels = read_labels(labels_csv)
    names = list_images(images_dir, labels, labels_csv)
    result = EvalResult()
    for frame_no, name in enumerate(names):
        image = load_image(images_dir / name)
        start = time.perf_counter()
        detections = detector.detect(image, frame_no)
        ms = (time.perf_counter() - start) * 1000.0
        boxes: dict[Card, tuple[float, float, float, float]] = {}
        for det in sorted(detections, key=lambda d: -d.confidence):
            if det.confidence >= CHECK_CONFIDENCE:
                boxes.setdefault(det.card, det.box)
        skip = ignore.get(name, frozenset()) if ignore is not None else frozenset()
        labelled = labels.get(name, [])
        score = score_image(name, labelled, boxes, (image.shape[1], image.shape[0]), ms, skip)
        under = {d.card: d for d in sorted(detections, key=lambda d: d.confidence) if d.confidence < CHECK_CONFIDENCE}
        checked = set(under) - set(boxes)
        checked -= skip - score.labelled
        if checked:
            rivals = {c for c in checked - score.labelled if under[c].rival in score.labelled}
            score = dataclasses.replace(
                score, to_check=len(checked), to_check_right=len(checked & score.labelled),
                to_check_rival_right=len(rivals),
            )
        result.per_image.append(score)
        if progress is not None:
            progress(score)
    return result


def read_ignore(path: Path) -> dict[str, frozenset[Card]]:
    """Per image, the cards to leave out of the score (a CSV with the header ``image,class``)."""
    try:
        with open(path, newline="") as fh:
            rows = list(csv.reader(fh))
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read the cards to ignore: {exc}") from exc
    if not rows or [c.strip() for c in rows[0]] != ["image", "class"]:
        raise UserError(f"{path}: expected the header 'image,class'")
    out: dict[str, set[Card]] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        if len(row) != 2:
            raise UserError(f"{path}, line {line}: expected 2 fields (image,class), got {len(row)}")
        try:
            card = Card.parse(row[1].strip())
        except ValueError as exc:
            raise UserError(f"{path}, line {line}: {row[1]!r} is not a card ({exc})") from exc
        out.setdefault(row[0].strip(), set()).add(card)
    return {image: frozenset(cards) for image, cards in out.items()}


def confusion_rows(counts: Counter[tuple[str, str]], extra_cards: Iterable[str] = ()) -> list[list[str]]:
    """The confusion table as CSV rows: labelled card down, reported card across, ``none`` last on both.

    Every card of the 33-card deck gets a row and a column, so tables from
    different runs line up.
    """
    names = [str(c) for c in ALL_CARDS]
    for extra in sorted({*extra_cards, *(k for pair in counts for k in pair)}):
        if extra not in names and extra != NONE:
            names.append(extra)
    names.append(NONE)
    rows = [["labelled\\reported", *names]]
    for lab in names:
        rows.append([lab, *(str(counts.get((lab, rep), 0)) for rep in names)])
    return rows


def write_confusion(path: Path, result: EvalResult) -> None:
    """Write the confusion table, then a blank row and one ``name,count`` row per total.

    The totals are ``true_positives``, ``misses``, ``false_alarms``,
    ``red_suit_swaps`` and ``black_suit_swaps``.
    """
    rows = confusion_rows(result.confusion())
    rows.append([])
    rows.extend(
        [
            ["true_positives", str(result.true_positives)],
            ["misses", str(result.misses)],
            ["false_alarms", str(result.false_alarms)],
            ["red_suit_swaps", str(result.red_suit_swaps)],
            ["black_suit_swaps", str(result.black_suit_swaps)],
        ]
    )
    try:
        with path.open("w", newline="", encoding="utf-8") as fh:
            csv.writer(fh).writerows(rows)
    except OSError as exc:
        raise UserError(f"{path}: cannot write the confusion table ({exc.strerror})") from None
