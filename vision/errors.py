"""Errors caused by outside input (files, configs, devices): one clear line, never a traceback.

``UserError`` lives here, in the lowest layer that raises it; ``companion.errors`` re-exports it for
the layers above.
"""

from __future__ import annotations


class UserError(Exception):
    """Bad input from outside the program. The message names what and where.

    The command line prints ``euchre-table: error: <message>`` and exits with
    status 2. Programming errors are not UserErrors and keep their traceback.
    """
