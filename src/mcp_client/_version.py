"""The package's version, written once: the build reads it from here (``[tool.hatch.version]``), and
``mcp_client.__version__``, the CLI's ``--version`` and the default ``clientInfo`` import it."""

__version__ = "0.2.0"
