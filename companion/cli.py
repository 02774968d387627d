"""The ``euchre-table`` command line: one subcommand per module in ``companion.commands``, plus the lab's.

The lab's commands (``simulate``, ``train``, ``eval-vision``) are entry points of the group
``euchre_table.commands`` (``vision.plugins``), so the runtime never imports the lab.

Each command module defines ``register(subparsers)``, which adds its parser
and sets ``func`` to a function taking the parsed arguments and returning
the exit status. Command modules import heavy libraries (OpenCV, ONNX
Runtime, pygame, torch) inside their run functions, so ``--help`` and the
engine-only commands start fast.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

from companion import commands
from companion.errors import UserError
from vision.plugins import COMMANDS, plugins


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="euchre-table",
        description="A card-table companion for Euchre: reads the cards, keeps the score, catches reneges.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    modules: dict[str, ModuleType] = {}
    for info in pkgutil.iter_modules(commands.__path__):
        if not info.name.startswith("_"):
            modules[info.name] = importlib.import_module(f"companion.commands.{info.name}")
    for entry in plugins(COMMANDS):  # the lab's commands, where the lab is installed
        modules.setdefault(entry.name, entry.load())
    for name in sorted(modules):
        modules[name].register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except UserError as exc:
        print(f"euchre-table: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
