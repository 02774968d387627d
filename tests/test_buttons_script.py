"""Timed button files: parsed exactly, and every mistake named by file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.buttons_script import ButtonScript, dump_buttons, load_buttons, parse_buttons
from companion.errors import UserError
from display.actions import Action, ButtonAction
from table.cards import Suit


def test_round_trip_and_due_order() -> None:
    pairs = [
        (5, Action(ButtonAction.PASS)),
        (9, Action(ButtonAction.SUIT, Suit.HEARTS)),
        (9, Action(ButtonAction.ALONE)),
    ]
    script = parse_buttons("# bids\n\n" + dump_buttons(pairs))
    assert [(t.frame, t.action) for t in script] == pairs
    runner = ButtonScript(script)
    assert list(runner.due(4)) == []
    assert [t.number for t in runner.due(9)] == [0, 1, 2]
    assert runner.remaining == 0


def test_resuming_skips_the_presses_already_logged() -> None:
    script = parse_buttons(dump_buttons([(1, Action(ButtonAction.PASS)), (2, Action(ButtonAction.CALL))]))
    assert [t.number for t in ButtonScript(script, done=1).due(10)] == [1]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{nope", "line 1: not JSON"),
        ("[1, 2]", "line 1: expected an object"),
        ('{"frame": -1, "action": "pass"}', "'frame' must be a frame number"),
        ('{"frame": "3", "action": "pass"}', "'frame' must be a frame number"),
        ('{"frame": 3, "action": "shout"}', "unknown action 'shout'"),
        ('{"frame": 3, "action": "quit"}', "'quit' is not a game action"),
        ('{"frame": 3, "action": "suit", "suit": "x"}', "not a suit"),
        ('{"frame": 3, "action": "pass", "suit": "h"}', "only the 'suit' action takes a suit"),
        ('{"frame": 3, "action": "pass"}\n{"frame": 2, "action": "pass"}', "line 2: frame 2 comes before"),
    ],
)
def test_mistakes_name_the_file_and_line(text: str, fragment: str) -> None:
    with pytest.raises(UserError) as info:
        parse_buttons(text, "bids.jsonl")
    assert str(info.value).startswith("bids.jsonl: line ")
    assert fragment in str(info.value)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="cannot read the buttons file"):
        load_buttons(tmp_path / "none.jsonl")
