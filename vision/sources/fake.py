"""A scripted frame source for tests and demos, with stimulus helpers: ``unplug()``, ``plug_in()``."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.sources.base import Frame, Image, SourceLost


class FakeSource:
    """Frames from a list of pictures (or ``count`` plain grey ones), ``fps`` apart, as a camera would give them.

    ``unplug()`` makes the next ``read`` raise ``SourceLost`` and every
    ``open`` fail until ``plug_in()``; ``fail_opens`` makes that many opens
    fail first. Like a real camera, numbering restarts at 0 on each open;
    pictures continue where they stopped.
    """

    def __init__(
        self,
        images: Sequence[Image] | None = None,
        *,
        count: int | None = None,
        size: tuple[int, int] = (64, 48),
        fps: float = 10.0,
        fail_opens: int = 0,
    ) -> None:
        self.images = list(images) if images is not None else None
        self.count = count if images is None else len(self.images or [])
        self.size = size
        self.fps = fps
        self.fail_opens = fail_opens
        self.plugged = True
        self.is_open = False
        self.opens = 0
        self._produced = 0  # pictures given out, across opens
        self._number = 0

    @property
    def description(self) -> str:
        return "fake"

    @property
    def ended(self) -> bool:
        return self.count is not None and self._produced >= self.count

    def unplug(self) -> None:
        self.plugged = False

    def plug_in(self) -> None:
        self.plugged = True

    def open(self) -> None:
        self.opens += 1
        if self.fail_opens > 0:
            self.fail_opens -= 1
            raise SourceLost("fake: cannot open (scripted)")
        if not self.plugged:
            raise SourceLost("fake: no such device")
        self.is_open = True
        self._number = 0

    def read(self) -> Frame | None:
        if not self.is_open:
            raise SourceLost("fake: not open")
        if not self.plugged:
            self.is_open = False
            raise SourceLost("fake: device unplugged")
        if self.ended:
            return None
        if self.images is not None:
            image = self.images[self._produced]
        else:
            image = np.full((self.size[1], self.size[0], 3), self._produced % 256, dtype=np.uint8)
        frame = Frame(self._number, self._produced / self.fps, image)
        self._number += 1
        self._produced += 1
        return frame

    def close(self) -> None:
        self.is_open = False
