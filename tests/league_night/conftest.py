"""Fixtures of the league tests: a played game's events, and a local broker of each kind installed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.league_publish import LeagueEvent, match_events
from league.broker import LocalBroker, mosquitto_path
from league.simulate import played_deals
from table.rules import Rules

SEATS = ("Ann", "Bob", "Cat", "Dan")


def game_rounds(seed: int = 5, table: str = "1", game: str = "g1") -> list[list[LeagueEvent]]:
    """What a table submits after each deal of one seeded game (each time the whole game so far)."""
    return [match_events(table, game, SEATS, m) for m in played_deals(Rules(), seed)]


@pytest.fixture(params=["amqtt", "mosquitto"])
def broker(request: pytest.FixtureRequest) -> Iterator[LocalBroker]:
    """A running broker: amqtt always, and Mosquitto too where it is installed."""
    if request.param == "mosquitto" and mosquitto_path() is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto); amqtt stands in")
    b = LocalBroker(request.param)
    b.start()
    yield b
    b.close()
