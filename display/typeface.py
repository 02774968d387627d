"""The scoreboard's typeface: DejaVu Sans (regular and bold), bundled so suit symbols draw on any machine.

pygame's default font has no suit symbols (it draws boxes), and a system font
may be missing on a fresh Pi or in CI, so the TTF files ship inside this
package with their licence (display/fonts/LICENSE-DejaVu.txt).
"""

from __future__ import annotations

from pathlib import Path

import pygame.freetype

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR_PATH = FONT_DIR / "DejaVuSans.ttf"
BOLD_PATH = FONT_DIR / "DejaVuSans-Bold.ttf"
SUIT_SYMBOLS = "\u2660\u2665\u2666\u2663"  # ♠ ♥ ♦ ♣

_fonts: dict[bool, pygame.freetype.Font] = {}


def font(bold: bool = False) -> pygame.freetype.Font:
    """The shared DejaVu Sans font object; sizes are given per call (``size=``)."""
    if not pygame.freetype.get_init():  # first use, or after pygame.quit(): old font objects are dead
        pygame.freetype.init()
        _fonts.clear()
    if bold not in _fonts:
        f = pygame.freetype.Font(str(BOLD_PATH if bold else REGULAR_PATH), 16)
        f.origin = False
        f.pad = False
        _fonts[bold] = f
    return _fonts[bold]


def missing_glyphs(text: str, bold: bool = False) -> list[str]:
    """The characters of ``text`` the bundled font cannot draw (get_metrics gives None for them)."""
    metrics = font(bold).get_metrics(text, size=16)
    return [ch for ch, m in zip(text, metrics, strict=True) if m is None]
