"""The league tests' broker: amqtt always, and Mosquitto too where it is installed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from league.broker import Kind, LocalBroker, mosquitto_path


@pytest.fixture(params=["amqtt", "mosquitto"])
def broker_kind(request: pytest.FixtureRequest) -> Kind:
    """Each kind of broker installed: amqtt always (a Python dependency), Mosquitto where the package is."""
    if request.param == "mosquitto" and mosquitto_path() is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto); amqtt stands in")
    kind: Kind = request.param
    return kind


@pytest.fixture
def broker(broker_kind: Kind) -> Iterator[LocalBroker]:
    """A running broker of each kind installed."""
    b = LocalBroker(broker_kind)
    b.start()
    yield b
    b.close()
