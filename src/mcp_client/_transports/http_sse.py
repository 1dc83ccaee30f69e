"""The older HTTP+SSE transport (spec 2024-11-05, "HTTP with SSE"), still served by many servers.

The client opens one ``GET`` event stream; the server's first event, ``endpoint``, names the URL to
``POST`` messages to (usually the same origin with a ``sessionId`` query). Every server message, the
answers to our requests included, then arrives on that one stream; a POST is only acknowledged
(``202 Accepted``). The transport matches answers to waiting requests by id.

Safety, as for the streamable HTTP transport:

* the ``endpoint`` URL must have the event stream's origin (scheme, host, port): a server cannot send
  our messages, and the headers and credentials on them, to another host;
* one event is at most ``max_message_bytes`` (an event that never ends is refused at that size), and
  Content-Encoding is undone under the same bound;
* the stream must name its endpoint within ``timeout`` seconds, or opening fails saying what the server
  did instead (closed the stream, answered with HTTP 404/405, sent no event stream);
* when the stream ends, every waiting request fails with ``MCPConnectionError`` at once, never at its
  deadline; a POST answered with 404 after the session started means the server forgot the session;
* redirects follow the streamable HTTP transport's policy (``http_redirects``), for the GET and every
  POST: one to another origin is never followed and fails at once with a ``ProtocolError`` naming the
  target (a POST's 3xx is not an acknowledgement);
* a POST's acknowledgement and an error body count against ``max_message_bytes`` too, as sent and once
  decompressed (``http_body.read_limited``).

Server requests (elicitation, sampling, roots) run in their own tasks through ``ServerRequestSlots``,
like on the other transports; their answers are POSTed like any other message.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

import anyio
import httpx2

from mcp_client._connection.http_auth import HttpAuth, as_httpx2_auth, own_client_auth
from mcp_client._connection.http_options import DEFAULT_HTTP_OPTIONS, HttpOptions, require_httpx2_client
from mcp_client._connection.shown_url import without_credentials
from mcp_client._connection.transport import (
    DEFAULT_MAX_MESSAGE_BYTES,
    Message,
    RequestId,
    ServerMessageSink,
    ServerRequestSlots,
    Spawn,
    Transport,
)
from mcp_client._connection.url_credentials import request_auth, take_credentials
from mcp_client._errors import MCPConnectionError, ProtocolError, SessionExpiredError
from mcp_client._protocol import jsonrpc as _jsonrpc
from mcp_client._transports.http_body import EventReader, StreamCursor, connection_error, read_limited
from mcp_client._transports.http_redirects import Exchange

__all__ = ["SSETransport"]

logger = logging.getLogger("mcp_client.sse")

_STREAM_HEADERS = {"accept": "text/event-stream", "cache-control": "no-store"}
_POST_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
_ERROR_BODY_BYTES = 2000


class _Pending:
    __slots__ = ("done", "reply")

    def __init__(self) -> None:
        self.done = anyio.Event()
        self.reply: Message | None = None


class SSETransport(Transport):
    """A connection to one HTTP+SSE server (protocol 2024-11-05): ``Client(url, transport="sse")``.

    ``url`` is the event stream's URL (often ending in ``/sse``). ``headers`` and ``auth`` apply to the
    stream and to every POST; ``timeout`` bounds connecting, the wait for the ``endpoint`` event and each
    POST (not the stream, which stays open); ``max_message_bytes`` caps one event.
    """

    def __init__(
        self,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        auth: HttpAuth | None = None,
        timeout: float | None = 30.0,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        http_client: httpx2.AsyncClient | None = None,
        http_options: HttpOptions | None = None,
    ) -> None:
        bare, self._url_auth = take_credentials(url)  # httpx2 never sees user:password@ (it logs URLs)
        self.url: str = bare
        self._request_auth: httpx2.Auth | None = None  # set on open: the URL's credentials, or the client's
        self._shown = without_credentials(url)  # what names the server: never its password
        self._http_options = http_options or DEFAULT_HTTP_OPTIONS
        self._extra_headers = dict(headers or {})
        self._auth = as_httpx2_auth(auth, max_body_bytes=max_message_bytes)
        self._timeout = timeout
        self._max_bytes = max_message_bytes
        if http_client is not None:
            require_httpx2_client(http_client, "http_client is", "pass")
            own_client_auth("SSETransport", http_client, auth, max_body_bytes=max_message_bytes)
        self._client = http_client
        self._owns_client = http_client is None
        self._endpoint: str | None = None
        self._spawn: Spawn | None = None
        self._on_message: ServerMessageSink | None = None
        self._pending: dict[RequestId, _Pending] = {}
        self._stream_scope: anyio.CancelScope | None = None
        self._lost: MCPConnectionError | ProtocolError | None = None
        self._server_requests = ServerRequestSlots()

    # ------------------------------------------------------------------ Transport interface

    @property
    def kind(self) -> str:
        return "sse"

    @property
    def label(self) -> str:
        return self._shown

    @property
    def endpoint(self) -> str | None:
        """The URL the server named for our messages, once the stream said it."""
        return self._endpoint

    @property
    def cancels_by_closing(self) -> bool:
        return False  # answers share one stream: the server must be told

    @property
    def sends_headers(self) -> bool:
        return True

    @property
    def session_id(self) -> str | None:
        if self._endpoint is None:
            return None
        return httpx2.URL(self._endpoint).params.get("sessionId") or httpx2.URL(self._endpoint).params.get(
            "session_id"
        )

    async def open(self, spawn: Spawn, on_message: ServerMessageSink) -> None:
        self._spawn = spawn
        self._on_message = on_message
        if self._client is None:
            self._client = self._http_options.client(
                headers=self._extra_headers, auth=self._auth, timeout=httpx2.Timeout(self._timeout, read=None)
            )
        else:
            self._client.headers.update(self._extra_headers)
        self._request_auth = request_auth(self._url_auth, self._client)
        ready = anyio.Event()
        failure: list[BaseException] = []
        scope = self._stream_scope = anyio.CancelScope()

        async def run() -> None:
            with scope:
                try:
                    await self._read_stream(ready)
                except (MCPConnectionError, ProtocolError) as exc:
                    self._lose(exc)
                    failure.append(exc)
                except httpx2.HTTPError as exc:
                    error = connection_error(self._shown, exc)
                    self._lose(error)
                    failure.append(error)
                else:
                    self._lose(MCPConnectionError(f"{self._shown} closed its event stream"))
                finally:
                    ready.set()

        spawn(run)
        with anyio.move_on_after(self._timeout) as waiting:
            await ready.wait()
        if waiting.cancelled_caught:
            scope.cancel()
            raise MCPConnectionError(
                f'{self._shown} sent no "endpoint" event within {self._timeout:g} s: is it an HTTP+SSE '
                'server (protocol 2024-11-05)? A streamable HTTP server needs transport="http"'
            )
        if self._endpoint is None:
            raise failure[0] if failure else MCPConnectionError(f"{self._shown} closed its event stream")

    async def request(
        self,
        message: Message,
        headers: Mapping[str, str],
        *,
        resumable: bool = True,
        protocol_version: str | None = None,
    ) -> Message:
        request_id: RequestId = message["id"]
        pending = self._pending[request_id] = _Pending()
        try:
            await self._post(message, headers, request_id)
            if pending.reply is None:
                await pending.done.wait()
            if pending.reply is None:
                raise self._lost or MCPConnectionError(f"the connection to {self._shown} ended")
            return pending.reply
        finally:
            self._pending.pop(request_id, None)

    async def send(
        self, message: Message, headers: Mapping[str, str], *, protocol_version: str | None = None
    ) -> None:
        """POST a notification or a response, waiting at most ``timeout`` for its acknowledgement.

        An answer to a server's question is no longer cancelled with the call it belongs to once it
        is being sent (``_session.server_messages``): this bound is what ends it when a server never
        acknowledges it.
        """
        with anyio.move_on_after(self._timeout) as waiting:
            await self._post(message, headers, None)
        if waiting.cancelled_caught:
            what = message.get("method", "response")
            logger.warning("%s did not acknowledge a %s within %ss", self._shown, what, self._timeout)

    async def aclose(self) -> None:
        scope, self._stream_scope = self._stream_scope, None
        if scope is not None:
            scope.cancel()
        self._lose(MCPConnectionError(f"the connection to {self._shown} was closed"))
        client, self._client = self._client, None
        if client is not None and self._owns_client:
            with anyio.CancelScope(shield=True):
                await client.aclose()

    # ------------------------------------------------------------------ the event stream

    async def _read_stream(self, ready: anyio.Event) -> None:
        client = self._require_client()
        async with Exchange(client, self.url, "GET", _STREAM_HEADERS, None, self._request_auth) as response:
            if response.status_code >= 400:
                body = await _short_body(response, self._shown, self._max_bytes)
                raise MCPConnectionError(
                    f"{self._shown} answered the event stream's GET with HTTP {response.status_code} "
                    f"{response.reason_phrase}{body}; is it an HTTP+SSE server (protocol 2024-11-05)?"
                )
            if response.headers.get("content-type", "").split(";")[0].strip() != "text/event-stream":
                raise MCPConnectionError(
                    f"{self._shown} answered the event stream's GET with "
                    f"{response.headers.get('content-type') or 'no content type'}, not an event stream"
                )
            events = EventReader(response, self._shown, self._max_bytes, StreamCursor())
            async for raw in response.aiter_raw():
                for event in events.events(raw):
                    if event.event == "endpoint":
                        if self._endpoint is None:
                            self._endpoint = self._check_endpoint(event.data)
                            ready.set()
                        continue
                    if self._endpoint is None:
                        raise ProtocolError(
                            f'{self._shown} sent a {event.event!r} event before its "endpoint" event'
                        )
                    if event.event == "message" and event.data:
                        await self._received(event.data)

    def _check_endpoint(self, data: bytes) -> str:
        text = data.decode("utf-8", "replace").strip()
        base = httpx2.URL(self.url)
        try:
            endpoint = base.join(text)
        except httpx2.InvalidURL:
            raise ProtocolError(
                f"{self._shown} named an endpoint that is not a URL: {text[:200]!r}"
            ) from None
        if (endpoint.scheme, endpoint.host, endpoint.port) != (base.scheme, base.host, base.port):
            raise ProtocolError(
                f"{self._shown} named an endpoint on another origin ({endpoint.scheme}://{endpoint.host}"
                f"{':' + str(endpoint.port) if endpoint.port else ''}); refused: the client only sends "
                "messages to the server it connected to"
            )
        return str(endpoint)

    async def _received(self, data: bytes) -> None:
        try:
            message = _jsonrpc.decode(data)
        except ProtocolError as exc:
            logger.warning("%s: ignoring a malformed message on the event stream: %s", self._shown, exc)
            return
        if _jsonrpc.is_response(message):
            pending = self._pending.get(message.get("id"))  # type: ignore[arg-type]
            if pending is None or pending.reply is not None:
                logger.debug("%s: ignoring a response for unknown request %r", self._shown, message.get("id"))
                return
            pending.reply = message
            pending.done.set()
            return
        on_message = self._on_message
        if on_message is None:
            return
        if not _jsonrpc.is_request(message) or self._spawn is None:
            await on_message(message, None)
            return

        async def run() -> None:
            await on_message(message, None)

        await self._server_requests.spawn(self._spawn, run)

    def _lose(self, error: MCPConnectionError | ProtocolError) -> None:
        """The stream is gone: every waiting request fails now, not at its deadline."""
        if self._lost is None:
            self._lost = error
        for pending in self._pending.values():
            pending.done.set()

    # ------------------------------------------------------------------ POSTs

    async def _post(self, message: Message, headers: Mapping[str, str], request_id: RequestId | None) -> None:
        if self._lost is not None:
            raise self._lost
        endpoint = self._endpoint
        if endpoint is None:
            raise MCPConnectionError(f"{self._shown}: the transport is not open")
        client = self._require_client()
        shown = without_credentials(endpoint)  # the server may name it with a user:password@
        try:
            async with Exchange(
                client,
                endpoint,
                "POST",
                {**_POST_HEADERS, **headers},
                _jsonrpc.encode(message),
                self._request_auth,
            ) as response:
                status, reason = response.status_code, response.reason_phrase
                body = await read_limited(response, shown, self._max_bytes)
        except httpx2.HTTPError as exc:
            raise connection_error(self._shown, exc) from None
        if status < 400:
            return
        if status == 404:
            raise SessionExpiredError(
                f"{self._shown} no longer knows our session (HTTP 404 from {shown}); connect again"
            )
        detail = body[:_ERROR_BODY_BYTES].decode("utf-8", "replace").strip()
        text = f"HTTP {status} {reason} from {shown}"
        if detail:
            text += f": {detail[:200]}"
        if request_id is None:
            raise MCPConnectionError(text)
        pending = self._pending.get(request_id)
        if pending is not None:
            pending.reply = _jsonrpc.error_response(request_id, _jsonrpc.INTERNAL_ERROR, text)
            pending.done.set()

    def _require_client(self) -> httpx2.AsyncClient:
        if self._client is None:
            raise MCPConnectionError(f"{self._shown}: the transport is not open")
        return self._client


async def _short_body(response: httpx2.Response, url: str, max_bytes: int) -> str:
    """The start of an error body, for the message; one over ``max_bytes`` is left out."""
    try:
        body = await read_limited(response, url, max_bytes)
    except ProtocolError:
        return ""
    text = body[:200].decode("utf-8", "replace").strip()
    return f": {text}" if text else ""
