"""The depth check's quick way (quotes and brackets only) finds the same brackets as the exact way."""

from __future__ import annotations

import json
import random

import pytest

from table.limits import LimitError, _brackets_of_plain_strings, _brackets_outside_strings, check_depth


def test_random_texts_agree() -> None:
    rng = random.Random(5)
    pieces = ['"', '""', "[", "]", "{", "}", '"[?]"', '"a]"', "x", ",", ":", " ", "\\", '\\"', "é"]
    quick = 0
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        brackets = _brackets_of_plain_strings(text)
        if brackets is not None:
            quick += 1
            assert brackets == _brackets_outside_strings(text), text
    assert quick > 2_000  # the quick way was tried on many texts


def test_a_note_with_brackets_does_not_count() -> None:
    deep = {"a": [[["x"]]], "notes": ["[?]Irregularity: [[[[[[[[[[", "]]]]", "{{{{"]}
    text = json.dumps(deep, indent=2)
    assert _brackets_of_plain_strings(text) == b"(((()))())" == _brackets_outside_strings(text)
    check_depth(text, limit=4)
    with pytest.raises(LimitError):
        check_depth(text, limit=3)


def test_deep_nesting_is_refused_either_way() -> None:
    for text in ("[" * 100_000, '{"a":' * 70 + "1" + "}" * 70, '["\\"",' + "[" * 70 + "]" * 70 + "]"):
        with pytest.raises(LimitError):
            check_depth(text)
