"""Reading a log by templates (lines that differ only in "i" and "frame") finds exactly what reading each
line in full finds: the same entries, the same warnings, for good lines and every kind of damaged one."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import table.log as log_module
from table.cards import Card
from table.inputs import Discard, Input, OrderUp, Pass, Play, ReviseCard, UpCard
from table.log import LogContents, MatchLog, load_match, read_log
from table.rules import Rules

RULES = Rules.preset("north_american").replace(stick_the_dealer=True)


def C(text: str) -> Card:
    return Card.parse(text)


INPUTS: list[Input] = [
    UpCard(C("Th")),
    Pass(1),
    Pass(2),
    OrderUp(3),
    Discard(0, None),
    Play(1, C("Jh")),
    Play(2, C("9h")),
    Play(3, C("Ah")),
    Play(0, C("Th"), 0.93),
    Play(1, C("Jd")),
    ReviseCard(8, C("Qh")),
    Play(2, C("9d")),
]


def write_log(tmp_path: Path, name: str = "match.jsonl") -> Path:
    """A log as the app writes it: every input with its frame and where it came from."""
    path = tmp_path / name
    with MatchLog.create(path, RULES, created="t0") as match_log:
        for k, inp in enumerate(INPUTS * 3):
            match_log.append(inp, frame=10 * k + 7, meta={"src": "camera" if k % 3 else "button"})
    return path


def summary(contents: LogContents) -> tuple[object, ...]:
    entries = [(e.i, e.input, e.time, type(e.frame), e.frame, e.meta, e.line) for e in contents.entries]
    return entries, contents.warnings, contents.next_i, contents.lines, contents.torn_tail_offset


def read_in_full(path: Path, monkeypatch: pytest.MonkeyPatch) -> LogContents:
    """What the reader finds with no template trusted (each line parsed in full)."""
    with monkeypatch.context() as m:
        m.setattr(log_module, "_TEMPLATES_MAX", 0)
        return read_log(path)


def with_line(path: Path, lineno: int, line: bytes) -> None:
    lines = path.read_bytes().split(b"\n")
    lines[lineno - 1] = line
    path.write_bytes(b"\n".join(lines))


def test_a_clean_log_reads_the_same_and_shares_repeated_inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_log(tmp_path)
    fast = read_log(path)
    assert summary(fast) == summary(read_in_full(path, monkeypatch))
    assert fast.warnings == []
    assert [e.frame for e in fast.entries] == [10 * k + 7 for k in range(len(INPUTS) * 3)]
    plays = [e.input for e in fast.entries if e.input == Play(1, C("Jh"))]
    assert len(plays) == 3 and plays[0] is plays[1] is plays[2]  # one parse per template


DAMAGED_LINES = [
    b'{"i":07,"type":"Pass","seat":1,"frame":37,"meta":{"src":"camera"}}',  # a leading zero: not JSON
    b'{"i":3,"type":"Pass","seat":1,"frame":037,"meta":{"src":"camera"}}',
    b'{"i":-3,"type":"Pass","seat":1,"frame":37,"meta":{"src":"camera"}}',  # kept, but cannot be revised
    b'{"i":3 ,"type":"Pass","seat":1,"frame":37,"meta":{"src":"camera"}}',  # spaces are JSON
    b'{"i":3,"type":"Pass","seat":1,"frame": 37,"meta":{"src":"camera"}}',
    b'{"i":1_0,"type":"Pass","seat":1,"frame":37,"meta":{"src":"camera"}}',
    b'{"i":+3,"type":"Pass","seat":1,"frame":37,"meta":{"src":"camera"}}',
    b'{"i":3.0,"type":"Pass","seat":1,"frame":37,"meta":{"src":"camera"}}',
    b'{"i":3,"type":"Pass","seat":1,"frame":3e1,"meta":{"src":"camera"}}',
    b'{"i":' + b"7" * 5000 + b',"type":"Pass","seat":1,"frame":37,"meta":{"src":"camera"}}',  # past int's digits
    b'{"i":' + b"7" * 4000 + b',"type":"Pass","seat":1,"frame":37,"meta":{"src":"camera"}}',  # a huge number
    b'{"i":3,"type":"Pass","seat":1,"i":1,"frame":37,"meta":{"src":"camera"}}',  # a second "i" wins
    b'{"i":3,"type":"Pass","seat":1,"frame":37,"meta":{"src":"camera"},"frame":5}',  # a second "frame" wins
    b'{"i":3,"type":"Pass","seat":1,"meta":{"src":"camera","frame":37}}',  # "frame" only in the metadata
    b'{"i":3,"type":"Pass","seat":1,"frame":37,"meta":{"src":{"deep":[1]}}}',
    b'{"i":3,"type":"Pass","seat":1,"frame":37,"meta":{"src":"camera"}}   ',
    b'{"i":3,"type":"Pass","seat":1,"frame":37,"meta":{"src":"camera"}}{}',  # a lost newline
    b'{"i":3,"type":"Pass","seat":1,"frame":37,"meta":{"src":"cam\x00era"}}',
    b'{"i":3,"type":"Pass","seat":1,"frame":37,"meta":{"src":"cam\xffera"}}',
    b'{"i":3,"type":"Pass","seat":7,"frame":37,"meta":{"src":"camera"}}',
    b'{"i":3,"type":"Pass","seat":1,"frame":37}',
    b'{"i":3,"type":"Pass","seat":1,"frame":37,"time":1.5,"meta":{"src":"camera"}}',
    b'{"i":3,"type":"Pass","seat":1,"frame":-37,"meta":{"src":"camera"}}',
    b'{"i":3,"type":"ReviseCard","index":99,"card":"Qh","frame":37,"meta":{"src":"camera"}}',
    b'{"i":3,"type":"ReviseCard","index":1,"card":"Qh","frame":37,"meta":{"src":"camera"}}',
    b'{"i":3,"type":"Pass","seat":1,"frame":37,"meta":{"src":"camera"}',
    b'[{"i":3,"type":"Pass","seat":1,"frame":37,"meta":{"src":"camera"}}]',
    b"",
]


@pytest.mark.parametrize("line", DAMAGED_LINES, ids=range(len(DAMAGED_LINES)))
@pytest.mark.parametrize("where", [3, 20, 38])
def test_an_odd_line_reads_as_in_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: bytes, where: int) -> None:
    path = write_log(tmp_path)
    with_line(path, where, line)
    assert summary(read_log(path)) == summary(read_in_full(path, monkeypatch))


def test_a_line_over_the_limit_reads_as_in_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_log(tmp_path)
    with_line(path, 9, b'{"i":8,"type":"Pass","seat":1,"frame":1,"meta":{"x":"' + b"a" * 70_000 + b'"}}')
    fast = read_log(path)
    assert summary(fast) == summary(read_in_full(path, monkeypatch))
    assert any("line 9" in w for w in fast.warnings)


def test_more_templates_than_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_log(tmp_path)
    full = summary(read_in_full(path, monkeypatch))
    monkeypatch.setattr(log_module, "_TEMPLATES_MAX", 3)
    assert summary(read_log(path)) == full
    match, warnings = load_match(path)
    assert warnings == [] and len(match) == len(INPUTS) * 3


def test_random_damage_reads_as_in_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bytes changed, dropped or doubled anywhere in a log: whatever survives is found by both readers."""
    clean = write_log(tmp_path).read_bytes()
    header_end = clean.index(b"\n") + 1
    rng = random.Random(17)
    alphabet = b'0123456789,:"{}[] -.eE+_\x00\xff\nix'
    path = tmp_path / "damaged.jsonl"
    for _ in range(300):
        data = bytearray(clean)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(header_end, len(data))
            kind = rng.random()
            if kind < 0.6:
                data[at] = rng.choice(alphabet)
            elif kind < 0.8:
                del data[at]
            else:
                data[at:at] = data[at : at + rng.randint(1, 3)]
        path.write_bytes(bytes(data))
        assert summary(read_log(path)) == summary(read_in_full(path, monkeypatch)), bytes(data)


def test_lines_that_never_repeat_read_as_in_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A scripted run numbers each press in its metadata: no template repeats, and few are learnt."""
    path = tmp_path / "scripted.jsonl"
    with MatchLog.create(path, RULES, created="t0") as match_log:
        for k, inp in enumerate(INPUTS * 20):
            meta = {"src": "button", "script": k} if k % 2 else {"src": "camera"}
            match_log.append(inp, frame=k, meta=meta)
    learnt: list[int] = []
    real = log_module._learn_template

    def counting(*args: object, **kwargs: object) -> object:
        learnt.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    fast = summary(read_log(path))
    monkeypatch.setattr(log_module, "_learn_template", counting)
    assert summary(read_log(path)) == fast == summary(read_in_full(path, monkeypatch))
    assert len(learnt) < len(INPUTS) * 20  # not one per line
