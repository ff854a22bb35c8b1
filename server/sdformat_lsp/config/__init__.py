"""The project configuration file, one source for the command line and the server.

``[tool.sdformat-lsp]`` in ``pyproject.toml`` or the top level of
``sdformat-lsp.toml``, found upward from each checked file (the nearest
wins). Plain data only: the shells turn it into analysis options.
"""

from .globs import excluded
from .loader import CONFIG_NAMES, ConfigCache, ConfigError, ProjectConfig, find_config, load_config

__all__ = ["CONFIG_NAMES", "ConfigCache", "ConfigError", "ProjectConfig", "excluded", "find_config", "load_config"]
