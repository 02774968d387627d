"""A per-frame record of the detector's output, so a recording resumed after a crash is judged exactly as before.

The tracker's state (cards half-way through their votes) is lost when the
program stops. For a recording, a restart rebuilds it by feeding the tracker
the detections of every frame it had already judged: from this cache where
it has them, from the detector where the last lines were lost. The cache is
a plain append-only JSON-lines file; it is written in batches of
``BATCH`` frames (and on close), never fsynced: the match log is the durable
record, and losing the cache's tail only costs detector time.

It is best effort: a write that fails (a full disk) is warned about once and
the cache stops writing; the game goes on. A frame already in the file is
never written again, so running the same recording again does not grow it.
"""

from __future__ import annotations

import contextlib
import json
import logging
from pathlib import Path
from typing import IO

from table.cards import CardParseError
from table.limits import LimitError, check_depth
from vision.detection import CardDetection, detection_from_row, detection_row

log = logging.getLogger(__name__)

BATCH = 30  # frames per write: one write a second at 30 fps, never one per frame
_MAX_LINE = 64 * 1024


class DetectionCache:
    """Detections by frame number, read back on open and appended as frames are judged."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._by_frame: dict[int, list[CardDetection]] = {}
        self._batch: list[str] = []
        self._written: set[int] = set()
        self._out: IO[str] | None = None
        self.failed: OSError | None = None  # the write failure that stopped the cache (warned once)
        try:
            if path.exists():
                self._load()
            self._out = path.open("a", encoding="utf-8")
        except OSError as exc:
            self._fail(exc)

    def _fail(self, exc: OSError) -> None:
        if self.failed is None:
            log.warning(
                "the detection cache %s is not written (%s); the game goes on, a restart detects again",
                self.path, exc.strerror or exc,
            )
        self.failed = exc
        self._batch.clear()
        if self._out is not None:
            with contextlib.suppress(OSError):
                self._out.close()
            self._out = None

    def _load(self) -> None:
        data = self.path.read_bytes()
        whole = data[: data.rfind(b"\n") + 1]
        if len(whole) != len(data):
            # A torn last line: cut it off so the next line starts clean (that frame is detected again).
            with self.path.open("r+b") as f:
                f.truncate(len(whole))
        for line in whole.decode("utf-8", errors="replace").splitlines():
            try:
                if len(line) > _MAX_LINE:
                    continue
                check_depth(line)
                obj = json.loads(line)
                frame = int(obj["f"])
                self._by_frame[frame] = [detection_from_row(d, frame) for d in obj["d"]]
            except (ValueError, KeyError, TypeError, IndexError, CardParseError, LimitError):
                continue  # a damaged line: that frame is detected again

    def get(self, frame: int) -> list[CardDetection] | None:
        return self._by_frame.get(frame)

    def put(self, frame: int, detections: list[CardDetection]) -> None:
        if frame in self._by_frame or frame in self._written:
            return  # in the file already (a recording run again): the file does not grow
        self._written.add(frame)  # (the numbers only: the detections themselves are not kept in memory)
        if self._out is None:
            return
        rows = [detection_row(d) for d in detections]
        self._batch.append(json.dumps({"f": frame, "d": rows}, separators=(",", ":")) + "\n")
        if len(self._batch) >= BATCH:
            self.flush()

    def flush(self) -> None:
        """Write the frames held back (best effort: a failure is warned about once, never raised)."""
        if self._out is None or not self._batch:
            return
        try:
            self._out.write("".join(self._batch))
            self._out.flush()
        except OSError as exc:
            self._fail(exc)
        self._batch.clear()

    def close(self) -> None:
        self.flush()
        if self._out is not None:
            try:
                self._out.close()
            except OSError as exc:
                self._fail(exc)
            self._out = None
