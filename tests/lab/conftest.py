"""The lab's tests share the reader's test kit (tiny models, rendered frames) with ``tests/vision``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from lab import simtable as st  # noqa: E402

# The simulated table's tests play seed 4 (a module may play other deals with a ``script`` fixture of its own,
# which ``renderer`` then draws): two hands, deal 0 with two injected reneges (seat 3 shows out of diamonds in
# trick 1 holding 9d Ad; seat 2 of clubs in trick 3 holding Kc), deal 1 two more; drawn in procedural faces.
SIM_SEED = 4


@pytest.fixture(scope="module")
def script() -> st.TableScript:
    return st.build_script(SIM_SEED, hands=2, renege_rate=0.3)


@pytest.fixture(scope="module")
def renderer(script: st.TableScript) -> st.TableRenderer:
    faces, back, name = st.load_deck("procedural", None)
    assert name == "procedural-2"
    return st.TableRenderer(script, faces, back, seed=SIM_SEED)
