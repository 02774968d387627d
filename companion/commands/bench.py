"""``euchre-table bench``: throughput benchmarks, one flag per part (``--rules`` now; vision and app later).

Each flag names a function that runs its benchmark, prints its own progress
lines and returns ``key=value`` pairs; the command prints them all on one final
summary line. A benchmark is a measurement, never a pass/fail check.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from companion import bench_vision
from companion.errors import UserError
from companion.summary import summary_line


def _rules(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench_rules import bench_rules, profile_rules

    pairs = bench_rules(seconds=args.seconds, repeats=args.repeats, seed=args.seed)
    if args.profile:
        print(profile_rules(args.seconds, args.seed))
    return pairs


def _replay(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench_rules import bench_replay

    return bench_replay(deals=args.deals, repeats=args.repeats, seconds=args.seconds, seed=args.seed)


def _vision(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench_vision import bench_vision

    return bench_vision(args)


def _app(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench_app import bench_app

    return bench_app(args)


# Flag name -> benchmark. Later parts add theirs here (and a flag in register).
BENCHES: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "rules": _rules,
    "replay": _replay,
    "vision": _vision,
    "app": _app,
}


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "bench",
        help="measure throughput (rules engine vs OpenSpiel, ...)",
        description="Throughput benchmarks. Prints one line per round and a final key=value summary line.",
    )
    p.add_argument(
        "--rules",
        action="store_true",
        help="random full deals through the rules engine, and OpenSpiel's euchre in the same run if installed",
    )
    p.add_argument(
        "--replay",
        action="store_true",
        help="replay an EGN of --deals random deals and resume an input log of as many, against OpenSpiel's "
        "random play measured in the same run",
    )
    p.add_argument("--deals", type=int, default=3000, help="deals in the --replay game (default 3000)")
    p.add_argument(
        "--vision",
        action="store_true",
        help="card detector ms per frame and peak memory, ONNX Runtime vs Ultralytics, each in its own process",
    )
    p.add_argument(
        "--app",
        action="store_true",
        help="the whole pipeline on the bundled demo: fps, time to first frame, peak memory, per backend",
    )
    bench_vision.add_arguments(p)
    p.add_argument("--seconds", type=float, default=1.0, help="length of each timed round (default 1.0)")
    p.add_argument("--repeats", type=int, default=5, help="timed rounds per side; medians are reported (default 5)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--profile", action="store_true", help="also print a cProfile of the rules loop")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    chosen = [name for name in BENCHES if getattr(args, name, False)]
    if not chosen:
        raise UserError("bench: say what to measure (--rules, --replay, --vision, --app)")
    if args.deals < 1:
        raise UserError(f"bench: --deals must be 1 or more (got {args.deals})")
    if args.seconds <= 0 or args.repeats < 1:
        raise UserError(f"bench: --seconds must be > 0 and --repeats >= 1 (got {args.seconds}, {args.repeats})")
    pairs: dict[str, Any] = {}
    for name in chosen:
        pairs.update(BENCHES[name](args))
    print(summary_line(**pairs))
    return 0
