"""A local MQTT broker for the demo, the simulation and the tests: Mosquitto where installed, else amqtt.

Each runs as a process of its own on 127.0.0.1, so it can be killed (SIGKILL, as a crash or a pulled
cable would) and started again on the same port. Neither keeps anything across a restart: what a broker
held when it died is gone, which is what the tables' outboxes are for.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Literal

Kind = Literal["mosquitto", "amqtt"]
START_TIMEOUT_S = 20.0


def mosquitto_path() -> str | None:
    """The Mosquitto binary, where the Debian package (or another) installed it."""
    return shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")


EPHEMERAL_DEFAULT = (32768, 60999)  # Linux's default ip_local_port_range


def ephemeral_ports(proc_file: Path = Path("/proc/sys/net/ipv4/ip_local_port_range")) -> tuple[int, int]:
    """The range the kernel draws outgoing connections' local ports from (Linux's default where unreadable)."""
    try:
        low, high = (int(x) for x in proc_file.read_text().split())
    except (OSError, ValueError):
        return EPHEMERAL_DEFAULT
    return (low, high) if 0 < low <= high <= 65535 else EPHEMERAL_DEFAULT


def free_port() -> int:
    """A free port on 127.0.0.1 outside the ephemeral range.

    A broker that is killed and started again must find its port still free. A port from the ephemeral
    range may meanwhile have been taken as the local end of some outgoing connection (a client retrying
    that very port can even connect to itself), and the restart then fails with "address already in use".
    """
    low, high = ephemeral_ports()
    lo, hi = max((10000, low - 1), (high + 1, 65535), key=lambda span: span[1] - span[0])  # the wider side
    rng = random.SystemRandom()
    for _ in range(200 if hi - lo >= 100 else 0):
        port = rng.randint(lo, hi)
        if port_free(port):
            return port
    with socket.socket() as s:  # no span outside the range, or all tried busy: let the kernel choose
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_free(port: int) -> bool:
    """Nothing listens on 127.0.0.1:``port`` and it may be bound."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _amqtt_script() -> str:
    exe = Path(sys.executable).with_name("amqtt")
    if exe.exists():
        return str(exe)
    found = shutil.which("amqtt")
    if found is None:
        raise RuntimeError("no MQTT broker: install the mosquitto package, or amqtt (pip install -e '.[league]')")
    return found


def _die_with_parent() -> None:
    """In the broker's process before it starts: on Linux, end it when its parent dies (no orphan broker)."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class LocalBroker:
    """A broker process on ``127.0.0.1:port``; ``kind`` None picks Mosquitto where it is installed."""

    def __init__(self, kind: Kind | None = None, port: int | None = None, mosquitto_conf: str = "") -> None:
        self.kind: Kind = kind or ("mosquitto" if mosquitto_path() else "amqtt")
        self.port = port or free_port()
        # Mosquitto only: settings in place of anonymous access (accounts, an ACL), for the deployment's tests
        self.mosquitto_conf = mosquitto_conf
        self._dir = tempfile.TemporaryDirectory(prefix="euchre-broker-")
        self._proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def _command(self) -> list[str]:
        folder = Path(self._dir.name)
        if self.kind == "mosquitto":
            conf = folder / "mosquitto.conf"
            access = self.mosquitto_conf or "allow_anonymous true\n"
            # Started as root, Mosquitto would become the user "mosquitto", who cannot read this folder.
            user = pwd.getpwuid(os.geteuid()).pw_name
            conf.write_text(
                f"listener {self.port} 127.0.0.1\nuser {user}\npersistence false\nmax_queued_messages 100000\n"
                f"{access}",
                encoding="utf-8",
            )
            exe = mosquitto_path()
            if exe is None:
                raise RuntimeError("mosquitto is not installed")
            return [exe, "-c", str(conf)]
        conf = folder / "amqtt.yaml"
        conf.write_text(
            "listeners:\n  default:\n    type: tcp\n"
            f"    bind: 127.0.0.1:{self.port}\n"
            "plugins:\n  amqtt.plugins.authentication.AnonymousAuthPlugin:\n    allow_anonymous: true\n",
            encoding="utf-8",
        )
        return [_amqtt_script(), "-c", str(conf)]

    def start(self) -> LocalBroker:
        """Start the broker and wait until it accepts connections."""
        if self.running:
            return self
        log_file = open(Path(self._dir.name) / f"broker-{self.starts}.log", "wb")  # noqa: SIM115 (the child's)
        self._proc = subprocess.Popen(
            self._command(), stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            preexec_fn=_die_with_parent,
        )
        log_file.close()
        self.starts += 1
        end = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < end:
            if self._proc.poll() is not None:
                raise RuntimeError(f"the {self.kind} broker on port {self.port} exited: {self.log_tail()}")
            if "address already in use" in self.log_tail(20_000).lower():  # amqtt logs it and stays up, serving nothing
                self.kill()
                raise RuntimeError(f"the {self.kind} broker cannot listen: port {self.port} is in use")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.1)
        tail = self.log_tail()
        self.kill()
        raise RuntimeError(
            f"the {self.kind} broker did not start on port {self.port} in {START_TIMEOUT_S:.0f} s: {tail}"
        )

    def log_tail(self, chars: int = 500) -> str:
        """The end of the latest start's log."""
        log = Path(self._dir.name) / f"broker-{self.starts - 1}.log"
        return log.read_text(errors="replace")[-chars:] if log.exists() else ""

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def kill(self) -> None:
        """Kill the broker at once (SIGKILL): what it held is lost."""
        if self._proc is not None:
            if self._proc.poll() is None:
                self._proc.kill()
            self._proc.wait()
            self._proc = None

    def restart(self) -> None:
        self.kill()
        self.start()

    def close(self) -> None:
        self.kill()
        self._dir.cleanup()

    def __enter__(self) -> LocalBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
