"""Writes the game's EGN file on a thread of its own, so the frame loop never waits for the disk.

Only the newest text matters (each export is the whole game so far), so a
`submit` replaces any text still waiting. Each write goes to a temporary
file, is fsynced and renamed over the old one: after a power cut the file
holds the previous export or the new one, never half of one. `flush` waits
for the last submitted text to be on disk; the app calls it on the way out.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

Write = Callable[[Path, str], None]


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text``: a temporary file beside it, fsynced, renamed over it."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    tmp.replace(path)
    # the rename itself is durable once the folder is synced (not possible on every system)
    with contextlib.suppress(OSError):
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class EgnWriter:
    """Writes the newest submitted text to ``path`` on a background thread (started only while there is work)."""

    def __init__(self, path: Path, write: Write = write_atomically) -> None:
        self.path = path
        self._write = write
        self._lock = threading.Lock()
        self._done = threading.Condition(self._lock)
        self._pending: str | None = None
        self._submitted = 0
        self._written = 0
        self._thread: threading.Thread | None = None
        self.error: OSError | None = None  # the last write's failure, cleared by a later write that succeeds

    def submit(self, text: str) -> None:
        """Queue ``text`` to be written; returns at once."""
        with self._lock:
            self._pending = text
            self._submitted += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="egn-writer", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            with self._lock:
                text, number = self._pending, self._submitted
                self._pending = None
                if text is None:
                    self._thread = None
                    self._done.notify_all()
                    return
            error: OSError | None = None
            try:
                self._write(self.path, text)
            except OSError as exc:
                error = exc
                log.error("cannot write the EGN file %s: %s", self.path, exc)
            with self._lock:
                self._written = number
                self.error = error
                self._done.notify_all()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until the last submitted text is written; False if that write failed or ``timeout`` passed."""
        with self._lock:
            done = self._done.wait_for(lambda: self._written >= self._submitted, timeout)
            return done and self.error is None

    def close(self, timeout: float = 10.0) -> bool:
        """Flush before the program ends (the thread is a daemon: it would not finish the write by itself)."""
        return self.flush(timeout)
