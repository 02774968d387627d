"""The JSON codec of engine inputs: every input round-trips, and damaged objects are refused by name."""

from __future__ import annotations

import json
from typing import Any

import pytest

from table.cards import BENNY, Card, Suit
from table.codec import CodecError, input_from_dict, input_to_dict
from table.inputs import (
    INPUT_TYPES,
    AcceptPenalty,
    Discard,
    DismissRenege,
    Exchange,
    GoAlone,
    Input,
    Misdeal,
    NameTrump,
    NewGame,
    OrderUp,
    Pass,
    Play,
    ReviseCard,
    Undo,
    UpCard,
)

EXAMPLES: list[Input] = [
    NewGame(first_dealer=3, score=(4, 9)),
    UpCard(Card.parse("Jd"), confidence=0.8),
    UpCard(BENNY),
    Pass(1),
    OrderUp(2, alone=True),
    NameTrump(0, Suit.HEARTS),
    NameTrump(3, None, alone=True),
    GoAlone(1),
    Discard(0, Card.parse("9s")),
    Discard(0, None),
    Exchange(2, "call_for_best"),
    Play(2, Card.parse("Jd"), confidence=0.93),
    Play(2, Card.parse("Kd"), confidence=0.5, rival=Card.parse("Ks")),
    UpCard(Card.parse("9h"), confidence=0.5, rival=Card.parse("Th")),
    ReviseCard(7, Card.parse("Th")),
    ReviseCard(7, Card.parse("Kd"), confidence=0.594, rival=Card.parse("Ks")),
    AcceptPenalty(),
    DismissRenege(),
    Misdeal(),
    Misdeal(nines_and_tens=0),
    Undo(),
]


def test_examples_cover_every_input_type() -> None:
    assert {type(e).__name__ for e in EXAMPLES} == set(INPUT_TYPES)


@pytest.mark.parametrize("inp", EXAMPLES, ids=lambda e: type(e).__name__)
def test_round_trip_through_json_text(inp: Input) -> None:
    text = json.dumps(input_to_dict(inp))
    assert input_from_dict(json.loads(text)) == inp


def test_play_is_a_flat_object_in_egn_notation() -> None:
    assert input_to_dict(Play(2, Card.parse("Jd"), 0.93)) == {
        "type": "Play",
        "seat": 2,
        "card": "Jd",
        "confidence": 0.93,
    }
    assert input_to_dict(NameTrump(1, Suit.SPADES)) == {"type": "NameTrump", "seat": 1, "suit": "s", "alone": False}


def test_a_rival_reading_is_written_only_where_the_camera_named_one() -> None:
    assert "rival" not in input_to_dict(Play(2, Card.parse("Kd"), 0.5))  # logs without it read as before
    assert input_to_dict(Play(2, Card.parse("Kd"), 0.5, rival=Card.parse("Ks")))["rival"] == "Ks"
    assert input_from_dict({"type": "Play", "seat": 2, "card": "Kd", "rival": None}) == Play(2, Card.parse("Kd"))
    with pytest.raises(CodecError, match="Play.rival"):
        input_from_dict({"type": "Play", "seat": 2, "card": "Kd", "rival": "Zz"})


def test_a_revision_in_doubt_writes_its_confidence_and_rival_and_a_sure_one_neither() -> None:
    # A sure revision is written as before, so logs of it read the same in older versions.
    assert input_to_dict(ReviseCard(7, Card.parse("Th"))) == {"type": "ReviseCard", "index": 7, "card": "Th"}
    doubted = input_to_dict(ReviseCard(7, Card.parse("Kd"), 0.594, Card.parse("Ks")))
    assert doubted == {"type": "ReviseCard", "index": 7, "card": "Kd", "confidence": 0.594, "rival": "Ks"}
    with pytest.raises(CodecError, match="ReviseCard.confidence"):
        input_from_dict({"type": "ReviseCard", "index": 7, "card": "Kd", "confidence": 1.5})


def test_a_misdeal_names_the_seat_of_a_nines_and_tens_claim_or_none() -> None:
    assert input_to_dict(Misdeal()) == {"type": "Misdeal", "nines_and_tens": None}
    assert input_to_dict(Misdeal(nines_and_tens=0)) == {"type": "Misdeal", "nines_and_tens": 0}
    assert input_from_dict({"type": "Misdeal"}) == Misdeal()


def test_defaults_may_be_omitted() -> None:
    assert input_from_dict({"type": "Play", "seat": 1, "card": "9c"}) == Play(1, Card.parse("9c"), 1.0)
    assert input_from_dict({"type": "OrderUp", "seat": 0}) == OrderUp(0, alone=False)


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"type": "Teleport", "seat": 1}, "unknown input type 'Teleport'"),
        ({"seat": 1}, "unknown input type None"),
        ({"type": "Play", "seat": 1}, "missing field 'card'"),
        ({"type": "Play", "seat": 4, "card": "9c"}, "seat must be an integer 0-3"),
        ({"type": "Play", "seat": True, "card": "9c"}, "seat must be an integer 0-3"),
        ({"type": "Play", "seat": 1, "card": "Zz"}, "Play.card"),
        ({"type": "Play", "seat": 1, "card": 9}, "card must be a string"),
        ({"type": "Play", "seat": 1, "card": "9c", "confidence": 1.5}, "between 0 and 1"),
        ({"type": "Play", "seat": 1, "card": "9c", "colour": "red"}, "unknown field 'colour'"),
        ({"type": "NameTrump", "seat": 1, "suit": "x"}, "NameTrump.suit"),
        ({"type": "OrderUp", "seat": 1, "alone": "yes"}, "expected true or false"),
        ({"type": "NewGame", "score": [1]}, "score must be a list of two integers"),
        ({"type": "ReviseCard", "index": -1, "card": "9c"}, "non-negative"),
        ({"type": "Exchange", "seat": 1, "kind": "swap"}, "exchange kind"),
        ({"type": "Play", "seat": 1, "card": None}, "card must be a string"),
        ({"type": "Misdeal", "nines_and_tens": 4}, "Misdeal.nines_and_tens: seat must be an integer 0-3"),
    ],
)
def test_damaged_objects_are_refused_with_the_reason(obj: dict[str, Any], message: str) -> None:
    with pytest.raises(CodecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        input_from_dict(obj)


def test_not_an_object() -> None:
    with pytest.raises(CodecError, match="must be a JSON object"):
        input_from_dict([1, 2])  # type: ignore[arg-type]


def test_ignored_keys_are_metadata() -> None:
    obj = {"i": 4, "type": "Pass", "seat": 2, "time": 3.5}
    assert input_from_dict(obj, ignore=frozenset({"i", "time"})) == Pass(2)
    with pytest.raises(CodecError, match="unknown field 'i'"):
        input_from_dict(obj)
