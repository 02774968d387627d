"""The lab's tests share the reader's test kit (tiny models, rendered frames) with ``tests/vision``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))
