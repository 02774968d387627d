"""A restyled test set read per deck style: how well the reader names decks printed unlike the artwork.

    python -m lab.style_report work-data/datasets/synth-restyle [--model models/card-obb.onnx] [--profile P]

The set is one built with ``python -m lab.synth.build test --restyle P``: its ``styles.csv`` says, per
image, how that scene's deck is printed (``scenes.DECK_STYLES``: dark paper with gold or silver print,
coloured paper, four-colour suits; or ``as-drawn``). The reader reads every image once, readings of the
cards in ``ignore.csv`` left out (as ``eval-vision --ignore``), and one line is printed per style, then one
for the whole set:

    style=dark images=55 cards=137 precision=0.9455 recall=0.3796 red_suit_swaps=0 black_suit_swaps=1 ...

A pub's deck may be printed any of these ways, and a figure pooled over the styles hides the weakest.
``build test --restyle 1 --styles dark`` draws a set whose every deck is of the weakest kind.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from lab.evaluate import EvalResult, ImageScore
from lab.synth.build import STYLES_FILE
from vision.errors import UserError


def read_styles(path: Path) -> dict[str, str]:
    """Per image, its deck style, from a ``styles.csv`` (header ``image,style``); a file that cannot be read
    is a ``UserError`` naming it (and the line)."""
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.reader(fh))
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read the deck styles: {exc}") from exc
    if not rows or [c.strip() for c in rows[0]] != ["image", "style"]:
        raise UserError(f"{path}: expected the header 'image,style'")
    styles: dict[str, str] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        if len(row) != 2 or not row[0].strip() or not row[1].strip():
            raise UserError(f"{path}, line {line}: expected 'image,style', got {','.join(row)!r}")
        styles[row[0].strip()] = row[1].strip()
    return styles


def by_style(scores: Sequence[ImageScore], styles: Mapping[str, str], where: Path) -> dict[str, EvalResult]:
    """The images' scores grouped by their deck style, styles in name order. An image ``styles`` does not
    name is a ``UserError`` (``where``: the styles file, for the message)."""
    groups: dict[str, EvalResult] = {}
    for score in scores:
        style = styles.get(score.image)
        if style is None:
            raise UserError(f"{where}: no style for {score.image}")
        groups.setdefault(style, EvalResult()).per_image.append(score)
    return dict(sorted(groups.items()))


def style_line(style: str, result: EvalResult) -> str:
    return (f"style={style} images={result.images} cards={result.cards} precision={result.precision:.4f} "
            f"recall={result.recall:.4f} red_suit_swaps={result.red_suit_swaps} "
            f"black_suit_swaps={result.black_suit_swaps} to_check={result.to_check} "
            f"to_check_right={result.to_check_right}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path, help="a test set built with --restyle (images/, labels.csv, styles.csv)")
    ap.add_argument("--model", type=Path, default=None, help="the finder (its classifier beside it)")
    ap.add_argument("--profile", type=Path, default=None, help="read with this deck profile")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)

    from lab.evaluate import evaluate, read_ignore
    from vision.models import default_model_path
    from vision.onnx_detector import OnnxDetector

    folder: Path = args.folder
    try:
        styles = read_styles(folder / STYLES_FILE)
        ignore_path = folder / "ignore.csv"
        ignore = read_ignore(ignore_path) if ignore_path.is_file() else None
        detector = OnnxDetector(args.model or default_model_path(), threads=args.threads, profile=args.profile)
        result = evaluate(detector, folder / "images", folder / "labels.csv", ignore=ignore)
        groups = by_style(result.per_image, styles, folder / STYLES_FILE)
    except UserError as exc:
        print(f"style_report: {exc}", file=sys.stderr)
        return 2
    for style, part in groups.items():
        print(style_line(style, part))
    print(style_line("all", result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
