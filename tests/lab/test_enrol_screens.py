"""The README's enrolment screens come from a real simulated enrolment: a question asked, then the contact sheet."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from lab.enrol_screens import SCREEN, EnrolScreens, enrol_screens, main  # noqa: E402


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> EnrolScreens:
    out = tmp_path_factory.mktemp("screens")
    return enrol_screens(out, "procedural", "north_american", 0, out / "no-art", question_after=0)


def test_both_screens_are_saved_at_the_screens_size(shots: EnrolScreens) -> None:
    assert shots.question is not None and shots.question.name == "enrol-question.png"
    assert shots.contact_sheet.name == "enrol-contact-sheet.png"
    for path in (shots.question, shots.contact_sheet):
        assert pygame.image.load(str(path)).get_size() == SCREEN


def test_the_deck_is_enrolled_whole(shots: EnrolScreens) -> None:
    assert shots.deck == 24 and shots.enrolled == 24
    assert 0 < shots.seconds < 180


def test_the_question_screen_is_not_the_contact_sheet(shots: EnrolScreens) -> None:
    a = pygame.surfarray.array3d(pygame.image.load(str(shots.question)))
    b = pygame.surfarray.array3d(pygame.image.load(str(shots.contact_sheet)))
    assert (abs(a.astype(int) - b.astype(int)).max(axis=2) > 40).mean() > 0.2


def test_no_question_after_the_whole_deck_is_said_and_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("lab.enrol_screens.QUESTION_AFTER", 99)
    assert main(["--deck", "procedural", "--rules", "north_american", "--out", str(tmp_path)]) == 1
    assert (tmp_path / "enrol-contact-sheet.png").is_file() and not (tmp_path / "enrol-question.png").exists()


def test_a_deck_without_its_artwork_is_refused_rather_than_drawn_plain(tmp_path: Path) -> None:
    assert main(["--deck", "kennard-2color-bf", "--art", str(tmp_path / "no-art"), "--out", str(tmp_path)]) == 2
    assert not list(tmp_path.glob("*.png"))
