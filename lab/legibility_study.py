"""How well the reader does by how legible a card is: its height in pixels over the blur of the camera effects.

    python -m lab.legibility_study crops [--count 4000] [--classifier models/corner-cls.onnx]
    python -m lab.legibility_study scenes --deck gnome-orell [--profile work-data/profiles/gnome-orell]

``crops``: held-out-deck crops from ``lab.synth.crops`` (tight outlines, seeds of their own), each
classified alone; per band of legibility (``lab.synth.crops.legibility``), the share named right, named
`none`, and named as another card (surely: from 0.8).

``scenes``: the deck's test scenes (``python -m lab.synth.build test --deck D --count 200``, in
``work-data/synth-test/D``), each rendered again to know its blur (the same draws as the stored image,
which is checked), read by the whole reader (with the deck's profile where given). Per band of the
legibility of the card on top under a reading's centre (the scene's owner map): readings, wrong readings,
precision. A reading whose centre lies on no labelled card (the table, a hand, a back) counts under "-".
Readings of cards the test set's ``ignore.csv`` lists are left out, as ``eval-vision --ignore`` leaves them.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

BANDS = (0.0, 30.0, 45.0, 60.0, 80.0, 110.0, 150.0, math.inf)


def _band(value: float) -> str:
    if value < 0:
        return "-"
    for lo, hi in zip(BANDS[:-1], BANDS[1:], strict=True):
        if lo <= value < hi:
            return f"{lo:.0f}-{hi:.0f}" if math.isfinite(hi) else f"{lo:.0f}+"
    raise ValueError(value)


def band_names() -> list[str]:
    return ["-"] + [_band(lo) for lo in BANDS[:-1]]


def study_crops(
    art: Path | None, model: Path, count: int, seed: int = 4242
) -> dict[str, tuple[int, float, float, float]]:
    """Per legibility band: (crops, named right, named `none`, named as another card from 0.8)."""
    import onnxruntime as ort

    from lab.synth.crops import NONE, CropSampler
    from vision import cardcrop

    sampler = CropSampler(art, "heldout", seed=seed)
    rng = np.random.default_rng(seed)
    xs: list[npt.NDArray[np.float32]] = []
    ys: list[int] = []
    legible: list[float] = []
    while len(ys) < count:
        for crop, label in sampler.sample(rng):
            if label != NONE:
                xs.append(cardcrop.normalise_crop(crop))
                ys.append(label)
                legible.append(sampler.last_legibility)
    x = np.stack(xs).astype(np.float32)
    session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    logits = np.concatenate([session.run(None, {name: x[i:i + 256]})[0] for i in range(0, len(x), 256)])
    p = cardcrop.softmax(logits)
    pred, conf, y = p.argmax(1), p.max(1), np.array(ys)
    bands = np.array([_band(v) for v in legible])
    out = {}
    for b in band_names():
        m = bands == b
        if m.any():
            wrong = (pred[m] != y[m]) & (pred[m] != NONE)
            out[b] = (int(m.sum()), float((pred[m] == y[m]).mean()), float((pred[m] == NONE).mean()),
                      float((wrong & (conf[m] >= 0.8)).mean()))
    return out


def study_scenes(
    art: Path | None, deck: str, tests: Path, profile: Path | None, model: Path
) -> dict[str, tuple[int, int]]:
    """Per legibility band of the card under each reading: (readings, wrong readings). ``art`` None: the
    scenes were built from procedurally drawn faces (``build test`` without artwork)."""
    import lab.synth.scenes as scenes
    from lab.evaluate import read_ignore
    from lab.synth import build
    from lab.synth.crops import legibility
    from vision.onnx_detector import OnnxDetector

    build._init(str(art) if art is not None else None, f"deck:{deck}")
    faces = build._FS
    assert faces is not None
    detector = OnnxDetector(model, threads=1, profile=profile)
    folder = tests / deck
    ignore_path = folder / "ignore.csv"
    ignored = read_ignore(ignore_path) if ignore_path.is_file() else {}
    counts = {b: [0, 0] for b in band_names()}
    for path in sorted((folder / "images").glob("synth_*.jpg")):
        i = int(path.stem.split("_")[1])
        scene = scenes.render_scene(faces, build.SEED_TEST + i)
        read = cv2.imread(str(path))
        if read is None or scene.degradation is None or scene.owner is None:
            raise SystemExit(f"{path}: cannot read it")
        image = np.asarray(read, np.uint8)
        if float(np.abs(image.astype(np.int16) - scene.image.astype(np.int16)).mean()) > 3.0:
            raise SystemExit(f"{path}: not the scene its seed renders (another art or another build)")
        labelled = {c.card for c in scene.cards}
        by_layer = {c.layer: c for c in scene.cards}
        h, w = scene.owner.shape
        for det in detector.detect(image):
            if det.card in ignored.get(path.name, frozenset()):
                continue
            x, y = (min(max(int(v), 0), n - 1) for v, n in zip(det.center, (w, h), strict=True))
            under = by_layer.get(int(scene.owner[y, x]))
            legible = -1.0
            if under is not None:
                legible = legibility(float(np.linalg.norm(under.corners[0] - under.corners[3])), scene.degradation)
            entry = counts[_band(legible)]
            entry[0] += 1
            entry[1] += str(det.card) not in labelled
    return {b: (n, w) for b, (n, w) in counts.items() if n}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("what", choices=["crops", "scenes"])
    ap.add_argument("--art", type=Path, default=Path("work-data/art"))
    ap.add_argument("--classifier", type=Path, default=Path("models/corner-cls.onnx"), help="crops: the classifier")
    ap.add_argument("--model", type=Path, default=Path("models/card-obb.onnx"), help="scenes: the finder")
    ap.add_argument("--count", type=int, default=4000, help="crops: how many crops that show an index")
    ap.add_argument("--deck", help="scenes: a held-out deck")
    ap.add_argument("--tests", type=Path, default=Path("work-data/synth-test"), help="scenes: TESTS/<deck>")
    ap.add_argument("--profile", type=Path, default=None, help="scenes: read with this deck profile")
    args = ap.parse_args(argv)
    if args.what == "crops":
        for band, (n, right, none, sure_wrong) in study_crops(args.art, args.classifier, args.count).items():
            print(f"legibility={band} crops={n} right={right:.3f} none={none:.3f} wrong_from_0.8={sure_wrong:.3f}")
        return 0
    if not args.deck:
        ap.error("scenes needs --deck")
    total = wrong = 0
    for band, (n, w) in study_scenes(args.art, args.deck, args.tests, args.profile, args.model).items():
        print(f"legibility={band} readings={n} wrong={w} precision={1 - w / n:.3f}")
        total, wrong = total + n, wrong + w
    print(f"deck={args.deck} profile={int(args.profile is not None)} readings={total} wrong={wrong} "
          f"precision={1 - wrong / max(1, total):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
