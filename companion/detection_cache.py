"""A per-frame record of the detector's output, so a recording resumed after a crash is judged exactly as before.

The tracker's state (cards half-way through their votes) is lost when the
program stops. For a recording, a restart rebuilds it by feeding the tracker
the detections of every frame it had already judged: from this cache where
it has them, from the detector where the last lines were lost. The cache is
a plain append-only JSON-lines file; it is flushed but not fsynced (the match
log is the durable record; losing the cache's tail only costs detector time).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO

from table.cards import Card, CardParseError
from vision.detection import CardDetection


class DetectionCache:
    """Detections by frame number, read back on open and appended as frames are judged."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._by_frame: dict[int, list[CardDetection]] = {}
        if path.exists():
            self._load()
        self._out: IO[str] = path.open("a", encoding="utf-8")

    def _load(self) -> None:
        data = self.path.read_bytes()
        whole = data[: data.rfind(b"\n") + 1]
        if len(whole) != len(data):
            # A torn last line: cut it off so the next line starts clean (that frame is detected again).
            with self.path.open("r+b") as f:
                f.truncate(len(whole))
        for line in whole.decode("utf-8", errors="replace").splitlines():
            try:
                obj = json.loads(line)
                frame = int(obj["f"])
                self._by_frame[frame] = [_detection(d, frame) for d in obj["d"]]
            except (ValueError, KeyError, TypeError, IndexError, CardParseError):
                continue  # a damaged line: that frame is detected again

    def get(self, frame: int) -> list[CardDetection] | None:
        return self._by_frame.get(frame)

    def put(self, frame: int, detections: list[CardDetection]) -> None:
        rows = [
            [str(d.card), d.confidence, *d.box, [list(p) for p in d.corners] if d.corners is not None else None]
            for d in detections
        ]
        self._out.write(json.dumps({"f": frame, "d": rows}, separators=(",", ":")) + "\n")
        self._out.flush()

    def close(self) -> None:
        self._out.close()


def _detection(row: list[object], frame: int) -> CardDetection:
    card, conf, x1, y1, x2, y2, corners = row
    pts = tuple((float(p[0]), float(p[1])) for p in corners) if isinstance(corners, list) else None
    return CardDetection(
        Card.parse(str(card)),
        float(conf),  # type: ignore[arg-type]
        (float(x1), float(y1), float(x2), float(y2)),  # type: ignore[arg-type]
        frame,
        pts,
    )
