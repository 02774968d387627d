"""How to combine a deck profile with the classifier: candidate rules compared on labelled photos.

    python -m lab.profile_study IMAGES LABELS [IMAGES LABELS ...]

Per photo set: the finder outlines every photo; each outline is matched to
a labelled card (bounding-box IoU >= 0.3, as ``vision.enrol_photos``) or
to none; its 12 crops (``cardcrop.corner_crops``, as the reader cuts them)
are classified once, keeping logits and features. The photos are split in
two halves (``enrol_photos.split_halves``); a profile is built from each
half (``enrol_photos.enrol_from_photos``) and the outlines of the other
half are named by each rule. Printed per rule, pooled over both halves:
outlines named right / wrong / not named among those of a labelled card,
and named at all among those of none, all at the reader's reporting line
(the calibrated confidence >= 0.6). This scores one look per outline (no
spread, second-look or cut-card steps); ``eval-vision --cross-halves``
scores the whole reader with the chosen rule.
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision import cardcrop
from vision.deck_profile import DeckProfile, ProfileMatcher, load_profile
from vision.enrol_photos import enrol_from_photos, match_labels, split_halves
from vision.labels import read_labels
from vision.models import default_model_path
from vision.onnx_detector import OnnxDetector

F = npt.NDArray[np.float32]


@dataclass
class Outline:
    image: str
    truth: str  # card name, or "none"
    score: float
    logits: F  # (12, 34)
    feats: F  # (12, D)


def outlines_of(detector: OnnxDetector, images_dir: Path, labels_csv: Path) -> list[Outline]:
    assert detector.classifier is not None
    labels = read_labels(labels_csv)
    out: list[Outline] = []
    for image in sorted(labels):
        read = cv2.imread(str(images_dir / image), cv2.IMREAD_COLOR)
        if read is None:
            continue
        frame = np.asarray(read, np.uint8)
        fh, fw = frame.shape[:2]
        quads, scores = detector.outlines(frame)
        if len(quads) == 0:
            continue
        truth = ["none"] * len(quads)
        for li, qi in match_labels(labels[image], quads, (fw, fh)).items():
            truth[qi] = str(labels[image][li].card)
        for q, s, t in zip(quads, scores, truth, strict=True):
            crops = cardcrop.corner_crops(frame, q)
            logits, feats = detector.classifier.run(crops)
            out.append(Outline(image, t, float(s), logits, feats))
    return out


Rule = Callable[[Outline], tuple[str, float]]


def _rule(name_by: Callable[[F, F], tuple[str, float]]) -> Rule:
    def rule(o: Outline) -> tuple[str, float]:
        return name_by(o.logits, o.feats)

    return rule


def rules_for(profile: DeckProfile, classes: list[str]) -> dict[str, Rule]:
    def base(o: Outline) -> tuple[str, float]:
        return cardcrop.combine_corners(o.logits, classes)

    rules: dict[str, Rule] = {"classifier only": base}
    for t in (0.1, 0.2, 0.4):
        for wgt in (1.0,):
            for centre in (False, True):
                for unenrolled in (0.6, -1.0):
                    for tempered in (False, True):
                        m = ProfileMatcher(
                            profile,
                            classes,
                            temperature=t,
                            proto_weight=wgt,
                            seen_similarity=1.1,
                            centre=centre,
                            unenrolled=unenrolled,
                            tempered=tempered,
                        )
                        name = f"fused T={t} c={int(centre)} unenr={unenrolled} temp={int(tempered)}"
                        rules[name] = _rule(m.combine)
    for t in (0.05, 0.1, 0.2):
        for wgt in (0.5, 1.0):
            m = ProfileMatcher(profile, classes, temperature=t, proto_weight=wgt, per_card=True)
            rules[f"per-card votes multiplied T={t} w={wgt}"] = _rule(m.combine)
    for centre in (False, True):
        m = ProfileMatcher(
            profile, classes, temperature=0.05, proto_weight=1.0, centre=centre, seen_similarity=1.1, tempered=False
        )
        rules[f"nearest prototype centre={int(centre)}"] = _rule(m.nearest)
    return rules


def score(per: list[tuple[set[str], list[tuple[str, float]]]], line: float) -> tuple[float, float]:
    """Precision and recall by card identity per image (as lab.evaluate), reporting from ``line`` up."""
    tp = fp = fn = 0
    for truth, readings in per:
        reported = {c for c, p in readings if p >= line}
        tp += len(reported & truth)
        fp += len(reported - truth)
        fn += len(truth - reported)
    return (tp / (tp + fp) if tp + fp else 1.0), (tp / (tp + fn) if tp + fn else 1.0)


def _leave_one_out(
    table: dict[str, dict[str, list[tuple[set[str], list[tuple[str, float, float]]]]]],
    shipped: Callable[[float, float], float],
    floor: float,
) -> None:
    """Per rule, the reading confidence refitted (lab.calibration_fit) on every set but one and scored on
    that one, at the reporting line; the shipped calibration for the classifier alone."""
    from lab.calibration_fit import fit_calibration

    sets = list(table)
    rules = list(table[sets[0]])
    print(f"== refitted calibration, leave one set out ({len(sets)} sets): P / R per held-out set, then mean")
    for name in rules:
        cells = []
        for held in sets:
            samples = [
                (s, p, c in truth)
                for other in sets
                if other != held
                for truth, readings in table[other][name]
                for c, s, p in readings
            ]
            cal = fit_calibration(samples) if name != "classifier only" else None
            conf = shipped if cal is None else cal
            per = [(t, [(c, conf(s, p)) for c, s, p in r]) for t, r in table[held][name]]
            cells.append(score(per, floor))
        mean_p = sum(c[0] for c in cells) / len(cells)
        mean_r = sum(c[1] for c in cells) / len(cells)
        print(f"{name:48s} " + " ".join(f"{p:.3f}/{r:.3f}" for p, r in cells) + f" | {mean_p:.3f}/{mean_r:.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("sets", nargs="+", help="IMAGES,LABELS (profiles from cross halves) or IMAGES,LABELS,PROFILE")
    parser.add_argument(
        "--refit", action="store_true", help="also refit the reading confidence per rule, leaving one set out in turn"
    )
    args = parser.parse_args(argv)
    specs = [[Path(p) for p in spec.split(",")] for spec in args.sets]
    detector = OnnxDetector(default_model_path(), threads=1)
    assert detector.classifier is not None
    classes = detector.classifier.classes
    calib = detector.classifier.confidence
    floor = detector.min_confidence
    # set -> rule -> per scored image: (labelled cards, readings (card, finder score, rule's confidence))
    table: dict[str, dict[str, list[tuple[set[str], list[tuple[str, float, float]]]]]] = {}
    for spec in specs:
        images_dir, labels_csv = spec[0], spec[1]
        key = hashlib.sha1(str(images_dir.resolve()).encode()).hexdigest()[:12]
        cache = Path(tempfile.gettempdir()) / f"profile-study-{key}.pkl"
        if cache.is_file():
            outlines = pickle.loads(cache.read_bytes())
        else:
            outlines = outlines_of(detector, images_dir, labels_csv)
            cache.write_bytes(pickle.dumps(outlines))
        labels = read_labels(labels_csv)
        every = sorted({p.name for p in images_dir.iterdir()})
        halves = split_halves(labels)
        seen = table.setdefault(str(images_dir.parent), {})
        runs: list[tuple[DeckProfile, list[str]]] = []
        if len(spec) == 3:
            runs.append((load_profile(spec[2]), every))
        else:
            for k in (0, 1):
                built = enrol_from_photos(images_dir, labels_csv, f"h{k}", detector=detector, images=halves[k])
                runs.append((built.profile, halves[1 - k]))
        for profile, scored in runs:
            for name, rule in rules_for(profile, classes).items():
                per = seen.setdefault(name, [])
                for image in scored:
                    readings = []
                    for o in outlines:
                        if o.image == image:
                            card, conf = rule(o)
                            if card != cardcrop.NONE_CLASS:
                                readings.append((card, o.score, conf))
                    per.append(({str(lab.card) for lab in labels.get(image, [])}, readings))
    for set_name, seen in table.items():
        print(f"== {set_name}")
        calibrated = {name: [(t, [(c, calib(s, p)) for c, s, p in r]) for t, r in per] for name, per in seen.items()}
        base_p = score(calibrated["classifier only"], floor)[0]
        print(f"{'rule':48s} P@{floor}  R@{floor}  | line for P>={base_p:.3f}: R  (line)")
        for name, per2 in calibrated.items():
            p, r = score(per2, floor)
            line = next((t for t in np.arange(0.3, 1.0, 0.005) if score(per2, float(t))[0] >= base_p), 1.0)
            print(f"{name:48s} {p:.3f}  {r:.3f}  | {score(per2, float(line))[1]:.3f} ({line:.3f})")
    if args.refit:
        _leave_one_out(table, calib, floor)
    return 0


if __name__ == "__main__":
    sys.exit(main())
