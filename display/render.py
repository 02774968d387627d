"""Draws the scoreboard: ``render(surface, view, t)`` is a pure function of the view model and the time.

Nothing here reads a clock, a file or the engine; ``t`` (seconds) only drives
the renege alert's flashing, so a test renders any moment to PNG. The screen:
scores left, trump and hand history right, the table with each seat's card in
the middle, the last announcement and the prompt along the bottom, in the
largest type the strips hold (the prompt is read from across the table).

``render`` returns what the caller needs of the picture: the on-screen
buttons (the renege alert's accept and dismiss) with the action a tap on
each gives, and the text it drew, for the touchscreen and for tests.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pygame

from display.actions import Action, ButtonAction
from display.canvas import (
    CARD_RED,
    ELLIPSIS,
    GOLD,
    INK,
    WHITE,
    Box,
    Canvas,
    Color,
    DrawnText,
    draw_card,
    draw_card_slot,
    hatch,
    pill,
)
from display.i18n import _, ngettext, pgettext
from display.phrases import accept_hint, dismiss_hint, history_note, number, trick_label
from display.view import (
    BannerKind,
    Choice,
    HistoryRow,
    Offer,
    RenegeAlert,
    ScoreboardView,
    ScoreStyle,
    Snapshot,
    Stage,
)
from table.cards import Suit

BG: Color = (9, 38, 29)  # dark felt green: bright text and white cards stand out
PANEL: Color = (19, 64, 49)
PANEL_EDGE: Color = (44, 102, 80)
DIM: Color = (150, 190, 175)
SEAT_BG: Color = (33, 86, 67)
TEAM_COLORS: tuple[Color, Color] = ((86, 190, 255), (255, 164, 56))  # blue / orange: safe for colour-blind eyes
STRIP_BG: Color = (16, 24, 30)
PROMPT_BG: Color = (0, 0, 0)
ALERT_RED: Color = (196, 0, 0)
ALERT_DARK: Color = (70, 0, 0)
BANNER_COLORS: dict[BannerKind, tuple[Color, Color]] = {
    BannerKind.IRREGULARITY: ((255, 170, 0), INK),
    BannerKind.CHECK_CARD: ((255, 236, 120), INK),
    BannerKind.INFO: ((70, 140, 230), WHITE),
    BannerKind.ALARM: (ALERT_RED, WHITE),
}

SIDE = 216.0  # width of the score column and of the trump/history column
MAIN_H = 384.0  # the strips below start here
ANN_H = 44.0  # the announcement strip; the prompt strip takes the rest (52)
FLASH_HZ = 2.0  # renege alert: two flashes a second

# Type sizes in layout units (pixels on the 800x480 screen): the size wanted, and the least a long text
# may shrink to before it is cut short with "…".
PROMPT_SIZE, PROMPT_MIN = 36.0, 26.0
ANNOUNCE_SIZE, ANNOUNCE_MIN = 28.0, 20.0
ANNOUNCE_TWO_LINES = 19.0  # a long announcement: two lines of this size
NAME_MIN = 16.0  # seat and team names


def rect_contains(rect: tuple[int, int, int, int], pos: tuple[float, float]) -> bool:
    """Whether ``pos`` (pixels) lies in ``rect`` (x, y, w, h): where a touch lands on a drawn button."""
    x, y, w, h = rect
    return x <= pos[0] < x + w and y <= pos[1] < y + h


@dataclass(frozen=True)
class TouchButton:
    """A drawn button a finger or the mouse can press: the action it gives, and where it is (x, y, w, h pixels)."""

    action: Action
    rect: tuple[int, int, int, int]

    def contains(self, pos: tuple[float, float]) -> bool:
        return rect_contains(self.rect, pos)


@dataclass(frozen=True)
class Drawn:
    """What a `render` put on the screen that others need: its buttons and its text."""

    buttons: tuple[TouchButton, ...] = ()
    texts: tuple[DrawnText, ...] = ()

    def action_at(self, pos: tuple[float, float]) -> Action | None:
        """The action of the button at ``pos`` (pixels), or None."""
        return next((b.action for b in self.buttons if b.contains(pos)), None)


def render(surface: pygame.Surface, view: ScoreboardView, t: float = 0.0) -> Drawn:
    """Draw ``view`` onto ``surface`` (any size; 800x480, 1024x600 and 1920x1080 are designed for)."""
    c = Canvas(surface)
    surface.fill(BG)
    _scores(c, view)
    _trump(c, view)
    _history(c, view)
    buttons = _table(c, view)
    _strips(c, view)
    if view.choice is not None and view.renege is None:
        buttons += _choice(c, view.choice)
    if view.renege is not None:
        buttons = _renege(c, view.renege, t)
    return Drawn(buttons, tuple(c.texts))


def render_surface(view: ScoreboardView, size: tuple[int, int] = (800, 480), t: float = 0.0) -> pygame.Surface:
    """A new surface with ``view`` drawn on it: for screenshots and headless runs."""
    surface = pygame.Surface(size)
    render(surface, view, t)
    return surface


# --- left column: scores -------------------------------------------------------------------------------------


def _scores(c: Canvas, view: ScoreboardView) -> None:
    for team in (0, 1):
        _team_panel(c, view, team, (8, 8 + team * 180, SIDE - 14, 172))
    game_to = ngettext("Game to {n}", "Game to {n}", view.target).format(n=number(view.target))
    c.text(game_to, 17, DIM, (8 + (SIDE - 14) / 2, MAIN_H - 11), bold=True, max_width=SIDE - 20)


def _team_panel(c: Canvas, view: ScoreboardView, team: int, box: Box) -> None:
    x, y, w, h = box
    color = TEAM_COLORS[team]
    won = view.winner == team
    c.fill(box, PANEL, radius=12)
    c.fill((x, y, w, 34), color, radius=12)
    c.fill((x, y + 20, w, 14), color)
    header = _team_header(c, view, team, NAME_MIN, w - 16, upper=True)
    c.text(header, 18, INK, (x + w / 2, y + 17), bold=True, max_width=w - 16, min_size=NAME_MIN)
    if won:
        c.fill(box, GOLD, radius=12, width=4)
    score = view.score[team]
    cards = score_cards(view.target) if view.score_style is ScoreStyle.CARDS else None
    if cards is not None:
        _score_cards(c, score, team, (x + 8, y + 44, 132, 100), cards)
    else:
        shows_tricks = view.stage in (Stage.PLAYING, Stage.HAND_OVER)
        center = (x + (72 if shows_tricks else w / 2), y + 94)
        c.text(number(score), 108 if score < 10 else 84, WHITE, center, bold=True)
    if view.stage not in (Stage.PLAYING, Stage.HAND_OVER):
        return
    # tricks this hand: a number to read from afar, pips to count at a glance
    c.text(pgettext("label", "TRICKS"), 12, DIM, (x + w - 37, y + 50), bold=True)
    c.text(number(view.tricks[team]), 42, WHITE, (x + w - 37, y + 84), bold=True)
    for i in range(5):
        center = (x + 22 + i * 24, y + 154)
        if i < view.tricks[team]:
            c.circle(center, 8, color)
        else:
            c.circle(center, 8, PANEL_EDGE, width=2)
    tag = _team_tag(view, team)
    if tag:
        pill(c, tag, (x + w - 37, y + 128), 12, INK, color, max_width=70)


def _team_header(
    c: Canvas, view: ScoreboardView, team: int, min_size: float, max_width: float, upper: bool = False
) -> str:
    """The team's name to fit ``max_width`` in bold at ``min_size`` or larger (in capitals with ``upper``).

    Two long seat names are each cut short, so both partners still show.
    """
    full = view.team_name(team).upper() if upper else view.team_name(team)
    if view.team_names[team] or c.text_size(full, min_size, True)[0] <= max_width:
        return full
    names = [view.seats[team].name, view.seats[team + 2].name]
    if upper:
        names = [n.upper() for n in names]
    cut = [len(n) for n in names]

    def joined() -> str:
        return "\u2013".join(n if k == len(n) else n[:k].rstrip() + ELLIPSIS for n, k in zip(names, cut, strict=True))

    while c.text_size(joined(), min_size, True)[0] > max_width and max(cut) > 1:
        longer = 0 if cut[0] >= cut[1] else 1
        cut[longer] -= 1
    return joined()


def _team_tag(view: ScoreboardView, team: int) -> str:
    if view.maker is None or view.maker % 2 != team:
        return ""
    return pgettext("label", "ALONE") if view.maker in view.alone else pgettext("label", "MAKERS")


def score_cards(target: int) -> tuple[int, int] | None:
    """The two spare cards a table keeps the score with for a game to ``target``, or None for plain numerals.

    A six and a four count to 10 (pagat, Wikipedia), so games to 5, 7 and 10 use them. British pubs play
    to 11 with a six and a five ("two Fives with two Sixes for scorekeeping", The Hangman's Guide's British
    Euchre). For 15, and for a fixed number of deals, the sources name no pair of cards: two spare cards
    would have to be an eight and a seven, which a 32-card game plays with, so the numerals are shown.
    """
    if 0 < target <= 10:
        return (6, 4)
    if target == 11:
        return (6, 5)
    return None


# Where the pips of each score card lie (column, row), in the order they are uncovered.
_PIPS: dict[int, list[tuple[float, float]]] = {
    4: [(0, 0), (1, 0), (0, 2), (1, 2)],
    5: [(0, 0), (1, 0), (0.5, 1), (0, 2), (1, 2)],
    6: [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)],
}


def _score_cards(c: Canvas, score: int, team: int, box: Box, cards: tuple[int, int]) -> None:
    """The traditional score cards (a six and a four, or a six and a five): one pip showing per point (suits
    pick the team)."""
    x, y, w, h = box
    suit = Suit.SPADES if team == 0 else Suit.HEARTS
    pip_color = CARD_RED if suit.is_red else INK
    cw, ch = 56.0, 78.0
    shown = score
    for k, n in enumerate(cards):
        cx = x + k * (cw + 10)
        c.fill((cx, y, cw, ch), WHITE, radius=6)
        for i, (col, row) in enumerate(_PIPS[n]):
            center = (cx + 14 + col * 23, y + 14 + row * 23)
            if i < shown:
                c.text(suit.symbol, 20, pip_color, center)
            else:
                c.circle(center, 5, (200, 200, 205), width=1.5)
        shown -= n
        c.text(str(n), 12, (120, 120, 120), (cx + cw - 7, y + ch - 9))
    c.text(f"= {score}", 20, WHITE, (x + w / 2, y + ch + 13), bold=True)


# --- right column: trump and history ---------------------------------------------------------------------------


def _trump(c: Canvas, view: ScoreboardView) -> None:
    x, y, w, h = c.width - SIDE + 6, 8.0, SIDE - 14, 176.0
    c.fill((x, y, w, h), PANEL, radius=12)
    c.text(pgettext("label", "TRUMP"), 15, DIM, (x + 12, y + 16), anchor="midleft", bold=True)
    tile = (x + 10, y + 32, 112, 132)
    if view.trump is not None:
        if view.trump.is_red:
            hatch(c, tile, 12, WHITE, CARD_RED, spacing=11)
            c.fill((tile[0] + 9, tile[1] + 9, tile[2] - 18, tile[3] - 18), WHITE, radius=8)
        else:
            c.fill(tile, WHITE, radius=12)
        color = CARD_RED if view.trump.is_red else INK
        c.text(view.trump.symbol, 104, color, (tile[0] + tile[2] / 2, tile[1] + tile[3] / 2))
    elif view.no_trump:
        c.fill(tile, WHITE, radius=12)
        c.text(pgettext("no trump tile", "NO"), 34, INK, (tile[0] + tile[2] / 2, tile[1] + 46), bold=True)
        c.text(pgettext("no trump tile", "TRUMP"), 24, INK, (tile[0] + tile[2] / 2, tile[1] + 84), bold=True)
    else:
        c.fill(tile, PANEL_EDGE, radius=12, width=2)
        if view.stage in (Stage.DEALING, Stage.BIDDING):
            c.text("?", 70, PANEL_EDGE, (tile[0] + tile[2] / 2, tile[1] + tile[3] / 2), bold=True)
    info_x, info_w = x + 126, w - 128
    if view.maker is not None and (view.trump is not None or view.no_trump):
        c.text(_("made by"), 13, DIM, (info_x + info_w / 2, y + 56))
        name = view.seats[view.maker].name
        c.text(name, 19, WHITE, (info_x + info_w / 2, y + 80), bold=True, max_width=info_w, min_size=NAME_MIN)
        if view.maker in view.alone:
            pill(c, pgettext("label", "ALONE"), (info_x + info_w / 2, y + 114), 13, WHITE, CARD_RED, max_width=info_w)
    elif view.stage is Stage.BIDDING:
        c.text(pgettext("bidding", "round"), 13, DIM, (info_x + info_w / 2, y + 66))
        c.text(number(view.bid_round), 44, WHITE, (info_x + info_w / 2, y + 102), bold=True)


def _history(c: Canvas, view: ScoreboardView) -> None:
    x, y, w, h = c.width - SIDE + 6, 192.0, SIDE - 14, MAIN_H - 200
    c.fill((x, y, w, h), PANEL, radius=12)
    c.text(pgettext("label", "HANDS"), 15, DIM, (x + 12, y + 16), anchor="midleft", bold=True)
    c.text(_("points · score"), 12, DIM, (x + w - 10, y + 16), anchor="midright")
    rows = view.history[-6:]
    if not rows:
        c.text(_("no hands yet"), 14, PANEL_EDGE, (x + w / 2, y + h / 2))
    for i, row in enumerate(rows):
        _history_row(c, view, row, (x, y + 34 + i * 24, w, 24))


def _history_row(c: Canvas, view: ScoreboardView, row: HistoryRow, box: Box) -> None:
    x, y, w, h = box
    mid = y + h / 2
    c.line((x + 8, y), (x + w - 8, y), PANEL_EDGE, 1)
    c.text(number(row.number), 13, DIM, (x + 18, mid), bold=True)
    if row.trump is not None:
        _suit_chip(c, row.trump, (x + 42, mid), 18)
    elif row.maker:
        c.text(pgettext("history", "NT"), 12, WHITE, (x + 42, mid), bold=True)
    if row.maker:
        r = c.text(row.maker, 14, WHITE, (x + 56, mid), anchor="midleft", max_width=42 if row.alone else 62,
                   min_size=13)
        if row.alone:  # a red "A" chip, like the ALONE tags elsewhere
            chip_x = r.right / c.scale + 10
            c.circle((chip_x, mid), 8.5, CARD_RED)
            c.text(pgettext("alone chip", "A"), 12, WHITE, (chip_x, mid), bold=True)
    else:
        note = row.note or history_note("thrown_in")
        # a note too long for its column takes the points column too, on a row without points (thrown in, void)
        room = 62 if any(row.points) or c.text_size(note, 13)[0] <= 62 else 96
        c.text(note, 14, DIM, (x + 56, mid), anchor="midleft", max_width=room, min_size=13)
    for team in (0, 1):
        if row.points[team]:
            c.text(f"+{row.points[team]}", 15, TEAM_COLORS[team], (x + 148, mid), anchor="midright", bold=True)
    score = f"{row.score[0]}\u2013{row.score[1]}"
    c.text(score, 15, WHITE, (x + w - 10, mid), anchor="midright", bold=True)


def _suit_chip(c: Canvas, suit: Suit, center: tuple[float, float], size: float) -> None:
    """A suit symbol on a small white square, striped for the red suits."""
    box = (center[0] - size / 2, center[1] - size / 2, size, size)
    if suit.is_red:
        hatch(c, box, 3, WHITE, CARD_RED, spacing=4)
        c.fill((box[0] + 2.5, box[1] + 2.5, size - 5, size - 5), WHITE, radius=2)
    else:
        c.fill(box, WHITE, radius=3)
    c.text(suit.symbol, size * 0.75, CARD_RED if suit.is_red else INK, center)


# --- the table -------------------------------------------------------------------------------------------------

CARD_W = 64.0


def _seat_positions(c: Canvas, stage: Stage) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """(label centre, card centre) for seats 0-3, clockwise from the top.

    The side names sit above their cards in play, below the result box when a hand is scored.
    """
    cx, cy = c.width / 2, MAIN_H / 2
    side_y = {Stage.PLAYING: cy - 58, Stage.HAND_OVER: MAIN_H - 74}.get(stage, cy)
    return [
        ((cx, 20), (cx, 86)),
        ((cx + 112, side_y), (cx + 112, cy + 8)),
        ((cx, MAIN_H - 20), (cx, MAIN_H - 86)),
        ((cx - 112, side_y), (cx - 112, cy + 8)),
    ]


def _table(c: Canvas, view: ScoreboardView) -> tuple[TouchButton, ...]:
    cx, cy = c.width / 2, MAIN_H / 2
    positions = _seat_positions(c, view.stage)
    offering = bool(view.offers) and view.stage in (Stage.BIDDING, Stage.PLAYING) and view.choice is None
    # Offers while cards lie on the table answer "check this card": drawn between the cards, which stay in sight.
    among_cards = offering and view.stage is Stage.PLAYING and any(s.card is not None for s in view.seats)
    if view.stage is Stage.PLAYING and offering and not among_cards:
        c.text(_("before the lead"), 15, DIM, (cx, cy + 6), bold=True)
    elif view.stage is Stage.PLAYING:
        for seat, (_label_pos, card_pos) in enumerate(positions):
            s = view.seats[seat]
            if s.card is not None:
                draw_card(c, s.card, card_pos, CARD_W, highlight=GOLD if s.winning else None)
            elif not s.sitting_out:
                draw_card_slot(c, card_pos, CARD_W, PANEL_EDGE)
        if view.trick_number and not among_cards:
            c.text(trick_label(view.trick_number), 15, DIM, (cx, cy + 6), bold=True)
    elif view.stage is Stage.BIDDING and view.up_card is not None:
        label = pgettext("label", "TURNED DOWN") if view.up_card_turned_down else pgettext("label", "UP-CARD")
        draw_card(c, view.up_card, (cx, cy), 88, turned_down=view.up_card_turned_down)
        c.text(label, 13, DIM, (cx, cy + 76), bold=True)
    elif view.stage in (Stage.NEW_GAME, Stage.DEALING):
        head = _("New game") if view.stage is Stage.NEW_GAME else _("Dealing")
        c.text(head, 34, WHITE, (cx, cy - 6), bold=True)
        if view.dealer is not None:
            c.text(_("{dealer} deals").format(dealer=view.seats[view.dealer].name), 18, DIM, (cx, cy + 28))
    reviewing = view.stage is Stage.HAND_OVER and bool(view.review)
    # the hand in review and the won game take the whole centre (the names are on the history's rows)
    if not reviewing and view.stage is not Stage.GAME_OVER:
        for seat, (label_pos, _card_pos) in enumerate(positions):
            _seat_label(c, view, seat, label_pos)
    if reviewing:
        _hand_review(c, view)
    elif view.stage is Stage.HAND_OVER:
        # Offers after a hand answer "check this card" for its last trick, still on the table: in the result box.
        return _result_box(c, view, view.offers if view.choice is None else ())
    elif view.stage is Stage.GAME_OVER:
        _game_over(c, view)
    if among_cards:
        return _offers_stacked(c, view.offers, (cx, cy + 6))
    return _offers(c, view.offers) if offering else ()


def _seat_label(c: Canvas, view: ScoreboardView, seat: int, center: tuple[float, float]) -> None:
    s = view.seats[seat]
    turn = view.turn == seat
    if s.sitting_out:
        fg, bg, text = DIM, PANEL, _("{who} (out)").format(who=s.name)
    elif turn:
        fg, bg, text = INK, GOLD, f"\u25b6 {s.name}"
    else:
        fg, bg, text = WHITE, SEAT_BG, s.name
    box = pill(c, text, center, 19, fg, bg, max_width=150, min_size=NAME_MIN)
    chips = [k for k, on in ((pgettext("label", "ALONE"), seat in view.alone), ("D", view.dealer == seat)) if on]
    if not chips:
        return
    if seat % 2 == 0:  # top and bottom: chips to the right of the name
        x, y = box[0] + box[2] + 6, center[1]
    else:  # the sides: chips in a row under the seat's card, or under the name where no card is drawn
        widths = [_chip_width(c, k) for k in chips]
        has_card = view.stage is Stage.PLAYING and not s.sitting_out
        below = 128 if has_card else 28
        x, y = center[0] - (sum(widths) + 6 * (len(chips) - 1)) / 2, center[1] + below
    for k in chips:
        w = _chip_width(c, k)
        if k == "D":
            c.circle((x + w / 2, y), 13, WHITE)
            c.text(pgettext("dealer chip", "D"), 15, INK, (x + w / 2, y), bold=True)
        else:
            pill(c, k, (x + w / 2, y), 12, WHITE, CARD_RED)
        x += w + 6


def _chip_width(c: Canvas, chip: str) -> float:
    return 26.0 if chip == "D" else c.text_size(chip, 12, True)[0] + 12


def _tricks(tricks: tuple[int, int]) -> str:
    """ "tricks 3–2"."""
    return _("tricks {first}\u2013{second}").format(first=number(tricks[0]), second=number(tricks[1]))


RESULT_TOP, RESULT_BOTTOM = 44.0, 294.0  # the result box with offers stays clear of North's name and the sides'


def _result_box(c: Canvas, view: ScoreboardView, offers: tuple[Offer, ...] = ()) -> tuple[TouchButton, ...]:
    """The scored hand's headline and tricks; ``offers`` (answers to a check of its last trick) in a row under
    them, the box raised to make room."""
    cx, cy = c.width / 2, MAIN_H / 2
    w = c.width - 2 * SIDE - 24
    size, lines = _headline(c, view.result or _("Hand over"), (24, 21, 19, 17), w - 28, 4)
    if lines[-1].endswith(ELLIPSIS):  # long seat names: a fifth line of the smallest type
        size, lines = _headline(c, view.result, (17,), w - 28, 5)
    step = size * 4 / 3
    row = OFFERS_H + 12 if offers else 0.0
    h = 56 + step * len(lines) + row
    top = max(RESULT_TOP, min(cy - h / 2, RESULT_BOTTOM - h)) if offers else cy - h / 2
    box = (cx - w / 2, top, w, h)
    c.fill(box, WHITE, radius=14)
    c.fill(box, GOLD, radius=14, width=4)
    for i, line in enumerate(lines):
        c.text(line, size, INK, (cx, box[1] + 14 + step / 2 + i * step), bold=True)
    c.text(_tricks(view.tricks), 16, (90, 90, 96), (cx, box[1] + h - row - 20))
    return _offers_row(c, offers, box[1] + h - OFFERS_H - 10, w - 20, on_white=True)


def _headline(
    c: Canvas, text: str, sizes: tuple[float, ...], max_width: float, max_lines: int
) -> tuple[float, list[str]]:
    """The largest of ``sizes`` at which bold ``text`` wraps into ``max_lines``; at the smallest, it is cut short."""
    for size in sizes:
        lines = c.wrap(text, size, max_width, bold=True)
        if len(lines) <= max_lines:
            return size, lines
    return sizes[-1], c.wrap(text, sizes[-1], max_width, bold=True, max_lines=max_lines)


def _hand_review(c: Canvas, view: ScoreboardView) -> None:
    """The scored hand: its headline, then the camera's still of each trick (three, then two, a row)."""
    cx = c.width / 2
    w = c.width - 2 * SIDE - 16
    x0 = cx - w / 2
    size, lines = _headline(c, view.result or _("Hand over"), (18, 16, 15), w - 20, 3)
    box = (x0, 6, w, 36 + 22 * len(lines))
    c.fill(box, WHITE, radius=12)
    c.fill(box, GOLD, radius=12, width=3)
    for i, line in enumerate(lines):
        c.text(line, size, INK, (cx, box[1] + 18 + 22 * i), bold=True, max_width=w - 20)
    c.text(_tricks(view.tricks), 14, (90, 90, 96), (cx, box[1] + box[3] - 14))
    snaps = view.review[:5]
    top = box[1] + box[3] + 10
    slot_w = (w - 2 * 8) / 3
    aspect = snaps[0].size[1] / max(1, snaps[0].size[0]) if snaps else 0.75
    row_h = min((MAIN_H - top - 8) / 2, slot_w * aspect + 30)
    for row, chunk in enumerate((snaps[:3], snaps[3:])):
        if chunk:
            row_w = w * len(chunk) / 3
            _snapshots(c, chunk, (cx - row_w / 2, top + row * row_h, row_w, row_h - 4), caption_size=13)


def _game_over(c: Canvas, view: ScoreboardView) -> None:
    cx, cy = c.width / 2, MAIN_H / 2
    w = c.width - 2 * SIDE - 16
    box = (cx - w / 2, 44, w, MAIN_H - 88)
    c.fill(box, PANEL, radius=16)
    team = view.winner if view.winner is not None else 0
    c.fill(box, TEAM_COLORS[team], radius=16, width=5)
    c.text(_("GAME!"), 26, GOLD, (cx, box[1] + 34), bold=True)
    name = _team_header(c, view, team, 24, w - 24)
    c.text(name, 36, TEAM_COLORS[team], (cx, box[1] + 82), bold=True, max_width=w - 24, min_size=24)
    c.text(pgettext("game won", "win"), 22, WHITE, (cx, box[1] + 118), bold=True)
    if view.records:  # the game's records take the place of the score (it is on the left too)
        _game_records(c, view, (box[0] + 12, box[1] + 138, box[2] - 24, box[3] - 176))
    else:
        c.text(f"{view.score[team]}\u2013{view.score[1 - team]}", 64, WHITE, (cx, cy + 50), bold=True)
    c.text(_("New game: hold Undo, or press N"), 15, DIM, (cx, box[1] + box[3] - 22))


def _game_records(c: Canvas, view: ScoreboardView, area: tuple[float, float, float, float]) -> None:
    """The game's records: a row for each (lone hands made/tried, marches, euchres made and suffered,
    reneges), a column for each seat."""
    x, y, w, h = area
    rows = (
        (pgettext("records", "Lone hands"), [f"{r.lone_made}/{r.lone_tried}" for r in view.records]),
        (pgettext("records", "Marches"), [str(r.marches) for r in view.records]),
        (pgettext("records", "Euchres made"), [str(r.euchres_made) for r in view.records]),
        (pgettext("records", "Euchred"), [str(r.euchres_suffered) for r in view.records]),
        (pgettext("records", "Reneges"), [str(r.reneges) for r in view.records]),
    )
    label_w = w * 0.36
    col_w = (w - label_w) / len(view.records)
    row_h = h / (len(rows) + 1)
    for seat in range(len(view.records)):
        c.text(view.seats[seat].name, 16, TEAM_COLORS[seat % 2], (x + label_w + col_w * (seat + 0.5), y + row_h / 2),
               bold=True, max_width=col_w - 2, min_size=16)  # a name is cut short, never shrunk
    for i, (label, cells) in enumerate(rows):
        ry = y + row_h * (i + 1.5)
        c.text(label, 13, DIM, (x, ry), anchor="midleft", max_width=label_w - 6)
        for seat, cell in enumerate(cells):
            c.text(cell, 14, WHITE, (x + label_w + col_w * (seat + 0.5), ry), bold=True)


# --- bottom strips ---------------------------------------------------------------------------------------------


def _strips(c: Canvas, view: ScoreboardView) -> None:
    ann = (0.0, MAIN_H, c.width, ANN_H)
    if view.banner is not None:
        bg, fg = BANNER_COLORS[view.banner.kind]
        c.fill(ann, bg)
        icon = "?" if view.banner.kind is BannerKind.CHECK_CARD else "\u26a0"
        c.circle((24, MAIN_H + ANN_H / 2), 15, fg)
        c.text(icon, 19, bg, (24, MAIN_H + ANN_H / 2 + 1), bold=True)
        _strip_text(c, view.banner.text, 48, c.width - 58, fg, bold=True)
    else:
        c.fill(ann, STRIP_BG)
        _strip_text(c, view.announcement, 16, c.width - 32, WHITE)
    top = MAIN_H + ANN_H
    c.fill((0.0, top, c.width, c.height - top), PROMPT_BG)
    right = c.width - 10
    mid = top + (c.height - top) / 2
    for text, fg, bg, shown in (
        ((view.camera_text or _("camera lost")).upper(), WHITE, ALERT_RED, not view.camera_ok),
        (pgettext("label", "MUTED"), WHITE, (70, 70, 78), view.muted),
    ):
        if shown:
            w = c.text_size(text, 16, True)[0] + 16
            pill(c, text, (right - w / 2, mid), 16, fg, bg)
            right -= w + 10
    if view.prompt:
        c.text(f"\u25b6 {view.prompt}", PROMPT_SIZE, GOLD, (12, mid), anchor="midleft", bold=True,
               max_width=right - 22, min_size=PROMPT_MIN)


OFFER_LABEL, OFFER_KEY = 16.0, 12.0  # an offer's words, and the panel button that gives it
OFFERS_Y, OFFERS_H = 286.0, 46.0  # the band of the table the offers take, under the up-card


def _offers(c: Canvas, offers: tuple[Offer, ...]) -> tuple[TouchButton, ...]:
    """The declarations that may be made now, in a row across the table under the up-card: each a button with
    its words and, under them, the panel button that gives it."""
    return _offers_row(c, offers, OFFERS_Y, c.width - 2 * SIDE - 16)


def _offers_row(
    c: Canvas, offers: tuple[Offer, ...], y: float, room: float, on_white: bool = False
) -> tuple[TouchButton, ...]:
    """``offers`` in a row ``room`` wide at most, centred across the table, from ``y`` down (``on_white``: drawn on
    a white box, so each button is shaded and edged)."""
    if not offers:
        return ()
    gap = 8.0
    widths = [
        max(c.text_size(o.label.upper(), OFFER_LABEL, True)[0], c.text_size(o.key, OFFER_KEY)[0]) + 20 for o in offers
    ]
    scale = min(1.0, (room - gap * (len(offers) - 1)) / sum(widths))
    widths = [w * scale for w in widths]
    x = c.width / 2 - (sum(widths) + gap * (len(offers) - 1)) / 2
    buttons = []
    for offer, w in zip(offers, widths, strict=True):
        buttons.append(_offer_button(c, offer, (x, y, w, OFFERS_H), on_white))
        x += w + gap
    return tuple(buttons)


OFFER_STACK_W = 150.0  # the offers between the trick's cards (West's and East's are 224 apart, 64 wide)


def _offers_stacked(c: Canvas, offers: tuple[Offer, ...], centre: tuple[float, float]) -> tuple[TouchButton, ...]:
    """Offers in a column between the cards of the trick (the answers to "check this card"), the cards in sight."""
    gap, h = 6.0, 40.0
    top = centre[1] - (len(offers) * h + (len(offers) - 1) * gap) / 2
    x = centre[0] - OFFER_STACK_W / 2
    return tuple(_offer_button(c, o, (x, top + i * (h + gap), OFFER_STACK_W, h)) for i, o in enumerate(offers))


OFFER_ON_WHITE = (232, 232, 238)  # an offer's fill on a white box, edged in gold


def _offer_button(
    c: Canvas, offer: Offer, box: tuple[float, float, float, float], on_white: bool = False
) -> TouchButton:
    """One offer: its words and, under them, the panel button that gives it; a touch button."""
    x, y, w, h = box
    c.fill(box, GOLD if offer.selected else OFFER_ON_WHITE if on_white else WHITE, radius=8)
    if on_white:
        c.fill(box, GOLD, radius=8, width=2)
    cx = x + w / 2
    c.text(offer.label.upper(), OFFER_LABEL, INK, (cx, y + 15), bold=True, max_width=w - 8)
    c.text(offer.key, OFFER_KEY, (70, 70, 78), (cx, y + h - 11), max_width=w - 8)
    r = c.rect(box)
    return TouchButton(offer.action, (r.x, r.y, r.width, r.height))


def _choice(c: Canvas, choice: Choice) -> tuple[TouchButton, ...]:
    """The question the panel is in the middle of, over the table: a row per option, each a button."""
    row_h, gap = 44.0, 6.0
    w = c.width - 2 * SIDE - 12
    h = 48 + len(choice.options) * (row_h + gap) + 30
    x, y = c.width / 2 - w / 2, max(6.0, MAIN_H / 2 - h / 2)
    c.fill((x, y, w, h), PANEL, radius=14)
    c.fill((x, y, w, h), GOLD, radius=14, width=3)
    c.text(choice.title, 22, GOLD, (x + w / 2, y + 25), bold=True, max_width=w - 24, min_size=16)
    buttons = []
    for i, option in enumerate(choice.options):
        box = (x + 12, y + 48 + i * (row_h + gap), w - 24, row_h)
        c.fill(box, GOLD if option.selected else SEAT_BG, radius=10)
        key_box = (box[0] + 6, box[1] + 5, 52, row_h - 10)
        c.fill(key_box, WHITE, radius=6)
        red = option.action.suit is not None and option.action.suit.is_red
        key_size = 24 if len(option.key) == 1 else 14
        c.text(option.key, key_size, CARD_RED if red else INK, (key_box[0] + 26, key_box[1] + key_box[3] / 2),
               bold=True)
        fg = INK if option.selected else WHITE
        c.text(option.label, 19, fg, (box[0] + 68, box[1] + row_h / 2), anchor="midleft", bold=True,
               max_width=box[2] - 76, min_size=13)
        r = c.rect(box)
        buttons.append(TouchButton(option.action, (r.x, r.y, r.width, r.height)))
    if choice.hint:
        c.text(choice.hint, 15, DIM, (x + w / 2, y + h - 17), max_width=w - 20, min_size=12)
    return tuple(buttons)


def _strip_text(c: Canvas, text: str, x: float, max_width: float, color: Color, bold: bool = False) -> None:
    """One line in the announcement strip, as large as fits; a long one takes two smaller lines."""
    mid = MAIN_H + ANN_H / 2
    size = c.fit_size(text, ANNOUNCE_SIZE, max_width, bold, ANNOUNCE_MIN)
    if c.text_size(text, size, bold)[0] <= max_width:
        c.text(text, size, color, (x, mid), anchor="midleft", bold=bold)
        return
    lines = c.wrap(text, ANNOUNCE_TWO_LINES, max_width, bold, max_lines=2)
    for i, line in enumerate(lines):
        y = mid + (i - (len(lines) - 1) / 2) * (ANNOUNCE_TWO_LINES + 1)
        c.text(line, ANNOUNCE_TWO_LINES, color, (x, y), anchor="midleft", bold=bold, max_width=max_width,
               min_size=ANNOUNCE_TWO_LINES)


# --- renege alert ----------------------------------------------------------------------------------------------


def _renege(c: Canvas, alert: RenegeAlert, t: float) -> tuple[TouchButton, ...]:
    """Full screen, flashing (from ``t``), with hazard stripes so it reads without colour too; its two buttons."""
    bright = int(t * FLASH_HZ * 2) % 2 == 0
    c.fill((0.0, 0.0, c.width, c.height), ALERT_RED if bright else ALERT_DARK)
    edge = 16.0
    for box in ((0.0, 0.0, c.width, edge), (0.0, c.height - edge, c.width, edge)):
        hatch(c, box, 0, (255, 210, 0) if bright else INK, INK if bright else (255, 210, 0), spacing=22)
    cx = c.width / 2
    c.text(_("RENEGE!"), 70, WHITE, (cx, 66), bold=True)
    c.text(alert.offender, 30, GOLD, (cx, 120), bold=True, max_width=c.width - 40, min_size=24)
    lines = c.wrap(alert.evidence, 23, c.width - 60, max_lines=3)
    for i, line in enumerate(lines):
        c.text(line, 23, WHITE, (cx, 158 + i * 30))
    y = 160 + 30 * len(lines)
    if alert.snapshots:
        _snapshots(c, alert.snapshots, (30, y, c.width - 60, 370 - y))
    if alert.penalty:
        penalty = _("Penalty: {penalty}").format(penalty=alert.penalty)
        c.text(penalty, 19, WHITE, (cx, 388), bold=True, max_width=c.width - 40, min_size=16)
    half = (c.width - 48) / 2
    buttons = []
    choices = (
        (alert.accept_hint or accept_hint(), GOLD, Action(ButtonAction.ACCEPT_PENALTY)),
        (alert.dismiss_hint or dismiss_hint(), WHITE, Action(ButtonAction.DISMISS_RENEGE)),
    )
    for k, (hint, bg, action) in enumerate(choices):
        box = (16 + k * (half + 16), 408, half, 50)
        c.fill(box, bg, radius=10)
        c.text(hint, 21, INK, (box[0] + half / 2, box[1] + 25), bold=True, max_width=half - 16, min_size=16)
        r = c.rect(box)
        buttons.append(TouchButton(action, (r.x, r.y, r.width, r.height)))
    return tuple(buttons)


def _snapshots(c: Canvas, snaps: tuple[Snapshot, ...], area: Box, caption_size: int = 16) -> None:
    x, y, w, h = area
    n = min(len(snaps), 3)
    gap = 16 if caption_size >= 16 else 8
    slot_w = (w - (n - 1) * gap) / n
    for i, snap in enumerate(snaps[:n]):
        image = _snapshot_surface(snap)
        sx = x + i * (slot_w + gap)
        if image is None:
            c.fill((sx, y, slot_w, h - 22), ALERT_DARK, radius=6)
            c.text(_("no picture"), 16, DIM, (sx + slot_w / 2, y + (h - 22) / 2))
        else:
            iw, ih = image.get_size()
            fit = min(c.px(slot_w) / iw, c.px(h - 22) / ih)
            scaled = pygame.transform.smoothscale(image, (max(1, round(iw * fit)), max(1, round(ih * fit))))
            dest = scaled.get_rect(midtop=(c.px(sx + slot_w / 2), c.px(y)))
            pygame.draw.rect(c.surface, WHITE, dest.inflate(6, 6))
            c.surface.blit(scaled, dest)
            if caption_size < 16:  # small stills: the caption sits right under the picture
                c.text(snap.caption, caption_size, WHITE, (sx + slot_w / 2, dest.bottom / c.scale + 12),
                       bold=True, max_width=slot_w)
                continue
        c.text(snap.caption, caption_size, WHITE, (sx + slot_w / 2, y + h - 10), bold=True, max_width=slot_w)


def _snapshot_surface(snap: Snapshot) -> pygame.Surface | None:
    if snap.rgb and snap.size[0] * snap.size[1] * 3 == len(snap.rgb):
        return pygame.image.frombuffer(snap.rgb, snap.size, "RGB")
    if snap.path:
        return _load_image(snap.path)
    return None


@functools.lru_cache(maxsize=8)
def _load_image(path: str) -> pygame.Surface | None:
    """A snapshot file, read once: the app writes it before the alert shows, so this is a cache hit later."""
    try:
        return pygame.image.load(path)
    except (pygame.error, OSError, FileNotFoundError):
        return None
