"""Streamable HTTP transport: every client message is a POST; replies are JSON or an SSE stream.

What belongs to the HTTP transport spec lives here, in both eras: the accept/content-type headers, JSON
and SSE replies, the legacy session (``Mcp-Session-Id`` taken from the ``initialize`` response only,
sent on every later request, DELETE on close), resuming a dropped SSE stream with GET and
``Last-Event-ID`` after the server's ``retry:`` delay, and the standalone GET stream for notifications.
Which headers name the protocol version, method and tool is the era's business: they come in with
each message.

HTTP failures come back as JSON-RPC error responses (a JSON-RPC body is passed through with our id; a
bare 404 without a session is ``-32601``; anything else ``-32603``), because the era negotiation reads
them as evidence. Network failures raise ``MCPConnectionError`` naming the URL.

In the 2026-07-28 era there is no resumption: a reply stream that ends before the answer raises
``RequestStreamLost`` and the client re-issues the request with a new id.

Redirects: an MCP endpoint does not move, and every request carries the user's headers, the session id
and whatever ``Authorization`` the ``auth`` adds. So a redirect to another origin (scheme, host or
port) is never followed, whatever its status; within the same origin only 307 and 308 (which keep the
method and body) are followed, at most ``_MAX_REDIRECTS`` times; any other redirect fails the request.
A redirect's own body is never read.

Bounds: every byte of a body counts against ``max_message_bytes`` as it arrives, before and after
``Content-Encoding`` is undone (``content_encoding``, which never inflates more than a piece at a time):
a JSON body, an acknowledgement or an error body may be that large; an SSE stream may run for ever but
no single event may be larger (``sse``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping
from types import TracebackType
from typing import Any

import anyio
import httpx

from mcp_client import _jsonrpc
from mcp_client._errors import (
    MCPClientError,
    MCPConnectionError,
    ProtocolError,
    RequestStreamLost,
    SessionExpiredError,
)
from mcp_client._transport import (
    DEFAULT_MAX_MESSAGE_BYTES,
    Message,
    RequestId,
    ServerMessageSink,
    ServerRequestSlots,
    Spawn,
)
from mcp_client._transports.content_encoding import ACCEPT_ENCODING, BodyDecoder, ContentEncodingError
from mcp_client._transports.sse import EventTooLarge, ServerSentEvent, SSEDecoder

logger = logging.getLogger("mcp_client.http")

_ACCEPT = "application/json, text/event-stream"
_SESSION = "mcp-session-id"
_VERSION = "mcp-protocol-version"
_DEFAULT_RETRY_MS = 1000
_MAX_RESUME_ATTEMPTS = 2
_DRAIN_SECONDS = 0.5
_GET_STREAM_WAIT_SECONDS = 2.0
_MAX_CONCURRENT_SENDS = 16
_MAX_REDIRECTS = 3
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_SAME_METHOD_REDIRECTS = frozenset({307, 308})
_DEFAULT_PORTS = {"http": 80, "https": 443}
_KEEPALIVE_CONNECTIONS = 20
_SESSION_ID = re.compile(r"[\x21-\x7e]+")
"""Visible ASCII only, as the spec requires of ``Mcp-Session-Id`` (anything else cannot be sent back)."""
_EVENT_ID = re.compile(r"[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?")
"""An SSE event id that can go back in a ``Last-Event-ID`` header; other ids are not used as cursors."""


class _Waiter:
    """A request reading its own SSE stream, which a response on the GET stream may end early."""

    __slots__ = ("reply", "scope")

    def __init__(self) -> None:
        self.scope: anyio.CancelScope | None = None
        self.reply: Message | None = None


class _EventStream:
    """The SSE events of one response: Content-Encoding undone and events decoded, both bounded."""

    __slots__ = ("_body", "_events", "_url")

    def __init__(self, response: httpx.Response, url: str, max_bytes: int) -> None:
        self._url = url
        self._body = _body_decoder(response, url)
        self._events = SSEDecoder(max_bytes)

    def feed(self, raw: bytes) -> Iterator[ServerSentEvent]:
        try:
            if self._body.identity:
                yield from self._events.feed(raw)
                return
            for piece in self._body.decode(raw):
                yield from self._events.feed(piece)
        except EventTooLarge as exc:
            raise ProtocolError(f"{self._url} sent an SSE event larger than {exc.limit} bytes") from None
        except ContentEncodingError as exc:
            raise ProtocolError(f"{self._url}: {exc}") from None


class StreamableHTTPTransport:
    """A connection to one streamable HTTP endpoint (see the module docstring).

    ``headers`` and ``auth`` apply to every request. ``max_message_bytes`` caps one JSON body or one SSE
    event, so a hostile server cannot make the client buffer without bound. With your own
    ``http_client`` the redirect policy still holds (it is applied per request); its connection limits
    are yours: keep room for the answers a client POSTs while its calls' streams stay open.
    """

    def __init__(
        self,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        auth: httpx.Auth | None = None,
        timeout: float | None = 30.0,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self.url = url
        self._extra_headers = dict(headers or {})
        self._auth = auth
        self._timeout = timeout
        self._max_bytes = max_message_bytes
        self._client = http_client
        self._owns_client = http_client is None
        self._session_id: str | None = None
        self._protocol_version: str | None = None
        self._spawn: Spawn | None = None
        self._on_message: ServerMessageSink | None = None
        self._get_scope: anyio.CancelScope | None = None
        self._get_ready = anyio.Event()
        self._waiters: dict[Any, _Waiter] = {}
        self._send_slots = anyio.Semaphore(_MAX_CONCURRENT_SENDS)
        self._server_requests = ServerRequestSlots()

    # ------------------------------------------------------------------ Transport interface

    @property
    def label(self) -> str:
        return self.url

    @property
    def cancels_by_closing(self) -> bool:
        return True

    @property
    def sends_headers(self) -> bool:
        return True

    @property
    def binds_waits(self) -> bool:
        return False  # httpx waits in its own ways: each request is bounded by a cancel scope

    @property
    def backlogged(self) -> bool:
        return False  # each message is a request of its own: none waits behind an unread one

    @property
    def startup_grace(self) -> float:
        return 0.0  # the server is already running: a slow first answer is a slow server

    @property
    def may_ignore_unknown_requests(self) -> bool:
        return False  # every POST gets an HTTP answer, if only an error

    @property
    def session_id(self) -> str | None:
        """The legacy session id, once an ``initialize`` response gave one."""
        return self._session_id

    async def open(self, spawn: Spawn, on_message: ServerMessageSink) -> None:
        self._spawn = spawn
        self._on_message = on_message
        if self._client is None:
            self._client = httpx.AsyncClient(
                headers=self._extra_headers,
                auth=self._auth,
                timeout=httpx.Timeout(self._timeout, read=None),
                follow_redirects=False,
                # Each call holds a connection for its reply stream while its questions are answered
                # over new ones: a cap would let a hundred waiting calls starve their own answers.
                # Answers are already bounded (_MAX_CONCURRENT_SENDS); calls are the app's to bound.
                limits=httpx.Limits(max_connections=None, max_keepalive_connections=_KEEPALIVE_CONNECTIONS),
            )
        else:
            self._client.headers.update(self._extra_headers)

    async def request(
        self,
        message: Message,
        headers: Mapping[str, str],
        *,
        resumable: bool = True,
        protocol_version: str | None = None,
    ) -> Message:
        is_initialize = message.get("method") == "initialize"
        if is_initialize:
            self._session_id = None  # a new session; never reuse an id from an earlier one
            self._stop_get_stream()  # the old session's stream; the new one opens after `initialized`
        if protocol_version is not None:
            self._protocol_version = protocol_version  # for the GET streams (resumption, standalone)
        request_headers = self._headers(headers)
        request_id = message["id"]
        try:
            async with self._exchange("POST", request_headers, _jsonrpc.encode(message)) as response:
                if is_initialize and response.status_code < 400:
                    self._session_id = self._valid_session_id(response)
                if response.status_code >= 400:
                    return await self._error_reply(response, request_id, is_initialize)
                content_type = response.headers.get("content-type", "").partition(";")[0].strip().lower()
                if content_type == "text/event-stream":
                    return await self._read_sse(response, request_id, resumable)
                if content_type == "application/json":
                    return await self._read_json(response, request_id)
                raise ProtocolError(
                    f"{self.url} answered {message.get('method')!r} with HTTP {response.status_code} and "
                    f"content type {content_type or '(none)'!r}; expected application/json or "
                    "text/event-stream. Is this URL an MCP endpoint?"
                )
        except httpx.TransportError as exc:
            raise self._connection_error(exc) from exc

    async def send(
        self, message: Message, headers: Mapping[str, str], *, protocol_version: str | None = None
    ) -> None:
        """POST a notification or a response; the server's acknowledgement is read within bounds.

        The acknowledgement may take at most ``timeout`` and ``max_message_bytes``: a server that never
        finishes it must not hang the client (the handshake waits on ``notifications/initialized``).
        At most ``_MAX_CONCURRENT_SENDS`` run at once: answers to a thousand pushed requests go out in
        turn, instead of queueing a thousand POSTs in httpx's pool, where every one of them times out.
        """
        what = message.get("method", "response")
        if protocol_version is not None:
            self._protocol_version = protocol_version
        status = 0
        body = b""
        with anyio.move_on_after(self._timeout) as waiting:
            async with self._send_slots:
                try:
                    async with self._exchange(
                        "POST", self._headers(headers), _jsonrpc.encode(message)
                    ) as response:
                        status = response.status_code
                        body = await self._read_limited(response)
                except httpx.TransportError as exc:
                    raise self._connection_error(exc) from exc
                except ProtocolError as exc:
                    logger.warning("%s (answering a %s)", exc, what)
                    return
        if waiting.cancelled_caught:
            logger.warning("%s did not acknowledge a %s within %ss", self.url, what, self._timeout)
            return
        if status >= 400:
            logger.warning(
                "%s refused a %s with HTTP %s: %.200s",
                self.url,
                what,
                status,
                body[:200].decode("utf-8", "replace"),
            )
        elif message.get("method") == "notifications/initialized" and self._session_id is not None:
            ready = self._start_get_stream()
            # A server may route its first pushes to the GET stream: have it open before any request.
            with anyio.move_on_after(_GET_STREAM_WAIT_SECONDS):
                await ready.wait()

    async def aclose(self) -> None:
        self._stop_get_stream()
        client = self._client
        if client is None:
            return
        try:
            if self._session_id is not None:
                with anyio.move_on_after(2.0, shield=True):
                    async with self._exchange("DELETE", self._headers({})):
                        pass  # the status is all there is to know; the body is never read
        except (httpx.HTTPError, MCPClientError):
            pass  # the session ends anyway; the server may have gone first
        finally:
            self._session_id = None
            if self._owns_client:
                with anyio.CancelScope(shield=True):
                    await client.aclose()
                self._client = None

    # --------------------------------------------------------------------------- internals

    def _require_client(self) -> httpx.AsyncClient:
        if self._client is None:
            raise MCPConnectionError(f"the HTTP transport to {self.url} is not open")
        return self._client

    def _exchange(self, method: str, headers: Mapping[str, str], content: bytes | None = None) -> _Exchange:
        """One exchange with the endpoint, under the redirect policy of the module docstring.

        ``async with self._exchange(...) as response``: the response's body is streamed and closed on exit.
        """
        return _Exchange(self, method, headers, content)

    async def _open(self, method: str, headers: Mapping[str, str], content: bytes | None) -> httpx.Response:
        """Send the request, following allowed redirects; the final response, its body not yet read."""
        client = self._require_client()
        url = self.url
        for _ in range(_MAX_REDIRECTS + 1):
            # build_request + send(stream=True), not client.stream(): no generator-based context
            # manager on the hot path (two fewer frames per exchange; see bench/README.md).
            request = client.build_request(method, url, content=content, headers=headers)
            response = await client.send(request, stream=True, follow_redirects=False)
            location = response.headers.get("location") if response.status_code in _REDIRECTS else None
            if location is None:
                return response
            await response.aclose()
            url = self._redirect_target(method, url, response.status_code, location)
        raise ProtocolError(
            f"{self.url} redirected {method} more than {_MAX_REDIRECTS} times; an MCP endpoint does not "
            "move: connect to its final URL directly"
        )

    def _redirect_target(self, method: str, current: str, status: int, location: str) -> str:
        shown = location if len(location) <= 200 else location[:200] + "..."
        if status not in _SAME_METHOD_REDIRECTS:
            raise ProtocolError(
                f"{self.url} answered {method} with an HTTP {status} redirect to {shown!r}; the client "
                "follows only 307 and 308 redirects within the same origin: connect to the new URL "
                "directly if the endpoint moved"
            )
        try:
            target = httpx.URL(current).join(location)
        except (httpx.InvalidURL, ValueError):
            raise ProtocolError(f"{self.url} redirected {method} to an invalid URL {shown!r}") from None
        home = _origin(httpx.URL(self.url))
        if _origin(target) != home:
            raise ProtocolError(
                f"{self.url} redirected {method} to another origin ({shown!r}); the client never follows "
                f"a redirect to another origin, so your headers, session id and credentials stay with "
                f"{_origin_text(home)}. If the endpoint really moved, connect to the new URL directly."
            )
        return str(target)

    def _headers(self, era_headers: Mapping[str, str]) -> dict[str, str]:
        headers = {
            "accept": _ACCEPT,
            "accept-encoding": ACCEPT_ENCODING,
            "content-type": "application/json",
            **era_headers,
        }
        if self._session_id is not None:
            headers[_SESSION] = self._session_id
        return headers

    def _valid_session_id(self, response: httpx.Response) -> str | None:
        session_id = response.headers.get(_SESSION) or None
        if session_id is not None and not _SESSION_ID.fullmatch(session_id):
            raise ProtocolError(
                f"{self.url} gave a session id (Mcp-Session-Id) with characters other than visible ASCII "
                f"({session_id[:80]!r}); the spec forbids that, and the client could not send it back"
            )
        return session_id

    def _connection_error(self, exc: httpx.TransportError) -> MCPConnectionError:
        if isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout):
            return MCPConnectionError(
                f"could not connect to {self.url} ({exc or type(exc).__name__}); "
                "check that the server is running and the URL is right"
            )
        return MCPConnectionError(f"the connection to {self.url} failed: {exc or type(exc).__name__}")

    async def _error_reply(self, response: httpx.Response, request_id: Any, is_initialize: bool) -> Message:
        body = await self._read_limited(response)
        status = response.status_code
        if status == 404 and self._session_id is not None and not is_initialize:
            self._session_id = None
            raise SessionExpiredError(f"{self.url} no longer knows our session (HTTP 404)")
        try:
            reply = _jsonrpc.decode(body)
            if "error" in reply:
                reply["id"] = request_id
                return reply
        except ProtocolError:
            pass
        if status == 404:
            return _jsonrpc.error_response(request_id, _jsonrpc.METHOD_NOT_FOUND, f"HTTP 404 from {self.url}")
        text = body[:200].decode("utf-8", "replace").strip()
        detail = f": {text}" if text else ""
        return _jsonrpc.error_response(
            request_id,
            _jsonrpc.INTERNAL_ERROR,
            f"HTTP {status} {response.reason_phrase} from {self.url}{detail}",
        )

    async def _read_limited(self, response: httpx.Response) -> bytes:
        """The whole body, refused as soon as it passes ``max_message_bytes``, on the wire or decoded."""
        decoder = _body_decoder(response, self.url)
        chunks: list[bytes] = []
        wire = 0
        size = 0
        if decoder.identity:  # the common case: count the bytes, no decoding generator per chunk
            async for raw in response.aiter_raw():
                wire += len(raw)
                if wire > self._max_bytes:
                    raise self._too_large()
                chunks.append(raw)
            return chunks[0] if len(chunks) == 1 else b"".join(chunks)
        try:
            async for raw in response.aiter_raw():
                wire += len(raw)
                if wire > self._max_bytes:
                    raise self._too_large()
                for piece in decoder.decode(raw):
                    size += len(piece)
                    if size > self._max_bytes:
                        raise self._too_large()
                    chunks.append(piece)
        except ContentEncodingError as exc:
            raise ProtocolError(f"{self.url}: {exc}") from None
        return b"".join(chunks)

    def _too_large(self) -> ProtocolError:
        return ProtocolError(
            f"{self.url} sent a message larger than {self._max_bytes} bytes; "
            "raise Client(max_message_bytes=...) if that is expected"
        )

    async def _read_json(self, response: httpx.Response, request_id: Any) -> Message:
        body = await self._read_limited(response)
        if not body.strip():
            raise ProtocolError(
                f"{self.url} answered a request with an empty body (HTTP {response.status_code})"
            )
        reply = self._decode(body)
        if _jsonrpc.is_response(reply):
            if reply.get("id") is None and "error" in reply:
                reply["id"] = request_id
            if reply.get("id") == request_id:
                return reply
            raise ProtocolError(
                f"{self.url} answered request {request_id!r} with a response for {reply.get('id')!r}"
            )
        raise ProtocolError(
            f"{self.url} answered a request with a {reply.get('method')!r} message, not a response"
        )

    async def _read_sse(self, response: httpx.Response, request_id: Any, resumable: bool) -> Message:
        """Read SSE events until our response, wherever it comes (see ``_read_own_stream``)."""
        waiter = _Waiter()
        self._waiters[request_id] = waiter
        try:
            with anyio.CancelScope() as waiter.scope:
                return await self._read_own_stream(response, request_id, resumable)
            assert waiter.reply is not None  # only a reply on the GET stream cancels the scope
            return waiter.reply
        finally:
            self._waiters.pop(request_id, None)

    async def _read_own_stream(self, response: httpx.Response, request_id: Any, resumable: bool) -> Message:
        """Read our stream until the response; resume with GET + Last-Event-ID if the stream drops.

        Only legacy versions resume; in the 2026-07-28 era a dropped stream is lost and the client
        re-issues the request (``RequestStreamLost``).
        """
        cursor: list[str | None] = [None]
        retry_ms = [_DEFAULT_RETRY_MS]
        reply = await self._consume_events(response, request_id, cursor, retry_ms)
        attempts = 0
        while reply is None:
            if not resumable:
                raise RequestStreamLost(
                    f"{self.url} closed the stream for request {request_id!r} before answering it"
                )
            if cursor[0] is None:
                raise MCPConnectionError(
                    f"{self.url} closed the stream for request {request_id!r} before answering it, "
                    "and gave no event id to resume from"
                )
            if attempts >= _MAX_RESUME_ATTEMPTS:
                raise MCPConnectionError(
                    f"{self.url} closed the stream for request {request_id!r} {attempts + 1} times "
                    f"without answering it (last event id {cursor[0]!r})"
                )
            attempts += 1
            await anyio.sleep(retry_ms[0] / 1000)
            before = cursor[0]
            reply = await self._resume(request_id, cursor, retry_ms)
            if cursor[0] != before:
                attempts = 0  # progress: the stream gave us something new
        return reply

    async def _resume(self, request_id: Any, cursor: list[str | None], retry_ms: list[int]) -> Message | None:
        headers = self._get_headers()
        headers["last-event-id"] = cursor[0] or ""
        try:
            async with self._exchange("GET", headers) as response:
                if response.status_code >= 400:
                    if response.status_code == 404 and self._session_id is not None:
                        self._session_id = None
                        raise SessionExpiredError(f"{self.url} no longer knows our session (HTTP 404)")
                    return None
                if not _is_event_stream(response):
                    return None
                return await self._consume_events(response, request_id, cursor, retry_ms)
        except httpx.TransportError:
            return None  # counted as an attempt that yielded nothing

    async def _consume_events(
        self, response: httpx.Response, request_id: Any, cursor: list[str | None], retry_ms: list[int]
    ) -> Message | None:
        """Dispatch every event of one SSE response; return our reply if it came.

        After the reply the rest of the stream is read (briefly) so httpx can reuse the connection.
        """
        reply: Message | None = None
        handlers: list[anyio.CancelScope] = []
        events = _EventStream(response, self.url, self._max_bytes)
        try:
            with anyio.CancelScope() as drain:
                try:
                    async for raw in response.aiter_raw():
                        for event in events.feed(raw):
                            if event.retry is not None:
                                retry_ms[0] = max(0, min(event.retry, 60_000))
                            if event.id is not None:
                                _advance(cursor, event.id)
                            if not event.data:
                                continue  # a priming event: a cursor only
                            message = self._decode(event.data)
                            if _jsonrpc.is_response(message):
                                ours = message.get("id") == request_id or (
                                    message.get("id") is None and "error" in message
                                )
                                if ours and reply is None:  # the first answer wins; a duplicate is ignored
                                    message["id"] = request_id
                                    reply = message
                                    drain.deadline = anyio.current_time() + _DRAIN_SECONDS
                                else:
                                    logger.debug(
                                        "ignoring a response for %r (unknown or repeated)", message.get("id")
                                    )
                            else:
                                await self._dispatch(message, handlers, request_id)
                except httpx.TransportError:
                    if reply is None:
                        return None  # dropped: the caller resumes from the cursor if it can
                except ProtocolError:
                    if reply is None:
                        raise
                    # The answer came: garbage after it (read while draining) cannot take it away.
        finally:
            if reply is not None:
                for scope in handlers:
                    scope.cancel()  # the request is answered; its questions are moot
        return reply

    def _decode(self, data: bytes | str) -> Message:
        """``_jsonrpc.decode``, with the server's URL in the error."""
        try:
            return _jsonrpc.decode(data)
        except ProtocolError as exc:
            raise ProtocolError(f"{self.url}: {exc}") from None

    async def _dispatch(
        self, message: Message, handlers: list[anyio.CancelScope] | None, related: RequestId | None
    ) -> None:
        """Pass a server message on; one that came on a request's own stream names that request.

        A request runs in its own task, once a slot is free (see ``ServerRequestSlots``).
        """
        on_message = self._on_message
        if on_message is None:
            return
        if not _jsonrpc.is_request(message) or self._spawn is None:
            await on_message(message, related)
            return
        scope = anyio.CancelScope()
        if handlers is not None:
            handlers.append(scope)

        async def run() -> None:
            with scope:
                await on_message(message, related)

        await self._server_requests.spawn(self._spawn, run)

    def _get_headers(self) -> dict[str, str]:
        headers = {
            "accept": "text/event-stream",
            "accept-encoding": ACCEPT_ENCODING,
            "cache-control": "no-store",
        }
        if self._protocol_version is not None:
            headers[_VERSION] = self._protocol_version
        if self._session_id is not None:
            headers[_SESSION] = self._session_id
        return headers

    def _start_get_stream(self) -> anyio.Event:
        """Open the standalone GET stream of the current session, unless it is open; return its readiness."""
        if self._spawn is None or self._get_scope is not None:
            return self._get_ready
        scope = self._get_scope = anyio.CancelScope()
        ready = self._get_ready = anyio.Event()

        async def run() -> None:
            with scope:
                try:
                    await self._get_stream_loop(ready)
                finally:
                    ready.set()
                    if self._get_scope is scope:
                        self._get_scope = None  # a later session opens its own

        self._spawn(run)
        return ready

    def _stop_get_stream(self) -> None:
        scope, self._get_scope = self._get_scope, None
        if scope is not None:
            scope.cancel()

    async def _get_stream_loop(self, ready: anyio.Event) -> None:
        """The standalone GET stream: server messages not tied to a request (legacy only)."""
        cursor: list[str | None] = [None]
        retry_ms = _DEFAULT_RETRY_MS
        failures = 0
        while failures <= _MAX_RESUME_ATTEMPTS and self._session_id is not None:
            headers = self._get_headers()
            if cursor[0] is not None:
                headers["last-event-id"] = cursor[0]
            got_event = False
            try:
                async with self._exchange("GET", headers) as response:
                    ready.set()
                    if response.status_code >= 400 or not _is_event_stream(response):
                        return  # 405: the server offers no standalone stream
                    events = _EventStream(response, self.url, self._max_bytes)
                    async for raw in response.aiter_raw():
                        for event in events.feed(raw):
                            got_event = True
                            if event.retry is not None:
                                retry_ms = max(0, min(event.retry, 60_000))
                            if event.id is not None:
                                _advance(cursor, event.id)
                            if not event.data:
                                continue
                            try:
                                message = _jsonrpc.decode(event.data)
                            except ProtocolError as exc:
                                logger.warning("ignoring a malformed message on the GET stream: %s", exc)
                                continue
                            if _jsonrpc.is_response(message):
                                self._deliver_elsewhere(message)
                            else:
                                await self._dispatch(message, None, None)
            except (httpx.HTTPError, MCPConnectionError, ProtocolError):
                pass
            failures = 0 if got_event else failures + 1
            await anyio.sleep(retry_ms / 1000)

    def _deliver_elsewhere(self, message: Message) -> None:
        """A response on the GET stream: hand it to the request still waiting for it on its own stream."""
        waiter = self._waiters.get(message.get("id"))
        if waiter is None or waiter.reply is not None or waiter.scope is None:
            logger.debug("ignoring a response on the GET stream for unknown request %r", message.get("id"))
            return
        waiter.reply = message
        waiter.scope.cancel()


class _Exchange:
    """``async with``: the response of ``StreamableHTTPTransport._open``, closed on the way out.

    A plain class, not ``@asynccontextmanager``: it is entered once per request, on the hot path.
    """

    __slots__ = ("_content", "_headers", "_method", "_response", "_transport")

    def __init__(
        self,
        transport: StreamableHTTPTransport,
        method: str,
        headers: Mapping[str, str],
        content: bytes | None,
    ) -> None:
        self._transport = transport
        self._method = method
        self._headers = headers
        self._content = content
        self._response: httpx.Response | None = None

    async def __aenter__(self) -> httpx.Response:
        transport = self._transport
        response = await transport._open(self._method, self._headers, self._content)
        self._response = response
        return response

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._response is not None:
            await self._response.aclose()


_IDENTITY = BodyDecoder(None)
"""The decoder of every uncompressed body (it has no state): most bodies, built once."""


def _body_decoder(response: httpx.Response, url: str) -> BodyDecoder:
    encoding = response.headers.get("content-encoding")
    if not encoding:
        return _IDENTITY
    try:
        return BodyDecoder(encoding)
    except ContentEncodingError as exc:
        raise ProtocolError(f"{url}: {exc}") from None


def _is_event_stream(response: httpx.Response) -> bool:
    return response.headers.get("content-type", "").partition(";")[0].strip().lower() == "text/event-stream"


def _advance(cursor: list[str | None], event_id: str) -> None:
    """Take ``event_id`` as the resume cursor if it can travel in a ``Last-Event-ID`` header."""
    if not event_id:
        return
    if _EVENT_ID.fullmatch(event_id):
        cursor[0] = event_id
    else:
        logger.debug("ignoring an SSE event id that cannot be sent back: %.80r", event_id)


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port or _DEFAULT_PORTS.get(url.scheme)


def _origin_text(origin: tuple[str, str, int | None]) -> str:
    scheme, host, port = origin
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}:{port}"
