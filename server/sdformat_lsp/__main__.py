"""`python -m sdformat_lsp` behaves exactly like the `sdformat-lsp` command (both start in program.py)."""

import sys

from .program import main

sys.exit(main())
