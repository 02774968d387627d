"""``euchre-table bench --app``: the whole pipeline on the bundled demo, per detector backend, in its own process.

Each backend runs ``euchre-table demo --headless`` in a child process (so its
peak resident memory is its own) and reports the pipeline's frames per
second, the time from process start to the first camera frame shown, the
peak RSS, and whether torch was imported. A measurement, never a pass/fail check.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.bench_vision import _python_with_ultralytics
from companion.errors import UserError


def _summary(stdout: str) -> dict[str, str]:
    last = [line for line in stdout.splitlines() if "=" in line]
    if not last:
        return {}
    return dict(pair.split("=", 1) for pair in last[-1].split() if "=" in pair)


def _run_demo(python: str, backend: str, model: Path | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="euchre-bench-") as out:
        cmd = [python, "-m", "companion", "demo", "--headless", "--out", out, "--fresh", "--backend", backend]
        if model is not None:
            cmd += ["--model", str(model)]
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", OMP_NUM_THREADS="1")
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        started = time.monotonic()
        result = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
        wall = time.monotonic() - started
        peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if result.returncode != 0:
        tail = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["(no output)"]
        raise UserError(f"bench --app: the {backend} demo run failed: {tail[0]}")
    pairs = _summary(result.stdout)
    # ru_maxrss of children is the largest child so far; a smaller later child does not lower it.
    rss = peak_kb / 1024 if peak_kb > before else float("nan")
    return {
        "fps": pairs.get("fps", "na"),
        "first_frame_s": pairs.get("first_frame_s", "na"),
        "rss_mb": rss,
        "torch": pairs.get("torch_loaded", "na"),
        "frames": pairs.get("frames", "na"),
        "wall_s": wall,
    }


def bench_app(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    onnx = _run_demo(sys.executable, "onnx", None)
    print(f"onnx: {onnx}", file=sys.stderr)
    out.update({f"app_{k}_onnx": v for k, v in onnx.items() if k != "wall_s"})
    python, why = _python_with_ultralytics()
    if python is None:
        print(f"ultralytics backend not measured: {why}", file=sys.stderr)
        out.update({"app_fps_ultralytics": "na", "app_rss_mb_ultralytics": "na"})
        return out
    from vision.models import default_model_path

    pt = default_model_path().with_suffix(".pt")
    try:
        ultra = _run_demo(python, "ultralytics", pt if pt.exists() else None)
    except UserError as exc:  # the training environment may lack the app's own packages
        print(f"ultralytics backend not measured: {exc}", file=sys.stderr)
        out.update({"app_fps_ultralytics": "na", "app_rss_mb_ultralytics": "na"})
        return out
    print(f"ultralytics: {ultra}", file=sys.stderr)
    out.update({f"app_{k}_ultralytics": v for k, v in ultra.items() if k != "wall_s"})
    return out
