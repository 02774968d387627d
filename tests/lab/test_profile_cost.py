"""``python -m lab.profile_cost``: the two readers' CPU time on the same frames, and the difference."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.profile_cost import main


def test_face_reader_cost_without_a_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for k in range(2):
        cv2.imwrite(str(tmp_path / f"f{k}.png"), np.full((240, 320, 3), 60 + 40 * k, np.uint8))
    assert main([str(tmp_path), "none", "--face-reader", "--frames", "2", "--runs", "1"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert re.fullmatch(r"frames=2 cpu_ms_median_without=\S+ cpu_ms_median_with=\S+ cpu_ms_total_without=\d+ "
                        r"cpu_ms_total_with=\d+ extra=[+-]\d+\.\d%", line), line


def test_neither_photos_nor_a_table_is_one_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--frames", "2"])
    assert exc.value.code == 2 and "give IMAGES and PROFILE, or --table DECK" in capsys.readouterr().err


def test_a_dark_deck_at_the_table_is_enrolled_as_one(tmp_path: Path) -> None:
    """``--table``: the frames of a drawn deck printed light on dark paper, and its profile enrolled at the
    rendered mat, through enrolment's own code: every card of it, kept as a dark deck's."""
    from lab.profile_cost import table_frames

    frames, profile = table_frames("procedural", "dark", 0, tmp_path, 2)
    assert len(frames) == 2 and frames[0].shape == (480, 640, 3)
    assert len(profile) == 24 and profile.dark_paper
