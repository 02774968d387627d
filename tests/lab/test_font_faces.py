"""Decks drawn from system typefaces (``lab.synth.font_faces``): the index is where the labels say.

They need no system fonts: the project ships DejaVu Sans for the scoreboard
(display/fonts), and the font decks fall back on it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.synth import font_faces
from lab.synth.crops import NONE, CropSampler
from lab.synth.faces import procedural_face
from lab.synth.font_faces import (
    BUNDLED_FONT_DIR,
    SUIT_CHARS,
    DeckStyle,
    _draws,
    _mask,
    font_face,
    font_faceset,
    main,
    random_style,
    system_fonts,
)
from vision import cardcrop

DEJAVU = str(BUNDLED_FONT_DIR / "DejaVuSans.ttf")


def style(**changes: object) -> DeckStyle:
    return dataclasses.replace(random_style(np.random.default_rng(4)), big_pip_by_index=False, **changes)


def ink(face: np.ndarray, ys: slice, xs: slice) -> np.ndarray:
    """Pixels in a region darker or more saturated than paper."""
    region = face[ys, xs, :3].astype(np.int32)
    return (region.max(axis=2) - region.min(axis=2) > 60) | (region.max(axis=2) < 120)


def test_typefaces_that_lack_a_glyph_are_left_out() -> None:
    assert _draws(DEJAVU, "Q10\u2660")
    assert not _draws(DEJAVU, "\u4e00")  # a CJK ideograph: DejaVu Sans draws the missing-glyph box
    assert not _draws(DEJAVU, "QQ")  # one glyph standing for two characters is a placeholder
    _, suits = system_fonts()
    for path in suits:  # no typeface draws one placeholder for all four suits
        masks = [_mask(path, ch, 64) for ch in SUIT_CHARS.values()]
        assert all(not np.array_equal(a, b) for i, a in enumerate(masks) for b in masks[i + 1:] if a.shape == b.shape)


@pytest.mark.parametrize("beside", [False, True])
def test_the_index_is_printed_top_left_and_turned_bottom_right(beside: bool) -> None:
    # the picture starts at 0.3 of the width and 0.24 of the height: the corners hold only the index
    s = style(beside=beside, margin=(0.05, 0.04), rank_size=0.09, court_frame=0.3)
    face = font_face("Qh", s, np.random.default_rng(0), courts=[])
    h, w = face.shape[:2]
    a, b = int(0.22 * h), int(0.28 * w)
    tl = ink(face, slice(0, a), slice(0, b))
    br = ink(face, slice(h - a, h), slice(w - b, w))
    assert tl.mean() > 0.03
    assert np.array_equal(tl, br[::-1, ::-1])  # the same index, turned half round
    # red card: the index's ink is red (BGR: red channel well above blue)
    pix = face[:a, :b, :3][tl]
    assert (pix[:, 2].astype(int) - pix[:, 0]).mean() > 60


def test_the_other_corners_are_blank_on_a_number_card() -> None:
    face = font_face("9s", style(), np.random.default_rng(1), courts=[])
    h, w = face.shape[:2]
    assert ink(face, slice(0, int(0.12 * h)), slice(w - int(0.12 * w), w)).mean() < 0.01
    assert ink(face, slice(h - int(0.12 * h), h), slice(0, int(0.12 * w))).mean() < 0.01


def test_a_court_borrows_a_picture_but_keeps_its_own_index() -> None:
    picture = procedural_face("Kc", 0, 400)
    s = style(margin=(0.05, 0.04), rank_size=0.12, court_frame=0.2)
    a = font_face("Qd", s, np.random.default_rng(2), courts=[picture])
    b = font_face("Qd", s, np.random.default_rng(2), courts=[])
    h, w = a.shape[:2]
    corner = (slice(0, int(0.15 * h)), slice(0, int(0.15 * w)))
    # the index corner is the deck's, whatever the picture
    assert np.array_equal(a[corner][:, :, :3], b[corner][:, :, :3])
    middle = (slice(int(0.4 * h), int(0.6 * h)), slice(int(0.4 * w), int(0.6 * w)))
    assert not np.array_equal(a[middle], b[middle])


def test_decks_are_seeded_and_differ_from_each_other() -> None:
    cards = ("Qs", "Th", "7c")
    one = font_faceset(5, 2, cards, [])
    again = font_faceset(5, 2, cards, [])
    assert one.decks() == again.decks() == ["font-5-0", "font-5-1"]
    for d in one.decks():
        for c in cards:
            assert np.array_equal(one.faces[d][c], again.faces[d][c])
    a, b = (one.faces[d]["Qs"] for d in one.decks())
    assert a.shape != b.shape or not np.array_equal(a, b)


def test_index_pips_can_be_drawn_smaller() -> None:
    usual = [random_style(np.random.default_rng(k)).index_pip for k in range(60)]
    small = [random_style(np.random.default_rng(k), pip_min=0.3).index_pip for k in range(60)]
    assert min(usual) >= 0.5 and max(usual) <= 0.95
    assert min(small) >= 0.3 and min(small) < 0.5 and max(small) <= 0.95


def test_font_crops_are_labelled_and_seeded() -> None:
    x, y = CropSampler(None, "train", seed=2, fonts=3).chunk(0, n=40)
    x2, y2 = CropSampler(None, "train", seed=2, fonts=3).chunk(0, n=40)
    assert np.array_equal(x, x2) and np.array_equal(y, y2)
    assert x.shape == (40, cardcrop.CROP_H, cardcrop.CROP_W, 3)
    assert (y == NONE).any() and (y != NONE).any()
    assert cardcrop.CLASSIFIER_CLASSES.index("B") not in set(y.tolist())  # drawn decks have no Joker
    with pytest.raises(ValueError, match="per chunk"):
        CropSampler(None, "train", fonts=3).faces()


def test_a_machine_without_system_fonts_draws_decks_in_the_bundled_dejavu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(font_faces, "FONT_DIRS", ())
    system_fonts.cache_clear()
    try:
        assert system_fonts() == ((str(BUNDLED_FONT_DIR / "DejaVuSans-Bold.ttf"), DEJAVU),) * 2
        assert random_style(np.random.default_rng(0)).rank_font.startswith(str(BUNDLED_FONT_DIR))
    finally:
        system_fonts.cache_clear()


def test_the_contact_sheet_shows_one_row_a_deck(tmp_path: Path) -> None:
    out = tmp_path / "decks.png"
    assert main([str(out), "--decks", "2", "--seed", "1"]) == 0
    sheet = cv2.imread(str(out))
    assert sheet is not None and sheet.shape[1] > sheet.shape[0] > 2 * 150  # 8 cards across, 2 rows
