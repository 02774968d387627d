"""The Pi install script's plan: what it installs on Raspberry Pi OS, on plain Debian arm64, on each release.

``systemd/install.sh --dry-run`` prints the plan and changes nothing, so these run anywhere, without root,
with a made-up machine: an os-release file, the packages apt offers, the architecture.
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALL = ROOT / "systemd" / "install.sh"
CONSTRAINTS = ROOT / "systemd" / "constraints-pi.txt"
PI_PACKAGES = "python3-picamera2 python3-lgpio python3-venv python3-pip"


def _os_release(tmp_path: Path, codename: str, pretty: str = "Debian GNU/Linux") -> Path:
    path = tmp_path / f"os-release-{codename}"
    path.write_text(f'PRETTY_NAME="{pretty}"\nNAME="{pretty}"\nID=debian\nVERSION_CODENAME={codename}\n')
    return path


def _plan(
    tmp_path: Path, codename: str, apt: str, arch: str = "aarch64", *args: str
) -> tuple[dict[str, str], subprocess.CompletedProcess[str]]:
    env = {
        "PATH": "/usr/bin:/bin",
        "EUCHRE_INSTALL_OS_RELEASE": str(_os_release(tmp_path, codename)),
        "EUCHRE_INSTALL_APT_PACKAGES": apt,
        "EUCHRE_INSTALL_ARCH": arch,
    }
    result = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", *args], capture_output=True, text=True, timeout=60, env=env
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    line = result.stdout.strip().splitlines()[-1]
    assert line.startswith("plan: ")
    plan = dict(re.findall(r'(\w+)=("[^"]*"|\S+)', line))
    return {k: v.strip('"') for k, v in plan.items()}, result


@pytest.mark.parametrize(("codename", "python"), [("bookworm", "3.11"), ("trixie", "3.13")])
def test_raspberry_pi_os_takes_camera_and_lgpio_from_the_pi_archive(tmp_path: Path, codename: str, python: str) -> None:
    plan, result = _plan(tmp_path, codename, PI_PACKAGES)
    assert plan["release"] == codename and plan["python"] == python
    assert plan["pi_archive"] == "1" and plan["gpio"] == "apt-lgpio"
    assert {"python3-picamera2", "python3-lgpio", "espeak-ng", "fonts-dejavu-core"} <= set(plan["apt"].split())
    assert "not available" not in result.stderr


def test_plain_debian_bookworm_goes_on_without_the_pi_camera_and_takes_the_lgpio_wheel(tmp_path: Path) -> None:
    plan, result = _plan(tmp_path, "bookworm", "python3-venv python3-pip")
    assert plan["pi_archive"] == "0" and plan["gpio"] == "pip-lgpio"
    assert "python3-picamera2" not in plan["apt"] and "python3-lgpio" not in plan["apt"]
    assert "Raspberry Pi OS archive is not available" in result.stderr and "USB webcam" in result.stderr


def test_plain_debian_trixie_never_builds_lgpio(tmp_path: Path) -> None:
    plan, result = _plan(tmp_path, "trixie", "python3-venv python3-pip")
    assert plan["python"] == "3.13" and plan["pi_archive"] == "0"
    # PyPI has only lgpio's source for 3.13 (and a placeholder wheel): the native pin factory instead.
    assert plan["gpio"] == "native"
    assert "native pin factory" in result.stderr and "Pi 5" in result.stderr


def test_the_pi_archive_camera_without_its_lgpio_still_plans_gpio(tmp_path: Path) -> None:
    plan, _ = _plan(tmp_path, "trixie", "python3-picamera2")
    assert plan["pi_archive"] == "1" and plan["gpio"] == "native"


def test_not_a_pi_plans_no_gpio_library(tmp_path: Path) -> None:
    plan, _ = _plan(tmp_path, "bookworm", "", "x86_64")
    assert plan["arch"] == "x86_64" and plan["gpio"] == "none"


def test_no_start_and_no_enable_are_in_the_plan(tmp_path: Path) -> None:
    plan, _ = _plan(tmp_path, "bookworm", PI_PACKAGES, "aarch64", "--no-start", "--no-enable")
    assert plan["start"] == "0" and plan["enable"] == "0"
    plan, _ = _plan(tmp_path, "bookworm", PI_PACKAGES)
    assert plan["start"] == "1" and plan["enable"] == "1"


def test_a_missing_os_release_is_an_unknown_release_not_a_crash(tmp_path: Path) -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "EUCHRE_INSTALL_OS_RELEASE": str(tmp_path / "absent"),
        "EUCHRE_INSTALL_APT_PACKAGES": "",
        "EUCHRE_INSTALL_ARCH": "aarch64",
    }
    result = subprocess.run(["bash", str(INSTALL), "--dry-run"], capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 0 and "release=unknown" in result.stdout and "python=unknown" in result.stdout
    assert "gpio=native" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--frobnicate"], "unknown option: --frobnicate"),
        (["--dry-run", "--uninstall"], "does not go with --uninstall"),
    ],
)
def test_bad_options_get_one_clear_line(args: list[str], message: str) -> None:
    result = subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_help_names_the_modes() -> None:
    result = subprocess.run(["bash", str(INSTALL), "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    for mode in ("--no-start", "--dry-run", "--uninstall", "--no-enable"):
        assert mode in result.stdout


def _commands() -> list[str]:
    """The script's commands, continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n\s*", " ", INSTALL.read_text())
    return [line.strip() for line in joined.splitlines() if line.strip() and not line.strip().startswith("#")]


def test_every_pip_install_uses_the_constraints_and_wheels_only() -> None:
    pip = [line for line in _commands() if "-m pip install" in line]
    assert len(pip) >= 3
    for line in pip:
        assert '-c "$CONSTRAINTS"' in line, line
        if "--upgrade" not in line:  # pip itself comes as a wheel anyway
            assert "--only-binary :all:" in line, line
    # The [pi] extra would let pip build lgpio from source on Python 3.13: the script picks the GPIO library.
    assert not any("[pi]" in line for line in pip)


def _pins() -> list[tuple[str, str, str]]:
    """(name, version, marker) of each pin in the constraints file."""
    pins = []
    for raw in CONSTRAINTS.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        spec, _, marker = line.partition(";")
        name, _, version = spec.strip().partition("==")
        assert version, f"not pinned: {raw}"
        pins.append((name.strip().lower(), version.strip(), marker.strip()))
    return pins


def _applies(marker: str, python: str) -> bool:
    if not marker:
        return True
    found = re.fullmatch(r'python_version\s*(<|>=)\s*"(\d+\.\d+)"', marker)
    assert found, f"unexpected marker {marker!r}"
    mine, theirs = tuple(map(int, python.split("."))), tuple(map(int, found.group(2).split(".")))
    return mine < theirs if found.group(1) == "<" else mine >= theirs


@pytest.mark.parametrize("python", ["3.11", "3.13"])
def test_constraints_pin_every_runtime_dependency_once_per_python(python: str) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {re.split(r"[<>=!~;\[ ]", dep, maxsplit=1)[0].lower() for dep in project["dependencies"]}
    pinned: dict[str, str] = {}
    for name, version, marker in _pins():
        if _applies(marker, python):
            assert name not in pinned, f"{name} pinned twice for Python {python}"
            pinned[name] = version
    assert wanted <= set(pinned), wanted - set(pinned)
    numpy_major = int(pinned["numpy"].split(".")[0])
    if python == "3.11":
        # Bookworm's picamera2 is built against numpy 1.24; opencv 4.12+ needs numpy 2.
        assert numpy_major < 2 and tuple(map(int, pinned["opencv-python-headless"].split(".")[:2])) < (4, 12)
        assert "lgpio" in pinned
    else:
        assert "lgpio" not in pinned  # only its source (or a placeholder wheel) exists for 3.13
