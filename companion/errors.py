"""Errors caused by outside input: ``UserError`` is defined by ``vision.errors``, the lowest layer that raises it."""

from __future__ import annotations

from vision.errors import UserError

__all__ = ["UserError"]
