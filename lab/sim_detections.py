"""A simulated run's detections, recorded once and replayed: ``simulate ... --detections FILE``.

A full simulated run spends nearly all its time drawing frames and reading them (8-14 minutes for 24
hands on two cores); the tracker and the engine take about a minute. So the first run with
``--detections FILE`` writes, per frame, what the reader reported and the camera calibration the
markers gave; a later run with the same arguments and the same FILE draws and reads nothing (and
enrols nothing) and gives the tracker and the engine exactly those frames: the same figures as a full
run, for the tracker and the engine of the code at hand. A change to the reader, the models or the
deck profile needs a new recording: the header holds a checksum of the reader's code
(:data:`READER_SOURCES`), so a recording made by another reader is refused rather than replayed.

The file is JSON lines: a header naming the run (:func:`run_identity`: the arguments that decide what
is drawn and read, a checksum of the script they stage, the models' checksums and the reader code's), then
one line per frame: ``{"f": n, "cal": [nine floats] or null, "src": calibration source, "d": [[card, confidence,
x1, y1, x2, y2, corners or null], ...]}``. It is written to ``FILE.part`` and moved into place when the
run is over, so a run stopped half-way leaves no recording. A header that does not match the run asked
for, a damaged line or a missing frame is an error naming the file and what is wrong
(:class:`vision.errors.UserError`): a replay is exact or it is not made.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from table.cards import CardParseError
from table.limits import LimitError, check_depth
from vision.deck_profile import file_sha256
from vision.detection import CardDetection, detection_from_row, detection_row
from vision.detector import detect_frame
from vision.errors import UserError
from vision.zones import Calibration

FORMAT = "euchre-table simulated detections"
VERSION = 1
_MAX_LINE = 1 << 20


# The code that decides what the reader reports for a frame (and the enrolment that builds its deck profile),
# relative to the project's root; the tracker and the engine, which a replay runs, are not in it. Nor are the
# renderer (lab/simtable.py) and the markers' calibration (vision/zones.py), which share their files with what
# a replay runs: a change to how frames are drawn or markers found still needs a new recording by hand.
READER_SOURCES: tuple[str, ...] = (
    "vision/calibration.py",
    "vision/cardcrop.py",
    "vision/deck_profile.py",
    "vision/detection.py",
    "vision/detector.py",
    "vision/face_reader.py",
    "vision/models.py",
    "vision/onnx_detector.py",
    "vision/postprocess.py",
    "display/enrolment.py",
    "lab/sim_enrol.py",
)
_ROOT = Path(__file__).resolve().parent.parent


def sources_sha256(sources: tuple[str, ...] = READER_SOURCES, root: Path = _ROOT) -> str:
    """One sha256 over the named source files (each name and its bytes; a missing file counts as absent)."""
    digest = hashlib.sha256()
    for name in sources:
        path = root / name
        digest.update(name.encode() + b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"(absent)")
        digest.update(b"\0")
    return digest.hexdigest()


def run_identity(
    settings: dict[str, Any], models: list[Path], reader: str | None = None
) -> dict[str, Any]:
    """What decides a run's frames and readings: ``settings`` (plain JSON values), each model's sha256 and
    the reader's code (``reader``, default :func:`sources_sha256`)."""
    return {
        **settings,
        "models": {p.name: file_sha256(p) for p in models if p.is_file()},
        "reader": reader if reader is not None else sources_sha256(),
    }


class DetectionRecorder:
    """Wraps the pipeline's detector and marker refresher, and writes what they give, frame by frame."""

    def __init__(self, path: Path, identity: dict[str, Any], detector: Any, refresher: Any) -> None:
        self.path = path
        self.detector = detector
        self.refresher = refresher
        self._cal: dict[int, Calibration | None] = {}
        # Written beside, and moved into place once the run is over: a run stopped half-way leaves no FILE
        # that a later run would take for a recording.
        self._part = path.with_name(path.name + ".part")
        try:
            self._out: IO[str] = self._part.open("w", encoding="utf-8")
            self._out.write(json.dumps({"format": FORMAT, "version": VERSION, "run": identity}, sort_keys=True) + "\n")
        except OSError as exc:
            raise UserError(f"--detections {path}: cannot write it ({exc.strerror or exc})") from None

    def update(self, image: npt.NDArray[np.uint8], frame: int) -> Calibration | None:
        cal: Calibration | None = self.refresher.update(image, frame)
        self._cal[frame] = cal
        if cal is None:  # the pipeline reads no cards in a frame without a calibration
            self._write(frame, None, [])
        return cal

    @property
    def reads_detail(self) -> bool:
        return bool(getattr(self.detector, "reads_detail", False))

    def detect(
        self, frame_bgr: npt.NDArray[np.uint8], frame: int = 0, detail_bgr: npt.NDArray[np.uint8] | None = None
    ) -> list[CardDetection]:
        found = detect_frame(self.detector, frame_bgr, frame, detail_bgr)
        self._write(frame, self._cal.pop(frame, None), found)
        return found

    def _write(self, frame: int, cal: Calibration | None, found: list[CardDetection]) -> None:
        rows = [detection_row(d) for d in found]
        line = {"f": frame, "cal": list(cal.homography) if cal else None, "src": cal.source if cal else None, "d": rows}
        try:
            self._out.write(json.dumps(line, separators=(",", ":")) + "\n")
        except OSError as exc:
            raise UserError(f"--detections {self.path}: cannot write it ({exc.strerror or exc})") from None

    def close(self) -> None:
        """Finish the recording: FILE holds it from now on."""
        try:
            self._out.close()
            self._part.replace(self.path)
        except OSError as exc:
            raise UserError(f"--detections {self.path}: cannot write it ({exc.strerror or exc})") from None


class RecordedFrames:
    """A recording read back: the pipeline's detector and marker refresher for a replay."""

    def __init__(self, path: Path, identity: dict[str, Any], frames: int) -> None:
        self.path = path
        self._cal: dict[int, Calibration | None] = {}
        self._dets: dict[int, list[CardDetection]] = {}
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UserError(f"--detections {path}: cannot read it ({exc})") from None
        lines = text.splitlines()
        header = self._line(lines[0] if lines else "", 1)
        if header.get("format") != FORMAT or header.get("version") != VERSION:
            raise UserError(f"--detections {path}: not a recording of simulated detections ({FORMAT!r}, {VERSION})")
        if header.get("run") != json.loads(json.dumps(identity, sort_keys=True)):
            wanted = json.loads(json.dumps(identity, sort_keys=True))
            run = header.get("run")
            got: dict[str, Any] = run if isinstance(run, dict) else {}
            differ = sorted(k for k in set(wanted) | set(got) if wanted.get(k) != got.get(k))
            raise UserError(f"--detections {path}: recorded for another run (it differs in {', '.join(differ)}); "
                            "give another file to record this one")  # fmt: skip
        for number, raw in enumerate(lines[1:], start=2):
            obj = self._line(raw, number)
            try:
                frame = int(obj["f"])
                cal = obj["cal"]
                self._cal[frame] = None if cal is None else Calibration(tuple(float(v) for v in cal), str(obj["src"]))
                self._dets[frame] = [detection_from_row(row, frame) for row in obj["d"]]
            except (ValueError, KeyError, TypeError, IndexError, CardParseError) as exc:
                raise UserError(f"--detections {path}, line {number}: a damaged frame ({exc})") from None
        missing = [n for n in range(frames) if n not in self._cal]
        if missing:
            raise UserError(f"--detections {path}: {len(missing)} of {frames} frames missing (from frame "
                            f"{missing[0]}): delete it to record the run again")  # fmt: skip

    def _line(self, raw: str, number: int) -> dict[str, Any]:
        try:
            if len(raw) > _MAX_LINE:
                raise ValueError("line too long")
            check_depth(raw)
            obj = json.loads(raw)
        except (ValueError, LimitError) as exc:
            raise UserError(f"--detections {self.path}, line {number}: not JSON ({exc})") from None
        if not isinstance(obj, dict):
            raise UserError(f"--detections {self.path}, line {number}: not a JSON object")
        return obj

    def update(self, image: npt.NDArray[np.uint8], frame: int) -> Calibration | None:
        return self._cal[frame]

    def detect(self, frame_bgr: npt.NDArray[np.uint8], frame: int = 0) -> list[CardDetection]:
        return list(self._dets.get(frame, []))

