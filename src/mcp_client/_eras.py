"""The protocol era, as a strategy object chosen once at connect time.

The rest of the client never asks "which era am I in?": it asks the era to dress a request (params and
HTTP headers), to say whether cancelling needs a notification, and to absorb a tool listing. Both eras
share the multi-round-trip loop; a legacy server simply never returns ``input_required``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, Protocol

from mcp_client import _headers

_META_VERSION = "io.modelcontextprotocol/protocolVersion"
_META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
_META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo"
_META_LOG_LEVEL = "io.modelcontextprotocol/logLevel"
SERVER_INFO_META = "io.modelcontextprotocol/serverInfo"

_NO_HEADERS: dict[str, str] = {}
_NAMED_METHODS = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}


class Era(Protocol):
    @property
    def name(self) -> Literal["legacy", "modern"]: ...

    @property
    def protocol_version(self) -> str: ...

    def prepare(
        self, method: str, params: dict[str, Any] | None, *, with_headers: bool = True
    ) -> tuple[dict[str, Any] | None, dict[str, str]]:
        """The params and HTTP headers for sending ``method`` in this era (no headers if not wanted)."""
        ...

    def notification_headers(self, method: str) -> dict[str, str]: ...

    def needs_cancel_notification(self, cancels_by_closing: bool) -> bool: ...

    def absorb_tools(self, tools: list[Any]) -> list[Any]:
        """Learn what the era needs from a ``tools/list`` page; return the tools the client may use."""
        ...

    @property
    def resumable(self) -> bool:
        """Whether a paused call can be resumed from ``input_responses`` / ``request_state``."""
        ...

    def log_level_request(self, level: str) -> tuple[str, dict[str, Any]] | None:
        """Ask for server log messages at ``level`` and up: the request to send, if the era needs one."""
        ...


class LegacyEra:
    """After an ``initialize`` handshake: the version rides in one header; params go as they are."""

    def __init__(self, protocol_version: str) -> None:
        self._version = protocol_version
        self._headers = {"MCP-Protocol-Version": protocol_version}

    @property
    def name(self) -> Literal["legacy"]:
        return "legacy"

    @property
    def protocol_version(self) -> str:
        return self._version

    def prepare(
        self, method: str, params: dict[str, Any] | None, *, with_headers: bool = True
    ) -> tuple[dict[str, Any] | None, dict[str, str]]:
        return params, self._headers

    def notification_headers(self, method: str) -> dict[str, str]:
        return self._headers

    def needs_cancel_notification(self, cancels_by_closing: bool) -> bool:
        return True

    def absorb_tools(self, tools: list[Any]) -> list[Any]:
        return tools

    @property
    def resumable(self) -> bool:
        return False  # the server holds a legacy call open while it asks: there is nothing to resume

    def log_level_request(self, level: str) -> tuple[str, dict[str, Any]] | None:
        return "logging/setLevel", {"level": level}


class ModernEra:
    """2026-07-28 and later: the ``_meta`` envelope on every request, and routing headers on HTTP.

    The envelope also carries the log level the app asked for (``io.modelcontextprotocol/logLevel``):
    in this era a server sends log messages only for requests that ask for them. A request's own
    ``_meta`` may set its log level; it can never change the version, client info or capabilities.
    """

    def __init__(
        self,
        protocol_version: str,
        capabilities: Mapping[str, Any],
        client_info: Mapping[str, Any],
        log_level: str | None = None,
    ) -> None:
        self._version = protocol_version
        self._required = {
            _META_VERSION: protocol_version,
            _META_CLIENT_INFO: dict(client_info),
            _META_CAPABILITIES: dict(capabilities),
        }
        self._envelope = self._required
        self._set_log_level(log_level)
        self._param_headers: dict[str, _headers.HeaderMap] = {}

    def _set_log_level(self, level: str | None) -> None:
        self._envelope = self._required if level is None else {**self._required, _META_LOG_LEVEL: level}

    @property
    def name(self) -> Literal["modern"]:
        return "modern"

    @property
    def protocol_version(self) -> str:
        return self._version

    def prepare(
        self, method: str, params: dict[str, Any] | None, *, with_headers: bool = True
    ) -> tuple[dict[str, Any] | None, dict[str, str]]:
        params = dict(params) if params else {}
        meta = params.get("_meta")
        params["_meta"] = (
            {**self._envelope, **meta, **self._required} if isinstance(meta, dict) else self._envelope
        )
        if not with_headers:
            return params, _NO_HEADERS
        headers = {"MCP-Protocol-Version": self.protocol_version, "Mcp-Method": method}
        target_key = _NAMED_METHODS.get(method)
        if target_key is not None:
            target = params.get(target_key)
            if isinstance(target, str):
                headers["Mcp-Name"] = _headers.encode_value(target)
            if method == "tools/call" and isinstance(target, str):
                mapping = self._param_headers.get(target)
                arguments = params.get("arguments")
                if mapping and isinstance(arguments, Mapping):
                    headers.update(_headers.param_headers(mapping, arguments))  # pyright: ignore[reportUnknownArgumentType]
        return params, headers

    def notification_headers(self, method: str) -> dict[str, str]:
        return {"MCP-Protocol-Version": self.protocol_version, "Mcp-Method": method}

    def needs_cancel_notification(self, cancels_by_closing: bool) -> bool:
        return not cancels_by_closing

    def absorb_tools(self, tools: list[Any]) -> list[Any]:
        kept: list[Any] = []
        for tool in tools:
            if not isinstance(tool, dict):
                continue
            name = tool.get("name")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
            mapping = _headers.header_map(tool.get("inputSchema"))  # pyright: ignore[reportUnknownMemberType]
            if mapping is None:
                if isinstance(name, str):
                    self._param_headers.pop(name, None)
                continue  # the spec: a tool with an invalid x-mcp-header annotation MUST be dropped
            if isinstance(name, str):
                self._param_headers[name] = mapping
            kept.append(tool)
        return kept

    @property
    def resumable(self) -> bool:
        return True

    def log_level_request(self, level: str) -> tuple[str, dict[str, Any]] | None:
        self._set_log_level(level)  # no request: every later request carries it
        return None


def capabilities_for(modes: Iterable[str]) -> dict[str, Any]:
    """The client capabilities for the elicitation modes a callback handles (none: no elicitation)."""
    wanted = set(modes)
    declared: dict[str, Any] = {mode: {} for mode in ("form", "url") if mode in wanted}
    return {"elicitation": declared} if declared else {}
