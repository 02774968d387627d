"""The scoreboard's loop: handle events, update, draw only when something changed, clean up in ``finally``.

The app owns the game; it hands the scoreboard a new `ScoreboardView` with
`Scoreboard.show` and reads player requests (keys, buttons, and taps on the
touchscreen's drawn buttons, as `Action`s) from the queue. Nothing here touches disk, the camera or the speaker, and
the per-frame hook the app passes to `run` must not block either. The
surface is injected, so tests drive `step` with a plain Surface and a fake
clock.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable
from dataclasses import replace

import pygame

from display.actions import Action, ButtonAction
from display.buttons import ButtonPanel
from display.keyboard import action_for_key
from display.render import FLASH_HZ, TouchButton, render
from display.view import ScoreboardView, ScoreStyle

log = logging.getLogger(__name__)

FrameHook = Callable[[float], None]


class Scoreboard:
    """Draws views on a surface; turns keys and buttons into actions on a queue."""

    def __init__(
        self,
        surface: pygame.Surface,
        actions: queue.Queue[Action] | None = None,
        *,
        panel: ButtonPanel | None = None,
        clock: Callable[[], float] = time.monotonic,
        flip: bool | None = None,
    ) -> None:
        self.surface = surface
        self.actions: queue.Queue[Action] = actions if actions is not None else queue.Queue()
        self.panel = panel
        self.clock = clock
        # flip only a real window (pygame.display.flip on a plain Surface would update some other screen)
        is_window = pygame.display.get_init() and pygame.display.get_surface() is surface
        self.flip = flip if flip is not None else is_window
        self.view: ScoreboardView | None = None
        self.score_style: ScoreStyle | None = None  # the F key's choice, over the view's
        self.running = True
        self.frames_drawn = 0
        self._dirty = True
        self._alert_since: float | None = None
        self._flash_phase = -1
        self.buttons: tuple[TouchButton, ...] = ()  # the buttons on the screen now, for taps and clicks

    def show(self, view: ScoreboardView) -> None:
        """The view to draw from now on; a view equal to the last one changes nothing."""
        if view == self.view:
            return
        old_alert = self.view.renege if self.view is not None else None
        if view.renege != old_alert:
            self._alert_since, self._flash_phase = None, -1  # a new alert starts bright
        if self.panel is not None:
            self.panel.show_turn(view.turn)
            if (view.renege is None) != (old_alert is None):
                self.panel.alarm(view.renege is not None)
        self.view = view
        self._dirty = True

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
            self.actions.put(Action(ButtonAction.QUIT))
        elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWEXPOSED, pygame.WINDOWSIZECHANGED):
            self._dirty = True
        pos = self._pointer(event)
        if pos is not None:
            tapped = next((b.action for b in self.buttons if b.contains(pos)), None)
            if tapped is not None:
                self.actions.put(tapped)
            return
        action = action_for_key(event)
        if action is None:
            return
        if action.kind is ButtonAction.TOGGLE_SCORE_STYLE:
            current = self.score_style or (self.view.score_style if self.view else ScoreStyle.NUMBERS)
            self.score_style = ScoreStyle.CARDS if current is ScoreStyle.NUMBERS else ScoreStyle.NUMBERS
            self._dirty = True
            return
        if action.kind is ButtonAction.QUIT:
            self.running = False
        self.actions.put(action)

    def _pointer(self, event: pygame.event.Event) -> tuple[float, float] | None:
        """Where a tap or a left click landed, in pixels, or None for other events.

        SDL also reports a tap as a mouse click (marked ``touch``): only the finger event counts, so a
        tap is never taken twice.
        """
        if event.type == pygame.FINGERDOWN:
            w, h = self.surface.get_size()
            return float(event.x) * w, float(event.y) * h
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not getattr(event, "touch", False):
            x, y = event.pos
            return float(x), float(y)
        return None

    def update(self, now: float) -> None:
        """Poll the buttons, and mark the screen dirty when the renege alert's flash changes phase."""
        if self.panel is not None:
            self.panel.poll()
        if self.view is not None and self.view.renege is not None:
            if self._alert_since is None:
                self._alert_since = now
            phase = int((now - self._alert_since) * FLASH_HZ * 2)
            if phase != self._flash_phase:
                self._flash_phase = phase
                self._dirty = True

    def draw(self, now: float) -> bool:
        """Render if something changed; True when it drew."""
        if not self._dirty or self.view is None:
            return False
        view = self.view if self.score_style is None else replace(self.view, score_style=self.score_style)
        t = now - self._alert_since if self._alert_since is not None else 0.0
        self.buttons = render(self.surface, view, t).buttons
        if self.flip:
            pygame.display.flip()
        self._dirty = False
        self.frames_drawn += 1
        return True

    def step(self, now: float | None = None, events: list[pygame.event.Event] | None = None) -> bool:
        """One frame: events (from pygame's queue unless given), update, draw. True when it drew."""
        now = self.clock() if now is None else now
        for event in pygame.event.get() if events is None else events:
            self.handle_event(event)
        self.update(now)
        return self.draw(now)

    def run(self, on_frame: FrameHook | None = None, fps: int = 30) -> None:
        """Loop until quit; ``on_frame(now)`` (the app's non-blocking hook) may call `show`. Closes the panel."""
        ticker = pygame.time.Clock()
        try:
            while self.running:
                now = self.clock()
                if on_frame is not None:
                    on_frame(now)
                self.step(now)
                ticker.tick(fps)
        finally:
            self.close()

    def close(self) -> None:
        if self.panel is not None:
            self.panel.close()
            self.panel = None


def open_display(size: tuple[int, int] | None = None, fullscreen: bool = True, title: str = "Euchre") -> pygame.Surface:
    """The window or full screen to draw on (KMSDRM on a Pi without a desktop: set SDL_VIDEODRIVER=kmsdrm).

    ``size=None`` takes the screen's own size in full screen, else 800x480.
    """
    pygame.display.init()
    pygame.display.set_caption(title)
    if fullscreen:
        surface = pygame.display.set_mode(size or (0, 0), pygame.FULLSCREEN)
        pygame.mouse.set_visible(False)
    else:
        surface = pygame.display.set_mode(size or (800, 480), pygame.RESIZABLE)
    log.info("display: %sx%s via %s", *surface.get_size(), pygame.display.get_driver())
    return surface
