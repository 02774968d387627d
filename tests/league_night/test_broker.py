"""The local broker's port: outside the ephemeral range, and a port taken gives one clear error."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from league.broker import EPHEMERAL_DEFAULT, Kind, LocalBroker, ephemeral_ports, free_port


def test_the_ephemeral_range_is_read_from_the_kernel_file(tmp_path: Path) -> None:
    f = tmp_path / "range"
    f.write_text("40000\t50000\n")
    assert ephemeral_ports(f) == (40000, 50000)
    f.write_text("nonsense\n")
    assert ephemeral_ports(f) == EPHEMERAL_DEFAULT
    assert ephemeral_ports(tmp_path / "absent") == EPHEMERAL_DEFAULT


def test_a_free_port_lies_outside_the_ephemeral_range_and_is_free() -> None:
    low, high = ephemeral_ports()
    for _ in range(50):
        port = free_port()
        assert not low <= port <= high
        with socket.socket() as s:
            s.bind(("127.0.0.1", port))  # raises if it were taken


def test_a_port_in_use_is_one_clear_error_and_leaves_no_broker(broker_kind: Kind) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", free_port()))  # bound, not listening: as an outgoing connection's local end
        port = holder.getsockname()[1]
        broker = LocalBroker(broker_kind, port=port)
        try:
            with pytest.raises(RuntimeError, match="in use|exited"):
                broker.start()
            assert not broker.running
        finally:
            broker.close()
