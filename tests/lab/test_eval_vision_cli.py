"""``euchre-table eval-vision``: the final summary line, the confusion file, and one clear error line for bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main

# The detector tests' helpers (tiny stand-in models, a hand-made eval case) live beside them in tests/vision.
sys.path.insert(0, str(Path(__file__).resolve().parent / "vision"))
from detector_testkit import FINDER, HEADER, FakeDetector, card_frame, write_case  # noqa: E402


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).parent.parent,
    )


def test_summary_line_on_the_hand_made_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    images, labels = write_case(tmp_path)
    monkeypatch.setattr("vision.detector.load_detector", lambda *a, **k: FakeDetector())
    confusion = tmp_path / "confusion.csv"
    status = main(["eval-vision", str(images), str(labels), "--model", str(FINDER), "--confusion", str(confusion)])
    assert status == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    keys = [pair.split("=")[0] for pair in last.split()]
    assert keys == ["images", "cards", "precision", "recall", "f1", "red_suit_swaps", "ms_per_image"]
    assert last.startswith("images=8 cards=13 precision=0.5 recall=0.4615 f1=0.48 red_suit_swaps=2 ms_per_image=")
    assert confusion.read_text(encoding="utf-8").startswith("labelled\\reported,7c,8c,")


def test_end_to_end_with_a_real_onnx_model(tmp_path: Path) -> None:
    # The tiny stand-in models see one card; two frames with a red index, one with a black index.
    images = tmp_path / "images"
    images.mkdir()
    for name, ink in (("1.png", (20, 20, 220)), ("2.png", (20, 20, 220)), ("3.png", (25, 25, 25))):
        cv2.imwrite(str(images / name), card_frame(ink))
    labels = tmp_path / "labels.csv"
    labels.write_text(f"{HEADER}\n1.png,Kh,0.5,0.5,0.4,0.5\n2.png,Kd,0.5,0.5,0.4,0.5\n3.png,As,0.5,0.5,0.4,0.5\n")
    done = run_cli("eval-vision", str(images), str(labels), "--model", str(FINDER), "--threads", "1")
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("images=3 cards=3 precision=0.6667 recall=0.6667 f1=0.6667 red_suit_swaps=1 ms_per_image=")
    # 2.png's Kh (read where Kd is labelled) is a card lying there unlabelled: with --ignore it counts neither way.
    ignore = tmp_path / "ignore.csv"
    ignore.write_text("image,class\n2.png,Kh\n", encoding="utf-8")
    done = run_cli(
        "eval-vision", str(images), str(labels), "--model", str(FINDER), "--threads", "1", "--ignore", str(ignore)
    )
    assert done.returncode == 0, done.stderr
    first, last = done.stdout.strip().splitlines()[-2:]
    assert " ignored=1 " in f" {first} "
    assert last.startswith("images=3 cards=3 precision=1 recall=0.6667 f1=0.8 red_suit_swaps=0 ms_per_image=")


@pytest.fixture()
def dataset(tmp_path: Path) -> tuple[Path, Path]:
    images = tmp_path / "images"
    images.mkdir()
    cv2.imwrite(str(images / "a.png"), np.zeros((32, 32, 3), np.uint8))
    labels = tmp_path / "labels.csv"
    labels.write_text(f"{HEADER}\na.png,Kh,0.5,0.5,0.2,0.2\n", encoding="utf-8")
    return images, labels


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("missing images", "images folder not found"),
        ("missing labels", "labels file not found"),
        ("wrong header", "labels.csv:1: expected the header"),
        ("bad class", "labels.csv:3: bad class '11h'"),
        ("unreadable image", "a.png: cannot read this image"),
        ("missing model", "nope.onnx: model not found"),
        ("bad ignore file", "ignore.csv: expected the header 'image,class'"),
    ],
)
def test_bad_input_is_one_line_and_status_2(dataset: tuple[Path, Path], case: str, message: str) -> None:
    images, labels = dataset
    model = FINDER
    if case == "missing images":
        images = images.parent / "nope"
    elif case == "missing labels":
        labels = labels.parent / "nope.csv"
    elif case == "wrong header":
        labels.write_text("file,label\na.png,Kh\n", encoding="utf-8")
    elif case == "bad class":
        labels.write_text(f"{HEADER}\na.png,Kh,0.5,0.5,0.2,0.2\na.png,11h,0.5,0.5,0.2,0.2\n", encoding="utf-8")
    elif case == "unreadable image":
        (images / "a.png").write_bytes(b"\x89PNG but not really")
    elif case == "missing model":
        model = labels.parent / "nope.onnx"
    extra: list[str] = []
    if case == "bad ignore file":
        (labels.parent / "ignore.csv").write_text("image,card\na.png,Kh\n", encoding="utf-8")
        extra = ["--ignore", str(labels.parent / "ignore.csv")]
    done = run_cli("eval-vision", str(images), str(labels), "--model", str(model), *extra)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("euchre-table: error: "), done.stderr
    assert message in lines[0]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("flags", "still", "read"), [((), True, "still"), (("--live",), False, "live")])
def test_photos_are_read_as_stills_unless_told_live(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    flags: tuple[str, ...], still: bool, read: str,
) -> None:
    images, labels = write_case(tmp_path)
    asked: list[object] = []

    def load(*args: object, **kwargs: object) -> FakeDetector:
        asked.append(kwargs.get("still"))
        return FakeDetector()

    monkeypatch.setattr("vision.detector.load_detector", load)
    assert main(["eval-vision", str(images), str(labels), "--model", str(FINDER), *flags]) == 0
    assert asked == [still]
    first = capsys.readouterr().out.strip().splitlines()[-2]
    assert f" read={read} " in f" {first} "
