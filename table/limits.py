"""Limits on what a file reader accepts: hostile structure is refused with one line, never a RecursionError.

Python's ``json`` and ``tomllib`` parse nested arrays and objects recursively,
so a file holding ``[[[[...`` a hundred thousand deep ends in a
``RecursionError`` traceback. Every reader of the product's files (the match
log, EGN, buttons, config, calibration) passes its text through
:func:`check_text` first (size and nesting depth) and parses with
:func:`loads_json`, which also turns a ``RecursionError`` that slips through
into a :class:`LimitError`. :func:`paused_gc` lets a reader build a long
night's objects without the cyclic collector rescanning them. Standard library only.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = [
    "MAX_DEPTH",
    "LimitError",
    "check_depth",
    "check_regular_file",
    "check_text",
    "loads_json",
    "paused_gc",
    "read_limited",
]

# Deeper than any file the product writes (an EGN deal is about 6 levels deep, a log line 3).
MAX_DEPTH = 64
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = bytes.maketrans(b"[{]}", b"(())")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_NOT_KEPT = bytes(b for b in range(256) if b not in b'[]{}"\\')
_KEPT_STRING = re.compile(rb'"[^"]*"')


class LimitError(ValueError):
    """Text or a file beyond what a reader accepts (too deep, too large, not a regular file)."""


def check_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """Raise :class:`LimitError` when the arrays and objects of JSON ``text`` nest deeper than ``limit``.

    Brackets inside strings do not count. Linear in the text for the shallow files the product
    writes: one C-speed pass per level of nesting actually present, at most ``limit`` passes.
    """
    if text.count("[") + text.count("{") <= limit:
        return  # the depth is at most the number of openers
    brackets = _brackets_of_plain_strings(text)
    if brackets is None:
        brackets = _brackets_outside_strings(text)
    for _ in range(limit):
        shorter = brackets.replace(b"()", b"")
        if shorter == brackets:
            break
        brackets = shorter
    # What is left after ``limit`` rounds: pairs nested deeper than the limit, or openers never closed
    # (which a recursive parser would also descend into, one level each).
    if b"()" in brackets or brackets.count(b"(") > limit:
        raise LimitError(f"nested deeper than {limit} levels of arrays or objects")


def _brackets_outside_strings(text: str) -> bytes:
    """The brackets outside strings, openers as "(" and closers as ")"."""
    # Without an escaped quote every other piece between quotes is outside the strings (C-speed split);
    # with one, the exact pattern.
    outside = _STRING.sub("", text) if '\\"' in text else "".join(text.split('"')[::2])
    # Only the brackets (bytes.translate: one C pass).
    return outside.encode("utf-8", "surrogatepass").translate(_BRACKETS, _NOT_BRACKETS)


def _brackets_of_plain_strings(text: str) -> bytes | None:
    """The brackets outside strings, openers as "(" and closers as ")", when the text holds no backslash
    (no escaped quote); else None. What check_depth finds too, in a few C passes over a much shorter text.

    Only brackets and quotes are kept (one ``translate``). Quotes then alternate, opening and closing a
    string, and only brackets can be inside one. Removing adjacent quotes (``replace``) removes an empty
    string, or joins two strings with nothing between them into one: either way they still alternate, and
    what is left of the strings (a note such as ``"[?]..."``) is removed by the exact pattern.
    """
    kept = text.encode("utf-8", "surrogatepass").translate(None, _NOT_KEPT)
    if b"\\" in kept:
        return None
    kept = kept.replace(b'""', b"")
    if b'"' in kept:
        kept = _KEPT_STRING.sub(b"", kept)
        if b'"' in kept:
            return None  # a quote left open (not JSON): the exact way says how deep
    return kept.translate(_BRACKETS)


def check_text(text: str | bytes, *, max_bytes: int, limit: int = MAX_DEPTH) -> None:
    """Size, then depth: one clear :class:`LimitError` for the first limit ``text`` breaks."""
    if len(text) > max_bytes:
        raise LimitError(f"{len(text):,} bytes, more than the {max_bytes:,} this reader accepts")
    check_depth(text.decode("utf-8", errors="replace") if isinstance(text, bytes) else text, limit)


def loads_json(text: str | bytes, *, max_bytes: int, limit: int = MAX_DEPTH) -> Any:
    """``json.loads`` behind :func:`check_text`; ``ValueError`` (``LimitError`` or ``JSONDecodeError``) on bad text."""
    check_text(text, max_bytes=max_bytes, limit=limit)
    try:
        return json.loads(text)
    except RecursionError:  # pragma: no cover - check_depth refuses such text first
        raise LimitError(f"nested deeper than {limit} levels of arrays or objects") from None


def check_regular_file(path: Path) -> None:
    """Refuse a FIFO, a device or a socket before opening it (reading one could wait forever)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # the open that follows says what is wrong
    if stat.S_ISDIR(mode):
        raise LimitError("is a directory, not a file")
    if not stat.S_ISREG(mode):
        if stat.S_ISFIFO(mode):
            kind = "a FIFO"
        elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            kind = "a device"
        elif stat.S_ISSOCK(mode):
            kind = "a socket"
        else:
            kind = "something other than a file"
        raise LimitError(f"is {kind}, not a regular file")


def read_limited(path: Path, max_bytes: int) -> bytes:
    """The bytes of the regular file ``path``, refusing one larger than ``max_bytes`` (``OSError`` as raised)."""
    check_regular_file(path)
    size = os.stat(path).st_size
    if size > max_bytes:
        raise LimitError(f"{size:,} bytes, more than the {max_bytes:,} this reader accepts")
    with open(path, "rb") as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise LimitError(f"more than the {max_bytes:,} bytes this reader accepts")
    return data


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused while a reader builds many objects (a 3,000-deal log is 60,000
    inputs): it would rescan them all again and again, a third of the time. Memory is still freed by
    reference counting; the collector resumes (if it was running) when the block ends, even on an error.

    What the block built is meant to last (a match, its log): it is handed to the oldest generation at
    once, as the collector would after scanning it in each younger one (a full scan of every object made
    in the block, right after it, costs a quarter as much as the block again). Cyclic garbage among them
    is still found by the next full collection. (Skipped while objects are frozen with ``gc.freeze``:
    moving them is for their owner to do.)"""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if not gc.get_freeze_count():
                gc.freeze()  # every tracked object to the permanent generation (a list splice, no scan)
                gc.unfreeze()  # ... and back, into the oldest generation
            gc.enable()
