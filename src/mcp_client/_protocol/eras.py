"""The protocol era, as a strategy object chosen once at connect time.

The rest of the client never asks "which era am I in?": it asks the era to dress a request (params and
HTTP headers), to shape the cancellation notice (if one is needed), to absorb a tool listing, how to
ping, how to listen for change notices, whether ``resources/subscribe`` exists, whether a dropped
reply stream may be resumed, whether URL elicitations announce their completion, and how to recover
from a failed request (``recovery``: a plain decision, carried out by the session). Both eras share
the multi-round-trip loop; a legacy server simply never returns ``input_required``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

from mcp_client._errors import MCPClientError, MCPError, RequestStreamLost, SessionExpiredError
from mcp_client._protocol import headers as _headers
from mcp_client._protocol import jsonrpc as _jsonrpc
from mcp_client._protocol.server_description import SERVER_INFO_META
from mcp_client._protocol.version_choice import newest_mutual, no_version_in_common, supported_versions
from mcp_client._protocol.versions import LATEST_LEGACY, EraName

_META_VERSION = "io.modelcontextprotocol/protocolVersion"
_META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
_META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo"
_META_LOG_LEVEL = "io.modelcontextprotocol/logLevel"

_NO_HEADERS: dict[str, str] = {}
_NAMED_METHODS = {
    "tools/call": "name",
    "prompts/get": "name",
    "resources/read": "uri",
    # SEP-2663: a task's requests carry its id in Mcp-Name, so a load balancer finds the instance.
    "tasks/get": "taskId",
    "tasks/update": "taskId",
    "tasks/cancel": "taskId",
}
_NO_MODERN_NOTIFICATION = frozenset({"notifications/roots/list_changed"})
"""Client notifications 2026-07-28 dropped: there a server asks for roots with each request it needs."""


@dataclass(frozen=True)
class RestartSession:
    """The server forgot our session: run the handshake again, then resend."""


@dataclass(frozen=True)
class Readopt:
    """The server wants another modern ``version`` (``-32022``): adopt it, then resend."""

    version: str


@dataclass(frozen=True)
class RefreshTools:
    """The server says our ``x-mcp-header`` knowledge is stale (``-32020``): list tools, then resend."""


@dataclass(frozen=True)
class Resend:
    """The reply stream was lost before the answer and this era cannot resume it: send it again."""


Recovery = RestartSession | Readopt | RefreshTools | Resend


class Era(Protocol):
    """Every decision that depends on the protocol era, for one connection (see the module docstring).

    Built by the ``Negotiator`` (``LegacyEra`` after a handshake, ``ModernEra`` for 2026-07-28); asked
    by the session (dress, recover, cancel), the server-message handler (reply headers, the question's
    context), the question handlers (URL completions) and ``listen()`` (how to listen).
    """

    @property
    def name(self) -> EraName:
        """``"legacy"`` or ``"modern"``: shown to the app (``Client.era``, ``ClientRequestContext.era``)."""
        ...

    @property
    def protocol_version(self) -> str: ...

    @property
    def ping_method(self) -> str:
        """The request that checks the server answers (the 2026-07-28 era has no ``ping``)."""
        ...

    def prepare(
        self, method: str, params: dict[str, Any] | None, *, with_headers: bool = True
    ) -> tuple[dict[str, Any] | None, dict[str, str]]:
        """The params and HTTP headers for sending ``method`` in this era (no headers if not wanted)."""
        ...

    def notification_headers(self, method: str) -> dict[str, str]: ...

    def response_headers(self) -> dict[str, str]:
        """The HTTP headers for our answer to a server's request."""
        ...

    @property
    def resumes_streams(self) -> bool:
        """Whether a reply stream that drops before the answer may be resumed (GET + ``Last-Event-ID``)."""
        ...

    @property
    def listen_method(self) -> str | None:
        """The request whose response is a stream of change notices (``subscriptions/listen``), or
        ``None`` where the notices ride the session's own stream."""
        ...

    @property
    def has_resource_subscriptions(self) -> bool:
        """Whether ``resources/subscribe`` exists (2026-07-28 replaced it with ``listen()``)."""
        ...

    @property
    def announces_url_completion(self) -> bool:
        """Whether a pushed URL elicitation is followed by ``notifications/elicitation/complete``."""
        ...

    def cancel_notification(
        self, request_id: Any, reason: str, cancels_by_closing: bool
    ) -> tuple[dict[str, Any], dict[str, str]] | None:
        """The ``notifications/cancelled`` message and headers for abandoning a request, if one is due."""
        ...

    def notification(
        self, method: str, params: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, str]] | None:
        """A client notification dressed for this era, or ``None`` if the era has no such notification."""
        ...

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

    def server_info_in(self, result: dict[str, Any]) -> object:
        """The server's self-description riding on a result, if this era carries one there."""
        ...

    def recovery(self, error: MCPClientError, method: str) -> Recovery | None:
        """How to recover from ``error`` on ``method`` in this era, or ``None`` to let it raise."""
        ...


def _cancel_message(request_id: Any, reason: str) -> dict[str, Any]:
    return _jsonrpc.notification("notifications/cancelled", {"requestId": request_id, "reason": reason})


class LegacyEra:
    """After an ``initialize`` handshake: the version rides in one header; params go as they are.

    Servers push their questions on the reply stream, and a dropped stream is resumed.
    """

    def __init__(self, protocol_version: str) -> None:
        # Read on every request: plain attributes, not properties (issue 32).
        self.protocol_version: Final = protocol_version
        self.resumes_streams: Final = True
        self._headers = {"MCP-Protocol-Version": protocol_version}

    @property
    def name(self) -> Literal["legacy"]:
        return "legacy"

    @property
    def ping_method(self) -> str:
        return "ping"

    def prepare(
        self, method: str, params: dict[str, Any] | None, *, with_headers: bool = True
    ) -> tuple[dict[str, Any] | None, dict[str, str]]:
        return params, self._headers

    def notification_headers(self, method: str) -> dict[str, str]:
        return self._headers

    def response_headers(self) -> dict[str, str]:
        return self._headers

    @property
    def listen_method(self) -> str | None:
        return None  # notices travel on the session's stream (GET stream over HTTP, stdout over stdio)

    @property
    def has_resource_subscriptions(self) -> bool:
        return True

    @property
    def announces_url_completion(self) -> bool:
        return True

    def cancel_notification(
        self, request_id: Any, reason: str, cancels_by_closing: bool
    ) -> tuple[dict[str, Any], dict[str, str]] | None:
        return _cancel_message(request_id, reason), self._headers  # a closed stream cancels nothing here

    def notification(
        self, method: str, params: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, str]] | None:
        return _jsonrpc.notification(method, params), self._headers

    def absorb_tools(self, tools: list[Any]) -> list[Any]:
        return tools

    @property
    def resumable(self) -> bool:
        return False  # the server holds a legacy call open while it asks: there is nothing to resume

    def log_level_request(self, level: str) -> tuple[str, dict[str, Any]] | None:
        return "logging/setLevel", {"level": level}

    def server_info_in(self, result: dict[str, Any]) -> object:
        return None  # the handshake said it all

    def recovery(self, error: MCPClientError, method: str) -> Recovery | None:
        return RestartSession() if isinstance(error, SessionExpiredError) else None


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
        self.protocol_version: Final = protocol_version
        self.resumes_streams: Final = False  # a dropped reply stream is lost: sent again (``recovery``)
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
    def ping_method(self) -> str:
        return "server/discover"

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
                    headers.update(_headers.param_headers(mapping, arguments))
        return params, headers

    def notification_headers(self, method: str) -> dict[str, str]:
        return {"MCP-Protocol-Version": self.protocol_version, "Mcp-Method": method}

    def response_headers(self) -> dict[str, str]:
        return self.notification_headers("")  # a response has no method (and this era pushes no requests)

    @property
    def listen_method(self) -> str | None:
        return "subscriptions/listen"

    @property
    def has_resource_subscriptions(self) -> bool:
        return False  # replaced by ``subscriptions/listen`` (``listen(resource_subscriptions=...)``)

    @property
    def announces_url_completion(self) -> bool:
        return False

    def cancel_notification(
        self, request_id: Any, reason: str, cancels_by_closing: bool
    ) -> tuple[dict[str, Any], dict[str, str]] | None:
        if cancels_by_closing:
            return None  # closing the request's stream was the cancellation
        message = _cancel_message(request_id, reason)
        message["params"], _ = self.prepare("notifications/cancelled", message["params"], with_headers=False)
        return message, self.notification_headers("notifications/cancelled")

    def notification(
        self, method: str, params: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, str]] | None:
        if method in _NO_MODERN_NOTIFICATION:
            return None
        wire_params, _ = self.prepare(method, params, with_headers=False)
        return _jsonrpc.notification(method, wire_params), self.notification_headers(method)

    def server_info_in(self, result: dict[str, Any]) -> object:
        meta = result.get("_meta")
        return meta.get(SERVER_INFO_META) if isinstance(meta, dict) else None

    def recovery(self, error: MCPClientError, method: str) -> Recovery | None:
        if isinstance(error, RequestStreamLost):
            if method == "subscriptions/listen":
                return None  # notices were lost with it: the subscriber must hear so, and refetch
            return Resend()  # no resumption in this era: the request is lost, and sent again (once)
        if not isinstance(error, MCPError):
            return None
        if error.code == _jsonrpc.HEADER_MISMATCH and method == "tools/call":
            return RefreshTools()  # the spec's recovery for stale x-mcp-header knowledge
        if error.code == _jsonrpc.UNSUPPORTED_PROTOCOL_VERSION:
            supported = supported_versions(error.data)
            mutual = newest_mutual(supported)
            if mutual is not None:
                return Readopt(mutual)
            unsupported = no_version_in_common(supported)
            if unsupported is not None:
                raise unsupported
        return None

    def absorb_tools(self, tools: list[Any]) -> list[Any]:
        kept: list[Any] = []
        for tool in tools:
            if not isinstance(tool, dict):
                continue
            name = tool.get("name")
            mapping = _headers.header_map(tool.get("inputSchema"))
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


UNSETTLED: Era = LegacyEra(LATEST_LEGACY)
"""The era a pushed question is read in before negotiation settles one (only legacy servers push)."""
