"""The bar: a table unplugged from the network for a whole game loses nothing and catches up within 10 s.

The table reaches the broker through a "cable" (a TCP relay on 127.0.0.1 this test can cut and mend);
the board stays connected. The publisher runs with its default settings.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from pathlib import Path

from league_helpers import game_rounds

from companion.league_publish import LeaguePublisher, PublisherSettings, parse_broker_url
from league.broker import LocalBroker
from league.listener import BoardListener
from league.store import LeagueStore


class Cable:
    """Relays 127.0.0.1:``port`` to the broker while plugged in; unplugged, it drops and refuses connections."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.plugged = True
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._server.getsockname()[1])
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                conn, _ = self._server.accept()
            except OSError:
                return
            if not self.plugged:
                conn.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                conn.close()
                continue
            with self._lock:
                self._open += [conn, upstream]
            for a, b in ((conn, upstream), (upstream, conn)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                dst.sendall(data)
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def unplug(self) -> None:
        self.plugged = False
        with self._lock:
            for s in self._open:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
            self._open.clear()

    def plug(self) -> None:
        self.plugged = True

    def close(self) -> None:
        self._closed = True
        self.unplug()
        self._server.close()


def test_a_table_unplugged_for_a_whole_game_catches_up_within_10_s(broker: LocalBroker, tmp_path: Path) -> None:
    store = LeagueStore(tmp_path / "league.sqlite")
    board = BoardListener(store, parse_broker_url(broker.url), client_id="unplugged-board").start()
    cable = Cable(broker.port)
    settings = PublisherSettings(parse_broker_url(f"mqtt://127.0.0.1:{cable.port}"), "5", client_id="unplugged-5")
    table = LeaguePublisher(settings, tmp_path / "outbox.sqlite").start()
    try:
        assert board.connected.wait(15)
        first = game_rounds(seed=40, table="5", game="before")[-1]
        table.submit(first)
        assert table.drained(30)  # plugged in: the first game went through
        cable.unplug()
        rounds = game_rounds(seed=41, table="5", game="unplugged")
        for events in rounds:  # a whole game, deal by deal, with the cable out
            table.submit(events)
        time.sleep(1.0)  # a moment in which nothing of this game may reach the board
        gone = time.monotonic() + 15  # and the table notices the cut (within that moment on an idle machine)
        while table.connected and time.monotonic() < gone:
            time.sleep(0.05)
        assert not table.connected
        assert {e["game"] for e in store.events()} == {"before"}
        cable.plug()
        back = time.monotonic()
        expected = {e.id for e in first} | {e.id for e in rounds[-1]}
        while time.monotonic() - back < 30 and {e["id"] for e in store.events()} != expected:
            time.sleep(0.1)
        caught_up = time.monotonic() - back
        assert {e["id"] for e in store.events()} == expected  # nothing lost
        assert caught_up < 10.0, caught_up
        assert table.drained(10)
    finally:
        table.close()
        cable.close()
        board.stop()
        store.close()
