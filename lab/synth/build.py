"""Build the training datasets from the fetched artwork: OBB scenes for the card finder, and the synthetic test set.

    python -m lab.synth.build obb --art work-data/art --out work-data/datasets/obb --train 5000 --val 400
    python -m lab.synth.build test --art work-data/art --out work-data/datasets/synth-test --count 300

``obb`` renders scenes from the training decks (every deck in the manifest
except ``faces.HELD_OUT_DECKS``) into the Ultralytics OBB layout with a
``data.yaml``; ``test`` renders scenes from the held-out decks only, with a
``labels.csv`` in the real-photos format (``image,class,x_center,y_center,
width,height``, normalised visible-part boxes) for ``euchre-table eval-vision``.
Scene ``i`` of a split uses seed ``base_seed + i`` (train and val and test use
disjoint seed ranges), so a dataset is rebuilt bit for bit from the same art.
With ``--procedural`` the scenes use procedurally drawn faces (no fetched art).
"""

from __future__ import annotations

import argparse
import csv
import json
import multiprocessing as mp
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import cv2
import numpy as np

from lab.synth.faces import HELD_OUT_DECKS, FaceSet, load_manifest, procedural_faceset
from lab.synth.scenes import ALL_STYLES, DECK_STYLES, MORE_STYLES, Scene, frame_polygon, in_frame_fraction, render_scene

T = TypeVar("T")

SEED_TRAIN = 1_000_000
SEED_VAL = 2_000_000
SEED_TEST = 3_000_000
MAX_FIRST_SEED = 1_000_000  # a test or validation set's seeds lie within this of its kind's base
SEEDS_FILE = "seeds.json"  # beside a test set's labels: the offset its scenes were drawn from
# Beside a test set built with --restyle: per image, how its deck is printed (``image,style``; a style of
# ``scenes.DECK_STYLES``, or AS_DRAWN), for ``python -m lab.style_report``.
STYLES_FILE = "styles.csv"
AS_DRAWN = "as-drawn"
SEED_MAT_TRAIN = 4_000_000  # scenes on the product's printed mat
SEED_MAT_VAL = 5_000_000
SEED_HARD_TRAIN = 6_000_000  # spreads of overlapping cards, cards cut by the frame
SEED_HARD_VAL = 7_000_000
SEED_STRIP_TRAIN = 8_000_000  # hard scenes with tight spreads, covered cards labelled by their index corner
SEED_STRIP_VAL = 9_000_000
SEED_EDGE_TRAIN = 12_000_000  # hard scenes with cards cut by the frame's edge at any turn
SEED_EDGE_VAL = 13_000_000
SEED_EDGE_TEST = 14_000_000  # the held-out decks' edge scenes (``build test --edges``)
SEED_CLOSEUP_TRAIN = 15_000_000  # cards large in the frame: held up to a camera, photographed from near
SEED_CLOSEUP_VAL = 16_000_000
SEED_CLOSEUP_TEST = 17_000_000  # the held-out decks' close-up scenes (``build test --closeups``)
SEED_NEAR_TRAIN = 21_000_000  # closer still: a card under a phone, or held up before a person drawn large
SEED_NEAR_VAL = 22_000_000
SEED_NEAR_TEST = 23_000_000  # the held-out decks' near scenes (``build test --near``)
SEED_LAID_OUT_TRAIN = 28_000_000  # cards laid out in rows on a surface under a phone (``build obb --laid-out``)
SEED_LAID_OUT_VAL = 29_000_000
SEED_LAID_OUT_TEST = 27_000_000  # the held-out decks laid out in rows under a phone (``build test --laid-out``)

_FS: FaceSet | None = None


def obb_label_lines(scene: Scene) -> list[str]:
    """YOLO-OBB label lines: ``0 x1 y1 ... x4 y4`` (corners TL TR BR BL, normalised, clipped to the frame).

    A card that runs off the frame is labelled with the box, turned as the card is, round its part
    in the frame (whose corners may then be clipped a little).
    """
    h, w = scene.image.shape[:2]
    lines = []
    for c in scene.cards:
        pts = []
        corners = c.corners
        if in_frame_fraction(corners, w, h) < 0.98:
            corners = aligned_box(corners, frame_polygon(corners, w, h))
        for x, y in corners:
            pts += [min(max(float(x) / w, 0.0), 1.0), min(max(float(y) / h, 0.0), 1.0)]
        lines.append("0 " + " ".join(f"{v:.6f}" for v in pts))
    return lines


def aligned_box(corners: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The box with the sides of the card ``corners`` (TL TR BR BL) that bounds ``points``, in the same order."""
    origin = corners[0].astype(np.float64)
    u = (corners[1] - corners[0]).astype(np.float64)
    v = (corners[3] - corners[0]).astype(np.float64)
    # the card's sides need not be square in the frame (a tilted camera): coordinates in their basis
    a, b = np.linalg.solve(np.stack([u, v], axis=1), (points.astype(np.float64) - origin).T)
    box = [(a.min(), b.min()), (a.max(), b.min()), (a.max(), b.max()), (a.min(), b.max())]
    return np.array([origin + s * u + t * v for s, t in box], np.float32)


_RESTYLE = 0.0  # the chance a scene's deck is printed unlike the artwork (scenes.restyle_deck)
_STRETCH = 0.0  # the chance a scene's picture is stretched along one side (scenes.stretch_scene)
_STYLES: tuple[str, ...] = DECK_STYLES  # the styles a restyled deck is drawn from
_OFFICE = 0.0  # the chance a held-up near scene's or a close-up's room is an office (scenes.office_details)


def _init(
    art: str | None, decks: str, restyle: float = 0.0, stretch: float = 0.0, styles: tuple[str, ...] = DECK_STYLES,
    office: float = 0.0,
) -> None:
    global _FS, _RESTYLE, _STRETCH, _STYLES, _OFFICE
    _RESTYLE = restyle
    _STRETCH = stretch
    _STYLES = styles
    _OFFICE = office
    cv2.setNumThreads(1)
    if art is None:
        _FS = procedural_faceset()
    elif decks == "train":
        _FS = load_manifest(Path(art), exclude=HELD_OUT_DECKS)
    else:  # "held-out", or "deck:NAME" for one held-out deck alone
        chosen = {decks.removeprefix("deck:")} if decks.startswith("deck:") else set(HELD_OUT_DECKS)
        _FS = load_manifest(Path(art), decks=chosen)
        if not _FS.faces:
            raise SystemExit(f"{art}: no faces of the deck(s) {sorted(chosen)} in its manifest")
        if not _FS.backs:  # backs are not cards: borrow them from the whole manifest
            _FS.backs = load_manifest(Path(art)).backs


def _job_obb(args: tuple[int, str, str, bool, bool, bool, bool, bool, bool, bool]) -> int:
    seed, img_path, lbl_path, on_mat, hard, strips, edges, closeup, near, laid_out = args
    assert _FS is not None
    scene = render_scene(_FS, seed, on_mat=on_mat, hard=hard, strips=strips, edges=edges, closeup=closeup,
                         restyle=_RESTYLE, near=near, stretch=_STRETCH, styles=_STYLES, office=_OFFICE,
                         laid_out=laid_out)
    cv2.imwrite(img_path, scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    Path(lbl_path).write_text("\n".join(obb_label_lines(scene)) + ("\n" if scene.cards else ""))
    return len(scene.cards)


TestRow = tuple[str, str, float, float, float, float]


def _job_test(args: tuple[int, str, bool, bool, bool, bool]) -> tuple[list[TestRow], list[tuple[str, str]], str]:
    seed, img_path, edges, closeup, near, laid_out = args
    assert _FS is not None
    scene = render_scene(_FS, seed, edges=edges, closeup=closeup, restyle=_RESTYLE, near=near, stretch=_STRETCH,
                         styles=_STYLES, office=_OFFICE, laid_out=laid_out)
    cv2.imwrite(img_path, scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    h, w = scene.image.shape[:2]
    name = Path(img_path).name
    rows = []
    for c in scene.cards:
        x1, y1, x2, y2 = c.visible_box
        rows.append((name, c.card, (x1 + x2) / 2 / w, (y1 + y2) / 2 / h, (x2 - x1) / w, (y2 - y1) / h))
    return rows, [(name, card) for card in scene.readable_unlabelled], scene.deck_style or AS_DRAWN


def build_obb(
    art: str | None,
    out: Path,
    n_train: int,
    n_val: int,
    procs: int,
    n_mat: int = 0,
    n_hard: int = 0,
    n_strips: int = 0,
    n_edges: int = 0,
    n_closeups: int = 0,
    restyle: float = 0.0,
    n_near: int = 0,
    stretch: float = 0.0,
    styles: tuple[str, ...] = DECK_STYLES,
    office: float = 0.0,
    n_laid_out: int = 0,
) -> int:
    """``n_train`` + ``n_val`` scenes, plus ``n_mat`` train and ``n_mat // 10`` val scenes on the printed
    mat, ``n_hard`` train and ``n_hard // 10`` val hard scenes (``render_scene(hard=True)``), and
    ``n_strips`` train and ``n_strips // 10`` val strip scenes (``render_scene(strips=True)``), and
    ``n_edges`` train and ``n_edges // 10`` val edge scenes (``render_scene(edges=True)``), and
    ``n_closeups`` train and ``n_closeups // 10`` val close-up scenes (``render_scene(closeup=True)``), and
    ``n_near`` train and ``n_near // 10`` val near scenes (``render_scene(near=True)``), and ``n_laid_out`` train and
    ``n_laid_out // 10`` val scenes of cards laid out in rows under a phone (``render_scene(laid_out=True)``);
    ``restyle``: the chance that a scene's deck is printed unlike its artwork (``render_scene(restyle=)``),
    in one of ``styles``;
    ``stretch``: the chance that a scene's picture is stretched along one side (``render_scene(stretch=)``);
    ``office``: the chance that a held-up near scene's or a close-up's room is an office (``render_scene(office=)``)."""
    jobs = []
    # One row per scene kind: its train and val names, counts and seeds, then the render_scene switches it sets.
    kinds = (
        ("train", "val", n_train, n_val, SEED_TRAIN, SEED_VAL, (False, False, False, False, False, False, False)),
        ("mat", "matval", n_mat, n_mat // 10, SEED_MAT_TRAIN, SEED_MAT_VAL,
         (True, False, False, False, False, False, False)),
        ("hard", "hardval", n_hard, n_hard // 10, SEED_HARD_TRAIN, SEED_HARD_VAL,
         (False, True, False, False, False, False, False)),
        ("strip", "stripval", n_strips, n_strips // 10, SEED_STRIP_TRAIN, SEED_STRIP_VAL,
         (False, True, True, False, False, False, False)),
        ("edge", "edgeval", n_edges, n_edges // 10, SEED_EDGE_TRAIN, SEED_EDGE_VAL,
         (False, True, False, True, False, False, False)),
        ("close", "closeval", n_closeups, n_closeups // 10, SEED_CLOSEUP_TRAIN, SEED_CLOSEUP_VAL,
         (False, False, False, False, True, False, False)),
        ("near", "nearval", n_near, n_near // 10, SEED_NEAR_TRAIN, SEED_NEAR_VAL,
         (False, False, False, False, False, True, False)),
        ("laid", "laidval", n_laid_out, n_laid_out // 10, SEED_LAID_OUT_TRAIN, SEED_LAID_OUT_VAL,
         (False, False, False, False, False, False, True)),
    )
    splits = [
        (split, n, base, prefix, switches)
        for train_name, val_name, n_tr, n_va, seed_tr, seed_va, switches in kinds
        for split, n, base, prefix in (("val", n_va, seed_va, val_name), ("train", n_tr, seed_tr, train_name))
    ]
    for split, n, base, prefix, switches in splits:
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
        for i in range(n):
            name = f"{prefix}_{i:06d}"
            jobs.append((base + i, str(out / "images" / split / f"{name}.jpg"),
                         str(out / "labels" / split / f"{name}.txt"), *switches))
    total = 0
    for k, n in enumerate(_map(procs, (art, "train", restyle, stretch, styles, office), _job_obb, jobs)):
        total += n
        if (k + 1) % 500 == 0:
            print(f"rendered {k + 1}/{len(jobs)}", flush=True)
    (out / "data.yaml").write_text(
        f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n  0: card\n"
    )
    return total


def _map(
    procs: int, initargs: tuple[str | None, str, float, float, tuple[str, ...], float], job: Callable[[Any], T],
    jobs: list[Any],
) -> Iterator[T]:
    """Run ``job`` over ``jobs`` in this process (``procs`` <= 1) or in a pool of fresh processes.

    The pool starts its workers with "spawn": a forked copy of a process that runs threads (a test
    runner, the app) can deadlock on a lock some other thread held at the fork.
    """
    if procs <= 1:
        _init(*initargs)
        yield from map(job, jobs)
        return
    with mp.get_context("spawn").Pool(procs, initializer=_init, initargs=initargs) as pool:
        yield from pool.imap(job, jobs, chunksize=8)


def first_seed_error(first: int, count: int) -> str | None:
    """Why ``count`` scenes drawn from offset ``first`` would leave their kind's seeds (None: they do not)."""
    if 0 <= first <= MAX_FIRST_SEED - count:
        return None
    return (f"--first-seed {first} with --count {count}: must be in 0..{MAX_FIRST_SEED - count} (the scenes' seeds "
            f"lie within {MAX_FIRST_SEED:,} of their kind's base)")


def recorded_first_seed(folder: Path) -> int:
    """The offset a test set in ``folder`` was drawn from (:func:`build_test`; a set built before it was
    recorded: 0, the test sets)."""
    path = folder / SEEDS_FILE
    if not path.is_file():
        return 0
    return int(json.loads(path.read_text(encoding="utf-8"))["first"])


def build_test(
    art: str | None, out: Path, count: int, procs: int, edges: bool = False, closeup: bool = False,
    deck: str | None = None,
    restyle: float = 0.0,
    near: bool = False,
    stretch: float = 0.0,
    first: int = 0,
    styles: tuple[str, ...] = DECK_STYLES,
    office: float = 0.0,
    laid_out: bool = False,
) -> int:
    """``count`` scenes of the held-out decks and their labels CSV (the real photos' format); with
    ``edges``, edge scenes (``render_scene(edges=True)``), with ``closeup`` close-up scenes, with ``near`` near
    scenes, with ``laid_out`` cards laid out in rows under a phone, each kind from its own seeds; with ``deck``,
    that held-out deck alone (the same seeds: the same layouts per deck). ``first``: scene *i* is rendered from
    its kind's base seed + ``first`` + *i*, so that a validation set kept apart from the test sets (0) can be drawn
    the same way (:data:`MAX_FIRST_SEED`). ``restyle``, ``styles`` and ``office``: as :func:`build_obb`'s; a
    restyled set names each scene's style in
    :data:`STYLES_FILE`."""
    if deck is not None and deck not in HELD_OUT_DECKS:
        raise SystemExit(f"--deck {deck}: not a held-out deck ({', '.join(sorted(HELD_OUT_DECKS))})")
    problem = first_seed_error(first, count)
    if problem is not None:
        raise SystemExit(problem)
    (out / "images").mkdir(parents=True, exist_ok=True)
    base = (SEED_LAID_OUT_TEST if laid_out else SEED_NEAR_TEST if near else SEED_CLOSEUP_TEST if closeup
            else SEED_EDGE_TEST if edges else SEED_TEST)  # fmt: skip
    jobs = [(base + first + i, str(out / "images" / f"synth_{i:05d}.jpg"), edges, closeup, near, laid_out)
            for i in range(count)]
    rows: list[TestRow] = []
    readable: list[tuple[str, str]] = []
    style_rows: list[tuple[str, str]] = []
    decks = f"deck:{deck}" if deck else "held-out"
    for (_, img_path, *_), (labelled, unlabelled, style) in zip(
        jobs, _map(procs, (art, decks, restyle, stretch, styles, office), _job_test, jobs), strict=True
    ):
        rows += labelled
        readable += unlabelled
        style_rows.append((Path(img_path).name, style))
    (out / SEEDS_FILE).write_text(json.dumps({"first": first}) + "\n", encoding="utf-8")
    with open(out / "labels.csv", "w", newline="") as fh:
        wr = csv.writer(fh)
        wr.writerow(["image", "class", "x_center", "y_center", "width", "height"])
        for name, card, x, y, bw, bh in rows:
            wr.writerow([name, card, f"{x:.6f}", f"{y:.6f}", f"{bw:.6f}", f"{bh:.6f}"])
    # Cards left unlabelled whose index shows (``Scene.readable_unlabelled``): ``eval-vision --ignore``.
    with open(out / "ignore.csv", "w", newline="") as fh:
        wr = csv.writer(fh)
        wr.writerow(["image", "class"])
        wr.writerows(readable)
    if restyle > 0:
        with open(out / STYLES_FILE, "w", newline="") as fh:
            wr = csv.writer(fh)
            wr.writerow(["image", "style"])
            wr.writerows(style_rows)
    return len(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["obb", "test"])
    ap.add_argument("--art", default="work-data/art")
    ap.add_argument("--procedural", action="store_true", help="use procedurally drawn faces, not the fetched art")
    ap.add_argument("--out", required=True)
    ap.add_argument("--train", type=int, default=5000)
    ap.add_argument("--val", type=int, default=400)
    ap.add_argument("--on-mat", type=int, default=0,
                    help="extra train scenes on the printed play mat (and a tenth as many val)")
    ap.add_argument("--hard", type=int, default=0,
                    help="extra train scenes of overlapping spreads and cards cut by the frame "
                    "(and a tenth as many val)")
    ap.add_argument("--strips", type=int, default=0,
                    help="extra train scenes like --hard with tighter spreads, where a mostly covered card is "
                    "labelled while an index corner shows (and a tenth as many val)")
    ap.add_argument("--edges", type=int, default=0,
                    help="obb: extra train scenes like --hard where one or two cards run off the frame's edge at "
                    "any turn, labelled while a quarter of the card is in the frame (and a tenth as many val); "
                    "test: any number above 0 renders edge scenes instead")
    ap.add_argument("--closeups", type=int, default=0,
                    help="obb: extra train scenes of one to three cards large in the frame, held up or photographed "
                    "from near, often dim (and a tenth as many val); test: any number above 0 renders close-ups")
    ap.add_argument("--near", type=int, default=0,
                    help="obb: extra train scenes closer still, a card taller than half the frame's short side up to "
                    "past its edges, lying under a phone or held up before a person (and a tenth as many val); "
                    "test: any number above 0 renders near scenes")
    ap.add_argument("--laid-out", type=int, default=0,
                    help="obb: extra train scenes of 3 to 12 whole cards laid out in rows on a surface and "
                    "photographed from above by a phone (and a tenth as many val); test: any number above 0 renders "
                    "such scenes")
    ap.add_argument("--restyle", type=float, default=0.0,
                    help="the chance that a scene's deck is printed unlike its artwork: dark paper with gold or "
                    "silver print, coloured paper, four-colour suits (default 0: the artwork as it is)")
    ap.add_argument("--styles", default=",".join(DECK_STYLES),
                    help="with --restyle: the styles a restyled deck is drawn from, comma-separated (default: "
                    f"{','.join(DECK_STYLES)}; 'dark' alone draws decks printed light on dark paper; also "
                    f"{','.join(MORE_STYLES)}: every suit in one ink)")
    ap.add_argument("--stretch", type=float, default=0.0,
                    help="the chance that a scene's picture is stretched along one side, its pixels not square "
                    "(a 4:3 camera's picture shown at 16:9; default 0: square pixels)")
    ap.add_argument("--office", type=float, default=0.0,
                    help="the chance that the room behind a held-up near scene's person, or a close-up's, is an "
                    "office: a window or glass partition, strip lights, frames (default 0: a plain room)")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--deck", default=None, help="test: one held-out deck alone (default: all five)")
    ap.add_argument("--first-seed", type=int, default=0,
                    help="test: offset of the first scene's seed from its kind's base (0: the test sets; another "
                    "offset draws a validation set kept apart from them)")
    ap.add_argument("--procs", type=int, default=2)
    args = ap.parse_args(argv)
    styles = tuple(x.strip() for x in args.styles.split(",") if x.strip())
    unknown = [x for x in styles if x not in ALL_STYLES]
    if unknown or not styles:
        ap.error(f"--styles: not deck styles: {', '.join(unknown) or repr(args.styles)} "
                 f"(styles: {', '.join(ALL_STYLES)})")
    art = None if args.procedural else args.art
    out = Path(args.out)
    if args.what == "obb":
        n = build_obb(art, out, args.train, args.val, args.procs, args.on_mat, args.hard, args.strips, args.edges,
                      args.closeups, args.restyle, args.near, args.stretch, styles, args.office, args.laid_out)
        extra = sum(k + k // 10 for k in (args.on_mat, args.hard, args.strips, args.edges, args.closeups, args.near,
                                          args.laid_out))
        print(f"scenes={args.train + args.val + extra} cards={n} out={out}")
    else:
        n = build_test(art, out, args.count, args.procs, edges=args.edges > 0, closeup=args.closeups > 0,
                       deck=args.deck, restyle=args.restyle, near=args.near > 0, stretch=args.stretch,
                       first=args.first_seed, styles=styles, office=args.office, laid_out=args.laid_out > 0)
        print(f"scenes={args.count} cards={n} out={out}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
