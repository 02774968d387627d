"""The table's publisher: a broker that is down loses nothing, repeats are harmless, bad messages are refused."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from league_helpers import game_rounds

from companion.league_publish import (
    BrokerUrlError,
    LeaguePublisher,
    Outbox,
    PublisherSettings,
    events_topic,
    parse_broker_url,
)
from league.broker import LocalBroker
from league.listener import BoardListener
from league.records import fold
from league.store import LeagueStore


def publisher(broker: LocalBroker, folder: Path, table: str = "1") -> LeaguePublisher:
    settings = PublisherSettings(parse_broker_url(broker.url), table, resend_s=3.0, client_id=f"test-table-{table}")
    return LeaguePublisher(settings, folder / "outbox.sqlite")


def board(broker: LocalBroker, folder: Path) -> tuple[LeagueStore, BoardListener]:
    store = LeagueStore(folder / "league.sqlite")
    listener = BoardListener(store, parse_broker_url(broker.url), client_id=f"test-board-{folder.name}").start()
    assert listener.connected.wait(15)
    return store, listener


def test_a_game_played_while_the_broker_is_down_arrives_within_10_s_of_its_return(
    broker: LocalBroker, tmp_path: Path
) -> None:
    store, listener = board(broker, tmp_path)
    broker.kill()
    pub = publisher(broker, tmp_path).start()
    try:
        rounds = game_rounds()
        for events in rounds:  # a whole game with the network gone
            pub.submit(events)
        assert not pub.drained(1.0)
        assert store.events() == []
        broker.start()
        back = time.monotonic()
        assert pub.drained(30)
        caught_up = time.monotonic() - back
        expected = {e.id for e in rounds[-1]}
        assert {e["id"] for e in store.events()} == expected
        assert caught_up < 10.0
        assert store.standings().as_dict() == fold(e.body for e in rounds[-1]).as_dict()
    finally:
        pub.close()
        listener.stop()
        store.close()


def test_events_in_the_outbox_when_the_table_stops_are_sent_by_the_next_start(
    broker: LocalBroker, tmp_path: Path
) -> None:
    broker.kill()
    first = publisher(broker, tmp_path).start()
    rounds = game_rounds(seed=8)
    first.submit(rounds[-1])
    first.close()  # the power goes: the events wait on disk
    outbox = Outbox(tmp_path / "outbox.sqlite")
    assert outbox.pending() == len(rounds[-1])
    outbox.close()
    broker.start()
    store, listener = board(broker, tmp_path)
    second = publisher(broker, tmp_path).start()
    try:
        assert second.drained(30)
        assert {e["id"] for e in store.events()} == {e.id for e in rounds[-1]}
    finally:
        second.close()
        listener.stop()
        store.close()


def test_a_repeat_is_harmless_on_the_board_and_a_confirmed_event_is_not_queued_again(
    broker: LocalBroker, tmp_path: Path
) -> None:
    store, listener = board(broker, tmp_path)
    pub = publisher(broker, tmp_path).start()
    try:
        rounds = game_rounds(seed=3)
        for events in rounds:
            pub.submit(events)
        assert pub.drained(30)
        standings = store.standings().as_dict()
        applied = store.count("applied")
        pub.submit(rounds[-1])  # the table restarts and offers its game again
        assert pub.drained(10)
        assert pub.stats.queued == len(rounds[-1])
        envelope = {"v": 1, "outbox": "x", "q": 1, "event": rounds[-1][1].body}
        assert listener.handle(json.dumps(envelope).encode(), events_topic("1"))  # the broker delivers twice
        assert listener.handle(json.dumps(envelope).encode(), events_topic("1"))
        assert store.count("applied") == applied
        assert store.count("duplicates") >= 2
        assert store.standings().as_dict() == standings
    finally:
        pub.close()
        listener.stop()
        store.close()


def _envelope(event: dict[str, object]) -> bytes:
    return json.dumps({"v": 1, "outbox": "abc", "q": 1, "event": event}).encode()


GOOD = game_rounds(seed=2)[-1][1].body


@pytest.mark.parametrize(
    ("payload", "topic", "message"),
    [
        (b"\xff\xfe", events_topic("1"), "not JSON"),
        (b"[1, 2]", events_topic("1"), "not a JSON object"),
        (_envelope(GOOD), events_topic("2"), "an event of table '1' on the topic of table '2'"),
        (_envelope(GOOD), "euchre/league/tables/1/other", "not a table's events topic"),
        (_envelope({**GOOD, "kind": "erase"}), events_topic("1"), "kind must be one of"),
        (_envelope({**GOOD, "seats": ["A", "B"]}), events_topic("1"), "seats must be 4 names"),
        (_envelope({**GOOD, "deal": {**GOOD["deal"], "points": [1]}}), events_topic("1"), "deal.points"),  # type: ignore[dict-item]
        (_envelope({**GOOD, "score": "ten"}), events_topic("1"), "score must be"),
        (json.dumps({"v": 1, "outbox": "a", "q": 0, "event": GOOD}).encode(), events_topic("1"), "q must be"),
        (b"{" * 100_000, events_topic("1"), "not JSON"),
    ],
)
def test_a_bad_message_is_refused_with_what_is_wrong_and_nothing_is_stored(
    tmp_path: Path, payload: bytes, topic: str, message: str
) -> None:
    store = LeagueStore(tmp_path / "league.sqlite")
    listener = BoardListener(store, parse_broker_url("mqtt://127.0.0.1:1"))
    assert not listener.handle(payload, topic)
    assert message in listener.stats.problems[-1]
    assert listener.stats.problems[-1].startswith(f"message on {topic}: ")
    assert store.events() == []
    assert listener.handle(_envelope(GOOD), events_topic("1"))  # and the next good one is kept
    store.close()


@pytest.mark.parametrize(
    ("url", "message"),
    [("http://x", "mqtt:// or mqtts://"), ("mqtt://", "names no host"), ("mqtt://u:p@h", "just mqtt"),
     ("mqtt://h:99999", "not a broker address")],
)
def test_a_bad_broker_address_says_what_is_wrong(url: str, message: str) -> None:
    with pytest.raises(BrokerUrlError, match=message):
        parse_broker_url(url)


def test_broker_addresses_take_the_default_ports() -> None:
    assert str(parse_broker_url("mqtts://league.example")) == "mqtts://league.example:8883"
    assert str(parse_broker_url("mqtt://10.0.0.5")) == "mqtt://10.0.0.5:1883"


def test_an_outbox_that_cannot_be_written_for_a_while_drops_nothing(
    broker: LocalBroker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    real_add = Outbox.add
    failures = [3]

    def flaky_add(self: Outbox, events: list[object]) -> int:
        if failures[0] > 0:
            failures[0] -= 1
            raise sqlite3.OperationalError("database or disk is full")
        return real_add(self, events)  # type: ignore[arg-type]

    monkeypatch.setattr(Outbox, "add", flaky_add)
    store, listener = board(broker, tmp_path)
    pub = publisher(broker, tmp_path).start()
    try:
        events = game_rounds(seed=14)[-1]
        pub.submit(events)
        assert pub.drained(30)
        assert pub.stats.errors == [f"league outbox {tmp_path / 'outbox.sqlite'}: database or disk is full"]
        assert {e["id"] for e in store.events()} == {e.id for e in events}
    finally:
        pub.close()
        listener.stop()
        store.close()


def test_submit_returns_at_once_while_the_outbox_is_stuck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    gate = threading.Event()
    entered = threading.Event()
    real_add = Outbox.add

    def stuck_add(self: Outbox, events: list[object]) -> int:
        entered.set()
        gate.wait(30)  # a disk that does not answer
        return real_add(self, events)  # type: ignore[arg-type]

    monkeypatch.setattr(Outbox, "add", stuck_add)
    settings = PublisherSettings(parse_broker_url("mqtt://127.0.0.1:1"), "1", client_id="stuck-1")
    pub = LeaguePublisher(settings, tmp_path / "outbox.sqlite").start()
    try:
        rounds = game_rounds(seed=15)
        pub.submit(rounds[0])
        assert entered.wait(10)
        for events in rounds:  # the frame loop goes on: every submit returns with the disk still stuck
            pub.submit(events)
        assert pub._written == 0 and not pub.drained(0.2)  # nothing reached the disk meanwhile
    finally:
        gate.set()
        pub.close()
    outbox = Outbox(tmp_path / "outbox.sqlite")
    assert outbox.pending() == len(rounds[-1])  # and once the disk answers, everything is on it
    outbox.close()


def test_drained_is_not_fooled_by_a_pass_that_has_just_written_new_events(
    broker: LocalBroker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``drained`` pairs "every submission written" with "nothing pending". In the pass that writes a new
    # submission, the count written rises before the outbox is counted again: ``drained`` asked at that moment
    # (here: as the pass counts the outbox) must still see the events pending.
    broker.kill()  # nothing is confirmed: every event written stays pending
    pub = publisher(broker, tmp_path)
    asked: list[tuple[bool, int]] = []
    count = Outbox.pending

    def pending(self: Outbox) -> int:
        n = count(self)
        asked.append((pub.drained(0.01), n))
        return n

    monkeypatch.setattr(Outbox, "pending", pending)
    pub.start()
    try:
        end = time.monotonic() + 10
        while pub.pending != 0 and time.monotonic() < end:  # a first pass: an empty outbox, nothing pending
            time.sleep(0.02)
        assert pub.pending == 0
        pub.submit(game_rounds()[0])
        while not any(n > 0 for _, n in asked) and time.monotonic() < end:
            time.sleep(0.02)
        assert any(n > 0 for _, n in asked)
        assert not any(done for done, n in asked if n > 0)
        assert not pub.drained(0.2)
    finally:
        pub.close()
