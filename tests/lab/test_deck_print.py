"""``simulate --deck-print STYLE``: the table's deck printed another way (dark paper, one ink...), its faces
reprinted as ``lab.frame_study --restyle`` reprints them, so whole games can be played with such a deck."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.cli import main
from lab import simtable as st
from lab.synth.scenes import ALL_STYLES


def _run(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """simulate with the oracle on one hand (no drawing); the faces the table renderer was given."""
    seen: dict[str, Any] = {}
    real = st.TableRenderer

    def renderer(script: Any, faces: Any, back: Any, **kw: Any) -> Any:
        seen["faces"] = faces
        return real(script, faces, back, **kw)

    monkeypatch.setattr(st, "TableRenderer", renderer)
    monkeypatch.setattr(st, "run_simulation", functools.partial(st.run_simulation, render=False))
    base = ["simulate", "--hands", "1", "--seed", "3", "--detector", "oracle", "--deck-style", "procedural"]
    assert main([*base, *argv]) == 0
    return seen


def _paper(face: np.ndarray) -> float:
    h = face.shape[0]
    return float(np.median(face[h // 2 - 3 : h // 2 + 3, 2:8, :3]))


def test_the_deck_is_reprinted_dark(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    plain = _run([], monkeypatch)["faces"]
    dark = _run(["--deck-print", "dark"], monkeypatch)["faces"]
    assert "the deck printed dark" in capsys.readouterr().err
    assert plain.keys() == dark.keys()
    assert all(_paper(f) > 180 for f in plain.values())
    assert all(_paper(f) < 110 for f in dark.values())


def test_every_style_and_only_those_is_offered(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--hands", "1", "--detector", "oracle", "--deck-print", "gold"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    offered = err[err.index("choose from") :]
    assert all(f"'{s}'" in offered for s in ALL_STYLES)
    assert offered.count("'") == 2 * len(ALL_STYLES)


@pytest.mark.slow
def test_a_recording_of_the_deck_as_drawn_is_refused_for_the_deck_reprinted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recording = tmp_path / "run.jsonl"
    base = ["simulate", "--hands", "1", "--seed", "3", "--deck-style", "procedural", "--size", "320x240",
            "--threads", "1", "--detections", str(recording)]  # fmt: skip
    assert main(base) == 0 and recording.exists()
    capsys.readouterr()
    assert main([*base, "--deck-print", "dark"]) == 2
    assert "recorded for another run (it differs in deck_print)" in capsys.readouterr().err
