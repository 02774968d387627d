"""The one configuration file (TOML): rules, seat names, camera, model, display, pins, sound, storage.

Every key is optional and has a default (``companion/config.example.toml``
documents them). A wrong key or value is a ``UserError`` that names the file,
the section and the key, so a typo in a pub's config never becomes a
traceback or a silently ignored setting.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from companion.errors import UserError
from display.buttons import BUTTON_NAMES, DEFAULT_PINS
from display.i18n import DEFAULT_LANGUAGE, LANGUAGES
from table.limits import LimitError, check_text, read_limited

EXAMPLE_PATH = Path(__file__).with_name("config.example.toml")
MAX_CONFIG_BYTES = 1024 * 1024  # the example config is 4 KB


@dataclass(frozen=True)
class SeatsConfig:
    names: tuple[str, str, str, str] = ("North", "East", "South", "West")
    first_dealer: int = 0


@dataclass(frozen=True)
class CameraConfig:
    source: str = "camera:0"
    mains_hz: int = 50
    seat_rotation: int = 0
    calibration: str = ""
    mat: str = "A3"  # the printed play mat's sheet (euchre-table mat), whose markers locate the table
    deck: str = ""  # the house deck's profile in <data_dir>/decks/ (euchre-table enrol); empty: none
    # Cut the classifier's index crops from the camera's larger stream where it has one (the Pi camera's main)
    main_stream_crops: bool = False


@dataclass(frozen=True)
class ModelConfig:
    path: str = ""
    backend: str = "onnx"
    min_confidence: float = 0.25


@dataclass(frozen=True)
class DisplayConfig:
    width: int = 800
    height: int = 480
    fullscreen: bool = True
    score_style: str = "digits"
    language: str = DEFAULT_LANGUAGE  # the screen's and the speaker's language (display.i18n.LANGUAGES)


@dataclass(frozen=True)
class ButtonsConfig:
    pins: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_PINS))
    turn_leds: tuple[int, ...] = ()
    buzzer: int | None = None


@dataclass(frozen=True)
class SoundConfig:
    mute: bool = False
    volume: float = 0.8
    voice: str = ""  # the espeak-ng voice; "": the voice of [display] language


@dataclass(frozen=True)
class StorageConfig:
    data_dir: str = "/var/lib/euchre-table"


@dataclass(frozen=True)
class LeagueConfig:
    """Where the table sends its games on a league night (companion.league_publish); no broker: not sent."""

    broker: str = ""  # mqtt://HOST[:PORT] or mqtts://HOST[:PORT]
    table: str = ""  # this table's name in the league, e.g. "3": its topic is euchre/league/tables/<table>/...
    username: str = ""
    password: str = ""
    password_file: str = ""  # a file holding the password (kept out of the config), instead of password
    ca_file: str = ""  # the CA certificate mqtts:// checks the broker against; empty: the system's


@dataclass(frozen=True)
class Config:
    """The whole configuration. ``rules`` is the preset name plus switch overrides, as written."""

    rules_preset: str = "north_american"
    rules_overrides: dict[str, Any] = field(default_factory=dict)
    seats: SeatsConfig = field(default_factory=SeatsConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    model: ModelConfig = field(default_factory=ModelConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    league: LeagueConfig = field(default_factory=LeagueConfig)
    source_path: str = "<defaults>"

    def rules(self) -> Any:
        """Build the engine's rules record; a bad preset or switch is a UserError naming the file."""
        from table.rules import Rules, RulesError

        try:
            base = Rules.preset(self.rules_preset)
            if not self.rules_overrides:
                return base
            return Rules.from_dict({**base.to_dict(), **self.rules_overrides})
        except (RulesError, KeyError, ValueError) as exc:
            raise UserError(f"{self.source_path}: [rules]: {exc}") from None


class _Section:
    """Reads one TOML table, checking each key's type and reporting unknown keys."""

    def __init__(self, path: str, name: str, data: object) -> None:
        if not isinstance(data, dict):
            raise UserError(f"{path}: [{name}] must be a table of keys, not {type(data).__name__}")
        self.path, self.name, self.data = path, name, dict(data)

    def where(self, key: str) -> str:
        return f"{self.path}: [{self.name}] {key}"

    def take(self, key: str, kind: type | tuple[type, ...], default: Any) -> Any:
        if key not in self.data:
            return default
        value = self.data.pop(key)
        # bool is an int in Python; a pin or a size written as true is still a mistake.
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            raise UserError(f"{self.where(key)} must be {_kind_name(kinds)}, not {value!r}")
        if not isinstance(value, kinds):
            raise UserError(f"{self.where(key)} must be {_kind_name(kinds)}, not {value!r}")
        return value

    def choice(self, key: str, options: tuple[str, ...], default: str) -> str:
        value: str = self.take(key, str, default)
        if value not in options:
            raise UserError(f"{self.where(key)} must be one of {', '.join(options)}, not {value!r}")
        return value

    def int_in(self, key: str, low: int, high: int, default: int) -> int:
        value: int = self.take(key, int, default)
        if not low <= value <= high:
            raise UserError(f"{self.where(key)} must be between {low} and {high}, not {value}")
        return value

    def finish(self) -> None:
        if self.data:
            unknown = ", ".join(sorted(self.data))
            raise UserError(f"{self.path}: [{self.name}] has unknown key(s): {unknown}")


def _kind_name(kinds: tuple[type, ...]) -> str:
    names = {bool: "true or false", int: "a whole number", float: "a number", str: "a string", list: "a list"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def parse_config(text: str, path: str = "<config>") -> Config:
    """Parse TOML text into a Config; every problem is a UserError naming ``path``."""
    try:
        check_text(text, max_bytes=MAX_CONFIG_BYTES)
        raw = tomllib.loads(text)
    except LimitError as exc:
        raise UserError(f"{path}: not a config file: {exc}") from None
    except RecursionError:
        raise UserError(f"{path}: not a config file: nested deeper than Python can read") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: not valid TOML: {exc}") from None
    known = {"rules", "seats", "camera", "model", "display", "buttons", "sound", "storage", "league"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise UserError(f"{path}: unknown section(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})")

    rules = _Section(path, "rules", raw.get("rules", {}))
    preset = rules.take("preset", str, "north_american")
    overrides = dict(rules.data)
    rules.data.clear()

    return Config(
        rules_preset=preset,
        rules_overrides=overrides,
        seats=_seats(_Section(path, "seats", raw.get("seats", {}))),
        camera=_camera(_Section(path, "camera", raw.get("camera", {}))),
        model=_model(_Section(path, "model", raw.get("model", {}))),
        display=_display(_Section(path, "display", raw.get("display", {}))),
        buttons=_buttons(_Section(path, "buttons", raw.get("buttons", {}))),
        sound=_sound(_Section(path, "sound", raw.get("sound", {}))),
        storage=_storage(_Section(path, "storage", raw.get("storage", {}))),
        league=_league(_Section(path, "league", raw.get("league", {}))),
        source_path=path,
    )


def load_config(path: str | Path | None) -> Config:
    """Read the config file at ``path``; ``None`` gives the defaults."""
    if path is None:
        return Config()
    file = Path(path)
    try:
        text = read_limited(file, MAX_CONFIG_BYTES).decode("utf-8")
    except LimitError as exc:
        raise UserError(f"{file}: not a config file: {exc}") from None
    except FileNotFoundError:
        raise UserError(f"{file}: config file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{file}: cannot read config file: {exc}") from None
    return parse_config(text, str(file))


def _seats(s: _Section) -> SeatsConfig:
    names = s.take("names", list, list(SeatsConfig.names))
    if len(names) != 4 or not all(isinstance(n, str) and n.strip() for n in names):
        raise UserError(f"{s.where('names')} must be a list of four non-empty names")
    first = s.int_in("first_dealer", 0, 3, SeatsConfig.first_dealer)
    s.finish()
    return SeatsConfig(names=(names[0], names[1], names[2], names[3]), first_dealer=first)


def _camera(s: _Section) -> CameraConfig:
    source = s.take("source", str, CameraConfig.source)
    mains = s.take("mains_hz", int, CameraConfig.mains_hz)
    if mains not in (50, 60):
        raise UserError(f"{s.where('mains_hz')} must be 50 or 60, not {mains}")
    rotation = s.int_in("seat_rotation", 0, 3, CameraConfig.seat_rotation)
    calibration = s.take("calibration", str, CameraConfig.calibration)
    mat = s.choice("mat", ("A3", "A2"), CameraConfig.mat)
    deck = s.take("deck", str, CameraConfig.deck)
    if deck and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", deck):
        raise UserError(f"{s.where('deck')} must be a deck name (letters, digits, '_', '.' or '-'), not {deck!r}")
    main_stream_crops = s.take("main_stream_crops", bool, CameraConfig.main_stream_crops)
    s.finish()
    return CameraConfig(
        source=source, mains_hz=mains, seat_rotation=rotation, calibration=calibration, mat=mat, deck=deck,
        main_stream_crops=main_stream_crops,
    )  # fmt: skip


def _model(s: _Section) -> ModelConfig:
    path = s.take("path", str, ModelConfig.path)
    backend = s.choice("backend", ("onnx", "ultralytics"), ModelConfig.backend)
    conf = float(s.take("min_confidence", (int, float), ModelConfig.min_confidence))
    if not 0.0 <= conf < 1.0:
        raise UserError(f"{s.where('min_confidence')} must be at least 0 and below 1, not {conf}")
    s.finish()
    return ModelConfig(path=path, backend=backend, min_confidence=conf)


def _display(s: _Section) -> DisplayConfig:
    width = s.int_in("width", 320, 7680, DisplayConfig.width)
    height = s.int_in("height", 240, 4320, DisplayConfig.height)
    fullscreen = s.take("fullscreen", bool, DisplayConfig.fullscreen)
    style = s.choice("score_style", ("digits", "six_and_four"), DisplayConfig.score_style)
    language = s.choice("language", LANGUAGES, DisplayConfig.language)
    s.finish()
    return DisplayConfig(width=width, height=height, fullscreen=fullscreen, score_style=style, language=language)


def _buttons(s: _Section) -> ButtonsConfig:
    present = any(name in s.data for name in BUTTON_NAMES)
    pins: dict[str, int] = {}
    for name in BUTTON_NAMES:
        if name in s.data:
            pins[name] = s.int_in(name, 0, 27, 0)
    leds = s.take("turn_leds", list, [])
    if leds and (len(leds) != 4 or not all(isinstance(p, int) and not isinstance(p, bool) for p in leds)):
        raise UserError(f"{s.where('turn_leds')} must be a list of four pin numbers (one per seat)")
    buzzer = s.int_in("buzzer", 0, 27, -1) if "buzzer" in s.data else None
    s.finish()
    used = [*pins.values(), *leds, *([buzzer] if buzzer is not None else [])]
    if len(used) != len(set(used)):
        raise UserError(f"{s.path}: [buttons] uses a pin twice: {sorted(used)}")
    return ButtonsConfig(pins=pins if present else dict(DEFAULT_PINS), turn_leds=tuple(leds), buzzer=buzzer)


def _sound(s: _Section) -> SoundConfig:
    mute = s.take("mute", bool, SoundConfig.mute)
    volume = float(s.take("volume", (int, float), SoundConfig.volume))
    if not 0.0 <= volume <= 1.0:
        raise UserError(f"{s.where('volume')} must be between 0 and 1, not {volume}")
    voice = s.take("voice", str, SoundConfig.voice)
    s.finish()
    return SoundConfig(mute=mute, volume=volume, voice=voice)


def _storage(s: _Section) -> StorageConfig:
    data_dir = s.take("data_dir", str, StorageConfig.data_dir)
    s.finish()
    return StorageConfig(data_dir=data_dir)


def _league(s: _Section) -> LeagueConfig:
    values = {f.name: s.take(f.name, str, getattr(LeagueConfig, f.name)) for f in fields(LeagueConfig)}
    s.finish()
    league = LeagueConfig(**values)
    if league.broker:
        from companion.league_publish import BrokerUrlError, parse_broker_url

        try:
            parse_broker_url(league.broker)
        except BrokerUrlError as exc:
            raise UserError(f"{s.where('broker')}: {exc}") from None
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", league.table):
            raise UserError(f"{s.where('table')} must be 1-32 letters, digits, - or _ (the table's topic), "
                            f"not {league.table!r}")
        if league.password and league.password_file:
            raise UserError(f"{s.where('password')}: set password or password_file, not both")
    return league


def config_keys() -> dict[str, tuple[str, ...]]:
    """The documented keys of each section (used to check the example file stays complete)."""
    return {
        "seats": tuple(f.name for f in fields(SeatsConfig)),
        "camera": tuple(f.name for f in fields(CameraConfig)),
        "model": tuple(f.name for f in fields(ModelConfig)),
        "display": tuple(f.name for f in fields(DisplayConfig)),
        "sound": tuple(f.name for f in fields(SoundConfig)),
        "storage": tuple(f.name for f in fields(StorageConfig)),
        "league": tuple(f.name for f in fields(LeagueConfig)),
    }
