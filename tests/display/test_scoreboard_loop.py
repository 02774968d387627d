"""The scoreboard loop: draws only on change, flashes a renege from the clock, turns keys into actions."""

from __future__ import annotations

import queue
import time
from dataclasses import replace

import pygame
import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from display import samples
from display.actions import Action, ButtonAction
from display.buttons import ButtonPanel, PanelConfig
from display.scoreboard import Scoreboard
from display.view import ScoreStyle

A = ButtonAction


def key(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="")


@pytest.fixture
def board() -> Scoreboard:
    return Scoreboard(pygame.Surface((800, 480)), queue.Queue(), clock=lambda: 0.0)


def test_draws_only_when_something_changed(board: Scoreboard) -> None:
    assert not board.step(0.0, events=[])  # nothing to show yet
    board.show(samples.play_mid_trick())
    assert board.step(0.0, events=[])
    assert not board.step(0.1, events=[])
    board.show(samples.play_mid_trick())  # an equal view
    assert not board.step(0.2, events=[])
    board.show(replace(samples.play_mid_trick(), score=(5, 6)))
    assert board.step(0.3, events=[])
    assert board.frames_drawn == 2


def test_renege_alert_redraws_at_each_flash_and_starts_bright(board: Scoreboard) -> None:
    board.show(samples.play_mid_trick())
    board.step(10.0, events=[])
    board.show(samples.renege_alert())
    assert board.step(10.05, events=[])
    bright = pygame.surfarray.array3d(board.surface)[400, 240].tolist()
    assert not board.step(10.2, events=[])  # same flash phase
    assert board.step(10.32, events=[])  # 0.27 s into the alert: the dark phase
    assert pygame.surfarray.array3d(board.surface)[400, 240].tolist() != bright
    board.show(samples.play_mid_trick())
    assert board.step(10.4, events=[])
    assert not board.step(11.0, events=[])  # no alert, no more redraws


def test_keys_become_actions_on_the_queue(board: Scoreboard) -> None:
    board.step(0.0, events=[key(pygame.K_p), key(pygame.K_h), key(pygame.K_F12)])
    assert board.actions.get_nowait() == Action(A.PASS)
    assert board.actions.get_nowait().suit is not None
    assert board.actions.empty()


def test_quit_stops_the_loop(board: Scoreboard) -> None:
    board.step(0.0, events=[pygame.event.Event(pygame.QUIT)])
    assert not board.running
    assert board.actions.get_nowait() == Action(A.QUIT)


def test_score_style_key_is_handled_by_the_display(board: Scoreboard) -> None:
    board.show(samples.play_mid_trick())
    board.step(0.0, events=[])
    before = pygame.surfarray.array3d(board.surface).copy()
    assert board.step(0.1, events=[key(pygame.K_f)])
    assert board.score_style is ScoreStyle.CARDS
    assert board.actions.empty()
    assert (pygame.surfarray.array3d(board.surface) != before).any()


def test_run_calls_the_hook_and_closes_the_panel_even_on_error() -> None:
    factory = MockFactory()
    actions: queue.Queue[Action] = queue.Queue()
    panel = ButtonPanel(PanelConfig(turn_leds=(17, 27, 22, 23)), actions, pin_factory=factory)
    board = Scoreboard(pygame.Surface((800, 480)), actions, panel=panel)
    frames: list[float] = []

    def hook(now: float) -> None:
        frames.append(now)
        board.show(samples.bidding_round_1())
        if len(frames) == 3:
            raise RuntimeError("the app failed")

    with pytest.raises(RuntimeError, match="the app failed"):
        board.run(on_frame=hook, fps=200)
    assert len(frames) == 3
    assert board.panel is None
    ButtonPanel(PanelConfig(), actions, pin_factory=factory).close()


def test_show_lights_the_turn_led_and_sounds_the_buzzer_for_a_renege() -> None:
    factory = MockFactory()
    actions: queue.Queue[Action] = queue.Queue()
    panel = ButtonPanel(PanelConfig(turn_leds=(17, 27, 22, 23), buzzer=24), actions, pin_factory=factory)
    board = Scoreboard(pygame.Surface((800, 480)), actions, panel=panel)
    try:
        board.show(samples.bidding_round_1())  # North (seat 0) to bid
        assert [factory.pin(p).state for p in (17, 27, 22, 23)] == [1, 0, 0, 0]
        board.show(samples.renege_alert())
        deadline = time.monotonic() + 2
        while not any(s.state for s in factory.pin(24).states):  # gpiozero beeps in its own thread
            assert time.monotonic() < deadline, "the buzzer never sounded"
            time.sleep(0.01)
        board.show(samples.play_mid_trick())
        assert factory.pin(24).state == 0
    finally:
        board.close()


def test_panel_holds_fire_from_the_loop() -> None:
    factory = MockFactory()
    actions: queue.Queue[Action] = queue.Queue()
    now = [0.0]
    panel = ButtonPanel(PanelConfig(), actions, pin_factory=factory, clock=lambda: now[0])
    board = Scoreboard(pygame.Surface((800, 480)), actions, panel=panel)
    try:
        factory.pin(16).drive_low()  # Undo
        now[0] = 2.5
        board.step(2.5, events=[])
        assert actions.get_nowait() == Action(A.NEW_GAME)
    finally:
        board.close()


def test_open_display_gives_a_window_the_loop_flips() -> None:
    from display.scoreboard import open_display

    surface = open_display((1024, 600), fullscreen=False)
    board = Scoreboard(surface, queue.Queue())
    assert board.flip
    board.show(samples.hand_scored())
    assert board.step(0.0, events=[])
    assert surface.get_size() == (1024, 600)


def _renege_board() -> tuple[Scoreboard, tuple[int, int, int, int], tuple[int, int, int, int]]:
    board = Scoreboard(pygame.Surface((800, 480)), queue.Queue(), clock=lambda: 0.0)
    board.show(samples.renege_alert())
    board.step(0.0, events=[])
    accept, dismiss = board.buttons
    return board, accept.rect, dismiss.rect


def _centre(rect: tuple[int, int, int, int]) -> tuple[int, int]:
    return rect[0] + rect[2] // 2, rect[1] + rect[3] // 2


def test_a_tap_or_a_click_on_the_renege_buttons_gives_their_actions() -> None:
    board, accept, dismiss = _renege_board()
    x, y = _centre(accept)
    finger = pygame.event.Event(pygame.FINGERDOWN, x=x / 800, y=y / 480, touch_id=1, finger_id=0, pressure=1.0)
    board.step(0.1, events=[finger])
    assert board.actions.get_nowait() == Action(A.ACCEPT_PENALTY)
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=_centre(dismiss))
    board.step(0.2, events=[click])
    assert board.actions.get_nowait() == Action(A.DISMISS_RENEGE)
    assert board.actions.empty()


def test_a_tap_counts_once_and_only_on_a_button() -> None:
    board, accept, _ = _renege_board()
    # SDL reports a tap twice: as a finger, and as a mouse click marked "touch"
    as_mouse = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=_centre(accept), touch=True)
    right_click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=3, pos=_centre(accept))
    headline = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(400, 60))
    board.step(0.1, events=[as_mouse, right_click, headline])
    assert board.actions.empty()
    board.show(samples.play_mid_trick())  # the alert is gone: so are its buttons
    board.step(0.2, events=[])
    board.step(0.3, events=[pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=_centre(accept))])
    assert board.actions.empty()
