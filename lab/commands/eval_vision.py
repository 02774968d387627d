"""``euchre-table eval-vision``: card-identity scores of the detector on labelled photos."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.summary import summary_line


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "eval-vision",
        help="score the card detector on labelled photos (precision, recall, red-suit swaps)",
        description=(
            "Runs the detector on every image in IMAGES_DIR and compares, per image, the set of cards it "
            "reports with the set labelled in LABELS_CSV (image,class,x_center,y_center,width,height). "
            "A red suit swap is a labelled red card missed while the same rank in the other red suit was "
            "reported (and is not labelled). See vision/evaluate.py for the exact definitions."
        ),
    )
    parser.add_argument("images_dir", type=Path, metavar="IMAGES_DIR")
    parser.add_argument("labels_csv", type=Path, metavar="LABELS_CSV")
    parser.add_argument("--model", type=Path, default=None, help="model file (default: the shipped models/ model)")
    parser.add_argument(
        "--backend",
        choices=("auto", "onnx", "ultralytics"),
        default="auto",
        help="auto: ONNX Runtime for .onnx, Ultralytics otherwise",
    )
    parser.add_argument("--threads", type=int, default=None, help="CPU threads for the detector (default: library's)")
    parser.add_argument("--conf", type=float, default=None, help="finder confidence threshold (default: the backend's)")
    parser.add_argument(
        "--min-confidence",
        type=float,
        default=None,
        help="report a card only from this reading confidence up (default: the detector's)",
    )
    parser.add_argument("--confusion", type=Path, default=None, metavar="FILE", help="write a confusion table (CSV)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each image the detector got wrong")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from lab.evaluate import ImageScore, evaluate, list_images, read_labels, write_confusion
    from vision.detector import load_detector
    from vision.models import default_model_path

    # Check the inputs before the (slow) model load, so a typo fails at once.
    list_images(args.images_dir, read_labels(args.labels_csv), args.labels_csv)
    model = args.model if args.model is not None else default_model_path()
    detector = load_detector(
        model, backend=args.backend, threads=args.threads, conf_threshold=args.conf, min_confidence=args.min_confidence
    )

    def show(score: ImageScore) -> None:
        if args.verbose and score.labelled != score.reported:
            wrong = " ".join(f"{lab}->{rep}" for lab, rep in score.pairs if lab != rep)
            print(f"{score.image}: {wrong}")

    result = evaluate(detector, args.images_dir, args.labels_csv, progress=show)
    if args.confusion is not None:
        write_confusion(args.confusion, result)
    print(
        summary_line(
            model=model,
            reported=result.reported,
            true_positives=result.true_positives,
            misses=result.misses,
            false_alarms=result.false_alarms,
            black_suit_swaps=result.black_suit_swaps,
            red_suit_swap_rate=round(result.red_suit_swaps / max(result.cards, 1), 4),
        )
    )
    print(
        summary_line(
            images=result.images,
            cards=result.cards,
            precision=round(result.precision, 4),
            recall=round(result.recall, 4),
            f1=round(result.f1, 4),
            red_suit_swaps=result.red_suit_swaps,
            ms_per_image=round(result.ms_per_image, 2),
        )
    )
    return 0
