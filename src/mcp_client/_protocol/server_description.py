"""What the server said about itself: version, name, capabilities, instructions.

Filled from the ``initialize`` result (legacy), the ``server/discover`` result (2026-07-28), or the
server info a 2026-07-28 result carries in its ``_meta``. ``Client`` shows it as read-only attributes.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from mcp_client.types import Implementation, ServerCapabilities

SERVER_INFO_META = "io.modelcontextprotocol/serverInfo"


class ServerDescription:
    """What the server said about itself; filled by the ``Negotiator`` and the session's results,
    read by ``Client``'s properties and the questions' contexts."""

    __slots__ = ("capabilities", "discover", "info", "instructions", "protocol_version")

    def __init__(self) -> None:
        self.protocol_version: str | None = None
        self.discover: dict[str, Any] | None = None
        """The ``server/discover`` result the era was settled with (probed or given), to store and reuse."""
        self.info: Implementation | None = None
        self.capabilities = ServerCapabilities()
        self.instructions: str | None = None

    def absorb(self, result: dict[str, Any]) -> None:
        """Take what an ``initialize`` or ``server/discover`` result says."""
        capabilities = result.get("capabilities")
        if isinstance(capabilities, dict):
            self.capabilities = ServerCapabilities.from_server(capabilities)
        instructions = result.get("instructions")
        if isinstance(instructions, str):
            self.instructions = instructions
        info = result.get("serverInfo")
        if info is None and isinstance(result.get("_meta"), dict):
            info = result["_meta"].get(SERVER_INFO_META)
        self.absorb_info(info)

    def absorb_info(self, info: object) -> None:
        if isinstance(info, dict):
            try:
                self.info = Implementation.model_validate(info)
            except ValidationError:
                pass  # a malformed self-description is not worth failing a call over
