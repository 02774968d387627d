"""lab.pi_speed: multiply-adds counted from ONNX graphs, and the Pi estimate built on them."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab import pi_speed

ROOT = Path(__file__).resolve().parents[1]


def test_the_estimate_orders_the_boards_and_the_bounds() -> None:
    fps = pi_speed.estimate(macs_per_frame=1.3e9, ms_rest_host=40.0, host_macs_per_s=17e9)
    for worst, best in fps.values():
        assert 0 < worst < best
    assert fps[("Pi 5", "ONNX Runtime")][1] > fps[("Pi 4", "ONNX Runtime")][1]
    assert fps[("Pi 5", "NCNN")][1] > fps[("Pi 5", "ONNX Runtime")][1]
    # With nothing outside the networks both bounds are the networks' time at the published rate.
    alone = pi_speed.estimate(macs_per_frame=pi_speed.YOLOV8N_MACS, ms_rest_host=0.0, host_macs_per_s=1e9)
    worst, best = alone[("Pi 5", "ONNX Runtime")]
    assert worst == pytest.approx(best) == pytest.approx(1000 / pi_speed.PUBLISHED_MS[("Pi 5", "ONNX Runtime")])


@pytest.mark.train
def test_a_tiny_graph_counts_exactly(tmp_path: Path) -> None:
    onnx = pytest.importorskip("onnx")
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    weight = numpy_helper.from_array(np.zeros((8, 3, 3, 3), np.float32), "w")
    dense = numpy_helper.from_array(np.zeros((800, 4), np.float32), "d")
    graph = helper.make_graph(
        [
            helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1]),
            helper.make_node("Flatten", ["y"], ["f"]),
            helper.make_node("MatMul", ["f", "d"], ["z"]),
        ],
        "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3, 10, 10])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, ["batch", 4])],
        [weight, dense],
    )
    path = tmp_path / "tiny.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    total, per_op = pi_speed.count_macs(path, batch=2)
    conv = 2 * 8 * 10 * 10 * 3 * 3 * 3
    assert per_op == {"Conv": conv, "MatMul": 2 * 4 * 800}
    assert total == conv + 2 * 4 * 800


@pytest.mark.train
def test_the_shipped_classifier_costs_what_the_model_card_says() -> None:
    pytest.importorskip("onnx")
    per_crop, _ = pi_speed.count_macs(ROOT / "models" / "corner-cls.onnx", batch=1)
    assert 20e6 < per_crop < 30e6  # "~25 M multiply-adds per crop"
    finder, per_op = pi_speed.count_macs(ROOT / "models" / "card-obb.onnx", batch=1)
    assert 0.2e9 < finder < 1e9 and "Conv" in per_op


def test_the_frame_profile_counts_every_network_the_reader_runs() -> None:
    """On the demo's first frames (cards land from the 20th or so): the finder at least once a frame, face
    crops (the face reader is shipped beside the classifier), each card's four corners read for every one
    of them, and the networks' time within the frame's."""
    prof = pi_speed.profile_frames(30)
    assert prof.frames == 30 and prof.finder_runs >= 30
    assert prof.faces > 0 and prof.crops >= 4 * prof.faces
    assert 0 < prof.ms_in_networks < prof.ms_per_frame
