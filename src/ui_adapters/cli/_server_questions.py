"""What the CLI answers when a server asks for sampling or roots.

The CLI has no model: a sampling request gets a clear refusal, ``NO_MODEL``, which the server hears and
the user sees (the call fails with that same sentence) instead of an opaque "Method not found". Roots
are the folders given with ``--root PATH`` (repeatable), sent as ``file://`` URIs; without any, the
CLI declares no roots, and a server that needs them gets a hint to pass ``--root``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mcp_client import ClientRequestContext, ListRootsCallback, MCPError
from mcp_client.types import CreateMessageRequestParams, CreateMessageResult, ListRootsResult, Root
from ui_adapters.cli._exit import UsageError

__all__ = ["NO_MODEL", "ROOTS_HINT", "refuse_sampling", "root_for", "roots_callback"]

NO_MODEL = "mcp-client has no model to answer sampling requests"
ROOTS_HINT = "This server wants to know which folders it may work in: pass --root PATH (repeatable)."
_NOT_SUPPORTED = -32600


async def refuse_sampling(
    context: ClientRequestContext, params: CreateMessageRequestParams
) -> CreateMessageResult:
    """The CLI's sampling callback: always the same refusal, ``NO_MODEL``."""
    raise MCPError(_NOT_SUPPORTED, NO_MODEL)


def root_for(path: str) -> Root:
    """The root for one ``--root PATH``: an existing file or folder, as an absolute ``file://`` URI."""
    resolved = Path(path).expanduser().resolve()
    if not resolved.exists():
        raise UsageError(f"--root {path}: no such file or folder")
    return Root(uri=resolved.as_uri(), name=resolved.name or str(resolved))


def roots_callback(roots: Sequence[Root]) -> ListRootsCallback | None:
    """The ``list_roots_callback`` answering ``roots``; ``None`` (declare no roots) when there are none."""
    if not roots:
        return None
    answer = ListRootsResult(roots=list(roots))

    async def list_roots(context: ClientRequestContext) -> ListRootsResult:
        return answer

    return list_roots
