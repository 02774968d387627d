"""Frame sources without hardware: files, the SPEC parser, the webcam reader with a fake driver, and resilience."""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import UserError
from lab.simtable import SimTableSource
from vision.sources import (
    FakeSource,
    Frame,
    FrameSource,
    Image,
    ResilientSource,
    SourceLost,
    SourceSpec,
    SourceState,
    iter_frames,
    open_source,
)
from vision.sources.files import ImageFolderSource, VideoFileSource
from vision.sources.picamera import PiCameraSource, flicker_controls, lock_controls, yuv420_to_bgr
from vision.sources.webcam import WebcamSource


def picture(value: int, size: tuple[int, int] = (64, 48)) -> Image:
    image = np.zeros((size[1], size[0], 3), dtype=np.uint8)
    image[:, :, 0] = value
    image[:, :, 1] = 255 - value
    image[:, :, 2] = (value * 7) % 256
    return image


# ---- files ----


def test_images_folder_in_natural_order(tmp_path: Path) -> None:
    for n in (10, 2, 1):
        cv2.imwrite(str(tmp_path / f"frame{n}.png"), picture(n * 20))
    (tmp_path / "notes.txt").write_text("not a picture")
    source = ImageFolderSource(tmp_path, fps=4.0)
    frames = list(iter_frames(source))
    assert [f.number for f in frames] == [0, 1, 2]
    assert [f.timestamp for f in frames] == [0.0, 0.25, 0.5]
    assert [int(f.image_bgr[0, 0, 0]) for f in frames] == [20, 40, 200]
    assert source.ended


def test_images_folder_errors(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no images"):
        ImageFolderSource(tmp_path).open()
    (tmp_path / "broken.png").write_bytes(b"not a png")
    source = ImageFolderSource(tmp_path)
    source.open()
    with pytest.raises(UserError, match="broken.png"):
        source.read()
    with pytest.raises(UserError, match="not found"):
        ImageFolderSource(tmp_path / "missing").open()


def test_video_file(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 20.0, (64, 48))
    assert writer.isOpened()
    for n in range(12):
        writer.write(picture(n * 20))
    writer.release()
    source = VideoFileSource(path)
    frames = list(iter_frames(source))
    assert len(frames) == 12
    assert [f.number for f in frames] == list(range(12))
    assert frames[3].timestamp == pytest.approx(3 / 20.0)
    assert frames[5].image_bgr.shape == (48, 64, 3)
    # MJPG is lossy: the blue channel is close to what was written.
    assert abs(int(frames[5].image_bgr[24, 32, 0]) - 100) < 12
    assert source.ended and source.read() is None


def test_video_file_errors(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="not found"):
        VideoFileSource(tmp_path / "none.mp4").open()
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"\x00" * 100)
    with pytest.raises(UserError, match="cannot decode"):
        VideoFileSource(junk).open()


# ---- SPEC ----


@pytest.mark.parametrize(
    "text, spec",
    [
        ("camera", SourceSpec("camera", 0)),
        ("camera:2", SourceSpec("camera", 2)),
        ("CAMERA:0", SourceSpec("camera", 0)),
        ("picamera", SourceSpec("picamera")),
        ("picamera:1", SourceSpec("picamera", 1)),
        ("video:game.mp4", SourceSpec("video", path=Path("game.mp4"))),
        ("video:C:/clips/a.mp4", SourceSpec("video", path=Path("C:/clips/a.mp4"))),
        ("images:shots", SourceSpec("images", path=Path("shots"))),
        ("sim", SourceSpec("sim")),
        ("sim:2", SourceSpec("sim", 2)),
    ],
)
def test_spec_parses_and_round_trips(text: str, spec: SourceSpec) -> None:
    assert SourceSpec.parse(text) == spec
    assert SourceSpec.parse(str(spec)) == spec


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("webcam", "unknown source 'webcam'"),
        ("camera:", "index must be a number"),
        ("camera:x", "index must be a number"),
        ("camera:-1", "index must be a number"),
        ("video:", "needs a video file"),
        ("images:", "needs a folder"),
        ("sim:x", "number of hands"),
        ("sim:0", "number of hands"),
    ],
)
def test_bad_specs_are_user_errors(text: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        SourceSpec.parse(text)


def test_open_source_checks_paths_and_sim(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no such video file"):
        open_source(f"video:{tmp_path / 'missing.mp4'}")
    with pytest.raises(UserError, match="no such folder"):
        open_source(f"images:{tmp_path / 'missing'}")
    sim = open_source("sim:2")
    assert isinstance(sim, SimTableSource) and sim.hands == 2
    assert isinstance(open_source(f"images:{tmp_path}"), ImageFolderSource)


def test_open_source_wraps_cameras() -> None:
    camera = open_source("camera:3")
    assert isinstance(camera, ResilientSource) and isinstance(camera.source, WebcamSource)
    assert camera.source.index == 3
    assert isinstance(open_source("camera", resilient=False), WebcamSource)
    assert isinstance(open_source("picamera"), FrameSource)


# ---- webcam reader thread, with a fake driver ----


class FakeCapture:
    """Stands in for cv2.VideoCapture: hands out numbered pictures, fails on request."""

    def __init__(self, opened: bool = True) -> None:
        self.opened = opened
        self.settings: dict[int, float] = {}
        self.count = 0
        self.asked = 0  # reads begun: the reader thread has stored every frame before the one it asks for
        self.fail = threading.Event()
        self.released = False
        self.pace = threading.Semaphore(0)  # each release lets the "camera" make one frame

    def isOpened(self) -> bool:  # noqa: N802
        return self.opened

    def set(self, prop_id: int, value: float) -> bool:
        self.settings[prop_id] = value
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        self.asked += 1
        self.pace.acquire(timeout=2.0)
        if self.fail.is_set():
            return False, None
        self.count += 1
        return True, picture(self.count)

    def release(self) -> None:
        self.released = True
        self.fail.set()
        self.pace.release()


def test_webcam_keeps_only_the_newest_frame() -> None:
    capture = FakeCapture()
    ticks = iter(range(1000))
    source = WebcamSource(1, capture_factory=lambda i: capture, clock=lambda: float(next(ticks)), stall_timeout=2.0)
    source.open()
    try:
        assert capture.settings[cv2.CAP_PROP_BUFFERSIZE] == 1
        assert capture.settings[cv2.CAP_PROP_FOURCC] == cv2.VideoWriter.fourcc(*"MJPG")
        for _ in range(5):
            capture.pace.release()
        # Until the reader asks for a sixth frame it may still be storing the fifth (a busy machine can hold
        # it there), and the read after the next frame is made would then get the fifth instead.
        while capture.asked < 6:
            threading.Event().wait(0.005)
        first = source.read()
        assert first is not None and first.number == 0
        assert int(first.image_bgr[0, 0, 0]) == 5  # frames 1-4 were made and dropped unread
        capture.pace.release()
        second = source.read()
        assert second is not None and second.number == 1 and int(second.image_bgr[0, 0, 0]) == 6
    finally:
        capture.fail.set()  # let the reader thread finish at once
        capture.pace.release()
        source.close()
    assert capture.released


def test_webcam_failure_is_source_lost() -> None:
    capture = FakeCapture()
    source = WebcamSource(0, capture_factory=lambda i: capture, stall_timeout=0.05)
    source.open()
    try:
        with pytest.raises(SourceLost, match="no frame for"):
            source.read()  # the fake camera makes nothing: a stall
        capture.fail.set()
        capture.pace.release()
        with pytest.raises(SourceLost, match="unplugged"):
            source.read()
    finally:
        source.close()
    with pytest.raises(SourceLost, match="cannot open /dev/video4"):
        WebcamSource(4, capture_factory=lambda i: FakeCapture(opened=False)).open()


# ---- picamera helpers (the camera itself is in test_sources_hardware.py) ----


def test_lock_controls_freezes_exposure_gain_and_white_balance() -> None:
    metadata = {"ExposureTime": 9000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4), "Lux": 300.0}
    new_libcamera = {"ExposureTimeMode": (0, 1, 0), "AnalogueGainMode": (0, 1, 0), "ColourGains": (0, 32, None)}
    assert lock_controls(metadata, new_libcamera) == {
        "ExposureTime": 9000,
        "AnalogueGain": 2.5,
        "ColourGains": (1.8, 1.4),
        "ExposureTimeMode": 1,
        "AnalogueGainMode": 1,
    }
    old_libcamera = {"AeEnable": (False, True, True), "AwbEnable": (False, True, True)}
    locked = lock_controls(metadata, old_libcamera)
    assert locked["AeEnable"] is False and locked["AwbEnable"] is False


def test_flicker_controls() -> None:
    available = {"AeFlickerMode": (0, 1, 0), "AeFlickerPeriod": (100, 1000000, None)}
    assert flicker_controls(50, available, manual_mode=1) == {"AeFlickerMode": 1, "AeFlickerPeriod": 10000}
    assert flicker_controls(60, available, manual_mode=1) == {"AeFlickerMode": 1, "AeFlickerPeriod": 8333}
    assert flicker_controls(None, available, manual_mode=1) == {}
    assert flicker_controls(50, {}, manual_mode=1) == {}
    with pytest.raises(UserError, match="50 or 60"):
        flicker_controls(55, available, manual_mode=1)


@pytest.mark.parametrize("stride", [64, 128])
def test_yuv420_lores_to_bgr(stride: int) -> None:
    bgr = np.zeros((48, stride, 3), dtype=np.uint8)
    bgr[:, :32] = (200, 40, 40)
    bgr[:, 32:] = (40, 40, 200)
    yuv = np.asarray(
        cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420), dtype=np.uint8
    )  # what picamera2 gives: height*3/2 rows, stride wide
    out = yuv420_to_bgr(yuv, 64)
    assert out.shape == (48, 64, 3)
    assert np.abs(out.astype(int) - bgr[:, :64].astype(int)).max() < 12


# ---- ResilientSource ----


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def resilient(inner: FakeSource, clock: FakeClock, reports: list[str]) -> ResilientSource:
    return ResilientSource(inner, clock=clock, sleep=clock.sleep, report=reports.append, first_delay=0.5, max_delay=4.0)


def test_lost_camera_is_reported_once_retried_with_backoff_and_resumes() -> None:
    clock, reports = FakeClock(), list[str]()
    inner = FakeSource()
    source = resilient(inner, clock, reports)
    source.open()
    numbers = [f.number for f in (source.read(), source.read(), source.read()) if f is not None]
    assert numbers == [0, 1, 2] and source.status.state is SourceState.RUNNING

    inner.unplug()
    attempts: list[float] = []
    real_open = inner.open

    def counting_open() -> None:
        attempts.append(clock.now)
        real_open()

    inner.open = counting_open  # type: ignore[method-assign]
    results = [source.read() for _ in range(120)]  # 12 s of polling at 0.1 s
    assert all(r is None for r in results)
    assert source.status.state.value == "camera lost" and str(source.status).startswith("camera lost")
    assert not source.ended
    assert len(reports) == 1 and "camera lost" in reports[0]
    gaps = [round(b - a, 6) for a, b in zip(attempts, attempts[1:], strict=False)]
    assert gaps[:3] == [1.0, 2.0, 4.0] and all(g == 4.0 for g in gaps[3:])  # doubled, capped at max_delay
    assert attempts[0] == pytest.approx(100.0 + 0.5, abs=1e-6)
    assert max(clock.sleeps) <= 0.1 + 1e-9  # never blocks the main loop for long

    inner.plug_in()
    frame = None
    for _ in range(60):
        frame = source.read()
        if frame is not None:
            break
    assert frame is not None and frame.number == 3  # numbering continues although the camera restarted at 0
    assert source.status.state is SourceState.RUNNING
    assert len(reports) == 2 and "back after" in reports[1]
    following = source.read()
    assert following is not None and following.number == 4


def test_camera_missing_at_start_is_not_fatal() -> None:
    clock, reports = FakeClock(), list[str]()
    inner = FakeSource(fail_opens=2)
    source = resilient(inner, clock, reports)
    source.open()
    assert source.status.state is SourceState.LOST
    frames = [source.read() for _ in range(40)]
    got = [f for f in frames if f is not None]
    assert got and got[0].number == 0
    assert inner.opens == 3 and len(reports) == 2


def test_a_file_that_ends_is_ended_not_lost() -> None:
    clock, reports = FakeClock(), list[str]()
    source = resilient(FakeSource(count=2), clock, reports)
    frames = list(iter_frames(source))
    assert [f.number for f in frames] == [0, 1]
    assert source.status.state is SourceState.ENDED and source.ended and reports == []


def test_frame_is_a_plain_value() -> None:
    frame = Frame(3, 0.3, picture(1))
    assert frame.display_bgr is None and frame.number == 3
    assert isinstance(FakeSource(), FrameSource) and isinstance(open_source("camera"), FrameSource)


class FakeRequest:
    def __init__(self, lores: Image, main: Image, stamp_ns: int) -> None:
        self.arrays = {"lores": lores, "main": main}
        self.stamp_ns = stamp_ns
        self.released = False

    def make_array(self, name: str) -> Image:
        return self.arrays[name]

    def get_metadata(self) -> dict[str, object]:
        return {"SensorTimestamp": self.stamp_ns, "ExposureTime": 8000}

    def release(self) -> None:
        self.released = True


class FakePicamera2:
    """The parts of picamera2.Picamera2 the source uses, recording what it is asked."""

    instances: list[FakePicamera2] = []
    stall = False

    def __init__(self, camera_num: int = 0) -> None:
        self.camera_num = camera_num
        self.camera_controls = {
            "AeFlickerMode": (0, 1, 0),
            "AeFlickerPeriod": (100, 1000000, None),
            "ExposureTimeMode": (0, 1, 0),
            "AnalogueGainMode": (0, 1, 0),
        }
        self.calls: list[tuple[str, object]] = []
        self.requests: list[FakeRequest] = []
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, **kwargs: object) -> dict[str, object]:
        return dict(kwargs)

    def configure(self, config: object) -> None:
        self.calls.append(("configure", config))

    def start(self) -> None:
        self.calls.append(("start", None))

    def capture_metadata(self) -> dict[str, object]:
        return {"ExposureTime": 8000, "AnalogueGain": 2.0, "ColourGains": (1.9, 1.5)}

    def set_controls(self, controls: dict[str, object]) -> None:
        self.calls.append(("set_controls", controls))

    def capture_request(self, wait: bool | None = None) -> str:
        assert wait is False
        return "job"

    def wait(self, job: str, timeout: float | None = None) -> FakeRequest:
        if FakePicamera2.stall:
            raise TimeoutError
        bgr = picture(100, (64, 48))
        yuv = np.asarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420), dtype=np.uint8)
        request = FakeRequest(yuv, picture(7, (128, 96)), 5_000_000_000 + len(self.requests))
        self.requests.append(request)
        return request

    def stop(self) -> None:
        self.calls.append(("stop", None))

    def close(self) -> None:
        self.calls.append(("close", None))


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    import sys
    import types

    libcamera = types.ModuleType("libcamera")
    libcamera.controls = types.SimpleNamespace(AeFlickerModeEnum=types.SimpleNamespace(Manual=1))  # type: ignore[attr-defined]
    picamera2 = types.ModuleType("picamera2")
    picamera2.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "libcamera", libcamera)
    monkeypatch.setitem(sys.modules, "picamera2", picamera2)
    FakePicamera2.instances = []
    FakePicamera2.stall = False
    return FakePicamera2


def test_picamera_configures_two_streams_locks_exposure_and_reads(fake_picamera2: type[FakePicamera2]) -> None:
    sleeps: list[float] = []
    source = PiCameraSource(
        detect_size=(64, 48), display_size=(128, 96), mains_hz=60, settle_s=1.5, sleep=sleeps.append
    )
    source.open()
    camera = fake_picamera2.instances[0]
    config = camera.calls[0][1]
    assert isinstance(config, dict)
    assert config["main"] == {"size": (128, 96), "format": "RGB888"}
    assert config["lores"] == {"size": (64, 48), "format": "YUV420"}
    assert config["controls"] == {"FrameRate": 15.0, "AeFlickerMode": 1, "AeFlickerPeriod": 8333}
    assert sleeps == [1.5]
    assert camera.calls[2] == (
        "set_controls",
        {
            "ExposureTime": 8000,
            "AnalogueGain": 2.0,
            "ColourGains": (1.9, 1.5),
            "ExposureTimeMode": 1,
            "AnalogueGainMode": 1,
        },
    )
    frame = source.read()
    assert frame is not None and frame.number == 0 and frame.timestamp == pytest.approx(5.0)
    assert frame.image_bgr.shape == (48, 64, 3) and abs(int(frame.image_bgr[10, 10, 0]) - 100) < 8
    assert frame.display_bgr is not None and frame.display_bgr.shape == (96, 128, 3)
    assert camera.requests[0].released
    fake_picamera2.stall = True
    with pytest.raises(SourceLost, match="no frame for 2 s"):
        source.read()
    source.close()
    assert camera.calls[-2:] == [("stop", None), ("close", None)]


def test_picamera_missing_is_a_user_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails, as in a venv without system packages
    with pytest.raises(UserError, match="python3-picamera2"):
        PiCameraSource(settle_s=0).open()
