"""A card detector run through Ultralytics (.pt, .onnx or an NCNN folder), for comparison and for NCNN on a Pi.

Ultralytics (and with it torch) is imported when a detector is built, never
at module import, so the table's ONNX Runtime path stays free of torch.
Only the network runs in Ultralytics; its predictions go through the same
steps as the ONNX backend (class-agnostic NMS in ``vision.postprocess``,
the corner-index classifier ``corner-cls.onnx`` through ONNX Runtime for a
model that only finds cards, merging two detections of one card), and it
is asked for the same square letterbox (``rect=False``), so both backends
report the same cards.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision import postprocess as pp
from vision.detection import CardDetection
from vision.errors import UserError
from vision.face_reader import face_reader_path_for
from vision.models import (
    calibration_for,
    classifier_classes_for,
    classifier_path_for,
    dark_classifier_path_for,
    unenrolled_classifier_path_for,
)
from vision.onnx_detector import (
    DEFAULT_CONF,
    DEFAULT_IOU,
    MAX_CARDS,
    MERGE_GAP_CORNERS,
    MERGE_GAP_WHOLE_CARDS,
    CornerClassifier,
    load_face_reader,
    name_outlines,
    reading_floor,
)


def ultralytics_available() -> tuple[bool, str]:
    """Whether Ultralytics can be imported here, and if not, why (for a skip reason or a bench note)."""
    import importlib.util

    if importlib.util.find_spec("ultralytics") is None:
        return False, "ultralytics is not installed in this environment (it comes with the 'train' extra and torch)"
    return True, ""


class UltralyticsDetector:
    """Cards in a BGR frame from any model Ultralytics can run.

    ``threads`` sets torch's CPU threads (None: leave torch's setting).
    ``imgsz`` defaults to the size the model was trained or exported at.
    """

    def __init__(
        self,
        model: Path,
        threads: int | None = None,
        conf_threshold: float | None = None,
        iou_threshold: float = DEFAULT_IOU,
        merge_gap: float | None = None,
        imgsz: int | tuple[int, int] | None = None,
        classifier: Path | None = None,
        min_confidence: float | None = None,
    ) -> None:
        # A pub's Pi is offline: never let Ultralytics try to install or download anything.
        os.environ.setdefault("YOLO_OFFLINE", "1")
        os.environ.setdefault("YOLO_AUTOINSTALL", "false")
        os.environ.setdefault("YOLO_VERBOSE", "false")
        ok, why = ultralytics_available()
        if not ok:
            raise UserError(f"cannot use the Ultralytics backend: {why}")
        import torch
        from ultralytics import YOLO

        if threads is not None:
            torch.set_num_threads(threads)
        self.path = Path(model)
        try:
            self.model: Any = YOLO(str(self.path), task=None)
        except Exception as exc:  # Ultralytics raises many types for a bad file
            raise UserError(
                f"{self.path}: cannot load this model with Ultralytics ({str(exc).splitlines()[0]})"
            ) from None
        self.conf_threshold = DEFAULT_CONF if conf_threshold is None else conf_threshold
        self.iou_threshold = iou_threshold
        self.imgsz = imgsz if imgsz is not None else self._model_imgsz()
        self.cards = pp.class_cards(self.model.names)
        self.classifier: CornerClassifier | None = None
        if not any(card is not None for card in self.cards):
            cls_path = classifier if classifier is not None else classifier_path_for(self.path)
            if cls_path is None:
                raise UserError(f"{self.path}: this model only finds cards; corner-cls.onnx is not beside it")
            face_path = face_reader_path_for(self.path)  # the face reader beside it, as the ONNX reader takes it
            self.classifier = CornerClassifier(
                cls_path, classifier_classes_for(self.path), threads, calibration_for(self.path), None,
                load_face_reader(face_path, threads) if face_path is not None else None,
                unenrolled=unenrolled_classifier_path_for(self.path) if classifier is None else None,
                dark=dark_classifier_path_for(self.path) if classifier is None else None,
            )
        self.min_confidence = reading_floor(self.classifier, min_confidence)
        if merge_gap is None:
            merge_gap = MERGE_GAP_WHOLE_CARDS if self.classifier is not None else MERGE_GAP_CORNERS
        self.merge_gap = merge_gap

    def _model_imgsz(self) -> int | tuple[int, int]:
        """The input size the model was trained (.pt) or exported (.onnx, NCNN folder) at; 640 if unknown."""
        size: Any = None
        if self.path.suffix.lower() == ".onnx":
            from vision.onnx_detector import ort_session

            meta = ort_session(self.path, 1, "ONNX model").get_modelmeta().custom_metadata_map
            size = meta.get("imgsz")
        elif self.path.is_dir() and (self.path / "metadata.yaml").is_file():
            from ultralytics.utils import YAML

            size = (YAML.load(self.path / "metadata.yaml") or {}).get("imgsz")
        else:
            ckpt = getattr(self.model, "ckpt", None)
            if isinstance(ckpt, dict):
                size = (ckpt.get("train_args") or {}).get("imgsz")
        if isinstance(size, str):
            import ast

            size = ast.literal_eval(size)
        if isinstance(size, (list, tuple)):
            return (int(size[0]), int(size[1]))
        return int(size) if size else 640

    def detect(self, frame_bgr: npt.NDArray[np.uint8], frame: int = 0) -> list[CardDetection]:
        result = self.model.predict(
            frame_bgr,
            imgsz=self.imgsz,
            conf=self.conf_threshold,
            iou=self.iou_threshold,
            agnostic_nms=True,
            max_det=MAX_CARDS,
            rect=False,
            device="cpu",
            verbose=False,
        )[0]
        h, w = frame_bgr.shape[:2]
        identity = pp.Letterbox(scale=1.0, pad_x=0, pad_y=0, frame_width=w, frame_height=h)
        if getattr(result, "obb", None) is not None:
            xywhr = result.obb.xywhr.cpu().numpy().astype(np.float32)
            scores = result.obb.conf.cpu().numpy().astype(np.float32)
            classes = result.obb.cls.cpu().numpy().astype(np.int64)
            xywh, angles = xywhr[:, :4], xywhr[:, 4]
            raw = pp.Raw(boxes=pp.rotated_aabb(xywh, angles), scores=scores, classes=classes, xywh=xywh, angles=angles)
        else:
            xyxy = result.boxes.xyxy.cpu().numpy().astype(np.float32)
            scores = result.boxes.conf.cpu().numpy().astype(np.float32)
            classes = result.boxes.cls.cpu().numpy().astype(np.int64)
            xywh = np.concatenate([(xyxy[:, :2] + xyxy[:, 2:]) / 2, xyxy[:, 2:] - xyxy[:, :2]], axis=1)
            raw = pp.Raw(boxes=xyxy, scores=scores, classes=classes, xywh=xywh, angles=None)
        raw = pp.nms(raw, self.iou_threshold, max_det=MAX_CARDS)
        if self.classifier is not None:
            quads = pp.frame_quads(raw, identity)
            dets = name_outlines(frame_bgr, quads, raw.scores, self.classifier, frame, self.min_confidence)
        else:
            dets = pp.to_detections(raw, identity, self.cards, frame)
        return pp.merge_same_card(dets, self.merge_gap)
