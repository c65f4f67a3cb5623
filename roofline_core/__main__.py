"""``python -m roofline_core``: the command line (see :mod:`roofline_core.cli`)."""

from __future__ import annotations

import sys

from roofline_core.cli import main

if __name__ == "__main__":  # also imported by pytest's doctest collection
    sys.exit(main())
