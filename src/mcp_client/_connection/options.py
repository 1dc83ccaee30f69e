"""What ``Client(...)`` was given, checked and turned into parts: the transport, the client info, and
the router of question handlers (one per kind of question: elicitation, sampling, roots).

Mistakes in the options are ``ValueError`` / ``TypeError`` at construction, naming the option and the
values it accepts, never a failure later inside a call.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, get_args

from mcp_client._connection.http_auth import HttpAuth
from mcp_client._connection.http_options import DEFAULT_HTTP_OPTIONS, HttpOptions
from mcp_client._connection.transport import Transport
from mcp_client._protocol.versions import MODES
from mcp_client._session.elicitation import (
    ElicitationCallback,
    ElicitationHandler,
    UrlCompletions,
    declared_modes,
)
from mcp_client._session.roots import ListRootsCallback, RootsHandler
from mcp_client._session.router import Router
from mcp_client._session.sampling import SamplingCallback, SamplingHandler
from mcp_client._transports.http import StreamableHTTPTransport
from mcp_client._transports.stdio import StdioServerParameters, StdioTransport
from mcp_client._version import __version__
from mcp_client.types import Implementation, LoggingLevel

_DEFAULT_CLIENT_INFO: dict[str, Any] = {"name": "mcp-client", "version": __version__}
"""A plain dict, not an ``Implementation``: building a model at import builds its validator, which runs
pydantic's plugin lookup (``importlib.metadata`` scanning every installed distribution)."""
_LEVELS: tuple[str, ...] = get_args(LoggingLevel)
_TRANSPORT_KINDS = ("auto", "http", "sse")


def check_mode(mode: str, max_rounds: int) -> None:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(repr(m) for m in MODES)}; got {mode!r}")
    if max_rounds < 0:
        raise ValueError("input_required_max_rounds must be 0 or more")


def check_level(level: str | None) -> None:
    if level is not None and level not in _LEVELS:
        raise ValueError(f"log level must be one of {', '.join(_LEVELS)}; got {level!r}")


def client_info_of(client_info: Implementation | Mapping[str, Any] | None) -> dict[str, Any]:
    """The ``clientInfo`` to send, as a wire dict (checked as an ``Implementation`` when the app gave one)."""
    if client_info is None:
        return dict(_DEFAULT_CLIENT_INFO)
    if not isinstance(client_info, Implementation):
        client_info = Implementation.model_validate(client_info)
    return client_info.model_dump_wire()


def transport_for(
    server: object,
    headers: Mapping[str, str] | None,
    auth: HttpAuth | None,
    timeout: float | None,
    max_message_bytes: int,
    *,
    kind: str = "auto",
    http_options: HttpOptions | None = None,
) -> Transport:
    """The transport for ``server``: a URL (HTTP), a ``StdioServerParameters``, a server object, or a ready
    ``Transport``.

    For a URL, ``kind`` is ``"http"`` (streamable HTTP), ``"sse"`` (the older HTTP+SSE transport) or
    ``"auto"`` (streamable HTTP, and HTTP+SSE where the server refuses ``initialize``). Options that a
    ready transport would not see are refused rather than dropped.
    """
    if kind not in _TRANSPORT_KINDS:
        raise ValueError(f"transport must be one of {', '.join(map(repr, _TRANSPORT_KINDS))}; got {kind!r}")
    options = http_options or DEFAULT_HTTP_OPTIONS
    if isinstance(server, str):
        if not server.startswith(("http://", "https://")):
            from mcp_client._connection.shown_url import without_credentials

            raise ValueError(
                f"server must be an http:// or https:// URL, a StdioServerParameters or a transport; got "
                f"{without_credentials(server)!r}. For a command, use StdioServerParameters(command, "
                "args=[...])."
            )
        common: dict[str, Any] = {
            "headers": headers,
            "auth": auth,
            "timeout": timeout,
            "max_message_bytes": max_message_bytes,
            "http_options": options,
        }
        if kind == "sse":
            from mcp_client._transports.http_sse import SSETransport

            return SSETransport(server, **common)
        if kind == "http":
            return StreamableHTTPTransport(server, **common)
        from mcp_client._transports.http_fallback import HttpTransportWithFallback

        return HttpTransportWithFallback(server, **common)
    if kind != "auto":
        raise ValueError(
            f"transport={kind!r} applies to a URL only; the server given is {type(server).__name__}"
        )
    if isinstance(server, StdioServerParameters):
        _refuse_http_only(headers, auth, options, "a stdio server (StdioServerParameters)")
        return StdioTransport(server, max_message_bytes=max_message_bytes)
    if isinstance(server, Transport):
        _refuse_http_only(headers, auth, options, "a ready transport", ready=True)
        return server
    from mcp_client._transports.in_process import InProcessTransport, asgi_app_of

    known = asgi_app_of(server)
    if known is not None:
        if not options.is_default:
            raise ValueError(
                f"verify/cert/proxy/trust_env/httpx_client_factory cannot apply to the {known[1]}: it is "
                "reached inside this process, with no network; leave them out (headers and auth do apply)"
            )
        return InProcessTransport(
            server, headers=headers, auth=auth, timeout=timeout, max_message_bytes=max_message_bytes
        )
    raise TypeError(
        "server must be a URL string, a StdioServerParameters, a Transport or a server object (the official "
        f"SDK's MCPServer, fastmcp's FastMCP); got {type(server).__name__}. For any other ASGI app, "
        "use InProcessTransport(app)"
    )


def _refuse_http_only(
    headers: Mapping[str, str] | None,
    auth: HttpAuth | None,
    options: HttpOptions,
    what: str,
    *,
    ready: bool = False,
) -> None:
    """Headers, auth or HTTP options given where they cannot apply: a clear error, never dropped silently."""
    given = [name for name, value in (("headers", headers), ("auth", auth)) if value]
    if not options.is_default:
        given.append("verify/cert/proxy/trust_env/httpx_client_factory")
    if not given:
        return
    fix = (
        "pass them to the transport itself, e.g. StreamableHTTPTransport(url, headers=..., auth=..., "
        "http_options=HttpOptions(verify=...)), or give Client the URL instead"
        if ready
        else "they only apply to HTTP servers"
    )
    raise ValueError(f"{' and '.join(given)} cannot apply to {what}: {fix}")


def router_for(
    elicitation_callback: ElicitationCallback | None,
    elicitation_modes: Iterable[str] | None,
    completions: UrlCompletions,
    sampling_callback: SamplingCallback | None,
    sampling_capabilities: Mapping[str, Any] | None,
    list_roots_callback: ListRootsCallback | None,
) -> Router:
    """One handler per kind of question; each declares its capability only if its callback was given."""
    modes = declared_modes(elicitation_callback, elicitation_modes)
    return Router(
        [
            ElicitationHandler(elicitation_callback, modes, completions),
            SamplingHandler(sampling_callback, sampling_capabilities),
            RootsHandler(list_roots_callback),
        ]
    )
