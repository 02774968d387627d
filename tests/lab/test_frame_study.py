"""``lab.frame_study``: several readers scored on the same rendered frames."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from lab import frame_study
from lab.synth.scenes import reprint_faces
from table.cards import Card
from vision.models import default_model_path


@pytest.mark.slow
def test_readers_are_scored_on_the_same_frames(tmp_path: Path) -> None:
    """The shipped reader and a copy of it, read in turn: the same pixels give the same tallies."""
    model = default_model_path()
    for f in model.parent.iterdir():
        if f.suffix in (".onnx", ".json"):
            shutil.copy(f, tmp_path / f.name)
    copy = tmp_path / model.name
    tallies = frame_study.study("procedural", [model, copy], [0], hands=1, every=60, art=None)
    a, b = tallies[model], tallies[copy]
    assert a.found > 0 and a.right > 0  # the shipped reader names cards on the rendered table
    assert len(a.seconds) == len(b.seconds) > 1  # one time per frame read, for each reader
    assert (a.right, a.wrong, a.found, a.to_find) == (b.right, b.wrong, b.found, b.to_find)


def test_a_missing_model_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no such file"):
        frame_study.main(["--deck", "procedural", "--models", str(tmp_path / "nope.onnx")])


def _faces() -> dict[Card, npt.NDArray[np.uint8]]:
    from lab.synth.faces import procedural_face

    return {Card.parse(c): procedural_face(c, 2) for c in ("As", "9h", "Jd")}


def _paper(face: npt.NDArray[np.uint8]) -> float:
    """The median brightness of the face's opaque pixels near its middle edge (paper, not print)."""
    h, w = face.shape[:2]
    strip = face[h // 2 - 3 : h // 2 + 3, 2:8, :3]
    return float(np.median(strip))


def test_a_deck_reprinted_dark_has_dark_paper_and_keeps_its_shape() -> None:
    faces = _faces()
    dark = reprint_faces(faces, "dark", seed=3)
    assert dark.keys() == faces.keys()
    for card, face in faces.items():
        assert _paper(face) > 180  # the drawn deck is printed on white
        assert _paper(dark[card]) < 110  # the reprinted one on dark paper
        assert dark[card].shape == face.shape
        assert np.array_equal(dark[card][:, :, 3], face[:, :, 3])  # the card's outline is kept


def test_a_reprint_is_drawn_from_the_games_seed() -> None:
    faces = _faces()
    a = reprint_faces(faces, "tinted", seed=1)
    b = reprint_faces(faces, "tinted", seed=1)
    c = reprint_faces(faces, "tinted", seed=2)
    card = Card.parse("As")
    assert np.array_equal(a[card], b[card])
    assert not np.array_equal(a[card], c[card])  # another game, another paper


def test_an_unknown_style_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        frame_study.main(["--deck", "procedural", "--models", "x.onnx", "--restyle", "gold"])
    assert e.value.code == 2
    assert "--restyle" in capsys.readouterr().err


def test_each_game_is_read_as_the_live_table_reads_it_its_deck_judged_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    from lab import simtable

    events: list[str] = []

    class Judgement:
        def reset(self) -> None:
            events.append("reset")

    class Reader:
        def __init__(self, model: Path, threads: int, table_deck_look: bool = False) -> None:
            assert table_deck_look  # the table's reader: its deck judged over the frames
            self.deck_judgement = Judgement()
            self.looks: dict[str, int] = {}

        def detect(self, image: npt.NDArray[np.uint8], frame: int) -> list[object]:
            events.append("read")
            return []

    class Script:
        frames = 2

    class Renderer:
        def __init__(self, *args: object, **kwargs: object) -> None:
            pass

        def render(self, n: int) -> npt.NDArray[np.uint8]:
            return np.zeros((4, 4, 3), np.uint8)

        def visible(self, n: int) -> list[object]:
            return []

    monkeypatch.setattr("vision.onnx_detector.OnnxDetector", Reader)
    monkeypatch.setattr(simtable, "load_deck", lambda *args: ({}, None, "procedural"))
    monkeypatch.setattr(simtable, "build_script", lambda *args, **kwargs: Script())
    monkeypatch.setattr(simtable, "TableRenderer", Renderer)
    frame_study.study("procedural", [Path("m.onnx")], [0, 1, 2], hands=1, every=1, art=None)
    assert events == ["reset", "read", "read"] * 3
