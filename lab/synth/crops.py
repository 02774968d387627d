"""Corner-index crops for the classifier, generated on the fly from card faces with heavy augmentation.

One sample: a card face is laid on a procedural table patch with a random
pose (any rotation, some perspective, any size from a far overhead camera to
a close phone photo), sometimes partly covered by another card or a hand,
lit and degraded like a scene (``scenes.photometric`` / ``scenes.degrade``),
then its four corners are cut out with ``vision.cardcrop`` from *jittered*
corner points (the detector's corners are never exact). A crop whose corner
holds the deck's index is labelled with the card; one whose corner is blank,
or whose index is covered, is labelled ``none``. Card backs and bare table
give ``none`` crops too.
"""

from __future__ import annotations

import math
import multiprocessing as mp
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar, cast

import cv2
import numpy as np
import numpy.typing as npt

from lab.synth.faces import (
    HELD_OUT_DECKS,
    NO_CLASSIFIER,
    FaceSet,
    index_corners,
    load_manifest,
    procedural_faceset,
)
from lab.synth.scenes import Degradation, _warp_face, background, degrade, photometric
from vision import cardcrop

J = TypeVar("J")
CLASS_INDEX = {c: i for i, c in enumerate(cardcrop.CLASSIFIER_CLASSES)}
NONE = CLASS_INDEX[cardcrop.NONE_CLASS]
# Where the index sits inside a crop (pixels): covering most of this zone hides the index.
ZONE = (slice(6, 60), slice(4, 30))
# An index is left out of training (neither the card nor `none`) where its legibility lies between the
# line and this many times it: near the line, whether it can be read depends on the deck's print.
LEGIBLE_BAND = 1.25


def legibility(card_height: float, done: Degradation) -> float:
    """How many blur widths tall the card is in the frame: its height in pixels over the sd of the blur the
    camera effects amount to (:meth:`Degradation.blur_sigma`). An index is about a tenth of the card, so at
    60 the rank is six blur widths tall."""
    return card_height / done.blur_sigma()


def _ink(face: npt.NDArray[np.uint8]) -> float:
    """How much print is in a face's top-left index zone (a blank corner has almost none)."""
    h, w = face.shape[:2]
    g = cv2.cvtColor(face[: int(0.3 * h), : int(0.3 * w), :3], cv2.COLOR_BGR2GRAY)
    return float((g < 150).mean())


def posed_quad(rng: np.random.Generator, ch: float, aspect: float, side: int) -> npt.NDArray[np.float32]:
    """A card ``ch`` px tall turned any way in the middle of a ``side`` square, its corners a little off a
    rectangle (camera tilt, perspective)."""
    ang = rng.uniform(-math.pi, math.pi)
    c, s = math.cos(ang), math.sin(ang)
    w2, h2 = ch * aspect / 2, ch / 2
    base = np.array([[-w2, -h2], [w2, -h2], [w2, h2], [-w2, h2]], np.float32)
    quad = base @ np.array([[c, -s], [s, c]], np.float32).T + side / 2
    quad += rng.normal(0, 0.03 * ch, (4, 2)).astype(np.float32)  # camera tilt / perspective
    out: npt.NDArray[np.float32] = quad.astype(np.float32)
    return out


def lay_face(rng: np.random.Generator, img: npt.NDArray[np.float32], face: npt.NDArray[np.uint8],
             quad: npt.NDArray[np.float32]) -> None:
    """Draw ``face`` (BGRA) into ``img`` at ``quad``, a little shaded across and dimmed."""
    side = img.shape[0]
    patch, x0, y0 = _warp_face(face, quad, side, side)
    if patch.size:
        ph, pw = patch.shape[:2]
        roi = img[y0:y0 + ph, x0:x0 + pw]
        shade = 1.0 + rng.uniform(-0.15, 0.1) * np.linspace(0, 1, pw, dtype=np.float32)[None, :, None]
        roi[:] = roi * (1 - patch[:, :, 3:4]) + patch[:, :, :3] * shade * rng.uniform(0.85, 1.05)


def found_outline(
    rng: np.random.Generator, quad: npt.NDArray[np.float32], ch: float, loose: bool
) -> npt.NDArray[np.float32]:
    """The outline a finder gives for ``quad``: ``loose``, as far off as its outlines on synthetic validation
    scenes (median / 75th percentile: centre 4% / 9% of the card's height, long side x0.93..1.05, turned 6 /
    14 degrees), else a little off (shift, scale, per corner)."""
    q = quad.copy()
    if loose:
        q += rng.normal(0, 0.045 * ch, (1, 2)).astype(np.float32)
        ctr = q.mean(axis=0)
        turn = math.radians(float(rng.normal(0, 7.0)))
        rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]], np.float32)
        q = (q - ctr) @ rot.T * float(np.exp(rng.normal(0, 0.07))) + ctr
        q += rng.normal(0, 0.02 * ch, (4, 2)).astype(np.float32)
    else:
        q += rng.normal(0, 0.025 * ch, (1, 2)).astype(np.float32)
        ctr = q.mean(axis=0)
        q = (q - ctr) * rng.uniform(0.95, 1.06) + ctr
        q += rng.normal(0, 0.018 * ch, (4, 2)).astype(np.float32)
    out: npt.NDArray[np.float32] = np.asarray(q, np.float32)
    return out


class CropSampler:
    """Makes labelled crops from the training (or held-out) decks; deterministic per (seed, epoch, index)."""

    def __init__(
        self, art: Path | None, split: str = "train", seed: int = 0, loose: float = 0.0, fonts: int = 0,
        min_legible: float = 0.0, heights: tuple[float, float] = (45.0, 190.0), pip_min: float = 0.5,
    ) -> None:
        self.art, self.split, self.seed = art, split, seed
        # the card's height in the frame is drawn log-uniform between these (pixels)
        self.heights = heights
        self.pip_min = pip_min  # typeface decks: the smallest index pip, a share of the rank's height
        # > 0: an index blurred below this legibility (:func:`legibility`) is labelled `none`, one up to
        # LEGIBLE_BAND times it left out: what no one can read, the classifier is taught not to name
        self.min_legible = min_legible
        self.last_legibility = math.inf  # the last posed card's legibility (inf: a back or bare table)
        self.last_height = 0.0  # the last posed card's height in the frame (pixels)
        self.loose = loose  # share of crops cut from outlines as far off as the card finder's
        # > 0: each chunk draws this many decks from system typefaces (``font_faces``) instead of the artwork
        self.fonts = fonts
        self.fs: FaceSet | None = None

    def faces(self) -> FaceSet:
        """The decks this sampler draws: training decks the classifier can read, or the held-out ones."""
        if self.fs is None:
            if self.fonts:
                raise ValueError("decks drawn from typefaces are made per chunk: use chunk()")
            if self.art is None:
                fs = procedural_faceset()
            elif self.split == "train":
                fs = load_manifest(self.art, exclude=HELD_OUT_DECKS | NO_CLASSIFIER)
            else:
                fs = load_manifest(self.art, decks=set(HELD_OUT_DECKS))
            for deck in fs.decks():  # a joker without a corner index cannot be told from a blank corner
                joker = fs.faces[deck].get("B")
                if joker is not None and _ink(joker) < 0.01:
                    del fs.faces[deck]["B"]
            self.fs = fs
        return self.fs

    def sample(self, rng: np.random.Generator) -> list[tuple[npt.NDArray[np.uint8], int]]:
        """Crops (64, 48, 3) BGR uint8 (before ``cardcrop.normalise_crop``) with class indices, from one posed card."""
        fs = self.faces()
        deck, card, face, bare = self.draw_card(rng, back_rate=0.06)
        # pose: card height in frame pixels from a far overhead view to a close photo
        # (a card above ~190 px looks the same after the crop's area shrink to 64 px, so bigger is wasted time)
        ch = float(np.exp(rng.uniform(math.log(self.heights[0]), math.log(self.heights[1]))))
        self.last_height = ch
        side = int(ch * 1.5) + 8
        quad = posed_quad(rng, ch, face.shape[1] / face.shape[0], side)
        img = background(rng, side, side).astype(np.float32)
        lay_face(rng, img, face, quad)
        cover = np.zeros((side, side), np.uint8)
        if rng.random() < 0.3:  # something over part of the card: another card or a hand
            self._occlude(rng, img, cover, fs, quad, ch)
        img = photometric(rng, img, float(rng.uniform(0.5, 1.0)))
        done = Degradation()
        frame = degrade(rng, img, float(rng.uniform(0.5, 1.0)), record=done)
        legible = legibility(ch, done) if card is not None else math.inf
        self.last_legibility = legible
        # the detector's corners are a little off: jitter them (shift, scale, per-corner)
        q = found_outline(rng, quad, ch, loose=bool(self.loose and rng.random() < self.loose))
        if bare:  # a false detection on bare table
            frame = degrade(rng, photometric(rng, background(rng, side, side).astype(np.float32)))
        crops = cardcrop.corner_crops_bgr(frame, q)
        cover_bgr = cast(npt.NDArray[np.uint8], cv2.cvtColor(cover, cv2.COLOR_GRAY2BGR))
        cover_crops = cardcrop.corner_crops_bgr(cover_bgr, q)
        # which of the four crops (TL, TR, BR, BL of the ordered quad) hold an index: the set is the same
        # whichever 180-degree turn order_corners picked
        holds = set(index_corners(deck))
        out = []
        for k, (crop, cov) in enumerate(zip(crops, cover_crops, strict=True)):
            name = cardcrop.CORNER_NAMES[k]
            covered = float(cov[ZONE][:, :, 0].mean()) / 255.0
            if card is None or bare or name not in holds or covered > 0.6:
                label = NONE
            elif covered > 0.2:
                continue  # half-hidden index: ambiguous, leave it out
            elif legible < self.min_legible:
                label = NONE  # blurred past reading
            elif legible < self.min_legible * LEGIBLE_BAND:
                continue  # near the line: ambiguous, leave it out
            else:
                label = CLASS_INDEX[card]
            if label == NONE and rng.random() > 0.45:
                continue  # keep the classes balanced: most crops would be blank corners
            out.append((crop, label))
        return out

    def draw_card(
        self, rng: np.random.Generator, back_rate: float, left_out: str = ""
    ) -> tuple[str, str | None, npt.NDArray[np.uint8], bool]:
        """A deck, and a card of it (None: a back, ``back_rate`` of the time) with its face (BGRA), and
        whether the sample is to be bare table instead (3%); ranks in ``left_out`` are never drawn."""
        fs = self.faces()
        decks = fs.decks()
        deck = decks[int(rng.integers(len(decks)))]
        is_back = rng.random() < back_rate and bool(fs.backs)
        bare = bool(rng.random() < 0.03)
        if is_back:
            return deck, None, fs.backs[int(rng.integers(len(fs.backs)))], bare
        cards = [c for c in sorted(fs.faces[deck]) if c[0] not in left_out]
        card = cards[int(rng.integers(len(cards)))]
        return deck, card, fs.faces[deck][card], bare

    @staticmethod
    def _occlude(rng: np.random.Generator, img: npt.NDArray[np.float32], cover: npt.NDArray[np.uint8],
                 fs: FaceSet, quad: npt.NDArray[np.float32], ch: float) -> None:
        side = img.shape[0]
        corner = quad[int(rng.integers(4))]
        if rng.random() < 0.6:  # another card lying over this corner
            decks = fs.decks()
            d = decks[int(rng.integers(len(decks)))]
            cards = sorted(fs.faces[d])
            other = fs.faces[d][cards[int(rng.integers(len(cards)))]]
            a = rng.uniform(-math.pi, math.pi)
            c, s = math.cos(a), math.sin(a)
            w2, h2 = ch * 0.36, ch / 2
            base = np.array([[-w2, -h2], [w2, -h2], [w2, h2], [-w2, h2]], np.float32)
            centre = corner + rng.normal(0, 0.4 * ch, 2).astype(np.float32)
            oq = (base @ np.array([[c, -s], [s, c]], np.float32).T + centre).astype(np.float32)
            patch, x0, y0 = _warp_face(other, oq, side, side)
            if patch.size:
                ph, pw = patch.shape[:2]
                roi = img[y0:y0 + ph, x0:x0 + pw]
                roi[:] = roi * (1 - patch[:, :, 3:4]) + patch[:, :, :3]
                sub = cover[y0:y0 + ph, x0:x0 + pw]
                sub[patch[:, :, 3] > 0.5] = 255
        else:  # a finger or thumb
            col = np.array([(90, 120, 170), (120, 160, 210), (60, 90, 140), (40, 60, 90)][rng.integers(4)], np.float64)
            centre = (int(corner[0] + rng.normal(0, 0.2 * ch)), int(corner[1] + rng.normal(0, 0.2 * ch)))
            axes = (int(ch * rng.uniform(0.1, 0.3)), int(ch * rng.uniform(0.25, 0.6)))
            angle = float(rng.uniform(0, 180))
            cv2.ellipse(img, centre, axes, angle, 0, 360, tuple(col.tolist()), -1, cv2.LINE_AA)
            cv2.ellipse(cover, centre, axes, angle, 0, 360, 255, -1)

    def chunk(self, index: int, n: int = 1000) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
        """Chunk ``index``: ``n`` crops (n, 64, 48, 3) BGR uint8 and labels; same (seed, index), same crops."""
        rng = np.random.default_rng([self.seed, index])
        if self.fonts:
            self.fs = self._font_decks(index)
        xs: list[npt.NDArray[np.uint8]] = []
        ys: list[int] = []
        while len(ys) < n:
            for x, y in self.sample(rng):
                xs.append(x)
                ys.append(y)
        return np.stack(xs[:n]), np.array(ys[:n], np.int64)


    def _font_decks(self, index: int) -> FaceSet:
        """Chunk ``index``'s decks drawn from typefaces, with the training decks' court pictures and backs."""
        from lab.synth.font_faces import court_pictures, font_faceset
        from vision.cardcrop import CARD_CLASSES

        art = load_manifest(self.art, exclude=HELD_OUT_DECKS | NO_CLASSIFIER) if self.art else procedural_faceset()
        fs = font_faceset(self.seed * 100_000 + index, self.fonts, CARD_CLASSES, court_pictures(art),
                         pip_min=self.pip_min)
        fs.backs = art.backs
        return fs


ChunkJob = tuple[Path | None, str, int, int, Path, float, int, float, tuple[float, float], float]


def _write_chunk(args: ChunkJob) -> str:
    art, split, seed, index, out, loose, fonts, min_legible, heights, pip_min = args
    cv2.setNumThreads(1)
    path = out / (f"{split}_fonts_{seed}_{index:04d}.npz" if fonts else f"{split}_{seed}_{index:04d}.npz")
    if not path.exists():
        x, y = CropSampler(art, split, seed, loose, fonts, min_legible, heights, pip_min).chunk(index)
        np.savez(path, x=x, y=y)
    return str(path)


def load_crops(folder: Path, split: str) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """All crops of one split in ``folder``, normalised as the classifier sees them: (N, 3, 64, 48), labels."""
    xs, ys = [], []
    for path in sorted(folder.glob(f"{split}_*.npz")):
        with np.load(path) as z:
            xs.append(np.stack([cardcrop.normalise_crop(c) for c in z["x"]]))
            ys.append(z["y"])
    if not xs:
        raise FileNotFoundError(f"no {split}_*.npz crops in {folder}")
    return np.concatenate(xs), np.concatenate(ys)


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Render corner-crop chunks for the classifier (1000 crops each).")
    ap.add_argument("--art", default="work-data/art")
    ap.add_argument("--procedural", action="store_true")
    ap.add_argument("--out", default="work-data/datasets/crops")
    ap.add_argument("--train-chunks", type=int, default=60)
    ap.add_argument("--val-chunks", type=int, default=4, help="from the held-out decks")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--procs", type=int, default=1)
    ap.add_argument("--loose", type=float, default=0.0,
                    help="share of crops cut from outlines as far off as the card finder's (0..1)")
    ap.add_argument("--fonts", type=int, default=0,
                    help="training crops from this many decks per chunk drawn from system typefaces "
                         "(lab.synth.font_faces) instead of the artwork; held-out crops are unchanged")
    ap.add_argument("--min-legible", type=float, default=0.0,
                    help="label an index blurred below this legibility (card height over blur sd, "
                         "lab.synth.crops.legibility) `none`, and leave out one up to 1.25 times it; 0: never")
    ap.add_argument("--heights", type=float, nargs=2, default=(45.0, 190.0), metavar=("LO", "HI"),
                    help="card height in the frame (pixels), drawn log-uniform between these")
    ap.add_argument("--pip-min", type=float, default=0.5,
                    help="typeface decks: the smallest index pip, a share of the rank's height (largest 0.95)")
    args = ap.parse_args(argv)
    lo, hi = args.heights
    if not 10 <= lo < hi:
        ap.error(f"--heights {lo} {hi}: want 10 <= LO < HI")
    if not 0.1 <= args.pip_min <= 0.95:
        ap.error(f"--pip-min {args.pip_min}: want 0.1..0.95")
    heights = (float(lo), float(hi))
    art = None if args.procedural else Path(args.art)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    jobs: list[ChunkJob] = [(art, "heldout", args.seed + 1, i, out, args.loose, 0, args.min_legible, heights,
                             args.pip_min) for i in range(args.val_chunks)]
    jobs += [(art, "train", args.seed, i, out, args.loose, args.fonts, args.min_legible, heights, args.pip_min)
             for i in range(args.train_chunks)]
    write_chunks(_write_chunk, jobs, args.procs)
    return 0


def write_chunks(write: Callable[[J], str], jobs: Sequence[J], procs: int) -> None:
    """Run ``write`` on each chunk job, in ``procs`` processes (spawned) where more than one, printing the
    path each writes as it is done."""
    if procs > 1:
        with mp.get_context("spawn").Pool(procs) as pool:
            for p in pool.imap(write, jobs):
                print(p, flush=True)
    else:
        for j in jobs:
            print(write(j), flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
