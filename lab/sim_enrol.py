"""Enrolment at the simulated table: the deck laid on the rendered mat, read through the same code as ``enrol``.

The players lay the deck of the rules in play face up on the mat, a batch at a time
(:data:`PER_BATCH` cards in two rows: an A3 mat holds no more without overlap), and take each batch
away once the screen has every card of it. Frames are rendered by ``lab.simtable.TableRenderer`` (the
same camera, light and noise as the game) and go to ``display.enrolment.Enrolment`` with the app's reader
(``OnnxReader``) and ``vision.deck_profile.ProfileBuilder``: exactly what ``euchre-table enrol`` runs.

A scripted player answers the questions from the ground truth with the panel's buttons, one press
every :data:`PRESS_FRAMES` frames: a suit button until the right card is chosen (Alone for the Joker),
then Call. A card the reader enrolled under a wrong name is taken back with Undo (the screen shows
each name as read; a player sees the mistake) and then named. A card the screen has still not got
after :data:`NUDGE_AFTER` frames (the finder does not outline it) is pushed a little, as players do.
Time is the video's: frames over the frame rate, laying and taking away the cards included.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from display.actions import Action, ButtonAction
from display.enrolment import CardState, Enrolment, OnMat, enrol_action
from lab.simtable import (
    DEFAULT_FPS,
    FOREVER,
    FRAME_SIZE,
    MAT,
    Image,
    Key,
    Sprite,
    TableRenderer,
    TableScript,
)
from table.cards import Card
from table.rules import Rules
from vision.zones import TableLayout

PER_BATCH = 10  # two rows of five poker-size cards on an A3 mat
PRESS_FRAMES = 8  # a button press every 0.53 s at 15 fps: a player reading the screen, then pressing
SLIDE = 5
NUDGE_AFTER = 60  # frames (4 s) with a card of the batch still not in: the players push those cards a little
MAX_WAIT_FRAMES = 600  # a batch never read in 40 s: taken away anyway (the run reports what is missing)


@dataclass
class EnrolRun:
    """What the simulated enrolment did."""

    enrolment: Enrolment
    frames: int = 0
    presses: int = 0
    asked: int = 0
    wrong_reads: int = 0  # cards the reader enrolled under a wrong name (then undone and named)
    batches: int = 0
    wrong_named: list[tuple[Card, Card]] = field(default_factory=list)  # (enrolled as, truth) left at the end
    pressed: list[tuple[int, Action]] = field(default_factory=list)  # (frame, button), as ``run --buttons`` reads
    renderer: TableRenderer | None = None  # what drew the frames (its ``visible`` gives each frame's ground truth)

    @property
    def seconds(self) -> float:
        return self.frames / DEFAULT_FPS


def enrol_script(rules: Rules, seed: int) -> TableScript:
    """An empty table (no deals) to lay the enrolment's cards on: its sprites are added as the batches come."""
    return TableScript(
        rules=rules, seed=seed, renege_rate=0.0, deals=[], deal_games=[], sprites=[], arms=[], buttons=[], rests=[],
        frames=0, final_score=(0, 0), hands=None, layout=TableLayout(), mat=MAT,
    )  # fmt: skip


def _spots(n: int, rng: random.Random) -> list[tuple[float, float, float]]:
    """Where the cards of a batch go: two rows of five across the middle of the mat (x, y mm; angle)."""
    out = []
    pitch_x, pitch_y = 76.0, 104.0
    for k in range(n):
        row, col = divmod(k, 5)
        x = MAT.width_mm / 2 + (col - 2) * pitch_x + rng.uniform(-3, 3)
        y = MAT.height_mm / 2 + (row - 0.5) * pitch_y + rng.uniform(-3, 3)
        out.append((x, y, rng.choice((0.0, math.pi)) + rng.uniform(-0.06, 0.06)))
    return out


def simulate_enrolment(
    deck: Sequence[Card],
    faces: dict[Card, Image],
    back: Image,
    enrolment_for: Callable[[], Enrolment],
    rules: Rules,
    seed: int = 0,
    frame_size: tuple[int, int] = FRAME_SIZE,
    on_frame: Callable[[int, Image, Enrolment], None] | None = None,
    batches: int | None = None,
    detail: int = 1,
    read_detail: bool = True,
) -> EnrolRun:
    """Lay ``deck`` on the rendered mat in batches and enrol it (see the module docstring); ``batches``: stop
    after that many (the enrolment then ends without the rest of the deck). ``detail`` > 1: frames drawn
    that many times larger too, as a Pi camera's ``main`` stream, from which the cards are read
    (``TableRenderer``, ``Enrolment.update``) unless ``read_detail`` is False."""
    script = enrol_script(rules, seed)
    renderer = TableRenderer(script, faces, back, frame_size=frame_size, seed=seed, detail=detail)
    rng = random.Random(seed * 31 + 5)
    order = list(deck)
    rng.shuffle(order)
    e = enrolment_for()
    frame = 0
    e.clock = lambda: frame / DEFAULT_FPS  # video time
    run = EnrolRun(e, renderer=renderer)
    truth_of: dict[int, Card] = {}  # OnMat id -> the card it is
    next_press = 0
    for b in range(0, len(order), PER_BATCH):
        if batches is not None and run.batches >= batches:
            break
        batch = order[b : b + PER_BATCH]
        run.batches += 1
        sprites: list[Sprite] = []
        for k, (card, (x, y, a)) in enumerate(zip(batch, _spots(len(batch), rng), strict=True)):
            f0 = frame + 2 * k
            start = (x, MAT.height_mm + 60.0)
            keys = [Key(f0, start[0], start[1], a, True), Key(f0 + SLIDE, x, y, a, True)]
            script.sprites.append(s := Sprite(card, keys, FOREVER, len(script.sprites) + 1))
            sprites.append(s)
        laid = frame
        while True:
            image, big = renderer.render_pair(frame)
            e.update(image, frame, big if read_detail else None)
            _label(e, renderer, sprites, frame, truth_of)
            if frame >= next_press:
                sliding = any(frame < s.keys[-1].frame for s in sprites)
                action = _player(e, truth_of, run, sliding)
                if action is not None:
                    step = enrol_action(action, e.has_joker)
                    if step is not None:
                        e.act(step)
                        run.presses += 1
                        run.pressed.append((frame, action))
                        next_press = frame + PRESS_FRAMES
            if on_frame is not None:
                on_frame(frame, image, e)
            frame += 1
            if e.done:
                break
            settled = frame > laid + 2 * len(batch) + SLIDE + 2 and _batch_done(e, sprites, truth_of)
            if not settled and frame - laid >= NUDGE_AFTER and (frame - laid) % NUDGE_AFTER == 0:
                _nudge(sprites, e, frame, rng)
            if settled or frame - laid > MAX_WAIT_FRAMES:
                break
        if e.done:
            break
        # The batch taken away: each card slid off towards the near edge.
        for s in sprites:
            p = s.pose(frame)
            if p is not None:
                s.keys.append(Key(frame, p.x, p.y, p.angle, True))
                s.keys.append(Key(frame + SLIDE, p.x, MAT.height_mm + 80.0, p.angle, True))
                s.end = frame + SLIDE + 1
        for _ in range(SLIDE + 3):
            image, big = renderer.render_pair(frame)
            e.update(image, frame, big if read_detail else None)
            if on_frame is not None:
                on_frame(frame, image, e)
            frame += 1
    if not e.done:
        e.finish()
    run.frames = frame
    run.asked = sum(1 for v in e.enrolled.values() if v.by_players)
    run.wrong_named = [(card, truth_of[v.card_id]) for card, v in e.enrolled.items()
                       if v.card_id in truth_of and truth_of[v.card_id] != card]  # fmt: skip
    return run


def _nudge(sprites: list[Sprite], e: Enrolment, frame: int, rng: random.Random) -> None:
    """The players push the cards the screen has not got yet a little (a card the camera does not outline)."""
    for s in sprites:
        p = s.pose(frame)
        if p is None or s.card is None or s.card in e.enrolled:
            continue
        dx, dy, da = rng.uniform(-12, 12), rng.uniform(-8, 8), rng.uniform(-0.25, 0.25)
        s.keys.append(Key(frame, p.x, p.y, p.angle, True))
        s.keys.append(Key(frame + SLIDE, p.x + dx, p.y + dy, p.angle + da, True))


def _label(e: Enrolment, renderer: TableRenderer, sprites: list[Sprite], frame: int, truth_of: dict[int, Card]) -> None:
    """Ground truth for each card the enrolment follows: the card at rest whose rendered centre is nearest now (a
    card sliding in may pass others first, so the label follows it while it lies on the mat)."""
    for c in e.cards:
        if c.gone or c.last_frame != frame:
            continue
        best: tuple[float, Card] | None = None
        for s in sprites:
            key = s.pose(frame)
            if key is None or s.card is None or frame < s.keys[-1].frame:  # only cards at rest
                continue
            centre = renderer.card_quad(s.card, key).mean(axis=0)
            d = math.dist((float(centre[0]), float(centre[1])), c.centre)
            if best is None or d < best[0]:
                best = (d, s.card)
        if best is not None and best[0] < 0.4 * c.long_side:
            truth_of[c.id] = best[1]


def _batch_done(e: Enrolment, sprites: list[Sprite], truth_of: dict[int, Card]) -> bool:
    """Is every card of the batch in (enrolled, known or left out), with no question up?"""
    if e.question is not None:
        return False
    wanted = {s.card for s in sprites if s.card is not None}
    for c in e.cards:
        if c.state in (CardState.SETTLING, CardState.READING, CardState.ASKING) and truth_of.get(c.id) in wanted:
            return False
    return all(card in e.enrolled for card in wanted)


def _player(e: Enrolment, truth_of: dict[int, Card], run: EnrolRun, sliding: bool = False) -> Action | None:
    """The scripted player's next press: undo a wrong reading at once, else answer the question. ``sliding``: a
    card is still sliding into place (an outline the player cannot match to a card yet may be that card)."""
    wrong = [
        card for card in e.history
        if not e.enrolled[card].by_players and truth_of.get(e.enrolled[card].card_id, card) != card
    ]  # fmt: skip
    if wrong:
        if e.history[-1] in wrong:
            run.wrong_reads += 1
        return Action(ButtonAction.UNDO)  # taken back newest first, down to the wrong one
    q = e.question
    if q is None:
        return None
    truth = truth_of.get(q.card_id)
    on_mat: OnMat | None = e.card(q.card_id)
    if truth is None and on_mat is not None and not on_mat.gone and sliding:
        return None  # the screen asks about a card still sliding into place: the player waits for it to lie still
    if truth is None or on_mat is None or truth not in q.candidates:
        return Action(ButtonAction.NEW_GAME)  # not a card of the deck (or already in): left out
    if q.chosen == truth:
        return Action(ButtonAction.CALL)
    if truth.is_benny:
        return Action(ButtonAction.ALONE)
    assert truth.suit is not None
    return Action(ButtonAction.SUIT, truth.suit)


def onnx_enrolment(detector: Any, deck: Sequence[Card]) -> Callable[[], Enrolment]:
    """A factory of enrolments with the app's reader and profile builder (what ``euchre-table enrol`` uses)."""
    from display.enrolment import OnnxReader
    from vision.deck_profile import ProfileBuilder

    def make() -> Enrolment:
        return Enrolment(deck, OnnxReader(detector), ProfileBuilder.for_detector(detector))

    return make
