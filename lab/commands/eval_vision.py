"""``euchre-table eval-vision``: card-identity scores of the detector on labelled photos."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.summary import summary_line
from vision.errors import UserError

if TYPE_CHECKING:
    from lab.evaluate import EvalResult


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
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        metavar="PATH",
        help="read with this deck profile (its folder or profile.json; see vision/deck_profile.py)",
    )
    parser.add_argument(
        "--cross-halves",
        action="store_true",
        help=(
            "split the photos in two halves (sorted by file name, alternately), build a deck profile from each "
            "half (vision/enrol_photos.py) and score the other half with it; prints the pooled score without and "
            "with the profiles"
        ),
    )
    parser.add_argument(
        "--ignore",
        type=Path,
        default=None,
        metavar="FILE",
        help=(
            "a CSV (image,class) of cards that lie in the images unlabelled but with their index showing (the "
            "synthetic test sets' ignore.csv): reporting one counts neither way"
        ),
    )
    parser.add_argument(
        "--live",
        action="store_true",
        help=(
            "read each photo as the live table reads a camera frame: without the tile look a still photo gets "
            "where its cards are small (vision/onnx_detector.py, TILE_LOOK_BELOW)"
        ),
    )
    parser.add_argument("--confusion", type=Path, default=None, metavar="FILE", help="write a confusion table (CSV)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each image the detector got wrong")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from lab.evaluate import ImageScore, evaluate, list_images, read_ignore, write_confusion
    from vision.detector import load_detector
    from vision.labels import read_labels
    from vision.models import default_model_path

    # Check the inputs before the (slow) model load, so a typo fails at once.
    list_images(args.images_dir, read_labels(args.labels_csv), args.labels_csv)
    ignore = read_ignore(args.ignore) if args.ignore is not None else None
    model = args.model if args.model is not None else default_model_path()
    if args.cross_halves:
        if ignore is not None:
            raise UserError("--cross-halves scores labelled photos only: leave out --ignore")
        return _cross_halves(args, model)
    detector = load_detector(
        model,
        backend=args.backend,
        threads=args.threads,
        conf_threshold=args.conf,
        min_confidence=args.min_confidence,
        profile=args.profile,
        still=not args.live,
    )

    def show(score: ImageScore) -> None:
        if args.verbose and score.labelled != score.reported:
            wrong = " ".join(f"{lab}->{rep}" for lab, rep in score.pairs if lab != rep)
            print(f"{score.image}: {wrong}")

    result = evaluate(detector, args.images_dir, args.labels_csv, progress=show, ignore=ignore)
    if args.confusion is not None:
        write_confusion(args.confusion, result)
    left_out = {"ignored": result.ignored} if ignore is not None else {}
    _print_result(result, model, profile=args.profile, read="live" if args.live else "still", **left_out)
    return 0


def _print_result(result: EvalResult, model: Path, **extra: object) -> None:
    print(
        summary_line(
            model=model,
            **extra,
            reported=result.reported,
            true_positives=result.true_positives,
            misses=result.misses,
            false_alarms=result.false_alarms,
            black_suit_swaps=result.black_suit_swaps,
            red_suit_swap_rate=round(result.red_suit_swaps / max(result.cards, 1), 4),
            to_check=result.to_check,
            to_check_right=result.to_check_right,
            to_check_rival_right=result.to_check_rival_right,
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


def _cross_halves(args: argparse.Namespace, model: Path) -> int:
    """Profile from one half of the photos, scored on the other, both ways; pooled, without and with."""
    import tempfile

    from lab.evaluate import EvalResult, evaluate, write_confusion
    from vision.detector import load_detector
    from vision.enrol_photos import enrol_from_photos, split_halves
    from vision.labels import read_labels
    from vision.onnx_detector import OnnxDetector

    if args.profile is not None:
        raise UserError("--cross-halves builds its own profiles: leave out --profile")
    labels = read_labels(args.labels_csv)
    halves = split_halves(labels)
    plain = load_detector(
        model, backend=args.backend, threads=args.threads, conf_threshold=args.conf, min_confidence=args.min_confidence,
        still=not args.live,
    )
    if not isinstance(plain, OnnxDetector):
        raise UserError("--cross-halves needs the ONNX backend")
    pooled = {"without": EvalResult(), "with": EvalResult()}
    with tempfile.TemporaryDirectory(prefix="euchre-halves-") as tmp:
        for k, (enrol_half, score_half) in enumerate(((halves[0], halves[1]), (halves[1], halves[0]))):
            built = enrol_from_photos(
                args.images_dir, args.labels_csv, f"half{k}", detector=plain, out=Path(tmp) / f"half{k}",
                images=enrol_half,
            )
            print(f"half {k}: enrolled {len(built.added)} cards ({len(built.profile)} distinct) from "
                  f"{len(enrol_half)} photos, skipped {len(built.skipped)}; scoring {len(score_half)} photos")
            # The scored half as a folder of its own: links to its photos and its label rows.
            folder = Path(tmp) / f"score{k}"
            (folder / "images").mkdir(parents=True)
            for name in score_half:
                (folder / "images" / name).symlink_to((args.images_dir / name).resolve())
            lines = args.labels_csv.read_text(encoding="utf-8").splitlines()
            keep = [lines[0]] + [ln for ln in lines[1:] if ln.split(",", 1)[0].strip() in set(score_half)]
            (folder / "labels.csv").write_text("\n".join(keep) + "\n", encoding="utf-8")
            profiled = load_detector(
                model, backend=args.backend, threads=args.threads, conf_threshold=args.conf,
                min_confidence=args.min_confidence, profile=built.folder, still=not args.live,
            )
            for key, det in (("without", plain), ("with", profiled)):
                part = evaluate(det, folder / "images", folder / "labels.csv")
                pooled[key].per_image.extend(part.per_image)
    for key, result in pooled.items():
        _print_result(result, model, profile=f"{key} (cross halves)", read="live" if args.live else "still")
    if args.confusion is not None:
        write_confusion(args.confusion, pooled["with"])
    return 0
