"""sdformat-lsp: the language server and checker for SDFormat."""

__version__ = "0.1.0"
