"""``python -m roofline_core``: the command line (see :mod:`roofline_core.cli`)."""

from __future__ import annotations

import sys

from roofline_core.cli import main

sys.exit(main())
