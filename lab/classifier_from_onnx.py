"""A training checkpoint of the corner classifier, rebuilt from its ONNX export.

The export (``lab.train.export_classifier``) folds each batch norm into the convolution before it, so the
ONNX graph holds only convolutions with biases and the last linear layer. To fine-tune a shipped
classifier whose training checkpoint is gone, this writes a checkpoint of ``lab.train.build_classifier``
that computes exactly what the ONNX graph computes (in eval mode):

- each convolution takes the folded weights;
- each batch norm gets running statistics measured on sample crops (what its convolution gives them), and
  the scale and shift that undo them and add the folded bias: ``gamma = sqrt(var + eps)``,
  ``beta = mean + bias``. In eval mode that is exact; in training mode a batch's statistics are near the
  running ones, so a fine-tune starts where the shipped model stands instead of from a jolt.

    /work/trainenv/bin/python -m lab.classifier_from_onnx --model models/corner-cls.onnx \\
        --crops work-data/datasets/crops --out work-data/runs/corner-cls-shipped/best.pt

The result loads with ``euchre-table train classifier --init-weights``; the script checks that its logits
match ONNX Runtime's on the sample crops before writing.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

TOLERANCE = 1e-3  # largest |logit difference| accepted between the checkpoint and the ONNX graph


def onnx_weights(model_path: Path) -> tuple[list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
                                             tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]:
    """The convolutions' (weight, bias) in graph order, and the last linear layer's (weight, bias)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(model_path)).graph
    init = {t.name: numpy_helper.to_array(t).astype(np.float32) for t in graph.initializer}
    convs: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]] = []
    linear: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]] | None = None
    for node in graph.node:
        if node.op_type == "Conv":
            if len(node.input) < 3:
                raise ValueError(f"{model_path}: convolution {node.name} has no bias (not a folded export)")
            convs.append((init[node.input[1]], init[node.input[2]]))
        elif node.op_type == "Gemm":
            attrs = {a.name: a for a in node.attribute}
            weight = init[node.input[1]]
            if "transB" not in attrs or attrs["transB"].i != 1:
                weight = weight.T
            linear = (weight, init[node.input[2]])
    if linear is None:
        raise ValueError(f"{model_path}: no linear layer (Gemm) found")
    return convs, linear


def rebuild(model_path: Path, sample: npt.NDArray[np.float32]) -> Any:
    """``build_classifier()`` holding the ONNX model's weights, its batch norms measured on ``sample``."""
    import torch
    from torch import nn

    from lab.train import build_classifier

    convs_w, (lin_w, lin_b) = onnx_weights(model_path)
    model = build_classifier(num_classes=lin_w.shape[0])
    convs = [m for m in model if isinstance(m, nn.Conv2d)]
    norms = [m for m in model if isinstance(m, nn.BatchNorm2d)]
    linears = [m for m in model if isinstance(m, nn.Linear)]
    if len(convs) != len(convs_w) or len(linears) != 1:
        raise ValueError(f"{model_path}: {len(convs_w)} convolutions, the training model has {len(convs)}")
    outputs: dict[int, Any] = {}
    hooks = [conv.register_forward_hook(lambda _m, _i, o, k=k: outputs.__setitem__(k, o.detach()))
             for k, conv in enumerate(convs)]
    with torch.no_grad():
        for conv, norm, (w, b) in zip(convs, norms, convs_w, strict=True):
            if tuple(conv.weight.shape) != w.shape:
                raise ValueError(f"{model_path}: a convolution of shape {w.shape}, expected {tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(w))
            eps = norm.eps
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0)
            norm.weight.fill_(float(np.sqrt(1.0 + eps)))
            norm.bias.copy_(torch.from_numpy(b))
        linears[0].weight.copy_(torch.from_numpy(lin_w))
        linears[0].bias.copy_(torch.from_numpy(lin_b))
        model.eval()
        model(torch.from_numpy(sample))  # exact already: measure what each convolution gives the sample
        for k, (norm, (_w, b)) in enumerate(zip(norms, convs_w, strict=True)):
            out = outputs[k]
            mean = out.mean(dim=(0, 2, 3))
            var = out.var(dim=(0, 2, 3), unbiased=False)
            norm.running_mean.copy_(mean)
            norm.running_var.copy_(var)
            norm.weight.copy_(torch.sqrt(var + norm.eps))
            norm.bias.copy_(mean + torch.from_numpy(b))
    for hook in hooks:
        hook.remove()
    return model


def onnx_logits(model_path: Path, crops: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    import onnxruntime as ort

    session = ort.InferenceSession(str(model_path), providers=["CPUExecutionProvider"])
    return np.asarray(session.run(["logits"], {"crops": crops})[0], np.float32)


def largest_difference(model: Any, model_path: Path, crops: npt.NDArray[np.float32]) -> float:
    import torch

    model.eval()
    with torch.no_grad():
        ours = model(torch.from_numpy(crops)).numpy()
    return float(np.abs(ours - onnx_logits(model_path, crops)).max())


def main(argv: list[str] | None = None) -> int:
    import torch

    from lab.synth.crops import load_crops
    from vision.cardcrop import CLASSIFIER_CLASSES

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, default=Path("models/corner-cls.onnx"))
    ap.add_argument("--crops", type=Path, required=True, help="a crops folder (lab.synth.crops) for the statistics")
    ap.add_argument("--sample", type=int, default=4096, help="crops the batch norms' statistics are measured on")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    x, _y = load_crops(args.crops, "train")
    rng = np.random.default_rng(0)
    sample = x[rng.choice(len(x), min(args.sample, len(x)), replace=False)]
    model = rebuild(args.model, sample)
    diff = largest_difference(model, args.model, sample[:512])
    if diff > TOLERANCE:
        print(f"{args.model}: the rebuilt model's logits differ from the ONNX graph's by {diff:.2e}", flush=True)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model.state_dict(), "epoch": -1, "best": -1.0, "classes": list(CLASSIFIER_CLASSES),
                "from_onnx": str(args.model)}, args.out)
    print(f"wrote {args.out} (largest logit difference from {args.model}: {diff:.2e})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
