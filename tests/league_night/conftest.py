"""The league tests' broker: amqtt always, and Mosquitto too where it is installed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from league.broker import LocalBroker, mosquitto_path


@pytest.fixture(params=["amqtt", "mosquitto"])
def broker(request: pytest.FixtureRequest) -> Iterator[LocalBroker]:
    """A running broker of each kind installed."""
    if request.param == "mosquitto" and mosquitto_path() is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto); amqtt stands in")
    b = LocalBroker(request.param)
    b.start()
    yield b
    b.close()
