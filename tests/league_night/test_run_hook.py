"""The table's run loop with [league] set: every scored deal reaches the board, even when the network was out."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

from companion.builder import league_publisher  # noqa: E402
from companion.config import parse_config  # noqa: E402
from companion.errors import UserError  # noqa: E402
from companion.league_publish import LeaguePublisher, PublisherSettings, match_events, parse_broker_url  # noqa: E402
from companion.runner import App, AppParts  # noqa: E402
from companion.session import TableSession, ThreadedLogWriter  # noqa: E402
from display.view import Stage  # noqa: E402
from league.broker import LocalBroker  # noqa: E402
from league.listener import BoardListener  # noqa: E402
from league.store import LeagueStore  # noqa: E402
from table.log import MatchLog  # noqa: E402
from table.records import game_records  # noqa: E402
from table.rules import Rules  # noqa: E402
from table.sim import simulate_game  # noqa: E402

NAMES = ("Ann", "Bob", "Cat", "Dan")


def test_a_game_played_with_the_broker_down_reaches_the_board_when_it_returns(
    broker: LocalBroker, tmp_path: Path
) -> None:
    store = LeagueStore(tmp_path / "league.sqlite")
    listener = BoardListener(store, parse_broker_url(broker.url), client_id="hook-board").start()
    assert listener.connected.wait(15)
    broker.kill()  # the table's network is out for the whole game
    match_log = MatchLog.open_or_create(tmp_path / "match.jsonl", Rules(), first_dealer=0, created="2026-12-01T20:00")
    session = TableSession(match_log, ThreadedLogWriter(match_log))
    publisher = LeaguePublisher(PublisherSettings(parse_broker_url(broker.url), "7"), tmp_path / "outbox.sqlite")
    app = App(AppParts(session=session, names=NAMES, league=publisher))
    try:
        for inp in simulate_game(Rules(), 17).inputs:
            session.submit(inp)
            app.tick(0.0)
        app.finish()
        assert session.match.game_over
        # the table's own game-won screen shows the game's records, as the board will count them
        assert app.view is not None and app.view.stage is Stage.GAME_OVER
        assert app.view.records == tuple(game_records(session.match.deals, session.match.winner, True))
        assert sum(r.won for r in app.view.records) == 2 and sum(r.deals for r in app.view.records) > 0
        broker.start()
        assert publisher.drained(30)
        expected = match_events("7", "20261201T2000-0", NAMES, session.match)
        assert {e["id"] for e in store.events()} == {e.id for e in expected}
        assert [t.score for t in store.live_tables()] == [session.match.score]
    finally:
        app.close()
        listener.stop()
        store.close()


def test_league_config_errors_name_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"t.toml: \[league\] broker: must start with mqtt:// or mqtts://"):
        parse_config('[league]\nbroker = "http://x"\ntable = "1"\n', "t.toml")
    with pytest.raises(UserError, match=r"\[league\] table must be 1-32 letters"):
        parse_config('[league]\nbroker = "mqtt://x"\ntable = "a/#"\n', "t.toml")
    with pytest.raises(UserError, match=r"\[league\] has unknown key\(s\): brokr"):
        parse_config('[league]\nbrokr = "mqtt://x"\n', "t.toml")
    config = parse_config(f'[league]\nbroker = "mqtt://x"\ntable = "3"\npassword_file = "{tmp_path}/none"\n', "t.toml")
    with pytest.raises(UserError, match=r"t.toml: \[league\] password_file: cannot read the password file"):
        league_publisher(config, tmp_path)
    assert league_publisher(parse_config("", "t.toml"), tmp_path) is None
