"""The frame-source contract: a ``Frame`` value, the ``FrameSource`` protocol and the ``SourceLost`` error."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from table.rules import Rules

Image = npt.NDArray[np.uint8]
"""An OpenCV picture: height x width x 3, BGR, uint8."""


@dataclass(frozen=True, eq=False)
class Frame:
    """One picture from a source.

    ``number`` counts frames from 0 and only goes up; ``timestamp`` is in
    seconds (the capture time for a camera, ``number / fps`` for a file).
    ``image_bgr`` is the picture to detect on; a camera with a second, larger
    stream puts that in ``display_bgr`` for the screen.
    """

    number: int
    timestamp: float
    image_bgr: Image
    display_bgr: Image | None = None


class SourceLost(Exception):
    """The device behind a source failed (unplugged, driver error, no frames): retry later.

    A file that cannot be read is not this but a ``UserError``: retrying will not help.
    """


@runtime_checkable
class FrameSource(Protocol):
    """Anything that gives frames: cameras, files, the simulated table, the test fake.

    ``open`` starts it (``SourceLost`` if the device is missing), ``read``
    returns the next frame or ``None`` when there is none (``ended`` says
    whether more will come; a live camera waits for its next frame and raises
    ``SourceLost`` when it fails), ``close`` releases it and may be called
    more than once. A closed source may be opened again.
    """

    @property
    def description(self) -> str: ...

    @property
    def ended(self) -> bool: ...

    def open(self) -> None: ...

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


@runtime_checkable
class ScriptedTable(FrameSource, Protocol):
    """A source that deals its own game (the lab's simulated table, ``--source sim``).

    It brings what the table would otherwise take from the config and the players: the rules and first
    dealer of its script, the printed mat it is drawn on, and its button presses (bids, alone, renege
    decisions) as ``run --buttons`` reads them, one JSON object per line.
    """

    @property
    def rules(self) -> Rules: ...

    @property
    def first_dealer(self) -> int: ...

    @property
    def mat_name(self) -> str: ...

    def buttons_jsonl(self) -> str: ...


def iter_frames(source: FrameSource) -> Iterator[Frame]:
    """Open ``source``, yield its frames until it ends, then close it (for files and tests)."""
    source.open()
    try:
        while True:
            frame = source.read()
            if frame is not None:
                yield frame
            elif source.ended:
                return
    finally:
        source.close()
