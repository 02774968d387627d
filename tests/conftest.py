"""Shared test configuration: the ``faults`` marker (the fault-injection suite, tests/test_faults.py)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "faults: fault injection (ENOSPC, EIO, SIGKILL, damaged lines) on every file the app writes; "
        "part of the default run (CI), or alone with -m faults",
    )
