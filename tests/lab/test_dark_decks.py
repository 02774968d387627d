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
            (read, _, _, _), = classifier.classify(frame, quad[None])
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
            (read, conf, _, _), = classifier.classify(frame, quad[None], polarity_apart=apart)
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


def _filled_face(paper: int, picture: int, inset: float, h: int = 336, w: int = 240) -> np.ndarray:
    """A card of ``paper`` tone with a rectangle of ``picture`` tone ``inset`` (a share of each side) in from
    its edge all round: a court whose picture nearly fills the face, or a dark picture on a white card."""
    face = np.full((h, w, 4), paper, np.uint8)
    face[:, :, 3] = 255
    my, mx = round(inset * h), round(inset * w)
    face[my : h - my, mx : w - mx, :3] = picture
    return face


def _corner_error(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(cardcrop.order_corners(a) - cardcrop.order_corners(b)).max())


def test_a_dark_card_whose_picture_fills_the_face_is_snapped_and_judged_dark() -> None:
    """Dark paper shows only in a thin rim round a light picture (as on a dark-printed deck of big courts):
    judged on the finder's loose box, the bands are mat and picture. Snapped to its dark paper, it is dark."""
    face = _filled_face(paper=25, picture=225, inset=0.04)
    frame, quad = frame_with(face, table=235)
    loose = (quad - quad.mean(axis=0)) * 1.16 + quad.mean(axis=0)  # 8% loose each side
    assert not cardcrop.is_dark_card(frame, loose)  # what the bands alone make of it
    hypotheses, dark = cardcrop.judged_outline(frame, loose)
    assert dark
    assert _corner_error(hypotheses[0], quad) < 6.0  # snapped to the card (it is 260 px tall), not the box
    assert len(hypotheses) == len(cardcrop.outline_hypotheses(frame, loose))  # the crops per card are as ever


def test_a_framed_picture_on_a_white_card_is_not_taken_for_a_dark_card() -> None:
    """A white court whose picture is framed by a dark line: filled, the frame is a dark card-shaped blob
    inside the box, with a dark rim, but far smaller than the box (:data:`cardcrop.DARK_SNAP_AREA`), so the
    card stays white; so does a white card on a black cloth, where the dark blob is the cloth."""
    face = _filled_face(paper=240, picture=30, inset=0.15)
    my, mx = round(0.18 * face.shape[0]), round(0.18 * face.shape[1])
    face[my:-my, mx:-mx, :3] = 215  # the picture inside its frame: light
    frame, quad = frame_with(face, table=235)
    assert not cardcrop.is_dark_card(frame, quad)
    hypotheses, dark = cardcrop.judged_outline(frame, quad)
    assert not dark
    assert _corner_error(hypotheses[0], quad) < 6.0  # the white-paper snap, to the card
    white = procedural_face("Kd", 1)
    for table in (10, 235):
        frame, quad = frame_with(white, table=table)
        assert not cardcrop.judged_outline(frame, quad)[1], table


def test_the_paper_is_judged_on_the_whole_card() -> None:
    """The darkness test cuts the card at its own picture size: the region's corners land on the card's (with
    a crop's size, a smaller picture only reached 0.82 of the way across and 0.86 down, inside the card)."""
    quad = cardcrop.order_corners(np.array([[100, 50], [300, 70], [280, 350], [90, 330]], np.float32))
    for size in ((40, 56), (80, 112), (cardcrop.CROP_W, cardcrop.CROP_H)):
        h = cardcrop._region_homography(quad, 0.0, 1.0, 0.0, 1.0, size)
        w, ht = size
        ends = np.array([[0, 0, 1], [w, 0, 1], [w, ht, 1], [0, ht, 1]], np.float64) @ h.T
        assert np.allclose(ends[:, :2] / ends[:, 2:], quad, atol=1e-3), size


def test_a_dark_deck_is_enrolled_as_the_classifier_reads_it() -> None:
    """Enrolment keeps a dark card's corners turned over, as the reader reads them: the stored crops are
    light paper, their features are what the classifier makes of them (so a retrained classifier takes the
    same features again from the PNGs), and a second shot of each card reads right with the profile (kept as
    printed, the ten of hearts was read as the ace)."""
    from vision.deck_profile import ProfileBuilder, refeaturise

    detector = OnnxDetector(default_model_path(), threads=1)
    assert detector.classifier is not None
    cards = ("9s", "Kd", "Th", "Ad")
    shots = {}
    for c in cards:
        dark = restyle_face(procedural_face(c, 3), c, "dark", (25.0, 55.0, 20.0), GOLD)
        shots[c] = [frame_with(dark, angle=0.2 + 0.3 * j, table=235) for j in range(2)]
    builder = ProfileBuilder(detector.classifier)
    for c in cards:
        builder.add(c, *shots[c][0])
    profile = builder.build("dark-deck")
    for entry in profile.cards.values():
        for proto in entry.prototypes:
            assert np.median(profile.images[proto.crop]) > 150  # turned over: the paper reads white
    again = refeaturise(profile, detector.classifier)
    for card, entry in profile.cards.items():
        for a, b in zip(entry.prototypes, again.cards[card].prototypes, strict=True):
            assert float(np.dot(a.features, b.features)) > 0.99
    detector.classifier.use_profile(profile)
    read = [detector.classifier.classify(*shots[c][1][:1], shots[c][1][1][None])[0][0] for c in cards]
    assert [str(r) for r in read] == list(cards)


def test_corner_crops_snap_and_judge_a_card_as_the_reader_does() -> None:
    """Asked alone (enrolment's own readings while cards are laid out), ``corner_crops`` cuts a dark card
    whose picture fills its face from its snapped outline, both ways: as the reader's ``judged_outline``."""
    frame, quad = frame_with(_filled_face(paper=25, picture=225, inset=0.04), table=235)
    loose = (quad - quad.mean(axis=0)) * 1.16 + quad.mean(axis=0)
    hypotheses, dark = cardcrop.judged_outline(frame, loose)
    assert dark
    alone = cardcrop.corner_crops(frame, loose)
    assert alone.shape[0] == 8 * len(hypotheses)  # turned over as well
    assert np.array_equal(alone, cardcrop.corner_crops(frame, loose, dark=True, hypotheses=hypotheses))


def _court_with_picture(card: str, picture: int) -> np.ndarray:
    """A procedural court printed in one ink (gold on black), its picture marked its own way: a disc, bars or a
    cross, drawn in the paper's colour."""
    import cv2

    face = procedural_face(card, 3).copy()
    h, w = face.shape[:2]
    paper = (255, 255, 255, 255)
    if picture == 0:
        cv2.circle(face, (w // 2, h // 2), w // 4, paper, -1)
    elif picture == 1:
        for y in range(h // 4, 3 * h // 4, h // 12):
            cv2.rectangle(face, (w // 4, y), (3 * w // 4, y + h // 30), paper, -1)
    else:
        cv2.line(face, (w // 4, h // 4), (3 * w // 4, 3 * h // 4), paper, w // 12)
        cv2.line(face, (3 * w // 4, h // 4), (w // 4, 3 * h // 4), paper, w // 12)
    return restyle_face(face, card, "one_ink", (20.0, 20.0, 20.0), GOLD)


def test_a_one_ink_deck_tells_its_kings_apart_by_their_enrolled_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three kings printed in one ink, alike in their corners, each with its own picture: enrolled from one shot
    and read from another, each is named surely where its middle is its own enrolled face (the reader cuts the
    middle as enrolment keeps it); with that look switched off the face reader alone must tell a gold court's
    colour, and the kings of diamonds and spades are only to be checked."""
    from vision import deck_profile
    from vision.deck_profile import ProfileBuilder

    detector = OnnxDetector(default_model_path(), threads=1)
    classifier = detector.classifier
    assert classifier is not None
    cards = ("Kd", "Ks", "Kh")
    shots = {c: [frame_with(_court_with_picture(c, k), angle=0.2 + 0.3 * j, table=235) for j in range(2)]
             for k, c in enumerate(cards)}
    builder = ProfileBuilder(classifier)
    for c in cards:
        builder.add(c, *shots[c][0])
    profile = builder.build("gold")

    def read() -> dict[str, tuple[str, float, float]]:
        classifier.use_profile(profile)
        out = {}
        for c in cards:
            frame, quad = shots[c][1]
            (card, conf, undoubted, _), = classifier.classify(frame, quad[None])
            out[c] = (str(card), conf, undoubted)
        return out

    told = read()
    assert classifier.profile is not None and classifier.profile.tells_alike_by_face
    assert all(name == c and conf > 0.6 for c, (name, conf, _) in told.items()), told
    monkeypatch.setattr(deck_profile, "ALIKE_FACE_MARGIN", None)
    alone = read()
    assert [alone[c][0] for c in cards] == list(cards)
    assert alone["Kd"][1] < 0.2 and alone["Ks"][1] < 0.2, alone  # to be checked: sure before the doubt
    assert alone["Kd"][2] > 0.6 and alone["Ks"][2] > 0.6, alone
