"""The partner rotation: partners change every game, nobody partners twice, and the sitting out is shared."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.rotation import RotationError, format_html, format_text, make_rotation

counts = st.integers(min_value=8, max_value=16)
seeds = st.one_of(st.none(), st.integers(min_value=0, max_value=10_000))


def names(n: int) -> list[str]:
    return [f"Player {i:02d}" for i in range(n)]


@settings(max_examples=60, deadline=None)
@given(n=counts, seed=seeds)
def test_each_round_seats_everyone_once_at_tables_of_four(n: int, seed: int | None) -> None:
    rotation = make_rotation(names(n), seed=seed)
    for r in rotation.rounds:
        seated = [p for t in r.tables for p in t.seats]
        assert len(seated) == len(set(seated)) == 4 * (n // 4)
        assert sorted(seated + list(r.sitting_out)) == sorted(names(n))
        assert len(r.sitting_out) == n % 4
        assert [t.table for t in r.tables] == list(range(1, len(r.tables) + 1))


@settings(max_examples=60, deadline=None)
@given(n=counts, seed=seeds)
def test_nobody_partners_anyone_twice_so_partners_change_every_game(n: int, seed: int | None) -> None:
    rotation = make_rotation(names(n), seed=seed)
    pairs = Counter(frozenset(p) for r in rotation.rounds for t in r.tables for p in t.partnerships)
    assert max(pairs.values()) == 1
    partner_of: dict[str, str] = {}
    for r in rotation.rounds:
        now = {a: b for t in r.tables for x, y in t.partnerships for a, b in ((x, y), (y, x))}
        assert all(partner_of.get(p) != q for p, q in now.items())
        partner_of.update(now)


@settings(max_examples=40, deadline=None)
@given(n=st.sampled_from([8, 9, 12, 13, 16]), seed=seeds)
def test_where_the_numbers_allow_everyone_partners_everyone_once(n: int, seed: int | None) -> None:
    rotation = make_rotation(names(n), seed=seed)
    pairs = {frozenset(p) for r in rotation.rounds for t in r.tables for p in t.partnerships}
    assert pairs == {frozenset(c) for c in combinations(names(n), 2)}


@settings(max_examples=40, deadline=None)
@given(n=counts, seed=seeds)
def test_the_sitting_out_is_shared(n: int, seed: int | None) -> None:
    rotation = make_rotation(names(n), seed=seed)
    sat = Counter(p for r in rotation.rounds for p in r.sitting_out)
    per_player = [sat[p] for p in names(n)]
    assert max(per_player) - min(per_player) <= (0 if n % 4 == 0 else 1 if n % 4 == 1 else 2)


def test_the_same_seed_gives_the_same_night_and_rounds_cut_it_short() -> None:
    assert make_rotation(names(10), seed=7) == make_rotation(names(10), seed=7)
    assert make_rotation(names(10), seed=7, rounds=3).rounds == make_rotation(names(10), seed=7).rounds[:3]


@pytest.mark.parametrize(
    ("players", "message"),
    [(["A", "B", "C"], "4 to 64 players, not 3"), (["A", "B", "C", "A", "D"], "named twice: A"),
     (["A", "B", " ", "D"], "name is empty")],
)
def test_a_bad_list_of_players_is_one_clear_error(players: list[str], message: str) -> None:
    with pytest.raises(RotationError, match=message):
        make_rotation(players)


def test_the_printable_forms_name_every_table_and_who_sits_out() -> None:
    rotation = make_rotation(names(9), rounds=2)
    text = format_text(rotation)
    first = rotation.rounds[0]
    assert "Game 1" in text and "Table 2" in text and f"Sitting out: {first.sitting_out[0]}" in text
    page = format_html(rotation)
    assert page.count("<tr><th>Game") == 2 and "<script" not in format_html(make_rotation(["<script>", *"BCD"]))
