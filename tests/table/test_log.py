"""The match log: format, durability (fsync before returning), and recovery from torn or corrupt lines."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from table.cards import Card, Suit
from table.inputs import (
    Discard,
    Input,
    NameTrump,
    NewGame,
    OrderUp,
    Pass,
    Play,
    ReviseCard,
    Undo,
    UpCard,
)
from table.log import LOG_FORMAT, LogError, MatchLog, is_log_text, load_match, read_log
from table.match import Match
from table.rules import Rules
from table.sim import simulate_game

RULES = Rules.preset("north_american").replace(stick_the_dealer=True)


def C(text: str) -> Card:
    return Card.parse(text)


# Dealer 0; seat 1 orders up hearts; the dealer discards unseen; one full trick and a card of the next.
OPENING: list[Input] = [
    UpCard(C("Th")),
    OrderUp(1),
    Discard(0, None),
    Play(1, C("Jh"), 0.93),
    Play(2, C("9h")),
    Play(3, C("Ah")),
    Play(0, C("Th")),
    Play(1, C("Jd")),
]


def new_log(tmp_path: Path, inputs: list[Input] = OPENING) -> Path:
    path = tmp_path / "match.jsonl"
    with MatchLog.create(path, RULES, first_dealer=0, score=(2, 3), created="2026-11-29T20:15:00Z") as log:
        for inp in inputs:
            log.append(inp)
    return path


def test_format_header_then_one_input_per_line(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    with MatchLog.create(path, RULES, first_dealer=3, created="t0", seats=["Ann", "Bo", "Cy", "Di"]) as log:
        assert log.append(Play(2, C("Jd"), 0.93), time=12.5, frame=311) == 0
        assert log.append(NameTrump(1, Suit.SPADES, alone=True)) == 1
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["format"] == LOG_FORMAT and header["version"] == 1
    assert header["rules"] == RULES.to_dict() and header["first_dealer"] == 3 and header["score"] == [0, 0]
    assert header["created"] == "t0" and header["seats"] == ["Ann", "Bo", "Cy", "Di"]
    assert is_log_text(lines[0]) and not is_log_text('{"fileType": "Euchre Game Notation"}')
    assert json.loads(lines[1]) == {
        "i": 0,
        "type": "Play",
        "seat": 2,
        "card": "Jd",
        "confidence": 0.93,
        "time": 12.5,
        "frame": 311,
    }
    assert json.loads(lines[2]) == {"i": 1, "type": "NameTrump", "seat": 1, "suit": "s", "alone": True}


def test_reopen_gives_back_every_input_and_the_header(tmp_path: Path) -> None:
    path = new_log(tmp_path)
    with MatchLog.open(path) as log:
        assert log.inputs == OPENING and log.warnings == []
        assert log.header.rules == RULES and log.header.score == (2, 3) and log.header.created == "2026-11-29T20:15:00Z"
        log.append(Play(2, C("Qh")))
    contents = read_log(path)
    assert contents.inputs == [*OPENING, Play(2, C("Qh"))]
    assert [e.i for e in contents.entries] == list(range(len(OPENING) + 1))


def test_append_fsyncs_before_returning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "m.jsonl"
    log = MatchLog.create(path, RULES)
    events: list[str] = []
    real_write, real_fsync = os.write, os.fsync

    def write(fd: int, data: bytes) -> int:
        events.append("write")
        return real_write(fd, data)

    def fsync(fd: int) -> None:
        events.append("fsync")
        real_fsync(fd)

    monkeypatch.setattr(os, "write", write)
    monkeypatch.setattr(os, "fsync", fsync)
    log.append(Pass(1))
    assert events == ["write", "fsync"]
    log.append(Pass(2))
    assert events == ["write", "fsync"] * 2
    log.close()


def test_a_failed_write_leaves_no_half_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "m.jsonl"
    log = MatchLog.create(path, RULES)
    log.append(UpCard(C("9c")))
    real_write = os.write

    def half_then_fail(fd: int, data: bytes) -> int:
        real_write(fd, bytes(data)[:7])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", half_then_fail)
    with pytest.raises(OSError):
        log.append(Pass(1))
    monkeypatch.undo()
    log.append(Pass(2))
    log.close()
    contents = read_log(path)
    assert contents.inputs == [UpCard(C("9c")), Pass(2)] and contents.warnings == []


def test_torn_last_line_is_skipped_with_one_warning_then_cut_off(tmp_path: Path) -> None:
    path = new_log(tmp_path)
    with path.open("ab") as f:
        f.write(b'{"i": 8, "type": "Play", "seat": 2, "ca')  # the power failed mid-write
    contents = read_log(path)
    assert contents.inputs == OPENING
    assert contents.warnings == [
        f"{path}: line 10: skipped a torn last line (39 bytes, no newline; cut off before it was saved)"
    ]
    assert path.read_bytes().endswith(b'"ca')  # reading alone changes nothing
    with MatchLog.open(path) as log:
        assert log.inputs == OPENING and len(log.warnings) == 1
        log.append(Play(2, C("Qh")))
    again = read_log(path)
    assert again.inputs == [*OPENING, Play(2, C("Qh"))] and again.warnings == []


def test_complete_json_without_newline_is_still_torn(tmp_path: Path) -> None:
    # It was never acknowledged: append returns only after the newline is on disk.
    path = new_log(tmp_path, OPENING[:2])
    with path.open("ab") as f:
        f.write(b'{"i":2,"type":"Discard","seat":0,"card":null}')
    assert read_log(path).inputs == OPENING[:2]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"%%garbage%%", "not JSON"),
        (b"\x00\x00\x00\x00\x00\x00", "NUL bytes"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"[1, 2, 3]", "not a JSON object"),
        (b'{"i": 3, "type": "Teleport", "seat": 1}', "unknown input type 'Teleport'"),
        (b'{"i": 3, "type": "Play", "seat": 1, "card": "Zq"}', "Play.card"),
        (b'[' * 1000, "nested deeper"),
        (b"", "not JSON"),
    ],
)
def test_corrupt_middle_line_is_skipped_and_the_lines_after_it_are_kept(
    tmp_path: Path, line: bytes, reason: str
) -> None:
    path = new_log(tmp_path)
    lines = path.read_bytes().split(b"\n")
    # lines[0] is the header; put the damaged line between inputs 2 and 3 (file line 4).
    damaged = b"\n".join([*lines[:3], line, *lines[3:]])
    path.write_bytes(damaged)
    contents = read_log(path)
    assert contents.inputs == OPENING
    assert len(contents.warnings) == 1
    assert contents.warnings[0].startswith(f"{path}: line 4: skipped a damaged line: ")
    assert reason in contents.warnings[0]


def test_lost_middle_input_keeps_the_rest_and_revisions_follow_their_target(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    with MatchLog.create(path, RULES) as log:
        for inp in OPENING:
            log.append(inp)
        log.append(ReviseCard(index=4, card=C("Ts"), confidence=0.594, rival=C("9h")))  # the camera's Ts, in doubt
        log.append(ReviseCard(index=1, card=C("Ah")))  # an input with no card: the engine refuses it
    lines = path.read_bytes().split(b"\n")
    lines[2] = b"#" + lines[2][1:]  # damage input i=1 (OrderUp): file line 3
    path.write_bytes(b"\n".join(lines))
    contents = read_log(path)
    assert contents.inputs[:3] == [OPENING[0], OPENING[2], OPENING[3]]
    # The revision named i=4, now at position 3: translated, still in doubt.
    assert contents.inputs[-1] == ReviseCard(index=3, card=C("Ts"), confidence=0.594, rival=C("9h"))
    assert [w.split(": skipped")[0] for w in contents.warnings] == [f"{path}: line 3", f"{path}: line 11"]
    assert "not in the log" in contents.warnings[1]


def test_revise_card_is_written_with_the_file_index(tmp_path: Path) -> None:
    path = new_log(tmp_path)
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join([lines[0], b"garbage", *lines[1:]]))
    with MatchLog.open(path) as log:
        assert log.inputs == OPENING
        log.append(ReviseCard(index=4, card=C("Ts")))  # position 4 = file i 4
        log.append(ReviseCard(index=4, card=C("Th"), confidence=0.594, rival=C("Ts")))  # the camera's, in doubt
        log.append(Undo())
    raw = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(raw[-3]) == {"i": 8, "type": "ReviseCard", "index": 4, "card": "Ts"}
    doubted = {"i": 9, "type": "ReviseCard", "index": 4, "card": "Th", "confidence": 0.594, "rival": "Ts"}
    assert json.loads(raw[-2]) == doubted
    match, warnings = load_match(path)
    assert len(warnings) == 1 and "line 2" in warnings[0]
    in_doubt = ReviseCard(index=4, card=C("Th"), confidence=0.594, rival=C("Ts"))
    assert match.history == (*OPENING, ReviseCard(index=4, card=C("Ts")), in_doubt, Undo())


def test_header_damage_is_a_log_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_bytes(b"")
    with pytest.raises(LogError, match="m.jsonl: line 1 \\(header\\): missing or torn"):
        read_log(path)
    path.write_bytes(b'{"format": "euchre-table input log", "vers')
    with pytest.raises(LogError, match="missing or torn"):
        read_log(path)
    path.write_bytes(b'{"fileType": "Euchre Game Notation"}\n')
    with pytest.raises(LogError, match="not a match log"):
        read_log(path)
    path.write_bytes(json.dumps({"format": LOG_FORMAT, "version": 1, "rules": {"deck_size": 23}}).encode() + b"\n")
    with pytest.raises(LogError, match="bad rules: .*deck_size"):
        read_log(path)
    with pytest.raises(LogError, match="nope.jsonl: no such file"):
        read_log(tmp_path / "nope.jsonl")


def test_create_refuses_an_existing_log_and_open_or_create_resumes(tmp_path: Path) -> None:
    path = new_log(tmp_path)
    with pytest.raises(FileExistsError):
        MatchLog.create(path, RULES)
    with MatchLog.open_or_create(path, Rules.preset("british")) as log:
        assert log.header.rules == RULES and log.inputs == OPENING
    with MatchLog.open_or_create(tmp_path / "fresh.jsonl", RULES, first_dealer=2) as log:
        assert log.inputs == [] and log.header.first_dealer == 2


def test_load_match_is_the_fold_of_the_inputs(tmp_path: Path) -> None:
    game = simulate_game(RULES, seed=11, renege_rate=0.1)
    inputs = [*game.inputs, NewGame(first_dealer=1, score=(0, 0)), UpCard(C("9d")), Pass(2), Undo()]
    path = tmp_path / "m.jsonl"
    with MatchLog.create(path, RULES, first_dealer=game.first_dealer) as log:
        for inp in inputs:
            log.append(inp)
        live, refused = log.match()
    loaded, warnings = load_match(path)
    direct = Match.replay(RULES, inputs, game.first_dealer)
    assert warnings == [] and refused == []
    assert loaded.history == direct.history == live.history
    assert loaded.score == direct.score and loaded.expected == direct.expected
    assert [d.to_json() for d in loaded.deals] == [d.to_json() for d in direct.deals]


@pytest.mark.parametrize("seed", range(8))
def test_random_garbage_and_torn_bytes_never_lose_good_lines(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    game = simulate_game(RULES, seed=seed)
    script = list(game.inputs[:40])
    path = tmp_path / "m.jsonl"
    expected: list[Input] = []
    damage = 0
    MatchLog.create(path, RULES, first_dealer=game.first_dealer).close()
    for k in range(0, len(script), 8):
        with MatchLog.open(path) as log:
            for inp in script[k : k + 8]:
                log.append(inp)
                expected.append(inp)
        # A power cut: random bytes (maybe with newlines, maybe none at the end) land after the good lines.
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
        if rng.random() < 0.5:
            junk = junk.replace(b"\n", b"") + b"\n"  # a whole damaged line
        with path.open("ab") as f:
            f.write(junk)
        damage += 1
        contents = read_log(path)
        assert contents.inputs == expected
        assert contents.warnings, "damage must be reported"
        assert all(w.startswith(f"{path}: line ") for w in contents.warnings)
    final = read_log(path)
    assert final.inputs == expected
    assert 1 <= len(final.warnings) <= damage * 60
