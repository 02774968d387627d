"""Subcommands of ``euchre-table``: one module each, found by ``companion.cli``."""
