"""Enrolment's flow with a fake reader: what is enrolled, what is asked, how the panel answers, how long it takes."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pytest

from display.actions import Action, ButtonAction
from display.enrolment import (
    GONE_FRAMES,
    LOST_FRAMES,
    READS,
    STILL_FRAMES,
    CardState,
    EnrolAction,
    Enrolment,
    Ranking,
    Step,
    enrol_action,
    rank_from_logits,
)
from table.cards import BENNY, Card, Suit, deck

FRAME = np.zeros((480, 640, 3), np.uint8)
SETTLE = STILL_FRAMES + READS  # frames from a card laid to its decision


def quad_at(x: float, y: float) -> npt.NDArray[np.float32]:
    """A card 60 x 84 px centred at (x, y)."""
    return np.array([[x - 30, y - 42], [x + 30, y - 42], [x + 30, y + 42], [x - 30, y + 42]], np.float32)


class FakeReader:
    """Cards at places; each reads as its ``readings`` entry says (card, p) or as no index at all (None)."""

    def __init__(self) -> None:
        self.on_mat: dict[tuple[float, float], tuple[Card | None, float, Card | None]] = {}
        self.truth: dict[tuple[float, float], Card] = {}

    def lay(
        self, x: float, y: float, reads_as: Card | None, p: float = 0.95, runner_up: Card | None = None,
        truth: Card | None = None,
    ) -> None:  # fmt: skip
        self.on_mat[(x, y)] = (reads_as, p, runner_up)
        if truth is not None:
            self.truth[(x, y)] = truth

    def take_all(self) -> None:
        self.on_mat.clear()

    def outlines(self, frame_bgr: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        quads = [quad_at(x, y) for x, y in self.on_mat]
        return np.array(quads, np.float32).reshape(-1, 4, 2), np.ones(len(quads), np.float32)

    def rank(self, frame_bgr: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32]) -> Ranking:
        centre = tuple(float(v) for v in quad.mean(axis=0))
        card, p, runner_up = self.on_mat[(centre[0], centre[1])]
        everything = list(deck(33))
        if card is None:
            return Ranking(tuple((c, 1 / 33) for c in everything), 0.1)
        rest = [c for c in everything if c not in (card, runner_up)]
        second = [(runner_up, (1 - p) * 0.8)] if runner_up is not None else []
        share = (1 - p) * (0.2 if runner_up is not None else 1.0) / len(rest)
        return Ranking(((card, p), *second, *((c, share) for c in rest)), 0.99)


class FakeBuilder:
    def __init__(self) -> None:
        self.added: list[Card] = []

    def add(self, card: Card | str, frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike) -> None:
        self.added.append(card if isinstance(card, Card) else Card.parse(card))

    def remove(self, card: Card | str) -> None:
        self.added = [c for c in self.added if c != card]

    def build(self, name: str) -> object:
        return (name, tuple(self.added))


def setup(cards: Sequence[Card] = deck(24)) -> tuple[Enrolment, FakeReader, FakeBuilder, list[int]]:
    reader, builder = FakeReader(), FakeBuilder()
    now = [0]
    e = Enrolment(cards, reader, builder, clock=lambda: now[0] / 15.0)  # type: ignore[arg-type]
    return e, reader, builder, now


def frames(e: Enrolment, now: list[int], n: int) -> None:
    for _ in range(n):
        e.update(FRAME, now[0])
        now[0] += 1


def press(e: Enrolment, *actions: Action) -> None:
    for a in actions:
        step = enrol_action(a, e.has_joker)
        assert step is not None
        e.act(step)


def test_sure_cards_are_enrolled_without_a_question_and_unsure_ones_are_asked() -> None:
    e, reader, builder, now = setup()
    reader.lay(100, 100, Card.parse("Qh"))
    reader.lay(200, 100, Card.parse("9c"), p=0.6, runner_up=Card.parse("9s"))
    frames(e, now, STILL_FRAMES)
    assert not e.enrolled and e.question is None  # read only once still, over READS frames
    frames(e, now, READS + 1)
    assert builder.added == [Card.parse("Qh")] and not e.enrolled[Card.parse("Qh")].by_players
    assert e.question is not None and e.question.candidates[:2] == [Card.parse("9c"), Card.parse("9s")]
    assert Card.parse("Qh") not in e.question.candidates  # a deck has each card once
    press(e, Action(ButtonAction.CALL))
    assert e.enrolled[Card.parse("9c")].by_players and e.question is None
    assert e.presses == 1


def test_the_panel_steps_through_the_candidates() -> None:
    e, reader, _builder, now = setup(deck(25))
    reader.lay(100, 100, Card.parse("Kd"), p=0.6, runner_up=Card.parse("Kh"))
    frames(e, now, SETTLE + 1)
    q = e.question
    assert q is not None and q.chosen == Card.parse("Kd")
    press(e, Action(ButtonAction.PASS))
    assert q.chosen == Card.parse("Kh")
    press(e, Action(ButtonAction.SUIT, Suit.SPADES))
    assert q.chosen is not None and q.chosen.suit is Suit.SPADES
    first_spade = q.chosen
    press(e, Action(ButtonAction.SUIT, Suit.SPADES))
    assert q.chosen is not None and q.chosen.suit is Suit.SPADES and q.chosen != first_spade
    press(e, Action(ButtonAction.ALONE))  # the Joker, in a deck that has one
    assert q.chosen == BENNY
    e.act(Step(EnrolAction.PREV))
    assert q.chosen != BENNY
    e.act(Step(EnrolAction.PICK, card=Card.parse("Ac")))
    assert q.chosen == Card.parse("Ac") and not e.enrolled
    press(e, Action(ButtonAction.CALL))
    assert list(e.enrolled) == [Card.parse("Ac")]


def test_a_card_with_no_index_puts_the_joker_first() -> None:
    e, reader, _b, now = setup(deck(25))
    reader.lay(100, 100, None)
    frames(e, now, SETTLE + 1)
    assert e.question is not None and e.question.chosen == BENNY
    e, reader, _b, now = setup(deck(24))  # no Joker in the deck: Alone leaves the card out
    reader.lay(100, 100, None)
    frames(e, now, SETTLE + 1)
    assert e.question is not None and BENNY not in e.question.candidates
    press(e, Action(ButtonAction.ALONE))
    assert e.question is None and e.cards[0].state is CardState.SKIPPED and not e.enrolled


def test_a_card_read_as_one_already_in_is_asked_about_and_not_a_card_leaves_it_out() -> None:
    e, reader, _b, now = setup()
    reader.lay(100, 100, Card.parse("Jd"))
    frames(e, now, SETTLE + 1)
    reader.lay(200, 100, Card.parse("Jd"))
    frames(e, now, SETTLE + 1)
    q = e.question
    assert q is not None and "in already" in q.why and Card.parse("Jd") not in q.candidates
    press(e, Action(ButtonAction.NEW_GAME))
    assert e.question is None and list(e.enrolled) == [Card.parse("Jd")]


def test_undo_takes_back_the_last_card_and_asks_about_it_again() -> None:
    e, reader, builder, now = setup()
    reader.lay(100, 100, Card.parse("Ts"))
    frames(e, now, SETTLE + 1)
    assert builder.added == [Card.parse("Ts")]
    press(e, Action(ButtonAction.UNDO))
    assert builder.added == [] and not e.enrolled
    q = e.question
    assert q is not None and q.chosen == Card.parse("Ts") and "taken back" in q.why
    press(e, Action(ButtonAction.SUIT, Suit.CLUBS), Action(ButtonAction.CALL))
    assert builder.added == [Card.parse("9c")]
    press(e, Action(ButtonAction.UNDO), Action(ButtonAction.UNDO))
    assert e.message == "Nothing to undo."


def test_a_moving_card_is_read_only_once_it_lies_still() -> None:
    e, reader, _b, now = setup()
    for k in range(10):  # slid 20 px a frame
        reader.take_all()
        reader.lay(100 + 20 * k, 100, Card.parse("Ah"))
        frames(e, now, 1)
    assert not e.enrolled and len(e.cards) == 1 and e.cards[0].readings == []
    frames(e, now, SETTLE)
    assert list(e.enrolled) == [Card.parse("Ah")]


def test_batches_at_the_same_places_are_read_anew() -> None:
    e, reader, _b, now = setup()
    cards = list(deck(24))
    for b in range(0, 24, 8):
        reader.take_all()
        frames(e, now, 10)  # the batch taken away: its cards are gone
        for k, card in enumerate(cards[b : b + 8]):
            reader.lay(80 + 60 * k, 200, card)
        frames(e, now, SETTLE + 2)
    assert e.complete and e.done and e.presses == 0
    assert "whole deck" in e.message


def test_finishing_early_takes_two_presses_and_keeps_what_is_in() -> None:
    e, reader, _b, now = setup()
    press(e, Action(ButtonAction.CALL))
    assert "No card" in e.message and not e.done
    reader.lay(100, 100, Card.parse("9h"))
    frames(e, now, SETTLE + 1)
    press(e, Action(ButtonAction.CALL))
    assert not e.done and "23 cards are missing" in e.message
    press(e, Action(ButtonAction.CALL))
    assert e.done and e.missing and list(e.enrolled) == [Card.parse("9h")]
    assert e.build("house") == ("house", (Card.parse("9h"),))
    assert not e.quit
    press(e, Action(ButtonAction.CALL))  # on the contact sheet, Call closes it
    assert e.quit


def test_after_a_failed_save_call_tries_again_and_quit_leaves() -> None:
    e, reader, _b, now = setup()
    reader.lay(100, 100, Card.parse("9h"))
    frames(e, now, SETTLE + 1)
    assert not e.wants_saving  # still enrolling
    press(e, Action(ButtonAction.CALL), Action(ButtonAction.CALL))
    assert e.done and e.wants_saving
    e.save_failed("no space left on device")
    assert not e.wants_saving  # not again until the players ask
    press(e, Action(ButtonAction.CALL))
    assert not e.quit and e.wants_saving  # Call: try again, the enrolment kept
    e.save_failed("no space left on device")
    e.save_done("/data/decks/house")
    assert not e.wants_saving and e.saved == "/data/decks/house" and e.unsaved is None
    press(e, Action(ButtonAction.CALL))  # saved: Call closes the contact sheet
    assert e.quit
    e, reader, _b, now = setup()
    reader.lay(100, 100, Card.parse("9h"))
    frames(e, now, SETTLE + 1)
    press(e, Action(ButtonAction.CALL), Action(ButtonAction.CALL))
    e.save_failed("no space left on device")
    e.act(Step(EnrolAction.QUIT))  # Quit leaves unsaved
    assert e.quit and e.saved is None


def test_an_enrolment_with_no_card_never_wants_saving() -> None:
    e, _reader, _b, _now = setup()
    e.finish()
    assert e.done and not e.wants_saving


def test_enrol_action_maps_the_whole_panel() -> None:
    assert enrol_action(Action(ButtonAction.PASS), True) == Step(EnrolAction.NEXT)
    assert enrol_action(Action(ButtonAction.CALL), True) == Step(EnrolAction.CONFIRM)
    assert enrol_action(Action(ButtonAction.SUIT, Suit.HEARTS), True) == Step(EnrolAction.SUIT, Suit.HEARTS)
    assert enrol_action(Action(ButtonAction.ALONE), True) == Step(EnrolAction.JOKER)
    assert enrol_action(Action(ButtonAction.ALONE), False) == Step(EnrolAction.SKIP)
    assert enrol_action(Action(ButtonAction.NEW_GAME), True) == Step(EnrolAction.SKIP)
    assert enrol_action(Action(ButtonAction.UNDO), True) == Step(EnrolAction.UNDO)
    assert enrol_action(Action(ButtonAction.TOGGLE_MUTE), True) is None


def test_rank_from_logits_keeps_every_card_and_drops_blind_corners() -> None:
    from vision.cardcrop import CLASSIFIER_CLASSES

    classes = list(CLASSIFIER_CLASSES)
    logits = np.full((4, len(classes)), -5.0, np.float32)
    logits[0, classes.index("Qh")] = 5.0  # one corner sees the queen of hearts
    logits[1:, classes.index("none")] = 5.0  # the others see no index
    r = rank_from_logits(logits, classes)
    assert r.cards[0][0] == Card.parse("Qh") and r.cards[0][1] > 0.9
    assert len(r.cards) == 33 and r.index_seen > 0.9
    assert abs(sum(p for _c, p in r.cards) - 1.0) < 1e-4


@pytest.mark.parametrize("size", [25, 33])
def test_a_whole_deck_on_the_panel_alone_is_well_under_three_minutes(size: int) -> None:
    """Every card unsure (the worst case: the reader's guess is right only a third of the time, else another card
    of the same rank), a few at a time: suit buttons and Call only, one press a second."""
    rng = random.Random(size)
    e, reader, _b, now = setup(deck(size))
    cards = list(deck(size))
    rng.shuffle(cards)
    lay_s = 0.0
    named: dict[int, Card] = {}
    for b in range(0, size, 5):
        reader.take_all()
        frames(e, now, 10)
        lay_s += 5.0  # five cards laid by hand
        for k, card in enumerate(cards[b : b + 5]):
            guess = card
            if rng.random() > 1 / 3 and card.suit is not None:
                guess = Card.parse(card.label[:-1] + rng.choice([s for s in "cdhs" if s != card.label[-1]]))
            reader.lay(80 + 100 * k, 200, guess, p=0.5, truth=card)
        frames(e, now, SETTLE + 1)
        while e.question is not None:
            q = e.question
            on_mat = e.card(q.card_id)
            assert on_mat is not None
            truth = named[on_mat.id] = reader.truth[on_mat.centre]
            if q.chosen == truth:
                press(e, Action(ButtonAction.CALL))
            elif truth.is_benny:
                press(e, Action(ButtonAction.ALONE))
            else:
                assert truth.suit is not None
                press(e, Action(ButtonAction.SUIT, truth.suit))
            assert e.presses < 10 * size
    assert e.complete and e.done
    seconds = lay_s + e.presses * 1.0 + e.elapsed()
    assert all(v.by_players and named[v.card_id] == card for card, v in e.enrolled.items())
    print(f"{size} cards: {e.presses} presses, {seconds:.0f} s")
    assert e.presses <= 4 * size and seconds < 180, (e.presses, seconds)


class TwoStreamReader(FakeReader):
    """The fake reader, noting the picture and outline each card is read from."""

    def __init__(self) -> None:
        super().__init__()
        self.read_from: list[tuple[tuple[int, ...], tuple[float, float]]] = []

    def rank(self, frame_bgr: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32]) -> Ranking:
        centre = quad.mean(axis=0)
        self.read_from.append((frame_bgr.shape, (float(centre[0]), float(centre[1]))))
        scale = frame_bgr.shape[1] / FRAME.shape[1]
        return super().rank(frame_bgr, (quad / scale).astype(np.float32))


class NotingBuilder(FakeBuilder):
    def __init__(self) -> None:
        super().__init__()
        self.pictures: list[tuple[tuple[int, ...], tuple[float, float]]] = []

    def add(self, card: Card | str, frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike) -> None:
        super().add(card, frame_bgr, quad)
        centre = np.asarray(quad, np.float32).mean(axis=0)
        self.pictures.append((frame_bgr.shape, (float(centre[0]), float(centre[1]))))


def test_with_the_cameras_larger_stream_cards_are_read_and_enrolled_from_it() -> None:
    reader, builder = TwoStreamReader(), NotingBuilder()
    e = Enrolment(deck(24), reader, builder, clock=lambda: 0.0)  # type: ignore[arg-type]
    big = np.zeros((960, 1280, 3), np.uint8)
    reader.lay(100, 120, Card.parse("Qh"))
    for n in range(SETTLE + 1):
        e.update(FRAME, n, big)
    assert builder.added == [Card.parse("Qh")]
    # followed in the small frame, read from the large one along the outline scaled to it
    assert reader.read_from and {r for r in reader.read_from} == {((960, 1280, 3), (200.0, 240.0))}
    assert builder.pictures == [((960, 1280, 3), (200.0, 240.0))]
    assert e.faces()[Card.parse("Qh")].shape[:2] == (100, 72)
    # a second picture no larger than the frame is not taken for a larger stream
    reader2, builder2 = TwoStreamReader(), NotingBuilder()
    e2 = Enrolment(deck(24), reader2, builder2, clock=lambda: 0.0)  # type: ignore[arg-type]
    reader2.lay(100, 120, Card.parse("Qh"))
    for n in range(SETTLE + 1):
        e2.update(FRAME, n, FRAME.copy())
    assert builder2.pictures == [((480, 640, 3), (100.0, 120.0))]


def test_a_card_laid_where_an_enrolled_card_lay_a_moment_ago_is_read_anew() -> None:
    """Players take a batch away and lay the next in the same places, quicker than a card is forgotten: the new
    card is read and enrolled, not taken for the one enrolled there."""
    e, reader, builder, now = setup()
    reader.lay(100, 100, Card.parse("Qh"))
    frames(e, now, SETTLE + 1)
    assert builder.added == [Card.parse("Qh")]
    reader.take_all()
    frames(e, now, LOST_FRAMES + 1)
    assert LOST_FRAMES + 1 < GONE_FRAMES  # the enrolled card is not forgotten yet
    reader.lay(100, 100, Card.parse("9d"))
    frames(e, now, SETTLE + 1)
    assert builder.added == [Card.parse("Qh"), Card.parse("9d")]
    assert set(e.enrolled) == {Card.parse("Qh"), Card.parse("9d")} and e.question is None


def test_an_enrolled_card_pushed_aside_is_known_again_without_a_question() -> None:
    e, reader, builder, now = setup()
    reader.lay(100, 100, Card.parse("Qh"))
    frames(e, now, SETTLE + 1)
    reader.take_all()
    reader.lay(100, 130, Card.parse("Qh"), p=0.7)  # 30 px: followed, but far from where it was enrolled
    frames(e, now, SETTLE + 1)
    assert builder.added == [Card.parse("Qh")] and e.history == [Card.parse("Qh")]
    assert e.question is None
    live = [c for c in e.cards if not c.gone]
    assert len(live) == 1 and live[0].state is CardState.ENROLLED and live[0].card == Card.parse("Qh")
    press(e, Action(ButtonAction.UNDO))  # taken back where it lies now
    assert e.question is not None and e.question.card_id == live[0].id and not e.enrolled


def test_a_moved_card_read_otherwise_is_asked_and_may_be_named_as_itself() -> None:
    e, reader, builder, now = setup()
    reader.lay(100, 100, Card.parse("Qh"))
    frames(e, now, SETTLE + 1)
    reader.take_all()
    reader.lay(100, 130, Card.parse("Qd"), p=0.6, runner_up=Card.parse("Qh"))
    frames(e, now, SETTLE + 1)
    q = e.question
    assert q is not None and q.candidates[:2] == [Card.parse("Qd"), Card.parse("Qh")]  # itself among them
    e.act(Step(EnrolAction.PICK, card=Card.parse("Qh")))
    press(e, Action(ButtonAction.CALL))
    assert builder.added == [Card.parse("Qh")] and e.history == [Card.parse("Qh")] and e.question is None
    assert "in already" in e.message
