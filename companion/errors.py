"""Errors caused by outside input (files, configs, devices): one clear line, never a traceback."""

from __future__ import annotations


class UserError(Exception):
    """Bad input from outside the program. The message names what and where.

    The command line prints ``euchre-table: error: <message>`` and exits with
    status 2. Programming errors are not UserErrors and keep their traceback.
    """
