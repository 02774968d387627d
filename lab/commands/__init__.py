"""The lab's subcommands of ``euchre-table``, registered as entry points in ``pyproject.toml``."""
