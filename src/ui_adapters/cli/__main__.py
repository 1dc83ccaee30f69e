"""``python -m ui_adapters.cli``: the ``mcp-client`` command, for when the console script is not on PATH."""

import sys

from ui_adapters.cli import main

sys.exit(main())
