"""Classifier crops cut from the card finder's own outlines on rendered scenes.

``lab.synth.crops`` cuts corners from a card's true corners, jittered by
about as much as the finder errs. Here the crops are cut exactly as the app
cuts them: the finder (``card-obb.onnx``) outlines the cards of a rendered
scene, and ``vision.cardcrop.outline_hypotheses`` turns each outline into the
outlines that are classified. So the classifier learns the finder's real
mistakes: outlines cut short by a covering card, turned a little, running
over a neighbour.

Each finder outline is matched to the scene's card it overlaps most (polygon
IoU at least ``MATCH_IOU``; an outline matching none, such as two cards taken
as one, is left out: its corners may show either card). A crop is labelled
with the card where its corner holds the deck's index and the index is
visible (the scene's ``owner`` map says what lies on top), ``none`` where the
corner is blank or the index covered; a half-covered index is left out, as
is a hypothesis whose corners do not correspond to the card's.

With ``negatives``, an outline over no face-up card at all (a face, a window, a hand, a card back: the
finder's false outlines) gives ``none`` crops from each of its hypotheses, so the classifier learns to say
"no index" there instead of naming its favourite court card. A card printed light on dark paper
(``cardcrop.judged_outline``, which also snaps its outline as the reader does) also gives its crops
lightness-inverted, as the reader cuts them.

    python -m lab.synth.scene_crops --finder models/card-obb.onnx --scenes 3000 --out work-data/datasets/crops

writes ``train_scene_<seed>_<chunk>.npz`` (training decks) and
``heldout_scene_<seed>_<chunk>.npz`` (held-out decks), in the format of
``lab.synth.crops`` so ``load_crops`` reads both.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
from contextlib import nullcontext
from pathlib import Path
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from lab.synth.crops import CLASS_INDEX, LEGIBLE_BAND, NONE, ZONE, CropSampler, legibility
from lab.synth.faces import FaceSet, index_corners, load_manifest
from lab.synth.scenes import Scene, render_scene
from vision import cardcrop

MATCH_IOU = 0.5
NONE_KEEP = 0.45  # share of `none` crops kept (most corners are blank)
NEGATIVE_CARD_SHARE = 0.05  # an outline is a false one where under this share of it shows a face-up card
NEGATIVE_KEEP = 0.7  # share of a false outline's crops kept
NEGATIVE_QUADS = 2  # card-shaped outlines drawn at random over what is not a face-up card, per scene
INNER_KEEP = 0.35  # chance a whole card also gives an outline inside its face (corners on its picture)
SEED_TRAIN = 8_000_000
SEED_HELDOUT = 9_000_000
SEED_STRIP_TRAIN = 10_000_000  # strip scenes (``render_scene(strips=True)``), none shared with the finder's
SEED_STRIP_HELDOUT = 11_000_000
SEED_CLOSEUP_TRAIN = 18_000_000  # close-up scenes (``render_scene(closeup=True)``), none the finder's or the tests'
SEED_CLOSEUP_HELDOUT = 19_000_000
SEED_NEAR_TRAIN = 24_000_000  # near scenes (``render_scene(near=True)``), none the finder's or the tests'
SEED_NEAR_HELDOUT = 25_000_000

Crops = list[tuple[npt.NDArray[np.uint8], int]]


def quad_iou(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> float:
    pa = cv2.convexHull(np.asarray(a, np.float32)).reshape(-1, 2)
    pb = cv2.convexHull(np.asarray(b, np.float32)).reshape(-1, 2)
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    union = abs(cv2.contourArea(pa)) + abs(cv2.contourArea(pb)) - inter
    return float(inter / union) if union > 0 else 0.0


def card_share(owner: npt.NDArray[np.int16], quad: npt.NDArray[np.float32]) -> float:
    """The share of ``quad``'s pixels (inside the frame) where a face-up card lies on top."""
    mask = np.zeros(owner.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(cardcrop.order_corners(quad)).astype(np.int32), 1)
    inside = mask.astype(bool)
    area = int(np.count_nonzero(inside))
    return float(np.count_nonzero(owner[inside] >= 0)) / area if area else 1.0


def negative_quads(scene: Scene, rng: np.random.Generator, count: int) -> list[npt.NDArray[np.float32]]:
    """Up to ``count`` card-shaped outlines, at the scene's card size and any turn, over no face-up card.

    The finder rarely outlines a rendered face, window or hand, where it does outline real ones; these
    stand in for its false outlines there.
    """
    assert scene.owner is not None
    h, w = scene.owner.shape
    heights = [float(np.linalg.norm(c.corners[3] - c.corners[0])) for c in scene.cards]
    out: list[npt.NDArray[np.float32]] = []
    for _ in range(8 * count):
        if len(out) >= count:
            break
        ch = float(np.median(heights)) if heights else 0.3 * min(h, w)
        ch *= float(rng.uniform(0.7, 1.3))
        cw = ch / 1.4
        cx, cy, turn = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0, np.pi)
        half = np.array([[-cw, -ch], [cw, -ch], [cw, ch], [-cw, ch]], np.float32) / 2
        rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]], np.float32)
        quad = (half @ rot.T + (cx, cy)).astype(np.float32)
        if quad[:, 0].min() < 0 or quad[:, 1].min() < 0 or quad[:, 0].max() >= w or quad[:, 1].max() >= h:
            continue
        if card_share(scene.owner, quad) < NEGATIVE_CARD_SHARE:
            out.append(quad)
    return out


def inner_quads(scene: Scene, rng: np.random.Generator) -> list[npt.NDArray[np.float32]]:
    """Outlines well inside whole cards' faces: their corners fall on court pictures and pips, never an index.

    A face in a court picture is what the classifier most often names as a card where none lies.
    """
    out: list[npt.NDArray[np.float32]] = []
    for card in scene.cards:
        if card.visible < 0.95 or rng.random() >= INNER_KEEP:
            continue
        q = cardcrop.order_corners(card.corners)
        ctr = q.mean(axis=0)
        shift = (q[1] - q[0]) * rng.uniform(-0.05, 0.05) + (q[3] - q[0]) * rng.uniform(-0.05, 0.05)
        out.append(((q - ctr) * rng.uniform(0.4, 0.6) + ctr + shift).astype(np.float32))
    return out


def label_crops(
    scene: Scene,
    outlines: npt.NDArray[np.float32],
    rng: np.random.Generator,
    readable: set[str] | None = None,
    negatives: bool = False,
    min_legible: float = 0.0,
) -> Crops:
    """Labelled corner crops (BGR uint8, 64x48) for the finder ``outlines`` (K, 4, 2) of ``scene``.

    ``readable``: the decks whose index the classifier is taught (others' outlines are left out).
    ``negatives``: an outline over no face-up card gives ``none`` crops (see the module's notes).
    ``min_legible``: a card blurred below this legibility (``lab.synth.crops.legibility``: its height over
    the scene's blur) has its index labelled ``none``, and one up to ``LEGIBLE_BAND`` times it is left out.
    """
    assert scene.owner is not None, "render_scene fills the owner map"
    out: Crops = []
    if negatives:  # drawn outlines: crops of the outline and its shrunk copies (nothing to snap to)
        for quad in negative_quads(scene, rng, NEGATIVE_QUADS) + inner_quads(scene, rng):
            for hyp in cardcrop.outline_hypotheses(scene.image, quad, refine=False):
                out += [(crop, NONE) for crop in cardcrop.corner_crops_bgr(scene.image, cardcrop.order_corners(hyp))
                        if rng.random() < NEGATIVE_KEEP]
    for quad in outlines:
        ious = [quad_iou(quad, c.corners) for c in scene.cards]
        if negatives and card_share(scene.owner, quad) < NEGATIVE_CARD_SHARE:
            for hyp in cardcrop.outline_hypotheses(scene.image, quad):
                out += [(crop, NONE) for crop in cardcrop.corner_crops_bgr(scene.image, cardcrop.order_corners(hyp))
                        if rng.random() < NEGATIVE_KEEP]
            continue
        if not ious or max(ious) < MATCH_IOU:
            continue
        card = scene.cards[int(np.argmax(ious))]
        if readable is not None and card.deck not in readable:
            continue
        visible = np.where(scene.owner == card.layer, 255, 0).astype(np.uint8)
        visible_bgr = cast(npt.NDArray[np.uint8], cv2.cvtColor(visible, cv2.COLOR_GRAY2BGR))
        truth = cardcrop.order_corners(card.corners)
        height = float(np.linalg.norm(truth[3] - truth[0]))
        legible = legibility(height, scene.degradation) if scene.degradation is not None else np.inf
        if min_legible * LEGIBLE_BAND > legible >= min_legible:
            continue  # near the line: whether it can be read depends on the deck's print
        holds = set(index_corners(card.deck))  # the same set for either upright turn of the card
        shown = cardcrop.corner_crops_bgr(visible_bgr, truth)  # how visible each true corner is
        hypotheses, dark = cardcrop.judged_outline(scene.image, quad)  # as the reader snaps and judges it
        for hyp in hypotheses:
            ordered = cardcrop.order_corners(hyp)
            # which of the card's two upright turns the hypothesis's corners follow
            errors = [float(np.linalg.norm(ordered - np.roll(truth, -r, axis=0), axis=1).mean()) for r in (0, 2)]
            if min(errors) > 0.3 * height:
                continue  # this outline's corners are not the card's
            turn = 0 if errors[0] <= errors[1] else 2
            crops = cardcrop.corner_crops_bgr(scene.image, ordered)
            for k, crop in enumerate(crops):
                vis = shown[(k + turn) % 4]
                covered = 1.0 - float(vis[ZONE][:, :, 0].mean()) / 255.0
                if cardcrop.CORNER_NAMES[k] not in holds or covered > 0.6:
                    label = NONE
                elif covered > 0.2:
                    continue  # half-hidden index: ambiguous
                elif legible < min_legible:
                    label = NONE  # blurred past reading
                else:
                    label = CLASS_INDEX[card.card]
                if label == NONE and rng.random() > NONE_KEEP:
                    continue
                out.append((crop, label))
                if dark:
                    out.append((cardcrop.lightness_inverted(crop), label))
    return out


_FS: FaceSet | None = None
_FINDER: object = None


def _faces(art: Path, split: str) -> FaceSet:
    """The decks of ``split`` as the classifier's crops use them (``CropSampler``), with card backs to draw."""
    fs = CropSampler(art, "train" if split == "train" else "heldout").faces()
    if not fs.backs:  # backs are not cards: borrow them from the whole manifest
        fs.backs = load_manifest(art).backs
    return fs


_RESTYLE = 0.0
_NEGATIVES = False
_MIN_LEGIBLE = 0.0
_OFFICE = 0.0


def _init(
    art: str, split: str, finder: str, restyle: float = 0.0, negatives: bool = False, min_legible: float = 0.0,
    office: float = 0.0,
) -> None:
    global _FS, _FINDER, _RESTYLE, _NEGATIVES, _MIN_LEGIBLE, _OFFICE
    from vision.onnx_detector import OnnxDetector

    cv2.setNumThreads(1)
    _FS = _faces(Path(art), split)
    _FINDER = OnnxDetector(Path(finder), threads=1)
    _RESTYLE, _NEGATIVES, _MIN_LEGIBLE, _OFFICE = restyle, negatives, min_legible, office


def _job(args: tuple[int, bool, bool, bool, bool]) -> Crops:
    seed, hard, strips, closeup, near = args
    from vision.onnx_detector import OnnxDetector

    assert _FS is not None and isinstance(_FINDER, OnnxDetector)
    scene = render_scene(_FS, seed, hard=hard or strips, strips=strips, closeup=closeup, restyle=_RESTYLE, near=near,
                         office=_OFFICE)
    outlines, _scores = _FINDER.outlines(scene.image)
    return label_crops(scene, outlines, np.random.default_rng(seed), set(_FS.decks()), negatives=_NEGATIVES,
                       min_legible=_MIN_LEGIBLE)


def build(
    art: Path,
    finder: Path,
    out: Path,
    split: str,
    scenes: int,
    procs: int,
    chunk: int = 1000,
    strips: bool = False,
    first: int = 0,
    closeups: bool = False,
    restyle: float = 0.0,
    negatives: bool = False,
    min_legible: float = 0.0,
    near: bool = False,
    office: float = 0.0,
) -> int:
    """Render ``scenes`` scenes of ``split`` ("train" or "heldout"), a third of them hard; write chunks.

    ``strips``: every scene is a strip scene (tight spreads whose covered cards are labelled by their
    index corner). ``closeups``: every scene is a close-up scene. ``near``: every scene is a near scene (one
    or two cards filling the frame, under a phone or held up before a person; with ``negatives`` the person,
    the window and the phone give `none` crops). ``restyle``: the chance a scene's deck is
    printed unlike its artwork. ``office``: the chance a near scene's person sits before an office's window,
    lights and frames (``render_scene``). ``negatives``: the finder's false outlines give ``none`` crops.
    ``min_legible``: an index blurred past reading is labelled ``none`` (``label_crops``). ``first``:
    scene *i* is rendered from seed base + ``first`` + *i*, so a second run with another finder can cut new
    scenes; the chunk names carry base + ``first``.
    """
    if near:
        base = SEED_NEAR_TRAIN if split == "train" else SEED_NEAR_HELDOUT
    elif closeups:
        base = SEED_CLOSEUP_TRAIN if split == "train" else SEED_CLOSEUP_HELDOUT
    elif strips:
        base = SEED_STRIP_TRAIN if split == "train" else SEED_STRIP_HELDOUT
    else:
        base = SEED_TRAIN if split == "train" else SEED_HELDOUT
    base += first
    jobs = [(base + i, i % 3 == 2, strips, closeups, near) for i in range(scenes)]
    initargs = (str(art), split, str(finder), restyle, negatives, min_legible, office)
    pending: Crops = []
    written = total = 0
    with mp.get_context("spawn").Pool(procs, _init, initargs) if procs > 1 else nullcontext() as pool:
        if pool is None:
            _init(*initargs)
        for crops in map(_job, jobs) if pool is None else pool.imap(_job, jobs, chunksize=4):
            pending += crops
            total += len(crops)
            while len(pending) >= chunk:
                _save(out / f"{split}_scene_{base}_{written:04d}.npz", pending[:chunk])
                pending, written = pending[chunk:], written + 1
    if pending:
        _save(out / f"{split}_scene_{base}_{written:04d}.npz", pending)
    return total


def _save(path: Path, crops: Crops) -> None:
    np.savez(path, x=np.stack([c for c, _ in crops]), y=np.array([y for _, y in crops]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--art", type=Path, default=Path("work-data/art"))
    ap.add_argument("--finder", type=Path, default=Path("models/card-obb.onnx"))
    ap.add_argument("--out", type=Path, default=Path("work-data/datasets/crops"))
    ap.add_argument("--scenes", type=int, default=3000, help="training-deck scenes")
    ap.add_argument("--heldout-scenes", type=int, default=300)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--strips", action="store_true", help="strip scenes only (render_scene(strips=True))")
    ap.add_argument("--closeups", action="store_true", help="close-up scenes only (render_scene(closeup=True))")
    ap.add_argument("--near", action="store_true", help="near scenes only (render_scene(near=True))")
    ap.add_argument("--restyle", type=float, default=0.0, help="chance a scene's deck is restyled (0..1)")
    ap.add_argument("--negatives", action="store_true", help="the finder's false outlines give `none` crops")
    ap.add_argument("--office", type=float, default=0.0,
                    help="chance a near scene's person sits before an office's window, lights and frames (0..1)")
    ap.add_argument("--first-seed", type=int, default=0, help="offset of the first scene's seed from its base")
    ap.add_argument("--min-legible", type=float, default=0.0,
                    help="label the index of a card blurred below this legibility `none` (lab.synth.crops.legibility)")
    args = ap.parse_args(argv)
    if not 0.0 <= args.restyle <= 1.0:
        ap.error("--restyle must be in 0..1")
    if not 0.0 <= args.office <= 1.0:
        ap.error("--office must be in 0..1")
    if args.first_seed < 0 or args.first_seed >= 1_000_000:
        ap.error("--first-seed must be in 0..999999 (each split's seeds span a million)")
    args.out.mkdir(parents=True, exist_ok=True)
    for split, n in (("heldout", args.heldout_scenes), ("train", args.scenes)):
        crops = build(args.art, args.finder, args.out, split, n, args.procs, strips=args.strips, first=args.first_seed,
                      closeups=args.closeups, restyle=args.restyle, negatives=args.negatives,
                      min_legible=args.min_legible, near=args.near, office=args.office)
        print(f"{split}: scenes={n} crops={crops}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
