"""The panel guide: one picture per phase, made by ``python -m display.panel_guide``, checked like the screenshots;
the committed pictures and page in docs/ are the ones the command makes."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from test_screens import ROOT, UPDATE, check_screenshot, difference, pixels

from display import panel_guide
from display.buttons import BUTTON_NAMES, DEFAULT_PINS

DOCS = ROOT / "docs" / "panel-guide"
PAGE = ROOT / "docs" / "panel-guide.md"


@pytest.mark.parametrize("phase", panel_guide.PHASES, ids=lambda p: p.name)
def test_each_phase_picture_matches_its_reference_and_the_docs_copy(phase: panel_guide.Phase) -> None:
    picture = panel_guide.draw(phase)
    assert picture.get_size() == panel_guide.SIZE
    check_screenshot(picture, f"panel-guide-{phase.name}")
    docs = DOCS / f"{phase.name}.png"
    if UPDATE:
        DOCS.mkdir(parents=True, exist_ok=True)
        pygame.image.save(picture, docs)
        return
    assert docs.exists(), f"{docs}: run python -m display.panel_guide --out docs/panel-guide"
    assert difference(pixels(picture), pixels(pygame.image.load(docs))).passes, f"{docs} is out of date"


def test_the_page_in_docs_is_the_one_the_command_writes() -> None:
    if UPDATE:
        PAGE.write_text(panel_guide.page() + "\n", encoding="utf-8")
    assert PAGE.read_text(encoding="utf-8") == panel_guide.page() + "\n"
    for phase in panel_guide.PHASES:
        assert f"(panel-guide/{phase.name}.png)" in PAGE.read_text(encoding="utf-8")


def test_the_command_writes_every_picture_and_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert panel_guide.main(["--out", str(tmp_path / "guide")]) == 0
    assert sorted(p.stem for p in (tmp_path / "guide").glob("*.png")) == sorted(p.name for p in panel_guide.PHASES)
    page = (tmp_path / "guide.md").read_text(encoding="utf-8")
    assert "![Bidding, round 1](guide/bidding-round-1.png)" in page
    assert capsys.readouterr().out.strip().endswith(f"page={tmp_path / 'guide.md'}")


def test_the_guide_labels_only_the_standard_panels_buttons() -> None:
    panel = {name for row in panel_guide.ROWS for name, _ in row}
    assert panel == set(DEFAULT_PINS) and panel <= set(BUTTON_NAMES)
    for phase in panel_guide.PHASES:
        assert set(phase.buttons) <= panel, phase.name
        assert phase.does("new_game") and phase.does("undo"), phase.name


def test_a_phase_picture_changes_with_what_a_button_does() -> None:
    phase = panel_guide.PHASES[1]
    other = panel_guide.Phase(phase.name, phase.title, phase.screen, {**phase.buttons, "pass": "something else"})
    assert not difference(pixels(panel_guide.draw(phase)), pixels(panel_guide.draw(other))).passes
