"""Decks printed unlike the artwork: dark paper with gold or silver print, coloured paper, four-colour suits.

The scenes can draw them (``restyle``), and the reader names a card printed light on dark paper by
reading its corners with their lightness turned over as well (``vision.cardcrop``).
"""

from __future__ import annotations

import numpy as np
import pytest

from lab.synth.faces import procedural_face, procedural_faceset
from lab.synth.scenes import GOLD, _warp_face, card_quad, render_scene, restyle_face
from vision import cardcrop
from vision.models import default_model_path
from vision.onnx_detector import OnnxDetector, surer_reading


def frame_with(face: np.ndarray, angle: float = 0.3, table: int = 60) -> tuple[np.ndarray, np.ndarray]:
    frame = np.full((480, 640, 3), table, np.float32)
    quad = card_quad(320, 240, 260, face.shape[1] / face.shape[0], angle)
    patch, x0, y0 = _warp_face(face, quad, 640, 480)
    ph, pw = patch.shape[:2]
    alpha = patch[:, :, 3:4]
    frame[y0 : y0 + ph, x0 : x0 + pw] = frame[y0 : y0 + ph, x0 : x0 + pw] * (1 - alpha) + patch[:, :, :3]
    return np.clip(frame, 0, 255).astype(np.uint8), quad.astype(np.float32)


def test_restyled_faces_keep_their_shape_and_change_their_paper() -> None:
    face = procedural_face("Qh", 1)
    dark = restyle_face(face, "Qh", "dark", (15.0, 15.0, 15.0), GOLD)
    assert dark.shape == face.shape and (dark[:, :, 3] == face[:, :, 3]).all()
    inside = face[:, :, 3] > 200
    assert np.median(face[:, :, :3][inside]) > 200 > 60 > np.median(dark[:, :, :3][inside])
    green = restyle_face(procedural_face("9c", 1), "9c", "four_colour", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    ink = green[:, :, :3][(green[:, :, 3] > 200) & (green[:, :, :3].min(axis=2) < 150)].astype(int)
    assert len(ink) and np.median(ink[:, 1] - ink[:, 2]) > 40  # clubs print green


def test_restyle_draws_its_own_dice_and_zero_changes_nothing() -> None:
    fs = procedural_faceset()
    plain = render_scene(fs, 123)
    assert (render_scene(fs, 123, restyle=0.0).image == plain.image).all()
    styled = [render_scene(fs, 123 + k, restyle=1.0) for k in range(3)]
    unstyled = [render_scene(fs, 123 + k) for k in range(3)]
    for a, b in zip(styled, unstyled, strict=True):
        assert [c.card for c in a.cards] == [c.card for c in b.cards]  # the same layout, printed otherwise
    assert any((a.image != b.image).any() for a, b in zip(styled, unstyled, strict=True))


def test_dark_cards_are_told_from_white_ones() -> None:
    for card in ("9s", "Kd", "Jc", "Ah"):
        white = procedural_face(card, 1)
        dark = restyle_face(white, card, "dark", (20.0, 10.0, 60.0), (230.0, 230.0, 230.0))
        assert not cardcrop.is_dark_card(*frame_with(white))
        assert not cardcrop.is_dark_card(*frame_with(white, table=10))  # a white card on a black cloth
        assert cardcrop.is_dark_card(*frame_with(dark, table=120))
        assert cardcrop.corner_crops(*frame_with(white)).shape[0] % 4 == 0
        n_white = cardcrop.corner_crops(*frame_with(white), refine=False).shape[0]
        assert cardcrop.corner_crops(*frame_with(dark), refine=False).shape[0] == 2 * n_white


def test_lightness_inverted_turns_dark_paper_white_and_keeps_red_red() -> None:
    crop = np.zeros((64, 48, 3), np.uint8)
    crop[:] = (15, 15, 15)
    crop[10:20, 10:20] = (60, 60, 200)  # a red pip
    out = cardcrop.lightness_inverted(crop)
    assert out[0, 0].min() > 220
    b, g, r = (int(v) for v in out[15, 15])
    assert r > g + 40 and r > b + 40


@pytest.fixture(scope="module")
def detector() -> OnnxDetector:
    return OnnxDetector(default_model_path(), threads=1)


def test_the_reader_names_a_gold_on_black_deck(detector: OnnxDetector, monkeypatch: pytest.MonkeyPatch) -> None:
    classifier = detector.classifier
    assert classifier is not None
    cards = ["9c", "Td", "Jh", "Qs", "Kc", "Ad", "9h", "Ts"]

    def right(style: str) -> int:
        count = 0
        for card in cards:
            face = procedural_face(card, 2)
            if style == "dark":
                face = restyle_face(face, card, "dark", (15.0, 15.0, 15.0), GOLD)
            frame, quad = frame_with(face)
            (read, _, _), = classifier.classify(frame, quad[None])
            count += str(read) == card
        return count

    white, dark = right("white"), right("dark")
    monkeypatch.setattr(cardcrop, "is_dark_card", lambda *_: False)
    dark_as_printed = right("dark")
    assert white >= 5 and dark >= white - 1 and dark_as_printed < dark - 2, (white, dark, dark_as_printed)


def test_of_two_readings_a_clearly_surer_one_stands() -> None:
    assert surer_reading(("none", 0.9), ("Kc", 0.4)) == ("Kc", 0.4)
    assert surer_reading(("Kc", 0.4), ("none", 0.9)) == ("Kc", 0.4)
    assert surer_reading(("Kc", 0.3), ("Kc", 0.4)) == ("Kc", 0.4)  # one card: the surer, however close
    assert surer_reading(("9s", 0.3), ("Jc", 0.7)) == ("Jc", 0.7)
    assert surer_reading(("Jc", 0.7), ("9s", 0.3)) == ("Jc", 0.7)
    assert surer_reading(("9s", 0.5), ("Jc", 0.7)) is None  # two cards, neither clearly surer: pooled instead
    assert surer_reading(("9s", 0.5), ("Jc", 0.7), margin=1.2) == ("Jc", 0.7)
    assert surer_reading(("Ah", 0.6), ("Ah", 0.6)) == ("Ah", 0.6)
    assert surer_reading(("none", 0.8), ("none", 0.3)) == ("none", 0.8)


def test_a_dark_card_is_read_surer_with_its_two_ways_apart(detector: OnnxDetector) -> None:
    """Gold on black: the crops as they are see an index too (light print on dark reads as some card), so
    pooled with the crops turned over they drag the share of the card named down."""
    classifier = detector.classifier
    assert classifier is not None
    cards = ["9c", "Td", "Jh", "Qs", "Kc", "Ad", "9h", "Ts"]

    def readings(apart: bool) -> list[tuple[str, float]]:
        out = []
        for card in cards:
            frame, quad = frame_with(restyle_face(procedural_face(card, 2), card, "dark", (15.0, 15.0, 15.0), GOLD))
            (read, conf, _), = classifier.classify(frame, quad[None], polarity_apart=apart)
            out.append((str(read), conf))
        return out

    apart, pooled = readings(True), readings(False)
    right_apart = [c for (r, c), card in zip(apart, cards, strict=True) if r == card]
    right_pooled = [c for (r, c), card in zip(pooled, cards, strict=True) if r == card]
    assert len(right_apart) >= len(right_pooled), (apart, pooled)
    assert float(np.mean(right_apart)) > float(np.mean(right_pooled)) + 0.05, (apart, pooled)


def test_a_one_ink_deck_prints_its_red_suits_in_its_ink() -> None:
    face = procedural_face("9h", 1)
    two_ink = restyle_face(face, "9h", "dark", (15.0, 15.0, 15.0), GOLD)
    one_ink = restyle_face(face, "9h", "one_ink", (15.0, 15.0, 15.0), GOLD)
    inside = face[:, :, 3] > 200
    ink = inside & (face[:, :, :3].max(axis=2).astype(int) - face[:, :, :3].min(axis=2) > 100)  # the red pips
    assert ink.sum() > 50
    red = two_ink[:, :, :3][ink].astype(int)
    gold = one_ink[:, :, :3][ink].astype(int)
    assert np.median(red[:, 2] - red[:, 1]) > 100  # the two-ink deck keeps its hearts red
    assert abs(np.median(gold[:, 2] - gold[:, 1]) - (GOLD[2] - GOLD[1])) < 15  # the one-ink deck prints them gold
    paper = inside & ~ink & (face[:, :, :3].min(axis=2) > 215)  # the drawn deck's cream paper
    assert np.median(one_ink[:, :, :3][paper]) < 40  # on the dark paper


def test_gold_print_turned_over_reads_as_black_print() -> None:
    crop = np.zeros((64, 48, 3), np.uint8)
    crop[:] = (15, 15, 15)
    crop[10:20, 10:20] = tuple(int(v) for v in GOLD)  # a gold pip
    out = cardcrop.lightness_inverted(crop)
    b, g, r = (int(v) for v in out[15, 15])
    assert max(b, g, r) < 110 and max(b, g, r) - min(b, g, r) < 12  # dark and grey, not a brown the reader calls red


def test_a_dark_card_outlined_loosely_on_a_light_mat_is_still_dark() -> None:
    """The finder's outline of a dark card on a light mat is often a few percent loose: its margin is mat."""
    for card in ("9s", "Kd", "Ah"):
        white = procedural_face(card, 1)
        dark = restyle_face(white, card, "dark", (25.0, 55.0, 20.0), GOLD)
        frame, quad = frame_with(dark, table=235)
        loose = (quad - quad.mean(axis=0)) * 1.2 + quad.mean(axis=0)  # a tenth of the card loose each side
        assert cardcrop.is_dark_card(frame, loose), card
        frame_w, quad_w = frame_with(white, table=235)
        assert not cardcrop.is_dark_card(frame_w, (quad_w - quad_w.mean(axis=0)) * 1.2 + quad_w.mean(axis=0))


def test_a_white_margined_back_of_middling_tone_is_not_dark_but_dark_paper_is() -> None:
    """Within the margin the paper must be clearly dark: a pile face down (a white margin round a dense
    pattern, middling on average) was judged dark at the margin's own ratio and read turned over."""
    h, w = 336, 240
    for tone, dark in ((0.36, False), (0.12, True)):
        back = np.full((h, w, 4), 255, np.uint8)
        m = int(0.1 * h)  # a white margin a tenth of the card wide: the margin's band is white
        back[m:-m, m:-m, :3] = int(tone * 255)
        frame, quad = frame_with(back, table=235)
        assert cardcrop.is_dark_card(frame, quad) is dark, tone
