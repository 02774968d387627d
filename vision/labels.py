"""Labelled photos' CSV (``image,class,x_center,y_center,width,height``, boxes normalised to 0..1), as the real
photo sets and ``lab.synth.build test`` write it: read by ``euchre-table enrol --from-photos`` and by the lab's
evaluation. A bad file raises ``UserError`` naming the file and line."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from table.cards import Card, CardParseError
from vision.errors import UserError

LABEL_HEADER = ("image", "class", "x_center", "y_center", "width", "height")
MAX_LABEL_ROWS = 100_000  # a hostile file is refused, not read into memory whole


@dataclass(frozen=True)
class LabelledCard:
    """One label row: the card and its whole-card box, normalised x_center, y_center, width, height."""

    card: Card
    box: tuple[float, float, float, float]
    line: int


def read_labels(path: Path) -> dict[str, list[LabelledCard]]:
    """Label rows grouped by image file name. Bad files raise UserError naming the file and line."""
    if not path.is_file():
        raise UserError(f"{path}: labels file not found")
    labels: dict[str, list[LabelledCard]] = {}
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            reader = csv.reader(fh)
            header = next(reader, None)
            if header is None or tuple(h.strip() for h in header) != LABEL_HEADER:
                raise UserError(
                    f"{path}:1: expected the header {','.join(LABEL_HEADER)!r}, got {','.join(header or [])!r}"
                )
            for rows, row in enumerate(reader):
                if rows >= MAX_LABEL_ROWS:
                    raise UserError(f"{path}: more than {MAX_LABEL_ROWS} rows")
                line = reader.line_num
                if not row or all(not cell.strip() for cell in row):
                    continue
                if len(row) != len(LABEL_HEADER):
                    raise UserError(f"{path}:{line}: expected {len(LABEL_HEADER)} fields, got {len(row)}")
                image, cls = row[0].strip(), row[1].strip()
                if not image:
                    raise UserError(f"{path}:{line}: empty image name")
                try:
                    card = Card.parse(cls)
                except CardParseError as exc:
                    raise UserError(f"{path}:{line}: bad class {cls!r}: {exc}") from None
                try:
                    coords = tuple(float(v) for v in row[2:6])
                except ValueError:
                    raise UserError(f"{path}:{line}: box coordinates must be numbers, got {row[2:6]}") from None
                if not all(0.0 <= v <= 1.0 for v in coords):
                    raise UserError(f"{path}:{line}: box coordinates must lie in 0..1, got {row[2:6]}")
                entries = labels.setdefault(image, [])
                entries.append(LabelledCard(card=card, box=(coords[0], coords[1], coords[2], coords[3]), line=line))
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not a UTF-8 text file ({exc.reason})") from None
    except csv.Error as exc:
        raise UserError(f"{path}: not a readable CSV file ({exc})") from None
    return labels
