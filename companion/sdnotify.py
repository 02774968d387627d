"""systemd's notify protocol: tell the service manager we are ready, and ping its watchdog.

The main loop calls ``Notifier.watchdog()`` once per iteration (never from a
side thread, so a hung loop stops the pings and systemd restarts the
service). Outside systemd (no ``NOTIFY_SOCKET``) every call does nothing.
"""

from __future__ import annotations

import os
import socket


class Notifier:
    """Sends sd_notify datagrams to ``$NOTIFY_SOCKET``, rate-limiting the watchdog pings."""

    def __init__(self, address: str | None = None, min_interval_s: float = 1.0) -> None:
        addr = address if address is not None else os.environ.get("NOTIFY_SOCKET", "")
        self._address = "\0" + addr[1:] if addr.startswith("@") else addr
        self._sock: socket.socket | None = None
        self._min_interval = min_interval_s
        self._last_ping: float | None = None
        if self._address:
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._sock.setblocking(False)

    @property
    def enabled(self) -> bool:
        return self._sock is not None

    def send(self, message: str) -> bool:
        """Send one notify message; a full or missing socket never disturbs the caller."""
        if self._sock is None:
            return False
        try:
            self._sock.sendto(message.encode("utf-8"), self._address)
        except OSError:
            return False
        return True

    def ready(self, status: str = "") -> None:
        self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def status(self, text: str) -> None:
        self.send(f"STATUS={text}")

    def watchdog(self, now: float) -> None:
        """Ping the watchdog, at most once per ``min_interval_s`` of the caller's clock."""
        if self._last_ping is not None and now - self._last_ping < self._min_interval:
            return
        if self.send("WATCHDOG=1"):
            self._last_ping = now

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
