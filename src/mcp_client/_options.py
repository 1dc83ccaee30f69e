"""What ``Client(...)`` was given, checked and turned into parts: the transport, the client info, and
the router of question handlers (one per kind of question: elicitation, sampling, roots).

Mistakes in the options are ``ValueError`` / ``TypeError`` at construction, naming the option and the
values it accepts, never a failure later inside a call.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, get_args

import httpx

from mcp_client._elicitation import ElicitationCallback, ElicitationHandler, UrlCompletions, declared_modes
from mcp_client._roots import ListRootsCallback, RootsHandler
from mcp_client._router import Router
from mcp_client._sampling import SamplingCallback, SamplingHandler
from mcp_client._transport import Transport
from mcp_client._transports.http import StreamableHTTPTransport
from mcp_client._transports.stdio import StdioServerParameters, StdioTransport
from mcp_client._version import __version__
from mcp_client._versions import MODES
from mcp_client.types import Implementation, LoggingLevel

_DEFAULT_CLIENT_INFO: dict[str, Any] = {"name": "mcp-client", "version": __version__}
"""A plain dict, not an ``Implementation``: building a model at import builds its validator, which runs
pydantic's plugin lookup (``importlib.metadata`` scanning every installed distribution)."""
_LEVELS: tuple[str, ...] = get_args(LoggingLevel)


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
    auth: httpx.Auth | None,
    timeout: float | None,
    max_message_bytes: int,
) -> Transport:
    """The transport for ``server``: a URL (HTTP), a ``StdioServerParameters``, or a ready ``Transport``."""
    if isinstance(server, str):
        if not server.startswith(("http://", "https://")):
            raise ValueError(
                f"server must be an http:// or https:// URL, a StdioServerParameters or a transport; got "
                f"{server!r}. For a command, use StdioServerParameters(command, args=[...])."
            )
        return StreamableHTTPTransport(
            server, headers=headers, auth=auth, timeout=timeout, max_message_bytes=max_message_bytes
        )
    if isinstance(server, StdioServerParameters):
        return StdioTransport(server, max_message_bytes=max_message_bytes)
    if isinstance(server, Transport):
        return server
    raise TypeError(
        f"server must be a URL string, a StdioServerParameters or a Transport; got {type(server).__name__}"
    )


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
