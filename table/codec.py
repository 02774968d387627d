"""JSON codec for engine inputs: each input as a small flat object, and back, with strict checks.

``input_to_dict(Play(2, Card.parse("Jd"), 0.93))`` gives
``{"type": "Play", "seat": 2, "card": "Jd", "confidence": 0.93}``; ``input_from_dict``
reverses it. Cards are written in EGN notation (``"B"`` for the Benny), suits as
their letter (``null`` for no trump), scores as two-element lists.

Decoding is strict because it reads files that a power cut may have damaged:
an unknown type, a missing or unknown field, a bad card or a seat outside 0-3
raises :class:`CodecError`, so the caller can skip the line instead of folding
a wrong input into the score. Fields with a default (``confidence``,
``alone``...) may be omitted.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from typing import Any

from table.cards import Card, CardParseError, Suit
from table.inputs import INPUT_TYPES, Input

__all__ = ["CodecError", "input_from_dict", "input_to_dict"]


class CodecError(ValueError):
    """A JSON object that is not a valid engine input; the message names the field and the problem."""


def _card_out(value: Any) -> Any:
    return None if value is None else str(value)


def _suit_out(value: Any) -> Any:
    return None if value is None else value.value


def _score_out(value: Any) -> Any:
    return [int(value[0]), int(value[1])]


def _identity(value: Any) -> Any:
    return value


def _seat_in(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise CodecError(f"seat must be an integer 0-3, not {value!r}")
    return int(value)


def _optional_seat_in(value: Any) -> int | None:
    return None if value is None else _seat_in(value)


def _card_in(value: Any) -> Card:
    if not isinstance(value, str):
        raise CodecError(f"card must be a string such as 'Jd', not {value!r}")
    try:
        return Card.parse(value)
    except CardParseError as exc:
        raise CodecError(str(exc)) from None


def _optional_card_in(value: Any) -> Card | None:
    return None if value is None else _card_in(value)


def _optional_suit_in(value: Any) -> Suit | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise CodecError(f"suit must be a letter c d h s or null, not {value!r}")
    try:
        return Suit.parse(value)
    except CardParseError as exc:
        raise CodecError(str(exc)) from None


def _bool_in(value: Any) -> bool:
    if not isinstance(value, bool):
        raise CodecError(f"expected true or false, not {value!r}")
    return value


def _confidence_in(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise CodecError(f"confidence must be a number, not {value!r}")
    if not 0.0 <= value <= 1.0:
        raise CodecError(f"confidence must be between 0 and 1, not {value!r}")
    return float(value)


def _index_in(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CodecError(f"index must be a non-negative integer, not {value!r}")
    return int(value)


def _count_in(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CodecError(f"count must be a non-negative integer, not {value!r}")
    return int(value)


def _score_in(value: Any) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
    ):
        raise CodecError(f"score must be a list of two integers, not {value!r}")
    return (value[0], value[1])


EXCHANGE_KINDS = ("call_for_best", "farmers_hand", "nines_and_tens")


def _kind_in(value: Any) -> str:
    if value not in EXCHANGE_KINDS:
        raise CodecError(f"exchange kind must be one of {', '.join(EXCHANGE_KINDS)}, not {value!r}")
    return str(value)


# (field name, input class name or "*") -> (encode, decode). Field names mean the same in every
# input except ``card`` (optional only in Discard) and ``suit``.
_Decoder = Callable[[Any], Any]
_Encoder = Callable[[Any], Any]
_FIELDS: dict[str, tuple[_Encoder, _Decoder]] = {
    "seat": (_identity, _seat_in),
    "first_dealer": (_identity, _seat_in),
    "card": (_card_out, _card_in),
    "suit": (_suit_out, _optional_suit_in),
    "alone": (_identity, _bool_in),
    "confidence": (_identity, _confidence_in),
    "index": (_identity, _index_in),
    "score": (_score_out, _score_in),
    "kind": (_identity, _kind_in),
    "next_deal": (_identity, _bool_in),
    "unseen_deals": (_identity, _count_in),
    "nines_and_tens": (_identity, _optional_seat_in),
    "turned_by": (_identity, _optional_seat_in),
    "rival": (_card_out, _optional_card_in),
}
# Fields written only when set, so logs without them read the same in older versions.
_WRITTEN_WHEN_SET = frozenset({"next_deal", "unseen_deals"})
_WRITTEN_WHEN_NOT_NONE = frozenset({"turned_by", "rival"})
# (input, field): written only where it differs from the field's default (a ReviseCard's confidence, 1.0 but for a
# camera's revision to a reading still in doubt), so logs without it read the same in older versions.
_WRITTEN_UNLESS_DEFAULT = frozenset({("ReviseCard", "confidence")})
_OPTIONAL_CARD_TYPES = frozenset({"Discard"})


def input_to_dict(inp: Input) -> dict[str, Any]:
    """The JSON object for one input: ``{"type": <class name>, <field>: <value>, ...}``."""
    name = type(inp).__name__
    if INPUT_TYPES.get(name) is not type(inp):
        raise TypeError(f"not an engine input: {inp!r}")
    out: dict[str, Any] = {"type": name}
    for f in dataclasses.fields(inp):
        if f.name not in _FIELDS:
            raise TypeError(f"input_to_dict: no JSON form for field {name}.{f.name}")
        if f.name in _WRITTEN_WHEN_SET and not getattr(inp, f.name):
            continue
        if f.name in _WRITTEN_WHEN_NOT_NONE and getattr(inp, f.name) is None:
            continue
        if (name, f.name) in _WRITTEN_UNLESS_DEFAULT and getattr(inp, f.name) == f.default:
            continue
        out[f.name] = _FIELDS[f.name][0](getattr(inp, f.name))
    return out


def input_from_dict(obj: Mapping[str, Any], *, ignore: frozenset[str] = frozenset()) -> Input:
    """The input a JSON object describes. Keys in ``ignore`` (e.g. a log's metadata) are skipped.

    Raises :class:`CodecError` naming the problem for anything that is not exactly an input.
    """
    if not isinstance(obj, Mapping):
        raise CodecError(f"an input must be a JSON object, not {type(obj).__name__}")
    name = obj.get("type")
    if not isinstance(name, str) or name not in INPUT_TYPES:
        raise CodecError(f"unknown input type {name!r}")
    cls = INPUT_TYPES[name]
    fields = {f.name: f for f in dataclasses.fields(cls)}
    extra = sorted(set(obj) - set(fields) - {"type"} - ignore)
    if extra:
        raise CodecError(f"{name}: unknown field {extra[0]!r}")
    kwargs: dict[str, Any] = {}
    for fname, f in fields.items():
        if fname not in obj:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise CodecError(f"{name}: missing field {fname!r}")
            continue
        decode = _FIELDS[fname][1]
        if fname == "card" and name in _OPTIONAL_CARD_TYPES:
            decode = _optional_card_in
        try:
            kwargs[fname] = decode(obj[fname])
        except CodecError as exc:
            raise CodecError(f"{name}.{fname}: {exc}") from None
    try:
        result: Input = cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise CodecError(f"{name}: {exc}") from None
    return result
