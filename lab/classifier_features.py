"""Add a ``features`` output to the corner classifier: its penultimate activation, by graph surgery.

The corner-index classifier (``models/corner-cls.onnx``) ends in global
average pooling, a flatten and one linear layer (``Gemm``) to the 34
``logits``. A deck profile (``vision.deck_profile``) compares crops by the
vector that linear layer reads: the Gemm's input. This script adds that
existing tensor as a second graph output named ``features`` (an ``Identity``
of it, so the original tensor name stays internal) and changes nothing
else, so ``logits`` stay bit-identical; it checks that on random crops and
on crops of a real frame before writing.

    /work/trainenv/bin/python -m lab.classifier_features [--model models/corner-cls.onnx] [--out PATH]

The surgery needs the ``onnx`` package (the lab's training environment); the
check needs ONNX Runtime, and runs in ``--runtime-python`` (default: the
project's ``.venv``) where this interpreter lacks it. The table runs the
result with ONNX Runtime alone.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np

FEATURES = "features"


def add_features_output(model_path: Path, out_path: Path) -> int:
    """Write ``model_path`` with a ``features`` output to ``out_path``; returns the features' width."""
    import onnx
    from onnx import TensorProto, helper

    model = onnx.load(str(model_path))
    graph = model.graph
    if any(o.name == FEATURES for o in graph.output):
        raise SystemExit(f"{model_path}: already has a {FEATURES!r} output")
    logits = graph.output[0].name
    heads = [n for n in graph.node if logits in n.output]
    if len(heads) != 1 or heads[0].op_type != "Gemm":
        raise SystemExit(f"{model_path}: {logits!r} does not come from one Gemm (found {[n.op_type for n in heads]})")
    head = heads[0]
    penultimate = head.input[0]
    weight = next(init for init in graph.initializer if init.name == head.input[1])
    trans_b = next((a.i for a in head.attribute if a.name == "transB"), 0)
    width = int(weight.dims[1] if trans_b else weight.dims[0])
    graph.node.append(helper.make_node("Identity", [penultimate], [FEATURES], name="features_output"))
    graph.output.append(helper.make_tensor_value_info(FEATURES, TensorProto.FLOAT, ["batch", width]))
    onnx.checker.check_model(model)
    onnx.save(model, str(out_path))
    return width


def check_identical(old: Path, new: Path, crops: np.ndarray) -> float:
    """Run both models on ``crops``; exit unless ``logits`` are bit-identical. Returns max |features|."""
    import onnxruntime as ort

    a = ort.InferenceSession(str(old), providers=["CPUExecutionProvider"])
    b = ort.InferenceSession(str(new), providers=["CPUExecutionProvider"])
    name = a.get_inputs()[0].name
    la = a.run(["logits"], {name: crops})[0]
    lb, fb = b.run(["logits", FEATURES], {name: crops})
    if la.shape != lb.shape or not np.array_equal(la, lb):
        raise SystemExit(f"logits differ: max |diff| {float(np.abs(la - lb).max())}")
    return float(np.abs(fb).max())


def test_crops() -> np.ndarray:
    """Random crops, and crops of plain paper with a dark blob (an index-like input)."""
    rng = np.random.default_rng(0)
    noise = rng.uniform(0, 1.2, (48, 3, 64, 48)).astype(np.float32)
    paper = np.ones((16, 3, 64, 48), np.float32)
    for k in range(16):
        y, x = rng.integers(4, 40), rng.integers(4, 28)
        paper[k, :, y : y + 20, x : x + 14] = rng.uniform(0, 0.5, 3)[:, None, None]
    return np.concatenate([noise, paper])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--model", type=Path, default=Path("models/corner-cls.onnx"))
    parser.add_argument("--out", type=Path, default=None, help="where to write (default: over --model)")
    parser.add_argument("--runtime-python", type=Path, default=Path(".venv/bin/python"))
    parser.add_argument("--check", nargs=2, type=Path, metavar=("OLD", "NEW"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.check is not None:
        crops = test_crops()
        peak = check_identical(args.check[0], args.check[1], crops)
        print(f"logits bit-identical on {len(crops)} crops; max |feature| {peak:.3f}")
        return 0
    out = args.out if args.out is not None else args.model
    tmp = out.with_name(out.name + ".tmp")
    width = add_features_output(args.model, tmp)
    python = sys.executable if importlib.util.find_spec("onnxruntime") else str(args.runtime_python)
    done = subprocess.run([python, "-m", "lab.classifier_features", "--check", str(args.model), str(tmp)])
    if done.returncode != 0:
        tmp.unlink()
        return done.returncode
    tmp.replace(out)
    print(f"{out}: added {FEATURES!r} ({width} wide)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
