"""Where frames come from: cameras, recordings and fakes behind one ``FrameSource`` protocol.

Pick one with a ``--source`` SPEC (``open_source("camera:1")``). The camera
backends import OpenCV or picamera2 only when they are built.
"""

from __future__ import annotations

from vision.sources.base import Frame, FrameSource, Image, SourceLost, iter_frames
from vision.sources.fake import FakeSource
from vision.sources.resilient import ResilientSource, SourceState, SourceStatus
from vision.sources.spec import SourceSpec, open_source, parse_source_spec

__all__ = [
    "FakeSource",
    "Frame",
    "FrameSource",
    "Image",
    "ResilientSource",
    "SourceLost",
    "SourceSpec",
    "SourceState",
    "SourceStatus",
    "iter_frames",
    "open_source",
    "parse_source_spec",
]
