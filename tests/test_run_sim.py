"""``run --source sim:N``: the app on the simulated table, its bids fed in from the script like a buttons file."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from companion.builder import RunRequest, build_app  # noqa: E402
from companion.config import load_config  # noqa: E402
from lab import simtable as st  # noqa: E402
from table.egn import import_egn  # noqa: E402


def test_run_on_the_simulated_table_plays_the_scripted_hand(tmp_path: Path) -> None:
    request = RunRequest(source="sim:1", headless=True, out_dir=tmp_path, buttons_file=None, fresh=True)
    app = build_app(load_config(None), request)
    source = app.p.source
    assert isinstance(source, st.SimTableSource) and source.renderer is not None
    assert app.p.buttons is not None and app.p.buttons.remaining > 0  # the script's bids, as a buttons file
    # Perfect readings from the renderer: this checks the wiring of source, bids, tracker and engine,
    # not the card detector (``euchre-table simulate`` measures that).
    app.p.detector = st.OracleDetector(source.renderer)
    app.run_headless(lambda: 0.0)

    script = source.buttons_script
    match = app.p.session.match
    assert [d.points for d in match.deals] == [d.points for d in script.deals]
    assert [d.thrown_in for d in match.deals] == [d.thrown_in for d in script.deals]
    assert match.deals[-1].finished and not match.deals[-1].thrown_in
    replay = import_egn(tmp_path / "game.egn")  # the EGN written at the end reads back to the same hand
    assert [d.points for d in replay.match.deals] == [d.points for d in script.deals]
    assert app.p.buttons.remaining == 0


def test_the_configured_mat_sheet_is_the_one_looked_for(tmp_path: Path) -> None:
    import dataclasses

    import cv2
    import numpy as np

    from vision.mat import marker_layout

    shots = tmp_path / "shots"
    shots.mkdir()
    cv2.imwrite(str(shots / "0001.png"), np.full((48, 64, 3), 90, np.uint8))
    config = load_config(None)
    for sheet in ("A2", "A3"):
        cfg = dataclasses.replace(config, camera=dataclasses.replace(config.camera, mat=sheet))
        request = RunRequest(source=f"images:{shots}", headless=True, out_dir=tmp_path / sheet, buttons_file=None,
                             fresh=True)
        app = build_app(cfg, request)
        try:
            assert app.p.markers is not None and app.p.markers.layout == marker_layout(sheet)
        finally:
            app.p.session.close()


def test_run_on_the_simulated_table_plays_british_rules_deal_after_deal(tmp_path: Path) -> None:
    """``run --source sim:3`` with a British config: every deal is played and scored as the script has it, the
    Benny named blind (its press may come before the camera has read the Benny: it waits for it), the scripted
    players' declarations made on the panel's presses."""
    config_file = tmp_path / "british.toml"
    config_file.write_text('[rules]\npreset = "british"\n', encoding="utf-8")
    request = RunRequest(source="sim:3", headless=True, out_dir=tmp_path / "out", buttons_file=None, fresh=True)
    app = build_app(load_config(config_file), request)
    source = app.p.source
    assert isinstance(source, st.SimTableSource) and source.renderer is not None
    app.p.detector = st.OracleDetector(source.renderer)
    app.run_headless(lambda: 0.0)

    script = source.buttons_script
    assert any(d.up_card.is_benny for d in script.deals)  # this seed turns up the Benny
    match = app.p.session.match
    assert len([d for d in match.deals if d.finished]) == len(script.deals) == 3
    assert [d.points for d in match.deals] == [d.points for d in script.deals]
    assert [d.alone_seats for d in match.deals] == [d.alone_seats for d in script.deals]
    assert app.p.buttons is not None and app.p.buttons.remaining == 0


def test_with_main_stream_crops_the_simulated_table_gives_both_of_a_pi_cameras_streams(tmp_path: Path) -> None:
    import dataclasses

    config = load_config(None)
    for on in (True, False):
        cfg = dataclasses.replace(config, camera=dataclasses.replace(config.camera, main_stream_crops=on))
        request = RunRequest(source="sim:1", headless=True, out_dir=tmp_path / str(on), buttons_file=None, fresh=True)
        app = build_app(cfg, request)
        try:
            source = app.p.source
            assert isinstance(source, st.SimTableSource) and app.p.main_stream_crops is on
            frame = source.read()
            assert frame is not None
            h, w = frame.image_bgr.shape[:2]
            if on:
                assert frame.display_bgr is not None and frame.display_bgr.shape[:2] == (2 * h, 2 * w)
            else:
                assert frame.display_bgr is None
        finally:
            app.p.session.close()
