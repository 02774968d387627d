"""The table calibration screen: click the table's corners and seat 0's side on the camera picture.

For tables without the printed mat. Three parts, kept apart so tests drive
them without a window:

- ``CalibrationState``: a frozen state machine. Clicks (picture pixels) go
  in, a ``Calibration`` and a ``TableLayout`` come out. Corners may be
  clicked in any order: they are put in clockwise order starting at the
  picture's top-left, so a slip cannot twist the table. The mat frame then
  follows the camera picture (as ``vision.zones`` defines it) and the click
  on seat 0's side sets the layout's rotation.
- ``draw``: a pure function of a picture, a state and the seat names that
  paints the screen (instructions, clicks, the zones warped back onto the
  picture through the calibration).
- ``handle_event`` and ``run_window``: pygame events to state changes, and
  the loop (draw only when something changed).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt
import pygame
import pygame.freetype

from display import typeface
from vision.observations import KITTY, TRICK
from vision.zones import Calibration, Point, TableLayout

Image = npt.NDArray[np.uint8]  # BGR, height x width x 3, as frame sources give
Color = tuple[int, int, int]
Quad = tuple[Point, Point, Point, Point]

# A corner closer than this (fraction of the picture's diagonal) to another is a double click, not a table.
MIN_SIDE = 0.03
# A table smaller than this fraction of the picture is a slip of the mouse.
MIN_AREA = 0.01


class Step(enum.Enum):
    """Where the calibration stands."""

    CORNERS = "corners"  # fewer than four corners clicked
    SEAT = "seat"  # four corners; waiting for seat 0's side
    CONFIRM = "confirm"  # everything clicked; Enter saves


@dataclass(frozen=True)
class CalibrationState:
    """Clicks so far on a picture of ``image_size`` (width, height) pixels; every change returns a new state.

    ``clicks`` holds the corners in the order clicked; ``seat_click`` the
    point that chose seat 0's side. ``error`` explains the last refused
    click (shown on screen until the next action).
    """

    image_size: tuple[int, int]
    clicks: tuple[Point, ...] = ()
    seat_click: Point | None = None
    error: str = ""

    def __post_init__(self) -> None:
        w, h = self.image_size
        if w <= 0 or h <= 0:
            raise ValueError(f"an empty picture: {self.image_size}")
        if len(self.clicks) > 4 or (self.seat_click is not None and len(self.clicks) != 4):
            raise ValueError(f"inconsistent clicks: {self.clicks}, seat {self.seat_click}")

    @property
    def step(self) -> Step:
        if len(self.clicks) < 4:
            return Step.CORNERS
        return Step.SEAT if self.seat_click is None else Step.CONFIRM

    def click(self, point: Point) -> CalibrationState:
        """A click at ``point`` (picture pixels): the next corner, or seat 0's side, or nothing once confirmed."""
        x, y = float(point[0]), float(point[1])
        w, h = self.image_size
        step = self.step
        if step is Step.CONFIRM:
            return replace(self, error="All clicked: Enter saves, Backspace undoes the last click")
        if not (0 <= x <= w and 0 <= y <= h):
            return replace(self, error="Click on the picture")
        if step is Step.SEAT:
            return replace(self, seat_click=(x, y), error="")
        clicks = (*self.clicks, (x, y))
        if len(clicks) == 4:
            problem = quad_problem(order_corners(clicks), self.image_size)
            if problem:
                return replace(self, error=f"{problem}: click corner 4 again")
        return replace(self, clicks=clicks, error="")

    def undo(self) -> CalibrationState:
        """Take back the last click (seat side first, then corners, newest first)."""
        if self.seat_click is not None:
            return replace(self, seat_click=None, error="")
        return replace(self, clicks=self.clicks[:-1], error="")

    @property
    def corners(self) -> Quad | None:
        """The four corners, clockwise from the picture's top-left, or ``None`` before the fourth click."""
        return order_corners(self.clicks) if len(self.clicks) == 4 else None

    @property
    def calibration(self) -> Calibration | None:
        corners = self.corners
        return Calibration.from_corners(corners) if corners is not None else None

    @property
    def rotation(self) -> int | None:
        """The layout's rotation (the edge seat 0 sits at), once seat 0's side is clicked."""
        calibration = self.calibration
        if calibration is None or self.seat_click is None:
            return None
        return edge_at(calibration, self.seat_click)

    @property
    def layout(self) -> TableLayout | None:
        rotation = self.rotation
        return TableLayout(rotation=rotation) if rotation is not None else None


# ---- geometry (picture pixels, y down) ----


def order_corners(points: Sequence[Point]) -> Quad:
    """Four points clockwise on screen, starting with the one nearest the picture's top-left.

    Sorting by angle about the centroid gives the clockwise order whatever
    order they were clicked in (atan2 grows clockwise when y points down).
    """
    if len(points) != 4:
        raise ValueError(f"four corners, please: got {len(points)}")
    cx = sum(p[0] for p in points) / 4.0
    cy = sum(p[1] for p in points) / 4.0
    ring = sorted(points, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    start = min(range(4), key=lambda i: (ring[i][0] + ring[i][1], ring[i][1]))
    a, b, c, d = (ring[(start + i) % 4] for i in range(4))
    return a, b, c, d


def quad_problem(quad: Quad, image_size: tuple[int, int]) -> str:
    """Why ``quad`` cannot be a table seen from above (empty when it can): too small, or not convex."""
    w, h = image_size
    diagonal = math.hypot(w, h)
    for i in range(4):
        (x1, y1), (x2, y2) = quad[i], quad[(i + 1) % 4]
        if math.hypot(x2 - x1, y2 - y1) < MIN_SIDE * diagonal:
            return "Two corners are almost on top of each other"
    crosses = []
    for i in range(4):
        (ax, ay), (bx, by), (cx, cy) = quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]
        crosses.append((bx - ax) * (cy - by) - (by - ay) * (cx - bx))
    if not (all(c > 0 for c in crosses) or all(c < 0 for c in crosses)):
        return "Those corners do not make a four-sided table"
    if polygon_area(quad) < MIN_AREA * w * h:
        return "That table is too small: click the corners of the table top"
    return ""


def polygon_area(points: Sequence[Point]) -> float:
    n = len(points)
    twice = sum(points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1] for i in range(n))
    return abs(twice) / 2.0


def inside_convex(point: Point, quad: Sequence[Point]) -> bool:
    """Whether ``point`` lies inside (or on) the convex polygon ``quad``."""
    signs = []
    for i in range(len(quad)):
        (ax, ay), (bx, by) = quad[i], quad[(i + 1) % len(quad)]
        signs.append((bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax))
    return all(s >= 0 for s in signs) or all(s <= 0 for s in signs)


def edge_at(calibration: Calibration, point: Point) -> int:
    """Which table edge (index into ``EDGE_NAMES``: 0 bottom, 1 left, 2 top, 3 right) a picture point is on.

    The mat's diagonals split the plane into four sides, so a click inside
    the table near an edge, or on the chair beyond it, both count. A point
    beyond the picture's horizon (where the homography flips) falls back to
    the nearest edge in the picture.
    """
    m = calibration.matrix
    u, v, w = m @ np.array([point[0], point[1], 1.0])
    if w > 0:
        x, y = float(u / w), float(v / w)
        distances = (1.0 - y, x, y, 1.0 - x)  # bottom, left, top, right: signed distance inwards
        return min(range(4), key=lambda i: distances[i])
    return _nearest_edge_in_picture(calibration, point)


def _nearest_edge_in_picture(calibration: Calibration, point: Point) -> int:
    mat_edges = {0: ((0.0, 1.0), (1.0, 1.0)), 1: ((0.0, 0.0), (0.0, 1.0)), 2: ((0.0, 0.0), (1.0, 0.0))}
    mat_edges[3] = ((1.0, 0.0), (1.0, 1.0))
    best, best_d = 0, math.inf
    for edge, (a, b) in mat_edges.items():
        d = _segment_distance(point, calibration.to_image(*a), calibration.to_image(*b))
        if d < best_d:
            best, best_d = edge, d
    return best


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))


def edge_endpoints(edge: int) -> tuple[Point, Point]:
    """The mat-coordinate ends of an edge, clockwise on screen."""
    return (((1.0, 1.0), (0.0, 1.0)), ((0.0, 1.0), (0.0, 0.0)), ((0.0, 0.0), (1.0, 0.0)), ((1.0, 0.0), (1.0, 1.0)))[
        edge
    ]


# ---- the screen: picture placement and drawing ----

TOP_BAR = 0.13  # fractions of the screen height for the instruction bar and the key hints
BOTTOM_BAR = 0.08
BAR_BG: Color = (12, 14, 18)
TEXT: Color = (255, 255, 255)
DIM: Color = (170, 178, 190)
WARN: Color = (255, 170, 0)
CLICK: Color = (255, 60, 200)  # magenta: shows on felt, wood and cloth alike
OUTLINE: Color = (0, 230, 255)
SEAT0: Color = (255, 230, 0)
TEAM_COLORS: tuple[Color, Color] = ((86, 190, 255), (255, 164, 56))  # as the scoreboard's teams
TRICK_COLOR: Color = (255, 255, 255)
KITTY_COLOR: Color = (120, 255, 120)


@dataclass(frozen=True)
class Viewport:
    """Where the picture is drawn on the screen: a uniform ``scale`` and an ``offset`` (letterboxed)."""

    scale: float
    offset: tuple[float, float]
    image_size: tuple[int, int]

    @classmethod
    def fit(cls, image_size: tuple[int, int], screen_size: tuple[int, int]) -> Viewport:
        """The picture as large as fits between the instruction bar and the key hints, centred."""
        sw, sh = screen_size
        top, bottom = round(sh * TOP_BAR), round(sh * BOTTOM_BAR)
        area_h = max(1, sh - top - bottom)
        iw, ih = image_size
        scale = min(sw / iw, area_h / ih)
        return cls(scale, ((sw - iw * scale) / 2.0, top + (area_h - ih * scale) / 2.0), image_size)

    def to_screen(self, p: Point) -> tuple[float, float]:
        return (self.offset[0] + p[0] * self.scale, self.offset[1] + p[1] * self.scale)

    def to_image(self, p: tuple[float, float]) -> Point:
        return ((p[0] - self.offset[0]) / self.scale, (p[1] - self.offset[1]) / self.scale)

    @property
    def rect(self) -> pygame.Rect:
        w, h = self.image_size
        return pygame.Rect(round(self.offset[0]), round(self.offset[1]), round(w * self.scale), round(h * self.scale))


def picture_surface(image: Image) -> pygame.Surface:
    """A BGR picture as a pygame surface."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected a height x width x 3 BGR picture, got shape {image.shape}")
    rgb = np.ascontiguousarray(image[:, :, ::-1])
    h, w = rgb.shape[:2]
    return pygame.image.frombuffer(rgb.tobytes(), (w, h), "RGB").copy()


def instructions(state: CalibrationState, names: Sequence[str]) -> tuple[str, str]:
    """The instruction line and the line under it for the current step."""
    step = state.step
    if step is Step.CORNERS:
        n = len(state.clicks)
        which = "a" if n == 0 else "the next"
        return f"Click {which} corner of the table top ({n + 1} of 4)", "Any order: where the table's edges meet"
    if step is Step.SEAT:
        return f"Click the side of the table where {names[0]} (seat 0) sits", "The other seats follow clockwise"
    order = ", ".join(names[s] for s in range(4))
    return "Check the zones, then press Enter to save", f"Seats clockwise: {order}"


def key_hints(state: CalibrationState) -> str:
    enter = "Enter: save" if state.step is Step.CONFIRM else "Enter: save (after all clicks)"
    return f"Backspace: undo    {enter}    Esc: quit without saving"


def draw(
    surface: pygame.Surface,
    picture: pygame.Surface,
    state: CalibrationState,
    names: Sequence[str],
    hover: tuple[float, float] | None = None,
) -> Viewport:
    """Paint the calibration screen for ``state``; ``hover`` is the mouse (screen pixels). Returns the viewport."""
    if len(names) != 4:
        raise ValueError(f"four seat names needed, got {list(names)!r}")
    sw, sh = surface.get_size()
    view = Viewport.fit(state.image_size, (sw, sh))
    surface.fill(BAR_BG)
    surface.blit(pygame.transform.smoothscale(picture, view.rect.size), view.rect)
    overlay = pygame.Surface((sw, sh), pygame.SRCALPHA)
    line = max(2, round(sh / 240))
    quad = state.corners
    calibration = state.calibration
    if calibration is not None and quad is not None:
        if state.step is Step.CONFIRM:
            _draw_zones(overlay, view, calibration, state, names, line)
        _polygon(overlay, [view.to_screen(p) for p in quad], OUTLINE, line)
        edge = state.rotation
        if edge is None and hover is not None:
            edge = edge_at(calibration, view.to_image(hover))
        if edge is not None:
            _draw_seat_edge(overlay, view, calibration, edge, names[0], state.step is Step.SEAT, sh)
    for i, p in enumerate(state.clicks):
        _marker(overlay, view.to_screen(p), str(i + 1), sh)
    surface.blit(overlay, (0, 0))
    _bars(surface, state, names)
    return view


def _draw_zones(
    overlay: pygame.Surface,
    view: Viewport,
    calibration: Calibration,
    state: CalibrationState,
    names: Sequence[str],
    line: int,
) -> None:
    layout = state.layout
    assert layout is not None
    size = overlay.get_height() / 30
    for zone, rect in layout.zone_rects().items():
        corners = [view.to_screen(calibration.to_image(u, v)) for u, v in rect.corners]
        if zone == TRICK:
            color, label = TRICK_COLOR, "tricks"
        elif zone == KITTY:
            color, label = KITTY_COLOR, "kitty"
        else:
            seat = zone.seat
            assert seat is not None
            color, label = TEAM_COLORS[seat % 2], f"{seat} {names[seat]}"
        pygame.draw.polygon(overlay, (*color, 70), corners)
        _polygon(overlay, corners, color, line)
        center = view.to_screen(calibration.to_image(*rect.center))
        _label(overlay, label, center, size, color)


def _draw_seat_edge(
    overlay: pygame.Surface,
    view: Viewport,
    calibration: Calibration,
    edge: int,
    name: str,
    tentative: bool,
    screen_h: int,
) -> None:
    a, b = (view.to_screen(calibration.to_image(*p)) for p in edge_endpoints(edge))
    width = max(4, round(screen_h / 80))
    pygame.draw.line(overlay, (*SEAT0, 200 if tentative else 255), a, b, width)
    # The label sits just outside the table, beyond the middle of the edge.
    mx, my = (a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0
    centre = view.to_screen(calibration.to_image(0.5, 0.5))
    dx, dy = mx - centre[0], my - centre[1]
    norm = math.hypot(dx, dy) or 1.0
    push = screen_h / 22
    text = f"seat 0: {name}?" if tentative else f"seat 0: {name}"
    _label(overlay, text, (mx + dx / norm * push, my + dy / norm * push), screen_h / 26, SEAT0)


def _polygon(surface: pygame.Surface, points: Sequence[tuple[float, float]], color: Color, width: int) -> None:
    pygame.draw.lines(surface, (*color, 255), True, points, width)


def _marker(surface: pygame.Surface, center: tuple[float, float], text: str, screen_h: int) -> None:
    r = max(5, round(screen_h / 70))
    pygame.draw.circle(surface, (0, 0, 0, 255), center, r + 2)
    pygame.draw.circle(surface, (*CLICK, 255), center, r)
    _label(surface, text, (center[0] + r * 2.2, center[1] - r * 2.2), screen_h / 28, CLICK)


def _label(surface: pygame.Surface, text: str, center: tuple[float, float], size: float, color: Color) -> None:
    """Text with a dark backing, so it reads on any table cloth."""
    font = typeface.font(bold=True)
    px = max(8, round(size))
    r = font.get_rect(text, size=px)
    r.center = (round(center[0]), round(center[1]))
    pad = max(2, px // 4)
    pygame.draw.rect(surface, (0, 0, 0, 170), r.inflate(2 * pad, 2 * pad), border_radius=pad)
    font.render_to(surface, r, text, fgcolor=color, size=px)


def _bars(surface: pygame.Surface, state: CalibrationState, names: Sequence[str]) -> None:
    sw, sh = surface.get_size()
    top, bottom = round(sh * TOP_BAR), round(sh * BOTTOM_BAR)
    pygame.draw.rect(surface, BAR_BG, (0, 0, sw, top))
    pygame.draw.rect(surface, BAR_BG, (0, sh - bottom, sw, bottom))
    head, sub = instructions(state, names)
    _text(surface, head, (sw / 2, top * 0.36), top * 0.36, TEXT, sw * 0.96, bold=True)
    if state.error:
        _text(surface, state.error, (sw / 2, top * 0.78), top * 0.26, WARN, sw * 0.96, bold=True)
    else:
        _text(surface, sub, (sw / 2, top * 0.78), top * 0.24, DIM, sw * 0.96)
    _text(surface, key_hints(state), (sw / 2, sh - bottom / 2), bottom * 0.42, DIM, sw * 0.96)


def _text(
    surface: pygame.Surface,
    text: str,
    center: tuple[float, float],
    size: float,
    color: Color,
    max_width: float,
    bold: bool = False,
) -> None:
    font = typeface.font(bold)
    px = max(8, round(size))
    while px > 8 and font.get_rect(text, size=px).width > max_width:
        px -= 1  # shrink to fit a narrow screen rather than crop the instruction
    r = font.get_rect(text, size=px)
    r.center = (round(center[0]), round(center[1]))
    font.render_to(surface, r, text, fgcolor=color, size=px)


# ---- events and the window loop ----


class Outcome(enum.Enum):
    """What an event asks of the loop besides a new state."""

    NONE = "none"
    SAVE = "save"
    QUIT = "quit"


def handle_event(
    state: CalibrationState, event: pygame.event.Event, view: Viewport
) -> tuple[CalibrationState, Outcome]:
    """One pygame event: a left click (or touch) clicks, Backspace undoes, Enter saves when ready, Esc quits."""
    if event.type == pygame.QUIT:
        return state, Outcome.QUIT
    if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
        return state.click(view.to_image(event.pos)), Outcome.NONE
    if event.type == pygame.KEYDOWN:
        if event.key == pygame.K_ESCAPE:
            return state, Outcome.QUIT
        if event.key == pygame.K_BACKSPACE:
            return state.undo(), Outcome.NONE
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if state.step is Step.CONFIRM:
                return state, Outcome.SAVE
            return replace(state, error="Not yet: " + instructions(state, ("seat 0",) * 4)[0].lower()), Outcome.NONE
    return state, Outcome.NONE


def run_window(
    surface: pygame.Surface,
    first_picture: Image,
    names: Sequence[str],
    next_picture: Callable[[], Image | None] | None = None,
    fps: float = 30.0,
) -> CalibrationState | None:
    """Run the screen until Enter (the confirmed state) or Esc / closing the window (``None``).

    ``next_picture`` gives a newer camera picture or ``None`` (keep the last):
    a live camera stays live while the user clicks.
    """
    h, w = first_picture.shape[:2]
    state = CalibrationState((w, h))
    picture = picture_surface(first_picture)
    hover: tuple[float, float] | None = None
    dirty = True
    clock = pygame.time.Clock()
    view = Viewport.fit(state.image_size, surface.get_size())
    while True:
        for event in pygame.event.get():
            if event.type == pygame.MOUSEMOTION:
                hover, dirty = event.pos, dirty or state.step is Step.SEAT
                continue
            if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                surface = pygame.display.get_surface() or surface
                dirty = True
                continue
            state, outcome = handle_event(state, event, view)
            dirty = True
            if outcome is Outcome.SAVE:
                return state
            if outcome is Outcome.QUIT:
                return None
        if next_picture is not None:
            image = next_picture()
            if image is not None and image.shape[:2] == (h, w):
                picture, dirty = picture_surface(image), True
        if dirty:
            view = draw(surface, picture, state, names, hover)
            pygame.display.flip()
            dirty = False
        clock.tick(fps)
