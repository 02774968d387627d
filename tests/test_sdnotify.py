"""The systemd notify client speaks the real protocol over a Unix datagram socket."""

from __future__ import annotations

import socket
from pathlib import Path

from companion.sdnotify import Notifier


def _receiver(tmp_path: Path) -> tuple[socket.socket, str]:
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    return sock, path


def test_ready_and_watchdog_reach_the_socket(tmp_path: Path) -> None:
    sock, path = _receiver(tmp_path)
    notifier = Notifier(path, min_interval_s=1.0)
    assert notifier.enabled
    notifier.ready("watching the table")
    assert sock.recv(256) == b"READY=1\nSTATUS=watching the table"
    notifier.watchdog(now=10.0)
    assert sock.recv(256) == b"WATCHDOG=1"
    notifier.watchdog(now=10.5)  # too soon: no datagram
    notifier.watchdog(now=11.2)
    assert sock.recv(256) == b"WATCHDOG=1"
    sock.settimeout(0.05)
    try:
        extra = sock.recv(256)
    except TimeoutError:
        extra = b""
    assert extra == b""
    notifier.close()
    sock.close()


def test_without_systemd_every_call_is_harmless() -> None:
    notifier = Notifier("")
    assert not notifier.enabled
    notifier.ready()
    notifier.watchdog(now=0.0)
    assert notifier.send("STATUS=x") is False


def test_a_vanished_socket_is_not_an_error(tmp_path: Path) -> None:
    notifier = Notifier(str(tmp_path / "gone.sock"))
    assert notifier.send("WATCHDOG=1") is False
