"""End to end in a real browser: a simulated night through broker and board, its page read in Chromium.

The standings the page shows (read from the page after its scripts ran) must equal the standings of the
tables' EGN files; a deal kept after the page loaded must appear on it without a reload (server-sent
events). Chromium is the system's (Debian's ``chromium``); .ci/run installs it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from league_helpers import game_rounds

from league.board import Board, serve_in_thread
from league.broker import free_port
from league.browser import Page, chromium_path
from league.simulate import egn_standings, simulate_night
from league.store import LeagueStore

pytestmark = pytest.mark.skipif(chromium_path() is None, reason="no system Chromium (apt-get install chromium)")


def test_the_page_in_a_browser_shows_the_standings_of_the_tables_egns_and_updates_live(tmp_path: Path) -> None:
    night = simulate_night(tables=2, seed=4, games=2, restart_broker=False, folder=tmp_path)
    assert night.lost == 0 and night.games == 4
    store = LeagueStore(tmp_path / "league.sqlite")
    board = Board(store, admin_password=None)
    server, thread = serve_in_thread(board, free_port())
    try:
        with Page(f"http://127.0.0.1:{server.config.port}/") as page:
            expected = egn_standings(tmp_path, seed=4).as_dict()
            assert len(expected) == 8
            assert page.standings() == expected
            newcomers = [e.body for e in game_rounds(seed=6, table="9", game="late")[-1]]
            newcomers = [{**e, "seats": ["Zed", *e["seats"][1:]]} for e in newcomers]
            for event in newcomers:
                store.apply(event)
            board.changed()
            page.wait_for_player("Zed")
            assert "Zed" in page.standings()
    finally:
        server.should_exit = True
        thread.join(10)
        store.close()
