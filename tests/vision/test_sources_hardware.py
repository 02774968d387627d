"""Real cameras: run on the Pi or a machine with a webcam (``pytest -m hardware tests/vision``); CI skips these."""

from __future__ import annotations

import pytest

from vision.sources import ResilientSource, SourceState, iter_frames
from vision.sources.picamera import PiCameraSource
from vision.sources.webcam import WebcamSource

pytestmark = pytest.mark.hardware


def test_webcam_gives_fresh_frames() -> None:
    source = WebcamSource(0)
    frames = []
    for frame in iter_frames(source):
        frames.append(frame)
        if len(frames) == 10:
            break
    assert [f.number for f in frames] == list(range(10))
    assert all(b.timestamp > a.timestamp for a, b in zip(frames, frames[1:], strict=False))
    assert frames[0].image_bgr.ndim == 3 and frames[0].image_bgr.shape[2] == 3


def test_picamera_gives_both_streams() -> None:
    source = PiCameraSource(detect_size=(640, 480), display_size=(1280, 960), settle_s=1.0)
    source.open()
    try:
        frame = source.read()
    finally:
        source.close()
    assert frame is not None
    assert frame.image_bgr.shape == (480, 640, 3)
    assert frame.display_bgr is not None and frame.display_bgr.shape[:2] == (960, 1280)


def test_resilient_camera_runs() -> None:
    source = ResilientSource(WebcamSource(0))
    source.open()
    try:
        frame = None
        for _ in range(50):
            frame = source.read()
            if frame is not None:
                break
        assert frame is not None
        assert source.status.state is SourceState.RUNNING
    finally:
        source.close()
