"""The command line's ``--source SPEC``: ``camera[:INDEX]``, ``picamera``, ``video:PATH``, ``images:DIR``, ``sim[:N]``.

``sim:N`` plays N hands on the simulated table (``sim``: one whole game).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.errors import UserError
from vision.sources.base import FrameSource

KINDS = ("camera", "picamera", "video", "images", "sim")
_USAGE = "expected camera[:INDEX], picamera, video:PATH, images:DIR or sim[:HANDS]"


@dataclass(frozen=True)
class SourceSpec:
    """A parsed SPEC; ``str(spec)`` writes it back (``SourceSpec.parse(str(s)) == s``)."""

    kind: str
    index: int = 0  # the camera's number; for sim, the hands to play (0: one whole game)
    path: Path | None = None

    @classmethod
    def parse(cls, text: str) -> SourceSpec:
        """Read a SPEC; anything malformed is a ``UserError`` that quotes it."""
        if not isinstance(text, str) or not text.strip():
            raise UserError(f"--source: empty ({_USAGE})")
        kind, sep, rest = text.strip().partition(":")
        kind = kind.lower()
        if kind in ("camera", "picamera"):
            if not sep:
                return cls(kind)
            if not rest.isdigit():
                raise UserError(f"--source {text!r}: the camera index must be a number 0 or more")
            return cls(kind, int(rest))
        if kind in ("video", "images"):
            if not rest:
                what = "a video file" if kind == "video" else "a folder of images"
                raise UserError(f"--source {text!r}: {kind}: needs {what}, such as {kind}:PATH")
            return cls(kind, path=Path(rest).expanduser())
        if kind == "sim":
            if not sep:
                return cls(kind)
            if not rest.isdigit() or not 1 <= int(rest) <= 10_000:
                raise UserError(f"--source {text!r}: sim:HANDS takes a number of hands from 1 to 10000")
            return cls(kind, int(rest))
        raise UserError(f"--source {text!r}: unknown source {kind!r} ({_USAGE})")

    def __str__(self) -> str:
        if self.kind in ("video", "images"):
            return f"{self.kind}:{self.path}"
        if self.kind in ("camera", "picamera", "sim") and self.index:
            return f"{self.kind}:{self.index}"
        return self.kind

    @property
    def is_live(self) -> bool:
        """A camera (which can be lost and comes back) rather than a recording (which ends)."""
        return self.kind in ("camera", "picamera")


def parse_source_spec(text: str) -> SourceSpec:
    """``SourceSpec.parse``, as a function for argparse's ``type=``."""
    return SourceSpec.parse(text)


def open_source(spec: SourceSpec | str, *, resilient: bool = True, **options: Any) -> FrameSource:
    """Build the source a SPEC names (not yet opened).

    Cameras come wrapped in ``ResilientSource`` unless ``resilient`` is
    False. ``options`` go to the source's constructor (``fps``, ``size``,
    ``mains_hz``...). A missing file or folder is a ``UserError`` now, not
    at the first frame.
    """
    if isinstance(spec, str):
        spec = SourceSpec.parse(spec)
    source: FrameSource
    if spec.kind == "camera":
        from vision.sources.webcam import WebcamSource

        source = WebcamSource(spec.index, **options)
    elif spec.kind == "picamera":
        from vision.sources.picamera import PiCameraSource

        source = PiCameraSource(spec.index, **options)
    elif spec.kind == "video":
        from vision.sources.files import VideoFileSource

        assert spec.path is not None
        if not spec.path.is_file():
            raise UserError(f"--source {spec}: no such video file")
        source = VideoFileSource(spec.path, **options)
    elif spec.kind == "images":
        from vision.sources.files import ImageFolderSource

        assert spec.path is not None
        if not spec.path.is_dir():
            raise UserError(f"--source {spec}: no such folder")
        source = ImageFolderSource(spec.path, **options)
    else:
        # The simulated table: a scripted game drawn in a held-out deck on the printed mat; its bids come
        # from the script (``SimTableSource.buttons``), which the app feeds in as a buttons file.
        from vision.plugins import SOURCES, plugin

        entry = plugin(SOURCES, "sim")
        if entry is None:
            raise UserError(f"--source {spec}: the simulated table is part of the lab, which is not installed here")
        source = entry.load()(hands=spec.index or None, **options)
    if spec.is_live and resilient:
        from vision.sources.resilient import ResilientSource

        return ResilientSource(source)
    return source
