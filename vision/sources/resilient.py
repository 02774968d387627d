"""Keeps a camera going through unplugs and driver errors: report once, retry with back-off, resume.

``ResilientSource`` wraps any ``FrameSource``. When the inner source raises
``SourceLost`` it reports the loss once, then tries to reopen it after 0.5 s,
1 s, 2 s ... (up to ``max_delay``), and reports once more when frames come
back. It never blocks for long, so the main loop keeps drawing the score
and taking button presses, and shows ``status`` ("camera lost") meanwhile.
Frame numbers stay increasing across reopenings, as the tracker needs.
"""

from __future__ import annotations

import contextlib
import enum
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from vision.sources.base import Frame, FrameSource, SourceLost

_log = logging.getLogger("euchre_table.vision")


class SourceState(enum.Enum):
    """Where a resilient source stands; the value is what a screen can show."""

    STARTING = "starting"
    RUNNING = "ok"
    LOST = "camera lost"
    ENDED = "ended"


@dataclass(frozen=True)
class SourceStatus:
    """``state`` with the reason (for a lost camera) and the clock time it began."""

    state: SourceState
    message: str = ""
    since: float = 0.0

    def __str__(self) -> str:
        return f"{self.state.value}: {self.message}" if self.message else self.state.value


class ResilientSource:
    """A ``FrameSource`` that survives its inner source failing; see the module docstring.

    ``clock`` and ``sleep`` are injected so tests run in no time. While the
    camera is lost, ``read`` sleeps at most ``poll`` seconds and returns
    ``None`` (``ended`` stays False). ``report`` receives one line per loss
    and one per recovery.
    """

    def __init__(
        self,
        source: FrameSource,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        report: Callable[[str], None] | None = None,
        first_delay: float = 0.5,
        max_delay: float = 10.0,
        poll: float = 0.1,
    ) -> None:
        if not 0 < first_delay <= max_delay:
            raise ValueError(f"need 0 < first_delay <= max_delay: {first_delay}, {max_delay}")
        self.source = source
        self._clock = clock
        self._sleep = sleep
        self._report = report if report is not None else _log.warning
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.poll = poll
        self._status = SourceStatus(SourceState.STARTING)
        self._delay = first_delay
        self._next_try = 0.0
        self._tries = 0
        self._offset = 0  # added to the inner numbers so they keep rising after a reopen
        self._last_number = -1

    @property
    def description(self) -> str:
        return self.source.description

    @property
    def status(self) -> SourceStatus:
        return self._status

    @property
    def ended(self) -> bool:
        return self._status.state is SourceState.ENDED

    def open(self) -> None:
        """Open the inner source; a missing camera is not fatal here, just lost until it appears."""
        self._reopen()

    def read(self) -> Frame | None:
        state = self._status.state
        if state is SourceState.ENDED:
            return None
        if state is not SourceState.RUNNING:
            now = self._clock()
            if now < self._next_try:
                self._sleep(min(self._next_try - now, self.poll))
                if self._clock() < self._next_try:
                    return None
            if not self._reopen():
                return None
        try:
            frame = self.source.read()
        except (SourceLost, OSError) as exc:
            self._lose(str(exc) or type(exc).__name__)
            return None
        if frame is None:
            if self.source.ended:
                self._status = SourceStatus(SourceState.ENDED, since=self._clock())
            return None
        number = frame.number + self._offset
        if number <= self._last_number:
            self._offset += self._last_number + 1 - number
            number = self._last_number + 1
        self._last_number = number
        return frame if number == frame.number else replace(frame, number=number)

    def close(self) -> None:
        self.source.close()

    def _reopen(self) -> bool:
        was_lost = self._status.state is SourceState.LOST
        self._tries += 1
        with contextlib.suppress(SourceLost, OSError):  # closing what is already gone
            self.source.close()
        try:
            self.source.open()
        except (SourceLost, OSError) as exc:
            self._lose(str(exc) or type(exc).__name__)
            return False
        if was_lost:
            gone_for = self._clock() - self._status.since
            self._report(f"{self.description}: back after {gone_for:.1f} s ({self._tries} tries)")
        self._status = SourceStatus(SourceState.RUNNING, since=self._clock())
        self._delay = self.first_delay
        self._tries = 0
        return True

    def _lose(self, reason: str) -> None:
        now = self._clock()
        if self._status.state is SourceState.LOST:
            self._delay = min(self._delay * 2.0, self.max_delay)
            self._status = replace(self._status, message=reason)
        else:
            with contextlib.suppress(SourceLost, OSError):
                self.source.close()
            self._report(f"{self.description}: camera lost ({reason}); retrying")
            self._delay = self.first_delay
            self._status = SourceStatus(SourceState.LOST, reason, now)
        self._next_try = now + self._delay
