"""The detection cache reads back what it wrote, and a torn or damaged line only costs that frame."""

from __future__ import annotations

from pathlib import Path

from companion.detection_cache import DetectionCache
from table.cards import Card
from vision.detection import CardDetection


def _det(card: str, frame: int, corners: bool = False) -> CardDetection:
    pts = ((1.0, 2.0), (3.0, 4.0), (5.0, 6.0), (7.0, 8.0)) if corners else None
    return CardDetection(Card.parse(card), 0.875, (10.0, 20.0, 30.5, 40.25), frame, pts)


def test_round_trip(tmp_path: Path) -> None:
    cache = DetectionCache(tmp_path / "d.jsonl")
    cache.put(3, [_det("Jd", 3, corners=True), _det("B", 3)])
    cache.put(4, [])
    cache.close()
    again = DetectionCache(tmp_path / "d.jsonl")
    assert again.get(3) == [_det("Jd", 3, corners=True), _det("B", 3)]
    assert again.get(4) == []
    assert again.get(5) is None
    again.close()


def test_a_doubted_reading_keeps_its_rival_and_older_rows_read_without_one(tmp_path: Path) -> None:
    from dataclasses import replace

    from vision.detection import detection_from_row, detection_row

    doubted = replace(_det("Kd", 3, corners=True), rival=Card.parse("Ks"))
    cache = DetectionCache(tmp_path / "d.jsonl")
    cache.put(3, [doubted, _det("B", 3)])
    cache.close()
    again = DetectionCache(tmp_path / "d.jsonl")
    assert again.get(3) == [doubted, _det("B", 3)]
    again.close()
    assert len(detection_row(_det("B", 3))) == 7  # a sure reading's row as it always was
    assert detection_from_row(detection_row(_det("Jd", 5))[:7], 5) == _det("Jd", 5)


def test_torn_and_damaged_lines_are_detected_again(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    cache = DetectionCache(path)
    cache.put(1, [_det("9h", 1)])
    cache.close()
    with path.open("a") as f:
        f.write('{"f": 2, "d": [["Zz", 1, 0, 0, 1, 1, null]]}\n{"f": 3, "d": [[')
    again = DetectionCache(path)
    assert again.get(1) == [_det("9h", 1)]
    assert again.get(2) is None and again.get(3) is None
    again.put(4, [_det("Ah", 4)])
    again.close()
    assert DetectionCache(path).get(4) == [_det("Ah", 4)]  # appended on a clean line after the torn one
