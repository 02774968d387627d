"""Drawing primitives for the scoreboard in layout units: one layout, scaled to any screen size.

Layouts are written for a screen 480 units tall (the Pi's 7" touchscreen is
800x480). A `Canvas` scales them to the real surface by its height, or its
width where the screen is narrower than 5:3, and widens the layout on wider
screens (1920x1080 is 853x480 units), so nothing is cropped or stretched.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame
import pygame.freetype

from display import typeface
from table.cards import Card

BASE_W = 800.0
BASE_H = 480.0
MIN_TEXT = 12.0  # layout units: no text is drawn smaller (12 px on the 800x480 screen)
ELLIPSIS = "\u2026"

Color = tuple[int, int, int]
Box = tuple[float, float, float, float]  # x, y, w, h in layout units

WHITE: Color = (255, 255, 255)
INK: Color = (22, 22, 26)
CARD_RED: Color = (200, 16, 32)
CARD_RED_TINT: Color = (255, 214, 218)
GOLD: Color = (255, 204, 0)


@dataclass(frozen=True)
class DrawnText:
    """One piece of text as drawn: what it says, its size in pixels and where it went (x, y, w, h pixels)."""

    text: str
    px: int
    rect: tuple[int, int, int, int]


class Canvas:
    """A surface plus the scale from layout units to pixels; it keeps a record of the text it drew."""

    def __init__(self, surface: pygame.Surface) -> None:
        self.surface = surface
        w, h = surface.get_size()
        self.scale = min(w / BASE_W, h / BASE_H)
        self.width = w / self.scale  # layout units
        self.height = h / self.scale
        self.texts: list[DrawnText] = []

    def px(self, v: float) -> int:
        return round(v * self.scale)

    def rect(self, box: Box) -> pygame.Rect:
        x, y, w, h = box
        left, top = self.px(x), self.px(y)
        return pygame.Rect(left, top, self.px(x + w) - left, self.px(y + h) - top)

    def fill(self, box: Box, color: Color, radius: float = 0, width: float = 0) -> None:
        pygame.draw.rect(
            self.surface, color, self.rect(box), width=self.px(width) if width else 0, border_radius=self.px(radius)
        )

    def circle(self, center: tuple[float, float], radius: float, color: Color, width: float = 0) -> None:
        c = (self.px(center[0]), self.px(center[1]))
        pygame.draw.circle(self.surface, color, c, self.px(radius), width=max(1, self.px(width)) if width else 0)

    def line(self, a: tuple[float, float], b: tuple[float, float], color: Color, width: float = 1) -> None:
        pygame.draw.line(
            self.surface, color, (self.px(a[0]), self.px(a[1])), (self.px(b[0]), self.px(b[1])), max(1, self.px(width))
        )

    def text_size(self, text: str, size: float, bold: bool = False) -> tuple[float, float]:
        r = typeface.font(bold).get_rect(text, size=max(1, self.px(size)))
        return r.width / self.scale, r.height / self.scale

    def fit_size(
        self, text: str, size: float, max_width: float, bold: bool = False, smallest: float = MIN_TEXT
    ) -> float:
        """The largest size up to ``size`` at which ``text`` fits in ``max_width`` (never below ``smallest``)."""
        smallest = min(size, smallest)
        while size > smallest and self.text_size(text, size, bold)[0] > max_width:
            size = max(smallest, size * 0.92)
        return size

    def ellipsize(self, text: str, size: float, max_width: float, bold: bool = False) -> str:
        """``text``, cut short with "…" where it is wider than ``max_width`` at ``size``."""
        if self.text_size(text, size, bold)[0] <= max_width:
            return text
        for n in range(len(text) - 1, 0, -1):
            short = text[:n].rstrip() + ELLIPSIS
            if self.text_size(short, size, bold)[0] <= max_width:
                return short
        return ELLIPSIS

    def fit(
        self, text: str, size: float, max_width: float, bold: bool = False, min_size: float = MIN_TEXT
    ) -> tuple[str, float]:
        """(text, size) that fit ``max_width``: shrunk down to ``min_size``, then cut short with "…"."""
        size = self.fit_size(text, size, max_width, bold, min_size)
        return self.ellipsize(text, size, max_width, bold), size

    def text(
        self,
        text: str,
        size: float,
        color: Color,
        pos: tuple[float, float],
        anchor: str = "center",
        bold: bool = False,
        max_width: float | None = None,
        min_size: float = MIN_TEXT,
    ) -> pygame.Rect:
        """Draw ``text`` with its ``anchor`` point (a pygame.Rect attribute name) at ``pos``.

        Too wide for ``max_width``, it shrinks, but not below ``min_size``: then it is cut short with "…".
        """
        if not text:
            return pygame.Rect(self.px(pos[0]), self.px(pos[1]), 0, 0)
        if max_width is not None:
            text, size = self.fit(text, size, max_width, bold, min_size)
        f = typeface.font(bold)
        px_size = max(1, self.px(size))
        r = f.get_rect(text, size=px_size)
        setattr(r, anchor, (self.px(pos[0]), self.px(pos[1])))
        f.render_to(self.surface, r, text, fgcolor=color, size=px_size)
        self.texts.append(DrawnText(text, px_size, (r.x, r.y, r.width, r.height)))
        return r

    def wrap(
        self, text: str, size: float, max_width: float, bold: bool = False, max_lines: int | None = None
    ) -> list[str]:
        """Split ``text`` into lines that fit ``max_width`` at ``size`` (a long word gets a line of its own).

        With ``max_lines``, what does not fit in them is dropped and the last line ends with "…".
        """
        lines = self._wrap(text, size, max_width, bold)
        if max_lines is not None and len(lines) > max_lines:
            last = " ".join([lines[max_lines - 1], lines[max_lines]]) + ELLIPSIS
            lines = [*lines[: max_lines - 1], self.ellipsize(last, size, max_width, bold)]
        return lines

    def _wrap(self, text: str, size: float, max_width: float, bold: bool) -> list[str]:
        lines: list[str] = []
        line = ""
        for word in text.split():
            trial = f"{line} {word}" if line else word
            if line and self.text_size(trial, size, bold)[0] > max_width:
                lines.append(line)
                line = word
            else:
                line = trial
        if line:
            lines.append(line)
        return lines


def hatch(canvas: Canvas, box: Box, radius: float, background: Color, stripe: Color, spacing: float = 7) -> None:
    """A rounded box filled with diagonal stripes: the red suits' pattern, seen without colour vision."""
    r = canvas.rect(box)
    tile = pygame.Surface(r.size, pygame.SRCALPHA)
    tile.fill((*background, 255))
    step = max(3, canvas.px(spacing))
    thick = max(1, step // 3)
    for x in range(-r.height, r.width + r.height, step):
        pygame.draw.line(tile, (*stripe, 255), (x, r.height), (x + r.height, 0), thick)
    mask = pygame.Surface(r.size, pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=canvas.px(radius))
    tile.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    canvas.surface.blit(tile, r)


def suit_color(card: Card) -> Color:
    return CARD_RED if card.suit is not None and card.suit.is_red else INK


def rank_text(card: Card) -> str:
    if card.is_benny:
        return "\u2605"  # ★
    return card.label[:-1]


def draw_card(
    canvas: Canvas,
    card: Card,
    center: tuple[float, float],
    width: float,
    highlight: Color | None = None,
    turned_down: bool = False,
) -> None:
    """A playing card: white rounded face, big rank over big suit; red suits also get a striped frame."""
    height = width * 1.4
    x, y = center[0] - width / 2, center[1] - height / 2
    radius = width * 0.12
    if highlight is not None:
        pad = width * 0.07
        canvas.fill((x - pad, y - pad, width + 2 * pad, height + 2 * pad), highlight, radius=radius + pad)
    red = card.suit is not None and card.suit.is_red
    if red:
        hatch(canvas, (x, y, width, height), radius, WHITE, CARD_RED, spacing=width * 0.11)
        band = width * 0.09
        canvas.fill((x + band, y + band, width - 2 * band, height - 2 * band), WHITE, radius=radius * 0.6)
    else:
        canvas.fill((x, y, width, height), WHITE, radius=radius)
    canvas.fill((x, y, width, height), (90, 90, 96), radius=radius, width=max(1.0, width * 0.02))
    color = suit_color(card)
    if card.is_benny:
        canvas.text("\u2605", height * 0.42, INK, (center[0], center[1] - height * 0.08), bold=True)
        canvas.text("BENNY", height * 0.14, INK, (center[0], center[1] + height * 0.28), bold=True)
    else:
        assert card.suit is not None
        canvas.text(rank_text(card), height * 0.36, color, (center[0], y + height * 0.3), bold=True)
        canvas.text(card.suit.symbol, height * 0.4, color, (center[0], y + height * 0.7))
    if turned_down:
        veil = pygame.Surface(canvas.rect((x, y, width, height)).size, pygame.SRCALPHA)
        veil.fill((30, 30, 34, 150))
        canvas.surface.blit(veil, canvas.rect((x, y, width, height)))
        canvas.line((x + width * 0.1, y + height * 0.9), (x + width * 0.9, y + height * 0.1), (235, 235, 235), 4)


def draw_card_slot(canvas: Canvas, center: tuple[float, float], width: float, color: Color) -> None:
    """Where a seat's card will land: a faint outline."""
    height = width * 1.4
    canvas.fill((center[0] - width / 2, center[1] - height / 2, width, height), color, radius=width * 0.12, width=2)


def pill(
    canvas: Canvas,
    text: str,
    center: tuple[float, float],
    size: float,
    fg: Color,
    bg: Color,
    bold: bool = True,
    max_width: float | None = None,
    min_size: float = MIN_TEXT,
) -> Box:
    """Text on a rounded lozenge (no wider than ``max_width``: see `Canvas.text`); returns its box in layout units."""
    if max_width is not None:
        text, size = canvas.fit(text, size, max_width - size, bold, min_size)
    tw, th = canvas.text_size(text, size, bold)
    w, h = tw + size * 1.0, size * 1.5
    box = (center[0] - w / 2, center[1] - h / 2, w, h)
    canvas.fill(box, bg, radius=h / 2)
    canvas.text(text, size, fg, center, bold=bold)
    return box
