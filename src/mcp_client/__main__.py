"""``python -m mcp_client``: the ``mcp-client`` command, for when the console script is not on PATH."""

import sys

from mcp_client._cli import main

sys.exit(main())
