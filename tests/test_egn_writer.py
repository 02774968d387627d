"""The EGN file is written off the frame loop: newest text wins, written whole (temp file + rename), flushed on exit."""

from __future__ import annotations

import os
import threading
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from companion.egn_writer import EgnWriter, write_atomically  # noqa: E402


class GatedWrite:
    """A disk that takes as long as the test says: each write waits for ``gate``."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started = threading.Event()
        self.texts: list[str] = []

    def __call__(self, path: Path, text: str) -> None:
        self.started.set()
        assert self.gate.wait(10.0)
        write_atomically(path, text)
        self.texts.append(text)


def test_submit_returns_while_the_disk_is_busy_and_the_newest_text_wins(tmp_path: Path) -> None:
    path = tmp_path / "game.egn"
    disk = GatedWrite()
    writer = EgnWriter(path, write=disk)
    writer.submit("first")
    assert disk.started.wait(5.0)  # the writer thread holds "first" and waits for the disk
    writer.submit("second")
    writer.submit("third")  # returns at once; "second" is never written
    assert not path.exists()
    assert not writer.flush(timeout=0.05)
    disk.gate.set()
    assert writer.flush()
    assert disk.texts == ["first", "third"]
    assert path.read_text() == "third"
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left beside it


def test_a_failed_write_is_reported_and_a_later_one_succeeds(tmp_path: Path) -> None:
    path = tmp_path / "game.egn"
    path.mkdir()  # the rename over a folder fails
    writer = EgnWriter(path)
    writer.submit("x")
    assert not writer.flush() and writer.error is not None
    path.rmdir()
    writer.submit("y")
    assert writer.close() and path.read_text() == "y"


def test_a_write_cut_short_leaves_the_previous_file(tmp_path: Path) -> None:
    path = tmp_path / "game.egn"
    write_atomically(path, "previous")

    def crash(p: Path, text: str) -> None:  # the power goes after half of the temporary file
        p.with_name(p.name + ".tmp").write_text(text[: len(text) // 2])
        raise OSError("power cut")

    writer = EgnWriter(path, write=crash)
    writer.submit("the new export")
    assert not writer.flush()
    assert path.read_text() == "previous"

