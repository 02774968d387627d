"""A USB webcam through OpenCV (V4L2 on Linux): MJPG, one buffer, and a reader thread keeping only the newest frame.

The camera runs at its own pace; the detector is slower. Reading in a thread
and keeping just the latest picture means the detector always works on what
the table looks like now, never on a queue of stale frames.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol, cast

from vision.sources.base import Frame, Image, SourceLost


class Capture(Protocol):
    """The part of ``cv2.VideoCapture`` the webcam source uses (a fake one drives the tests)."""

    def isOpened(self) -> bool: ...  # noqa: N802 - OpenCV's name

    def read(self) -> tuple[bool, Any]: ...

    def set(self, prop_id: int, value: float) -> bool: ...

    def release(self) -> None: ...


def opencv_capture(index: int) -> Capture:
    """``cv2.VideoCapture`` on V4L2 (Linux) or OpenCV's default backend elsewhere."""
    import cv2

    api = cv2.CAP_V4L2 if sys.platform.startswith("linux") else cv2.CAP_ANY
    return cast(Capture, cv2.VideoCapture(index, api))


class WebcamSource:
    """Frames from USB camera ``index`` (``/dev/video<index>``).

    ``read`` waits for a frame newer than the last one it returned; if none
    comes within ``stall_timeout`` seconds, or the driver reports a failed
    read, it raises ``SourceLost`` (``ResilientSource`` then retries).
    Frames the detector had no time for are dropped, so numbers count the
    frames returned, not the frames the camera made.
    """

    def __init__(
        self,
        index: int = 0,
        *,
        size: tuple[int, int] = (1280, 720),
        fps: float = 30.0,
        stall_timeout: float = 2.0,
        capture_factory: Callable[[int], Capture] = opencv_capture,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.index = index
        self.size = size
        self.fps = fps
        self.stall_timeout = stall_timeout
        self._factory = capture_factory
        self._clock = clock
        self._capture: Capture | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._cond = threading.Condition()
        self._latest: tuple[Image, float] | None = None
        self._produced = 0
        self._consumed = 0
        self._error: str | None = None
        self._number = 0

    @property
    def description(self) -> str:
        return f"camera:{self.index}"

    @property
    def ended(self) -> bool:
        return False  # a camera never ends; it can only be lost

    def open(self) -> None:
        import cv2

        self.close()
        capture = self._factory(self.index)
        if not capture.isOpened():
            capture.release()
            raise SourceLost(f"camera {self.index}: cannot open /dev/video{self.index}")
        # MJPG lets USB 2 carry HD at full rate; one buffer so the driver does not queue old frames.
        capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        capture.set(cv2.CAP_PROP_FPS, self.fps)
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._capture = capture
        self._stop.clear()
        with self._cond:
            self._latest, self._produced, self._consumed, self._error = None, 0, 0, None
        self._number = 0
        self._thread = threading.Thread(target=self._reader, args=(capture,), name=f"webcam-{self.index}", daemon=True)
        self._thread.start()

    def _reader(self, capture: Capture) -> None:
        while not self._stop.is_set():
            try:
                ok, image = capture.read()
            except Exception as exc:  # any driver failure ends this reader; read() reports it
                ok, image = False, None
                reason = f"camera {self.index}: {exc}"
            else:
                reason = f"camera {self.index}: the driver returned no frame (unplugged?)"
            if not ok or image is None:
                with self._cond:
                    self._error = reason
                    self._cond.notify_all()
                return
            stamp = self._clock()
            with self._cond:
                self._latest = (image, stamp)
                self._produced += 1
                self._cond.notify_all()

    def read(self) -> Frame | None:
        if self._thread is None:
            raise SourceLost(f"camera {self.index}: not open")
        with self._cond:
            fresh = self._cond.wait_for(
                lambda: self._produced > self._consumed or self._error is not None, timeout=self.stall_timeout
            )
            if self._produced <= self._consumed or self._latest is None:
                raise SourceLost(
                    self._error if fresh else f"camera {self.index}: no frame for {self.stall_timeout:g} s"
                )
            image, stamp = self._latest
            self._consumed = self._produced
        frame = Frame(self._number, stamp, image)
        self._number += 1
        return frame

    def close(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            # A read stuck in a dead driver must not hang the program: give up waiting after a second.
            thread.join(timeout=1.0)
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()
