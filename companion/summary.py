"""The final summary line every subcommand prints: ``key=value`` pairs separated by spaces."""

from __future__ import annotations


def _format_value(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (list, tuple)):
        return ",".join(_format_value(v) for v in value)
    text = str(value)
    return text.replace(" ", "_") if text else "-"


def summary_line(**pairs: object) -> str:
    """``summary_line(images=3, f1=0.5)`` -> ``"images=3 f1=0.5"``, in the order given."""
    return " ".join(f"{key}={_format_value(value)}" for key, value in pairs.items())
