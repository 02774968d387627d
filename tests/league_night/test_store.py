"""The board's store: standings are a fold over the events, whatever their order and repeats; the records."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from league_helpers import game_rounds

from league.records import Record, deal_records, fold
from league.store import LeagueStore


def night_events() -> list[dict[str, Any]]:
    events = game_rounds(seed=11, table="1", game="a")[-1] + game_rounds(seed=12, table="2", game="b")[-1]
    return [e.body for e in events]


def test_a_store_fed_in_any_order_with_repeats_replays_to_the_same_standings(tmp_path: Path) -> None:
    events = night_events()
    shuffled = events + random.Random(4).sample(events, len(events) // 2)
    random.Random(9).shuffle(shuffled)
    store = LeagueStore(tmp_path / "league.sqlite")
    kept = [store.apply(e) for e in shuffled]
    assert sum(kept) == len(events) and store.count("duplicates") == len(shuffled) - len(events)
    assert store.standings().as_dict() == fold(events).as_dict()
    store.close()
    reopened = LeagueStore(tmp_path / "league.sqlite")  # nothing derived is stored: the fold is redone
    assert reopened.standings().as_dict() == fold(events).as_dict()
    assert [t.table for t in reopened.live_tables()] == ["1", "2"]
    assert all(t.over for t in reopened.live_tables())
    reopened.close()


def test_an_admin_correction_takes_a_deal_back_and_replays_with_the_rest(tmp_path: Path) -> None:
    events = night_events()
    store = LeagueStore(tmp_path / "league.sqlite")
    for e in events:
        store.apply(e)
    deal = next(e for e in events if e["kind"] == "deal" and e["deal"]["points"] != [0, 0])
    assert store.void(deal["id"], "scored twice by mistake")
    assert not store.void("no/such/event", "typo")
    assert store.standings().as_dict() == fold(e for e in events if e["id"] != deal["id"]).as_dict()
    store.close()


def test_a_new_night_starts_with_empty_standings_and_keeps_the_old_one(tmp_path: Path) -> None:
    store = LeagueStore(tmp_path / "league.sqlite")
    first = store.current_night()
    assert first is not None
    for e in night_events():
        store.apply(e)
    second = store.new_night("Week 2", ["Ann", "Bob"])
    assert store.standings(second.id).players == {}
    assert store.standings(first.id).as_dict() == fold(night_events()).as_dict()
    store.close()


def deal(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"maker_seat": 1, "alone_seats": [], "tricks_won": [2, 3], "points": [0, 1],
                            "reason": "made", "reneges": []}
    return {**base, **over}


def test_records_of_a_march_a_euchre_a_lone_hand_and_a_renege() -> None:
    march = deal_records(deal(tricks_won=[0, 5], points=[0, 2]))
    assert [r.marches for r in march] == [0, 1, 0, 1] and [r.points for r in march] == [0, 2, 0, 2]
    euchre = deal_records(deal(tricks_won=[3, 2], points=[2, 0]))
    assert [r.euchres_made for r in euchre] == [1, 0, 1, 0]
    assert [r.euchres_suffered for r in euchre] == [0, 1, 0, 1]
    lone = deal_records(deal(alone_seats=[3], tricks_won=[1, 4], points=[0, 1]))
    assert [(r.lone_tried, r.lone_made) for r in lone] == [(0, 0), (0, 0), (0, 0), (1, 1)]
    lone_lost = deal_records(deal(alone_seats=[1], tricks_won=[3, 2], points=[2, 0]))
    assert lone_lost[1] == Record(deals=1, lone_tried=1, euchres_suffered=1)
    renege = deal_records(deal(reason="renege", reneges=[{"seat": 2}], points=[0, 2]))
    assert [r.reneges for r in renege] == [0, 0, 1, 0] and sum(r.marches + r.euchres_made for r in renege) == 0


def test_games_won_and_partnerships_come_from_the_ends_of_games() -> None:
    seats = ["Ann", "Bob", "Cat", "Dan"]
    events = [
        {"id": "1/g/deal/0", "kind": "deal", "seats": seats, "deal": deal(tricks_won=[0, 5], points=[0, 2])},
        {"id": "1/g/game_over", "kind": "game_over", "seats": seats, "winner": 1},
        {"id": "1/g/game_over", "kind": "game_over", "seats": seats, "winner": 1},  # a repeat counts once
    ]
    standings = fold(events)
    assert standings.players["Bob"] == Record(games=1, won=1, points=2, deals=1, marches=1)
    assert standings.players["Ann"].won == 0 and standings.players["Ann"].games == 1
    assert standings.partnerships[("Bob", "Dan")].won == 1
    assert [name for name, _ in standings.ranked()][:2] == ["Bob", "Dan"]


def test_the_tables_own_records_of_a_game_equal_the_boards() -> None:
    from league_helpers import SEATS

    from league.simulate import played_deals
    from table.records import game_records
    from table.rules import Rules

    *_, match = played_deals(Rules(), 31)
    own = game_records(match.deals, match.winner, over=match.game_over)
    board = fold(e.body for e in game_rounds(seed=31)[-1])
    assert {name: rec.as_dict() for name, rec in zip(SEATS, own, strict=True)} == board.as_dict()
    assert sum(r.won for r in own) == 2 and all(r.games == 1 for r in own)


def test_a_table_that_kept_the_default_seat_names_is_seated_from_the_nights_rotation(tmp_path: Path) -> None:
    from companion.league_publish import match_events
    from league.rotation import make_rotation
    from league.simulate import played_deals
    from table.rules import Rules

    players = [f"P{i}" for i in range(1, 9)]
    store = LeagueStore(tmp_path / "league.sqlite")
    night = store.new_night("Week 4", players)
    defaults = ("North", "East", "South", "West")
    for game, seed in (("first", 50), ("second", 51)):  # table 2 plays the night's games 1 and 2
        *_, match = played_deals(Rules(), seed)
        for e in match_events("2", game, defaults, match, named=False):
            store.apply(e.body)
    *_, match = played_deals(Rules(), 52)
    for e in match_events("1", "named", ("Ann", "Bob", "Cat", "Dan"), match):  # names typed in: kept
        store.apply(e.body)
    rotation = make_rotation(players)
    seats = {(e["table"], e["game"]): tuple(e["seats"]) for e in store.events(night.id)}
    assert seats[("2", "first")] == rotation.rounds[0].tables[1].seats
    assert seats[("2", "second")] == rotation.rounds[1].tables[1].seats
    assert seats[("1", "named")] == ("Ann", "Bob", "Cat", "Dan")
    assert not set(store.standings(night.id).players) & set(defaults)
    store.close()


NIGHT = night_events()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(order=st.permutations(range(len(NIGHT))), repeats=st.lists(st.integers(0, len(NIGHT) - 1), max_size=20))
def test_any_arrival_order_with_any_repeats_gives_the_same_standings(
    tmp_path_factory: pytest.TempPathFactory, order: list[int], repeats: list[int]
) -> None:
    store = LeagueStore(tmp_path_factory.mktemp("replay") / "league.sqlite")
    for i in [*order, *repeats]:
        store.apply(NIGHT[i])
    assert store.count("applied") == len(NIGHT) and store.count("duplicates") == len(repeats)
    assert store.standings().as_dict() == fold(NIGHT).as_dict()
    assert store.standings().partnerships == fold(NIGHT).partnerships
    store.close()
