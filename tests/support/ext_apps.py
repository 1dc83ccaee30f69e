"""The official MCP Apps example servers (npm ``@modelcontextprotocol/server-*`` 2.0.3), run over stdio.

``scripts/install_peers.py`` installs them, with ``@modelcontextprotocol/ext-apps`` 2.0.4 (the ``App`` class
their views are built on), into ``.cache/peers/ext-apps``. Each package's ``bin`` is ``dist/index.js``,
which serves stdio when given ``--stdio`` (without it, streamable HTTP on ``PORT``, default 3001, on every
interface: so the tests use stdio). They need Node.js 20+ and nothing from the network.

A test whose server is missing fails (never skips) with the command that installs it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mcp_client import StdioServerParameters

REPO = Path(__file__).resolve().parent.parent.parent
EXT_APPS_DIR = REPO / ".cache" / "peers" / "ext-apps"
SCOPE_DIR = EXT_APPS_DIR / "node_modules" / "@modelcontextprotocol"
INSTALL_HINT = "run `python scripts/install_peers.py --only ext-apps` (it installs them into .cache/peers/)"

# The example servers, by short name (the npm package is ``@modelcontextprotocol/server-<name>``).
SERVERS = (
    "basic-vanillajs",
    "system-monitor",
    "budget-allocator",
    "cohort-heatmap",
    "customer-segmentation",
    "scenario-modeler",
    "basic-react",
)

# ``@modelcontextprotocol/ext-apps``' browser bundle (the view-side ``App`` class), for a test page.
EXT_APPS_PACKAGE_DIR = SCOPE_DIR / "ext-apps"


def package_name(name: str) -> str:
    """The npm package of the example server ``name`` (e.g. ``"system-monitor"``)."""
    return f"@modelcontextprotocol/server-{name}"


def entry(name: str) -> Path:
    """``dist/index.js`` of the example server ``name``; fails the test if it is not installed."""
    if name not in SERVERS:
        raise ValueError(f"unknown MCP Apps example server {name!r}; one of {', '.join(SERVERS)}")
    path = SCOPE_DIR / f"server-{name}" / "dist" / "index.js"
    if not path.exists():
        pytest.fail(f"{package_name(name)} is not installed ({path} is missing): {INSTALL_HINT}", False)
    return path


def node() -> str:
    """The ``node`` executable, or a failed test saying Node.js 20+ is needed."""
    found = shutil.which("node")
    if found is None:
        pytest.fail("the MCP Apps example servers need Node.js 20+ on PATH (apt-get install nodejs)", False)
    return found


def stdio_command(name: str) -> tuple[str, list[str]]:
    """``(command, args)`` that runs the example server ``name`` over stdio."""
    path = entry(name)
    return node(), [str(path), "--stdio"]


def stdio_parameters(name: str) -> StdioServerParameters:
    """``StdioServerParameters`` for the example server ``name``, run in its own ``dist`` folder:
    ``Client(stdio_parameters("system-monitor"))``."""
    command, args = stdio_command(name)
    return StdioServerParameters(command=command, args=args, cwd=str(entry(name).parent))
