"""An app's ``auth=`` as an ``httpx2.Auth``: ours, httpx2's, or one written for httpx.

The client sends with httpx2 (see docs/performance.md), whose ``AsyncClient`` accepts only its own
``httpx2.Auth``. An app written for httpx hands us an ``httpx.Auth`` subclass; its ``auth_flow``
generator is the very same protocol (it is given a request, yields requests, is sent each response),
and httpx2's request and response have what such a flow reads and writes (``headers``, ``url``,
``method``, ``content``, ``status_code``, ``aread()``). So it runs unchanged behind a thin adapter,
and ``httpx`` itself is never imported: any object with an ``auth_flow`` generator is accepted.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable, Generator
from typing import Any, Protocol, TypeAlias, cast

import httpx2

from mcp_client._connection.auth_bodies import readable_response
from mcp_client._connection.transport import DEFAULT_MAX_MESSAGE_BYTES

__all__ = ["AuthFlow", "HttpAuth", "as_httpx2_auth", "own_client_auth"]


class AuthFlow(Protocol):
    """An ``httpx.Auth`` from an app written for httpx, or anything with its ``auth_flow`` generator.

    An ``async_auth_flow`` of its own (an auth that does I/O, as httpx recommends) is run instead, the
    way httpx would run it. ``requires_request_body``: the flow reads ``request.content`` (e.g. to sign
    it). ``requires_response_body``: each response it is sent has its body read, within
    ``max_message_bytes`` (a challenge in a 401's JSON body), except a successful event stream, which
    is the answer itself and stays streaming (``auth_bodies``).
    """

    def auth_flow(self, request: Any, /) -> Generator[Any, Any, None]: ...


HttpAuth: TypeAlias = httpx2.Auth | AuthFlow
"""What ``auth=`` takes: an ``httpx2.Auth`` (``OAuth``, ``ClientCredentials``...) or an ``AuthFlow``."""


def as_httpx2_auth(
    auth: HttpAuth | None, *, max_body_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
) -> httpx2.Auth | None:
    """``auth`` as httpx2 takes it; a ``TypeError`` naming what to pass when it is no auth at all.

    An ``httpx2.Auth`` runs as it is, unless it reads response bodies: those it is shown are read
    within ``max_body_bytes`` by the adapter (``auth_bodies``), as is every foreign auth's.
    """
    if auth is None or isinstance(auth, _AuthAdapter):
        return auth
    if isinstance(auth, httpx2.Auth) and not auth.requires_response_body:
        return auth  # the common case: nothing between httpx2 and the flow
    if not callable(getattr(auth, "auth_flow", None)):
        raise TypeError(
            f"auth must be an httpx2.Auth (such as mcp_client.auth.OAuth) or an httpx.Auth subclass "
            f"(an object with an auth_flow(request) generator); got {type(auth).__name__}"
        )
    return _AuthAdapter(auth, max_body_bytes)


def own_client_auth(
    transport: str, client: httpx2.AsyncClient, auth: HttpAuth | None, *, max_body_bytes: int
) -> None:
    """For a transport given the app's own ``client``: refuse an ``auth`` beside it (the client sends,
    so it would be dropped), and run the client's own auth through the adapter if it reads bodies."""
    if auth is not None:
        raise ValueError(
            f"{transport}(auth=..., http_client=...): the transport sends with your client, so give "
            "the auth to it instead: httpx2.AsyncClient(auth=...)"
        )
    own = as_httpx2_auth(client.auth, max_body_bytes=max_body_bytes)
    if own is not None and own is not client.auth:
        client.auth = own


class _AuthAdapter(httpx2.Auth):
    """Runs a foreign auth's flow (or an ``httpx2.Auth`` that reads response bodies) inside httpx2's
    client, request for request.

    The flags are honoured here, not by httpx.Auth's or httpx2.Auth's default ``async_auth_flow``: that
    one reads every response to its end, the answer the client streams included (``auth_bodies``). So
    a flow written as ``auth_flow`` alone is driven directly; an ``async_auth_flow`` of the auth's own is
    run as it is, sent the same responses.
    """

    def __init__(self, auth: AuthFlow | httpx2.Auth, max_body_bytes: int) -> None:
        self.auth = auth
        self.requires_request_body = bool(getattr(auth, "requires_request_body", False))
        self.requires_response_body = bool(getattr(auth, "requires_response_body", False))
        self._max_body_bytes = max_body_bytes
        self._own_async_flow = _own_async_flow(auth)

    def __repr__(self) -> str:
        return f"<httpx2 adapter for {self.auth!r}>"

    def auth_flow(self, request: httpx2.Request) -> Generator[httpx2.Request, httpx2.Response, None]:
        return self.auth.auth_flow(request)

    async def async_auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        if self.requires_request_body:
            await request.aread()  # the client's bodies are bytes, already read: a no-op for them
        own = self._own_async_flow
        flow = cast(
            "AsyncGenerator[httpx2.Request, httpx2.Response]",
            own(request) if own is not None else _driven(self.auth.auth_flow(request)),
        )
        reads = self.requires_response_body
        try:
            outgoing = await flow.__anext__()
            while True:
                response = yield outgoing
                if reads:
                    response = await readable_response(response, self._max_body_bytes)
                try:
                    outgoing = await flow.asend(response)
                except StopAsyncIteration:
                    return
        finally:
            await flow.aclose()


_DEFAULT_FLOW_PACKAGES = frozenset({"httpx", "httpx2"})
"""Whose ``Auth`` class defines a default ``async_auth_flow`` that runs ``auth_flow`` and reads bodies by
the flags (known by name: httpx is never imported)."""


def _own_async_flow(auth: object) -> Callable[[httpx2.Request], object] | None:
    """``auth``'s ``async_auth_flow``, unless it has none or only httpx's or httpx2's default."""
    own: object = getattr(auth, "async_auth_flow", None)
    if not callable(own):
        return None
    if "async_auth_flow" not in getattr(auth, "__dict__", {}):  # else set on the object itself
        home = next((cls for cls in type(auth).__mro__ if "async_auth_flow" in vars(cls)), None)
        if (
            home is not None
            and home.__qualname__ == "Auth"
            and home.__module__.partition(".")[0] in _DEFAULT_FLOW_PACKAGES
        ):
            return None
    return cast("Callable[[httpx2.Request], object]", own)


async def _driven(
    flow: Generator[httpx2.Request, httpx2.Response, None],
) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
    """A sync ``auth_flow`` generator run as an async one (httpx's default, less its body reading)."""
    try:
        try:
            request = next(flow)
        except StopIteration:
            return
        while True:
            response = yield request
            try:
                request = flow.send(response)
            except StopIteration:
                return
    finally:
        flow.close()
