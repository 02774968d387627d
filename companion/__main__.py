"""``python -m companion`` runs the ``euchre-table`` command line."""

import sys

from companion.cli import main

sys.exit(main())
