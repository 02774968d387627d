"""Frame sources that read recordings: a video file and a folder of still images."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.errors import UserError
from vision.sources.base import Frame

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class VideoFileSource:
    """Frames of a video file, in order; timestamps from the file's frame rate."""

    def __init__(self, path: Path, fps: float | None = None) -> None:
        self.path = Path(path)
        self._fps_override = fps
        self.fps = fps or 0.0
        self._capture: Any = None  # a cv2.VideoCapture while open
        self._number = 0
        self._ended = False

    @property
    def description(self) -> str:
        return f"video:{self.path}"

    @property
    def ended(self) -> bool:
        return self._ended

    def open(self) -> None:
        import cv2

        self.close()
        if not self.path.is_file():
            raise UserError(f"video file not found: {self.path}")
        capture = cv2.VideoCapture(str(self.path))
        if not capture.isOpened():
            capture.release()
            raise UserError(f"cannot decode video {self.path} (not a video OpenCV can read)")
        self.fps = self._fps_override or capture.get(cv2.CAP_PROP_FPS) or 30.0
        self._capture = capture
        self._number = 0
        self._ended = False

    def read(self) -> Frame | None:
        if self._capture is None or self._ended:
            self._ended = True
            return None
        ok, image = self._capture.read()
        if not ok or image is None:
            self._ended = True
            return None
        frame = Frame(self._number, self._number / self.fps, image)
        self._number += 1
        return frame

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
        self._capture = None


def _natural_key(path: Path) -> list[object]:
    # "frame10.png" after "frame9.png", as a person numbering files expects.
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


class ImageFolderSource:
    """The pictures in a folder, in natural name order, as frames ``fps`` apart."""

    def __init__(self, folder: Path, fps: float = 10.0) -> None:
        if fps <= 0:
            raise ValueError(f"fps must be positive: {fps}")
        self.folder = Path(folder)
        self.fps = fps
        self.paths: list[Path] = []
        self._index = 0

    @property
    def description(self) -> str:
        return f"images:{self.folder}"

    @property
    def ended(self) -> bool:
        return self._index >= len(self.paths)

    def open(self) -> None:
        if not self.folder.is_dir():
            raise UserError(f"image folder not found: {self.folder}")
        self.paths = sorted(
            (p for p in self.folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES), key=_natural_key
        )
        if not self.paths:
            raise UserError(f"no images in {self.folder} (looked for {' '.join(IMAGE_SUFFIXES)})")
        self._index = 0

    def read(self) -> Frame | None:
        import cv2

        if self.ended:
            return None
        path = self.paths[self._index]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise UserError(f"cannot read image {path}")
        frame = Frame(self._index, self._index / self.fps, np.asarray(image, dtype=np.uint8))
        self._index += 1
        return frame

    def close(self) -> None:
        """Nothing is held open between reads."""


def load_image(path: Path) -> npt.NDArray[np.uint8]:
    """A BGR image from disk, or UserError naming the file."""
    import cv2

    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise UserError(f"{path}: cannot read this image")
    return np.asarray(image, dtype=np.uint8)
