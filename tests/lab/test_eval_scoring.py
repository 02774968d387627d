"""Card-identity scoring of a detector on labelled photos: the arithmetic on a hand-made case, with a fake detector."""

from __future__ import annotations

import csv
import tempfile
from pathlib import Path

import numpy as np
import pytest
from detector_testkit import HEADER, FakeDetector, write_case

from companion.errors import UserError
from lab.evaluate import EvalResult, evaluate, read_ignore, score_image, write_confusion
from table.cards import Card
from table.renege import CHECK_CONFIDENCE
from vision.detection import CardDetection
from vision.labels import LabelledCard, read_labels


@pytest.fixture()
def result(tmp_path: Path) -> EvalResult:
    images, labels = write_case(tmp_path)
    return evaluate(FakeDetector(), images, labels)


def test_totals_on_the_hand_made_case(result: EvalResult) -> None:
    assert result.images == 8
    assert result.cards == 13
    assert result.reported == 12  # 13 detections, one card twice
    assert (result.true_positives, result.false_alarms, result.misses) == (6, 6, 7)
    assert result.precision == pytest.approx(6 / 12)
    assert result.recall == pytest.approx(6 / 13)
    assert result.f1 == pytest.approx(2 * (6 / 12) * (6 / 13) / (6 / 12 + 6 / 13))
    assert result.red_suit_swaps == 2  # Ah->Ad, Kd->Kh; not Qh (Qd was labelled and found)
    assert result.black_suit_swaps == 1  # Jc->Js
    assert result.ms_per_image >= 0.0


def test_confusion_pairs(result: EvalResult) -> None:
    counts = result.confusion()
    off_diagonal = {pair: n for pair, n in counts.items() if pair[0] != pair[1]}
    assert off_diagonal == {
        ("Ah", "Ad"): 1,
        ("Kd", "Kh"): 1,
        ("Jc", "Js"): 1,
        ("Qh", "none"): 1,
        ("9c", "none"): 1,
        ("9d", "none"): 1,
        ("9h", "Tc"): 1,  # by place: the ten of clubs lies on the labelled nine of hearts
        ("none", "7s"): 1,
        ("none", "9h"): 1,
    }
    assert sum(n for pair, n in counts.items() if pair[0] == pair[1]) == result.true_positives


def test_confusion_file(result: EvalResult, tmp_path: Path) -> None:
    out = tmp_path / "confusion.csv"
    write_confusion(out, result)
    rows = list(csv.reader(out.open(encoding="utf-8")))
    header = rows[0]
    assert header[0] == "labelled\\reported" and header[-1] == "none" and len(header) == 1 + 33 + 1
    table = {row[0]: dict(zip(header[1:], map(int, row[1:]), strict=True)) for row in rows[1:35]}
    assert table["Ah"]["Ad"] == 1 and table["Kh"]["Kh"] == 1 and table["Qh"]["none"] == 1
    assert table["none"]["7s"] == 1 and table["none"]["none"] == 0
    totals = {row[0]: int(row[1]) for row in rows[36:]}
    assert totals == {"true_positives": 6, "misses": 7, "false_alarms": 6, "red_suit_swaps": 2, "black_suit_swaps": 1}


def test_empty_cases_have_defined_scores() -> None:
    nothing = score_image("x.png", [], {})
    r = EvalResult([nothing])
    assert (r.precision, r.recall, r.f1) == (1.0, 1.0, 1.0)
    r = EvalResult([score_image("x.png", read_labels_rows(["x.png,Kh,0.5,0.5,0.2,0.2"])["x.png"], {})])
    assert (r.precision, r.recall, r.f1) == (1.0, 0.0, 0.0)


def read_labels_rows(rows: list[str]) -> dict[str, list[LabelledCard]]:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "labels.csv"
        path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
        return read_labels(path)


def test_a_card_labelled_twice_is_one_card_of_the_set() -> None:
    labels = read_labels_rows(["x.png,Kh,0.3,0.5,0.2,0.4", "x.png,Kh,0.7,0.5,0.2,0.4"])["x.png"]
    assert len(labels) == 2
    s = score_image("x.png", labels, {Card.parse("Kh"): (0, 0, 1, 1)})
    assert (s.true_positives, s.misses, s.false_alarms) == (1, 0, 0)


def test_a_swap_needs_the_twin_to_be_unlabelled_and_the_card_missed() -> None:
    labels = read_labels_rows(["x.png,9h,0.3,0.5,0.2,0.4", "x.png,9d,0.7,0.5,0.2,0.4"])["x.png"]
    # Both red nines labelled, only 9d reported: a miss, no swap.
    s = score_image("x.png", labels, {Card.parse("9d"): (0, 0, 1, 1)})
    assert (s.red_suit_swaps, s.misses, s.false_alarms) == (0, 1, 0)
    # 9h labelled alone, 9h and 9d reported: a false alarm, no swap.
    s = score_image("x.png", labels[:1], {Card.parse("9h"): (0, 0, 1, 1), Card.parse("9d"): (0, 0, 1, 1)})
    assert (s.red_suit_swaps, s.misses, s.false_alarms) == (0, 0, 1)


def test_a_reported_card_on_the_ignore_list_counts_neither_way() -> None:
    labels = read_labels_rows(["x.png,9h,0.3,0.5,0.2,0.4"])["x.png"]
    reported = {Card.parse("9h"): (0.0, 0.0, 1.0, 1.0), Card.parse("Qs"): (0.0, 0.0, 1.0, 1.0)}
    s = score_image("x.png", labels, reported)
    assert (s.true_positives, s.false_alarms, s.ignored) == (1, 1, 0)
    # Qs lies in the picture, too little of it showing to be labelled, its index in sight: ignored.
    s = score_image("x.png", labels, reported, ignore=frozenset({Card.parse("Qs")}))
    assert (s.true_positives, s.false_alarms, s.misses, s.ignored) == (1, 0, 0, 1)
    # A card both labelled and on the list is labelled: reported, it is a true positive; unreported, a miss.
    both = frozenset({Card.parse("9h")})
    assert score_image("x.png", labels, reported, ignore=both).true_positives == 1
    assert score_image("x.png", labels, {}, ignore=both).misses == 1


def test_the_ignore_file_is_read_per_image(tmp_path: Path) -> None:
    path = tmp_path / "ignore.csv"
    path.write_text("image,class\na.png,Qs\na.png,9h\nb.png,B\n", encoding="utf-8")
    assert read_ignore(path) == {
        "a.png": frozenset({Card.parse("Qs"), Card.parse("9h")}),
        "b.png": frozenset({Card.parse("B")}),
    }


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("image,card\na.png,Qs\n", r"ignore\.csv: expected the header 'image,class'"),
        ("image,class\na.png,Qs,extra\n", r"ignore\.csv, line 2: expected 2 fields"),
        ("image,class\na.png,Qs\na.png,Xq\n", r"ignore\.csv, line 3: 'Xq' is not a card"),
        ("", r"ignore\.csv: expected the header"),
    ],
)
def test_a_bad_ignore_file_names_file_and_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "ignore.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UserError, match=message):
        read_ignore(path)
    with pytest.raises(UserError, match="cannot read"):
        read_ignore(tmp_path / "nope.csv")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("image,card,x,y,w,h\na.png,Kh,0.5,0.5,0.1,0.1\n", r"labels\.csv:1: expected the header"),
        (HEADER + "\na.png,Kh,0.5,0.5,0.1,0.1\na.png,Xh,0.5,0.5,0.1,0.1\n", r"labels\.csv:3: bad class 'Xh'"),
        (HEADER + "\na.png,Kh,0.5,0.5,0.1\n", r"labels\.csv:2: expected 6 fields"),
        (HEADER + "\na.png,Kh,0.5,0.5,0.1,wide\n", r"labels\.csv:2: box coordinates must be numbers"),
        (HEADER + "\na.png,Kh,0.5,1.5,0.1,0.1\n", r"labels\.csv:2: box coordinates must lie in 0\.\.1"),
    ],
)
def test_bad_label_files_name_file_and_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "labels.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UserError, match=message):
        read_labels(path)


def test_missing_and_unreadable_inputs(tmp_path: Path) -> None:
    images, labels = write_case(tmp_path)
    with pytest.raises(UserError, match="labels file not found"):
        evaluate(FakeDetector(), images, tmp_path / "nope.csv")
    with pytest.raises(UserError, match="images folder not found"):
        evaluate(FakeDetector(), tmp_path / "nope", labels)
    (images / "b.png").unlink()
    with pytest.raises(UserError, match=r"labels\.csv:\d+: image 'b\.png' is not in"):
        evaluate(FakeDetector(), images, labels)
    (images / "b.png").write_bytes(b"not an image")
    with pytest.raises(UserError, match=r"b\.png: cannot read this image"):
        evaluate(FakeDetector(), images, labels)


class AlsoToCheck(FakeDetector):
    """FakeDetector's readings, plus readings under the engine's check line: on ``h.png`` its missed 9c
    (right) and a Kc (not there), on ``a.png`` its Kh again (also read surely)."""

    def detect(self, frame_bgr: np.ndarray, frame: int = 0) -> list[CardDetection]:
        out = super().detect(frame_bgr, frame)
        name = self.names[int(frame_bgr[0, 0, 0])]
        box = (30.0, 30.0, 40.0, 70.0)
        under = CHECK_CONFIDENCE * 0.9
        extra = {"h.png": ["9c", "Kc"], "a.png": ["Kh"]}.get(name, [])
        rival = {"Kc": Card.parse("9c")}  # the stray Kc's rival: the 9c that lies there
        return out + [CardDetection(Card.parse(c), under, box, frame, rival=rival.get(c)) for c in extra]


def test_readings_to_check_are_counted_apart_and_not_scored(tmp_path: Path) -> None:
    images, labels = write_case(tmp_path)
    plain = evaluate(FakeDetector(), images, labels)
    checked = evaluate(AlsoToCheck(), images, labels)
    # The score is that of the sure readings alone: neither the right 9c nor the stray Kc moves it.
    assert (checked.true_positives, checked.false_alarms, checked.misses) == (6, 6, 7)
    assert (checked.precision, checked.recall) == (plain.precision, plain.recall)
    assert (plain.to_check, plain.to_check_right) == (0, 0)
    # The Kh read surely on a.png counts once, as sure; on h.png two cards to check, one of them there.
    assert (checked.to_check, checked.to_check_right) == (2, 1)
    assert checked.to_check_rival_right == 1  # the stray Kc's check offers the 9c instead, which is there
    per = {s.image: s for s in checked.per_image}
    assert (per["h.png"].to_check, per["h.png"].to_check_right, per["a.png"].to_check) == (2, 1, 0)
