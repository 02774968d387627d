"""Reader time with and without a deck profile, in CPU time (steadier than wall time on a shared machine).

    python -m lab.profile_cost IMAGES PROFILE [--frames 10] [--runs 3]
    python -m lab.profile_cost IMAGES {PROFILE | none} --face-reader

Both readers (one ONNX Runtime thread each) read the same frames in turn, ``runs`` times; printed: the
median and the total CPU milliseconds per frame of each, and the difference. With ``--face-reader`` the two
readers differ by the face reader alone (``vision.face_reader``), both reading with PROFILE (``none``:
without a profile).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from vision.models import default_model_path
from vision.onnx_detector import OnnxDetector
from vision.sources.files import load_image


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("images", type=Path)
    parser.add_argument("profile", type=Path)
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--face-reader", action="store_true",
                        help="compare the reader without and with the face reader instead (PROFILE may be none)")
    args = parser.parse_args(argv)
    frames = [load_image(p) for p in sorted(args.images.iterdir())[: args.frames]]
    if args.face_reader:
        profile = None if str(args.profile) == "none" else args.profile
        readers = {
            "without": OnnxDetector(default_model_path(), threads=1, profile=profile, face_reader=False),
            "with": OnnxDetector(default_model_path(), threads=1, profile=profile),
        }
    else:
        readers = {
            "without": OnnxDetector(default_model_path(), threads=1),
            "with": OnnxDetector(default_model_path(), threads=1, profile=args.profile),
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


if __name__ == "__main__":
    sys.exit(main())
