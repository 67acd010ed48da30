"""`python -m meeple.rules.cli` (no `meeple` on PATH, e.g. after `pip install --user`)."""

import sys

from . import main

sys.exit(main())
