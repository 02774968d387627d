"""The GPIO panel on gpiozero's MockFactory: every button, debounce and long press, with an injected clock."""

from __future__ import annotations

import logging
import queue
from collections.abc import Iterator

import pytest
from gpiozero import Device  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from companion.builder import panel_config
from companion.config import parse_config
from display.actions import Action, ButtonAction
from display.buttons import (
    BUTTON_ACTIONS,
    BUTTON_NAMES,
    DEFAULT_BUTTONS,
    DEFAULT_PINS,
    ButtonPanel,
    ButtonPin,
    Debouncer,
    PanelConfig,
    buttons_from_pins,
    open_panel,
)

A = ButtonAction


class FakeClock:
    """Time that the test moves by hand (``clock.t += 0.2``): no sleeping."""

    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


UNDO_PIN = 16
LEDS = (17, 27, 22, 23)
BUZZER = 24


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def actions() -> queue.Queue[Action]:
    return queue.Queue()


@pytest.fixture
def panel(factory: MockFactory, actions: queue.Queue[Action], clock: FakeClock) -> Iterator[ButtonPanel]:
    config = PanelConfig(turn_leds=LEDS, buzzer=BUZZER)
    p = ButtonPanel(config, actions, pin_factory=factory, clock=clock)
    yield p
    p.close()


def drain(q: queue.Queue[Action]) -> list[Action]:
    out = []
    while not q.empty():
        out.append(q.get_nowait())
    return out


def tap(factory: MockFactory, clock: FakeClock, pin: int, seconds: float = 0.15) -> None:
    factory.pin(pin).drive_low()
    clock.t += seconds
    factory.pin(pin).drive_high()
    clock.t += 0.2


@pytest.mark.parametrize("spec", [b for b in DEFAULT_BUTTONS if b.hold is None], ids=lambda b: str(b.action))
def test_each_button_gives_its_action_when_pressed(
    spec: ButtonPin, panel: ButtonPanel, factory: MockFactory, actions: queue.Queue[Action], clock: FakeClock
) -> None:
    factory.pin(spec.pin).drive_low()
    assert drain(actions) == [spec.action]  # at once, on the press
    clock.t += 0.1
    factory.pin(spec.pin).drive_high()
    panel.poll()
    assert drain(actions) == []


def test_default_panel_has_the_bidding_buttons() -> None:
    kinds = {b.action.kind for b in DEFAULT_BUTTONS} | {b.hold.kind for b in DEFAULT_BUTTONS if b.hold}
    assert {A.PASS, A.CALL, A.SUIT, A.ALONE, A.UNDO, A.NEW_GAME} <= kinds
    assert len({b.action.suit for b in DEFAULT_BUTTONS if b.action.kind is A.SUIT}) == 4


# Every button the config can name, each on its own pin (the optional ones too).
ALL_PINS = {
    "pass": 5, "order_up": 6, "clubs": 13, "diamonds": 19, "hearts": 26, "spades": 21, "alone": 20,
    "undo": 16, "new_game": 12, "next_reading": 7, "mute": 8, "misdeal": 25, "declare": 11,
}


def test_the_config_and_the_panel_share_one_set_of_default_pins() -> None:
    assert PanelConfig().buttons == DEFAULT_BUTTONS == buttons_from_pins(DEFAULT_PINS)
    assert panel_config(parse_config("")).buttons == DEFAULT_BUTTONS
    assert {b.pin: b.action for b in DEFAULT_BUTTONS}[DEFAULT_PINS["new_game"]] == Action(A.NEW_GAME)


def test_every_button_the_config_can_wire_reaches_the_queue(
    factory: MockFactory, actions: queue.Queue[Action], clock: FakeClock
) -> None:
    assert set(ALL_PINS) == set(BUTTON_NAMES)  # a new kind of button gets a pin here too
    text = "[buttons]\n" + "".join(f"{name} = {pin}\n" for name, pin in ALL_PINS.items())
    config = panel_config(parse_config(text))
    panel = ButtonPanel(config, actions, pin_factory=factory, clock=clock)
    try:
        for name, pin in ALL_PINS.items():
            tap(factory, clock, pin)
            panel.poll()
            assert drain(actions) == [BUTTON_ACTIONS[name][0]], name
        factory.pin(ALL_PINS["undo"]).drive_low()  # held: a new game
        clock.t += 2.1
        panel.poll()
        assert drain(actions) == [Action(A.NEW_GAME)]
        factory.pin(ALL_PINS["undo"]).drive_high()
        clock.t += 0.2
        factory.pin(ALL_PINS["alone"]).drive_low()  # held: the declarations menu
        clock.t += 2.1
        panel.poll()
        assert drain(actions) == [Action(A.DECLARE)]
    finally:
        panel.close()


def test_an_unknown_button_name_is_refused() -> None:
    with pytest.raises(ValueError, match="no such button"):
        buttons_from_pins({"pass": 5, "shuffle": 6})


def test_undo_tapped_is_undo(
    panel: ButtonPanel, factory: MockFactory, actions: queue.Queue[Action], clock: FakeClock
) -> None:
    factory.pin(UNDO_PIN).drive_low()
    assert drain(actions) == []  # waits: it might become a hold
    clock.t += 0.3
    panel.poll()
    factory.pin(UNDO_PIN).drive_high()
    assert drain(actions) == [Action(A.UNDO)]


def test_undo_held_two_seconds_is_new_game_once(
    panel: ButtonPanel, factory: MockFactory, actions: queue.Queue[Action], clock: FakeClock
) -> None:
    factory.pin(UNDO_PIN).drive_low()
    clock.t += 1.9
    panel.poll()
    assert drain(actions) == []
    clock.t += 0.2
    panel.poll()
    assert drain(actions) == [Action(A.NEW_GAME)]  # while still held
    clock.t += 1.0
    panel.poll()
    factory.pin(UNDO_PIN).drive_high()
    panel.poll()
    assert drain(actions) == []  # no undo on release, no second new game


def test_hold_is_recognised_on_release_when_no_poll_came(
    panel: ButtonPanel, factory: MockFactory, actions: queue.Queue[Action], clock: FakeClock
) -> None:
    factory.pin(UNDO_PIN).drive_low()
    clock.t += 2.5
    factory.pin(UNDO_PIN).drive_high()
    assert drain(actions) == [Action(A.NEW_GAME)]


def test_contact_bounce_gives_one_press(
    panel: ButtonPanel, factory: MockFactory, actions: queue.Queue[Action], clock: FakeClock
) -> None:
    pin = factory.pin(5)  # Pass
    for _ in range(4):  # a bouncing contact: edges 2 ms apart
        pin.drive_low()
        clock.t += 0.002
        pin.drive_high()
        clock.t += 0.002
    pin.drive_low()
    clock.t += 0.2
    panel.poll()
    pin.drive_high()
    clock.t += 0.004
    pin.drive_low()  # bounce on release
    clock.t += 0.002
    pin.drive_high()
    clock.t += 0.2
    panel.poll()
    assert drain(actions) == [Action(A.PASS)]


def test_two_real_presses_give_two_actions(
    panel: ButtonPanel, factory: MockFactory, actions: queue.Queue[Action], clock: FakeClock
) -> None:
    tap(factory, clock, 6)
    tap(factory, clock, 6)
    assert drain(actions) == [Action(A.CALL), Action(A.CALL)]


def test_a_tap_shorter_than_the_debounce_window_still_counts(
    panel: ButtonPanel, factory: MockFactory, actions: queue.Queue[Action], clock: FakeClock
) -> None:
    tap(factory, clock, UNDO_PIN, seconds=0.01)  # released inside the window: seen when the window closes
    panel.poll()
    tap(factory, clock, 6, seconds=0.01)
    tap(factory, clock, 6, seconds=0.01)  # the second tap's press is not lost behind the first's release
    assert drain(actions) == [Action(A.UNDO), Action(A.CALL), Action(A.CALL)]


def test_turn_leds_and_buzzer(panel: ButtonPanel, factory: MockFactory) -> None:
    panel.show_turn(2)
    assert [factory.pin(p).state for p in LEDS] == [0, 0, 1, 0]
    panel.show_turn(None)
    assert [factory.pin(p).state for p in LEDS] == [0, 0, 0, 0]
    panel.alarm(True)
    panel.alarm(False)
    assert factory.pin(BUZZER).state == 0


def test_close_releases_the_pins(factory: MockFactory, actions: queue.Queue[Action], clock: FakeClock) -> None:
    first = ButtonPanel(PanelConfig(), actions, pin_factory=factory, clock=clock)
    first.close()
    second = ButtonPanel(PanelConfig(), actions, pin_factory=factory, clock=clock)  # the same pins again
    second.close()


def test_open_panel_off_a_pi_returns_none_and_says_so_once(
    monkeypatch: pytest.MonkeyPatch, actions: queue.Queue[Action], caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-pin-library")  # as on a machine without GPIO
    monkeypatch.setattr(Device, "pin_factory", None)
    with caplog.at_level(logging.INFO, logger="display.buttons"):
        assert open_panel(PanelConfig(), actions) is None
    messages = [r.getMessage() for r in caplog.records if r.name == "display.buttons"]
    assert len(messages) == 1 and "keyboard" in messages[0]


def test_open_panel_with_pins_taken_returns_none(
    factory: MockFactory, actions: queue.Queue[Action], clock: FakeClock
) -> None:
    holder = ButtonPanel(PanelConfig(), actions, pin_factory=factory, clock=clock)
    try:
        assert open_panel(PanelConfig(), actions, pin_factory=factory, clock=clock) is None
    finally:
        holder.close()
    panel = open_panel(PanelConfig(), actions, pin_factory=factory, clock=clock)
    assert panel is not None  # the failed attempt released what it had taken
    panel.close()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"buttons": (ButtonPin(Action(A.PASS), 5), ButtonPin(Action(A.CALL), 5))},
        {"turn_leds": (1, 2, 3)},
        {"buzzer": 5},
        {"debounce_s": 0.5, "hold_s": 0.2},
    ],
)
def test_bad_config_is_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="PanelConfig"):
        PanelConfig(**kwargs)  # type: ignore[arg-type]


# --- the debouncer alone: literal edge sequences ------------------------------------------------------------


def run_edges(deb: Debouncer, events: list[tuple[str, float]]) -> list[str]:
    out: list[Action] = []
    for what, t in events:
        out += deb.poll(t) if what == "poll" else deb.edge(what == "down", t)
    return [str(a) for a in out]


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        ([("down", 0.0), ("up", 0.1)], ["pass"]),
        ([("down", 0.0), ("up", 0.005), ("down", 0.01), ("up", 0.2)], ["pass"]),
        ([("down", 0.0), ("up", 0.1), ("down", 0.11), ("up", 0.115), ("poll", 0.3)], ["pass"]),  # release bounce
        ([("down", 0.0), ("up", 0.1), ("down", 0.11), ("up", 0.3)], ["pass", "pass"]),  # pressed again, and held
        ([("down", 0.0), ("up", 0.1), ("down", 0.5), ("up", 0.6)], ["pass", "pass"]),
        ([("down", 0.0), ("down", 0.1), ("up", 0.2)], ["pass"]),  # a repeated level is not an edge
        ([("up", 0.0), ("poll", 1.0)], []),
    ],
)
def test_debouncer_press_sequences(events: list[tuple[str, float]], expected: list[str]) -> None:
    assert run_edges(Debouncer(Action(A.PASS), None, 0.03, 2.0), events) == expected


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        ([("down", 0.0), ("poll", 1.0), ("up", 1.2)], ["undo"]),
        ([("down", 0.0), ("poll", 2.0), ("poll", 2.5), ("up", 3.0)], ["new_game"]),
        ([("down", 0.0), ("up", 0.01), ("poll", 5.0)], ["undo"]),  # a very short tap is not a hold
        ([("down", 0.0), ("poll", 2.1), ("up", 2.2), ("down", 3.0), ("up", 3.1)], ["new_game", "undo"]),
    ],
)
def test_debouncer_hold_sequences(events: list[tuple[str, float]], expected: list[str]) -> None:
    deb = Debouncer(Action(A.UNDO), Action(A.NEW_GAME), 0.03, 2.0)
    assert run_edges(deb, events) == expected
