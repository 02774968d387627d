"""The board's web app: open to read, closed to write without the admin password; wrong forms say why."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path

import pytest
from league_helpers import game_rounds
from starlette.testclient import TestClient

from league.board import Board, create_app
from league.records import fold
from league.store import LeagueStore

PLAYERS = "\n".join(f"Player {i}" for i in range(1, 10))


def auth(password: str, user: str = "admin") -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


@pytest.fixture
def board(tmp_path: Path) -> Iterator[Board]:
    store = LeagueStore(tmp_path / "league.sqlite")
    for e in game_rounds(seed=21)[-1]:
        store.apply(e.body)
    yield Board(store, admin_password="s3cret")
    store.close()


def test_the_page_shows_the_tables_and_the_standings_of_the_events(board: Board) -> None:
    client = TestClient(create_app(board))
    page = client.get("/")
    assert page.status_code == 200 and "EventSource('/events')" in page.text
    standings = fold(e.body for e in game_rounds(seed=21)[-1])
    for name, rec in standings.players.items():
        assert f"data-player='{name}'" in page.text
        assert client.get("/api/standings").json()["players"][name]["points"] == rec.points
    assert "data-table='1'" in page.text and "game over" in page.text


@pytest.mark.parametrize(
    ("method", "path", "headers"),
    [("GET", "/admin", {}), ("POST", "/admin/night", {}), ("POST", "/admin/void", auth("wrong")),
     ("POST", "/admin/players", auth("s3cret", user="root")), ("POST", "/admin/night", {"Authorization": "Basic !!"})],
)
def test_admin_is_refused_without_the_password(board: Board, method: str, path: str, headers: dict[str, str]) -> None:
    client = TestClient(create_app(board))
    before = board.store.current_night()
    response = client.request(method, path, headers=headers, data={"name": "Hijack", "players": PLAYERS})
    assert response.status_code == 401 and "admin password is needed" in response.text
    assert board.store.current_night() == before


def test_nothing_is_writable_when_no_admin_password_is_set(board: Board) -> None:
    board.admin_password = None
    client = TestClient(create_app(board))
    response = client.post("/admin/night", headers=auth(""), data={"players": PLAYERS})
    assert response.status_code == 403 and "No admin password is set" in response.text


def test_the_admin_starts_a_night_whose_rotation_is_shown_and_printable(board: Board) -> None:
    client = TestClient(create_app(board))
    done = client.post("/admin/night", headers=auth("s3cret"), data={"name": "Week 3", "players": PLAYERS},
                       follow_redirects=False)
    assert done.status_code == 303
    night = board.store.current_night()
    assert night is not None and night.name == "Week 3" and len(night.players) == 9
    page = client.get("/").text
    assert "<h1>Week 3</h1>" in page and "Sitting out" in page and "No games yet" in page
    assert "Game 9" in client.get("/rotation?format=text").text


@pytest.mark.parametrize(
    ("path", "data", "message"),
    [("/admin/night", {"players": "Ann\nBob"}, "a rotation needs 4 to 64 players, not 2"),
     ("/admin/players", {"players": "Ann\nBob\nAnn\nDan\nEve"}, "named twice: Ann"),
     ("/admin/void", {"event": "1/nope/deal/0"}, "no event &#x27;1/nope/deal/0&#x27; on the board")],
)
def test_a_wrong_admin_form_says_what_is_wrong_and_changes_nothing(
    board: Board, path: str, data: dict[str, str], message: str
) -> None:
    client = TestClient(create_app(board))
    before = (board.store.current_night(), board.store.standings().as_dict())
    response = client.post(path, headers=auth("s3cret"), data=data)
    assert response.status_code == 400 and f"Not done: {message}" in response.text
    assert (board.store.current_night(), board.store.standings().as_dict()) == before


def test_a_correction_takes_a_deal_off_the_standings(board: Board) -> None:
    client = TestClient(create_app(board))
    events = game_rounds(seed=21)[-1]
    deal = next(e for e in events if e.body["kind"] == "deal" and e.body["deal"]["points"] != [0, 0])
    response = client.post("/admin/void", headers=auth("s3cret"), data={"event": deal.id, "reason": "misread"},
                           follow_redirects=False)
    assert response.status_code == 303
    assert board.store.standings().as_dict() == fold(e.body for e in events if e.id != deal.id).as_dict()


def test_a_form_from_another_site_is_refused(board: Board) -> None:
    client = TestClient(create_app(board))
    response = client.post("/admin/night", headers={**auth("s3cret"), "Origin": "http://evil.example"},
                           data={"players": PLAYERS})
    assert response.status_code == 403
