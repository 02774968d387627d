"""Parts the runtime finds by name rather than imports: the lab's commands and its simulated table.

The lab (``lab/``) imports the runtime and is never imported by it, so the runtime reaches the lab's
parts through the distribution's entry points (``[project.entry-points]`` in ``pyproject.toml``), the
way pytest finds its plugins. An install without the lab simply has no such entry point.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

COMMANDS = "euchre_table.commands"
"""Entry points naming modules with ``register(subparsers)``: subcommands of ``euchre-table``."""

SOURCES = "euchre_table.sources"
"""Entry points naming frame-source classes for a ``--source`` kind (``sim``)."""


def plugins(group: str) -> list[EntryPoint]:
    """The entry points of ``group``, sorted by name."""
    return sorted(entry_points(group=group), key=lambda ep: ep.name)


def plugin(group: str, name: str) -> EntryPoint | None:
    """The entry point ``name`` of ``group``, or None when nothing installed provides it."""
    for ep in entry_points(group=group, name=name):
        return ep
    return None
