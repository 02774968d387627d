"""A classifier's crops go through ONNX Runtime ``CLASSIFIER_CHUNK`` at a time (``onnx_detector.run_in_chunks``),
so the memory for its activations stays bounded however many crops a frame makes."""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.models import REPO_MODELS_DIR
from vision.onnx_detector import CLASSIFIER_CHUNK, ort_session, run_in_chunks


class Counting:
    """Stands in for a session: two outputs per crop (its sum and its first pixel), and the batch sizes asked."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    def run(self, outputs: list[str], feeds: dict[str, np.ndarray]) -> list[Any]:
        (x,) = feeds.values()
        self.batches.append(len(x))
        return [x.reshape(len(x), -1).sum(axis=1, keepdims=True), x.reshape(len(x), -1)[:, :1]][: len(outputs)]


def test_crops_are_run_a_chunk_at_a_time_and_joined_in_order() -> None:
    crops = np.random.default_rng(0).random((150, 3, 4, 4)).astype(np.float32)
    session = Counting()
    sums, firsts = run_in_chunks(session, ["s", "f"], "crops", crops, chunk=64)
    assert session.batches == [64, 64, 22]
    assert np.allclose(sums[:, 0], crops.reshape(150, -1).sum(axis=1))
    assert np.array_equal(firsts[:, 0], crops.reshape(150, -1)[:, 0])
    few = Counting()
    run_in_chunks(few, ["s"], "crops", crops[:10], chunk=64)
    assert few.batches == [10]


def test_the_shipped_classifier_reads_the_same_in_chunks_as_in_one_batch() -> None:
    session = ort_session(REPO_MODELS_DIR / "corner-cls.onnx", 1, "corner-index classifier")
    name, out = session.get_inputs()[0].name, session.get_outputs()[0].name
    crops = np.random.default_rng(1).random((CLASSIFIER_CHUNK * 2 + 5, 3, 64, 48)).astype(np.float32)
    whole = session.run([out], {name: crops})[0]
    (chunked,) = run_in_chunks(session, [out], name, crops)
    assert chunked.shape == whole.shape
    assert np.allclose(chunked, whole, atol=1e-4)
    assert np.array_equal(chunked.argmax(axis=1), whole.argmax(axis=1))
