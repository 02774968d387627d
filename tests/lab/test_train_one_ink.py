"""``train classifier --mono-ink``: a share of the training crops shown with every print in one ink."""

from __future__ import annotations

import numpy as np
import pytest

from lab.train import _augment, _one_ink
from vision.cardcrop import normalise_crop


def _crops() -> np.ndarray:
    """Four crops: white paper, a red pip top left and a black one bottom right (RGB, paper near 1)."""
    out = []
    for _ in range(4):
        c = np.full((64, 48, 3), 240, np.uint8)
        c[8:20, 8:20] = (40, 40, 200)  # BGR red
        c[40:52, 28:40] = (20, 20, 20)  # black
        out.append(normalise_crop(c))
    return np.stack(out)


def test_one_ink_makes_red_and_black_print_alike_and_keeps_the_paper() -> None:
    x = _crops()
    out = _one_ink(x, np.random.default_rng(3), 1.0)
    red, black = out[:, :, 14, 14], out[:, :, 46, 34]  # (n, 3) RGB
    assert (red[:, 0] - red[:, 1] > 0.4).sum() == 0  # no crop keeps its red pip red over green
    for k in range(len(x)):
        # the two pips in one hue: their colour (each channel less the pip's mean) points the same way, or is none
        a, b = red[k] - red[k].mean(), black[k] - black[k].mean()
        if np.linalg.norm(a) > 0.02 or np.linalg.norm(b) > 0.02:
            assert float(a @ b) / (np.linalg.norm(a) * np.linalg.norm(b)) > 0.95
        assert abs(out[k, :, 2, 2].mean() - x[k, :, 2, 2].mean()) < 0.05  # the paper as it was
    assert np.array_equal(x, _crops())  # the batch given is left as it was


def test_a_share_of_zero_changes_nothing_and_draws_no_dice() -> None:
    x = _crops()
    a = _augment(x, np.random.default_rng(5))
    b = _augment(x, np.random.default_rng(5), mono=0.0)
    assert np.array_equal(a, b)
    assert _one_ink(x, np.random.default_rng(5), 0.0) is x


@pytest.mark.parametrize("share", [0.3, 0.7])
def test_about_the_share_asked_for_is_turned(share: float) -> None:
    x = np.repeat(_crops(), 250, axis=0)  # 1,000 crops
    out = _one_ink(x, np.random.default_rng(1), share)
    turned = (np.abs(out - x).reshape(len(x), -1).max(axis=1) > 0.05).mean()
    assert abs(turned - share) < 0.06
