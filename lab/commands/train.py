"""``euchre-table train``: train (or resume) the card finder or the corner-index classifier, and export ONNX.

Needs the training extras (torch, Ultralytics): ``pip install -e .[train]``,
best in a separate environment. Examples::

    euchre-table train detector --data work-data/datasets/obb/data.yaml --imgsz 256 --time-hours 1.45 --seed 0
    euchre-table train detector --resume work-data/runs/card-obb/weights/last.pt
    euchre-table train classifier --crops work-data/datasets/crops --epochs 5 --out work-data/runs/corner-cls
    euchre-table train face --crops work-data/datasets/faces --epochs 8 --out work-data/runs/face-cls
    euchre-table train export --detector-weights work-data/runs/card-obb/weights/best.pt --imgsz 256 \\
        --classifier-weights work-data/runs/corner-cls/best.pt --models models
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from companion.summary import summary_line
from vision.errors import UserError


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "train", help="train the card detector or corner classifier (needs the train extras)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("stage", choices=["detector", "classifier", "face", "export", "calibrate"],
                   help="what to train, export both, or calibrate the confidence of the models in --models")
    p.add_argument("--data", type=Path, help="detector: the Ultralytics data.yaml (lab.synth.build obb)")
    p.add_argument("--crops", type=Path, default=Path("work-data/datasets/crops"),
                   help="classifier: the crop chunks (python -m lab.synth.crops)")
    p.add_argument("--time-hours", type=float, default=None,
                   help="detector: stop after this wall-clock time (Ultralytics fits the epochs to it)")
    p.add_argument("--epochs", type=int, default=None, help="default: detector 30, classifier 5")
    p.add_argument("--imgsz", type=int, default=256, help="detector input size (square)")
    p.add_argument("--model-yaml", default=None,
                   help="Ultralytics model yaml, built from scratch (default lab/synth/yolov8t-card-obb.yaml)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    p.add_argument("--resume", type=Path, default=None,
                   help="detector: a last.pt to continue; classifier: pass any path to continue OUT/last.pt")
    p.add_argument("--out", type=Path, default=None, help="run folder (default work-data/runs/<stage>)")
    p.add_argument("--name", default="card-obb", help="detector: run name under --out")
    p.add_argument("--init-weights", type=Path, default=None,
                   help="fine-tune from this run's weights (a .pt of this project) instead of from scratch")
    p.add_argument("--lr0", type=float, default=None,
                   help="starting (detector) or peak (classifier) learning rate of a fine-tune")
    p.add_argument("--teacher", type=Path, default=None,
                   help="classifier: an earlier run's weights whose right readings the new one keeps (distillation)")
    p.add_argument("--distill", type=float, default=1.0, help="classifier: the distillation term's weight")
    p.add_argument("--mono-ink", type=float, default=0.0,
                   help="classifier: the share of training crops shown with all their print in one ink (grey or "
                        "a colour), so suits are learnt by shape as well as colour (default 0)")
    p.add_argument("--warp", type=float, default=0.0,
                   help="classifier: the share of training crops turned, sheared and scaled, as a finder's outline "
                        "off the card's leaves its index (default 0)")
    p.add_argument("--blocks", type=int, default=None,
                   help="classifier: residual blocks after the last convolution (default: as --init-weights has, "
                        "else 0); more than the start has are added as the identity")
    p.add_argument("--detector-weights", type=Path, help="export: trained detector .pt")
    p.add_argument("--classifier-weights", type=Path, help="export: trained classifier .pt")
    p.add_argument("--models", type=Path, default=Path("models"), help="export: where the ONNX files go")
    p.add_argument("--images", type=Path, default=Path("work-data/datasets/synth-test/images"),
                   help="calibrate: labelled images (default: the held-out decks' synthetic test set)")
    p.add_argument("--labels", type=Path, default=None, help="calibrate: their labels.csv (default: beside --images)")
    p.set_defaults(func=run)


def calibrate(args: argparse.Namespace) -> int:
    """Fit the confidence calibration of the models in ``--models`` and write it into their classes.json."""
    from lab.calibration_fit import collect_readings, fit_calibration, ignore_beside, reliability
    from vision.onnx_detector import OnnxDetector

    model = args.models / "card-obb.onnx"
    classes = args.models / "classes.json"
    if not model.is_file() or not classes.is_file():
        raise UserError(f"{args.models}: card-obb.onnx and classes.json needed (euchre-table train export)")
    labels = args.labels if args.labels is not None else args.images.parent / "labels.csv"
    if not labels.is_file():
        raise UserError(f"{labels}: labels not found (python -m lab.synth.build test)")
    ignore = ignore_beside(labels)  # readings of cards left unlabelled whose index shows count neither way
    detector = OnnxDetector(model, threads=args.threads)
    samples = collect_readings(detector, args.images, labels, ignore)
    try:
        cal = fit_calibration(samples, fitted_on=f"{args.images} ({len(samples)} readings)")
    except ValueError as exc:
        raise UserError(f"{args.images}: {exc}") from None
    data = json.loads(classes.read_text(encoding="utf-8"))
    data["calibration"] = cal.to_json()
    classes.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    for predicted, right, n in reliability(cal, samples):
        print(f"calibrate: predicted {predicted:.2f} right {right:.2f} n {n}")
    print(summary_line(stage="calibrate", readings=len(samples), bias=round(cal.bias, 4),
                       w_finder=round(cal.w_finder, 4), w_classifier=round(cal.w_classifier, 4), out=classes))
    return 0


def train_face(args: argparse.Namespace, tr: Any) -> int:
    """Train the face reader (``vision.face_reader``) on face crops and export it beside its checkpoints as
    ``face-cls.onnx`` (copy it into the models folder to use it)."""
    from vision.face_reader import FACE_CLASSES, FACE_READER_NAME

    if not any(args.crops.glob("train_*.npz")) or not any(args.crops.glob("heldout_*.npz")):
        raise UserError(f"{args.crops}: no train_*.npz / heldout_*.npz face crops (python -m lab.synth.face_crops)")
    out = args.out or Path("work-data/runs/face-cls")
    best = tr.train_classifier(args.crops, out, epochs=args.epochs or 8, seed=args.seed, threads=args.threads,
                               resume=args.resume is not None, classes=FACE_CLASSES,
                               **({"lr": args.lr0} if args.lr0 else {}))
    onnx = tr.export_classifier(best, out / FACE_READER_NAME)
    print(summary_line(stage="face", weights=best, onnx=onnx))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.stage == "calibrate":
        return calibrate(args)
    try:
        from lab import train as tr
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise UserError(f"training needs the train extras (pip install -e .[train]): {exc}") from None
    if args.stage == "detector":
        if args.resume is not None:
            if not args.resume.exists():
                raise UserError(f"{args.resume}: checkpoint not found")
        elif args.data is None or not args.data.exists():
            raise UserError(f"{args.data}: data.yaml not found (build it with python -m lab.synth.build obb)")
        if args.init_weights is not None and not args.init_weights.exists():
            raise UserError(f"{args.init_weights}: weights not found")
        out = args.out or Path("work-data/runs")
        run_dir = tr.train_detector(
            args.data, epochs=args.epochs or 30, imgsz=args.imgsz, model_yaml=args.model_yaml or tr.DEFAULT_MODEL_YAML,
            seed=args.seed,
            resume=args.resume, project=out, batch=args.batch, workers=args.workers, threads=args.threads,
            time_hours=args.time_hours, name=args.name, init_weights=args.init_weights, lr0=args.lr0,
        )
        print(summary_line(stage="detector", run=run_dir, weights=run_dir / "weights" / "best.pt"))
        return 0
    if args.stage == "face":
        return train_face(args, tr)
    if args.stage == "classifier":
        if not any(args.crops.glob("train_*.npz")) or not any(args.crops.glob("heldout_*.npz")):
            raise UserError(f"{args.crops}: no train_*.npz / heldout_*.npz crops (python -m lab.synth.crops)")
        out = args.out or Path("work-data/runs/corner-cls")
        if args.init_weights is not None and not args.init_weights.exists():
            raise UserError(f"{args.init_weights}: weights not found")
        if args.teacher is not None and not args.teacher.exists():
            raise UserError(f"{args.teacher}: teacher weights not found")
        if args.distill < 0:
            raise UserError(f"--distill {args.distill}: must be 0 or more")
        if not 0 <= args.mono_ink <= 1:
            raise UserError(f"--mono-ink {args.mono_ink}: must be 0 to 1")
        if not 0 <= args.warp <= 1:
            raise UserError(f"--warp {args.warp}: must be 0 to 1")
        if args.blocks is not None and not 0 <= args.blocks <= 8:
            raise UserError(f"--blocks {args.blocks}: must be 0 to 8")
        best = tr.train_classifier(args.crops, out, epochs=args.epochs or 5, seed=args.seed, threads=args.threads,
                                   resume=args.resume is not None, init_weights=args.init_weights,
                                   teacher=args.teacher, distill=args.distill, blocks=args.blocks,
                                   mono_ink=args.mono_ink, warp=args.warp, **({"lr": args.lr0} if args.lr0 else {}))
        print(summary_line(stage="classifier", weights=best))
        return 0
    # export
    if args.detector_weights is None or not args.detector_weights.exists():
        raise UserError(f"{args.detector_weights}: detector weights not found")
    if args.classifier_weights is None or not args.classifier_weights.exists():
        raise UserError(f"{args.classifier_weights}: classifier weights not found")
    det = tr.export_detector(args.detector_weights, args.imgsz, args.models / "card-obb.onnx")
    cls = tr.export_classifier(args.classifier_weights, args.models / "corner-cls.onnx")
    from vision.cardcrop import CLASSIFIER_CLASSES, CROP_H, CROP_W

    # "classifier" is the list the runtime reads (vision.models.classifier_classes_for); the rest documents
    (args.models / "classes.json").write_text(json.dumps({
        "classifier": list(CLASSIFIER_CLASSES),
        "classifier_model": {"file": cls.name, "input": [3, CROP_H, CROP_W], "recipe": "vision.cardcrop.corner_crops"},
        "detector": {"file": det.name, "task": "obb", "imgsz": args.imgsz, "names": ["card"]},
    }, indent=2) + "\n")
    print(summary_line(stage="export", detector=det, classifier=cls))
    return 0
