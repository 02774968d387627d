"""``simulate --detections``: a run's readings recorded once replay exactly, and a wrong file is one clear error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from lab import simtable as st
from lab.sim_detections import READER_SOURCES, DetectionRecorder, RecordedFrames, run_identity, sources_sha256
from table.cards import Card
from vision.detection import CardDetection
from vision.detector import detect_frame
from vision.errors import UserError

SEED = 4  # the seed of the ``script`` and ``renderer`` fixtures (tests/lab/conftest.py)
IDENTITY = {"seed": SEED, "hands": 2, "deck": "procedural-2"}


def _record(script: st.TableScript, renderer: st.TableRenderer, path: Path, close: bool = True) -> st.SimRun:
    recorders: list[DetectionRecorder] = []

    def record(pipeline: Any) -> None:
        recorder = DetectionRecorder(path, IDENTITY, pipeline.detector, pipeline.refresher)
        pipeline.detector = pipeline.refresher = recorder
        recorders.append(recorder)

    # The noisy oracle misses, misreads and jitters cards, so the tracker and engine have work to do.
    run = st.run_simulation(script, renderer, st.NoisyOracle(renderer, seed=SEED), "procedural-2", render=False,
                            prepare=record)  # fmt: skip
    if close:
        recorders[0].close()
    return run


def _replay(script: st.TableScript, renderer: st.TableRenderer, path: Path) -> st.SimRun:
    frames = RecordedFrames(path, IDENTITY, script.frames)

    def replay(pipeline: Any) -> None:
        pipeline.refresher = frames

    return st.run_simulation(script, renderer, frames, "procedural-2", render=False, prepare=replay)


def test_a_replay_gives_the_recorded_runs_landings_announcements_and_score(
    script: st.TableScript, renderer: st.TableRenderer, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    first = _record(script, renderer, path)
    again = _replay(script, renderer, path)
    assert first.pipeline.landings and first.score.cards_missed < len(script.rests)
    assert again.pipeline.landings == first.pipeline.landings
    assert again.pipeline.announcements == first.pipeline.announcements
    assert again.score == first.score
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["run"] == IDENTITY and len(lines) == 1 + script.frames


def test_a_run_stopped_half_way_leaves_no_recording(
    script: st.TableScript, renderer: st.TableRenderer, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    _record(script, renderer, path, close=False)
    assert not path.exists() and (tmp_path / "run.jsonl.part").exists()


def test_a_recording_of_another_run_or_a_damaged_one_is_refused(
    script: st.TableScript, renderer: st.TableRenderer, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    _record(script, renderer, path)
    with pytest.raises(UserError, match=r"recorded for another run \(it differs in seed\)"):
        RecordedFrames(path, {**IDENTITY, "seed": 5}, script.frames)
    lines = path.read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:100]) + "\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"cut\.jsonl: \d+ of \d+ frames missing \(from frame 99\)"):
        RecordedFrames(cut, IDENTITY, script.frames)
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text("\n".join([*lines[:5], '{"f": 4, "cal": [1, 2], "src": "x", "d": []}', *lines[6:]]) + "\n")
    with pytest.raises(UserError, match=r"damaged\.jsonl, line 6: a damaged frame"):
        RecordedFrames(damaged, IDENTITY, script.frames)
    other = tmp_path / "other.jsonl"
    other.write_text('{"format": "something else"}\n', encoding="utf-8")
    with pytest.raises(UserError, match="not a recording of simulated detections"):
        RecordedFrames(other, IDENTITY, script.frames)
    with pytest.raises(UserError, match="cannot read it"):
        RecordedFrames(tmp_path / "none.jsonl", IDENTITY, script.frames)


def test_the_identity_names_the_models_by_checksum(tmp_path: Path) -> None:
    model = tmp_path / "card-obb.onnx"
    model.write_bytes(b"one")
    first = run_identity({"seed": 1}, [model, tmp_path / "absent.onnx"])
    model.write_bytes(b"two")
    assert first["seed"] == 1 and set(first["models"]) == {"card-obb.onnx"}
    assert run_identity({"seed": 1}, [model]) != first


def test_the_identity_names_the_readers_code_and_not_the_trackers(tmp_path: Path) -> None:
    # a recording made by another reader is refused: the header holds a checksum of the reader's code
    sources = ("vision/onnx_detector.py", "vision/absent.py")
    (tmp_path / "vision").mkdir()
    reader = tmp_path / "vision" / "onnx_detector.py"
    reader.write_text("CUT_CARD_MIN_CONFIDENCE = 0.8\n")
    first = sources_sha256(sources, tmp_path)
    reader.write_text("CUT_CARD_MIN_CONFIDENCE = 0.6\n")
    assert sources_sha256(sources, tmp_path) != first
    assert run_identity({"seed": 1}, [], reader="a") != run_identity({"seed": 1}, [], reader="b")
    assert run_identity({"seed": 1}, [])["reader"] == sources_sha256()
    # the replay runs the tracker and the engine of the code at hand: they are not in the checksum
    assert "vision/cardcrop.py" in READER_SOURCES and "vision/tracker.py" not in READER_SOURCES
    assert "vision/face_reader.py" in READER_SOURCES  # the face reader decides readings too
    assert not any(name.startswith("table/") for name in READER_SOURCES)
    assert all((Path(__file__).resolve().parents[2] / name).is_file() for name in READER_SOURCES)


@pytest.mark.parametrize("extra", [["--detector", "oracle"], ["--record", "out"], ["--clip", "companion/data/demo"]])
def test_the_command_takes_detections_only_for_a_rendered_run_read_by_the_model(
    extra: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main

    status = main(["simulate", "--hands", "1", "--detections", str(tmp_path / "d.jsonl"), *extra])
    assert status == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--detections records or replays a rendered run read by the model detector" in err[0]
    assert not (tmp_path / "d.jsonl").exists()


class _Detailed:
    """A detector that reads a detail picture, noting each one it gets."""

    reads_detail = True

    def __init__(self) -> None:
        self.details: list[tuple[int, ...] | None] = []

    def detect(
        self, frame_bgr: npt.NDArray[np.uint8], frame: int = 0, detail_bgr: npt.NDArray[np.uint8] | None = None
    ) -> list[CardDetection]:
        self.details.append(None if detail_bgr is None else detail_bgr.shape)
        return [CardDetection(Card.parse("Qh"), 0.9, (1.0, 2.0, 3.0, 4.0), frame)]


def test_a_recorder_hands_the_detail_picture_on_and_records_what_came_back(tmp_path: Path) -> None:
    inner = _Detailed()
    recorder = DetectionRecorder(tmp_path / "det.jsonl", IDENTITY, inner, None)
    assert recorder.reads_detail
    small, big = np.zeros((48, 64, 3), np.uint8), np.zeros((96, 128, 3), np.uint8)
    found = detect_frame(recorder, small, 0, big)
    recorder.close()
    assert inner.details == [(96, 128, 3)] and [str(d.card) for d in found] == ["Qh"]
    lines = (tmp_path / "det.jsonl").read_text().splitlines()
    assert len(lines) == 2 and '"Qh"' in lines[1]


def test_a_recording_names_every_file_the_reader_reads(tmp_path: Path) -> None:
    from lab.commands.simulate import reader_files

    model = tmp_path / "card-obb.onnx"
    names = [p.name for p in reader_files(model)]
    assert names == [
        "card-obb.onnx", "corner-cls.onnx", "corner-cls-unenrolled.onnx", "corner-cls-dark.onnx",
        "card-obb-dark.onnx", "card-obb-near.onnx", "face-cls.onnx", "classes.json",
    ]
    assert all(p.parent == tmp_path for p in reader_files(model))
