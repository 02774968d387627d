"""The GPIO button panel: bids, going alone and undo from physical buttons, with optional turn LEDs and a buzzer.

gpiozero reports raw pin edges; debouncing and long presses are this
module's own code (`Debouncer`), driven by times passed in, because
gpiozero's mock pins ignore ``bounce_time`` and its hold timer runs on real
time in a thread. Edges arrive in gpiozero's thread; actions go to the main
loop through a `queue.Queue`. The loop calls `ButtonPanel.poll` every frame
so a held button fires while it is still held.

Off a Pi (no pin factory), `open_panel` logs one line and returns None: the
keyboard still works and nothing crashes.
"""

from __future__ import annotations

import logging
import math
import queue
import threading
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from display.actions import Action, ButtonAction
from table.cards import Suit

log = logging.getLogger(__name__)

Pin = int | str  # a BCM number, or a name gpiozero understands ("GPIO5", "BOARD29")


@dataclass(frozen=True)
class ButtonPin:
    """One button: the action for a press and, optionally, a different action for a long press."""

    action: Action
    pin: Pin
    hold: Action | None = None


_A = ButtonAction

# Every button a panel may have, by the name the config file gives it: its action and its long press.
BUTTON_ACTIONS: Mapping[str, tuple[Action, Action | None]] = MappingProxyType({
    "pass": (Action(_A.PASS), None),
    "order_up": (Action(_A.CALL), None),
    "clubs": (Action(_A.SUIT, Suit.CLUBS), None),
    "diamonds": (Action(_A.SUIT, Suit.DIAMONDS), None),
    "hearts": (Action(_A.SUIT, Suit.HEARTS), None),
    "spades": (Action(_A.SUIT, Suit.SPADES), None),
    "alone": (Action(_A.ALONE), Action(_A.DECLARE)),  # held: the declarations menu
    "undo": (Action(_A.UNDO), Action(_A.NEW_GAME)),  # held: a new game, for a panel without its own button
    "new_game": (Action(_A.NEW_GAME), None),
    "next_reading": (Action(_A.NEXT_READING), None),
    "misdeal": (Action(_A.MISDEAL), None),  # the app asks for a second press before it voids the deal
    "declare": (Action(_A.DECLARE), None),  # the declarations menu, for a panel that wants it without a hold
    "mute": (Action(_A.TOGGLE_MUTE), None),
})
BUTTON_NAMES: tuple[str, ...] = tuple(BUTTON_ACTIONS)

# The standard panel's BCM pins (the config's defaults); "next_reading", "misdeal", "declare" and "mute" are
# optional extras.
DEFAULT_PINS: Mapping[str, int] = MappingProxyType({
    "pass": 5,
    "order_up": 6,
    "clubs": 13,
    "diamonds": 19,
    "hearts": 26,
    "spades": 21,
    "alone": 20,
    "undo": 16,
    "new_game": 12,
})


def buttons_from_pins(pins: Mapping[str, Pin]) -> tuple[ButtonPin, ...]:
    """The panel's buttons for ``pins`` (button name -> pin), in the order given; an unknown name is a ValueError."""
    unknown = sorted(set(pins) - set(BUTTON_ACTIONS))
    if unknown:
        raise ValueError(f"buttons_from_pins: no such button {', '.join(unknown)} (known: {', '.join(BUTTON_NAMES)})")
    return tuple(ButtonPin(BUTTON_ACTIONS[name][0], pin, hold=BUTTON_ACTIONS[name][1]) for name, pin in pins.items())


DEFAULT_BUTTONS: tuple[ButtonPin, ...] = buttons_from_pins(DEFAULT_PINS)


@dataclass(frozen=True)
class PanelConfig:
    """Pins and timings (the app reads them from its TOML config).

    Buttons connect a GPIO pin to ground (``pull_up=True``). ``turn_leds`` are
    four pins, one per seat 0-3, or none; ``buzzer`` sounds for a renege.
    """

    buttons: tuple[ButtonPin, ...] = DEFAULT_BUTTONS
    debounce_s: float = 0.03
    hold_s: float = 2.0
    pull_up: bool = True
    turn_leds: tuple[Pin, ...] = ()
    buzzer: Pin | None = None

    def __post_init__(self) -> None:
        pins = [b.pin for b in self.buttons] + list(self.turn_leds) + ([self.buzzer] if self.buzzer is not None else [])
        dupes = sorted({str(p) for p in pins if pins.count(p) > 1})
        if dupes:
            raise ValueError(f"PanelConfig: pins used twice: {', '.join(dupes)}")
        if len(self.turn_leds) not in (0, 4):
            raise ValueError(f"PanelConfig: turn_leds needs four pins (seats 0-3) or none, got {len(self.turn_leds)}")
        if self.debounce_s < 0 or self.hold_s <= self.debounce_s:
            raise ValueError(f"PanelConfig: need 0 <= debounce_s < hold_s, got {self.debounce_s}, {self.hold_s}")


class Debouncer:
    """One button's debounce and long press, from raw edges and the times they happened.

    An accepted change locks the button for ``debounce_s``: edges inside that
    window are contact bounce. A state that outlasts the window is accepted when
    the next edge or poll comes, as of the moment the window closed, so a tap
    shorter than the window is still a tap. A button without a hold action
    acts on the press; one with a hold action waits: released before
    ``hold_s`` it gives its press action, held that long it gives the hold
    action once (from `poll`, while still held).
    """

    def __init__(self, press: Action, hold: Action | None, debounce_s: float, hold_s: float) -> None:
        self.press = press
        self.hold = hold
        self.debounce_s = debounce_s
        self.hold_s = hold_s
        self.down = False  # the accepted state
        self._raw = False
        self._raw_at = -math.inf
        self._changed_at = -math.inf
        self._pressed_at = -math.inf
        self._hold_fired = False

    def edge(self, pressed: bool, now: float) -> list[Action]:
        """The pin changed to ``pressed`` at ``now``: the actions this makes."""
        out = self._catch_up(now)
        if pressed != self._raw:
            self._raw, self._raw_at = pressed, now
        if self._raw != self.down and now - self._changed_at >= self.debounce_s:
            out += self._accept(self._raw, now)
        return out

    def poll(self, now: float) -> list[Action]:
        """Called often by the loop: settles a bounced state and fires a hold that is due."""
        out = self._catch_up(now)
        if self.down and self.hold is not None and not self._hold_fired and now - self._pressed_at >= self.hold_s:
            self._hold_fired = True
            out.append(self.hold)
        return out

    def _catch_up(self, now: float) -> list[Action]:
        window_end = self._changed_at + self.debounce_s
        if self._raw != self.down and now >= window_end:
            return self._accept(self._raw, max(self._raw_at, window_end))
        return []

    def _accept(self, pressed: bool, at: float) -> list[Action]:
        self.down, self._changed_at = pressed, at
        if pressed:
            self._pressed_at, self._hold_fired = at, False
            return [self.press] if self.hold is None else []
        if self.hold is None or self._hold_fired:
            return []
        if at - self._pressed_at >= self.hold_s:  # held long enough, but no poll came in time
            self._hold_fired = True
            return [self.hold]
        return [self.press]


class ButtonPanel:
    """gpiozero buttons (and optional LEDs and buzzer) that put `Action`s on a queue.

    Each button is a `gpiozero.DigitalInputDevice`, which is `gpiozero.Button`
    less its hold timer thread: holds are timed by `Debouncer` instead.
    """

    def __init__(
        self,
        config: PanelConfig,
        actions: queue.Queue[Action],
        *,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        import gpiozero  # type: ignore[import-untyped]  # here, so importing this module never touches GPIO

        self.config = config
        self.actions = actions
        self._clock = clock
        self._lock = threading.Lock()
        self._devices: list[Any] = []
        self._debouncers: list[Debouncer] = []
        self._leds: list[Any] = []
        self._buzzer: Any = None
        try:
            for spec in config.buttons:
                # a Button without its hold thread (holds are timed here), so closing it is instant
                button = gpiozero.DigitalInputDevice(
                    spec.pin, pull_up=config.pull_up, bounce_time=None, pin_factory=pin_factory
                )
                self._devices.append(button)
                deb = Debouncer(spec.action, spec.hold, config.debounce_s, config.hold_s)
                self._debouncers.append(deb)
                button.when_activated = self._edge_callback(deb, True)
                button.when_deactivated = self._edge_callback(deb, False)
            for pin in config.turn_leds:
                led = gpiozero.LED(pin, pin_factory=pin_factory)
                self._devices.append(led)
                self._leds.append(led)
            if config.buzzer is not None:
                self._buzzer = gpiozero.Buzzer(config.buzzer, pin_factory=pin_factory)
                self._devices.append(self._buzzer)
        except BaseException:
            self.close()
            raise

    def _edge_callback(self, deb: Debouncer, pressed: bool) -> Callable[[], None]:
        def callback() -> None:
            self._emit(lambda now: deb.edge(pressed, now))

        return callback

    def _emit(self, step: Callable[[float], list[Action]]) -> None:
        with self._lock:
            for action in step(self._clock()):
                self.actions.put(action)

    def poll(self) -> None:
        """Fire holds that are due and settle bounced buttons; call it every frame."""
        for deb in self._debouncers:
            self._emit(deb.poll)

    def show_turn(self, seat: int | None) -> None:
        """Light the LED of the seat whose turn it is (all off for None)."""
        for i, led in enumerate(self._leds):
            led.value = 1 if i == seat else 0

    def alarm(self, on: bool) -> None:
        """Beep the buzzer (in gpiozero's background thread) while a renege alert is up."""
        if self._buzzer is None:
            return
        if on:
            self._buzzer.beep(on_time=0.2, off_time=0.3, n=6, background=True)
        else:
            self._buzzer.off()

    def close(self) -> None:
        for device in reversed(self._devices):
            try:
                device.close()
            except Exception:  # one failing to close must not stop the others
                log.debug("closing %r failed", device, exc_info=True)
        self._devices.clear()
        self._leds.clear()
        self._buzzer = None


def open_panel(
    config: PanelConfig,
    actions: queue.Queue[Action],
    *,
    pin_factory: Any = None,
    clock: Callable[[], float] = time.monotonic,
) -> ButtonPanel | None:
    """The button panel, or None (logged once) where there is no GPIO: off a Pi, or pins already taken."""
    try:
        import gpiozero  # type: ignore[import-untyped,unused-ignore]
    except ImportError as e:
        log.warning("button panel: gpiozero is not installed (%s); use the keyboard", e)
        return None
    with warnings.catch_warnings():
        # gpiozero warns once per pin library it tries; the one line below says it all
        warnings.simplefilter("ignore", gpiozero.PinFactoryFallback)
        try:
            return ButtonPanel(config, actions, pin_factory=pin_factory, clock=clock)
        except (gpiozero.GPIOZeroError, ImportError, OSError, RuntimeError) as e:
            log.warning("button panel: no GPIO buttons here (%s: %s); use the keyboard", type(e).__name__, e)
            return None
