"""Writes the two tiny ONNX models the detector tests run without a trained model (run in the training venv).

``tiny/card-obb.onnx`` stands in for the card finder: whatever the 64x64
input, it outputs the same three oriented candidates in the Ultralytics
layout [1, 4+1+1, N] (cx, cy, w, h, score, angle), with Ultralytics-style
metadata (names {0: 'card'}, imgsz [64, 64], task obb):

- a card at (32, 32), 20 x 28, turned 0.3 rad, score 0.9;
- the same card found again 1 px to the right, score 0.6 (NMS drops it);
- a weak candidate, score 0.1 (below the confidence threshold).

``tiny/corner-cls.onnx`` stands in for the corner-index classifier: the
logits are a linear function of each crop's mean colour, so a corner with
red ink reads ``Kh``, one with black ink ``As``, and blank paper ``none``.
``tiny/classes.json`` lists its classes as the shipped model's does.
``tiny/blind-cls.onnx`` is a classifier with the same classes that calls
every corner ``none`` (for tests that need a second, different classifier);
``tiny/square-cls.onnx`` the same for 32 x 32 crops (a classifier of other input).

    .venv-train/bin/python tests/vision/data/make_tiny_models.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from vision.cardcrop import CLASSIFIER_CLASSES, CROP_H, CROP_W

OUT = Path(__file__).resolve().parent / "tiny"
CANDIDATES = np.array(
    [
        [32, 32, 20, 28, 0.9, 0.3],
        [33, 32, 20, 28, 0.6, 0.3],
        [10, 10, 8, 8, 0.1, 0.0],
    ],
    np.float32,
).T[None]  # [1, 6, 3]


def finder() -> onnx.ModelProto:
    nodes = [
        helper.make_node("ReduceMean", ["images"], ["mean"], keepdims=0),
        helper.make_node("Mul", ["mean", "zero"], ["nothing"]),
        helper.make_node("Add", ["candidates", "nothing"], ["output0"]),
    ]
    graph = helper.make_graph(
        nodes,
        "tiny-card-finder",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 64, 64])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [1, 6, 3])],
        initializer=[
            numpy_helper.from_array(CANDIDATES, "candidates"),
            numpy_helper.from_array(np.array(0.0, np.float32), "zero"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    meta = {"names": "{0: 'card'}", "imgsz": "[64, 64]", "task": "obb", "end2end": "False", "stride": "32"}
    helper.set_model_props(model, meta)
    onnx.checker.check_model(model)
    return model


def classifier(blind: bool = False, crop: tuple[int, int] = (CROP_H, CROP_W)) -> onnx.ModelProto:
    n = len(CLASSIFIER_CLASSES)
    weights = np.zeros((3, n), np.float32)
    bias = np.full(n, -10.0, np.float32)
    kh, as_, none = (CLASSIFIER_CLASSES.index(c) for c in ("Kh", "As", "none"))
    if blind:
        bias[none] = 10.0  # whatever the crop, no index
        return _linear_classifier(weights, bias, crop)
    weights[:, kh] = [100.0, -100.0, 0.0]  # red ink: red stays, green drops
    weights[:, as_], bias[as_] = [-30.0, -30.0, -30.0], 81.0  # black ink: every channel drops (blank paper ~2.85)
    bias[kh], bias[none] = 0.0, 1.0
    return _linear_classifier(weights, bias, crop)


def _linear_classifier(weights: np.ndarray, bias: np.ndarray, crop: tuple[int, int]) -> onnx.ModelProto:
    n = len(CLASSIFIER_CLASSES)
    nodes = [
        helper.make_node("ReduceMean", ["crops"], ["colour"], axes=[2, 3], keepdims=0),
        helper.make_node("MatMul", ["colour", "weights"], ["scaled"]),
        helper.make_node("Add", ["scaled", "bias"], ["logits"]),
    ]
    graph = helper.make_graph(
        nodes,
        "tiny-corner-classifier",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["batch", 3, *crop])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", n])],
        initializer=[numpy_helper.from_array(weights, "weights"), numpy_helper.from_array(bias, "bias")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def main() -> None:
    OUT.mkdir(exist_ok=True)
    onnx.save(finder(), OUT / "card-obb.onnx")
    onnx.save(classifier(), OUT / "corner-cls.onnx")
    onnx.save(classifier(blind=True), OUT / "blind-cls.onnx")
    onnx.save(classifier(blind=True, crop=(32, 32)), OUT / "square-cls.onnx")
    classes = {"detector": ["card"], "classifier": list(CLASSIFIER_CLASSES)}
    (OUT / "classes.json").write_text(json.dumps(classes, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
