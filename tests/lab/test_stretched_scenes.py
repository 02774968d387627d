"""Pictures whose pixels are not square: a 4:3 camera's picture shown at 16:9, a landscape photo stored as
portrait. The scenes can draw them (``render_scene(stretch=)``), their labels stretched with the picture."""

from __future__ import annotations

import numpy as np
import pytest

from lab.synth.build import obb_label_lines
from lab.synth.faces import procedural_faceset
from lab.synth.scenes import STRETCH_RANGE, render_scene, stretch_scene


def test_a_stretched_scene_keeps_its_cards_where_they_are_drawn() -> None:
    fs = procedural_faceset()
    scene = render_scene(fs, 321, near=True)
    assert scene.cards and scene.owner is not None
    wide = stretch_scene(scene, (1.5, 1.0))
    h, w = scene.image.shape[:2]
    assert wide.image.shape == (h, round(w * 1.5), 3)
    assert wide.owner is not None and wide.owner.shape == wide.image.shape[:2]
    for before, after in zip(scene.cards, wide.cards, strict=True):
        assert after.card == before.card
        np.testing.assert_allclose(after.corners[:, 0], before.corners[:, 0] * wide.image.shape[1] / w, rtol=1e-5)
        np.testing.assert_allclose(after.corners[:, 1], before.corners[:, 1], rtol=1e-5)
        # the owner map moved with the picture: the card's own pixels still fill its stretched box
        x1, y1, x2, y2 = (round(v) for v in after.visible_box)
        inside = wide.owner[y1:y2, x1:x2] == after.layer
        assert inside.mean() > 0.3
        assert (wide.owner == after.layer).sum() == pytest.approx((scene.owner == before.layer).sum() * 1.5, rel=0.05)
    # the label lines are normalised to the stretched picture, so they stay in 0..1
    for line in obb_label_lines(wide):
        values = [float(v) for v in line.split()[1:]]
        assert all(-0.05 <= v <= 1.05 for v in values)


def test_stretch_draws_its_own_dice_and_zero_changes_nothing() -> None:
    fs = procedural_faceset()
    plain = [render_scene(fs, 400 + k, near=True) for k in range(6)]
    for k, p in enumerate(plain):
        assert (render_scene(fs, 400 + k, near=True, stretch=0.0).image == p.image).all()
    stretched = [render_scene(fs, 400 + k, near=True, stretch=1.0) for k in range(6)]
    ratios = []
    for a, b in zip(stretched, plain, strict=True):
        assert [c.card for c in a.cards] == [c.card for c in b.cards]  # the same scene, its pixels stretched
        (ha, wa), (hb, wb) = a.image.shape[:2], b.image.shape[:2]
        assert (ha == hb) != (wa == wb)  # one side stretched, the other kept
        ratios.append(max(ha / hb, wa / wb))
    assert all(STRETCH_RANGE[0] - 0.01 <= r <= STRETCH_RANGE[1] + 0.01 for r in ratios)
