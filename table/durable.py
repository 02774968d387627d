"""Files that survive a power cut: written and fsynced before they count, renamed into place, their folder synced.

The match log (``table.log``), the EGN file (``companion.egn_writer``) and the deck profile
(``vision.deck_profile``, ``companion.commands.enrol``) write through these. Standard library only.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def fsync_dir(directory: Path) -> None:
    """Make the names made or renamed in ``directory`` durable, where the system can sync a folder (elsewhere
    the renames are still atomic)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # some systems cannot open a directory
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def sync_file(path: Path) -> None:
    """fsync a file another library wrote (an image saved by pygame, say)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_synced(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` and fsync it: on disk before this returns."""
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def replace_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data``: a temporary file beside it (``<name>.tmp``), fsynced, renamed over it, the
    folder synced. After a power cut the file holds the old contents or the new, never half; a write that fails
    (a full disk) removes its temporary file and raises."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        write_synced(tmp, data)
        tmp.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_dir(path.parent)
