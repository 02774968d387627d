"""Reader time with and without a deck profile, in CPU time (steadier than wall time on a shared machine).

    python -m lab.profile_cost IMAGES PROFILE [--frames 10] [--runs 3]
    python -m lab.profile_cost IMAGES {PROFILE | none} --face-reader
    python -m lab.profile_cost --table DECK [--restyle dark|one_ink|...] [--seed 0] [--frames 10] [--runs 3]

Both readers (one ONNX Runtime thread each) read the same frames in turn, ``runs`` times; printed: the
median and the total CPU milliseconds per frame of each, and the difference. With ``--face-reader`` the two
readers differ by the face reader alone (``vision.face_reader``), both reading with PROFILE (``none``:
without a profile). ``--table DECK``: the frames are the simulated table's (every 12th frame of a two-hand game of
that deck, ``--restyle``: printed another way, as ``lab.frame_study`` prints it), and the profile the deck's, as
printed, enrolled first on the rendered mat (``lab.sim_enrol``, as ``simulate --enrol``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from lab.synth.scenes import ALL_STYLES
from vision.deck_profile import DeckProfile
from vision.models import default_model_path
from vision.onnx_detector import OnnxDetector
from vision.sources.files import load_image


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("images", type=Path, nargs="?")
    parser.add_argument("profile", type=Path, nargs="?")
    parser.add_argument("--table", help="a deck of the fetched artwork, or 'procedural': read its simulated table, "
                        "enrolled first")
    parser.add_argument("--restyle", choices=ALL_STYLES, default=None, help="with --table: the deck printed so")
    parser.add_argument("--seed", type=int, default=0, help="with --table: the game's (and the print's) seed")
    parser.add_argument("--art", type=Path, default=Path("work-data/art"))
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--face-reader", action="store_true",
                        help="compare the reader without and with the face reader instead (PROFILE may be none)")
    args = parser.parse_args(argv)
    profile_arg: Path | DeckProfile | None = args.profile
    if args.table is not None:
        frames, profile_arg = table_frames(args.table, args.restyle, args.seed, args.art, args.frames)
    elif args.images is None or args.profile is None:
        parser.error("give IMAGES and PROFILE, or --table DECK")
    else:
        frames = [load_image(p) for p in sorted(args.images.iterdir())[: args.frames]]
    if args.face_reader:
        profile = None if str(profile_arg) == "none" else profile_arg
        readers = {
            "without": OnnxDetector(default_model_path(), threads=1, profile=profile, face_reader=False),
            "with": OnnxDetector(default_model_path(), threads=1, profile=profile),
        }
    else:
        readers = {
            "without": OnnxDetector(default_model_path(), threads=1),
            "with": OnnxDetector(default_model_path(), threads=1, profile=profile_arg),
        }
    for reader in readers.values():
        for frame in frames[:2]:
            reader.detect(frame)
    ms: dict[str, list[float]] = {k: [] for k in readers}
    for _ in range(args.runs):
        for key, reader in readers.items():
            for frame in frames:
                start = time.process_time()
                reader.detect(frame)
                ms[key].append((time.process_time() - start) * 1000.0)
    a, b = sum(ms["without"]), sum(ms["with"])
    print(
        f"frames={len(ms['with'])} cpu_ms_median_without={statistics.median(ms['without']):.1f} "
        f"cpu_ms_median_with={statistics.median(ms['with']):.1f} cpu_ms_total_without={a:.0f} "
        f"cpu_ms_total_with={b:.0f} extra={100 * (b / a - 1):+.1f}%"
    )
    return 0


def table_frames(
    deck: str, restyle: str | None, seed: int, art: Path, count: int
) -> tuple[list[npt.NDArray[np.uint8]], DeckProfile]:
    """``count`` frames of a two-hand game of ``deck`` at the simulated table (every 12th), printed ``restyle``
    where given, and the deck's profile enrolled on the rendered mat."""
    from lab import simtable as st
    from lab.frame_study import enrolled_profile
    from lab.synth.scenes import reprint_faces
    from table.rules import Rules

    rules = Rules()
    faces, back, name = st.load_deck(deck, art, rules.deck_size)
    if deck != "procedural" and name != deck:
        raise SystemExit(f"--table {deck}: no artwork for it in {art}")
    printed = faces if restyle is None else reprint_faces(faces, restyle, seed)
    profile = enrolled_profile(OnnxDetector(default_model_path(), threads=1), rules, printed, back, seed)
    script = st.build_script(seed, 2, 0.3, rules=rules)
    renderer = st.TableRenderer(script, printed, back, seed=seed)
    return [renderer.render(n) for n in range(0, script.frames, 12)][:count], profile


if __name__ == "__main__":
    sys.exit(main())
