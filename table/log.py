"""The append-only match log: every input as a JSON line, fsynced before its announcement is shown.

The match state is a pure fold over the inputs, so this file is the only state
that must survive a power cut. Format (JSON lines, UTF-8)::

    {"format": "euchre-table input log", "version": 1, "created": "2026-11-29T20:15:00Z",
     "rules": {...Rules.to_dict()...}, "first_dealer": 0, "score": [0, 0], "seats": ["Ann", "Bo", "Cy", "Di"]}
    {"i": 0, "type": "UpCard", "card": "Jd", "confidence": 1.0}
    {"i": 1, "type": "Pass", "seat": 1, "time": 12.5, "frame": 311}
    {"i": 2, "type": "Play", "seat": 2, "card": "Jd", "confidence": 0.93}

- Line 1 is the header, written atomically (temporary file, fsync, rename) when
  the log is created; ``created`` and ``seats`` are whatever the caller passed.
- Each later line is one input (``table.codec``) plus ``"i"``, its index in this
  file, and optional caller metadata ``"time"``, ``"frame"`` and ``"meta"``.
  ``"i"`` counts up from 0 and never repeats. A ``ReviseCard`` names the input it
  corrects by that ``"i"``; in memory it names the input's position in
  :attr:`MatchLog.inputs`. The two differ only after a damaged line was skipped,
  and the log translates between them both ways.
- :meth:`MatchLog.append` writes the whole line with one ``write``, then
  ``fsync``, before it returns: an input the caller saw acknowledged is on disk.

Recovery when a log is read (never fatal, never loses the lines before a fault):

- A **torn last line** (no final newline: the power failed mid-write, so it was
  never acknowledged) is skipped with a warning; :meth:`MatchLog.open` also
  truncates it so the next append starts on a clean line.
- A **corrupt line** anywhere (not JSON, not an object, unknown type, bad card,
  NUL bytes from a file system that lost the data, nesting deeper than
  ``table.limits.MAX_DEPTH`` or a line over ``MAX_LINE_BYTES``) is skipped with
  one warning naming the file and line number. The lines **after** it are kept:
  each input is a separate fact, and losing one bid or card is better than
  losing the rest of the game. A ``ReviseCard`` of a skipped input is skipped
  too (with its own warning).
- A **damaged number**: an ``"i"`` that jumps ahead, repeats or goes back is a
  warning, never a reason to drop the line or the lines after it (its input is
  still readable). A ``ReviseCard`` names the latest line holding the number it
  gives; a line whose ``"i"`` is not an integer at all is kept too, and cannot
  be revised. New lines are numbered after the highest ``"i"`` in the file.
- A missing or damaged **header** makes the file unusable (:class:`LogError`):
  without the rules and the first dealer nothing can be replayed.
- Folding (:func:`load_match`): an input the engine refuses as malformed
  (``EngineError``: a ``ReviseCard`` of an input without a card...) is skipped
  with a warning too. Table events that break the rules are never refused:
  the engine records them as irregularities.

Positions: ``MatchLog.inputs[k]`` is ``Match.history[k]`` of the match folded
from the log (unless folding refused an input), so a ``ReviseCard`` the app
builds from its match can be appended as it is.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from table.cards import Card, CardParseError
from table.codec import input_from_dict, input_to_dict
from table.durable import fsync_dir
from table.inputs import Input, Play, ReviseCard
from table.limits import MAX_DEPTH, LimitError, check_regular_file, loads_json, paused_gc
from table.match import EngineError, Match
from table.rules import Rules, RulesError

__all__ = [
    "LOG_FORMAT",
    "LOG_VERSION",
    "DamagedLogError",
    "LogContents",
    "LogEntry",
    "LogError",
    "LogHeader",
    "MatchLog",
    "is_log_text",
    "fold_entries",
    "load_match",
    "read_log",
]

LOG_FORMAT = "euchre-table input log"
LOG_VERSION = 1
MAX_LINE_BYTES = 64 * 1024  # a line the product writes is about 100 bytes; the header under 2 KiB
_META_KEYS = frozenset({"i", "time", "frame", "meta"})


class LogError(ValueError):
    """A file that cannot be used as a match log at all (missing, or its header is damaged)."""


class DamagedLogError(LogError):
    """A file that was read, but whose header is not a match log's (damaged, or another kind of file)."""


@dataclass(frozen=True)
class LogHeader:
    """The first line: what is needed to replay the inputs."""

    rules: Rules
    first_dealer: int = 0
    score: tuple[int, int] = (0, 0)
    created: Any = None  # JSON value given by the caller (an ISO time, usually)
    seats: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": LOG_FORMAT,
            "version": LOG_VERSION,
            "created": self.created,
            "rules": self.rules.to_dict(),
            "first_dealer": self.first_dealer,
            "score": [self.score[0], self.score[1]],
            "seats": None if self.seats is None else list(self.seats),
        }


@dataclass(slots=True)
class LogEntry:
    """One input line as read back: the file index ``i`` and the caller's metadata.

    Read-only by convention: not frozen, because a frozen dataclass is five times slower to build, and
    resuming a long night builds one per input. Entries read from one file may share their ``input`` and
    ``meta`` objects (lines that differ only in "i" and "frame").
    """

    i: int
    input: Input
    time: Any = None
    frame: Any = None
    meta: Any = None
    line: int = 0  # 1-based line number in the file (0: not read from a file)


@dataclass
class LogContents:
    """Everything a log holds after recovery. ``inputs[k]`` is ``entries[k].input``."""

    path: Path
    header: LogHeader
    entries: list[LogEntry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    torn_tail_offset: int | None = None  # byte offset where a torn last line starts
    next_i: int = 0
    lines: int = 1  # complete lines in the file, the header included

    @property
    def inputs(self) -> list[Input]:
        return [e.input for e in self.entries]


def is_log_text(first_line: str) -> bool:
    """True when ``first_line`` looks like this log's header (for telling a log from an EGN file)."""
    try:
        obj = loads_json(first_line, max_bytes=MAX_LINE_BYTES)
    except LimitError:
        return False
    except ValueError:
        # A header cut short is still recognisably a log's (read_log then says what is wrong with it).
        return first_line.startswith(f'{{"format":"{LOG_FORMAT}"')
    return isinstance(obj, dict) and obj.get("format") == LOG_FORMAT


def _parse_header(path: Path, raw: bytes) -> LogHeader:
    where = f"{path}: line 1 (header)"
    try:
        obj = loads_json(raw.decode("utf-8"), max_bytes=MAX_LINE_BYTES)
    except LimitError as exc:
        raise DamagedLogError(f"{where}: {exc}; this is not a match log or its header is damaged") from None
    except (UnicodeDecodeError, ValueError):
        raise DamagedLogError(f"{where}: not JSON; this is not a match log or its header is damaged") from None
    if not isinstance(obj, dict) or obj.get("format") != LOG_FORMAT:
        raise DamagedLogError(f'{where}: not a match log (expected "format": "{LOG_FORMAT}")')
    version = obj.get("version")
    if isinstance(version, bool) or version != LOG_VERSION:
        raise LogError(
            f"{where}: log version {json.dumps(version)} is not supported (expected the integer {LOG_VERSION})"
        )
    rules_obj = obj.get("rules")
    if not isinstance(rules_obj, dict):
        raise DamagedLogError(f'{where}: "rules" must be an object')
    try:
        rules = Rules.from_dict(rules_obj)
    except (RulesError, TypeError, ValueError) as exc:
        raise DamagedLogError(f"{where}: bad rules: {exc}") from None
    dealer = obj.get("first_dealer", 0)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer <= 3:
        raise DamagedLogError(f'{where}: "first_dealer" must be a seat 0-3, not {dealer!r}')
    score = obj.get("score", [0, 0])
    if (
        not isinstance(score, list)
        or len(score) != 2
        or any(isinstance(s, bool) or not isinstance(s, int) for s in score)
    ):
        raise DamagedLogError(f'{where}: "score" must be a list of two integers, not {score!r}')
    seats = obj.get("seats")
    if seats is not None and (not isinstance(seats, list) or not all(isinstance(s, str) for s in seats)):
        raise DamagedLogError(f'{where}: "seats" must be null or a list of names')
    return LogHeader(
        rules=rules,
        first_dealer=dealer,
        score=(score[0], score[1]),
        created=obj.get("created"),
        seats=None if seats is None else tuple(seats),
    )


_NO_I = -1  # LogEntry.i of a line whose "i" was damaged: kept, but no ReviseCard can name it


def _parse_entry(raw: bytes, lineno: int) -> LogEntry:
    """One input line; raises ValueError (CodecError, LimitError) saying what is wrong with it.

    The ``"i"`` is checked against its neighbours by the caller: a damaged number never loses the input.
    """
    if b"\x00" in raw:
        raise ValueError("NUL bytes (data lost by the file system)")
    try:
        obj = loads_json(raw.decode("utf-8"), max_bytes=MAX_LINE_BYTES)
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    except LimitError:
        raise
    except ValueError as exc:
        raise ValueError(f"not JSON ({exc.args[0] if exc.args else exc})") from None
    return _entry_from(obj, lineno)


def _entry_from(obj: Any, lineno: int) -> LogEntry:
    """The entry a parsed line holds; raises ValueError (CodecError) saying what is wrong with it."""
    if not isinstance(obj, dict):
        raise ValueError(f"not a JSON object but {type(obj).__name__}")
    i = obj.get("i")
    inp: Input | None = _fast_play(obj)
    if inp is None:
        inp = input_from_dict(obj, ignore=_META_KEYS)
    if isinstance(i, bool) or not isinstance(i, int) or i < 0:
        i = _NO_I
    return LogEntry(i=i, input=inp, time=obj.get("time"), frame=obj.get("frame"), meta=obj.get("meta"), line=lineno)


_PLAY_KEYS = frozenset({"type", "seat", "card", "confidence"}) | _META_KEYS


def _fast_play(obj: dict[str, Any]) -> Play | None:
    """The most common line, a well-formed ``Play``, without the general decoder (None: decode it in full).

    Accepts exactly what ``input_from_dict`` accepts for such a line, and builds the same input.
    """
    if obj.get("type") != "Play" or not obj.keys() <= _PLAY_KEYS:
        return None
    seat, text, confidence = obj.get("seat"), obj.get("card"), obj.get("confidence", 1.0)
    if type(seat) is not int or not 0 <= seat <= 3 or type(text) is not str:
        return None
    if type(confidence) is not float or not 0.0 <= confidence <= 1.0:
        return None
    try:
        card = Card.parse(text)
    except CardParseError:
        return None
    return Play(seat, card, confidence)


def _number_warning(entry: LogEntry, previous_i: int | None, raw_i: object) -> str | None:
    """What is odd about a kept line's ``"i"`` (None: it counts up by one from the line before)."""
    if entry.i == _NO_I:
        return f'"i" must be a whole number, not {json.dumps(raw_i)}; the input is kept (it cannot be revised)'
    expected = 0 if previous_i is None else previous_i + 1
    if entry.i == expected:
        return None
    if previous_i is not None and entry.i <= previous_i:
        what = "repeats" if entry.i == previous_i else "goes back"
        return f'"i" = {entry.i} {what} after {previous_i}; the input is kept'
    return f'"i" jumps from {previous_i if previous_i is not None else "the start"} to {entry.i}; the input is kept'


def _raw_i(raw: bytes) -> object:
    try:
        obj = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    return obj.get("i") if isinstance(obj, dict) else None


def _parse_at_once(body: list[bytes]) -> list[Any] | None:
    """Every line parsed by one ``json.loads`` (a long log resumes several times faster), or None when any
    line is not plainly one JSON value within the limits: then each line is parsed, and judged, alone."""
    if not body or max(map(len, body)) > MAX_LINE_BYTES:
        return None
    joined = b"[" + b",".join(body) + b"]"
    if b"\x00" in joined:
        return None
    try:
        text = joined.decode("utf-8")
        for raw in body:
            if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH - 1:
                return None
        objs = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(objs, list) or len(objs) != len(body):
        return None  # a line holding two values (a lost newline), or none
    return objs


# Lines that differ only in their numbers. MatchLog.append writes ``{"i":N,`` then the input's fields, then
# ``"frame":F`` and the metadata: in a long night most lines repeat an earlier one but for N and F (the same
# bid, the same card from the same seat). A line is split at those two numbers; the rest of its bytes (the
# "template") is parsed and checked once, with the full checks, and every later line with the same template
# reuses what that found. The template is trusted only after the line was parsed again with both numbers
# changed and gave the same input and metadata, with "i" and "frame" following the numbers: so the two are
# the only values they can change (no second "i" later on the line, no "frame" inside a string). A line
# that fits no trusted template is parsed in full, as before.
_I_OPEN = b'{"i":'
_FRAME_KEY = b',"frame":'
_TEMPLATES_MAX = 4096  # distinct templates per file (a few hundred in practice: seats x cards, bids)
_ATOMIC = (str, int, float, bool, type(None))
# One template's findings: the input, "time" and "meta", shared by every line that has it (entries are
# read-only; an input is immutable, and "meta" holds plain values only).
_Template = tuple[Input, Any, Any]


def _worth_learning(templates: int, hits: int) -> bool:
    """Whether to learn one more template, with ``templates`` learnt and ``hits`` lines read by them so far.

    Learning costs three parses of a line where reading it alone costs one: past the first few, a template
    is learnt only while they are paying off (a scripted run numbers each button press in its metadata, so
    those lines never repeat)."""
    return templates < _TEMPLATES_MAX and (templates < 64 or hits >= 8 * templates)


def _number_token(digits: bytes) -> bool:
    """Whether ``digits`` is a JSON whole number as MatchLog writes them (no sign, no leading zero, 18 digits
    at most: far below Python's limit on the digits of an int)."""
    return digits.isdigit() and len(digits) <= 18 and (digits[0] != 48 or len(digits) == 1)


def _learn_template(raw: bytes, c: int, f: int, e: int, lineno: int) -> tuple[LogEntry, _Template] | None:
    """Parse ``raw`` in full (``c``: the comma after "i", ``f``: the ``,"frame":``, ``e``: the end of the
    frame number), and once more with other numbers; its entry and its template when both agree."""
    i_digits, f_digits = raw[5:c], raw[f + len(_FRAME_KEY) : e]
    if not (_number_token(i_digits) and _number_token(f_digits)):
        return None
    other_i = b"1" if i_digits == b"0" else b"0"
    other_f = b"1" if f_digits == b"0" else b"0"
    try:
        first = _parse_entry(raw, lineno)
        second = _parse_entry(raw[:5] + other_i + raw[c : f + len(_FRAME_KEY)] + other_f + raw[e:], lineno)
    except ValueError:
        return None  # a damaged line: judged alone
    time, meta = first.time, first.meta
    if not (
        first.i == int(i_digits)
        and second.i == int(other_i)
        and type(first.frame) is int
        and type(second.frame) is int
        and first.frame == int(f_digits)
        and second.frame == int(other_f)
        and type(first.input) is type(second.input)
        and first.input == second.input
        and type(time) in _ATOMIC
        and type(time) is type(second.time)
        and time == second.time
        and (type(meta) in _ATOMIC or (type(meta) is dict and all(type(v) in _ATOMIC for v in meta.values())))
        and type(meta) is type(second.meta)
        and meta == second.meta
    ):
        return None
    return first, (first.input, time, meta)


def _decode_lines(body: list[bytes]) -> tuple[list[LogEntry | ValueError], bool]:
    """Each line's entry, or the error that says what is wrong with it (line numbers from 2: after the header);
    and whether any is a revision (a ReviseCard)."""
    out: list[LogEntry | ValueError | None] = []
    missed: list[int] = []  # positions in ``body`` of the lines no template fits
    templates: dict[tuple[bytes, bytes], _Template | None] = {}  # None: a template that cannot be trusted
    get = templates.get
    append = out.append
    i_open, frame_key = _I_OPEN, _FRAME_KEY
    if body and max(map(len, body)) > MAX_LINE_BYTES:
        body_fast: list[bytes] = []  # a line too long: every line is judged alone
        missed = list(range(len(body)))
        out = [None] * len(body)
    else:
        body_fast = body
    revises = False
    learned = 0  # lines parsed to learn a template (the rest of ``out`` so far: hits, and None for misses)
    lineno = 1
    for raw in body_fast:
        lineno += 1
        c = raw.find(b",", 5)
        f = raw.find(frame_key, c)  # (-1 when c is: too short to hold it)
        if f > 0 and raw.startswith(i_open):
            e = raw.find(b",", f + 9)
            if e < 0:
                e = len(raw) - 1
            key = (raw[c:f], raw[e:])
            known = get(key)
            if known is not None:
                i_digits = raw[5:c]
                f_digits = raw[f + 9 : e]
                # Whole numbers as JSON writes them: digits, no leading zero (int() refuses over 4,300 digits).
                if (
                    i_digits.isdigit()
                    and f_digits.isdigit()
                    and (i_digits[0] != 48 or len(i_digits) == 1)
                    and (f_digits[0] != 48 or len(f_digits) == 1)
                ):
                    try:
                        append(LogEntry(int(i_digits), known[0], known[1], int(f_digits), known[2], lineno))
                        continue
                    except ValueError:
                        pass
            elif key not in templates and _worth_learning(len(templates), len(out) - len(missed) - learned):
                learnt = _learn_template(raw, c, f, e, lineno)
                templates[key] = None if learnt is None else learnt[1]
                learned += 1
                if learnt is not None:
                    revises = revises or type(learnt[0].input) is ReviseCard  # (a hit repeats a learnt input)
                    append(learnt[0])
                    continue
        missed.append(lineno - 2)
        append(None)
    if missed:
        rest = [body[k] for k in missed]
        parsed = _parse_at_once(rest)
        for n, k in enumerate(missed):
            try:
                entry = _parse_entry(rest[n], k + 2) if parsed is None else _entry_from(parsed[n], k + 2)
            except ValueError as exc:  # (CodecError and LimitError too)
                out[k] = exc
            else:
                revises = revises or type(entry.input) is ReviseCard
                out[k] = entry
    return out, revises  # type: ignore[return-value]  # (no None is left)


def _numbered_in_order(decoded: list[LogEntry | ValueError], revises: bool) -> list[LogEntry] | None:
    """The entries, when every line was read and numbered 0, 1, 2... and every revision names a line before
    it: the common case, where each "i" is the entry's position and there is nothing to warn about. None
    otherwise (then each line is judged in turn)."""
    try:
        numbers = [e.i for e in decoded]  # type: ignore[union-attr]  # (AttributeError: a damaged line)
    except AttributeError:
        return None
    if numbers != list(range(len(decoded))):
        return None
    entries: list[LogEntry] = decoded  # type: ignore[assignment]  # (all are entries)
    if revises:
        for k, inp in enumerate(e.input for e in entries):
            if type(inp) is ReviseCard and not (type(inp.index) is int and 0 <= inp.index < k):
                return None
    return entries


def read_log(path: str | os.PathLike[str]) -> LogContents:
    """Read a log and recover what it holds (see the module docstring); the file is not changed."""
    with paused_gc():
        return _read_log(path)


def _read_log(path: str | os.PathLike[str]) -> LogContents:
    p = Path(path)
    try:
        check_regular_file(p)
        data = p.read_bytes()
    except LimitError as exc:
        raise LogError(f"{p}: {exc}") from None
    except FileNotFoundError:
        raise LogError(f"{p}: no such file") from None
    except OSError as exc:
        raise LogError(f"{p}: cannot read: {exc.strerror or exc}") from None
    lines = data.split(b"\n")
    # The segment after the last newline is b"" for a clean file, else a torn line.
    torn = lines.pop()
    if not lines:
        raise DamagedLogError(f"{p}: line 1 (header): missing or torn; this log has no usable header")
    contents = LogContents(path=p, header=_parse_header(p, lines[0]))
    previous_i: int | None = None  # the "i" of the last line kept
    highest_i = -1
    skipped = False  # the line before was skipped (its number is not missing by accident)
    position_of_i: dict[int, int] = {}  # the latest line holding each number
    body = lines[1:]
    entries = contents.entries
    warnings = contents.warnings
    expected_i = 0  # previous_i + 1 (0 before any)
    decoded, revises = _decode_lines(body)
    quick = _numbered_in_order(decoded, revises)
    if quick is not None:
        entries += quick
        highest_i = len(quick) - 1
        decoded = []
    for lineno, entry in enumerate(decoded, start=2):
        if type(entry) is not LogEntry:
            warnings.append(f"{p}: line {lineno}: skipped a damaged line: {entry}")
            skipped = True
            continue
        if type(entry.input) is ReviseCard:
            target = entry.input.index
            if target not in position_of_i:
                warnings.append(
                    f"{p}: line {lineno}: skipped a damaged line: revises input i={target}, which is not in the log"
                )
                skipped = True
                continue
            entry = dataclasses.replace(entry, input=dataclasses.replace(entry.input, index=position_of_i[target]))
        i = entry.i
        if i != expected_i:  # (the common case: counting up by one)
            odd = _number_warning(entry, previous_i, _raw_i(body[lineno - 2]) if i == _NO_I else i)
            if odd is not None and not (skipped and i > (previous_i if previous_i is not None else -1)):
                warnings.append(f"{p}: line {lineno}: {odd}")
        skipped = False
        if i != _NO_I:
            previous_i = i
            expected_i = i + 1
            if i > highest_i:
                highest_i = i
            position_of_i[i] = len(entries)
        entries.append(entry)
    if torn:
        contents.torn_tail_offset = len(data) - len(torn)
        warnings.append(
            f"{p}: line {len(lines) + 1}: skipped a torn last line ({len(torn)} bytes, no newline; "
            "cut off before it was saved)"
        )
    contents.next_i = highest_i + 1
    contents.lines = len(lines)
    return contents


class MatchLog:
    """An open log to append inputs to. Use :meth:`create` for a new game, :meth:`open` to resume.

    ``inputs`` are the inputs so far (recovered ones first), ``warnings`` what
    recovery skipped. Appending is the only write; each append is durable on return.
    """

    def __init__(self, path: Path, fd: int, contents: LogContents) -> None:
        self.path = path
        self._fd: int | None = fd
        self.header = contents.header
        self.entries: list[LogEntry] = list(contents.entries)
        self.warnings: list[str] = list(contents.warnings)
        self._next_i = contents.next_i
        self._lines = contents.lines
        self._good_size: int | None = None  # the file's size after the last line known to be whole

    @property
    def inputs(self) -> list[Input]:
        return [e.input for e in self.entries]

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        rules: Rules,
        *,
        first_dealer: int = 0,
        score: tuple[int, int] = (0, 0),
        created: Any = None,
        seats: Sequence[str] | None = None,
    ) -> MatchLog:
        """Start a new log at ``path`` (which must not exist) holding only the header."""
        p = Path(path)
        if p.exists():
            raise FileExistsError(f"{p}: a match log already exists here; open it to resume")
        header = LogHeader(rules, first_dealer, (score[0], score[1]), created, None if seats is None else tuple(seats))
        line = (json.dumps(header.to_dict(), separators=(",", ":"), allow_nan=False) + "\n").encode("utf-8")
        tmp = p.with_name(p.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            _write_all(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)
        # The rename makes the header appear whole or not at all.
        os.replace(tmp, p)
        fsync_dir(p.parent)
        return cls.open(p)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> MatchLog:
        """Open an existing log to resume: recover it, cut off a torn last line, append after it."""
        contents = read_log(path)
        p = contents.path
        fd = os.open(p, os.O_WRONLY | os.O_APPEND)
        try:
            if contents.torn_tail_offset is not None:
                os.ftruncate(fd, contents.torn_tail_offset)
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        return cls(p, fd, contents)

    @classmethod
    def open_or_create(
        cls,
        path: str | os.PathLike[str],
        rules: Rules,
        *,
        first_dealer: int = 0,
        score: tuple[int, int] = (0, 0),
        created: Any = None,
        seats: Sequence[str] | None = None,
    ) -> MatchLog:
        """Resume the log at ``path`` if it exists (its header wins), else create it."""
        if Path(path).exists():
            return cls.open(path)
        return cls.create(path, rules, first_dealer=first_dealer, score=score, created=created, seats=seats)

    def append(self, inp: Input, *, time: Any = None, frame: Any = None, meta: Any = None) -> int:
        """Write ``inp`` as one line and fsync it; returns its position in :attr:`inputs`.

        Metadata must be JSON values. If the write fails the file is cut back to
        where it was, so a failed append never leaves half a line behind.
        """
        if self._fd is None:
            raise ValueError(f"{self.path}: the match log is closed")
        obj: dict[str, Any] = {"i": self._next_i}
        to_write = inp
        if isinstance(inp, ReviseCard) and 0 <= inp.index < len(self.entries):
            to_write = dataclasses.replace(inp, index=self.entries[inp.index].i)
        obj.update(input_to_dict(to_write))
        for key, value in (("time", time), ("frame", frame), ("meta", meta)):
            if value is not None:
                obj[key] = value
        line = (json.dumps(obj, separators=(",", ":"), allow_nan=False) + "\n").encode("utf-8")
        size = os.fstat(self._fd).st_size
        if self._good_size is not None and size != self._good_size:
            # A failed append whose cut-back failed too (a full disk): cut now, before the next line
            # could be glued onto the torn one.
            os.ftruncate(self._fd, self._good_size)
            size = self._good_size
        try:
            _write_all(self._fd, line)
            os.fsync(self._fd)
        except OSError:
            self._good_size = size
            with contextlib.suppress(OSError):  # if this fails too, the next append or open() cuts it
                os.ftruncate(self._fd, size)
            raise
        self._good_size = size + len(line)
        self.entries.append(LogEntry(self._next_i, inp, time, frame, meta, self._lines + 1))
        self._lines += 1
        self._next_i += 1
        return len(self.entries) - 1

    def match(self) -> tuple[Match, list[str]]:
        """The match these inputs fold into, and a warning for each input the engine refused."""
        return fold_entries(self.path, self.header, self.entries)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> MatchLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def fold_entries(path: Path, header: LogHeader, entries: Sequence[LogEntry]) -> tuple[Match, list[str]]:
    """Apply each entry to a new match. An input the engine refuses as malformed (``EngineError``, e.g. a
    ``ReviseCard`` of an input that has no card) is skipped with a warning, like a damaged line.
    """
    with paused_gc():
        return _fold_entries(path, header, entries)


def _fold_entries(path: Path, header: LogHeader, entries: Sequence[LogEntry]) -> tuple[Match, list[str]]:
    match = Match(header.rules, header.first_dealer, header.score)
    apply = match.apply
    warnings: list[str] = []
    # Up to the first revision or refusal, each input is at its own position in the history: no bookkeeping.
    refused: EngineError | None = None
    applied = 0
    for applied, entry in enumerate(entries):  # noqa: B007  (``applied`` is read after the loop)
        inp = entry.input
        if type(inp) is ReviseCard:
            break
        try:
            apply(inp)
        except EngineError as exc:
            refused = exc
            break
    else:
        return match, warnings
    history_index = list(range(applied))  # position in ``entries`` -> index in match.history (-1: refused)
    n = len(match)  # len(match.history), kept here (each input applied adds one)
    rest = entries[applied:]
    if refused is not None:
        warnings.append(f"{path}: line {rest[0].line}: skipped an input the engine refused: {refused}")
        history_index.append(-1)
        rest = rest[1:]
    for entry in rest:
        inp = entry.input
        try:
            if type(inp) is ReviseCard:
                k = inp.index
                if type(k) is not int or not 0 <= k < len(history_index) or history_index[k] < 0:
                    raise EngineError(f"{inp!r}: it revises an input that was skipped")
                inp = dataclasses.replace(inp, index=history_index[k])
            apply(inp)
        except EngineError as exc:
            warnings.append(f"{path}: line {entry.line}: skipped an input the engine refused: {exc}")
            history_index.append(-1)
            n = len(match)
            continue
        history_index.append(n)
        n += 1
    return match, warnings


def load_match(path: str | os.PathLike[str]) -> tuple[Match, list[str]]:
    """Fold a log into its match (read only); returns the match and every warning (damaged lines first)."""
    contents = read_log(path)
    match, refused = fold_entries(contents.path, contents.header, contents.entries)
    return match, contents.warnings + refused


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]
