"""scripts/pi-check refuses cleanly, in one line, when it lacks what it needs (the emulated run itself needs
root, debootstrap, qemu-user-static and the network, so it is not run here)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PI_CHECK = ROOT / "scripts" / "pi-check"
BASH = shutil.which("bash") or "/bin/bash"


def _run(*args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = path
    return subprocess.run([BASH, str(PI_CHECK), *args], capture_output=True, text=True, timeout=60, env=env)


def _one_clear_line(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pi-check: "), result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((), ("which release", "bookworm|trixie")),
        (("buster",), ("unknown argument 'buster'",)),
        (("trixie", "--frames", "many"), ("whole number", "many")),
        (("trixie", "--frames=0"), ("at least 1",)),
        (("bookworm", "--frames"), ("--frames needs a number",)),
    ],
)
def test_bad_arguments(args: tuple[str, ...], words: tuple[str, ...]) -> None:
    _one_clear_line(_run(*args), *words)


def test_help_says_what_it_needs() -> None:
    result = _run("--help")
    assert result.returncode == 0
    for word in ("root", "debootstrap", "qemu-user-static", "binfmt-support", "network", "--frames", "release="):
        assert word in result.stdout, word


def _fake_bin(tmp_path: Path, uid: int, tools: tuple[str, ...], stubs: tuple[str, ...] = ()) -> str:
    """A PATH holding a fake ``id`` (answering ``uid``), the named real tools, and ``stubs``: stand-ins
    that only answer ``command -v`` (run, they fail)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_id = bin_dir / "id"
    fake_id.write_text(f"#!{BASH}\necho {uid}\n")
    fake_id.chmod(0o755)
    for stub in stubs:
        (bin_dir / stub).write_text(f"#!{BASH}\necho 'a stand-in: not to be run' >&2\nexit 1\n")
        (bin_dir / stub).chmod(0o755)
    for tool in tools:
        real = shutil.which(tool)
        assert real is not None, tool
        (bin_dir / tool).symlink_to(real)
    return str(bin_dir)


def test_refuses_without_root(tmp_path: Path) -> None:
    path = _fake_bin(tmp_path, 1000, ("uname", "dirname", "sed"))
    _one_clear_line(_run("bookworm", path=path), "run it as root", "debootstrap", "qemu-user-static", "network")


def test_refuses_without_debootstrap_and_qemu(tmp_path: Path) -> None:
    path = _fake_bin(tmp_path, 0, ("uname", "dirname", "sed"))
    result = _run("trixie", path=path)
    _one_clear_line(result, "missing:", "debootstrap", "apt-get install -y debootstrap qemu-user-static binfmt-support")
    if os.uname().machine != "aarch64":
        assert "qemu-aarch64-static" in result.stderr


# The tools pi-check asks for are only looked up (``command -v``) before it tries the archive: stand-ins do.
PI_CHECK_TOOLS = ("debootstrap", "chroot", "mount", "umount", "flock", "rsync", "qemu-aarch64-static", "update-binfmts")


@pytest.mark.skipif(
    not (ROOT / ".venv" / "bin" / "euchre-table").exists(),
    reason="pi-check tries the archive with the project's .venv, which scripts/test makes first (scripts/setup dev)",
)
def test_refuses_when_the_debian_archive_is_out_of_reach(tmp_path: Path) -> None:
    fake = _fake_bin(tmp_path, 0, (), stubs=PI_CHECK_TOOLS)
    env = dict(os.environ)
    env.update(
        PATH=f"{fake}:{env.get('PATH', '/usr/bin:/bin')}",
        EUCHRE_PI_CHECK_MIRROR="http://127.0.0.1:9/debian",  # the discard port: nothing answers
        EUCHRE_PI_CHECK_CACHE=str(tmp_path / "cache"),
    )
    result = subprocess.run([BASH, str(PI_CHECK), "trixie"], capture_output=True, text=True, timeout=120, env=env)
    _one_clear_line(result, "cannot reach the Debian archive", "127.0.0.1:9/debian/dists/trixie", "network access")
    assert not (tmp_path / "cache").exists()  # refused before building anything
