"""A deck profile from a rendered enrolment of one deck (never from the test scenes).

    python -m lab.profile_synth --deck gnome-orell --out work-data/profiles/gnome-orell [--seed 0]
    python -m lab.profile_synth --fit TESTS --deck D1,D2,... --out PROFILES [--model M] [--write models/classes.json]

(``--fit`` reads a draw of scenes of its own, never the test scenes: ``lab.synth.build test --first-seed F``.)

The deck's faces (``work-data/art``) are laid face up on the product's
printed mat, a few at a time in rows (as players lay the deck out for
``euchre-table enrol``), rendered with the scenes' lighting and camera
effects at half strength; each frame goes through the reader's finder
(``OnnxDetector.outlines``), each laid card is matched to the finder's
outline over it (IoU of bounding boxes >= 0.3) and added to a
``vision.deck_profile.ProfileBuilder``: the real camera path, minus the
screen. A card the finder does not outline is laid again in the next
frame, up to three times. The enrolment's frames use seeds of their own
(``SEED_ENROL``), unlike every test scene's.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt

from lab.synth.build import recorded_first_seed
from lab.synth.faces import load_manifest
from lab.synth.scenes import _warp_face, card_quad, degrade, mat_background, photometric
from vision.deck_profile import DeckProfile, ProfileBuilder, save_profile
from vision.enrol_photos import MIN_MATCH_IOU, _box_iou
from vision.models import default_model_path
from vision.onnx_detector import OnnxDetector

SEED_ENROL = 7_700_000
FRAME_W, FRAME_H = 640, 480
CARD_ASPECT = 0.714


def render_frame(
    rng: np.random.Generator, faces: list[npt.NDArray[np.uint8]]
) -> tuple[npt.NDArray[np.uint8], list[npt.NDArray[np.float32]]]:
    """Up to six faces in two rows of three on the mat; the frame and each card's true outline."""
    img, _ = mat_background(rng, FRAME_H, FRAME_W)
    ch = FRAME_H * float(rng.uniform(0.3, 0.38))
    quads = []
    for k, face in enumerate(faces):
        col, row = k % 3, k // 3
        cx = FRAME_W * (0.22 + 0.28 * col) + float(rng.normal(0, 6))
        cy = FRAME_H * (0.3 + 0.42 * row) + float(rng.normal(0, 6))
        angle = float(rng.normal(0, 0.08)) + (math.pi if rng.random() < 0.5 else 0.0)
        quad = card_quad(cx, cy, ch, CARD_ASPECT, angle)
        patch, x0, y0 = _warp_face(face, quad, FRAME_W, FRAME_H)
        ph, pw = patch.shape[:2]
        if ph and pw:
            a = patch[:, :, 3:4]
            region = img[y0 : y0 + ph, x0 : x0 + pw]
            region[:] = region * (1 - a) + patch[:, :, :3]
        quads.append(quad)
    img = photometric(rng, img.astype(np.float32), strength=0.5)
    return degrade(rng, img, strength=0.5), quads


def enrol_deck(
    deck: str, art: Path, detector: OnnxDetector, seed: int = 0, views: int = 1
) -> tuple[DeckProfile, list[str]]:
    """The deck's profile from rendered enrolment frames (the deck laid out ``views`` times), and the cards
    never outlined."""
    fs = load_manifest(art, {deck})
    if deck not in fs.faces:
        raise SystemExit(f"{deck}: no faces in {art}")
    faces = fs.faces[deck]
    builder = ProfileBuilder.for_detector(detector)
    rng = np.random.default_rng(SEED_ENROL + seed)
    missed: set[str] = set()
    for _ in range(views):
        missed |= _lay_out(faces, builder, detector, rng)
    return builder.build(deck), sorted(missed)


def _lay_out(
    faces: dict[str, npt.NDArray[np.uint8]], builder: ProfileBuilder, detector: OnnxDetector, rng: np.random.Generator
) -> set[str]:
    """Lay the deck out once, six cards a frame; the cards never outlined."""
    todo = sorted(faces)
    tries = dict.fromkeys(todo, 0)
    while todo:
        batch, todo = todo[:6], todo[6:]
        frame, quads = render_frame(rng, [faces[c] for c in batch])
        found, _ = detector.outlines(frame)
        boxes = [
            (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())) for q in found
        ]
        used: set[int] = set()
        for card, quad in zip(batch, quads, strict=True):
            tb = (float(quad[:, 0].min()), float(quad[:, 1].min()), float(quad[:, 0].max()), float(quad[:, 1].max()))
            ious = [(_box_iou(tb, b), i) for i, b in enumerate(boxes) if i not in used]
            best = max(ious, default=(0.0, -1))
            if best[0] >= MIN_MATCH_IOU:
                used.add(best[1])
                builder.add(card, frame, found[best[1]])
            else:
                tries[card] += 1
                if tries[card] < 3:
                    todo.append(card)
    return {c for c in faces if tries[c] >= 3}


def fit_draw_error(tests: Path, decks: list[str]) -> str | None:
    """Why the scenes in ``tests/<deck>`` may not be fitted on (None: they may): a deck's folder that holds
    the test scenes (drawn from seed offset 0, ``lab.synth.build.recorded_first_seed``), on which the
    figures with a profile are measured."""
    on_test = [deck for deck in decks if recorded_first_seed(tests / deck) == 0]
    if not on_test:
        return None
    return (f"--fit {tests}: {', '.join(on_test)} hold the test scenes (seed offset 0), which measure the reader: "
            "fit on a draw of its own (python -m lab.synth.build test --deck D --first-seed F, F > 0)")


def fit_profile_calibration(
    tests: Path, profiles: Path, decks: list[str], write: Path | None, model: Path | None = None
) -> None:
    """Refit the reading confidence for reading with a profile: the readings (``OnnxDetector.readings``) of
    each deck's scenes (``tests/<deck>/images``, ``labels.csv``: a draw of its own, never the test scenes
    the figures are measured on) read with its enrolled profile (``profiles/<deck>``) by ``model`` (default:
    the shipped finder and the classifier beside it), as ``euchre-table train calibrate`` fits the shipped
    one; written into ``write`` (a classes.json) under ``"profile_calibration"`` when given."""
    import json

    from lab.calibration_fit import collect_readings, fit_calibration, ignore_beside, reliability
    from vision.deck_profile import PROFILE_CALIBRATION_KEY

    problem = fit_draw_error(tests, decks)
    if problem is not None:
        raise SystemExit(problem)
    samples = []
    for deck in decks:
        detector = OnnxDetector(model or default_model_path(), threads=1, profile=profiles / deck)
        labels = tests / deck / "labels.csv"
        samples += collect_readings(detector, tests / deck / "images", labels, ignore_beside(labels))
    offsets = sorted({recorded_first_seed(tests / deck) for deck in decks})
    cal = fit_calibration(
        samples,
        fitted_on=f"held-out decks read with their rendered enrolment ({len(decks)}), scenes from seed offset "
        + ", ".join(str(o) for o in offsets),
    )
    bins = " ".join(f"{p:.2f}/{r:.2f}({n})" for p, r, n in reliability(cal, samples))
    print(f"profile calibration: {cal.to_json()}; bins predicted/right(n): {bins}")
    if write is not None:
        data = json.loads(write.read_text(encoding="utf-8"))
        data[PROFILE_CALIBRATION_KEY] = cal.to_json()
        write.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"written to {write}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deck", required=True, help="a held-out deck; with --fit, a comma-separated list")
    parser.add_argument("--art", type=Path, default=Path("work-data/art"))
    parser.add_argument("--out", type=Path, required=True, help="the profile's folder (with --fit: profiles' root)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--views", type=int, default=1, help="lay the deck out this many times (default 1)")
    parser.add_argument(
        "--fit",
        type=Path,
        default=None,
        metavar="TESTS",
        help="refit the profile calibration on TESTS/<deck> read with OUT/<deck>",
    )
    parser.add_argument("--write", type=Path, default=None, help="with --fit: the classes.json to write it into")
    parser.add_argument(
        "--model", type=Path, default=None, help="the finder, its classifier beside it (default: the shipped one)"
    )
    args = parser.parse_args(argv)
    if args.fit is not None:
        fit_profile_calibration(args.fit, args.out, args.deck.split(","), args.write, args.model)
        return 0
    detector = OnnxDetector(args.model or default_model_path(), threads=1)
    profile, missed = enrol_deck(args.deck, args.art, detector, args.seed, args.views)
    save_profile(profile, args.out)
    print(f"deck={args.deck} cards={len(profile)} missed={' '.join(missed) or '-'} out={args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
