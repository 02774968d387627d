"""Face crops for the face reader (``lab.synth.face_crops``): reproducible, labelled as the reader reads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lab.synth import face_crops
from lab.synth.face_crops import FaceSampler, jobs, main
from vision.cardcrop import CROP_H, CROP_W
from vision.face_reader import FACE_CLASSES, FACE_NONE


def test_chunks_are_reproducible_and_labelled() -> None:
    x, y = FaceSampler(None, "train", 7).chunk(0, n=60)
    x2, y2 = FaceSampler(None, "train", 7).chunk(0, n=60)
    assert x.shape == (60, CROP_H, CROP_W, 3) and x.dtype == np.uint8
    assert np.array_equal(x, x2) and np.array_equal(y, y2)
    assert set(y.tolist()) <= set(range(len(FACE_CLASSES)))
    kinds = {FACE_CLASSES[k][0] for k in y if k != FACE_NONE}
    assert "C" in kinds and kinds & set("A789T")  # courts and number cards both drawn
    assert (y == FACE_NONE).any() and (y != FACE_NONE).mean() > 0.6
    other = FaceSampler(None, "train", 8).chunk(0, n=60)[0]
    assert not np.array_equal(x, other)


def test_typeface_decks_give_number_cards_only() -> None:
    _, y = FaceSampler(None, "train", 3, fonts=2).chunk(0, n=40)
    assert not any(FACE_CLASSES[k].startswith("C") for k in y)


def test_a_number_face_is_labelled_with_its_kind_and_suit() -> None:
    """Samples from a deck holding only the nine of hearts: labelled 9h, its suit's unseen kind Nh where
    something covers part of it, or none where it cannot be read."""
    sampler = FaceSampler(None, "train", 11)
    fs = sampler.faces()
    for deck in fs.decks():
        fs.faces[deck] = {"9h": fs.faces[deck]["9h"]}
    fs.backs = []
    _, y = sampler.chunk(0, n=30)
    assert set(y.tolist()) <= {FACE_CLASSES.index("9h"), FACE_CLASSES.index("Nh"), FACE_NONE}
    assert (y == FACE_CLASSES.index("9h")).sum() >= 15
    assert (y == FACE_CLASSES.index("Nh")).sum() >= 1


def test_jobs_hold_out_first_then_alternate_artwork_and_typefaces(tmp_path: Path) -> None:
    todo = jobs(Path("art"), tmp_path, train_chunks=4, val_chunks=2, seed=100, fonts=8)
    assert [(j[1], j[2], j[3], j[5]) for j in todo] == [
        ("heldout", 101, 0, 0), ("heldout", 101, 1, 0),
        ("train", 100, 0, 0), ("train", 200, 1, 8), ("train", 100, 2, 0), ("train", 200, 3, 8),
    ]
    assert all(j[5] == 0 for j in jobs(Path("art"), tmp_path, 3, 1, 100, fonts=0))


def test_main_writes_the_chunks(tmp_path: Path) -> None:
    assert main(["--procedural", "--out", str(tmp_path), "--train-chunks", "1", "--val-chunks", "0",
                 "--fonts", "0"]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.npz")) == ["train_100_0000.npz"]
    with np.load(tmp_path / "train_100_0000.npz") as z:
        assert z["x"].shape == (1000, CROP_H, CROP_W, 3) and len(z["y"]) == 1000


def test_restyled_cards_change_the_crops_but_not_their_labels() -> None:
    """With ``restyle`` every card is printed another way (dark paper turned over, one ink, tinted, four
    colours): the same cards and labels are drawn, the crops differ, and without it the stream is as before."""
    plain = FaceSampler(None, "train", 5).chunk(0, n=40)
    rng = np.random.default_rng(3)
    before = rng.bit_generator.state
    assert FaceSampler(None, "train", 5)._style(rng) is None
    assert rng.bit_generator.state == before  # no draw: the chunks built before the option stay as they were
    restyled = FaceSampler(None, "train", 5, restyle=1.0).chunk(0, n=40)
    assert not np.array_equal(plain[0], restyled[0])
    assert set(restyled[1].tolist()) <= set(range(len(FACE_CLASSES)))
    assert (restyled[1] != FACE_NONE).mean() > 0.6


def test_a_one_ink_card_is_seen_turned_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card printed light on dark paper is cut turned over (``cardcrop.lightness_inverted``), as the table's
    reader cuts it: its crop is mostly light, as a card printed on white is."""
    monkeypatch.setattr(face_crops, "RESTYLES", (("one_ink", 1.0),))
    x, y = FaceSampler(None, "train", 9, restyle=1.0).chunk(0, n=30)
    faces = x[y != FACE_NONE]
    assert len(faces) >= 10
    assert float(np.median(faces.reshape(len(faces), -1).mean(axis=1))) > 128
    monkeypatch.setattr(face_crops, "DARK_PAPER_STYLES", ())  # not turned over: the dark paper shows
    x2, y2 = FaceSampler(None, "train", 9, restyle=1.0).chunk(0, n=30)
    faces2 = x2[y2 != FACE_NONE]
    assert float(np.median(faces2.reshape(len(faces2), -1).mean(axis=1))) < 128
