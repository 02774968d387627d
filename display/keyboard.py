"""Keyboard equivalents of the button panel, for desktop use and the demo: a pure map from key events to actions.

Keys: P or Space pass; O, Return or K call / order up; C D H S name clubs,
diamonds, hearts, spades; Tab cycles the suit; A alone; U or Backspace undo;
N new game; Y accept a renege penalty; X dismiss it; R next reading of a
misread card; V misdeal (void the deal in progress: press it again to confirm);
E the declarations menu (as holding Alone);
M mute; F toggles the 6-and-4 score cards; Escape or Q quits.
"""

from __future__ import annotations

import pygame

from display.actions import Action, ButtonAction
from table.cards import Suit

_A = ButtonAction
KEYMAP: dict[int, Action] = {
    pygame.K_p: Action(_A.PASS),
    pygame.K_SPACE: Action(_A.PASS),
    pygame.K_o: Action(_A.CALL),
    pygame.K_k: Action(_A.CALL),
    pygame.K_RETURN: Action(_A.CALL),
    pygame.K_KP_ENTER: Action(_A.CALL),
    pygame.K_c: Action(_A.SUIT, Suit.CLUBS),
    pygame.K_d: Action(_A.SUIT, Suit.DIAMONDS),
    pygame.K_h: Action(_A.SUIT, Suit.HEARTS),
    pygame.K_s: Action(_A.SUIT, Suit.SPADES),
    pygame.K_TAB: Action(_A.SUIT_CYCLE),
    pygame.K_a: Action(_A.ALONE),
    pygame.K_u: Action(_A.UNDO),
    pygame.K_BACKSPACE: Action(_A.UNDO),
    pygame.K_n: Action(_A.NEW_GAME),
    pygame.K_y: Action(_A.ACCEPT_PENALTY),
    pygame.K_x: Action(_A.DISMISS_RENEGE),
    pygame.K_r: Action(_A.NEXT_READING),
    pygame.K_v: Action(_A.MISDEAL),
    pygame.K_e: Action(_A.DECLARE),
    pygame.K_m: Action(_A.TOGGLE_MUTE),
    pygame.K_f: Action(_A.TOGGLE_SCORE_STYLE),
    pygame.K_ESCAPE: Action(_A.QUIT),
    pygame.K_q: Action(_A.QUIT),
}

_IGNORED_MODS = pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META


def action_for_key(event: pygame.event.Event) -> Action | None:
    """The action for a KEYDOWN event, or None (other events, unmapped keys, Ctrl/Alt combinations)."""
    if event.type != pygame.KEYDOWN:
        return None
    if getattr(event, "mod", 0) & _IGNORED_MODS:
        return None
    return KEYMAP.get(event.key)
