"""The synthetic data: scenes are deterministic, their labels sit on what was drawn, the crop recipe is exact.

Everything here uses procedurally drawn faces, so it runs on a clean machine
without the fetched artwork.
"""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.synth import build
from lab.synth.crops import LEGIBLE_BAND, NONE, CropSampler, legibility
from lab.synth.faces import FaceSet, procedural_face, procedural_faceset, rounded_mask
from lab.synth.scenes import MIN_VISIBLE, Degradation, Scene, degrade, render_scene
from vision import cardcrop


@pytest.fixture(scope="module")
def faces() -> FaceSet:
    return procedural_faceset(styles=2, height=200)


def solid_faceset() -> FaceSet:
    """Every face plain magenta: easy to find in a rendered scene, unlike any table or clutter."""
    w, h = 143, 200
    face = np.zeros((h, w, 4), np.uint8)
    face[:, :, :3] = (255, 0, 255)
    face[:, :, 3] = rounded_mask(w, h)
    fs = FaceSet()
    fs.faces["solid"] = {c: face for c in cardcrop.CARD_CLASSES}
    return fs


def magenta(img: np.ndarray) -> np.ndarray:
    b, g, r = (img[:, :, i].astype(np.int32) for i in range(3))
    return (b > g + 40) & (r > g + 40)


def test_same_seed_same_scene(faces: FaceSet) -> None:
    a, b, c = render_scene(faces, 7), render_scene(faces, 7), render_scene(faces, 8)
    assert np.array_equal(a.image, b.image)
    assert [x.card for x in a.cards] == [x.card for x in b.cards]
    assert all(np.array_equal(x.corners, y.corners) for x, y in zip(a.cards, b.cards, strict=True))
    assert not (a.image.shape == c.image.shape and np.array_equal(a.image, c.image))


@pytest.mark.parametrize(("seed", "on_mat"), [*((s, False) for s in range(12)), *((s, True) for s in range(6))])
def test_labels_sit_on_the_drawn_cards(seed: int, on_mat: bool) -> None:
    scene = render_scene(solid_faceset(), seed, on_mat=on_mat)
    h, w = scene.image.shape[:2]
    drawn = magenta(scene.image)
    labelled = np.zeros((h, w), np.uint8)
    for card in scene.cards:
        assert card.visible >= MIN_VISIBLE
        quad = card.corners.astype(np.float32)
        assert quad[:, 0].min() >= -0.03 * w and quad[:, 0].max() <= 1.03 * w
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [np.round(quad).astype(np.int32)], 1)
        labelled |= mask
        inner = cv2.erode(mask, np.ones((5, 5), np.uint8))
        # the visible part of the card (a share of its outline) is card-coloured
        share = drawn[inner > 0].mean()
        assert share >= 0.6 * card.visible, (card, share)
        x1, y1, x2, y2 = card.visible_box
        assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
        assert drawn[int(y1):int(y2), int(x1):int(x2)].mean() > 0.3
    assert scene.cards, "every layout leaves at least one card in view"
    # card pixels outside every label belong to cards too hidden to label: no such patch is bigger
    # than MIN_VISIBLE of a card
    card_area = max(abs(cv2.contourArea(c.corners.astype(np.float32))) for c in scene.cards)
    stray = (drawn & (labelled == 0)).astype(np.uint8)
    stray = cv2.morphologyEx(stray, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(stray)
    for i in range(1, n):
        x, y, bw, bh = stats[i, :4]
        if on_mat and (x == 0 or y == 0 or x + bw == w or y + bh == h):
            continue  # the table round the mat, where its colour is card-like: face-up cards are never cut
        assert stats[i, cv2.CC_STAT_AREA] < MIN_VISIBLE * card_area * 1.1, (seed, stats[i])


def test_hard_scenes_label_spreads_and_cards_cut_by_the_frame() -> None:
    from lab.synth.scenes import MIN_IN_FRAME, frame_polygon, in_frame_fraction

    spreads = cut = 0
    for seed in range(16):
        scene = render_scene(solid_faceset(), 6_000_000 + seed, hard=True)
        h, w = scene.image.shape[:2]
        drawn = magenta(scene.image)
        lines = build.obb_label_lines(scene)
        assert len(lines) == len(scene.cards)
        for card, line in zip(scene.cards, lines, strict=True):
            inside = in_frame_fraction(card.corners, w, h)
            assert inside >= MIN_IN_FRAME
            mask = np.zeros((h, w), np.uint8)
            cv2.fillPoly(mask, [np.round(card.corners).astype(np.int32)], 1)
            inner = cv2.erode(mask, np.ones((5, 5), np.uint8))
            assert drawn[inner > 0].mean() >= 0.6 * card.visible, (seed, card)
            label = np.array([float(v) for v in line.split()[1:]]).reshape(4, 2) * (w, h)
            assert label.min() >= -0.5 and (label.max(axis=0) <= (w + 0.5, h + 0.5)).all()
            # the label's box covers the card's part in the frame, and not much more
            poly = frame_polygon(card.corners, w, h)
            area = abs(cv2.contourArea(poly.astype(np.float32)))
            # (a tilted camera makes the card a trapezoid, whose box is a little bigger)
            assert abs(cv2.contourArea(label.astype(np.float32))) <= 1.25 * area + 4
            # (less what clipping the box's corners to the frame takes off)
            slack = 1.5 + 0.1 * float(np.linalg.norm(card.corners[1] - card.corners[0]))
            for x, y in poly:
                assert cv2.pointPolygonTest(label.astype(np.float32), (float(x), float(y)), True) >= -slack
            cut += inside < 0.98
        for i, a in enumerate(scene.cards):  # side by side: nearly parallel, overlapping partly
            for b in scene.cards[i + 1:]:
                da = np.arctan2(*(a.corners[1] - a.corners[0])[::-1]) - np.arctan2(*(b.corners[1] - b.corners[0])[::-1])
                gap = float(np.linalg.norm(a.corners.mean(0) - b.corners.mean(0)))
                width = float(np.linalg.norm(a.corners[1] - a.corners[0]))
                spreads += abs(np.sin(da)) < 0.2 and 0.2 * width < gap < 0.85 * width
    assert cut >= 3 and spreads >= 5, (cut, spreads)


def test_edge_scenes_label_cards_cut_by_the_frame_at_any_turn() -> None:
    """Edge scenes run cards off the frame at whatever turn they lie; each cut card's label is the box,
    turned as the card is, round its part in the frame: nearly all on the card, covering nearly all that part."""
    from lab.synth.scenes import MIN_EDGE_IN_FRAME, in_frame_fraction

    turned_cuts = scenes_cut = 0
    for seed in range(16):
        scene = render_scene(solid_faceset(), build.SEED_EDGE_TRAIN + seed, edges=True)
        h, w = scene.image.shape[:2]
        lines = build.obb_label_lines(scene)
        assert len(lines) == len(scene.cards)
        cut_here = 0
        for card, line in zip(scene.cards, lines, strict=True):
            inside = in_frame_fraction(card.corners, w, h)
            assert inside >= MIN_EDGE_IN_FRAME, (seed, card.card, inside)
            if inside >= 0.98:
                continue
            cut_here += 1
            label = np.array([float(v) for v in line.split()[1:]]).reshape(4, 2) * (w, h)
            assert label.min() >= -0.5 and (label.max(axis=0) <= (w + 0.5, h + 0.5)).all()
            # Corners off the frame are clipped to it (as Ultralytics clips boxes that its own augmentation
            # moves off the frame), so the box is only nearly the card's part in the frame.
            whole = card.corners.astype(np.float32)
            on_card, in_box = np.zeros((h, w), np.uint8), np.zeros((h, w), np.uint8)
            cv2.fillPoly(on_card, [np.round(whole).astype(np.int32)], 1)
            cv2.fillPoly(in_box, [np.round(label).astype(np.int32)], 1)
            both = float((on_card & in_box).sum())
            assert both >= 0.8 * on_card.sum(), (seed, card.card)  # covers most of the card's part in the frame
            assert both >= 0.9 * in_box.sum(), (seed, card.card)  # and lies on the card
            dx, dy = (whole[1] - whole[0]).astype(np.float64)
            turn = np.arctan2(dy, dx) % (np.pi / 2)
            turned_cuts += min(turn, np.pi / 2 - turn) > 0.2
        scenes_cut += cut_here >= 1
    # nearly every scene has a labelled cut card (a moved card may keep too little in the frame to label)
    assert scenes_cut >= 13 and turned_cuts >= 5, (scenes_cut, turned_cuts)


def assert_cut_labels_lie_on_their_cards(scene: Scene, seed: int) -> None:
    """Each label of a scene whose cards may run off the frame: enough of it in the frame, and the centre of
    its visible part on the labelled card."""
    from lab.synth.scenes import MIN_EDGE_IN_FRAME, in_frame_fraction

    h, w = scene.image.shape[:2]
    for card in scene.cards:
        assert in_frame_fraction(card.corners, w, h) >= MIN_EDGE_IN_FRAME
        x0, y0, x1, y1 = card.visible_box
        inside = cv2.pointPolygonTest(card.corners.astype(np.float32), ((x0 + x1) / 2, (y0 + y1) / 2), False)
        assert inside >= 0, (seed, card.card)


def test_closeup_scenes_show_large_cards_held_and_dim() -> None:
    """Close-up scenes: a card or three large in the frame (as held up to a webcam or photographed from
    near), often with fingers over an edge and a dim room; each label still lies on its card."""
    from lab.synth.scenes import CLOSEUP_HEIGHT

    heights, held, dim = [], 0, 0
    for seed in range(24):
        scene = render_scene(solid_faceset(), build.SEED_CLOSEUP_TRAIN + seed, closeup=True)
        h, w = scene.image.shape[:2]
        assert scene.owner is not None
        assert 1 <= len(scene.cards) <= 3 or not scene.cards
        held += bool((scene.owner == -2).any())
        dim += float(np.median(scene.image)) < 70
        assert_cut_labels_lie_on_their_cards(scene, seed)
        for card in scene.cards:
            c = card.corners.astype(np.float64)
            heights.append(float(np.linalg.norm(c[0] - c[3])) / min(w, h))
    assert len(heights) >= 20
    # plain scenes draw cards at 0.13-0.62 of the short side; close-ups reach to nearly all of it
    assert np.median(heights) > 0.4 and max(heights) > 0.8 and min(heights) > 0.7 * CLOSEUP_HEIGHT[0] * 0.8
    assert held >= 6 and dim >= 3, (held, dim)


def test_near_scenes_show_cards_up_to_past_the_frame_on_surfaces_and_before_people() -> None:
    """Near scenes: one card or two, larger than close-ups reach (a card may be taller than the frame is
    wide), lying on a surface or held up before a person; each label still lies on its card."""
    from lab.synth.scenes import NEAR_HEIGHT

    heights, held, taller_than_wide = [], 0, 0
    for seed in range(24):
        scene = render_scene(solid_faceset(), build.SEED_NEAR_TRAIN + seed, near=True)
        h, w = scene.image.shape[:2]
        assert scene.owner is not None
        assert len(scene.cards) <= 2
        held += bool((scene.owner == -2).any())
        assert_cut_labels_lie_on_their_cards(scene, seed)
        for card in scene.cards:
            c = card.corners.astype(np.float64)
            tall = max(float(np.linalg.norm(c[0] - c[3])), float(np.linalg.norm(c[0] - c[1])))
            heights.append(tall / min(w, h))
            taller_than_wide += tall > min(w, h)
    assert len(heights) >= 18
    assert np.median(heights) > 0.6 and min(heights) > 0.7 * NEAR_HEIGHT[0] * 0.7
    assert taller_than_wide >= 3 and 4 <= held <= 20, (taller_than_wide, held)


def test_laid_out_scenes_show_whole_cards_apart_in_rows_under_a_phone() -> None:
    """Laid-out scenes: 3 to 12 whole cards, none over another, every one labelled whole and in the frame, in a
    phone's picture; no hand over them."""
    from lab.synth.scenes import LAID_OUT_CARDS, LAID_OUT_SIZES

    counts = []
    for seed in range(16):
        scene = render_scene(solid_faceset(), build.SEED_LAID_OUT_TRAIN + seed, laid_out=True)
        h, w = scene.image.shape[:2]
        assert (w, h) in LAID_OUT_SIZES
        assert scene.owner is not None and not (scene.owner == -2).any()  # no hand, no fingers
        assert LAID_OUT_CARDS[0] <= len(scene.cards) <= LAID_OUT_CARDS[1] and not scene.readable_unlabelled
        counts.append(len(scene.cards))
        for card in scene.cards:
            c = card.corners
            assert card.visible > 0.97, (seed, card.card, card.visible)  # none covers another
            assert c[:, 0].min() >= -1 and c[:, 1].min() >= -1 and c[:, 0].max() <= w and c[:, 1].max() <= h
    assert len(set(counts)) >= 4 and max(counts) >= 9


def test_test_sets_of_one_held_out_deck(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="not a held-out deck"):
        build.build_test(None, tmp_path, count=2, procs=1, deck="cardsjs")


def test_index_showing_asks_for_an_index_corner_in_sight() -> None:
    from lab.synth.scenes import index_showing

    corners = np.array([[10, 10], [80, 10], [80, 110], [10, 110]], np.float32)  # 70 x 100, upright
    owner = np.full((130, 100), -1, np.int16)
    cv2.fillPoly(owner, [corners.astype(np.int32)], 4)
    assert index_showing(owner, 4, corners)
    owner[:, 20:] = 7  # another card covers all but a strip of 10 px along the left: the top-left index is cut
    assert not index_showing(owner, 4, corners)
    owner[:, 20:26] = 4  # a strip of 16 px, more than the index's 14 px width (0.2 of the card)
    assert index_showing(owner, 4, corners)
    assert not index_showing(owner, 5, corners)  # only the card's own layer counts
    owner[:40] = 7  # ...but the top of the strip is covered too
    assert not index_showing(owner, 4, corners)
    owner = np.full((130, 100), -1, np.int16)
    cv2.fillPoly(owner, [corners.astype(np.int32)], 4)
    owner[:, :60] = 7  # the right side shows: the bottom-right index, turned, is whole
    assert index_showing(owner, 4, corners)
    assert not index_showing(owner[:, :75], 4, corners)  # and not when the frame ends before it


def test_strip_scenes_label_covered_cards_whose_index_shows() -> None:
    """Faces with green index corners: a card labelled with less than MIN_VISIBLE showing has one of its
    index corners drawn in sight, and tight spreads give several such cards."""
    from lab.synth.scenes import INDEX_REGION, index_regions

    w, h = 143, 200
    face = np.zeros((h, w, 4), np.uint8)
    face[:, :, :3] = (255, 0, 255)
    iw, ih = round(INDEX_REGION[0] * w), round(INDEX_REGION[1] * h)
    face[:ih, :iw, :3] = (0, 255, 0)
    face[h - ih:, w - iw:, :3] = (0, 255, 0)
    face[:, :, 3] = rounded_mask(w, h)
    fs = FaceSet()
    fs.faces["solid"] = {c: face for c in cardcrop.CARD_CLASSES}
    covered = 0
    for seed in range(40):
        scene = render_scene(fs, 8_000_000 + seed, strips=True)
        plain = render_scene(fs, 8_000_000 + seed, hard=True)
        assert all(c.visible >= MIN_VISIBLE for c in plain.cards)  # hard scenes keep the old rule
        img = scene.image.astype(np.int32)
        green = (img[:, :, 1] > img[:, :, 2] + 40) & (img[:, :, 1] > img[:, :, 0] + 40)
        hh, ww = green.shape
        for card in scene.cards:
            if card.visible >= MIN_VISIBLE:
                continue
            covered += 1
            best = 0.0
            for region in index_regions(card.corners):
                mask = np.zeros((hh, ww), np.uint8)
                cv2.fillConvexPoly(mask, np.round(region).astype(np.int32), 1)
                inner = cv2.erode(mask, np.ones((3, 3), np.uint8)) > 0
                if inner.any():
                    best = max(best, float(green[inner].mean()))
            assert best >= 0.6, (seed, card.card, card.visible, best)
    assert covered >= 5, covered


def test_scenes_on_the_printed_mat_show_its_markers_and_cards_at_its_scale() -> None:
    from lab.synth.scenes import CARD_MM
    from vision.zones import detect_markers

    plain_found = mat_found = 0
    for seed in range(6):
        scene = render_scene(solid_faceset(), seed, on_mat=True, effects=0.0)
        found = len(detect_markers(scene.image))  # the corner markers the app calibrates from
        assert found >= 2, seed  # a card or the frame's edge may hide one or two
        mat_found += found
        height = float(np.median([np.linalg.norm(c.corners[3] - c.corners[0]) for c in scene.cards]))
        # cards at the mat's scale: the mat (A3 or A2, either way round) spans 78-97% of the frame
        short, long = sorted(scene.image.shape[:2])
        assert CARD_MM * 0.7 * short / 594 < height < CARD_MM * 1.15 * long / 297, (seed, height)
        plain_found += len(detect_markers(render_scene(solid_faceset(), seed, effects=0.0).image))
    assert mat_found >= 3 * 6 and plain_found == 0  # the other tables have no markers


def test_obb_label_lines_are_normalised_corners(faces: FaceSet) -> None:
    scene = render_scene(faces, 3)
    lines = build.obb_label_lines(scene)
    assert len(lines) == len(scene.cards)
    h, w = scene.image.shape[:2]
    for line, card in zip(lines, scene.cards, strict=True):
        parts = line.split()
        assert parts[0] == "0" and len(parts) == 9
        pts = np.array([float(v) for v in parts[1:]]).reshape(4, 2) * (w, h)
        assert np.allclose(pts, np.clip(card.corners, 0, (w, h)), atol=0.01)


NONE_NAME = cardcrop.NONE_CLASS


def _place(face: np.ndarray, quad: np.ndarray, size: tuple[int, int] = (400, 400)) -> np.ndarray:
    """Draw ``face`` onto a grey frame so its corners TL, TR, BR, BL land on ``quad``."""
    fh, fw = face.shape[:2]
    m = cv2.getPerspectiveTransform(np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32), quad.astype(np.float32))
    frame = np.full((size[1], size[0], 3), 90, np.uint8)
    warped = cv2.warpPerspective(face, m, size)
    a = warped[:, :, 3:4].astype(np.float32) / 255
    return (warped[:, :, :3] * a + frame * (1 - a)).astype(np.uint8)


@pytest.mark.parametrize("angle", [0, 33, 90, 180, 251])
def test_corner_crops_read_upright_at_any_turn(angle: float) -> None:
    face = procedural_face("Kh", 0, 300)
    fh, fw = face.shape[:2]
    upright = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32) * 0.8 + 40
    reference = cardcrop.corner_crops_bgr(_place(face, upright), upright)
    ctr = upright.mean(axis=0)
    t = np.deg2rad(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
    quad = (upright - ctr) @ rot.T + ctr
    crops = cardcrop.corner_crops_bgr(_place(face, quad), quad)
    # the same four crops come back (as a set: a half turn swaps TL<->BR and TR<->BL)
    ref_tl = reference[0].astype(np.float32)
    best = min(float(np.abs(c.astype(np.float32) - ref_tl).mean()) for c in crops)
    assert best < 12, best
    # and the index crop differs from a blank corner's: the test can fail
    assert float(np.abs(reference[1].astype(np.float32) - ref_tl).mean()) > 12


def test_corner_order_does_not_depend_on_how_the_points_come() -> None:
    quad = np.array([[100, 50], [170, 80], [130, 180], [60, 150]], np.float32)
    want = cardcrop.order_corners(quad)
    for shift in range(4):
        for q in (np.roll(quad, shift, axis=0), np.roll(quad[::-1], shift, axis=0)):
            assert np.allclose(cardcrop.order_corners(q), want)
    # the first edge is a short one and the order is clockwise on screen
    assert np.linalg.norm(want[1] - want[0]) < np.linalg.norm(want[2] - want[1])
    x, y = want[:, 0], want[:, 1]
    assert float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) > 0


def test_obb_to_corners_round_trip() -> None:
    quad = cardcrop.obb_to_corners(200, 150, 60, 90, 0.4)
    (cx, cy), (w, h), _ = cv2.minAreaRect(quad)
    assert (cx, cy) == pytest.approx((200, 150), abs=0.1)
    assert sorted((w, h)) == pytest.approx([60, 90], abs=0.1)


def test_normalised_crop_is_rgb_and_white_balanced() -> None:
    crop = np.zeros((cardcrop.CROP_H, cardcrop.CROP_W, 3), np.uint8)
    crop[:] = (100, 150, 200)  # a bluish-grey paper under a warm light, in BGR
    crop[10:20, 10:20] = (0, 0, 120)  # a red glyph
    x = cardcrop.normalise_crop(crop)
    assert x.shape == (3, cardcrop.CROP_H, cardcrop.CROP_W) and x.dtype == np.float32
    assert np.allclose(x[:, 0, 0], 1.0)  # paper becomes white
    r, g, b = x[:, 15, 15]
    assert r > 0.5 and g < 0.05 and b < 0.05  # channel order RGB: red stays red


def test_combine_corners() -> None:
    classes = cardcrop.CLASSIFIER_CLASSES
    kh, none = classes.index("Kh"), classes.index("none")
    logits = np.full((4, len(classes)), -5.0, np.float32)
    logits[0, kh] = logits[2, kh] = 6.0
    logits[1, none] = logits[3, none] = 6.0
    name, conf = cardcrop.combine_corners(logits)
    assert name == "Kh" and conf > 0.9
    logits[0, kh] = logits[2, kh] = -5
    logits[0, none] = logits[2, none] = 6.0
    assert cardcrop.combine_corners(logits)[0] == "none"


def test_loose_crops_are_cut_from_outlines_further_off() -> None:
    tight = CropSampler(None, "train", seed=3).chunk(0, n=40)
    loose = CropSampler(None, "train", seed=3, loose=1.0).chunk(0, n=40)
    again = CropSampler(None, "train", seed=3, loose=1.0).chunk(0, n=40)
    assert np.array_equal(loose[0], again[0]) and np.array_equal(loose[1], again[1])  # seeded
    assert not np.array_equal(tight[0], loose[0])
    assert (loose[1] != NONE).any()  # the index is still there to name in loose crops


def test_crop_sampler_draws_cards_between_the_heights_asked_for() -> None:
    rng = np.random.default_rng(4)
    band = CropSampler(None, "train", seed=4, heights=(70.0, 90.0))
    drawn = []
    for _ in range(60):
        band.sample(rng)
        drawn.append(band.last_height)
    assert min(drawn) >= 70.0 and max(drawn) <= 90.0
    wide = CropSampler(None, "train", seed=4)
    rng = np.random.default_rng(4)
    drawn = []
    for _ in range(60):
        wide.sample(rng)
        drawn.append(wide.last_height)
    assert min(drawn) < 70.0 and max(drawn) > 90.0  # the default spans far overhead to close up


def test_crop_command_refuses_heights_and_pips_out_of_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from lab.synth.crops import main

    for bad in (["--heights", "90", "70"], ["--heights", "5", "70"], ["--pip-min", "0.99"]):
        with pytest.raises(SystemExit):
            main(["--procedural", "--out", str(tmp_path), "--train-chunks", "0", "--val-chunks", "0", *bad])
        assert bad[0] in capsys.readouterr().err
    assert not list(tmp_path.glob("*.npz"))


def test_crop_sampler_labels_index_corners_only() -> None:
    sampler = CropSampler(None, "train", seed=1)
    x, y = sampler.chunk(0, n=60)
    assert x.shape == (60, cardcrop.CROP_H, cardcrop.CROP_W, 3) and x.dtype == np.uint8
    assert set(y.tolist()) <= set(range(len(cardcrop.CLASSIFIER_CLASSES)))
    assert (y == NONE).any() and (y != NONE).any()
    x2, y2 = CropSampler(None, "train", seed=1).chunk(0, n=60)
    assert np.array_equal(x, x2) and np.array_equal(y, y2)


def test_degrade_records_what_it_did_without_changing_the_picture() -> None:
    img = np.random.default_rng(0).uniform(0, 255, (96, 128, 3)).astype(np.float32)
    seen: list[Degradation] = []
    for seed in range(40):
        plain = degrade(np.random.default_rng(seed), img)
        done = Degradation()
        recorded = degrade(np.random.default_rng(seed), img, record=done)
        assert np.array_equal(plain, recorded)  # the same draws: datasets rebuild bit for bit
        seen.append(done)
    assert any(d.gaussian > 0 for d in seen) and any(d.motion > 0 for d in seen) and any(d.scale < 1 for d in seen)
    sharp = Degradation()
    assert sharp.blur_sigma() == pytest.approx(0.5)
    assert Degradation(gaussian=1.5).blur_sigma() > Degradation(gaussian=1.0).blur_sigma() > 0.5
    assert Degradation(scale=0.4).blur_sigma() == pytest.approx((0.25 + 1.0) ** 0.5)
    assert legibility(100.0, Degradation(motion=6)) == pytest.approx(100.0 / (0.25 + 3.0) ** 0.5)


def test_an_index_blurred_past_reading_is_labelled_none() -> None:
    x, y = CropSampler(None, "train", seed=5).chunk(0, n=120)
    assert (y != NONE).any()
    # every posed card is less legible than this line: no crop may name a card
    x_never, y_never = CropSampler(None, "train", seed=5, min_legible=1e9).chunk(0, n=120)
    assert (y_never == NONE).all()
    # a line within reach of some cards: those below it say `none`, those in the band above it are left out
    sampler = CropSampler(None, "train", seed=5, min_legible=60.0)
    rng = np.random.default_rng(11)
    named = unnamed = 0
    for _ in range(150):
        for _, label in sampler.sample(rng):
            if label != NONE:
                assert sampler.last_legibility >= 60.0 * LEGIBLE_BAND
                named += 1
            elif sampler.last_legibility < 60.0:
                unnamed += 1
    assert named > 0 and unnamed > 0


def test_test_set_csv_matches_the_real_photo_format(tmp_path: Path) -> None:
    n = build.build_test(None, tmp_path, count=3, procs=1)
    with open(tmp_path / "labels.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["image", "class", "x_center", "y_center", "width", "height"]
    assert len(rows) - 1 == n > 0
    for name, cls, *nums in rows[1:]:
        assert (tmp_path / "images" / name).exists()
        assert cls in cardcrop.CARD_CLASSES
        assert all(0.0 <= float(v) <= 1.0 for v in nums)


def test_a_validation_set_is_drawn_from_seeds_kept_apart_from_the_test_set(tmp_path: Path) -> None:
    build.build_test(None, tmp_path / "test", count=2, procs=1)
    build.build_test(None, tmp_path / "val", count=2, procs=1, first=500_000)
    build.build_test(None, tmp_path / "val-again", count=2, procs=1, first=500_000)
    for k in range(2):
        name = f"synth_{k:05d}.jpg"
        test, val, again = (np.asarray(cv2.imread(str(tmp_path / d / "images" / name)))
                            for d in ("test", "val", "val-again"))
        assert test.shape != val.shape or not np.array_equal(test, val)
        assert np.array_equal(val, again)  # the same seeds, the same pixels
    # scene i of a set drawn from offset F is the kind's base + F + i
    scene = render_scene(procedural_faceset(), build.SEED_TEST + 500_000 + 1)
    with open(tmp_path / "val" / "labels.csv", newline="") as fh:
        cards = sorted(row[1] for row in list(csv.reader(fh))[1:] if row[0] == "synth_00001.jpg")
    assert cards == sorted(c.card for c in scene.cards)
    assert build.recorded_first_seed(tmp_path / "val") == 500_000
    assert build.recorded_first_seed(tmp_path / "test") == 0
    for bad in (-1, build.MAX_FIRST_SEED - 1):
        with pytest.raises(SystemExit, match="--first-seed"):
            build.build_test(None, tmp_path / "bad", count=2, procs=1, first=bad)


def test_test_sets_list_unlabelled_cards_whose_index_shows(tmp_path: Path) -> None:
    # Cards too covered (or too far off the frame) to be labelled whose index corner is still in sight go to
    # ignore.csv (``eval-vision --ignore``), never a labelled one.
    build.build_test(None, tmp_path, count=12, procs=1)
    with open(tmp_path / "ignore.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["image", "class"]
    assert len(rows) > 1
    for name, cls in rows[1:]:
        assert (tmp_path / "images" / name).exists()
        assert cls in cardcrop.CARD_CLASSES
    first = rows[1][0]  # synth_000NN.jpg is scene SEED_TEST + NN
    scene = render_scene(procedural_faceset(), build.SEED_TEST + int(first[6:11]))
    assert sorted(scene.readable_unlabelled) == sorted(cls for name, cls in rows[1:] if name == first)
    assert not set(scene.readable_unlabelled) & {c.card for c in scene.cards}


def test_edge_test_set_holds_cards_cut_by_the_frame(tmp_path: Path) -> None:
    # build test --edges: edge scenes from their own seeds, in the same CSV format
    n = build.build_test(None, tmp_path, count=6, procs=1, edges=True)
    with open(tmp_path / "labels.csv", newline="") as fh:
        rows = list(csv.reader(fh))[1:]
    assert len(rows) == n > 0
    boxes = np.array([[float(v) for v in nums] for _, _, *nums in rows])
    cx, cy, bw, bh = boxes.T
    at_edge = (cx - bw / 2 < 0.005) | (cy - bh / 2 < 0.005) | (cx + bw / 2 > 0.995) | (cy + bh / 2 > 0.995)
    assert at_edge.sum() >= 3, boxes
    plain = build.build_test(None, tmp_path / "plain", count=6, procs=1)
    with open(tmp_path / "plain" / "labels.csv", newline="") as fh:
        plain_rows = list(csv.reader(fh))[1:]
    assert (plain, plain_rows) != (n, rows)


def test_refine_snaps_a_rough_outline_to_the_card() -> None:
    face = procedural_face("Qs", 1, 300)
    fh, fw = face.shape[:2]
    truth = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32) * 0.6 + (120, 90)
    ctr = truth.mean(axis=0)
    t = np.deg2rad(20)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
    truth = ((truth - ctr) @ rot.T + ctr).astype(np.float32)
    frame = _place(face, truth)
    # a rough outline: 8 degrees off, shifted, a little too big
    t2 = np.deg2rad(-8)
    rot2 = np.array([[np.cos(t2), -np.sin(t2)], [np.sin(t2), np.cos(t2)]], np.float32)
    rough = ((truth - ctr) @ rot2.T * 1.08 + ctr + (9, -6)).astype(np.float32)

    def error(q: np.ndarray) -> float:
        q, want = cardcrop.order_corners(q), cardcrop.order_corners(truth)
        return min(float(np.abs(np.roll(q, k, axis=0) - want).max()) for k in (0, 2))

    refined = cardcrop.refine_quad(frame, rough)
    assert error(rough) > 15
    assert error(refined) < 5, error(refined)
    # nothing card-like there (a flat grey frame): the rough outline comes back unchanged
    flat = np.full_like(frame, 90)
    assert error(cardcrop.refine_quad(flat, rough)) == pytest.approx(error(rough))


def test_corner_crops_give_a_fixed_number_of_outlines() -> None:
    face = procedural_face("9d", 0, 300)
    fh, fw = face.shape[:2]
    quad = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32) * 0.7 + 50
    frame = _place(face, quad)
    k = len(cardcrop.HYPOTHESIS_SCALES) + 1
    for q in (quad, quad * 1.1, np.array([[1, 1], [30, 1], [30, 50], [1, 50]], np.float32)):
        # judged white (a box this loose round a white card on a darker table is judged dark: twice the crops)
        crops = cardcrop.corner_crops(frame, q, dark=False)
        assert crops.shape == (4 * k, 3, cardcrop.CROP_H, cardcrop.CROP_W) and crops.dtype == np.float32
    assert cardcrop.corner_crops(frame, quad).shape[0] == 4 * k
    assert cardcrop.corner_crops(frame, quad, refine=False).shape[0] == 4 * (k - 1)


def test_train_command_rejects_missing_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["train", "classifier", "--crops", str(tmp_path)]) == 2
    assert main(["train", "detector", "--data", str(tmp_path / "data.yaml")]) == 2
    assert main(["train", "export", "--detector-weights", str(tmp_path / "x.pt")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("euchre-table: error: ") for line in err)


def test_train_classifier_rejects_a_missing_teacher_and_a_negative_weight(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main

    for name in ("train_0000.npz", "heldout_0000.npz"):
        (tmp_path / name).touch()
    crops = ["train", "classifier", "--crops", str(tmp_path)]
    assert main([*crops, "--teacher", str(tmp_path / "gone.pt")]) == 2
    assert main([*crops, "--distill", "-1"]) == 2
    assert main([*crops, "--mono-ink", "1.5"]) == 2
    assert main([*crops, "--warp", "-0.1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"euchre-table: error: {tmp_path / 'gone.pt'}: teacher weights not found",
        "euchre-table: error: --distill -1.0: must be 0 or more",
        "euchre-table: error: --mono-ink 1.5: must be 0 to 1",
        "euchre-table: error: --warp -0.1: must be 0 to 1",
    ]


class _KeepAll:
    """An rng stand-in that keeps every `none` crop."""

    def random(self) -> float:
        return 0.0

    def uniform(self, low: float, high: float) -> float:
        return (low + high) / 2


def test_scene_crops_label_the_finders_outlines_by_the_card_under_them(faces: FaceSet) -> None:
    from lab.synth.scene_crops import label_crops

    checked = 0
    for seed in range(6):
        scene = render_scene(faces, seed, effects=0.0)
        assert scene.owner is not None
        whole = [c for c in scene.cards if c.visible > 0.99]
        if not whole:
            continue
        card = whole[0]
        crops = label_crops(scene, card.corners[None], _KeepAll())  # type: ignore[arg-type]
        labels = [cardcrop.CLASSIFIER_CLASSES[y] for _, y in crops]
        # every hypothesis of a whole card: its two index corners named, its two blank ones `none`
        assert labels.count(card.card) == labels.count(NONE_NAME) == len(labels) // 2 >= 2, (seed, labels)
        # an outline over bare table matches no card and gives no crops
        h, w = scene.image.shape[:2]
        nowhere = np.array([[0, 0], [3, 0], [3, 4], [0, 4]], np.float32) + (w - 5, h - 6)
        assert label_crops(scene, nowhere[None], _KeepAll()) == []  # type: ignore[arg-type]
        checked += 1
    assert checked >= 3


def test_scene_crops_label_the_index_of_a_card_blurred_past_reading_none(faces: FaceSet) -> None:
    from lab.synth.scene_crops import label_crops

    scene = render_scene(faces, 2, effects=0.0)
    assert scene.degradation is not None and scene.degradation.blur_sigma() == pytest.approx(0.5)
    card = next(c for c in scene.cards if c.visible > 0.99)
    height = float(np.linalg.norm(card.corners[3] - card.corners[0]))
    sharp = legibility(height, scene.degradation)
    named = [y for _, y in label_crops(scene, card.corners[None], _KeepAll(), min_legible=sharp / 2)]  # type: ignore[arg-type]
    assert (np.array(named) != NONE).any()  # legible enough: named as before
    blurred = [y for _, y in label_crops(scene, card.corners[None], _KeepAll(), min_legible=sharp * 2)]  # type: ignore[arg-type]
    assert len(blurred) == len(named) and all(y == NONE for y in blurred)
    near = label_crops(scene, card.corners[None], _KeepAll(), min_legible=sharp / 1.1)  # type: ignore[arg-type]
    assert near == []  # within LEGIBLE_BAND of the line: left out


def test_scene_crops_name_a_strip_card_by_the_index_corner_that_shows(faces: FaceSet) -> None:
    """A card seen only as a strip of a tight spread is named where its index shows, `none` elsewhere."""
    from lab.synth.scene_crops import label_crops

    strips = 0
    for seed in range(40):
        scene = render_scene(faces, seed, effects=0.0, hard=True, strips=True)
        for card in scene.cards:
            if card.visible >= MIN_VISIBLE:
                continue  # labelled because most of it shows, not by its index
            crops = label_crops(scene, card.corners[None], _KeepAll())  # type: ignore[arg-type]
            labels = [cardcrop.CLASSIFIER_CLASSES[y] for _, y in crops]
            assert card.card in labels, (seed, card.card, labels)
            assert set(labels) <= {card.card, NONE_NAME}, (seed, card.card, labels)
            # most of the card is covered, so most of its corners are `none`
            assert labels.count(NONE_NAME) > labels.count(card.card), (seed, card.card, labels)
            strips += 1
        if strips >= 4:
            break
    assert strips >= 4


@pytest.mark.parametrize("first", ["-1", "1000000"])
def test_scene_crops_refuse_a_first_seed_outside_its_split(first: str, capsys: pytest.CaptureFixture[str]) -> None:
    from lab.synth import scene_crops

    with pytest.raises(SystemExit) as stop:
        scene_crops.main(["--first-seed", first, "--scenes", "0", "--heldout-scenes", "0"])
    assert stop.value.code == 2
    assert "--first-seed must be in 0..999999" in capsys.readouterr().err


def test_scene_crops_negatives_teach_none_off_the_cards_and_inside_a_face(faces: FaceSet) -> None:
    """With negatives, an outline over bare table gives `none` crops, and so do outlines drawn inside a face."""
    from lab.synth.scene_crops import card_share, inner_quads, label_crops, negative_quads

    scene = render_scene(faces, 3, effects=0.0)
    assert scene.owner is not None
    h, w = scene.image.shape[:2]
    nowhere = np.array([[0, 0], [30, 0], [30, 42], [0, 42]], np.float32)
    free = [nowhere + (x, y) for x in range(0, w - 31, 20) for y in range(0, h - 43, 20)
            if card_share(scene.owner, nowhere + (x, y)) == 0.0]
    assert free, "the scene leaves some table bare"
    crops = label_crops(scene, free[0][None], _KeepAll(), negatives=True)  # type: ignore[arg-type]
    assert crops and all(y == cardcrop.CLASSIFIER_CLASSES.index(NONE_NAME) for _, y in crops)
    # without negatives such an outline gives nothing, as before
    assert label_crops(scene, free[0][None], _KeepAll()) == []  # type: ignore[arg-type]
    rng = np.random.default_rng(0)
    for quad in negative_quads(scene, rng, 4):
        assert card_share(scene.owner, quad) < 0.05
    whole = [c for c in scene.cards if c.visible >= 0.95]
    inner = [q for _ in range(20) for q in inner_quads(scene, rng)]
    assert whole and inner
    for quad in inner:  # well inside one card: every corner at least a fifth of the card in from its edges
        card = min(whole, key=lambda c: float(np.linalg.norm(c.corners.mean(0) - quad.mean(0))))
        height = float(np.linalg.norm(card.corners[3] - card.corners[0]))
        for point in quad:
            assert cv2.pointPolygonTest(card.corners.astype(np.float32), tuple(map(float, point)), True) > 0.12 * height


def test_scene_crops_add_a_dark_cards_crops_with_their_lightness_turned_over(
    faces: FaceSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader reads a dark card's corners also inverted (cardcrop.corner_crops); its training crops match."""
    from lab.synth import scene_crops

    scene = render_scene(faces, 0, effects=0.0)
    card = next(c for c in scene.cards if c.visible > 0.99)
    plain = scene_crops.label_crops(scene, card.corners[None], _KeepAll())  # type: ignore[arg-type]
    monkeypatch.setattr(cardcrop, "is_dark_card", lambda *_args: True)  # the module scene_crops reads it from
    dark = scene_crops.label_crops(scene, card.corners[None], _KeepAll())  # type: ignore[arg-type]
    assert len(dark) == 2 * len(plain) > 0
    for (crop, label), (inverted, inverted_label) in zip(dark[::2], dark[1::2], strict=True):
        assert inverted_label == label
        assert np.array_equal(inverted, cardcrop.lightness_inverted(crop))


def test_scene_crops_refuse_a_restyle_share_outside_0_to_1(capsys: pytest.CaptureFixture[str]) -> None:
    from lab.synth import scene_crops

    with pytest.raises(SystemExit) as stop:
        scene_crops.main(["--restyle", "1.5", "--scenes", "0", "--heldout-scenes", "0"])
    assert stop.value.code == 2
    assert "--restyle must be in 0..1" in capsys.readouterr().err


def test_obb_near_scenes_come_from_their_own_seeds(tmp_path: Path) -> None:
    """``build obb --near N``: N train and N // 10 val near scenes, named and seeded apart from the other kinds,
    each label file the scene ``render_scene(near=True)`` draws from its seed."""
    n = build.build_obb(None, tmp_path, n_train=0, n_val=0, procs=1, n_near=10)
    train = sorted((tmp_path / "labels" / "train").glob("*.txt"))
    val = sorted((tmp_path / "labels" / "val").glob("*.txt"))
    assert [p.stem for p in train] == [f"near_{i:06d}" for i in range(10)]
    assert [p.stem for p in val] == ["nearval_000000"]
    scene = render_scene(procedural_faceset(), build.SEED_NEAR_TRAIN + 3, near=True)
    assert (tmp_path / "labels" / "train" / "near_000003.txt").read_text().splitlines() == build.obb_label_lines(scene)
    assert n == sum(len(p.read_text().splitlines()) for p in train + val) > 0


def test_obb_and_test_laid_out_scenes_come_from_their_own_seeds(tmp_path: Path) -> None:
    """``build obb --laid-out N``: N train and N // 10 val laid-out scenes from seeds of their own; ``build test
    --laid-out 1``: the test kind's own seeds, every card labelled."""
    build.build_obb(None, tmp_path / "obb", n_train=0, n_val=0, procs=1, n_laid_out=10)
    train = sorted((tmp_path / "obb" / "labels" / "train").glob("*.txt"))
    assert [p.stem for p in train] == [f"laid_{i:06d}" for i in range(10)]
    scene = render_scene(procedural_faceset(), build.SEED_LAID_OUT_TRAIN + 2, laid_out=True)
    assert (tmp_path / "obb" / "labels" / "train" / "laid_000002.txt").read_text().splitlines() == \
        build.obb_label_lines(scene)
    from lab.synth.scenes import LAID_OUT_SIZES

    n = build.build_test(None, tmp_path / "test", count=2, procs=1, laid_out=True)
    rows = (tmp_path / "test" / "labels.csv").read_text().splitlines()[1:]
    assert n == len(rows) >= 6  # 3 to 12 cards a scene, every one labelled
    for image in sorted((tmp_path / "test" / "images").glob("*.jpg")):
        h, w = cv2.imread(str(image)).shape[:2]
        assert (w, h) in LAID_OUT_SIZES


def test_scene_crops_near_scenes_are_rendered_near_from_seeds_of_their_own(
    faces: FaceSet, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--near``: every scene a near scene (a card under a phone or held before a person), its seeds apart."""
    from lab.synth import scene_crops

    asked: list[tuple[int, bool]] = []

    def render(fs: FaceSet, seed: int, **kw: object) -> Scene:
        asked.append((seed, bool(kw.get("near"))))
        return render_scene(fs, seed, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(scene_crops, "_faces", lambda _art, _split: faces)
    monkeypatch.setattr(scene_crops, "render_scene", render)
    total = scene_crops.build(tmp_path, Path("models/card-obb.onnx"), tmp_path, "train", 3, procs=1, near=True,
                              negatives=True)
    base = scene_crops.SEED_NEAR_TRAIN
    assert asked == [(base, True), (base + 1, True), (base + 2, True)]
    assert total > 0 and [p.name for p in tmp_path.glob("*.npz")] == [f"train_scene_{base}_0000.npz"]
    assert base not in (scene_crops.SEED_TRAIN, scene_crops.SEED_CLOSEUP_TRAIN, build.SEED_NEAR_TRAIN,
                        build.SEED_NEAR_VAL, build.SEED_NEAR_TEST)
