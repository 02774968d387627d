"""The board's MQTT side: subscribes to every table's events, keeps them, and confirms what it applied.

Each message is checked (``league.store.decode``); a bad one is logged with the reason and dropped,
never stored, and the listener goes on. A good one is kept (a repeat counts as a duplicate), then the
board publishes ``{"outbox", "q"}`` on the table's ``applied`` topic, so the table can let go of
what the board has (``companion.league_publish``). The session is persistent (a fixed client id,
``clean_session`` off), so a broker that stays up keeps the board's messages while the board restarts.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.league_publish import TOPIC_ROOT, BrokerUrl, applied_topic
from league.store import LeagueStore, PayloadError, decode

log = logging.getLogger(__name__)


@dataclass
class ListenerStats:
    messages: int = 0
    refused: int = 0
    problems: list[str] = field(default_factory=list)  # the last few refusals, for the page and the log


class BoardListener:
    """Feeds ``store`` from the broker at ``broker``; ``on_change`` is called after each event kept."""

    def __init__(
        self,
        store: LeagueStore,
        broker: BrokerUrl,
        *,
        username: str = "",
        password: str = "",
        ca_file: str = "",
        client_id: str = "euchre-league-board",
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.store = store
        self.broker = broker
        self.stats = ListenerStats()
        self.on_change = on_change
        self.connected = threading.Event()
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False)
        client.reconnect_delay_set(min_delay=1, max_delay=4)
        if username:
            client.username_pw_set(username, password or None)
        if broker.tls:
            client.tls_set(ca_certs=ca_file or None, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.client = client

    def start(self) -> BoardListener:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        self.client.loop_start()
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            log.error("the broker %s refused the board: %s", self.broker, reason)
            return
        client.subscribe(f"{TOPIC_ROOT}/+/events", qos=1)
        self.connected.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.connected.clear()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        self.handle(bytes(message.payload), str(message.topic))

    def handle(self, payload: bytes, topic: str) -> bool:
        """Check and keep one message; False (and a logged reason) when it is refused."""
        self.stats.messages += 1
        try:
            event, outbox, q = decode(payload, topic)
        except PayloadError as exc:
            self.stats.refused += 1
            self.stats.problems = [*self.stats.problems[-9:], str(exc)]
            log.warning("refused: %s", exc)
            return False
        try:
            self.store.apply(event)
        except (sqlite3.Error, OSError) as exc:  # not confirmed, so the table sends it again later
            self.stats.problems = [*self.stats.problems[-9:], f"the store could not keep {event['id']}: {exc}"]
            log.error("the league store could not keep %s: %s; the table will send it again", event["id"], exc)
            return False
        self.client.publish(applied_topic(str(event["table"])), json.dumps({"outbox": outbox, "q": q}), qos=1)
        if self.on_change is not None:
            self.on_change()
        return True
