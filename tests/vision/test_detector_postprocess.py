"""Letterbox, YOLO output decoding, NMS and the merging of two detections of one card, on hand-made arrays."""

from __future__ import annotations

import math

import numpy as np
import pytest

from table.cards import Card
from vision import postprocess as pp
from vision.detection import CardDetection

NC = 3  # classes 0 = "Kh", 1 = "Kd", 2 = "card"
CARDS = pp.class_cards({0: "Kh", 1: "Kd", 2: "card"})


def dense(rows: list[list[float]], obb: bool = False) -> np.ndarray:
    """A [1, 4+nc(+1), N] output from one row per anchor: cx, cy, w, h, scores... (, angle)."""
    width = 4 + NC + (1 if obb else 0)
    assert all(len(r) == width for r in rows)
    return np.asarray(rows, dtype=np.float32).T[None]


# --- letterbox ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(504, 378), (540, 960), (320, 320), (101, 999)])
def test_letterbox_keeps_aspect_and_centres_the_frame(shape: tuple[int, int]) -> None:
    h, w = shape
    frame = np.full((h, w, 3), 200, np.uint8)
    image, box = pp.letterbox(frame, 320)
    assert image.shape == (320, 320, 3)
    new_w, new_h = round(w * box.scale), round(h * box.scale)
    assert max(new_w, new_h) == 320
    # The frame lands centred; everything around it is the grey the network was trained on.
    assert abs((320 - new_w) - 2 * box.pad_x) <= 1 and abs((320 - new_h) - 2 * box.pad_y) <= 1
    assert (image[box.pad_y : box.pad_y + new_h, box.pad_x : box.pad_x + new_w] == 200).all()
    if box.pad_y:
        assert (image[: box.pad_y] == pp.PAD_VALUE).all()
    if box.pad_x:
        assert (image[:, : box.pad_x] == pp.PAD_VALUE).all()


def test_letterbox_coordinates_round_trip() -> None:
    frame = np.zeros((540, 960, 3), np.uint8)
    _, box = pp.letterbox(frame, (320, 320))
    pts = np.array([[0, 0], [960, 540], [123.5, 456.25], [480, 270]], np.float32)
    back = box.to_frame(box.to_input(pts))
    np.testing.assert_allclose(back, pts, atol=1e-3)
    # The frame's centre is the input's centre; its top-left is the padding's corner.
    np.testing.assert_allclose(box.to_input([[480, 270]]), [[160, 160]], atol=0.5)
    np.testing.assert_allclose(box.to_input([[0, 0]]), [[0, box.pad_y]], atol=1e-3)
    # Points in the padding clip to the frame unless asked not to.
    assert box.to_frame([[-20.0, 5.0]]).tolist() == [[0.0, 0.0]]
    assert box.to_frame([[-20.0, 5.0]], clip=False)[0, 0] < 0


def test_to_tensor_is_rgb_chw_in_unit_range() -> None:
    image = np.zeros((2, 3, 3), np.uint8)
    image[..., 2] = 255  # red in BGR
    t = pp.to_tensor(image)
    assert t.shape == (1, 3, 2, 3) and t.dtype == np.float32
    assert (t[0, 0] == 1.0).all() and (t[0, 1:] == 0.0).all()


# --- decoding ----------------------------------------------------------------------------------------------------


def test_decode_detect_layout_takes_best_class_above_threshold() -> None:
    out = dense(
        [
            [100, 50, 20, 40, 0.9, 0.1, 0.0],  # Kh
            [200, 80, 10, 10, 0.2, 0.7, 0.0],  # Kd
            [10, 10, 4, 4, 0.1, 0.2, 0.24],  # too weak
        ]
    )
    raw = pp.decode(out, NC, conf_threshold=0.25)
    assert len(raw) == 2 and raw.angles is None
    assert raw.classes.tolist() == [0, 1]
    np.testing.assert_allclose(raw.scores, [0.9, 0.7])
    np.testing.assert_allclose(raw.boxes[0], [90, 30, 110, 70])
    np.testing.assert_allclose(raw.boxes[1], [195, 75, 205, 85])


def test_decode_obb_layout_reads_the_angle_last() -> None:
    out = dense([[100, 100, 40, 20, 0.0, 0.0, 0.8, math.pi / 2]], obb=True)
    raw = pp.decode(out, NC)
    assert raw.angles is not None and len(raw) == 1
    assert raw.classes.tolist() == [2]
    np.testing.assert_allclose(raw.angles, [math.pi / 2], atol=1e-6)
    # Turned a quarter: the 40-wide box stands 40 tall.
    np.testing.assert_allclose(raw.boxes[0], [90, 80, 110, 120], atol=1e-3)
    corners = pp.rotated_corners(raw.xywh, raw.angles)[0]
    assert sorted(map(tuple, np.round(corners).astype(int).tolist())) == [(90, 80), (90, 120), (110, 80), (110, 120)]


def test_decode_end_to_end_layouts() -> None:
    e2e = np.array([[[10, 20, 30, 60, 0.9, 1], [0, 0, 5, 5, 0.1, 0]]], np.float32)
    raw = pp.decode(e2e, NC, end2end=True)
    assert len(raw) == 1 and raw.classes.tolist() == [1]
    np.testing.assert_allclose(raw.boxes[0], [10, 20, 30, 60])
    np.testing.assert_allclose(raw.xywh[0], [20, 40, 20, 40])
    e2e_obb = np.array([[[50, 50, 20, 10, 0.8, 2, 0.0]]], np.float32)
    raw = pp.decode(e2e_obb, NC, end2end=True)
    assert raw.angles is not None
    np.testing.assert_allclose(raw.boxes[0], [40, 45, 60, 55])


def test_output_layout_is_told_from_the_shape_and_rejects_misfits() -> None:
    assert pp.output_layout((1, 7, 2100), NC) == "detect"
    assert pp.output_layout((1, 8, 2100), NC) == "obb"
    assert pp.output_layout((1, 300, 6), NC) == "e2e"
    assert pp.output_layout((1, 300, 7), NC) == "e2e-obb"
    # Three classes and 7 channels could be either; the model's end2end flag settles it.
    assert pp.output_layout((1, 7, 7), NC, end2end=True) == "e2e-obb"
    assert pp.output_layout((1, 7, 7), NC, end2end=False) == "detect"
    with pytest.raises(ValueError, match="does not fit 3 classes"):
        pp.output_layout((1, 40, 2100), NC)
    with pytest.raises(ValueError, match="expected a YOLO output"):
        pp.output_layout((2100, 7), NC)


def test_class_names_map_to_cards() -> None:
    assert [Card.parse("Kh"), Card.parse("Kd"), None] == CARDS
    assert pp.class_cards(["10h", "KS", "B", "joker", "back"]) == [
        Card.parse("Th"),
        Card.parse("Ks"),
        Card.parse("B"),
        Card.parse("B"),
        None,
    ]
    with pytest.raises(ValueError, match="class indices"):
        pp.class_cards({0: "Kh", 2: "Kd"})


# --- NMS ---------------------------------------------------------------------------------------------------------


def test_nms_keeps_the_best_of_overlapping_boxes_across_classes() -> None:
    out = dense(
        [
            [100, 100, 40, 60, 0.6, 0.0, 0.0],  # Kh
            [102, 101, 40, 60, 0.0, 0.8, 0.0],  # Kd on the same spot, more confident
            [300, 100, 40, 60, 0.5, 0.0, 0.0],  # another card elsewhere
        ]
    )
    raw = pp.nms(pp.decode(out, NC), 0.5)
    assert raw.classes.tolist() == [1, 0]
    np.testing.assert_allclose(raw.scores, [0.8, 0.5])
    # Per class, the two names on one spot both survive.
    per_class = pp.nms(pp.decode(out, NC), 0.5, agnostic=False)
    assert sorted(per_class.scores.tolist()) == pytest.approx([0.5, 0.6, 0.8])


def test_greedy_nms_lets_a_suppressed_box_not_suppress_others() -> None:
    # A overlaps B, B overlaps C, A does not overlap C: greedy NMS keeps A and C.
    out = dense(
        [
            [100, 100, 40, 40, 0.9, 0, 0],
            [120, 100, 40, 40, 0.8, 0, 0],
            [140, 100, 40, 40, 0.7, 0, 0],
        ]
    )
    raw = pp.nms(pp.decode(out, NC), 0.3)
    assert raw.scores.tolist() == pytest.approx([0.9, 0.7])


def test_oriented_nms_is_fast_nms_like_ultralytics() -> None:
    # The same chain with oriented boxes: fast NMS lets the suppressed B still suppress C.
    out = dense(
        [
            [100, 100, 40, 40, 0, 0, 0.9, 0.0],
            [120, 100, 40, 40, 0, 0, 0.8, 0.0],
            [140, 100, 40, 40, 0, 0, 0.7, 0.0],
            [400, 100, 40, 40, 0, 0, 0.6, 0.3],
        ],
        obb=True,
    )
    raw = pp.decode(out, NC)
    overlaps = pp.probiou_matrix(raw.xywh, raw.angles, raw.xywh, raw.angles)
    assert overlaps[0, 1] > 0.3 and overlaps[1, 2] > 0.3 and overlaps[0, 2] < 0.3
    kept = pp.nms(raw, 0.3)
    assert kept.scores.tolist() == pytest.approx([0.9, 0.6])


def test_probiou_is_one_for_the_same_box_and_symmetric() -> None:
    xywh = np.array([[100, 100, 40, 60], [100, 100, 60, 40], [500, 500, 40, 60]], np.float32)
    angles = np.array([0.0, math.pi / 2, 0.0], np.float32)
    m = pp.probiou_matrix(xywh, angles, xywh, angles)
    # A 40x60 box turned a quarter is the 60x40 box.
    assert m[0, 0] == pytest.approx(1.0, abs=1e-3) and m[0, 1] == pytest.approx(1.0, abs=1e-3)
    assert m[0, 2] < 0.01
    np.testing.assert_allclose(m, m.T, atol=1e-5)


# --- from candidates to cards ------------------------------------------------------------------------------------


def test_to_detections_maps_boxes_to_the_frame_and_drops_non_cards() -> None:
    frame = np.zeros((540, 960, 3), np.uint8)
    _, box = pp.letterbox(frame, 320)  # scale 1/3, 70 px of padding top and bottom
    out = dense(
        [
            [160, 160, 30, 60, 0.9, 0, 0],  # Kh in the middle of the frame
            [20, 100, 10, 10, 0, 0, 0.9],  # "card": not a card name, dropped
        ]
    )
    dets = pp.to_detections(pp.nms(pp.decode(out, NC)), box, CARDS, frame=7)
    assert len(dets) == 1
    d = dets[0]
    assert d.card == Card.parse("Kh") and d.frame == 7 and d.corners is None
    np.testing.assert_allclose(d.box, [435, 180, 525, 360], atol=1e-3)


def test_oriented_detections_carry_unclipped_corners_and_a_clipped_box() -> None:
    frame = np.zeros((320, 320, 3), np.uint8)
    _, box = pp.letterbox(frame, 320)
    out = dense([[10, 100, 40, 60, 0.9, 0, 0, 0.0]], obb=True)  # hangs off the left edge
    (d,) = pp.to_detections(pp.nms(pp.decode(out, NC)), box, CARDS, frame=0)
    assert d.corners is not None and min(x for x, _ in d.corners) == pytest.approx(-10)
    assert d.box == pytest.approx((0, 70, 30, 130))


def det(card: str, conf: float, box: tuple[float, float, float, float]) -> CardDetection:
    return CardDetection(card=Card.parse(card), confidence=conf, box=box, frame=3)


def test_two_corner_indices_of_one_card_merge_into_one_card() -> None:
    # A card about 60x90 px: its index in the top-left and, turned, in the bottom-right corner.
    top_left = det("Kh", 0.7, (100, 100, 112, 125))
    bottom_right = det("Kh", 0.9, (148, 165, 160, 190))
    other = det("Kd", 0.8, (300, 100, 312, 125))
    merged = pp.merge_same_card([top_left, other, bottom_right])
    assert [str(d.card) for d in merged] == ["Kh", "Kd"]
    kh = merged[0]
    assert kh.confidence == 0.9 and kh.box == (100, 100, 160, 190) and kh.frame == 3


def test_the_same_card_far_apart_stays_two_detections() -> None:
    # 40 index-heights apart is not one card: a second deck, or a misread the tracker should see.
    a = det("Kh", 0.7, (100, 100, 112, 125))
    b = det("Kh", 0.6, (1100, 100, 1112, 125))
    assert len(pp.merge_same_card([a, b])) == 2
    # With whole-card boxes (gap 0) only overlapping or touching boxes of one card merge.
    c = det("Kh", 0.6, (105, 105, 130, 140))
    d = det("Kh", 0.6, (140, 105, 170, 140))
    assert len(pp.merge_same_card([a, c], max_gap=0.0)) == 1
    assert len(pp.merge_same_card([a, d], max_gap=0.0)) == 2


def test_merge_is_transitive_and_keeps_corner_points() -> None:
    corners = ((0.0, 0.0), (60.0, 0.0), (60.0, 90.0), (0.0, 90.0))
    whole = CardDetection(Card.parse("As"), 0.5, (0, 0, 60, 90), 0, corners)
    tl = det("As", 0.8, (2, 2, 12, 25))
    br = det("As", 0.6, (48, 65, 58, 88))
    (merged,) = pp.merge_same_card([tl, br, whole], max_gap=0.0)
    assert merged.confidence == 0.8 and merged.box == (0, 0, 60, 90) and merged.corners == corners
    assert pp.merge_same_card([]) == []
