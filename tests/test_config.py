"""The configuration file: defaults, the documented example, and one clear error per mistake."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion.config import DEFAULT_PINS, EXAMPLE_PATH, config_keys, load_config, parse_config
from companion.errors import UserError


def test_example_file_parses_to_the_defaults() -> None:
    example = load_config(EXAMPLE_PATH)
    defaults = parse_config("")
    assert example.seats == defaults.seats
    assert example.camera == defaults.camera
    assert example.model == defaults.model
    assert example.display == defaults.display
    assert example.buttons.pins == DEFAULT_PINS == defaults.buttons.pins
    assert example.sound == defaults.sound
    assert example.storage == defaults.storage


def test_example_documents_every_key() -> None:
    raw = tomllib.loads(EXAMPLE_PATH.read_text())
    for section, keys in config_keys().items():
        assert set(raw[section]) == set(keys), section


def test_values_are_read() -> None:
    cfg = parse_config(
        """
        [seats]
        names = ["Ann", "Bob", "Cat", "Dan"]
        first_dealer = 2
        [camera]
        source = "video:/tmp/x.mp4"
        mains_hz = 60
        mat = "A2"
        main_stream_crops = true
        [buttons]
        pass = 4
        undo = 17
        turn_leds = [5, 6, 13, 19]
        buzzer = 26
        [sound]
        mute = true
        volume = 0.5
        """
    )
    assert cfg.seats.names == ("Ann", "Bob", "Cat", "Dan")
    assert cfg.seats.first_dealer == 2
    assert cfg.camera.source == "video:/tmp/x.mp4" and cfg.camera.mains_hz == 60
    assert cfg.camera.mat == "A2" and parse_config("").camera.mat == "A3"
    assert cfg.camera.main_stream_crops is True and parse_config("").camera.main_stream_crops is False
    assert cfg.buttons.pins == {"pass": 4, "undo": 17}
    assert cfg.buttons.turn_leds == (5, 6, 13, 19) and cfg.buttons.buzzer == 26
    assert cfg.sound.mute is True and cfg.sound.volume == 0.5


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[camera\nsource=1", "not valid TOML"),
        ("[cameras]\nsource='x'", "unknown section(s): cameras"),
        ("[camera]\nsorce='x'", "[camera] has unknown key(s): sorce"),
        ("[camera]\nmains_hz=55", "[camera] mains_hz must be 50 or 60"),
        ("[camera]\nmat='A4'", "[camera] mat must be one of A3, A2"),
        ("[camera]\nsource=3", "[camera] source must be a string"),
        ("[camera]\nmain_stream_crops='yes'", "[camera] main_stream_crops must be true or false"),
        ("[seats]\nnames=['a','b','c']", "[seats] names must be a list of four"),
        ("[seats]\nfirst_dealer=4", "[seats] first_dealer must be between 0 and 3"),
        ("[model]\nbackend='tflite'", "[model] backend must be one of onnx, ultralytics"),
        ("[display]\nfullscreen='yes'", "[display] fullscreen must be true or false"),
        ("[display]\nwidth=true", "[display] width must be a whole number"),
        ("[buttons]\npass=5\nundo=5", "uses a pin twice"),
        ("[buttons]\npass=40", "[buttons] pass must be between 0 and 27"),
        ("[buttons]\nturn_leds=[1,2]", "turn_leds must be a list of four"),
        ("[sound]\nvolume=3", "[sound] volume must be between 0 and 1"),
    ],
)
def test_each_mistake_is_one_clear_error_naming_file_and_key(text: str, fragment: str) -> None:
    with pytest.raises(UserError) as info:
        parse_config(text, "/etc/euchre-table/config.toml")
    message = str(info.value)
    assert message.startswith("/etc/euchre-table/config.toml: ")
    assert fragment in message
    assert "\n" not in message


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="config file not found"):
        load_config(tmp_path / "nope.toml")


def test_rules_preset_and_overrides_build_the_rules_record() -> None:
    cfg = parse_config("[rules]\npreset='north_american'\nstick_the_dealer=true\ntarget=11")
    rules = cfg.rules()
    assert rules.stick_the_dealer is True
    assert rules.target == 11


@pytest.mark.parametrize(
    "text",
    ["[rules]\npreset='martian'", "[rules]\nstick_the_deeler=true", "[rules]\ndeck_size=23"],
)
def test_bad_rules_are_one_clear_error(text: str) -> None:
    cfg = parse_config(text, "table.toml")
    with pytest.raises(UserError) as info:
        cfg.rules()
    assert str(info.value).startswith("table.toml: [rules]: ")


def test_a_misdeal_button_can_be_wired_and_is_off_by_default() -> None:
    from companion.builder import panel_config
    from display.actions import Action, ButtonAction

    assert "misdeal" not in parse_config("").buttons.pins
    assert "misdeal" not in load_config(EXAMPLE_PATH).buttons.pins  # the example leaves it commented out
    cfg = parse_config("[buttons]\nundo = 16\nmisdeal = 25\n")
    assert [(b.action, b.pin) for b in panel_config(cfg).buttons] == [  # type: ignore[attr-defined]
        (Action(ButtonAction.UNDO), 16),
        (Action(ButtonAction.MISDEAL), 25),
    ]


def test_a_next_reading_button_can_be_wired() -> None:
    from companion.builder import panel_config
    from display.actions import Action, ButtonAction

    cfg = parse_config("[buttons]\npass = 5\nnext_reading = 7\n")
    assert cfg.buttons.pins == {"pass": 5, "next_reading": 7}
    panel = panel_config(cfg)
    assert [(b.action, b.pin) for b in panel.buttons] == [  # type: ignore[attr-defined]
        (Action(ButtonAction.PASS), 5),
        (Action(ButtonAction.NEXT_READING), 7),
    ]
