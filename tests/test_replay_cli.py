"""``euchre-table replay``: the bundled demo, EGN files and match logs, text and JSON, and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.commands.replay import demo_path
from table.cards import Card
from table.egn import import_egn, load_egn
from table.log import MatchLog
from table.trump import legal_plays

EXAMPLES = Path(__file__).parent / "table" / "data" / "egn"
DEAL_KEYS = {"dealer", "trump", "maker_seat", "alone_seats", "trick_winners", "tricks_won", "points", "reneges"}


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["replay", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_no_file_replays_the_bundled_demo(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Comeback at the Crown: 10 deal(s), starting at 0-0"
    assert "Deal 1: seat 1 (Eamon) deals, turns up Qh" in lines
    assert "  tricks 0-5; points 0-4 (lone_march); score 0-4" in lines  # the stuck dealer's lone march
    assert lines[-2] == "Final score 10-8: team 0 wins"
    assert lines[-1] == (
        "deals=10 final_score=10-8 winner=0 game_over=true reneges=0 irregularities=0 warnings=0 file=demo.egn"
    )


def test_help_says_the_file_is_optional(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    assert "Without FILE it replays the bundled demo game" in " ".join(capsys.readouterr().out.split())


def test_the_demo_is_a_legal_complete_game() -> None:
    """Every card follows suit from the hands the file deals (playerCards), and every hand is played out."""
    game = load_egn(demo_path())
    replay = import_egn(demo_path())
    m = replay.match
    assert m.game_over and m.score == (10, 8) and replay.warnings == []
    reasons = [d.reason for d in m.deals]
    assert {"lone_march", "march", "made", "euchre", "lone_euchre"} <= set(reasons)
    assert any(len(d.calls) == 8 for d in m.deals)  # a stuck dealer
    for parsed, record in zip(game.deals, m.deals, strict=True):
        assert parsed.player_cards is not None and record.up_card is not None
        hands = [list(h) for h in parsed.player_cards]
        dealt = [c for h in hands for c in h]
        assert len(dealt) == len(set(dealt)) == 20 and record.up_card not in dealt
        dealer = record.dealer
        played = [c for t in record.tricks for s, c in t if s == dealer]
        if record.round_made == 1 and dealer not in {(s + 2) % 4 for s in record.alone_seats}:
            hands[dealer].append(record.up_card)
            discard = record.discard
            if discard is None:  # unseen: the one card of the six the dealer never played
                (discard,) = [c for c in hands[dealer] if c not in played]
            hands[dealer].remove(discard)
        for trick in record.tricks:
            led: Card | None = None
            for seat, card in trick:
                assert card in legal_plays(hands[seat], led, record.trump), (record.number, seat, card)
                hands[seat].remove(card)
                led = led or card
        out = {(s + 2) % 4 for s in record.alone_seats}
        assert all(not hands[s] for s in range(4) if s not in out)


def test_json_is_one_object_as_the_design_says(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, str(EXAMPLES / "Six Points in Two Hands.egn"), "--json")
    assert status == 0
    obj = json.loads(out)  # the whole of standard output is the one object
    assert obj["final_score"] == [10, 9]
    first, second = obj["deals"]
    assert DEAL_KEYS | {"irregularities"} <= set(first)
    assert (first["dealer"], first["trump"], first["maker_seat"], first["alone_seats"]) == (0, "h", 2, [2])
    assert (first["trick_winners"], first["tricks_won"], first["points"]) == ([2, 2, 2, 2, 2], [5, 0], [4, 0])
    assert (second["trump"], second["points"], second["reneges"], second["irregularities"]) == ("d", [2, 0], [], [])
    assert err.splitlines()[-1].startswith("deals=2 final_score=10-9 ")


@pytest.mark.parametrize(
    ("name", "final"),
    [
        ("Custom Scenario.egn", [0, 1]),
        ("Epic Comeback.egn", [11, 9]),
        ("Quite the Hustle Annotated.egn", [10, 7]),
        ("Six Points in Two Hands.egn", [10, 9]),
    ],
)
def test_spec_examples(capsys: pytest.CaptureFixture[str], name: str, final: list[int]) -> None:
    status, out, _ = run_cli(capsys, str(EXAMPLES / name), "--json")
    assert status == 0 and json.loads(out)["final_score"] == final


def test_renege_in_json_and_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    egn = json.loads((EXAMPLES / "Custom Scenario.egn").read_text(encoding="utf-8"))
    # Spades are trump. North (seat 0) played the Ah to trick 1 (hearts led) and the Jd to trick 3. Swap
    # them: North shows out of hearts with the Jd in trick 1, and the Ah in trick 3 proves the renege.
    tricks = egn["deals"][0]["phases"][1]["tricks"]
    assert (tricks[0][3], tricks[2][1], tricks[3][2]) == ("Ah", "Jd", "Th")
    tricks[0][3], tricks[2][1] = "Jd", "Ah"
    path = tmp_path / "renege.egn"
    path.write_text(json.dumps(egn), encoding="utf-8")
    status, out, _ = run_cli(capsys, str(path), "--json")
    assert status == 0
    (deal,) = json.loads(out)["deals"]
    (renege,) = deal["reneges"]
    assert (renege["seat"], renege["suit"], renege["showed_out_trick"], renege["proof_trick"]) == (0, "h", 0, 2)
    assert deal["points"] == [0, 1]  # the table played on: the renege is on record, the score is the tricks'
    status, text, _ = run_cli(capsys, str(path))
    assert "  RENEGE: seat 0 (North) showed out of hearts in trick 1 (Jd on 9h led) but played Ah in trick 3" in text
    assert "reneges=1" in text.splitlines()[-1]


def test_a_match_log_replays_like_its_egn(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    replay = import_egn(EXAMPLES / "Quite the Hustle Annotated.egn")
    path = tmp_path / "table.jsonl"
    with MatchLog.create(
        path, replay.game.rules, first_dealer=replay.game.first_dealer, seats=["A", "B", "C", "D"]
    ) as log:
        for inp in replay.inputs:
            log.append(inp)
    with path.open("ab") as f:
        f.write(b'{"i": 999, "type": "Pl')  # the power failed during the last write
    status, out, err = run_cli(capsys, str(path), "--json")
    assert status == 0 and json.loads(out)["final_score"] == [10, 7]
    assert f"warning: {path}: line {len(replay.inputs) + 2}: skipped a torn last line" in err
    assert err.splitlines()[-1].endswith("warnings=1 file=table.jsonl")
    status, out, _ = run_cli(capsys, str(path))
    assert out.splitlines()[0] == "match log table.jsonl: 11 deal(s), starting at 0-0"
    assert "Team 0: A and C; team 1: B and D" in out


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "no such file"),
        ("dir", "is a directory"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not a text file"),
        (b"hello, world", "neither an EGN file nor a match log (not JSON"),
        (b'{"players": []}', 'fileType: not EGN (expected "Euchre Game Notation", found null)'),
        (
            b'{"fileType": "Euchre Game Notation", "version": "1.4", "deals": [{"initialState": {"dealer": 0}}]}',
            "deals[0].initialState.upCard: a card must be a string",
        ),
        (b'{"format": "euchre-table input log", "version": 7}\n', "line 1 (header): log version 7 is not supported"),
        (b'{"format":"euchre-table input log","vers', "line 1 (header): missing or torn"),
    ],
)
def test_bad_files_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes | str | None, problem: str
) -> None:
    path = tmp_path / "game.egn"
    if content == "dir":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    status, out, err = run_cli(capsys, str(path))
    assert status == 2 and out == ""
    assert err.count("\n") == 1, err
    assert err.startswith(f"euchre-table: error: {path}") and problem in err


def test_the_installed_command_exits_2_without_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.egn"
    bad.write_text('{"fileType": "Euchre Game Notation", "version": "1.4", "deals": [7]}', encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(bad)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == f"euchre-table: error: {bad}: deals[0]: a deal must be an object\n"


def test_a_byte_order_mark_is_fine(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bom.egn"
    path.write_bytes(b"\xef\xbb\xbf" + (EXAMPLES / "Custom Scenario.egn").read_bytes())
    status, out, _ = run_cli(capsys, str(path), "--json")
    assert status == 0 and json.loads(out)["final_score"] == [0, 1]
    assert load_egn(path).deals[0].up_card == Card.parse("Jc")
