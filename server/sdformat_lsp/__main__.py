"""`python -m sdformat_lsp` behaves exactly like the `sdformat-lsp` command."""

import sys

from .cli import entry

sys.exit(entry())
