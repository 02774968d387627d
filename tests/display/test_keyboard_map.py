"""Keyboard equivalents: key events map to the same actions as the buttons."""

from __future__ import annotations

import pygame
import pytest

from display.actions import Action, ButtonAction, in_context, next_suit
from display.buttons import BUTTON_ACTIONS, DEFAULT_BUTTONS
from display.keyboard import KEYMAP, action_for_key
from table.cards import Suit

A = ButtonAction


def key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="")


@pytest.mark.parametrize(
    ("k", "expected"),
    [
        (pygame.K_p, Action(A.PASS)),
        (pygame.K_SPACE, Action(A.PASS)),
        (pygame.K_o, Action(A.CALL)),
        (pygame.K_RETURN, Action(A.CALL)),
        (pygame.K_h, Action(A.SUIT, Suit.HEARTS)),
        (pygame.K_c, Action(A.SUIT, Suit.CLUBS)),
        (pygame.K_a, Action(A.ALONE)),
        (pygame.K_u, Action(A.UNDO)),
        (pygame.K_n, Action(A.NEW_GAME)),
        (pygame.K_y, Action(A.ACCEPT_PENALTY)),
        (pygame.K_x, Action(A.DISMISS_RENEGE)),
        (pygame.K_v, Action(A.MISDEAL)),
        (pygame.K_ESCAPE, Action(A.QUIT)),
    ],
)
def test_keys(k: int, expected: Action) -> None:
    assert action_for_key(key(k)) == expected


def test_every_button_has_a_key() -> None:
    keyed = set(KEYMAP.values())
    for spec in DEFAULT_BUTTONS:
        assert spec.action in keyed
        assert spec.hold is None or spec.hold in keyed
    for name, (press, hold) in BUTTON_ACTIONS.items():  # the optional buttons too
        assert press in keyed and (hold is None or hold in keyed), name


def test_other_events_unmapped_keys_and_shortcuts_give_nothing() -> None:
    assert action_for_key(pygame.event.Event(pygame.KEYUP, key=pygame.K_p, mod=0)) is None
    assert action_for_key(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(0, 0))) is None
    assert action_for_key(key(pygame.K_F12)) is None
    assert action_for_key(key(pygame.K_c, pygame.KMOD_LCTRL)) is None  # Ctrl+C is not "clubs"
    assert action_for_key(key(pygame.K_c, pygame.KMOD_LSHIFT)) == Action(A.SUIT, Suit.CLUBS)


def test_bidding_buttons_decide_a_renege_in_context() -> None:
    assert in_context(Action(A.CALL), renege_pending=True) == Action(A.ACCEPT_PENALTY)
    assert in_context(Action(A.PASS), renege_pending=True) == Action(A.DISMISS_RENEGE)
    assert in_context(Action(A.CALL), renege_pending=False) == Action(A.CALL)
    assert in_context(Action(A.UNDO), renege_pending=True) == Action(A.UNDO)


def test_suit_cycle_skips_the_turned_down_suit() -> None:
    assert next_suit(None) is Suit.CLUBS
    assert next_suit(Suit.SPADES) is Suit.CLUBS
    assert next_suit(Suit.CLUBS, skip=Suit.DIAMONDS) is Suit.HEARTS


def test_an_action_carries_a_suit_only_when_it_names_one() -> None:
    with pytest.raises(ValueError, match="suit"):
        Action(A.SUIT)
    with pytest.raises(ValueError, match="suit"):
        Action(A.PASS, Suit.CLUBS)
    assert str(Action(A.SUIT, Suit.HEARTS)) == "suit:h"
