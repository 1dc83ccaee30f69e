"""An app's ``auth=`` as an ``httpx2.Auth``: ours, httpx2's, or one written for httpx.

The client sends with httpx2 (see docs/performance.md), whose ``AsyncClient`` accepts only its own
``httpx2.Auth``. An app written for httpx hands us an ``httpx.Auth`` subclass; its ``auth_flow``
generator is the very same protocol (it is given a request, yields requests, is sent each response),
and httpx2's request and response have what such a flow reads and writes (``headers``, ``url``,
``method``, ``content``, ``status_code``, ``aread()``). So it runs unchanged behind a thin adapter,
and ``httpx`` itself is never imported: any object with an ``auth_flow`` generator is accepted.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Generator
from typing import Any, Protocol, TypeAlias, cast

import httpx2

__all__ = ["AuthFlow", "HttpAuth", "as_httpx2_auth"]


class AuthFlow(Protocol):
    """An ``httpx.Auth`` from an app written for httpx, or anything with its ``auth_flow`` generator.

    An ``async_auth_flow`` of its own (an auth that does I/O, as httpx recommends) is run instead, the
    way httpx would run it; ``requires_request_body`` / ``requires_response_body`` are honoured.
    """

    def auth_flow(self, request: Any, /) -> Generator[Any, Any, None]: ...


HttpAuth: TypeAlias = httpx2.Auth | AuthFlow
"""What ``auth=`` takes: an ``httpx2.Auth`` (``OAuth``, ``ClientCredentials``...) or an ``AuthFlow``."""


def as_httpx2_auth(auth: HttpAuth | None) -> httpx2.Auth | None:
    """``auth`` as httpx2 takes it; a ``TypeError`` naming what to pass when it is no auth at all."""
    if auth is None or isinstance(auth, httpx2.Auth):
        return auth
    if not callable(getattr(auth, "auth_flow", None)):
        raise TypeError(
            f"auth must be an httpx2.Auth (such as mcp_client.auth.OAuth) or an httpx.Auth subclass "
            f"(an object with an auth_flow(request) generator); got {type(auth).__name__}"
        )
    return _AuthAdapter(auth)


class _AuthAdapter(httpx2.Auth):
    """Runs a foreign auth's flow inside httpx2's client, request for request."""

    def __init__(self, auth: AuthFlow) -> None:
        self.auth = auth
        self.requires_request_body = bool(getattr(auth, "requires_request_body", False))
        self.requires_response_body = bool(getattr(auth, "requires_response_body", False))

    def __repr__(self) -> str:
        return f"<httpx2 adapter for {self.auth!r}>"

    def auth_flow(self, request: httpx2.Request) -> Generator[httpx2.Request, httpx2.Response, None]:
        return self.auth.auth_flow(request)

    async def async_auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        own = getattr(self.auth, "async_auth_flow", None)
        flow = cast(
            "AsyncGenerator[httpx2.Request, httpx2.Response]",
            own(request) if callable(own) else super().async_auth_flow(request),
        )
        try:
            outgoing = await flow.__anext__()
            while True:
                response = yield outgoing
                try:
                    outgoing = await flow.asend(response)
                except StopAsyncIteration:
                    return
        finally:
            await flow.aclose()
