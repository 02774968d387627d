"""The Raspberry Pi camera through picamera2: a small stream to detect on, a larger one to show.

picamera2 comes from apt on Raspberry Pi OS (``python3-picamera2``; the venv
is made with ``--system-site-packages``), so it is imported only when this
source opens. After the automatic exposure and white balance have settled,
they are locked, so a hand or a dark sleeve passing over the table does not
change the colours the detector sees. Bar lighting flickers at twice the
mains frequency; the flicker period (10000 us at 50 Hz, 8333 us at 60 Hz)
lets the exposure avoid banding.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from vision.errors import UserError
from vision.sources.base import Frame, Image, SourceLost

FLICKER_PERIOD_US = {50: 10000, 60: 8333}
# The two streams: the cards are found in the small one (``lores``); the large one (``main``) shows the same
# view, for the screen and, with ``[camera] main_stream_crops``, for reading the cards' indices.
DETECT_SIZE = (640, 480)
DISPLAY_SIZE = (1280, 960)
MAIN_STREAM_SCALE = DISPLAY_SIZE[0] // DETECT_SIZE[0]

# What to tell someone whose venv cannot see apt's picamera2.
_INSTALL_HINT = (
    "picamera2 is not importable: on Raspberry Pi OS install it with `sudo apt install python3-picamera2` "
    "and create the virtual environment with --system-site-packages"
)


def flicker_controls(mains_hz: int | None, available: Mapping[str, Any], manual_mode: int) -> dict[str, Any]:
    """Controls that set the anti-flicker period for ``mains_hz`` (None: leave libcamera's default).

    ``available`` is ``Picamera2.camera_controls``; older libcamera builds lack
    the flicker controls, and then nothing is set.
    """
    if mains_hz is None:
        return {}
    if mains_hz not in FLICKER_PERIOD_US:
        raise UserError(f"mains frequency must be 50 or 60 Hz, not {mains_hz}")
    if "AeFlickerMode" not in available or "AeFlickerPeriod" not in available:
        return {}
    return {"AeFlickerMode": manual_mode, "AeFlickerPeriod": FLICKER_PERIOD_US[mains_hz]}


def lock_controls(metadata: Mapping[str, Any], available: Mapping[str, Any]) -> dict[str, Any]:
    """Controls that freeze exposure, gain and white balance at the values in ``metadata``.

    Setting ``ExposureTime``, ``AnalogueGain`` and ``ColourGains`` fixes them;
    libcamera 0.5 also wants the exposure and gain modes set to manual (1),
    and older builds used ``AeEnable``/``AwbEnable``, so each is set only
    where the camera offers it.
    """
    controls: dict[str, Any] = {}
    for name in ("ExposureTime", "AnalogueGain", "ColourGains"):
        if name in metadata:
            controls[name] = metadata[name]
    for mode in ("ExposureTimeMode", "AnalogueGainMode"):
        if mode in available:
            controls[mode] = 1  # manual
    for switch in ("AeEnable", "AwbEnable"):
        if switch in available:
            controls[switch] = False
    return controls


def yuv420_to_bgr(array: Image, width: int) -> Image:
    """A picamera2 YUV420 array (height*3/2 rows, one stride wide) as a BGR picture ``width`` wide.

    The lores stream is YUV420 on every Pi (the Pi 4's ISP offers nothing
    else there); rows may be padded to the stride, so convert, then crop.
    """
    import cv2

    bgr = np.asarray(cv2.cvtColor(np.ascontiguousarray(array), cv2.COLOR_YUV2BGR_I420), dtype=np.uint8)
    return bgr[:, :width] if bgr.shape[1] != width else bgr


class PiCameraSource:
    """Frames from a Raspberry Pi camera: ``image_bgr`` from the small stream, ``display_bgr`` from the main one."""

    def __init__(
        self,
        camera_num: int = 0,
        *,
        detect_size: tuple[int, int] = DETECT_SIZE,
        display_size: tuple[int, int] = DISPLAY_SIZE,
        fps: float = 15.0,
        mains_hz: int | None = 50,
        settle_s: float = 2.0,
        stall_timeout: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if mains_hz is not None and mains_hz not in FLICKER_PERIOD_US:
            raise UserError(f"mains frequency must be 50 or 60 Hz, not {mains_hz}")
        self.camera_num = camera_num
        self.detect_size = detect_size
        self.display_size = display_size
        self.fps = fps
        self.mains_hz = mains_hz
        self.settle_s = settle_s
        self.stall_timeout = stall_timeout
        self._clock = clock
        self._sleep = sleep
        self._camera: Any = None
        self._number = 0

    @property
    def description(self) -> str:
        return "picamera" if self.camera_num == 0 else f"picamera:{self.camera_num}"

    @property
    def ended(self) -> bool:
        return False

    def open(self) -> None:
        self.close()
        try:
            libcamera = importlib.import_module("libcamera")
            picamera2 = importlib.import_module("picamera2")
        except ImportError as exc:
            raise UserError(f"{_INSTALL_HINT} ({exc})") from None
        try:
            camera = picamera2.Picamera2(self.camera_num)
        except (IndexError, RuntimeError, OSError) as exc:
            raise SourceLost(f"picamera {self.camera_num}: {exc}") from None
        self._camera = camera
        try:
            available = camera.camera_controls
            start_controls: dict[str, Any] = {"FrameRate": self.fps}
            start_controls |= flicker_controls(self.mains_hz, available, libcamera.controls.AeFlickerModeEnum.Manual)
            config = camera.create_video_configuration(
                main={"size": self.display_size, "format": "RGB888"},  # BGR in memory, as OpenCV wants
                lores={"size": self.detect_size, "format": "YUV420"},
                buffer_count=4,
                controls=start_controls,
            )
            camera.configure(config)
            camera.start()
            self._sleep(self.settle_s)  # let exposure and white balance settle on the table
            camera.set_controls(lock_controls(camera.capture_metadata(), available))
        except (RuntimeError, OSError, KeyError) as exc:
            self.close()
            raise SourceLost(f"picamera {self.camera_num}: {exc}") from None
        self._number = 0

    def read(self) -> Frame | None:
        camera = self._camera
        if camera is None:
            raise SourceLost(f"picamera {self.camera_num}: not open")
        try:
            # Asynchronously, so a camera that stops delivering is a SourceLost, not a hung program.
            job = camera.capture_request(wait=False)
            request = camera.wait(job, timeout=self.stall_timeout)
            try:
                lores = request.make_array("lores")
                main = request.make_array("main")
                metadata = request.get_metadata()
            finally:
                request.release()
        except TimeoutError:
            raise SourceLost(f"picamera {self.camera_num}: no frame for {self.stall_timeout:g} s") from None
        except (RuntimeError, OSError) as exc:
            raise SourceLost(f"picamera {self.camera_num}: {exc}") from None
        sensor_ns = metadata.get("SensorTimestamp")
        stamp = sensor_ns / 1e9 if isinstance(sensor_ns, int) else self._clock()
        frame = Frame(self._number, stamp, yuv420_to_bgr(lores, self.detect_size[0]), main)
        self._number += 1
        return frame

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is None:
            return
        try:
            camera.stop()
        except (RuntimeError, OSError):
            pass  # a camera that has gone cannot be stopped; closing still frees what is left
        finally:
            camera.close()
