"""A webcam's office behind a held-up card (``render_scene(office=)``, ``office_details``): window frames and
mullions, dashes on the glass, strip lights, blinds, posts, drawn sharp enough to cut a corner crop from."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from lab.synth.faces import procedural_faceset
from lab.synth.scenes import office_details, render_scene


def test_office_draws_its_own_dice_and_zero_changes_nothing() -> None:
    fs = procedural_faceset()
    seeds = range(500, 512)
    plain = [render_scene(fs, s, near=True) for s in seeds]
    for s, p in zip(seeds, plain, strict=True):
        assert (render_scene(fs, s, near=True, office=0.0).image == p.image).all()
    office = [render_scene(fs, s, near=True, office=1.0) for s in seeds]
    changed = 0
    for a, b in zip(office, plain, strict=True):
        assert [c.card for c in a.cards] == [c.card for c in b.cards]  # the same cards, where they were
        for ca, cb in zip(a.cards, b.cards, strict=True):
            np.testing.assert_array_equal(ca.corners, cb.corners)
        changed += not np.array_equal(a.image, b.image)
    # only a card held up before a person (about half the near scenes) has an office behind it
    assert 2 <= changed < len(plain)


def test_office_details_draw_dark_frames_and_bright_lights_on_a_plain_wall() -> None:
    rng = np.random.default_rng(3)
    walls = []
    for _ in range(8):
        wall = np.full((240, 320, 3), 128.0, np.float32)
        office_details(rng, wall)
        walls.append(wall)
    assert any((w.max(axis=2) < 95).mean() > 0.002 for w in walls)  # a frame bar, a mullion, a post
    assert any((w.min(axis=2) > 230).mean() > 0.002 for w in walls)  # a strip light, lit glass
    assert sum(not (w == 128.0).all() for w in walls) >= 6


def test_a_close_up_room_may_be_an_office_too_and_its_cards_stay_where_they_were() -> None:
    fs = procedural_faceset()
    seeds = range(700, 708)
    plain = [render_scene(fs, s, closeup=True) for s in seeds]
    office = [render_scene(fs, s, closeup=True, office=1.0) for s in seeds]
    for a, b in zip(office, plain, strict=True):
        assert [c.card for c in a.cards] == [c.card for c in b.cards]
        for ca, cb in zip(a.cards, b.cards, strict=True):
            np.testing.assert_array_equal(ca.corners, cb.corners)
    # every close-up has a room behind its cards, so with office=1 every one is drawn otherwise
    assert all(not np.array_equal(a.image, b.image) for a, b in zip(office, plain, strict=True))
    assert all((render_scene(fs, s, closeup=True, office=0.0).image == p.image).all()
               for s, p in zip(seeds, plain, strict=True))


def test_build_obb_passes_the_office_chance_to_its_scenes(tmp_path: Path) -> None:
    from lab.synth import build

    build.build_obb(None, tmp_path / "plain", n_train=0, n_val=0, procs=1, n_closeups=3)
    build.build_obb(None, tmp_path / "office", n_train=0, n_val=0, procs=1, n_closeups=3, office=1.0)
    names = sorted(p.name for p in (tmp_path / "plain" / "images" / "train").iterdir())
    assert len(names) == 3
    for name in names:
        a = cv2.imread(str(tmp_path / "plain" / "images" / "train" / name))
        b = cv2.imread(str(tmp_path / "office" / "images" / "train" / name))
        assert not np.array_equal(a, b)
        label = name.replace(".jpg", ".txt")
        assert (tmp_path / "plain" / "labels" / "train" / label).read_text() == (
            tmp_path / "office" / "labels" / "train" / label
        ).read_text()
