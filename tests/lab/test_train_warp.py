"""``train classifier --warp``: a share of the training crops turned, sheared and scaled about their middle."""

from __future__ import annotations

import numpy as np
import pytest

from lab.train import WARP_DEGREES, WARP_SHEAR, _augment, _warp
from vision.cardcrop import normalise_crop


def _crop() -> np.ndarray:
    """White paper with a black bar across the middle row band (RGB, paper near 1)."""
    c = np.full((64, 48, 3), 240, np.uint8)
    c[30:34, 4:44] = (20, 20, 20)
    return normalise_crop(c)


def _bar_angle(img: np.ndarray) -> float:
    """The dark bar's direction in degrees (its pixels' principal axis)."""
    ys, xs = np.nonzero(img.mean(axis=0) < 0.5)
    cov = np.cov(np.vstack([xs, ys]).astype(float))
    vals, vecs = np.linalg.eigh(cov)
    vx, vy = vecs[:, int(np.argmax(vals))]
    return float(np.degrees(np.arctan2(vy, vx)) % 180.0)


def test_a_warped_crop_turns_its_print_about_the_middle_and_keeps_the_paper() -> None:
    x = np.stack([_crop()] * 200)
    out = _warp(x, np.random.default_rng(2), 1.0)
    angles = np.array([min(a, 180.0 - a) for a in (_bar_angle(o) for o in out)])
    # a turn of up to WARP_DEGREES, and the shear tilts the bar by up to its own angle more
    assert angles.max() <= WARP_DEGREES + np.degrees(np.arctan(WARP_SHEAR)) + 1
    assert (angles > 5).mean() > 0.5  # most crops are turned visibly
    assert np.all(out[:, :, 32, 24].mean(axis=1) < 0.5)  # the bar still crosses the middle
    assert np.allclose(out[:, :, 2, 2], x[:, :, 2, 2], atol=0.02)  # the paper as it was
    assert np.array_equal(x, np.stack([_crop()] * 200))  # the batch given is left as it was


def test_a_share_of_zero_changes_nothing_and_draws_no_dice() -> None:
    x = np.stack([_crop()] * 4)
    assert _warp(x, np.random.default_rng(5), 0.0) is x
    assert np.array_equal(_augment(x, np.random.default_rng(5)), _augment(x, np.random.default_rng(5), warp=0.0))


@pytest.mark.parametrize("share", [0.3, 0.7])
def test_about_the_share_asked_for_is_warped(share: float) -> None:
    x = np.stack([_crop()] * 1000)
    out = _warp(x, np.random.default_rng(1), share)
    changed = (np.abs(out - x).reshape(len(x), -1).max(axis=1) > 0.05).mean()
    assert abs(changed - share) < 0.06
