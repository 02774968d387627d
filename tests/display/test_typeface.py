"""The bundled DejaVu Sans has the suit symbols, so cards and trump draw on a machine without system fonts."""

from __future__ import annotations

import pygame.freetype
import pytest

from display import typeface


@pytest.mark.parametrize("bold", [False, True])
def test_bundled_font_has_every_suit_glyph(bold: bool) -> None:
    f = typeface.font(bold)
    for symbol in typeface.SUIT_SYMBOLS:
        assert f.get_metrics(symbol, size=24) != [None], symbol
    assert typeface.missing_glyphs(typeface.SUIT_SYMBOLS + "\u2605\u25b6\u26a0\u2013", bold) == []


def test_missing_glyphs_detects_a_character_the_font_lacks() -> None:
    assert typeface.missing_glyphs("A\u6f22") == ["\u6f22"]  # a CJK ideograph DejaVu Sans does not cover


def test_fonts_and_licence_ship_inside_the_package() -> None:
    for path in (typeface.REGULAR_PATH, typeface.BOLD_PATH):
        assert path.parent == typeface.FONT_DIR
        assert path.stat().st_size > 100_000
        assert pygame.freetype.Font(str(path)).name.startswith("DejaVu Sans")
    licence = (typeface.FONT_DIR / "LICENSE-DejaVu.txt").read_text()
    assert "Bitstream Vera" in licence and "Arev" in licence
