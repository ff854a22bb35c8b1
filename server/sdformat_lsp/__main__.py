"""`python -m sdformat_lsp` behaves exactly like the `sdformat-lsp` command."""

import sys

from .cli import main

sys.exit(main())
