"""``euchre-table mat``: draw the printable play mat (ArUco corner markers, seat zones, kitty, trick area)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.summary import summary_line


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "mat",
        help="draw the printable play mat as a PDF or PNG (A3 or A2)",
        description=(
            "Draws the play mat: an ArUco marker in each corner (where the camera calibration looks for them), "
            "the play zone in front of each seat with its label, the kitty/up-card zone and the trick area. "
            "Print the PDF at actual size (100 %%) and lay it square under the camera."
        ),
    )
    parser.add_argument("--out", type=Path, required=True, metavar="FILE", help="FILE.pdf or FILE.png")
    parser.add_argument("--size", default="A3", help="sheet: A3 or A2, landscape (default A3)")
    parser.add_argument("--dpi", type=float, default=None, help="print resolution (default 150)")
    parser.add_argument(
        "--rotation", type=int, default=0, choices=(0, 1, 2, 3),
        help="the edge seat 0 sits at, in quarter turns clockwise from the bottom (as the layout's rotation)",
    )  # fmt: skip
    parser.add_argument("--names", default=None, metavar="A,B,C,D", help="seat labels for seats 0-3, comma separated")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.errors import UserError
    from vision.mat import DEFAULT_DPI, marker_layout, mat_size, write_mat
    from vision.zones import TableLayout

    size = mat_size(args.size)
    names = None
    if args.names is not None:
        names = [n.strip() for n in args.names.split(",")]
        if len(names) != 4 or not all(names):
            raise UserError(f"--names {args.names!r}: four names separated by commas")
    dpi = float(args.dpi) if args.dpi is not None else float(DEFAULT_DPI)
    width, height = write_mat(args.out, size, dpi, TableLayout(rotation=args.rotation), names)
    markers = marker_layout(size)
    print(
        summary_line(
            out=args.out,
            size=size.name,
            width_mm=size.width_mm,
            height_mm=size.height_mm,
            dpi=dpi,
            pixels=f"{width}x{height}",
            dictionary=markers.dictionary,
            markers=sorted(markers.markers),
        )
    )
    return 0
