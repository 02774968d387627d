"""Writes the game's EGN file on a thread of its own, so the frame loop never waits for the disk.

Only the newest text matters (each export is the whole game so far), so a
`submit` replaces any text still waiting. Each write goes to a temporary
file, is fsynced and renamed over the old one: after a power cut the file
holds the previous export or the new one, never half of one (a write that
fails removes its temporary file). `flush` waits for the last submitted text
to be on disk; the app calls it on the way out.

A game already in the file when the writer starts is never replaced by a
shorter one (fewer deals) or by an unfinished one where it was finished (a
log damaged since, or another match started on the same folder): before the
first such write the old file is moved beside it, to ``game-kept-<time>.egn``,
and ``kept`` names it; the app says so.
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from table.durable import replace_atomically
from table.limits import loads_json, read_limited

log = logging.getLogger(__name__)

Write = Callable[[Path, str], None]


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` (``table.durable.replace_atomically``: a temporary file beside it, fsynced,
    renamed over it; a full disk leaves no empty temporary file behind)."""
    replace_atomically(path, text.encode("utf-8"))


GameSize = tuple[int, bool]  # (deals, finished)
_MAX_EGN_BYTES = 64 * 1024 * 1024


def game_size(obj: Any) -> GameSize | None:
    """How much game an EGN object holds: its deals and whether it is finished; None if it is not EGN."""
    if not isinstance(obj, dict) or not isinstance(obj.get("deals"), list):
        return None
    meta = obj.get("metadata")
    finished = isinstance(meta, dict) and meta.get("finalScore") is not None
    return len(obj["deals"]), finished


def _file_game(path: Path) -> GameSize | None:
    try:
        return game_size(loads_json(read_limited(path, _MAX_EGN_BYTES), max_bytes=_MAX_EGN_BYTES))
    except (OSError, ValueError):
        return None


def _text_game(text: str) -> GameSize | None:
    try:
        return game_size(json.loads(text))
    except (ValueError, RecursionError):
        return None


def smaller(new: GameSize, old: GameSize) -> bool:
    """True when writing ``new`` over ``old`` would lose something: fewer deals, or an end that is gone."""
    return new[0] < old[0] or (old[1] and not new[1])


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
        self.failures = 0
        self.kept: Path | None = None  # where a longer or finished game found in the file was moved
        self._found = _file_game(path) if path.exists() else None  # the game in the file, until first replaced

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
                self._keep_a_bigger_game(text)
                self._write(self.path, text)
                self._found = None  # the file holds this run's game now
            except OSError as exc:
                error = exc
                log.error("cannot write the EGN file %s: %s", self.path, exc.strerror or exc)
            with self._lock:
                self._written = number
                self.error = error
                self.failures += error is not None
                self._done.notify_all()

    def _keep_a_bigger_game(self, text: str) -> None:
        """Move the file's game aside before ``text`` would replace it with less (see the module docstring)."""
        found = self._found
        if found is None or not self.path.exists():
            return
        new = _text_game(text)
        if new is None or not smaller(new, found):
            return
        stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
        kept = self.path.with_name(f"{self.path.stem}-kept-{stamp}{self.path.suffix}")
        n = 1
        while kept.exists():
            kept = self.path.with_name(f"{self.path.stem}-kept-{stamp}-{n}{self.path.suffix}")
            n += 1
        os.replace(self.path, kept)
        self.kept = kept
        self._found = None
        what = f"{found[0]} deals{', finished' if found[1] else ''}"
        log.warning(
            "%s held a longer or finished game (%s) than this run's (%d deals%s); it is kept at %s",
            self.path, what, new[0], ", finished" if new[1] else "", kept,
        )

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until the last submitted text is written; False if that write failed or ``timeout`` passed."""
        with self._lock:
            done = self._done.wait_for(lambda: self._written >= self._submitted, timeout)
            return done and self.error is None

    def close(self, timeout: float = 10.0) -> bool:
        """Flush before the program ends (the thread is a daemon: it would not finish the write by itself)."""
        return self.flush(timeout)
