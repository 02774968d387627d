"""The simulated table: scripted Euchre hands rendered as an overhead camera video, run through the real pipeline.

:func:`build_script` turns seeded deals from ``table.sim`` (full hands, random
legal play, injected reneges) into a timeline on the printed A3 mat: the
kitty slid in and its up-card turned face up, bids and other button presses
at given frames, each card slid by its player's hand into the zone in front
of that seat, tricks pushed together, turned down and taken to the winner's
side, arms of other players passing over the table. :class:`TableRenderer`
draws any frame of it from above through a slightly tilted camera (each
card face is scaled once, then warped into place per frame), with lighting
that drifts and a little sensor noise; it also gives each frame's ground
truth (every face-up card's corners and how much of it shows).

:class:`TablePipeline` is the real chain the table runs: ArUco markers ->
calibration, detector -> ``Tracker`` -> ``Match``, the bids coming in as the
same engine inputs the buttons produce. :func:`score_run` compares what the
engine announced with the script. :class:`OracleDetector` is a perfect
detector built from the ground truth, to test the tracker and engine
without the neural model.

Timing is counted in frames: a card *comes to rest* on the frame its slide
ends (the up-card: the frame it is turned face up), and the latency of an
observation is its frame minus that one.
"""

from __future__ import annotations

import bisect
import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from display.actions import Action, ButtonAction
from table.announcements import (
    Announcement,
    CardSource,
    Expect,
    HandScored,
    Irregularity,
    IrregularityKind,
    RenegeProven,
    ThrownIn,
    TrickWon,
)
from table.cards import BENNY, Card, deck
from table.deal import Phase
from table.inputs import (
    AcceptPenalty,
    Discard,
    DismissRenege,
    GoAlone,
    Input,
    NameTrump,
    NewGame,
    OrderUp,
    Pass,
    Play,
    ReviseCard,
    Undo,
    UpCard,
)
from table.match import Match
from table.renege import CHECK_CONFIDENCE
from table.rules import PRESETS, DefenderAlone, Rules, RulesError
from table.sim import BiddingOdds, SimDeal, game_over, simulate_deal
from vision.detection import CardDetection
from vision.detector import Detector, detect_frame
from vision.mat import MAT_SIZES, MatSize, marker_layout, render_mat
from vision.observations import (
    KITTY,
    CardLanded,
    CardLifted,
    CardRevised,
    Observation,
    UpCardShown,
    Zone,
    ZoneCleared,
    ZoneKind,
)
from vision.tracker import Tracker
from vision.zones import Calibration, MarkerRefresher, TableLayout, calibration_from_markers

FloatImage = npt.NDArray[np.float32]
Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]

FRAME_SIZE = (640, 480)  # the Pi camera's detection stream (vision.sources.picamera)
DEFAULT_FPS = 15.0
DEFAULT_DECK = "gnome-neoclassical"  # held out of training (lab.synth.faces.HELD_OUT_DECKS)
CARD_HEIGHT_MM = 88.0  # a poker-size card is 63 x 88 mm; each deck keeps its own aspect
MAT = MAT_SIZES["A3"]
FACE_PX_PER_MM = 2.2  # cards are pre-scaled once to about the camera's scale (1.4 px/mm) with room to spare

# Timing, in frames.
SLIDE = 5  # a card sliding into place, or a pile being moved
GAP = 4  # after a card rests, before the next one moves
BID_GAP = 3  # between two button presses
FIRST_BID = 8  # from the up-card turned face up to the first bid (the camera must have shown it first)
SWEEP = 6  # an arm passing over the table
SWEEP_CHANCE = 0.12  # before each card, the chance that someone reaches across first

Point = tuple[float, float]
FOREVER = 10**9  # the end frame of a card that stays until the script moves it


@dataclass(frozen=True)
class Pace:
    """How fast the table plays, in frames (defaults: the module constants). ``BRISK`` makes a shorter video."""

    slide: int = SLIDE
    gap: int = GAP
    bid_gap: int = BID_GAP
    first_bid: int = FIRST_BID
    sweep: int = SWEEP
    sweep_chance: float = SWEEP_CHANCE
    push: int = 4  # a trick pushed together before it is turned down

    def __post_init__(self) -> None:
        if self.slide < 2 or self.gap < 2 or self.bid_gap < 1 or self.first_bid < 4 or self.push < 2:
            raise ValueError(f"too fast for the camera to follow: {self}")


PACES = {"normal": Pace(), "brisk": Pace(slide=4, gap=3, bid_gap=2, first_bid=7, sweep_chance=0.05, push=3)}


# ---------------------------------------------------------------- the timeline


@dataclass(frozen=True)
class Key:
    """A card's pose at a frame (mat millimetres, radians); between keys it moves with an ease-out."""

    frame: int
    x: float
    y: float
    angle: float
    face_up: bool


@dataclass
class Sprite:
    """One card on the table over time: a face (``card``) or a back (``card`` None), gone from ``end`` on."""

    card: Card | None
    keys: list[Key]
    end: int
    z: int

    def pose(self, frame: int) -> Key | None:
        if frame < self.keys[0].frame or frame >= self.end:
            return None
        prev = self.keys[0]
        for nxt in self.keys[1:]:
            if frame < nxt.frame:
                t = (frame - prev.frame) / max(1, nxt.frame - prev.frame)
                e = 1.0 - (1.0 - t) ** 2
                return Key(
                    frame,
                    prev.x + (nxt.x - prev.x) * e,
                    prev.y + (nxt.y - prev.y) * e,
                    prev.angle + (nxt.angle - prev.angle) * e,
                    prev.face_up,
                )
            prev = nxt
        return Key(frame, prev.x, prev.y, prev.angle, prev.face_up)


@dataclass(frozen=True)
class Arm:
    """A player's arm: from ``base`` (beyond the mat edge) to the hand, which follows ``path`` (frame, x, y)."""

    base: Point
    path: tuple[tuple[int, float, float], ...]
    colour: tuple[int, int, int]

    @property
    def start(self) -> int:
        return self.path[0][0]

    @property
    def end(self) -> int:
        return self.path[-1][0]

    def hand(self, frame: int) -> Point | None:
        if frame < self.start or frame > self.end:
            return None
        prev = self.path[0]
        for nxt in self.path[1:]:
            if frame <= nxt[0]:
                t = (frame - prev[0]) / max(1, nxt[0] - prev[0])
                return (prev[1] + (nxt[1] - prev[1]) * t, prev[2] + (nxt[2] - prev[2]) * t)
            prev = nxt
        return (prev[1], prev[2])


@dataclass(frozen=True)
class CardRest:
    """Ground truth: ``card`` came to rest face up in ``zone`` at ``frame`` (``kind``: ``play`` or ``up_card``)."""

    frame: int
    card: Card
    zone: Zone
    seat: int | None
    deal: int
    kind: str


@dataclass(frozen=True)
class ButtonPress:
    """An engine input from the buttons (a bid, alone, the discard, a renege decision, a new game) at ``frame``.

    ``panel``: the presses of the standard panel that make it at that moment of the game
    (``companion.session.panel_presses``; none for the unseen discard, which the app infers).
    """

    frame: int
    action: Input
    panel: tuple[Action, ...] = ()


@dataclass
class TableScript:
    """Everything that happens at the simulated table, frame by frame, and what the engine must make of it."""

    rules: Rules
    seed: int
    renege_rate: float
    deals: list[SimDeal]
    deal_games: list[int]  # per deal: which game (0, 1...) it belongs to
    sprites: list[Sprite]
    arms: list[Arm]
    buttons: list[ButtonPress]
    rests: list[CardRest]
    frames: int
    final_score: tuple[int, int]  # of the last game
    hands: int | None = None  # as asked of build_script (None: one whole game)
    stolen: dict[int, int] = field(default_factory=dict)  # deal number -> the seat that dealt it out of turn
    layout: TableLayout = field(default_factory=TableLayout)
    mat: MatSize = MAT
    pace: Pace = field(default_factory=lambda: Pace())

    def buttons_at(self) -> dict[int, list[Input]]:
        out: dict[int, list[Input]] = {}
        for b in self.buttons:
            out.setdefault(b.frame, []).append(b.action)
        return out


_SLEEVES = ((150, 60, 40), (40, 40, 150), (60, 120, 60), (120, 120, 120))  # one per seat (BGR)


class _Builder:
    """Lays the deals out on the timeline (see :func:`build_script`)."""

    def __init__(self, rules: Rules, seed: int, layout: TableLayout, mat: MatSize, pace: Pace) -> None:
        self.rules = rules
        self.pace = pace
        self.rng = random.Random(seed * 7919 + 17)  # the staging's own stream: the deals stay as table.sim makes them
        self.front_rng = random.Random(seed * 104729 + 3)  # up-cards turned in front of the dealer (their own stream)
        self.layout = layout
        self.mat = mat
        self.sprites: list[Sprite] = []
        self.arms: list[Arm] = []
        self.buttons: list[ButtonPress] = []
        self.rests: list[CardRest] = []
        self.z = 0
        self.f = 6  # a few quiet frames first: the calibration finds the markers on an empty mat

    # --- geometry helpers (mat millimetres)

    def mm(self, u: float, v: float) -> Point:
        return (u * self.mat.width_mm, v * self.mat.height_mm)

    def edge_point(self, edge: int, along: float, out: float = 70.0) -> Point:
        """A point ``out`` mm beyond the mat edge ``edge`` (0 bottom, 1 left, 2 top, 3 right), ``along`` 0-1."""
        w, h = self.mat.width_mm, self.mat.height_mm
        if edge == 0:
            return (along * w, h + out)
        if edge == 1:
            return (-out, along * h)
        if edge == 2:
            return (along * w, -out)
        return (w + out, along * h)

    def seat_edge(self, seat: int) -> int:
        return self.layout.edge_of_seat(seat)

    def along_of(self, edge: int, p: Point) -> float:
        return p[0] / self.mat.width_mm if edge in (0, 2) else p[1] / self.mat.height_mm

    def facing(self, edge: int) -> float:
        """The angle of a card laid upright as seen by the player at ``edge``."""
        return {0: 0.0, 1: math.pi / 2, 2: math.pi, 3: -math.pi / 2}[edge]

    def zone_spot(self, zone: Zone, margin: float = 0.25) -> Point:
        rect = self.layout.zone_rects()[zone]
        u = rect.x1 + (rect.x2 - rect.x1) * self.rng.uniform(margin, 1 - margin)
        v = rect.y1 + (rect.y2 - rect.y1) * self.rng.uniform(margin, 1 - margin)
        return self.mm(u, v)

    def sprite(self, card: Card | None, keys: list[Key], end: int) -> Sprite:
        self.z += 1
        s = Sprite(card, keys, end, self.z)
        self.sprites.append(s)
        return s

    def arm(self, edge: int, path: list[tuple[int, float, float]], colour: tuple[int, int, int]) -> None:
        start = path[0]
        base = self.edge_point(edge, self.along_of(edge, (start[1], start[2])), out=160.0)
        self.arms.append(Arm(base, tuple(path), colour))

    def press(self, action: Input, gap: int | None = None) -> None:
        self.buttons.append(ButtonPress(self.f, action))
        self.f += gap if gap is not None else self.pace.bid_gap

    # --- staging

    def deal(self, d: SimDeal, number: int, turner: int | None = None, in_front: bool = False) -> None:
        """Stage one deal. ``turner``: the seat that deals and turns the up-card (default the dealer; another
        seat steals the deal). ``in_front``: the up-card is turned face up in front of the turner, held a
        moment, then carried to the kitty (else turned on the kitty, as usual)."""
        turner = d.dealer if turner is None else turner
        dealer_edge = self.seat_edge(turner)
        sleeve = _SLEEVES[turner]
        kitty_at = self.zone_spot(KITTY, 0.4)
        start = self.edge_point(dealer_edge, self.along_of(dealer_edge, kitty_at), out=40.0)
        # The kitty lies long side along the mat's short side whoever deals: across, it would reach the
        # corner marker beside the kitty zone.
        a0 = self.rng.choice((0.0, math.pi)) + self.rng.uniform(-0.2, 0.2)
        f0, f1 = self.f, self.f + self.pace.slide
        kitty: list[Sprite] = []
        for k in range(3):  # the undealt cards, face down, under the up-card
            jx, jy = self.rng.uniform(-3, 3), self.rng.uniform(-3, 3)
            keys = [
                Key(f0, start[0] + jx, start[1] + jy, a0, False),
                Key(f1, kitty_at[0] + jx, kitty_at[1] + jy, a0 + 0.05 * (k - 1), False),
            ]
            kitty.append(self.sprite(None, keys, FOREVER))
        ups = [x for x in d.inputs if isinstance(x, UpCard)]
        in_front = in_front and len(ups) == 1
        if not in_front:
            self.arm(dealer_edge, [(f0 - 1, *start), (f1, *kitty_at), (f1 + 3, *kitty_at), (f1 + 6, *start)], sleeve)
        up_sprites: list[Sprite] = []
        flip = f1 + 4
        for i, up in enumerate(ups):
            a = a0 + self.rng.uniform(-0.15, 0.15)
            keys = [
                Key(f0, start[0], start[1], a, False),
                Key(f1, kitty_at[0], kitty_at[1], a, False),
                Key(flip, kitty_at[0], kitty_at[1], a, True),
            ]
            if in_front:
                keys, flip = self.turned_in_front(turner, start, kitty_at, a, f0, f1, sleeve)
            s = self.sprite(up.card, keys, FOREVER)
            up_sprites.append(s)
            self.rests.append(CardRest(flip, up.card, KITTY, None, number, "up_card"))
            if i < len(ups) - 1:  # a set-aside Benny: shown, turned down, moved off beside the kitty; the next turned
                shown = flip + self.pace.first_bid
                s.keys.append(Key(shown, kitty_at[0], kitty_at[1], a, True))
                s.keys.append(Key(shown + 1, kitty_at[0], kitty_at[1], a, False))
                s.keys.append(Key(shown + 1 + self.pace.slide, kitty_at[0] - 90, kitty_at[1], a, False))
                s.end = shown + 5 + self.pace.slide
                flip = shown + 3 + self.pace.slide
        # The kitty's top card is the one turned first: a set-aside Benny lies over the cards turned after it.
        for s, z in zip(up_sprites, sorted((u.z for u in up_sprites), reverse=True), strict=True):
            s.z = z
        self.f = max(flip + self.pace.first_bid, f1 + 7)
        up_sprite = up_sprites[-1] if up_sprites else None

        passes_round1 = 0
        took_up = any(isinstance(x, Discard) for x in d.inputs)  # the dealer took the up-card (and discarded)
        trick_i, play_i = 0, 0
        made = False  # trump made (a bid before it, or the blind lone, takes the up-card)
        trick_sprites: list[Sprite] = []
        pending_gather = False
        for inp in d.inputs:
            if isinstance(inp, UpCard):
                continue
            if pending_gather and isinstance(inp, Play):
                self.gather(trick_sprites, d.tricks[trick_i - 1].winner if trick_i > 0 else d.dealer)
                trick_sprites, pending_gather = [], False
            if isinstance(inp, NameTrump):
                made = True
            if isinstance(inp, Pass):
                self.press(inp)
                passes_round1 += 1
                if passes_round1 == 4 and up_sprite is not None:  # round 1 over: the up-card turned down
                    p = up_sprite.pose(self.f)
                    assert p is not None
                    up_sprite.keys.append(Key(self.f, p.x, p.y, p.angle, True))
                    up_sprite.keys.append(Key(self.f + 1, p.x, p.y, p.angle, False))
                    here = (p.x, p.y)
                    self.arm(dealer_edge, [(self.f - 3, *start), (self.f, *here), (self.f + 3, *start)], sleeve)
                    self.f += 4
            elif (
                isinstance(inp, OrderUp)
                or (isinstance(inp, NameTrump) and d.round_made == 0)
                or (isinstance(inp, GoAlone) and not made)
            ):
                # Ordered up, a turned-up Benny named blind, or a blind lone on a turned-up jack: the
                # dealer's card.
                made = True
                self.press(inp)
                if up_sprite is not None and took_up:
                    # The dealer takes the up-card into the hand.
                    p = up_sprite.pose(self.f)
                    assert p is not None
                    up_sprite.keys.append(Key(self.f + 2, p.x, p.y, p.angle, True))
                    up_sprite.keys.append(Key(self.f + 2 + self.pace.slide, start[0], start[1], p.angle, True))
                    up_sprite.end = self.f + 2 + self.pace.slide
                    here = (p.x, p.y)
                    path = [(self.f - 1, *start), (self.f + 2, *here), (self.f + 2 + self.pace.slide, *start)]
                    self.arm(dealer_edge, path, sleeve)
                    self.f += self.pace.slide + 4
            elif isinstance(inp, Play):
                if self.rng.random() < self.pace.sweep_chance:
                    self.sweep()
                trick_sprites.append(self.play(inp, number))
                play_i += 1
                if play_i == len(d.tricks[trick_i].plays):
                    trick_i, play_i = trick_i + 1, 0
                    pending_gather = True
            else:  # NameTrump, GoAlone, Discard, DismissRenege, AcceptPenalty: buttons
                self.press(inp, gap=self.pace.gap if isinstance(inp, DismissRenege | AcceptPenalty) else None)
        if pending_gather or trick_sprites:
            winner = d.tricks[trick_i - 1].winner if trick_i > 0 and d.tricks[trick_i - 1].winner >= 0 else d.dealer
            self.gather(trick_sprites, winner)
        # The dealer clears the kitty away.
        f0 = self.f
        for s in [*kitty, *(u for u in up_sprites if u.end > f0)]:
            p = s.pose(f0)
            if p is None:
                continue
            s.keys.append(Key(f0 + 2, p.x, p.y, p.angle, False))
            s.keys.append(Key(f0 + 2 + self.pace.slide, start[0], start[1], p.angle, False))
            s.end = f0 + 2 + self.pace.slide
        self.arm(dealer_edge, [(f0 - 1, *start), (f0 + 2, *kitty_at), (f0 + 2 + self.pace.slide, *start)], sleeve)
        self.f = f0 + self.pace.slide + 6

    def turned_in_front(
        self, turner: int, start: Point, kitty_at: Point, angle: float, f0: int, f1: int, sleeve: tuple[int, int, int]
    ) -> tuple[list[Key], int]:
        """The up-card turned face up in the turner's own zone, held there two frames, then carried to the
        kitty face up by its near end (a slow push: the camera follows it). Its keys and the frame it rests.

        Draws from its own random stream, so the rest of the staging stays as it is without this."""
        rng = self.front_rng
        rect = self.layout.zone_rects()[Zone.of_seat(turner)]
        w, h = self.mat.width_mm, self.mat.height_mm

        def span(p: Point) -> float:
            return math.hypot((kitty_at[0] - p[0]) / w, (kitty_at[1] - p[1]) / h)

        # Turned in the middle of the player's zone, on the side away from the kitty (the seats beside the
        # kitty's corner turn it where they sit, not on the kitty's doorstep).
        spots = [
            self.mm(rect.x1 + (rect.x2 - rect.x1) * rng.uniform(0.35, 0.65),
                    rect.y1 + (rect.y2 - rect.y1) * rng.uniform(0.35, 0.65))
            for _ in range(3)
        ]  # fmt: skip
        spot = max(spots, key=span)
        # Carried at an even pace, a key a frame: each step long enough that the card is never at rest on the
        # way (TrackerConfig.rest_distance, 0.08 of the mat) and short enough to follow (move_distance, 0.25).
        steps = max(1, int(span(spot) // 0.1))
        up, rest = f1 + 1, f1 + 2 + steps
        keys = [
            Key(f0, start[0], start[1], angle, False),
            Key(f1, spot[0], spot[1], angle, False),
            Key(up, spot[0], spot[1], angle, True),
            Key(up + 1, spot[0], spot[1], angle, True),
        ]
        for k in range(1, steps + 1):
            q = k / steps
            x, y = spot[0] + (kitty_at[0] - spot[0]) * q, spot[1] + (kitty_at[1] - spot[1]) * q
            keys.append(Key(up + 1 + k, x, y, angle, True))
        edge = self.seat_edge(turner)
        # The turner's hand: the kitty down (its cards slide with it), back to the card, then pushing it by
        # its near end to the kitty and away.
        near, near_kitty = self.near_end(edge, spot), self.near_end(edge, kitty_at)
        path = [(f0 - 1, *start), (f1, *near), (up + 1, *near), (rest, *near_kitty), (rest + 4, *start)]
        self.arm(edge, path, sleeve)
        return keys, rest

    def play(self, inp: Play, number: int) -> Sprite:
        edge = self.seat_edge(inp.seat)
        zone = Zone.of_seat(inp.seat)
        target = self.zone_spot(zone)
        start = self.edge_point(edge, self.along_of(edge, target), out=30.0)
        angle = self.facing(edge) + self.rng.uniform(-0.3, 0.3)
        f0, rest = self.f, self.f + self.pace.slide
        s = self.sprite(
            inp.card,
            [Key(f0, start[0], start[1], angle, True), Key(rest, target[0], target[1], angle, True)],
            FOREVER,
        )
        # The hand holds the card by its near end (towards the player) and lets go when it rests.
        near = self.near_end(edge, target)
        near0 = self.near_end(edge, start)
        back = self.edge_point(edge, self.along_of(edge, target), out=60.0)
        self.arm(edge, [(f0, *near0), (rest, *near), (rest + 3, *back)], _SLEEVES[inp.seat])
        self.rests.append(CardRest(rest, inp.card, zone, inp.seat, number, "play"))
        self.f = rest + self.pace.gap
        return s

    def near_end(self, edge: int, p: Point) -> Point:
        d = 0.45 * CARD_HEIGHT_MM
        dx, dy = {0: (0.0, d), 1: (-d, 0.0), 2: (0.0, -d), 3: (d, 0.0)}[edge]
        return (p[0] + dx, p[1] + dy)

    def gather(self, cards: list[Sprite], winner: int) -> None:
        """The trick pushed together, turned down and taken to the winner's side."""
        if not cards:
            return
        edge = self.seat_edge(winner)
        centre = self.mm(0.5, 0.5)
        away = self.edge_point(edge, self.along_of(edge, centre), out=40.0)
        f0 = self.f + 2
        push, slide = self.pace.push, self.pace.slide
        for i, s in enumerate(cards):
            p = s.pose(f0)
            if p is None:
                continue
            jx, jy = self.rng.uniform(-4, 4), self.rng.uniform(-4, 4)
            s.keys.append(Key(f0, p.x, p.y, p.angle, True))
            s.keys.append(Key(f0 + push, centre[0] + jx, centre[1] + jy, self.facing(edge) + 0.05 * i, True))
            s.keys.append(Key(f0 + push + 1, centre[0] + jx, centre[1] + jy, self.facing(edge) + 0.05 * i, False))
            s.keys.append(Key(f0 + push + 1 + slide, away[0] + jx, away[1] + jy, self.facing(edge), False))
            s.end = f0 + push + 1 + slide
        self.arm(edge, [(f0 - 2, *away), (f0 + push, *centre), (f0 + push + 1 + slide, *away)], _SLEEVES[winner])
        self.f = f0 + push + 1 + slide + 2

    def sweep(self) -> None:
        """Someone reaches across the table (a drink, a score sheet): an arm over the cards, then gone."""
        seat = self.rng.randrange(4)
        edge = self.seat_edge(seat)
        start = self.edge_point(edge, self.rng.uniform(0.3, 0.7), out=40.0)
        far = self.mm(self.rng.uniform(0.25, 0.75), self.rng.uniform(0.25, 0.75))
        f0 = self.f
        path = [(f0, *start), (f0 + self.pace.sweep // 2, *far), (f0 + self.pace.sweep, *start)]
        self.arm(edge, path, _SLEEVES[seat])
        self.f = f0 + self.pace.sweep + 2


# The camera does not see the dealer's discard (it goes face down) and the panel has no discard button:
# the app infers an unseen discard when the first card is led, so the script never shows one.
_ODDS = BiddingOdds(discard_seen=0.0)


def odds_for(rules: Rules) -> BiddingOdds:
    """How the scripted players bid under ``rules``: every declaration the rules allow comes up often.

    A 24-hand run sees several of each: a defender alone (where allowed: a quarter of the deals or so),
    no trump (a third of the suits named in round 2, where played), the blind lone (half the turned-up
    jacks a dealer may go alone on), the Benny turned up (one deal in six with the Benny in the deck,
    against one in 25 from the shuffle alone), stick the dealer (round 2 reaches the dealer more often
    with fewer names) and super-euchre (makers taking no trick: more orders on weak hands). North
    American rules keep the plain odds, as the earlier figures were measured with.
    """
    plain = rules.defender_may_go_alone is DefenderAlone.NEVER and not (
        rules.has_benny or rules.no_trump or rules.blind_lone or rules.stick_the_dealer or rules.super_euchre
    )
    if plain:
        return _ODDS
    return replace(
        _ODDS,
        order_up=0.3,
        name_trump=0.3 if rules.stick_the_dealer else 0.35,
        no_trump=0.35,
        defender_alone=0.15,
        late_alone=0.08,
        blind_lone=0.5,
        benny_up=1 / 6,
    )


def with_panel_presses(
    rules: Rules, first_dealer: int, timeline: Sequence[Input], buttons: Sequence[ButtonPress]
) -> list[ButtonPress]:
    """``buttons`` with the panel presses that make each (:class:`ButtonPress`), the game followed through.

    ``timeline`` is every input of the table in order (the camera's and the buttons'); ``buttons`` are the
    button inputs among them, in the same order. A press the panel cannot make raises ``ValueError``.
    """
    from companion.session import panel_presses

    match = Match(rules, first_dealer)
    out: list[ButtonPress] = []
    pending = iter(buttons)
    nxt = next(pending, None)
    for inp in timeline:
        if nxt is not None and inp is nxt.action:
            out.append(replace(nxt, panel=tuple(_presses(match, inp, panel_presses))))
            nxt = next(pending, None)
        match.apply(inp)
    if nxt is not None:
        raise ValueError(f"a button press not in the table's inputs: {nxt}")
    return out


def _presses(match: Match, inp: Input, panel_presses: Callable[[Match, Input], list[Action]]) -> list[Action]:
    if isinstance(inp, Discard) and inp.card is None:
        return []  # the unseen discard: the app infers it when the first card is led
    if isinstance(inp, DismissRenege):
        return [Action(ButtonAction.DISMISS_RENEGE)]
    if isinstance(inp, AcceptPenalty):
        return [Action(ButtonAction.ACCEPT_PENALTY)]
    if isinstance(inp, NewGame):
        return [Action(ButtonAction.NEW_GAME)]
    return panel_presses(match, inp)


def build_script(
    seed: int,
    hands: int | None = None,
    renege_rate: float = 0.0,
    rules: Rules | None = None,
    layout: TableLayout | None = None,
    pace: Pace | None = None,
    odds: BiddingOdds | None = None,
    turned_in_front: float = 0.0,
    stolen: Mapping[int, int] | None = None,
    steal_rate: float = 0.0,
) -> TableScript:
    """The table's timeline: ``hands`` deals that are played out (thrown-in deals come on top), or one game.

    ``hands=None`` plays one whole game to its end. Over several games a
    ``NewGame`` button starts the next one (the deal passes on as usual).
    ``odds`` (default :func:`odds_for` the rules) are how the scripted players bid and declare.
    ``turned_in_front``: the share of deals whose dealer turns the up-card face up in front of them and
    carries it to the kitty (its own random stream: 0, the default, stages every deal as before).
    ``stolen``: deal number -> the seat that deals it instead of the dealer (the deal stolen; its up-card
    turned in front of that seat, so the camera can tell). The deals and bids stay the script's.
    ``steal_rate``: besides those, the share of deals another seat (at random) steals, the same way.
    """
    rules = rules if rules is not None else Rules()
    layout = layout if layout is not None else TableLayout()
    if hands is not None and hands < 1:
        raise ValueError(f"hands must be at least 1: {hands}")
    if not 0.0 <= renege_rate <= 1.0:
        raise ValueError(f"renege_rate must be between 0 and 1: {renege_rate}")
    rng = random.Random(seed)
    pace = pace if pace is not None else Pace()
    odds = odds if odds is not None else odds_for(rules)
    b = _Builder(rules, seed, layout, MAT, pace)
    timeline: list[Input] = []  # every input in the table's order, for the panel presses
    front_rng = random.Random(seed * 15485863 + 11)  # which deals' up-cards are turned in front of the dealer
    thieves: dict[int, int] = {}
    deals: list[SimDeal] = []
    deal_games: list[int] = []
    game = 0
    dealer = rng.randrange(4)
    score = (0, 0)
    played = 0
    played_out = 0
    while True:
        d = simulate_deal(rules, rng, dealer, number=len(deals), renege_rate=renege_rate, odds=odds)
        deals.append(d)
        timeline.extend(d.inputs)
        deal_games.append(game)
        number = len(deals) - 1
        thief = (stolen or {}).get(number)
        if thief is None and steal_rate > 0 and front_rng.random() < steal_rate:
            thief = (d.dealer + front_rng.randrange(1, 4)) % 4
        if thief is not None and thief != d.dealer:
            thieves[number] = thief
        front = thief is not None or (turned_in_front > 0 and front_rng.random() < turned_in_front)
        b.deal(d, number, thief, front)
        score = (score[0] + d.points[0], score[1] + d.points[1])
        if d.reason != "renege_replay":
            played += 1
            dealer = (dealer + 1) % 4
        if not d.thrown_in:
            played_out += 1
        over, _winner = game_over(rules, score, played)
        if hands is None and over:
            break
        if hands is not None and played_out >= hands:
            break
        if over:
            b.press(NewGame(dealer, (0, 0)), gap=6)
            timeline.append(b.buttons[-1].action)
            game += 1
            score, played = (0, 0), 0
    buttons = with_panel_presses(rules, deals[0].dealer, timeline, b.buttons)
    return TableScript(
        rules=rules,
        seed=seed,
        renege_rate=renege_rate,
        deals=deals,
        deal_games=deal_games,
        sprites=b.sprites,
        arms=b.arms,
        buttons=buttons,
        rests=b.rests,
        frames=b.f + 4,
        final_score=score,
        hands=hands,
        stolen=thieves,
        layout=layout,
        mat=MAT,
        pace=pace,
    )


# ---------------------------------------------------------------- drawing


def camera_homography(
    mat: MatSize, frame_size: tuple[int, int], tilt_deg: float = 12.0, roll_deg: float = 2.0
) -> Matrix:
    """Mat millimetres to frame pixels for a camera above the mat, tilted ``tilt_deg`` towards seat 0's side."""
    t, r = math.radians(tilt_deg), math.radians(roll_deg)
    ct, st, cr, sr = math.cos(t), math.sin(t), math.cos(r), math.sin(r)
    rot = np.array([[cr, -sr, 0], [sr, cr, 0], [0, 0, 1]]) @ np.array([[1, 0, 0], [0, ct, -st], [0, st, ct]])
    w, h = mat.width_mm, mat.height_mm
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    cam = np.hstack([corners - [w / 2, h / 2], np.zeros((4, 1))]) @ rot.T + [0.0, 0.0, 1.4 * w]
    proj = cam[:, :2] / cam[:, 2:3]
    lo, hi = proj.min(axis=0), proj.max(axis=0)
    fw, fh = frame_size
    scale = 0.9 * min(fw / (hi[0] - lo[0]), fh / (hi[1] - lo[1]))
    pix = (proj - (lo + hi) / 2) * scale + [fw / 2, fh / 2]
    import cv2

    return np.asarray(cv2.getPerspectiveTransform(corners.astype(np.float32), pix.astype(np.float32)), np.float64)


def _apply(h: Matrix, pts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    p = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    out: npt.NDArray[np.float64] = p[:, :2] / p[:, 2:3]
    return out


@dataclass(frozen=True)
class SeenCard:
    """Ground truth for one face-up card in one frame: its corners (TL, TR, BR, BL, frame pixels) and visible share."""

    card: Card
    corners: tuple[Point, Point, Point, Point]
    visible: float


def load_deck(
    style: str, art_dir: Path | None, deck_size: int = 25
) -> tuple[dict[Card, npt.NDArray[np.uint8]], npt.NDArray[np.uint8], str]:
    """BGRA faces of every card of a ``deck_size`` deck (``table.cards.deck``) in ``style``, a back, and what was used.

    7s and 8s come from the deck's own artwork (a deck without them is an error for a 28-, 32- or 33-card
    table). A deck with no Joker gets a plain drawn one (a face in the procedural style, at the deck's
    proportions), as a pub adds a spare card to stand in for it; :func:`joker_stand_in` says when. Falls back
    to procedural faces when the fetched artwork is not there.
    """
    from lab.synth import faces as synth_faces

    art = art_dir if art_dir is not None else Path(__file__).resolve().parent.parent / "work-data" / "art"
    wanted = [str(c) for c in deck(deck_size)]
    from lab.synth.fetch_art import deck_names

    if not style.startswith("procedural") and style not in deck_names():
        from vision.errors import UserError

        known = ", ".join(sorted(deck_names()))
        raise UserError(f"--deck-style {style!r}: no such deck; known decks: {known}, or procedural-N")
    if style.startswith("procedural"):
        fs = None
    elif (art / "manifest.csv").is_file():
        fs = synth_faces.load_manifest(art, decks={style})
        if style not in fs.faces:
            from vision.errors import UserError

            raise UserError(f"--deck-style {style!r}: no such deck in {art}/manifest.csv")
    else:
        fs = None
    if fs is None:
        # Procedural style 2 (not one of the two styles the training set's procedural decks use).
        faces = {Card.parse(c): synth_faces.procedural_face(c, 2) for c in wanted}
        return faces, synth_faces.procedural_back(1), "procedural-2"
    cards = fs.faces[style]
    missing = [c for c in wanted if c not in cards and c != "B"]
    if missing:
        from vision.errors import UserError

        raise UserError(f"--deck-style {style!r}: the deck lacks {', '.join(missing)} ({deck_size}-card rules)")
    faces = {Card.parse(c): cards[c] for c in wanted if c in cards}
    if "B" in wanted and "B" not in cards:
        h, w = cards[wanted[0]].shape[:2]
        faces[BENNY] = np.asarray(_resize(synth_faces.procedural_face("B", 2, height=h), (w, h)), np.uint8)
    back_path = art / "faces" / style / "back.png"
    import cv2

    back = cv2.imread(str(back_path), cv2.IMREAD_UNCHANGED) if back_path.is_file() else None
    if back is None or back.ndim != 3 or back.shape[2] != 4:
        back = synth_faces.procedural_back(1)
    return faces, np.asarray(back, np.uint8), style


def joker_stand_in(style: str, art_dir: Path | None) -> bool:
    """Does ``style``'s artwork lack a Joker (so :func:`load_deck` draws a plain one for a Benny table)?"""
    if style.startswith("procedural"):
        return False
    art = art_dir if art_dir is not None else Path(__file__).resolve().parent.parent / "work-data" / "art"
    manifest = art / "manifest.csv"
    if not manifest.is_file():
        return False
    import csv

    with open(manifest, newline="") as fh:
        return not any(row["deck"] == style and row["card"] == "B" for row in csv.DictReader(fh))


def _resize(img: npt.NDArray[np.uint8], size: tuple[int, int]) -> npt.NDArray[np.uint8]:
    import cv2

    return np.asarray(cv2.resize(img, size, interpolation=cv2.INTER_AREA), np.uint8)


class TableRenderer:
    """Draws the frames of a :class:`TableScript`; same script and seed, same pixels.

    ``detail`` > 1 draws each frame ``detail`` times larger, as a Pi camera's ``main`` stream beside its
    ``lores`` one: :meth:`render` gives that picture shrunk to ``frame_size`` (``cv2.INTER_AREA``, as the
    ISP scales the small stream from the same sensor picture), :meth:`render_pair` both. Everything else
    (outlines, calibration, what is visible) is in ``frame_size`` pixels either way. ``detail`` 1 draws
    exactly as it always has.
    """

    def __init__(
        self,
        script: TableScript,
        faces: dict[Card, npt.NDArray[np.uint8]],
        back: npt.NDArray[np.uint8],
        frame_size: tuple[int, int] = FRAME_SIZE,
        seed: int = 0,
        noise: float = 3.0,
        detail: int = 1,
    ) -> None:
        import cv2

        from lab.synth.scenes import background

        if detail < 1:
            raise ValueError(f"detail must be 1 or more, not {detail}")
        self.script = script
        self.size = frame_size
        self.detail = detail
        w, h = self.draw_size = (frame_size[0] * detail, frame_size[1] * detail)
        rng = np.random.default_rng(seed + 1000)
        self.h_cam = camera_homography(script.mat, frame_size, tilt_deg=float(rng.uniform(6, 14)),
                                       roll_deg=float(rng.uniform(-3, 3)))  # fmt: skip
        # The camera as drawn: the same, in the drawn picture's pixels.
        self.h_draw = self.h_cam if detail == 1 else np.diag([float(detail), float(detail), 1.0]) @ self.h_cam
        # The table around the mat, and the printed mat warped onto it once.
        table = np.asarray(background(np.random.default_rng(seed + 7), h, w), np.float32)
        mat_ppm = 2.0 * detail
        mat = render_mat(script.mat, mat_ppm, script.layout, footer=False).astype(np.float32) * np.float32(0.93)
        to_frame = self.h_draw @ np.diag([1 / mat_ppm, 1 / mat_ppm, 1.0])
        warped = cv2.warpPerspective(mat, to_frame, (w, h), flags=cv2.INTER_AREA)
        cover = cv2.warpPerspective(np.ones(mat.shape[:2], np.float32), to_frame, (w, h), flags=cv2.INTER_LINEAR)
        self.base = (table * (1 - cover[..., None]) + warped * cover[..., None]).astype(np.float32)
        # Faces and back scaled once to a little above the camera's scale, premultiplied by alpha.
        self.faces = {c: self._prepare(img) for c, img in faces.items()}
        self.back = self._prepare(back)
        # Light that drifts: a slow gain and a slowly turning ramp, evaluated small and enlarged per frame.
        self.light_phase = rng.uniform(0, 2 * math.pi, 3)
        self.noise = [
            (rng.standard_normal((h, w, 1)) * noise).astype(np.float32) for _ in range(6)
        ] if noise > 0 else []  # fmt: skip
        self.skin = np.array([(90, 130, 185), (70, 100, 150), (120, 160, 210), (60, 80, 120)][int(rng.integers(4))],
                             np.float32)  # fmt: skip

    def true_calibration(self) -> Calibration:
        """The exact frame-pixels-to-mat calibration of this camera (what the markers should give)."""
        to_unit = np.diag([1 / self.script.mat.width_mm, 1 / self.script.mat.height_mm, 1.0])
        return Calibration.from_matrix(to_unit @ np.linalg.inv(self.h_cam), "markers")

    def _prepare(self, img: npt.NDArray[np.uint8]) -> tuple[FloatImage, Matrix]:
        """A face scaled to ``FACE_PX_PER_MM`` (float premultiplied BGRA) and its pixels-to-card-mm transform."""
        import cv2

        fh, fw = img.shape[:2]
        aspect = fw / fh
        th = round(CARD_HEIGHT_MM * FACE_PX_PER_MM * self.detail)
        tw = round(th * aspect)
        small = cv2.resize(img, (tw, th), interpolation=cv2.INTER_AREA).astype(np.float32)
        small[:, :, :3] *= small[:, :, 3:4] / 255.0
        small[:, :, 3] /= 255.0
        # Face pixel (0, 0) is the card's top-left corner; card mm are centred on the card.
        wmm, hmm = CARD_HEIGHT_MM * aspect, CARD_HEIGHT_MM
        to_mm = np.array([[wmm / tw, 0, -wmm / 2], [0, hmm / th, -hmm / 2], [0, 0, 1]], np.float64)
        return small, to_mm

    def card_matrix(self, key: Key, to_mm: Matrix, drawn: bool = False) -> Matrix:
        """Face pixels to frame pixels (``drawn``: to the drawn picture's pixels)."""
        c, s = math.cos(key.angle), math.sin(key.angle)
        pose = np.array([[c, -s, key.x], [s, c, key.y], [0, 0, 1]], np.float64)
        out: Matrix = (self.h_draw if drawn else self.h_cam) @ pose @ to_mm
        return out

    def card_quad(self, card: Card | None, key: Key) -> npt.NDArray[np.float64]:
        img, to_mm = self.faces[card] if card is not None and key.face_up else self.back
        th, tw = img.shape[:2]
        corners = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float64)
        return _apply(self.card_matrix(key, to_mm), corners)

    def arm_polygons(
        self, frame: int, drawn: bool = False
    ) -> list[tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], Arm]]:
        """Each arm in view: its sleeve polygon and its hand polygon, in frame pixels (``drawn``: in the drawn
        picture's)."""
        cam = self.h_draw if drawn else self.h_cam
        out = []
        for arm in self.script.arms:
            hand = arm.hand(frame)
            if hand is None:
                continue
            bx, by = arm.base
            hx, hy = hand
            length = math.hypot(hx - bx, hy - by)
            if length < 1:
                continue
            ux, uy = (hx - bx) / length, (hy - by) / length
            nx, ny = -uy, ux
            half = 38.0  # a forearm is about 75 mm across
            wrist = (hx - ux * 45, hy - uy * 45)
            sleeve = np.array(
                [
                    [bx + nx * half * 1.2, by + ny * half * 1.2],
                    [wrist[0] + nx * half, wrist[1] + ny * half],
                    [wrist[0] - nx * half, wrist[1] - ny * half],
                    [bx - nx * half * 1.2, by - ny * half * 1.2],
                ]
            )
            t = np.linspace(0, 2 * math.pi, 16, endpoint=False)
            # The hand: an ellipse 100 mm long, 80 mm wide, centred just past the wrist.
            cx, cy = hx - ux * 5, hy - uy * 5
            ell = np.stack(
                [cx + ux * 50 * np.cos(t) + nx * 40 * np.sin(t), cy + uy * 50 * np.cos(t) + ny * 40 * np.sin(t)], 1
            )
            out.append((_apply(cam, sleeve).astype(np.int32), _apply(cam, ell).astype(np.int32), arm))
        return out

    def visible(self, frame: int) -> list[SeenCard]:
        """Ground truth of ``frame``: every face-up card and the share of it not covered (by cards or arms)."""
        import cv2

        w, h = self.size
        f = 4  # judged on a quarter-size mask: plenty for a share
        mask = np.full((h // f, w // f), -1, np.int32)
        drawn: list[tuple[int, Card | None, npt.NDArray[np.float64]]] = []
        for i, s in enumerate(sorted(self.script.sprites, key=lambda s: s.z)):
            key = s.pose(frame)
            if key is None:
                continue
            quad = self.card_quad(s.card, key)
            cv2.fillConvexPoly(mask, np.round(quad / f).astype(np.int32), i)
            drawn.append((i, s.card if key.face_up else None, quad))
        for sleeve, hand, _ in self.arm_polygons(frame):
            cv2.fillConvexPoly(mask, sleeve // f, -2)
            cv2.fillConvexPoly(mask, hand // f, -2)
        out: list[SeenCard] = []
        for i, card, quad in drawn:
            if card is None:
                continue
            area = abs(float(cv2.contourArea((quad / f).astype(np.float32))))
            if area < 1:
                continue
            share = min(1.0, float((mask == i).sum()) / area)
            corners = tuple((float(x), float(y)) for x, y in quad)
            out.append(SeenCard(card, (corners[0], corners[1], corners[2], corners[3]), share))
        return out

    def render(self, frame: int) -> Image:
        """The frame as the reader's finder sees it (``frame_size``)."""
        return self.render_pair(frame)[0]

    def render_pair(self, frame: int) -> tuple[Image, Image | None]:
        """The frame at ``frame_size``, and as drawn ``detail`` times larger (None where ``detail`` is 1)."""
        import cv2

        drawn = self._draw(frame)
        if self.detail == 1:
            return drawn, None
        small = cv2.resize(drawn, self.size, interpolation=cv2.INTER_AREA)
        return np.asarray(small, np.uint8), drawn

    def _draw(self, frame: int) -> Image:
        import cv2

        w, h = self.draw_size
        d = self.detail
        img = self.base.copy()
        for s in sorted(self.script.sprites, key=lambda s: s.z):
            key = s.pose(frame)
            if key is None:
                continue
            face, to_mm = self.faces[s.card] if s.card is not None and key.face_up else self.back
            m = self.card_matrix(key, to_mm, drawn=True)
            th, tw = face.shape[:2]
            quad = _apply(m, np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float64))
            x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 3 * d
            x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 4 * d
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
            if x1 - x0 < 2 or y1 - y0 < 2:
                continue
            shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
            patch = cv2.warpPerspective(face, shift @ m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
            alpha = patch[:, :, 3:4]
            roi = img[y0:y1, x0:x1]
            # A thin shadow down and to the right: cards have a thickness and the lamp is above.
            shadow = np.zeros_like(alpha)
            shadow[2 * d :, 2 * d :] = alpha[: -2 * d, : -2 * d]
            roi *= 1 - 0.35 * shadow
            roi[:] = roi * (1 - alpha) + patch[:, :, :3]
        for sleeve, hand, arm in self.arm_polygons(frame, drawn=True):
            # A soft shadow first (the arm is above the table), drawn only in the arm's box; then the arm.
            pts = np.vstack([sleeve, hand]) + 8 * d
            xa, ya = np.maximum(pts.min(axis=0) - 12 * d, 0)
            xb, yb = np.minimum(pts.max(axis=0) + 12 * d, [w, h])
            if xb - xa > 2 and yb - ya > 2:
                layer = np.zeros((yb - ya, xb - xa), np.float32)
                off = np.array([xa, ya], np.int32)
                cv2.fillConvexPoly(layer, sleeve + 8 * d - off, 1.0)
                cv2.fillConvexPoly(layer, hand + 8 * d - off, 1.0)
                soft = cv2.GaussianBlur(layer, (0, 0), 5 * d)
                roi = img[ya:yb, xa:xb]
                roi *= (1 - 0.3 * soft)[..., None]
            cv2.fillConvexPoly(img, sleeve, tuple(float(c) for c in arm.colour), cv2.LINE_AA)
            cv2.fillConvexPoly(img, hand, tuple(float(c) for c in self.skin), cv2.LINE_AA)
        self._light(img, frame)
        if self.noise:
            img += self.noise[frame % len(self.noise)]
        # Saturating conversion (values are never far below 0: the noise is small).
        return np.asarray(cv2.convertScaleAbs(img), np.uint8)

    def _light(self, img: FloatImage, frame: int) -> None:
        """Multiply ``img`` in place by the frame's light: a drifting gain, a turning ramp, a warm-cool tint."""
        import cv2

        w, h = self.draw_size
        p = self.light_phase
        gain = 1.0 + 0.12 * math.sin(frame / 97.0 + p[0])
        a = frame / 240.0 + p[1]
        ramp_strength = 0.18 + 0.08 * math.sin(frame / 61.0 + p[2])
        yy, xx = np.mgrid[0:6, 0:8].astype(np.float32)
        ramp = (xx - 3.5) / 8 * math.cos(a) + (yy - 2.5) / 6 * math.sin(a)
        warm = 0.04 * math.sin(frame / 150.0 + p[0])  # warm bulbs: blue a little down, red a little up
        tint = np.array([1 - warm, 1.0, 1 + warm], np.float32)
        small = (gain * (1.0 + ramp_strength * ramp))[..., None] * tint
        field_ = cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        cv2.multiply(img, field_, dst=img)


# ---------------------------------------------------------------- the pipeline


class OracleDetector:
    """A perfect detector from the renderer's ground truth: every face-up card at least ``min_visible`` in view."""

    def __init__(self, renderer: TableRenderer, min_visible: float = 0.5, confidence: float = 0.95) -> None:
        self.renderer = renderer
        self.min_visible = min_visible
        self.confidence = confidence

    def detect(self, frame_bgr: Image, frame: int = 0) -> list[CardDetection]:
        out = []
        for seen in self.renderer.visible(frame):
            if seen.visible < self.min_visible:
                continue
            xs = [p[0] for p in seen.corners]
            ys = [p[1] for p in seen.corners]
            box = (min(xs), min(ys), max(xs), max(ys))
            out.append(CardDetection(seen.card, self.confidence, box, frame, seen.corners))
        return out


def _look_alike(card: Card, rng: random.Random, cards: Sequence[Card] = deck(24)) -> Card:
    """A card a detector might take ``card`` for: the other suit of its colour (most often), or a rank next to it
    in ``cards`` (the deck in play)."""
    if card.suit is None or card.rank is None:
        return card
    ranks = [c.rank for c in cards if c.suit is card.suit]
    if rng.random() < 0.7:
        partner = card.suit.partner
        return Card.of(card.rank, partner)
    i = ranks.index(card.rank)
    j = i + (1 if i == 0 or (i < len(ranks) - 1 and rng.random() < 0.5) else -1)
    rank = ranks[j]
    assert rank is not None
    return Card.of(rank, card.suit)


class NoisyOracle(OracleDetector):
    """The oracle with a detector's faults: cards missed in some frames, misread as look-alikes, jittered, unsure.

    Deterministic: each frame's faults come from ``seed`` and the frame number. For testing the tracker and
    engine against readings like a real detector's, without the neural model.
    """

    def __init__(
        self,
        renderer: TableRenderer,
        seed: int = 0,
        miss: float = 0.1,
        misread: float = 0.03,
        jitter_px: float = 1.5,
    ) -> None:
        super().__init__(renderer)
        self.seed = seed
        self.miss = miss
        self.misread = misread
        self.jitter_px = jitter_px
        self.cards = deck(renderer.script.rules.deck_size)

    def detect(self, frame_bgr: Image, frame: int = 0) -> list[CardDetection]:
        rng = random.Random(self.seed * 1_000_003 + frame)
        out = []
        for det in super().detect(frame_bgr, frame):
            if rng.random() < self.miss:
                continue
            card, conf = det.card, rng.uniform(0.6, 0.98)
            if rng.random() < self.misread:
                card, conf = _look_alike(card, rng, self.cards), rng.uniform(0.3, 0.75)
            corners = tuple(
                (x + rng.gauss(0, self.jitter_px), y + rng.gauss(0, self.jitter_px)) for x, y in det.corners or ()
            )
            out.append(CardDetection(card, conf, det.box, frame, corners or None))
        return out


@dataclass
class Timings:
    """Seconds spent per stage over a run."""

    render: float = 0.0
    markers: float = 0.0
    detector: float = 0.0
    tracker: float = 0.0
    engine: float = 0.0
    frames: int = 0

    @property
    def pipeline(self) -> float:
        return self.markers + self.detector + self.tracker + self.engine


@dataclass(frozen=True)
class Landing:
    """An observation the pipeline turned into an engine input: what, where, on which frame."""

    frame: int
    card: Card
    zone: Zone
    kind: str  # "play" or "up_card"


# How long the players take to look at a card they are asked to check and press their answer: 1.5 s. (The
# simulated table gathers a trick two frames after its last card rests, far sooner than players do.)
ANSWER_DELAY_FRAMES = round(1.5 * DEFAULT_FPS)


@dataclass
class CheckAnswerer:
    """Players who answer "check this card" on the panel, as the app's session takes the answers
    (``TableSession.checked_landing``): ``delay`` frames after a check of a seat's card is said, where that card
    still lies in the newest trick with cards, is still recorded in doubt and the hand is being played, they look
    at it (the card at rest there in the script, ``rests``) and answer: Call where it is the card recorded, its
    suit button where only the suit is wrong, else Next reading as many times as the session's cycle of
    look-alikes needs. A card the cycle does not reach is left (``unreachable``). A check of the up-card is
    answered with the up-card at rest in the script: one read wrong while the table bids, else once the hand is
    played (Call or its suit button: ``TableSession.checked_up_card``). Each answer is the ``ReviseCard`` the
    session submits: a player's word, sure. ``simulate --answer-checks``."""

    rests: Sequence[CardRest]
    delay: int = ANSWER_DELAY_FRAMES
    asked: list[tuple[int, int, int]] = field(default_factory=list)  # (frame due, seat, input index of its play)
    up_asked: list[tuple[int, int]] = field(default_factory=list)  # (frame due, input index of an up-card in doubt)
    answered: int = 0
    presses: int = 0
    too_late: int = 0  # the trick was gathered (or the hand over) before the answer
    unreachable: int = 0

    def heard(self, frame: int, announcements: Sequence[Announcement], match: Match) -> None:
        """Note each check of a seat's play said now: the answer is due ``delay`` frames later; a check of the
        up-card likewise (while the table bids, or once the hand is played: ``_up_card_answers``)."""
        for a in announcements:
            if not isinstance(a, Irregularity) or a.kind is not IrregularityKind.CHECK_CARD:
                continue
            if a.source is CardSource.UP_CARD:
                up = match.up_card_in_doubt()
                if up is not None and all(i != up[0] for _, i in self.up_asked):
                    self.up_asked.append((frame + self.delay, up[0]))
            elif a.source is CardSource.PLAY and a.seat is not None:
                history = match.history
                index = next(
                    (i for i in range(len(history) - 1, -1, -1) if _is_play_by(history[i], a.seat)), None
                )
                if index is not None and all(i != index for _, _, i in self.asked):
                    self.asked.append((frame + self.delay, a.seat, index))

    def answers(self, frame: int, match: Match, gathered_at: int, last_landing: int) -> list[ReviseCard]:
        """The answers due by ``frame``; ``gathered_at``: the frame a trick was last seen gathered, ``last_landing``:
        the frame the last card landed (after the hand, its last trick may be answered for a while)."""
        from companion.session import CHECK_AFTER_HAND_FRAMES, reading_cycle, suit_answer, trick_in_sight

        out: list[ReviseCard] = self._up_card_answers(frame, match)
        due = [x for x in self.asked if x[0] <= frame]
        self.asked = [x for x in self.asked if x[0] > frame]
        for at, seat, index in due:
            recorded, rival = self._in_doubt(match, index)
            deal = match.last_deal
            if recorded is None:
                continue  # the camera was sure of it since
            in_play = match.phase is Phase.PLAY or (
                match.phase is Phase.HAND_OVER and frame - last_landing <= CHECK_AFTER_HAND_FRAMES)
            if deal is None or not in_play or not deal.tricks or gathered_at >= at - self.delay:
                self.too_late += 1
                continue
            in_sight = trick_in_sight(deal.tricks)
            if in_sight < 0 or (seat, recorded) not in deal.tricks[in_sight]:
                self.too_late += 1
                continue
            truth = next((r.card for r in reversed(self.rests) if r.frame <= frame and r.kind == "play"
                          and r.seat == seat), None)  # fmt: skip
            if truth is None:
                continue
            played = {c for trick in deal.tricks for _, c in trick} - {recorded}
            if truth in played:  # recorded at another seat: the session refuses it ("it cannot be ...")
                self.unreachable += 1
                continue
            if truth == recorded or suit_answer(recorded, truth) is not None:
                presses = 1  # Call, or the suit button
            else:
                cycle = reading_cycle(recorded, match.rules.deck_size, rival, played)
                if truth not in cycle:
                    self.unreachable += 1
                    continue
                presses = cycle.index(truth)
            self.answered += 1
            self.presses += presses
            out.append(ReviseCard(index, truth))
        return out

    def _up_card_answers(self, frame: int, match: Match) -> list[ReviseCard]:
        """The answers to checks of the up-card due by ``frame``. While the table bids, an up-card read wrong is
        answered as the session takes it then: another suit's button in the first round where only the suit is
        wrong, else Next reading as many times as its cycle of look-alikes needs (one the cycle does not reach is
        left); an up-card read right waits for the hand (Call and its suit are bids). While the hand is played, Call
        or its suit button (``TableSession.checked_up_card``). An up-card whose hand ended first is too late."""
        from companion.session import BIDDING_ROUNDS, reading_cycle, suit_answer

        out: list[ReviseCard] = []
        pending: list[tuple[int, int]] = []
        up = match.up_card_in_doubt()
        expected = match.expected.expected
        bidding = expected in BIDDING_ROUNDS
        for due, index in self.up_asked:
            if up is None or up[0] != index:
                self.too_late += match.phase is not Phase.PLAY and not bidding  # its hand is over (else settled)
                continue
            if due > frame or not (bidding or match.phase is Phase.PLAY):
                pending.append((due, index))
                continue
            _index, card, rival = up
            truth = next((r.card for r in reversed(self.rests) if r.frame <= frame and r.kind == "up_card"), None)
            by_suit = suit_answer(card, truth) is not None
            if truth is not None and bidding:
                if truth == card:
                    pending.append((due, index))  # confirmed once the hand is played
                    continue
                if by_suit and expected is Expect.BID_ROUND_1:
                    presses = 1  # the suit button: another suit orders nothing up in the first round
                else:
                    cycle = reading_cycle(card, match.rules.deck_size, rival)
                    if truth not in cycle:
                        self.unreachable += 1
                        continue
                    presses = cycle.index(truth)
            elif truth is None or not (truth == card or by_suit):
                self.unreachable += 1  # Call and the suit buttons answer an up-card in play; no cycle of look-alikes
                continue
            else:
                presses = 1
            self.answered += 1
            self.presses += presses
            out.append(ReviseCard(index, truth))
        self.up_asked = pending
        return out

    @staticmethod
    def _in_doubt(match: Match, index: int) -> tuple[Card | None, Card | None]:
        """The card the play input ``index`` records now and its rival, where it is still one to check (the
        latest revision of it, else the play itself); else (None, None)."""
        play = match.history[index]
        now = next((x for x in reversed(match.history) if isinstance(x, ReviseCard) and x.index == index), play)
        if not isinstance(now, Play | ReviseCard) or now.confidence >= CHECK_CONFIDENCE:
            return None, None
        return now.card, now.rival


def _is_play_by(inp: Input, seat: int) -> bool:
    return isinstance(inp, Play) and inp.seat == seat


class TablePipeline:
    """The table's chain on each frame: markers -> calibration, detector -> tracker -> engine, then the buttons.

    Observations become engine inputs as the app does it: an up-card shown
    while the engine waits for one (or for a decision on a renege proven by
    the last card of the hand, which the next deal dismisses), or one the
    engine takes as the next deal's mid-hand (cards went unseen; while a hand is
    played, once a bid is pressed after it and before another card lands), becomes
    ``UpCard`` (``Match.up_card_seen``, as in the app), and before anyone bids a
    surer reading of another card there revises it (``Match.up_card_revised``); a card landing in a
    seat's zone is that seat's ``Play`` (in the trick pile, the tracker's or
    the engine's expected seat); a revised reading becomes ``ReviseCard`` of
    the input that reported it, and so does a sure reading of an unseen card at a seat whose card in
    the trick being played was a card already played (``Match.misread_corrected``); a sure reading of
    a card another seat's play to be checked was read as first revises that play to its rival
    (``Match.doubted_duplicate``). An uncertain
    reading goes in with its confidence capped under ``CHECK_CONFIDENCE``, so the engine asks to check
    the card instead of alarming. A card lifted while it is the last play and its
    trick is still open, then replaced by another card from that seat, was taken
    back (``Match.taken_back``, as in the app): ``Undo``.
    Gathered tricks need no input. The seat the tracker saw turn the up-card goes with it (a deal out
    of turn). A bid made while the engine still waits for the up-card waits for
    it, as the app's session holds such presses (``HOLD_FRAMES`` at most).
    """

    def __init__(
        self,
        rules: Rules,
        detector: Detector,
        mat: MatSize = MAT,
        layout: TableLayout | None = None,
        calibration: Calibration | None = None,
        first_dealer: int = 0,
    ) -> None:
        self.detector = detector
        self.layout = layout if layout is not None else TableLayout()
        self.refresher = MarkerRefresher(marker_layout(mat), every=15, fallback=calibration)
        self.tracker: Tracker | None = None
        self.match = Match(rules, first_dealer)
        self.timings = Timings()
        self.announcements: list[tuple[int, Announcement]] = []
        self.landings: list[Landing] = []
        self._reported: dict[tuple[Zone, Card], int] = {}  # (zone, card) -> index of the input that reported it
        self._held: list[tuple[int, Input]] = []  # bids made before the up-card was seen: (frame, bid)
        self._kitty_seen: UpCardShown | None = None  # a card refused on the kitty mid-hand, none played since
        self._taken_back: tuple[Zone, Card, int] | None = None  # the last card played, lifted: (zone, card, seat)
        self.answerer: CheckAnswerer | None = None  # players who answer "check this card" (None: nobody does)
        self.gathered_at = -1  # the frame a trick was last seen gathered
        from companion.session import HOLD_FRAMES

        self._hold_frames = HOLD_FRAMES

    def step(
        self, frame: int, image: Image, buttons: Sequence[Input] = (), detail: Image | None = None
    ) -> list[Announcement]:
        """One frame: ``image`` as the finder sees it, ``detail`` (or None) the same view larger, as the Pi
        camera's ``main`` stream (``vision.detector.detect_frame``), and the buttons pressed in it."""
        t0 = time.perf_counter()
        cal = self.refresher.update(image, frame)
        t1 = time.perf_counter()
        self.timings.markers += t1 - t0
        out: list[Announcement] = []
        if cal is not None:
            detections = detect_frame(self.detector, image, frame, detail)
            t2 = time.perf_counter()
            self.timings.detector += t2 - t1
            if self.tracker is None:
                self.tracker = Tracker(cal, self.layout, cards=deck(self.match.rules.deck_size))
            else:
                self.tracker.calibration = cal
            observations = self.tracker.update(detections, frame, self.match.expected.seat,
                                               played=self.match.played_this_deal)
            t3 = time.perf_counter()
            self.timings.tracker += t3 - t2
            for obs in observations:
                out.extend(self._observe(obs))
        t4 = time.perf_counter()
        out.extend(self._answer_checks(frame))
        for inp in buttons:
            if isinstance(inp, _BIDS) and self.match.expected.expected is Expect.UP_CARD:
                self._held.append((frame, inp))
                continue
            if self._kitty_seen is not None and isinstance(inp, (Pass, OrderUp)) and self.match.in_play:
                out.extend(self._up_card(self._kitty_seen, bidding=True))
            out.extend(self._apply(inp, frame))
        self.timings.engine += time.perf_counter() - t4
        self.timings.frames += 1
        return out

    def _answer_checks(self, frame: int) -> list[Announcement]:
        """The players' answers to "check this card" due now (``answerer``; none without one)."""
        if self.answerer is None or self._kitty_seen is not None:  # (Call would be the next deal's bid: no answer)
            return []
        out: list[Announcement] = []
        last_landing = self.landings[-1].frame if self.landings else -1
        for answer in self.answerer.answers(frame, self.match, self.gathered_at, last_landing):
            out.extend(self._apply(answer, frame))
        return out

    def _apply(self, inp: Input, frame: int) -> list[Announcement]:
        result = self.match.apply(inp)
        self.announcements.extend((frame, a) for a in result)
        if self.answerer is not None:
            self.answerer.heard(frame, result, self.match)
        return result

    def _up_card(self, obs: UpCardShown, bidding: bool = False) -> list[Announcement]:
        """A card seen face up on the kitty: the up-card, where the engine takes it so (``Match.up_card_seen``).
        One it refuses while a hand is played is kept until a card is played, in case the table bids."""
        conf = _confidence(obs.confidence, obs.uncertain)
        up = self.match.up_card_seen(obs.card, conf, obs.turned_by, bidding=bidding, rival=obs.rival)
        if up is None:  # the up-card seen again or turned down (or a card that cannot be the next one)
            self._kitty_seen = obs if self.match.in_play and not bidding else None
            index = self.match.up_card_revised(obs.card, conf)
            if index is None:
                return []
            # A surer reading of another card before anyone bid: the up-card was misread.
            misread = self.match.deals[-1].up_card
            if misread is not None and self._reported.get((KITTY, misread)) == index:
                del self._reported[(KITTY, misread)]
            self._reported[(KITTY, obs.card)] = index
            self.landings.append(Landing(obs.frame, obs.card, KITTY, "up_card"))
            return self._apply(ReviseCard(index, obs.card), obs.frame)
        self._kitty_seen = None
        self._reported[(KITTY, obs.card)] = len(self.match)
        self.landings.append(Landing(obs.frame, obs.card, KITTY, "up_card"))
        out = self._apply(up, obs.frame)
        held, self._held = self._held, []
        for at, bid in held:
            if obs.frame - at <= self._hold_frames:
                out.extend(self._apply(bid, obs.frame))
        return out

    def _replaced(self, seat: int | None, card: Card, frame: int) -> list[Announcement]:
        """A card landing after the last card played was lifted: another card from that seat replaces it
        (the lifted one was taken back: ``Undo``, as the app's session does); any other landing leaves the
        lifted card played (the camera had only lost sight of it)."""
        assert self._taken_back is not None
        zone, lifted, lifted_seat = self._taken_back
        self._taken_back = None
        if seat != lifted_seat or card == lifted or not self.match.taken_back(lifted, lifted_seat):
            return []
        self._reported.pop((zone, lifted), None)
        return self._apply(Undo(), frame)

    def _observe(self, obs: Observation) -> list[Announcement]:
        t0 = time.perf_counter()
        try:
            if isinstance(obs, UpCardShown):
                return self._up_card(obs)
            if isinstance(obs, CardLanded):
                if obs.zone.kind is ZoneKind.KITTY:
                    return []
                self._kitty_seen = None
                in_pile = obs.zone.kind is not ZoneKind.SEAT
                seat = obs.seat if in_pile else obs.zone.seat
                out = self._replaced(seat, obs.card, obs.frame) if self._taken_back is not None else []
                conf = _confidence(obs.confidence, obs.uncertain)
                old = self.match.misread_corrected(obs.card, conf, seat) if seat is not None and not in_pile else None
                if old is not None:
                    # The seat's card in this trick was a card already played (a misread): this corrects it.
                    revised = CardRevised(obs.zone, old, obs.card, obs.confidence, obs.frame, obs.uncertain)
                    return out + self._observe(revised)
                doubted = None if seat is None or in_pile else self.match.doubted_duplicate(obs.card, conf, seat)
                if doubted is not None:
                    # Another seat's card read to be checked as this very card was its rival (as the app does).
                    earlier, rival = doubted
                    zone = next((z for (z, _), i in self._reported.items() if i == earlier), None)
                    if zone is not None:  # the table now shows the rival there: it is reported
                        self.landings.append(Landing(obs.frame, rival, zone, "play"))
                    from companion.session import revision_in_doubt

                    # Still a card to be checked, the card the camera read there its rival (as the app does).
                    out += self._apply(revision_in_doubt(earlier, rival, obs.card), obs.frame)
                play = self.match.play_seen(obs.card, conf, seat, pile=in_pile, rival=obs.rival)
                if play is None:
                    return out  # seen again (a trick pushed together, a hand passed over it), or nobody due
                self._reported[(obs.zone, obs.card)] = len(self.match)
                self.landings.append(Landing(obs.frame, obs.card, obs.zone, "play"))
                return out + self._apply(play, obs.frame)
            if isinstance(obs, CardRevised):
                index = self._reported.pop((obs.zone, obs.old), None)
                if index is None:
                    return []
                self._reported[(obs.zone, obs.new)] = index
                if obs.new != obs.old:  # the table now shows this card there: it is reported, as a revised up-card is
                    self.landings.append(Landing(obs.frame, obs.new, obs.zone, "play"))
                from companion.session import camera_revision

                return self._apply(camera_revision(index, obs), obs.frame)
            if isinstance(obs, CardLifted):
                # The last card played, lifted while its trick is open, may have been taken back: it is
                # undone if that seat lays another card next (``_replaced``).
                self._taken_back = None
                seat = obs.zone.seat if obs.zone.kind is ZoneKind.SEAT else None
                if obs.zone.kind is not ZoneKind.KITTY and self.match.taken_back(obs.card, seat):
                    last = self.match.history[-1]
                    assert isinstance(last, Play)
                    self._taken_back = (obs.zone, obs.card, last.seat)
            if isinstance(obs, ZoneCleared) and obs.zone.kind is not ZoneKind.KITTY:
                self.gathered_at = obs.frame  # a trick gathered: nothing for the engine; its cards are gone
            return []
        finally:
            self.timings.engine += time.perf_counter() - t0


_BIDS = (Pass, OrderUp, NameTrump, GoAlone)


def checks_asked(announcements: Sequence[tuple[int, Announcement]]) -> int:
    """How many times the engine asked the table to check a card (a reading too unsure to count that mattered:
    ``IrregularityKind.CHECK_CARD``), over a run's (frame, announcement) pairs; a check restated (the same card,
    its two readings swapped: shown, not said again) is not asked again."""
    return sum(
        1 for _, a in announcements
        if isinstance(a, Irregularity) and a.kind is IrregularityKind.CHECK_CARD and not a.restated
    )  # fmt: skip


def _confidence(confidence: float, uncertain: bool) -> float:
    return min(confidence, CHECK_CONFIDENCE * 0.99) if uncertain else confidence


# ---------------------------------------------------------------- scoring


@dataclass
class RunScore:
    """The simulate command's figures (see DESIGN.md), and a few more for stderr."""

    hands: int = 0
    tricks: int = 0
    tricks_right: int = 0
    hands_exact: int = 0
    reneges_injected: int = 0
    reneges_proven: int = 0
    false_renege_alerts: int = 0
    latencies: list[int] = field(default_factory=list)
    cards_missed: int = 0
    thrown_in: int = 0
    deals_seen: int = 0

    @property
    def trick_winner_accuracy(self) -> float:
        return self.tricks_right / self.tricks if self.tricks else 0.0

    @property
    def median_latency(self) -> float:
        return float(statistics.median(self.latencies)) if self.latencies else float("nan")


REST_SLACK = 5  # frames a card can be judged at rest before the script's rest frame (see the latency below)


@dataclass(frozen=True)
class DealAt:
    """The script's deal being played at the table at a frame: from that deal's up-card to the next one's."""

    order: tuple[tuple[int, int], ...]  # (frame the deal's up-card first came to rest, deal), by frame
    deals: int

    @classmethod
    def of(cls, script: TableScript) -> DealAt:
        starts: dict[int, int] = {}
        for rest in script.rests:
            if rest.kind == "up_card":
                starts[rest.deal] = min(starts.get(rest.deal, rest.frame), rest.frame)
        return cls(tuple(sorted((frame, deal) for deal, frame in starts.items())), len(script.deals))

    def __call__(self, frame: int, back: int = 0) -> int:
        """The deal at ``frame`` (``back``: that many deals before it; 0 before the first up-card)."""
        k = bisect.bisect_right(self.order, (frame, self.deals)) - 1 - back
        return self.order[k][1] if k >= 0 else 0


def deals_out_of_turn(script: TableScript, announcements: Sequence[tuple[int, Announcement]]) -> tuple[int, int, int]:
    """Stolen deals: (staged, said of those, said of a deal nobody stole: false alarms)."""
    deal_at = DealAt.of(script)
    said = {
        deal_at(frame)
        for frame, a in announcements
        if isinstance(a, Irregularity) and a.kind is IrregularityKind.DEAL_OUT_OF_TURN
    }
    return len(script.stolen), len(said & set(script.stolen)), len(said - set(script.stolen))


def announcements_by_deal(
    script: TableScript, announcements: Sequence[tuple[int, Announcement]]
) -> list[list[Announcement]]:
    """The engine's announcements (with their frames) grouped by the script's deal they are about.

    Each counts for the deal being played at the table when it was made: from that deal's up-card to the
    next one's. (Counting the engine's deals in order instead would compare every deal after one the
    engine never finished with the wrong deal of the script.) The exception: an unfinished hand's closing
    (from ``HAND_UNFINISHED`` to its ``HandScored``) is made when the next deal's up-card is read, which
    may be a frame or two before the script says it came to rest, and is about the hand before that deal.
    """
    deal_at = DealAt.of(script)
    per_deal: list[list[Announcement]] = [[] for _ in script.deals]
    closing = False
    for frame, a in announcements:
        closing = closing or (isinstance(a, Irregularity) and a.kind is IrregularityKind.HAND_UNFINISHED)
        deal = deal_at(frame + REST_SLACK, back=1) if closing else deal_at(frame)
        closing = closing and not isinstance(a, HandScored)
        if 0 <= deal < len(per_deal):
            per_deal[deal].append(a)
    return per_deal


@dataclass(frozen=True)
class DealCheck:
    """One played deal of the script against what the engine announced about it, as :func:`score_run` counts it."""

    want: tuple[int, ...]  # the script's trick winners
    winners: tuple[int, ...]  # the engine's last word on each trick, in the order it announced them
    scored: HandScored | None  # the engine's last score of the hand (None: it never scored it)
    points: tuple[int, int]  # the script's
    covered: frozenset[int]  # indices into the deal's ``reneges`` that an alert proved
    false_alerts: tuple[RenegeProven, ...]  # alerts that cover no injected renege

    @property
    def wrong_tricks(self) -> list[int]:
        """The tricks (0-based) whose winner the engine did not announce as the script has it."""
        return [k for k, w in enumerate(self.want) if k >= len(self.winners) or self.winners[k] != w]

    @property
    def exact(self) -> bool:
        return self.scored is not None and self.scored.points == self.points


def check_deal(d: SimDeal, got: Sequence[Announcement]) -> DealCheck:
    """Judge one played deal by the engine's announcements about it (see :func:`announcements_by_deal`).

    One proof covers every show-out of that suit by that seat before it (the table sees one renege
    proven by one card); an alert that covers no injected renege is a false alert. Any card of the
    suit the seat held when it showed out proves that renege: the script's first proof card may
    have been read too unsurely to count ("check this card") and a later one prove it instead.
    """
    covered: set[int] = set()
    false_alerts: list[RenegeProven] = []
    for a in got:
        if not isinstance(a, RenegeProven):
            continue
        hits = {
            k for k, r in enumerate(d.reneges)
            if r.seat == a.seat
            and r.suit == a.evidence.suit
            and (a.evidence.proof_card == r.proof_card or a.evidence.proof_card in r.held)
        }  # fmt: skip
        if hits:
            covered |= hits
        else:
            false_alerts.append(a)
    scored = [a for a in got if isinstance(a, HandScored)]
    # A correction (a card revised after its trick was won) announces that trick again: the engine's last
    # word on each trick stands, in the order the tricks were first announced.
    won: dict[int, int] = {}
    for a in got:
        if isinstance(a, TrickWon):
            won[a.trick] = a.seat
    return DealCheck(
        tuple(d.trick_winners),
        tuple(won.values()),
        scored[-1] if scored else None,
        d.points,
        frozenset(covered),
        tuple(false_alerts),
    )


MATCH_FRAMES = 60  # as far from a card's rest as a landing of it may be and still report it


def match_landings(rests: Sequence[CardRest], landings: Sequence[Landing]) -> list[tuple[Landing, int | None]]:
    """Each landing, in frame order, with the index of the script's rest it reports (None: none matches).

    A landing matches the rest of that card in that zone nearest in time, within ``MATCH_FRAMES``, that no earlier
    landing took (a card can be judged at rest a frame before its slide ends, when the last bit of motion
    is too small to matter).
    """
    used: set[int] = set()
    out: list[tuple[Landing, int | None]] = []
    for landing in sorted(landings, key=lambda x: x.frame):
        best: int | None = None
        for k, r in enumerate(rests):
            if k in used or r.card != landing.card or r.zone != landing.zone:
                continue
            if abs(landing.frame - r.frame) > MATCH_FRAMES:
                continue
            if best is None or abs(landing.frame - r.frame) < abs(landing.frame - rests[best].frame):
                best = k
        if best is not None:
            used.add(best)
        out.append((landing, best))
    return out


def score_run(
    script: TableScript, announcements: Sequence[tuple[int, Announcement]], landings: Sequence[Landing]
) -> RunScore:
    """Compare the engine's announcements (with their frames, see :func:`announcements_by_deal`) and the
    pipeline's landings with the script (:func:`check_deal`, :func:`match_landings`)."""
    score = RunScore()
    score.deals_seen = sum(1 for _, a in announcements if isinstance(a, HandScored | ThrownIn))
    per_deal = announcements_by_deal(script, announcements)
    for i, d in enumerate(script.deals):
        if d.thrown_in:
            score.thrown_in += 1
            continue
        check = check_deal(d, per_deal[i])
        score.hands += 1
        score.tricks += len(check.want)
        score.tricks_right += len(check.want) - len(check.wrong_tricks)
        score.hands_exact += int(check.exact)
        score.reneges_injected += len(d.reneges)
        score.reneges_proven += len(check.covered)
        score.false_renege_alerts += len(check.false_alerts)
    # Latency: each landing against the script's rest of that card in that zone nearest in time.
    matched = 0
    for landing, k in match_landings(script.rests, landings):
        if k is not None:
            matched += 1
            score.latencies.append(landing.frame - script.rests[k].frame)
    score.cards_missed = len(script.rests) - matched
    return score


# ---------------------------------------------------------------- running it


@dataclass
class SimRun:
    script: TableScript
    score: RunScore
    timings: Timings
    deck: str
    pipeline: TablePipeline


def run_simulation(
    script: TableScript,
    renderer: TableRenderer,
    detector: Detector,
    deck_name: str,
    on_frame: Callable[[int, Image], None] | None = None,
    render: bool = True,
    prepare: Callable[[TablePipeline], None] | None = None,
    answer_checks: float | None = None,
) -> SimRun:
    """Render each frame, run the pipeline on it with that frame's button presses, and score the run.

    ``render=False`` (for a detector that needs no pixels, such as the
    oracle) skips the drawing: the pipeline gets a blank picture and the
    camera's exact calibration instead of the markers'. ``prepare`` is
    called with the pipeline before the first frame (``simulate
    --detections`` puts its recorder or its recording in there).
    ``answer_checks``: the players answer each "check this card" that many seconds after it (``CheckAnswerer``).
    """
    first_dealer = script.deals[0].dealer if script.deals else 0
    fallback = None if render else renderer.true_calibration()
    pipeline = TablePipeline(script.rules, detector, script.mat, script.layout, fallback, first_dealer)
    if answer_checks is not None:
        pipeline.answerer = CheckAnswerer(script.rests, delay=round(answer_checks * DEFAULT_FPS))
    if prepare is not None:
        prepare(pipeline)
    presses = script.buttons_at()
    blank = np.zeros((8, 8, 3), np.uint8)
    for n in range(script.frames):
        t0 = time.perf_counter()
        image, detail = renderer.render_pair(n) if render else (blank, None)
        pipeline.timings.render += time.perf_counter() - t0
        if on_frame is not None:
            on_frame(n, image)
        pipeline.step(n, image, presses.get(n, ()), detail)
    result = score_run(script, pipeline.announcements, pipeline.landings)
    return SimRun(script, result, pipeline.timings, deck_name, pipeline)


def load_clip(folder: Path) -> tuple[TableScript, dict[str, Any]]:
    """A recorded clip's ground truth, and its script rebuilt from the seed (checked against the recording)."""
    import json

    from vision.errors import UserError

    path = folder / ClipRecorder.TRUTH
    try:
        truth: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        pace = PACES[str(truth.get("pace", "normal"))]
        rules = rules_from_truth(truth.get("rules", "north_american"))
        script = build_script(
            int(truth["seed"]), truth.get("hands"), float(truth["renege_rate"]), rules=rules, pace=pace
        )
    except OSError as exc:
        raise UserError(f"{path}: cannot read the clip's ground truth ({exc.strerror})") from None
    except (ValueError, KeyError, TypeError, RulesError) as exc:
        raise UserError(f"{path}: not a simulated clip's ground truth ({exc})") from None
    fresh = ground_truth(script, str(truth.get("deck", "")), DEFAULT_FPS, FRAME_SIZE)
    if any(fresh[key] != truth.get(key) for key in ("frames", "cards", "deals")):
        raise UserError(f"{path}: recorded by another version of the simulator; its script cannot be rebuilt")
    return script, truth


def run_clip(folder: Path, detector: Detector) -> SimRun:
    """The pipeline on a recorded clip's decoded frames, with the script's button inputs, scored."""
    import cv2

    from vision.errors import UserError

    script, truth = load_clip(folder)
    video = folder / str(truth.get("video", ClipRecorder.VIDEO))
    capture = cv2.VideoCapture(str(video))
    if not capture.isOpened():
        raise UserError(f"{video}: cannot open the clip's video")
    first_dealer = script.deals[0].dealer if script.deals else 0
    pipeline = TablePipeline(script.rules, detector, script.mat, script.layout, None, first_dealer)
    presses = script.buttons_at()
    n = 0
    while True:
        t0 = time.perf_counter()
        ok, image = capture.read()
        pipeline.timings.render += time.perf_counter() - t0  # decoding, here
        if not ok:
            break
        pipeline.step(n, np.asarray(image, np.uint8), presses.get(n, ()))
        n += 1
    capture.release()
    if n != script.frames:
        raise UserError(f"{video}: {n} frames, the ground truth says {script.frames}")
    result = score_run(script, pipeline.announcements, pipeline.landings)
    return SimRun(script, result, pipeline.timings, str(truth.get("deck", "")), pipeline)


class SimTableSource:
    """The simulated table as a ``FrameSource`` (``--source sim``): the frames of a scripted game, ``fps`` apart.

    ``buttons`` are the script's presses (bids, alone, discard, renege
    decisions) with their frame numbers, for the app to feed in as a
    ``--buttons`` file would. ``rules`` (default North American) are the
    table's: the deck dealt and drawn (7s and 8s, the Benny) and the bids
    follow them. Built on the first ``open``; a new ``open`` starts the video
    again from frame 0. ``detail`` 2: each frame also drawn twice as large, in
    ``Frame.display_bgr``, as the Pi camera's ``main`` stream.
    """

    def __init__(
        self,
        seed: int = 0,
        hands: int | None = None,
        renege_rate: float = 0.0,
        deck_style: str = DEFAULT_DECK,
        art_dir: Path | None = None,
        fps: float = DEFAULT_FPS,
        rules: Rules | None = None,
        detail: int = 1,
    ) -> None:
        self._rules = rules if rules is not None else Rules()
        self.detail = detail
        self.seed = seed
        self.hands = hands
        self.renege_rate = renege_rate
        self.deck_style = deck_style
        self.art_dir = art_dir
        self.fps = fps
        self.script: TableScript | None = None
        self.renderer: TableRenderer | None = None
        self._next = 0

    @property
    def description(self) -> str:
        return f"simulated table (seed {self.seed})"

    @property
    def ended(self) -> bool:
        return self.script is not None and self._next >= self.script.frames

    @property
    def buttons(self) -> list[ButtonPress]:
        return list(self.buttons_script.buttons)

    @property
    def buttons_script(self) -> TableScript:
        """The script of the game shown (built on first use)."""
        self._build()
        assert self.script is not None
        return self.script

    @property
    def rules(self) -> Rules:
        """The rules the script is dealt and played by (the config's, given as ``rules``)."""
        return self._rules

    @property
    def first_dealer(self) -> int:
        return self.buttons_script.deals[0].dealer

    @property
    def mat_name(self) -> str:
        return MAT.name

    def buttons_jsonl(self) -> str:
        return buttons_jsonl(self.buttons_script)

    def _build(self) -> None:
        if self.script is None:
            self.script = build_script(self.seed, self.hands, self.renege_rate, rules=self._rules)
            faces, back, _name = load_deck(self.deck_style, self.art_dir, self._rules.deck_size)
            self.renderer = TableRenderer(self.script, faces, back, seed=self.seed, detail=self.detail)

    def open(self) -> None:
        self._build()
        self._next = 0

    def read(self) -> Any:
        from vision.sources.base import Frame

        if self.renderer is None or self.script is None or self._next >= self.script.frames:
            return None
        n = self._next
        self._next += 1
        image, detail = self.renderer.render_pair(n)
        return Frame(n, n / self.fps, image, detail)

    def close(self) -> None:
        pass


def initial_calibration(image: Image, mat: MatSize = MAT) -> Calibration | None:
    """The mat's calibration from one frame's markers (None when too few are seen)."""
    return calibration_from_markers(image, marker_layout(mat))


# ---------------------------------------------------------------- the recorded clip's ground truth


def ground_truth(script: TableScript, deck_name: str, fps: float, frame_size: tuple[int, int]) -> dict[str, Any]:
    """The clip's ground truth as JSON-ready data: card rests, deals as ``replay --json`` writes them, final score."""
    deals = []
    for d in script.deals:
        deals.append(
            {
                "dealer": d.dealer,
                "up_card": str(d.up_card),
                "trump": None if d.trump is None else d.trump.value,
                "maker_seat": d.maker_seat,
                "alone_seats": list(d.alone_seats),
                "trick_winners": list(d.trick_winners),
                "tricks_won": list(d.tricks_won),
                "points": list(d.points),
                "thrown_in": d.thrown_in,
                "reneges": [
                    {
                        "seat": r.seat,
                        "suit": r.suit.value,
                        "trick": r.trick,
                        "card": str(r.card),
                        "proof_trick": r.proof_trick,
                        "proof_card": None if r.proof_card is None else str(r.proof_card),
                    }
                    for r in d.reneges
                ],  # fmt: skip
            }
        )
    return {
        "frames": script.frames,
        "fps": fps,
        "size": list(frame_size),
        "deck": deck_name,
        "mat": script.mat.name,
        "seed": script.seed,
        "renege_rate": script.renege_rate,
        "hands": script.hands,
        "pace": next((name for name, pace in PACES.items() if pace == script.pace), "custom"),
        "rules": rules_for_truth(script.rules),
        "first_dealer": script.deals[0].dealer if script.deals else 0,
        "cards": [
            {"frame": r.frame, "card": str(r.card), "zone": str(r.zone), "seat": r.seat, "deal": r.deal, "kind": r.kind}
            for r in script.rests
        ],
        "deals": deals,
        "final_score": list(script.final_score),
    }


def rules_for_truth(rules: Rules) -> str | dict[str, Any]:
    """The rules as a clip's ground truth names them: a preset's name, or every switch."""
    return next((name for name, preset in PRESETS.items() if preset == rules), None) or rules.to_dict()


def rules_from_truth(value: object) -> Rules:
    """The rules a ground truth names (:func:`rules_for_truth`); a bad value raises ``RulesError``."""
    if isinstance(value, str):
        return Rules.preset(value)
    if isinstance(value, dict):
        return Rules.from_dict(value)
    raise RulesError(f"rules: expected a preset name or a mapping of switches, not {value!r}")


def press_json(action: Action) -> dict[str, Any]:
    """One panel press in the ``companion.buttons_script`` format, without the frame."""
    return {"action": action.kind.value, **({"suit": action.suit.value} if action.suit is not None else {})}


def buttons_jsonl(script: TableScript) -> str:
    """The button presses as ``run --buttons`` reads them: one ``{"frame": N, "action": ...}`` per line."""
    import json

    lines: list[str] = []
    for b in script.buttons:
        lines.extend(json.dumps({"frame": b.frame, **press_json(press)}) for press in b.panel)
    return "".join(line + "\n" for line in lines)


class ClipRecorder:
    """Writes the rendered frames to ``DIR/table.mp4`` (MPEG-4: what OpenCV's own builds write and read back),
    and at the end the clip's ``ground_truth.json`` and ``buttons.jsonl``."""

    VIDEO = "table.mp4"
    TRUTH = "ground_truth.json"
    BUTTONS = "buttons.jsonl"

    def __init__(self, folder: Path, fps: float = DEFAULT_FPS) -> None:
        from vision.errors import UserError

        if folder.exists() and not folder.is_dir():
            raise UserError(f"--record {folder}: not a folder")
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.fps = fps
        self._writer: Any = None
        self.size: tuple[int, int] = FRAME_SIZE

    def add(self, frame: int, image: Image) -> None:
        import cv2

        if self._writer is None:
            self.size = (image.shape[1], image.shape[0])
            fourcc = cv2.VideoWriter.fourcc(*"mp4v")
            self._writer = cv2.VideoWriter(str(self.folder / self.VIDEO), fourcc, self.fps, self.size)
            if not self._writer.isOpened():
                from vision.errors import UserError

                raise UserError(f"--record {self.folder}: OpenCV cannot write an MPEG-4 video here")
        self._writer.write(image)

    def finish(self, script: TableScript, deck_name: str) -> None:
        import json

        if self._writer is not None:
            self._writer.release()
        truth = ground_truth(script, deck_name, self.fps, self.size)
        truth["video"] = self.VIDEO
        truth["buttons"] = self.BUTTONS
        (self.folder / self.TRUTH).write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")
        (self.folder / self.BUTTONS).write_text(buttons_jsonl(script), encoding="utf-8")
