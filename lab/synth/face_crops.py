"""Face crops for the face reader (``vision.face_reader``): a card's middle, upright, labelled with its kind
and suit, rendered on the fly as the corner crops are (``lab.synth.crops``).

One sample: a card face posed on a procedural table patch as :class:`lab.synth.crops.CropSampler` poses
it (any turn, some perspective, 45-260 px tall), covered in part by one or two other cards or a finger
four times in ten, lit and degraded like a scene, then its middle cut with ``cardcrop.face_crop_bgr``
from an outline as far off as the finder's (half the samples) or a little off. Labels
(``vision.face_reader.FACE_CLASSES``): the card's kind (ace, 7-10, or a court) in its suit; for a number
card more than 2% covered (a pip may be hidden: a nine so covered looks like an eight), its suit's unseen
kind; ``none`` for a back, bare table, a face more than 60% covered or blurred past reading (a card under 25
blur widths tall, ``crops.legibility``). A face 35-60% covered or 25-32 blur widths tall is left out (whether it can
be read there depends on the deck). Decks drawn from typefaces (``--fonts``) give number cards only:
their court pictures are other decks', whose suit is not theirs.

    python -m lab.synth.face_crops --out work-data/datasets/faces --train-chunks 100 --val-chunks 6 --procs 2

writes ``heldout_*.npz`` (the held-out decks, to measure) and ``train_*.npz`` (half artwork chunks, half
typeface chunks), 1,000 crops each, as ``lab.synth.crops`` does; ``euchre-table train face`` trains on them.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from lab.synth.crops import CropSampler, found_outline, lay_face, legibility, posed_quad, write_chunks
from lab.synth.scenes import (
    DARK_PAPER_STYLES,
    Degradation,
    background,
    deck_print,
    degrade,
    photometric,
    restyle_face,
)
from vision import cardcrop
from vision.face_reader import FACE_NONE, face_class

HEIGHTS = (45.0, 260.0)  # the card's height in the frame, pixels (log-uniform)
COVERED_NONE = 0.6  # a face more covered than this is labelled none
COVERED_OUT = 0.35  # one covered from this up to COVERED_NONE is left out
COVERED_PIPS = 0.02  # a number card more covered than this may hide a pip: its kind is labelled unseen
LEGIBLE_NONE = 25.0  # a card fewer blur widths tall than this is labelled none
LEGIBLE_OUT = 32.0  # one from LEGIBLE_NONE up to this is left out
# ``--restyle``: the decks printed otherwise (``scenes.restyle_face``), with these odds. The reader's view of a
# card printed light on dark paper is its face turned over (``cardcrop.lightness_inverted``, as the corner
# classifier's is): gold or silver print turns grey, so a deck printed all in one ink (``one_ink``) shows every
# suit in one grey and only the pips' shapes tell them apart; it gets the largest share.
RESTYLES: tuple[tuple[str, float], ...] = (("one_ink", 0.35), ("dark", 0.25), ("tinted", 0.2), ("four_colour", 0.2))


class FaceSampler(CropSampler):
    """Face crops from the training (or held-out) decks; deterministic per (seed, chunk index). ``restyle``:
    the share of posed cards printed another way (:data:`RESTYLES`; 0: as the artwork, the stream of samples
    as before the option)."""

    def __init__(
        self, art: Path | None, split: str = "train", seed: int = 0, loose: float = 0.0, fonts: int = 0,
        min_legible: float = 0.0, heights: tuple[float, float] = (45.0, 190.0), restyle: float = 0.0,
    ) -> None:
        super().__init__(art, split, seed, loose, fonts, min_legible, heights)
        self.restyle = restyle

    def sample(self, rng: np.random.Generator) -> list[tuple[npt.NDArray[np.uint8], int]]:
        """One posed card: [] or [(crop (64, 48, 3) BGR uint8, face class)]."""
        fs = self.faces()
        # a typeface deck's courts carry other decks' pictures: number cards only
        _, card, face, bare = self.draw_card(rng, back_rate=0.04, left_out="JQKB" if self.fonts else "")
        style = self._style(rng)
        if style is not None:
            paper, ink = deck_print(rng, style)
            face = restyle_face(face, card or "", style, paper, ink)
        ch = float(np.exp(rng.uniform(math.log(self.heights[0]), math.log(self.heights[1]))))
        side = int(ch * 1.5) + 8
        quad = posed_quad(rng, ch, face.shape[1] / face.shape[0], side)
        img = background(rng, side, side).astype(np.float32)
        lay_face(rng, img, face, quad)
        cover = np.zeros((side, side), np.uint8)
        if rng.random() < 0.4:
            self._occlude(rng, img, cover, fs, quad, ch)
            if rng.random() < 0.4:
                self._occlude(rng, img, cover, fs, quad, ch)
        img = photometric(rng, img, float(rng.uniform(0.5, 1.0)))
        done = Degradation()
        frame = degrade(rng, img, float(rng.uniform(0.5, 1.0)), record=done)
        q = found_outline(rng, quad, ch, loose=bool(rng.random() < 0.5))  # half as far off as the finder's
        if bare:  # a false outline on bare table
            frame = degrade(rng, photometric(rng, background(rng, side, side).astype(np.float32)))
        crop = cardcrop.face_crop_bgr(frame, q)
        if style in DARK_PAPER_STYLES:  # the reader sees such a card turned over, as the table's reader cuts it
            crop = cardcrop.lightness_inverted(crop)
        cover_bgr = cast(npt.NDArray[np.uint8], cv2.cvtColor(cover, cv2.COLOR_GRAY2BGR))
        covered = float(cardcrop.face_crop_bgr(cover_bgr, q)[:, :, 0].mean()) / 255.0
        legible = legibility(ch, done)
        if card is None or bare or covered > COVERED_NONE or legible < LEGIBLE_NONE:
            label = FACE_NONE
        elif covered > COVERED_OUT or legible < LEGIBLE_OUT:
            return []
        else:
            label = face_class(card, pips_in_view=covered <= COVERED_PIPS)
        if label == FACE_NONE and rng.random() > 0.5:
            return []  # keep the classes balanced
        return [(crop, label)]

    def _style(self, rng: np.random.Generator) -> str | None:
        """How the posed card is printed: None (as the artwork) or one of :data:`RESTYLES`, ``restyle`` of the
        time; no draw from ``rng`` where ``restyle`` is 0."""
        if not self.restyle or rng.random() >= self.restyle:
            return None
        styles = [name for name, _ in RESTYLES]
        odds = np.array([share for _, share in RESTYLES], np.float64)
        return styles[int(rng.choice(len(styles), p=odds / odds.sum()))]


FaceChunkJob = tuple[Path | None, str, int, int, Path, int, float]


def _write_chunk(job: FaceChunkJob) -> str:
    art, split, seed, index, out, fonts, restyle = job
    cv2.setNumThreads(1)
    path = out / (f"{split}_fonts_{seed}_{index:04d}.npz" if fonts else f"{split}_{seed}_{index:04d}.npz")
    if not path.exists():
        x, y = FaceSampler(art, split, seed, 0.0, fonts, 0.0, HEIGHTS, restyle).chunk(index)
        np.savez(path, x=x, y=y)
    return str(path)


def jobs(art: Path | None, out: Path, train_chunks: int, val_chunks: int, seed: int, fonts: int,
         restyle: float = 0.0) -> list[FaceChunkJob]:
    """The chunks to write: held-out ones (seed + 1), then training ones, every other one from ``fonts``
    typeface decks (seed + 100) where ``fonts`` > 0, else from the artwork (seed); each with ``restyle`` of
    its cards printed otherwise (:class:`FaceSampler`)."""
    out_jobs: list[FaceChunkJob] = [(art, "heldout", seed + 1, i, out, 0, restyle) for i in range(val_chunks)]
    for i in range(train_chunks):
        typeface = fonts > 0 and i % 2 == 1
        out_jobs.append((art, "train", seed + 100 if typeface else seed, i, out, fonts if typeface else 0, restyle))
    return out_jobs


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Render face-crop chunks for the face reader (1000 crops each).")
    ap.add_argument("--art", default="work-data/art")
    ap.add_argument("--procedural", action="store_true", help="drawn decks instead of the artwork (tests)")
    ap.add_argument("--out", default="work-data/datasets/faces")
    ap.add_argument("--train-chunks", type=int, default=100)
    ap.add_argument("--val-chunks", type=int, default=6, help="from the held-out decks")
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--fonts", type=int, default=8,
                    help="decks per typeface chunk (every other training chunk); 0: artwork only")
    ap.add_argument("--restyle", type=float, default=0.0,
                    help="share of cards printed another way (dark or tinted paper, one ink, four colours); "
                         "those on dark paper turned over, as the reader sees them")
    ap.add_argument("--procs", type=int, default=1)
    args = ap.parse_args(argv)
    if args.train_chunks < 0 or args.val_chunks < 0 or args.fonts < 0 or args.procs < 1:
        ap.error("--train-chunks, --val-chunks and --fonts must be 0 or more, --procs 1 or more")
    if not 0.0 <= args.restyle <= 1.0:
        ap.error("--restyle must be from 0 to 1")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    todo = jobs(None if args.procedural else Path(args.art), out, args.train_chunks, args.val_chunks, args.seed,
                args.fonts, args.restyle)
    write_chunks(_write_chunk, todo, args.procs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
