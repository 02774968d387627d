"""The renege alert shows the camera's stills of both tricks: the one the player showed out in and the proof."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from companion.builder import RunRequest, build_app  # noqa: E402
from companion.commands.demo import load_demo  # noqa: E402
from companion.config import load_config  # noqa: E402
from display.view import ScoreboardView  # noqa: E402


@pytest.mark.slow
def test_every_renege_alert_of_the_demo_shows_both_tricks_stills(tmp_path: Path) -> None:
    """The demo's first hand ends with a renege proven in its last trick, announced together with that trick
    and the hand's score; the alert must still show both tricks as the camera saw them."""
    import numpy as np
    import pygame

    from display.render import render_surface

    demo = load_demo()
    request = RunRequest(
        source=demo.source,
        headless=True,
        out_dir=tmp_path,
        buttons_file=demo.buttons,
        fresh=True,
        calibration=demo.calibration,
    )
    app = build_app(load_config(None), request)
    recorder = app.p.recorder
    assert recorder is not None
    captured: list[tuple[str, ScoreboardView]] = []
    capture = recorder.capture

    def keep(view: ScoreboardView, name: str, t: float = 0.0) -> Path | None:
        captured.append((name, view))
        return capture(view, name, t)

    recorder.capture = keep  # type: ignore[method-assign]  # watches what the headless run screenshots
    try:
        # The demo's first two alerts: one proven in the first hand's last trick, one within the second hand.
        while not app.finished and len(_alerts(captured)) < 2:
            app.tick(time.monotonic())
    finally:
        app.close()

    alerts = _alerts(captured)
    assert len(alerts) == 2
    for view in alerts:
        assert view.renege is not None
        stills = view.renege.snapshots
        assert [bool(s.rgb) for s in stills] == [True, True], view.renege.evidence
        assert len({s.caption for s in stills}) == 2, [s.caption for s in stills]
        # On the screen: the band between the headline and the penalty holds the two pictures, not bare red.
        pixels = pygame.surfarray.array3d(render_surface(view, recorder.size, 0.0))
        band = pixels[:, 190:340].reshape(-1, 3).astype(np.int32)
        background = pixels[20, 260].astype(np.int32)
        assert np.mean(np.abs(band - background).sum(axis=1) > 60) > 0.3


def _alerts(captured: list[tuple[str, ScoreboardView]]) -> list[ScoreboardView]:
    return [view for name, view in captured if name == "RenegeProven" and view.renege is not None]
