"""The enrolment screen: the camera's view with each card as read, the deck filling in, the question of the moment.

Layout (800x480 layout units, scaled like the scoreboard by ``display.canvas``):

- a header: the deck's name, how many of its cards are in, the time taken;
- left, the camera's view: each card outlined, green with its name once enrolled, gold with "?" when the
  players are asked about it, grey while it is being read;
- right, the deck in play (suits in rows, ranks in columns, the Joker last): each enrolled card as the
  camera saw it, each missing one as an empty slot; the answer chosen now is ringed in gold;
- below, the question: the card's picture, the candidates (likeliest first, the chosen one raised) and
  touch buttons (previous, next, this one, not a card, undo); or, with no question, what happened last
  and what the buttons do.

When the enrolment ends the screen becomes the **contact sheet** of the enrolled deck
(:func:`render_contact_sheet`, also saved as a PNG by :func:`save_contact_sheet`).

:class:`EnrolScreen` turns keys, taps and panel buttons into enrolment steps
(``display.enrolment.enrol_action``); keys: the panel's (``display.keyboard``) plus the arrows
(previous / next), B or J (the Joker), X or Delete (not a card).
"""

from __future__ import annotations

import queue
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pygame

from display.actions import Action
from display.canvas import GOLD, INK, WHITE, Box, Canvas, Color, DrawnText, draw_card, pill
from display.enrolment import CardState, EnrolAction, Enrolment, Step, enrol_action
from display.keyboard import action_for_key
from display.render import ALERT_RED, BG, DIM, PANEL, PANEL_EDGE, PROMPT_BG, STRIP_BG, rect_contains
from table.cards import Card, Suit

Image = npt.NDArray[np.uint8]

GREEN: Color = (60, 200, 110)
GREY: Color = (170, 170, 170)
CAMERA: Box = (8, 44, 424, 318)
DECK: Box = (440, 44, 352, 318)
BOTTOM_Y = 370.0
HEADER_H = 36.0

_EXTRA_KEYS: dict[int, Step] = {
    pygame.K_LEFT: Step(EnrolAction.PREV),
    pygame.K_RIGHT: Step(EnrolAction.NEXT),
    pygame.K_DOWN: Step(EnrolAction.NEXT),
    pygame.K_UP: Step(EnrolAction.PREV),
    pygame.K_b: Step(EnrolAction.JOKER),
    pygame.K_j: Step(EnrolAction.JOKER),
    pygame.K_x: Step(EnrolAction.SKIP),
    pygame.K_DELETE: Step(EnrolAction.SKIP),
}


@dataclass(frozen=True)
class StepButton:
    """A drawn button a finger or the mouse can press: the step it gives, where it is (x, y, w, h pixels)."""

    step: Step
    rect: tuple[int, int, int, int]

    def contains(self, pos: tuple[float, float]) -> bool:
        return rect_contains(self.rect, pos)


@dataclass(frozen=True)
class Drawn:
    """What a render put on the screen: its buttons and its text."""

    buttons: tuple[StepButton, ...] = ()
    texts: tuple[DrawnText, ...] = ()

    def step_at(self, pos: tuple[float, float]) -> Step | None:
        return next((b.step for b in self.buttons if b.contains(pos)), None)


def _surface_of(image_bgr: Image, size: tuple[int, int]) -> pygame.Surface:
    """A BGR image as a pygame surface of ``size`` pixels (smoothly scaled)."""
    rgb = np.ascontiguousarray(image_bgr[:, :, ::-1])
    surf = pygame.image.frombuffer(rgb.tobytes(), (rgb.shape[1], rgb.shape[0]), "RGB")
    return pygame.transform.smoothscale(surf, (max(1, size[0]), max(1, size[1])))


def card_text(card: Card) -> str:
    """A card's short name with its suit symbol (the Joker: "Joker")."""
    if card.is_benny:
        return "Joker"
    assert card.suit is not None
    return card.label[:-1] + card.suit.symbol


def _suit_colour(card: Card, dark: bool) -> Color:
    if card.suit is not None and card.suit.is_red:
        return (255, 120, 120) if dark else (200, 16, 32)
    return WHITE if dark else INK


def deck_grid(deck: Sequence[Card]) -> tuple[list[list[Card | None]], int]:
    """The deck as rows (one suit each, then the Joker's row) of columns (ranks low to high); and the columns."""
    suits = [s for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES) if any(c.suit is s for c in deck)]
    ranks = sorted({c.rank for c in deck if c.rank is not None})
    rows: list[list[Card | None]] = []
    for s in suits:
        rows.append([Card.of(r, s) if Card.of(r, s) in deck else None for r in ranks])
    if any(c.is_benny for c in deck):
        rows.append([next(c for c in deck if c.is_benny)])
    return rows, max(1, len(ranks))


def _blit_face(c: Canvas, face: Image, box: Box) -> None:
    r = c.rect(box)
    c.surface.blit(_surface_of(face, (r.width, r.height)), r)


def _grid(
    c: Canvas,
    deck: Sequence[Card],
    faces: Mapping[Card, Image],
    box: Box,
    chosen: Card | None = None,
    labels: bool = False,
    named: frozenset[Card] = frozenset(),
) -> None:
    """The deck in rows: each card's picture where there is one, an empty slot with its name where not."""
    rows, cols = deck_grid(deck)
    x0, y0, w, h = box
    label_h = 14.0 if labels else 0.0
    slot_w, slot_h = w / cols, h / len(rows)
    card_w = min(slot_w * 0.9, (slot_h - label_h) * 0.92 / 1.39)
    card_h = card_w * 1.39
    for i, row in enumerate(rows):
        for j, card in enumerate(row):
            if card is None:
                continue
            cx = x0 + slot_w * (j + 0.5)
            top = y0 + slot_h * i + (slot_h - label_h - card_h) / 2
            cbox = (cx - card_w / 2, top, card_w, card_h)
            if card == chosen:
                pad = 3.0
                c.fill((cbox[0] - pad, cbox[1] - pad, card_w + 2 * pad, card_h + 2 * pad), GOLD, radius=6)
            face = faces.get(card)
            if face is not None:
                _blit_face(c, face, cbox)
                if card in named:
                    c.circle((cbox[0] + card_w - 5, cbox[1] + 5), 4, GOLD)
            else:
                c.fill(cbox, PANEL, radius=4)
                c.fill(cbox, PANEL_EDGE, radius=4, width=1.5)
                c.text(card_text(card), min(16.0, card_w * 0.36), DIM, (cx, top + card_h / 2), bold=True,
                       max_width=card_w - 2)  # fmt: skip
            if labels:
                c.text(card_text(card), 12, _suit_colour(card, dark=True), (cx, top + card_h + label_h / 2 + 1))


def _camera(c: Canvas, e: Enrolment, frame_bgr: Image | None) -> None:
    x, y, w, h = CAMERA
    c.fill(CAMERA, (0, 0, 0), radius=6)
    if frame_bgr is None:
        c.text("waiting for the camera…", 16, DIM, (x + w / 2, y + h / 2))
        return
    fh, fw = frame_bgr.shape[:2]
    scale = min(w / fw, h / fh)
    iw, ih = fw * scale, fh * scale
    ox, oy = x + (w - iw) / 2, y + (h - ih) / 2
    _blit_face(c, frame_bgr, (ox, oy, iw, ih))
    asked = e.question.card_id if e.question is not None else None
    c.surface.set_clip(c.rect(CAMERA))
    for card in e.cards:
        if card.gone or card.last_frame < e.frame_number - 2:
            continue
        pts = [(c.px(ox + float(px) * scale), c.px(oy + float(py) * scale)) for px, py in card.quad]
        if card.id == asked:
            colour, width = GOLD, 4
        elif card.state is CardState.ENROLLED:
            colour, width = GREEN, 2
        elif card.state is CardState.SKIPPED:
            colour, width = (120, 120, 120), 1
        else:
            colour, width = GREY, 1
        pygame.draw.lines(c.surface, colour, True, pts, width)
        cx = ox + float(card.quad[:, 0].mean()) * scale
        cy = oy + float(card.quad[:, 1].mean()) * scale
        if card.id == asked:
            pill(c, "?", (cx, cy), 16, INK, GOLD)
        elif card.card is not None and card.state is CardState.ENROLLED:
            pill(c, card_text(card.card), (cx, cy), 11, WHITE, (20, 110, 60))
    c.surface.set_clip(None)


def _header(c: Canvas, e: Enrolment, name: str) -> None:
    c.fill((0, 0, c.width, HEADER_H), STRIP_BG)
    c.text(f"Teach the deck: {name}", 18, WHITE, (12, HEADER_H / 2), anchor="midleft", bold=True, max_width=420)
    total, done = len(e.deck), len(e.enrolled)
    secs = int(e.elapsed())
    c.text(f"{done} of {total} cards · {secs // 60}:{secs % 60:02d}", 18, GOLD if done == total else WHITE,
           (c.width - 12, HEADER_H / 2), anchor="midright", bold=True)  # fmt: skip


def _button(c: Canvas, buttons: list[StepButton], text: str, box: Box, step: Step, primary: bool = False) -> None:
    c.fill(box, GOLD if primary else PANEL_EDGE, radius=8)
    c.text(text, 15, INK if primary else WHITE, (box[0] + box[2] / 2, box[1] + box[3] / 2), bold=True,
           max_width=box[2] - 6)  # fmt: skip
    r = c.rect(box)
    buttons.append(StepButton(step, (r.x, r.y, r.width, r.height)))


def _question(c: Canvas, e: Enrolment, buttons: list[StepButton]) -> None:
    q = e.question
    assert q is not None
    on_mat = e.card(q.card_id)
    top = BOTTOM_Y
    if on_mat is not None and on_mat.face is not None:
        _blit_face(c, on_mat.face, (10, top + 2, 72, 100))
    title = c.text("Which card is this?", 17, GOLD, (92, top + 12), anchor="midleft", bold=True)
    if q.why:
        after = title.right / c.scale + 8
        c.text(f"({q.why})", 13, DIM, (after, top + 12), anchor="midleft", max_width=462 - after)
    # The candidates: a window of seven around the chosen one.
    n = len(q.candidates)
    start = max(0, min(q.index - 3, n - 7))
    shown = q.candidates[start : start + 7]
    tile_w = 40.0
    for k, card in enumerate(shown):
        cx = 112 + k * 52
        chosen = start + k == q.index
        draw_card(c, card, (cx, top + 56 + (-4 if chosen else 0)), tile_w, highlight=GOLD if chosen else None)
        r = c.rect((cx - tile_w / 2, top + 28, tile_w, 56))
        step = Step(EnrolAction.CONFIRM if chosen else EnrolAction.PICK, card=card)
        buttons.append(StepButton(step, (r.x, r.y, r.width, r.height)))
    if n > 7:
        c.text(f"{q.index + 1} of {n}", 12, DIM, (112 + 3 * 52, top + 100))
    bx = 470.0
    _button(c, buttons, "◀", (bx, top + 4, 44, 38), Step(EnrolAction.PREV))
    _button(c, buttons, "▶", (bx + 50, top + 4, 44, 38), Step(EnrolAction.NEXT))
    chosen_card = q.chosen
    label = f"It is {card_text(chosen_card)}" if chosen_card is not None else "OK"
    _button(c, buttons, label, (bx + 100, top + 4, c.width - bx - 108, 38), Step(EnrolAction.CONFIRM), primary=True)
    _button(c, buttons, "Not a card", (bx, top + 48, 140, 38), Step(EnrolAction.SKIP))
    _button(c, buttons, "Undo", (bx + 150, top + 48, 80, 38), Step(EnrolAction.UNDO))
    joker = " · Alone: Joker" if e.has_joker else ""
    c.text(f"Pass: next · suit: next of it · Call: yes{joker}", 12, DIM, (bx, top + 100), anchor="midleft",
           max_width=c.width - bx - 8)  # fmt: skip


def _status(c: Canvas, e: Enrolment, buttons: list[StepButton]) -> None:
    top = BOTTOM_Y
    c.text(e.message, 18, WHITE, (14, top + 22), anchor="midleft", max_width=c.width - 130)
    reading = sum(1 for x in e.cards if x.state in (CardState.SETTLING, CardState.READING))
    hint = (
        f"Reading {reading} card{'s' if reading != 1 else ''}…" if reading
        else "Cards are read once they lie still. Call twice: finish without the missing cards."
    )  # fmt: skip
    c.text(hint, 14, DIM, (14, top + 54), anchor="midleft", max_width=c.width - 130)
    missing = e.missing
    if missing and len(missing) <= 8:
        c.text("Still to lay: " + " ".join(card_text(m) for m in missing), 14, GOLD, (14, top + 82),
               anchor="midleft", max_width=c.width - 130)  # fmt: skip
    _button(c, buttons, "Undo", (c.width - 108, top + 14, 96, 40), Step(EnrolAction.UNDO))


def render_enrolment(surface: pygame.Surface, e: Enrolment, frame_bgr: Image | None, name: str) -> Drawn:
    """Draw the enrolment in progress (or, once it has ended, the contact sheet)."""
    if e.done:
        return render_contact_sheet(surface, e.deck, e.faces(), name, _summary(e),
                                    named=frozenset(k for k, v in e.enrolled.items() if v.by_players),
                                    saved=_saved_line(e), note=e.note)  # fmt: skip
    c = Canvas(surface)
    surface.fill(BG)
    buttons: list[StepButton] = []
    _header(c, e, name)
    _camera(c, e, frame_bgr)
    chosen = e.question.chosen if e.question is not None else None
    c.fill(DECK, PANEL, radius=8)
    _grid(c, e.deck, e.faces(), (DECK[0] + 4, DECK[1] + 4, DECK[2] - 8, DECK[3] - 8), chosen,
          named=frozenset(k for k, v in e.enrolled.items() if v.by_players))  # fmt: skip
    c.fill((0, BOTTOM_Y - 4, c.width, c.height - BOTTOM_Y + 4), PROMPT_BG)
    if e.question is not None:
        _question(c, e, buttons)
    else:
        _status(c, e, buttons)
    return Drawn(tuple(buttons), tuple(c.texts))


def _summary(e: Enrolment) -> str:
    secs = int(e.elapsed())
    asked = sum(1 for v in e.enrolled.values() if v.by_players)
    text = f"{len(e.enrolled)} of {len(e.deck)} cards in {secs // 60}:{secs % 60:02d}; {asked} named by you"
    if e.missing:
        text += "; missing " + " ".join(card_text(m) for m in e.missing)
    return text


def _saved_line(e: Enrolment) -> tuple[str, str | None] | None:
    """What the contact sheet says of the save: (the line, why it failed or None); None before any try."""
    if e.unsaved is not None:
        return "Not saved. Free some space, then press Call to try again.", e.unsaved
    if e.saved is not None:
        return "Saved. Press Call to close.", None
    return None


def render_contact_sheet(
    surface: pygame.Surface,
    deck: Sequence[Card],
    faces: Mapping[Card, Image],
    name: str,
    summary: str = "",
    named: frozenset[Card] = frozenset(),
    saved: tuple[str, str | None] | None = None,
    note: str | None = None,
) -> Drawn:
    """The enrolled deck at a glance: every card of the deck as enrolled (an empty slot where missing).
    ``saved``: a line on the save, and why it failed (then shown across the header in red, the reason at the
    foot in place of the summary). ``note``: a line the players should read (gold, above the foot)."""
    c = Canvas(surface)
    surface.fill(BG)
    title = f"Deck {name}: {len(faces)} of {len(deck)} cards"
    if saved is not None and saved[1] is not None:
        c.fill((0, 0, c.width, HEADER_H), ALERT_RED)
        c.text(saved[0], 18, WHITE, (12, HEADER_H / 2), anchor="midleft", bold=True, max_width=c.width - 24)
        foot, colour = saved[1], WHITE
    else:
        c.fill((0, 0, c.width, HEADER_H), STRIP_BG)
        c.text(title + (f"  ·  {saved[0]}" if saved is not None else ""), 18, WHITE, (12, HEADER_H / 2),
               anchor="midleft", bold=True, max_width=c.width - 24)  # fmt: skip
        foot, colour = summary + ("  ·  gold dot: named by you" if named else ""), DIM
    below = 40 if note is None else 60
    _grid(c, deck, faces, (8, HEADER_H + 6, c.width - 16, c.height - HEADER_H - below), labels=True, named=named)
    if note is not None:
        c.text(note, 13, GOLD, (12, c.height - 38), anchor="midleft", max_width=c.width - 24)
    c.text(foot, 13, colour, (12, c.height - 16), anchor="midleft", max_width=c.width - 24)
    return Drawn((), tuple(c.texts))


def save_contact_sheet(
    path: Path,
    deck: Sequence[Card],
    faces: Mapping[Card, Image],
    name: str,
    summary: str = "",
    named: frozenset[Card] = frozenset(),
    note: str | None = None,
) -> Path:
    """The contact sheet as a PNG (1200x720: each card large enough to check by eye)."""
    surface = pygame.Surface((1200, 720))
    render_contact_sheet(surface, deck, faces, name, summary, named, note=note)
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(path))
    return path


class EnrolScreen:
    """Draws the enrolment on a surface and turns keys, taps and panel buttons into its steps."""

    def __init__(
        self,
        surface: pygame.Surface,
        enrolment: Enrolment,
        name: str,
        panel_actions: queue.Queue[Action] | None = None,
        flip: bool = False,
    ) -> None:
        self.surface = surface
        self.enrolment = enrolment
        self.name = name
        self.panel_actions = panel_actions
        self.flip = flip
        self.drawn = Drawn()

    def step_for(self, event: pygame.event.Event) -> Step | None:
        """The enrolment step a key, tap or click means (None: nothing)."""
        if event.type == pygame.QUIT:
            return Step(EnrolAction.QUIT)
        pos: tuple[float, float] | None = None
        if event.type == pygame.FINGERDOWN:
            w, h = self.surface.get_size()
            pos = (float(event.x) * w, float(event.y) * h)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not getattr(event, "touch", False):
            pos = (float(event.pos[0]), float(event.pos[1]))
        if pos is not None:
            return self.drawn.step_at(pos)
        if event.type != pygame.KEYDOWN:
            return None
        extra = _EXTRA_KEYS.get(event.key)
        if extra is not None:
            return extra
        action = action_for_key(event)
        return enrol_action(action, self.enrolment.has_joker) if action is not None else None

    def handle(self, events: Sequence[pygame.event.Event]) -> None:
        """Apply the events' steps, then the panel's presses waiting in its queue."""
        for event in events:
            step = self.step_for(event)
            if step is not None:
                self.enrolment.act(step)
        while self.panel_actions is not None:
            try:
                action = self.panel_actions.get_nowait()
            except queue.Empty:
                break
            step = enrol_action(action, self.enrolment.has_joker)
            if step is not None:
                self.enrolment.act(step)

    def draw(self, frame_bgr: Image | None) -> Drawn:
        self.drawn = render_enrolment(self.surface, self.enrolment, frame_bgr, self.name)
        if self.flip:
            pygame.display.flip()
        return self.drawn
