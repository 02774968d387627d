"""The enrolment screen: what it shows, what taps and keys do, the contact sheet."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pygame

from display.enrol_screen import CAMERA, Drawn, EnrolScreen, card_text, deck_grid, render_enrolment, save_contact_sheet
from display.enrolment import READS, STILL_FRAMES, EnrolAction, Enrolment, Ranking, Step
from display.render import ALERT_RED
from table.cards import BENNY, Card, deck

FRAME = np.full((480, 640, 3), 90, np.uint8)


class OneCardReader:
    """One card on the mat, read unsurely as the queen of hearts (the queen of diamonds next)."""

    def outlines(self, frame_bgr: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        quad = np.array([[[300, 200], [360, 200], [360, 284], [300, 284]]], np.float32)
        return quad, np.ones(1, np.float32)

    def rank(self, frame_bgr: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32]) -> Ranking:
        first, second = Card.parse("Qh"), Card.parse("Qd")
        rest = [c for c in deck(33) if c not in (first, second)]
        return Ranking(((first, 0.5), (second, 0.3), *((c, 0.2 / len(rest)) for c in rest)), 0.9)


class Builder:
    def __init__(self) -> None:
        self.added: list[Card] = []

    def add(self, card: Card | str, frame_bgr: npt.NDArray[np.uint8], quad: npt.ArrayLike) -> None:
        self.added.append(Card.parse(str(card)))

    def remove(self, card: Card | str) -> None:
        self.added.remove(Card.parse(str(card)))

    def build(self, name: str) -> object:
        return name


def asking() -> Enrolment:
    e = Enrolment(deck(25), OneCardReader(), Builder(), clock=lambda: 42.0)  # type: ignore[arg-type]
    for n in range(STILL_FRAMES + READS + 1):
        e.update(FRAME, n)
    assert e.question is not None
    return e


def click(pos: tuple[int, int]) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos)


def centre(rect: tuple[int, int, int, int]) -> tuple[int, int]:
    x, y, w, h = rect
    return (x + w // 2, y + h // 2)


def test_the_question_shows_the_card_its_candidates_and_buttons(tmp_path: Path) -> None:
    e = asking()
    surface = pygame.Surface((800, 480))
    drawn = render_enrolment(surface, e, FRAME, "house")
    texts = [t.text for t in drawn.texts]
    assert "Which card is this?" in texts and "Teach the deck: house" in texts
    assert any("0 of 25 cards" in t for t in texts)
    assert "It is Q\u2665" in texts
    kinds = [b.step.kind for b in drawn.buttons]
    for kind in (EnrolAction.PREV, EnrolAction.NEXT, EnrolAction.CONFIRM, EnrolAction.SKIP, EnrolAction.UNDO):
        assert kind in kinds
    for t in drawn.texts:  # nothing drawn off the screen
        x, y, w, h = t.rect
        assert x >= 0 and y >= 0 and x + w <= 800 and y + h <= 480, t
    pygame.image.save(surface, str(tmp_path / "question.png"))


def test_taps_pick_and_confirm_and_keys_step() -> None:
    e = asking()
    screen = EnrolScreen(pygame.Surface((800, 480)), e, "house")
    drawn = screen.draw(FRAME)
    qd = next(b for b in drawn.buttons if b.step.kind is EnrolAction.PICK and b.step.card == Card.parse("Qd"))
    screen.handle([click(centre(qd.rect))])
    assert e.question is not None and e.question.chosen == Card.parse("Qd") and not e.enrolled
    key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0)
    screen.handle([key])
    assert e.question.chosen != Card.parse("Qd")
    screen.handle([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, mod=0)])
    assert e.question.chosen == Card.parse("Qd")
    screen.handle([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_b, mod=0)])
    assert e.question.chosen == BENNY
    drawn = screen.draw(FRAME)
    ok = next(b for b in drawn.buttons if b.step.kind is EnrolAction.CONFIRM and b.step.card is None)
    screen.handle([click(centre(ok.rect))])
    assert list(e.enrolled) == [BENNY] and e.enrolled[BENNY].by_players
    screen.handle([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_u, mod=0)])  # undo, from the keyboard
    assert not e.enrolled


def test_the_deck_grid_has_a_row_per_suit_and_the_jokers_row() -> None:
    rows, cols = deck_grid(deck(33))
    assert cols == 8 and len(rows) == 5 and rows[-1] == [BENNY]
    rows, cols = deck_grid(deck(24))
    assert cols == 6 and len(rows) == 4 and rows[0][0] == Card.parse("9c")
    assert card_text(Card.parse("Th")) == "10\u2665" and card_text(BENNY) == "Joker"


def test_the_contact_sheet_shows_every_card_as_enrolled(tmp_path: Path) -> None:
    faces = {c: np.full((100, 72, 3), 40 + 6 * i, np.uint8) for i, c in enumerate(deck(25)) if c != Card.parse("Ks")}
    path = save_contact_sheet(tmp_path / "sheet.png", deck(25), faces, "house", "24 of 25 cards", frozenset({BENNY}))
    image = pygame.image.load(str(path))
    assert image.get_size() == (1200, 720)
    surface = pygame.Surface((800, 480))
    e = asking()
    e.finish()
    drawn = render_enrolment(surface, e, None, "house")
    texts = [t.text for t in drawn.texts]
    assert "Deck house: 0 of 25 cards" in texts and "K\u2660" in texts and "Joker" in texts


def test_the_contact_sheet_says_whether_the_deck_was_saved() -> None:
    surface = pygame.Surface((800, 480))
    e = asking()
    e.act(Step(EnrolAction.CONFIRM))
    e.finish()

    def header_and_foot() -> tuple[str, str]:
        texts = render_enrolment(surface, e, None, "house").texts
        return texts[0].text, texts[-1].text

    header, foot = header_and_foot()
    assert header == "Deck house: 1 of 25 cards" and foot.startswith("1 of 25 cards in 0:00")  # not tried yet
    why = "/data/decks/house: cannot save the deck profile: No space left on device"
    e.save_failed(why)
    # Shown whole, not cut short: what to do across the top, why at the foot.
    assert header_and_foot() == ("Not saved. Free some space, then press Call to try again.", why)
    assert surface.get_at((4, 4))[:3] == ALERT_RED
    e.save_done("/data/decks/house")
    assert header_and_foot()[0] == "Deck house: 1 of 25 cards  \u00b7  Saved. Press Call to close."
    assert surface.get_at((4, 4))[:3] != ALERT_RED
    plain = [t.text for t in render_enrolment(surface, e, None, "house").texts]
    # a deck printing some suits alike: the sheet says so above its foot, the foot as it was
    e.save_done("/data/decks/house", note="This deck prints some suits alike")
    texts = render_enrolment(surface, e, None, "house").texts
    assert [t.text for t in texts] == [*plain[:-1], "This deck prints some suits alike", plain[-1]]
    note, foot_text = texts[-2], texts[-1]
    assert note.rect[1] + note.rect[3] <= foot_text.rect[1]  # above the foot, not over it


def test_the_camera_view_leaves_out_a_card_taken_off_the_mat() -> None:
    """An enrolled card followed anew elsewhere (``OnMat.gone``) keeps its enrolment but is not drawn where it
    lay, even in the frame or two it is still recent."""
    e = asking()
    e.act(Step(EnrolAction.CONFIRM))
    assert Card.parse("Qh") in e.enrolled

    def in_camera(drawn: Drawn) -> list[str]:
        x0, y0, w, h = CAMERA
        return [
            t.text
            for t in drawn.texts
            if x0 <= t.rect[0] + t.rect[2] / 2 <= x0 + w and y0 <= t.rect[1] + t.rect[3] / 2 <= y0 + h
        ]

    surface = pygame.Surface((800, 480))
    assert card_text(Card.parse("Qh")) in in_camera(render_enrolment(surface, e, FRAME, "house"))
    e.cards[0].gone = True
    assert card_text(Card.parse("Qh")) not in in_camera(render_enrolment(surface, e, FRAME, "house"))
