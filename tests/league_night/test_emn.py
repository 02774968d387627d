"""The night as EMN: every game's EGN rebuilt by the board equals the table's own file, and both validate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from league.board import Board, create_app
from league.emn import night_emn
from league.simulate import simulate_night
from league.store import LeagueStore

SCHEMAS = Path(__file__).resolve().parents[3] / "shared" / "ref" / "egn" / "schemas"
BASE = "https://schemas.euchre-table.invalid/egn/"


def validators() -> tuple[Any, Any]:
    """(EMN, EGN) validators of ref/egn/schemas; the EMN schema's relative $ref resolved to the EGN one."""
    from jsonschema import Draft7Validator
    from referencing import Registry, Resource

    egn = json.loads((SCHEMAS / "egn-schema-v1.json").read_text(encoding="utf-8"))
    emn = json.loads((SCHEMAS / "emn-schema-v1.json").read_text(encoding="utf-8"))
    emn["$id"] = BASE + "emn/emn-schema-v1.json"  # its "../egn-schema-v1.json" is then BASE + egn-schema-v1.json
    registry = Registry().with_resource(BASE + "egn-schema-v1.json", Resource.from_contents(egn))
    return Draft7Validator(emn, registry=registry), Draft7Validator(egn)


@pytest.mark.skipif(not SCHEMAS.is_dir(), reason="the EGN/EMN schemas (shared/ref/egn/schemas) are not beside the repo")
def test_the_boards_emn_holds_each_tables_egn_and_validates(tmp_path: Path) -> None:
    result = simulate_night(tables=2, seed=5, games=2, restart_broker=False, folder=tmp_path)
    assert result.lost == 0
    store = LeagueStore(tmp_path / "league.sqlite")
    try:
        night = store.current_night()
        assert night is not None
        emn = night_emn(store.events(night.id), night.name, night.started)
        served = TestClient(create_app(Board(store, None))).get("/night.emn").json()
    finally:
        store.close()
    assert served == emn
    emn_check, egn_check = validators()
    assert sorted(e.message for e in emn_check.iter_errors(emn)) == []
    files = sorted(tmp_path.glob("table-*-game-*.egn"))
    assert len(emn["games"]) == len(files) == 4
    by_players = {}
    names = {p["id"]: p["name"] for p in emn["metadata"]["players"]}
    for game in emn["games"]:
        assert sorted(e.message for e in egn_check.iter_errors(game["gameData"])) == []
        by_players[tuple(names[i] for i in game["players"])] = game["gameData"]
    for path in files:
        egn = json.loads(path.read_text(encoding="utf-8"))
        assert by_players[tuple(egn["metadata"]["players"])] == egn
    assert emn["metadata"]["result"]["status"] == "COMPLETED" and len(names) == 8
