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

A reply stream that drops before the answer is resumed when the client says it may be
(``request(..., resumable=True)``, the legacy era); otherwise it raises ``RequestStreamLost`` and the
client re-issues the request with a new id (2026-07-28).

The redirect policy is ``http_redirects``'s; bodies and SSE events are read within
``max_message_bytes`` by ``http_body`` (one SSE event reader for a reply stream and the GET stream).
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Mapping
from typing import Any

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
)
from mcp_client._connection.url_credentials import request_auth, take_credentials
from mcp_client._errors import (
    MCPClientError,
    MCPConnectionError,
    ProtocolError,
    RequestStreamLost,
    SessionExpiredError,
)
from mcp_client._protocol import jsonrpc as _jsonrpc
from mcp_client._transports.content_encoding import ACCEPT_ENCODING
from mcp_client._transports.http_body import (
    EventReader,
    StreamCursor,
    connection_error,
    is_event_stream,
    read_limited,
)
from mcp_client._transports.http_pool import MAX_ANSWER_CONNECTIONS, PoolSplit, pool_limit
from mcp_client._transports.http_redirects import Exchange

logger = logging.getLogger("mcp_client.http")

_ACCEPT = "application/json, text/event-stream"
_SESSION = "mcp-session-id"
_VERSION = "mcp-protocol-version"
_MAX_RESUME_ATTEMPTS = 2
_DRAIN_SECONDS = 0.5
_GET_STREAM_WAIT_SECONDS = 2.0
_KEEPALIVE_CONNECTIONS = 20
"""httpx2's default. httpcore2 closes a connection that turns idle while the pool holds more than this
many in all, busy ones too, so many calls in flight open new connections; yet 200 measured 3-4x slower
at 128 and 512 calls in flight (bench fan-out, 2026-12-05): keep 20 unless a bench run says otherwise."""
_SESSION_ID = re.compile(r"[\x21-\x7e]+")
"""Visible ASCII only, as the spec requires of ``Mcp-Session-Id`` (anything else cannot be sent back)."""


class _Waiter:
    """A request reading its own SSE stream: one scope, which a response on the GET stream cancels
    (``reply`` set first), and whose deadline bounds the drain once our own response is in."""

    __slots__ = ("reply", "scope")

    def __init__(self) -> None:
        self.scope: anyio.CancelScope | None = None
        self.reply: Message | None = None


class StreamableHTTPTransport:
    """A connection to one streamable HTTP endpoint (see the module docstring).

    ``headers`` and ``auth`` apply to every request (with your own ``http_client``, give it the auth:
    ``auth=`` beside it is refused, never dropped). ``max_message_bytes`` caps one JSON body or one SSE
    event, so a hostile server cannot make the client buffer without bound. With your own
    ``http_client`` the redirect policy still holds (it is applied per request); if its pool caps the
    connections, a few of them are kept for the answers a client POSTs while its calls' streams stay
    open, and a call that finds no connection left fails naming the limit (``http_pool``).
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
        label: str | None = None,
    ) -> None:
        bare, self._url_auth = take_credentials(url)  # httpx2 never sees user:password@ (it logs URLs)
        self.url: str = bare
        self._request_auth: httpx2.Auth | None = None  # set on open: the URL's credentials, or the client's
        self._shown = label or without_credentials(url)  # what names the server: never its password
        self._http_options = http_options or DEFAULT_HTTP_OPTIONS
        self._extra_headers = dict(headers or {})
        self._auth = as_httpx2_auth(auth, max_body_bytes=max_message_bytes)
        self._timeout = timeout
        self._max_bytes = max_message_bytes
        if http_client is not None:
            require_httpx2_client(http_client, "http_client is", "pass")
            own_client_auth("StreamableHTTPTransport", http_client, auth, max_body_bytes=max_message_bytes)
        self._client = http_client
        self._owns_client = http_client is None
        self._session_id: str | None = None
        self.initialize_refused_with: int | None = None
        """The HTTP status that refused our last ``initialize`` (the older HTTP+SSE fallback reads it)."""
        self._protocol_version: str | None = None
        self._spawn: Spawn | None = None
        self._on_message: ServerMessageSink | None = None
        self._get_scope: anyio.CancelScope | None = None
        self._get_ready = anyio.Event()
        self._waiters: dict[Any, _Waiter] = {}
        self._send_slots = anyio.Semaphore(MAX_ANSWER_CONNECTIONS)
        self._pool: PoolSplit | None = None  # a user's pool with a cap, split between calls and answers
        self._requests_in_flight = 0  # our POSTs waiting for their answers: each may explain a question
        self._server_requests = ServerRequestSlots(in_flight=lambda: self._requests_in_flight)

    # ------------------------------------------------------------------ Transport interface

    @property
    def kind(self) -> str:
        return "http"

    @property
    def label(self) -> str:
        return self._shown

    @property
    def cancels_by_closing(self) -> bool:
        return True

    @property
    def sends_headers(self) -> bool:
        return True

    @property
    def binds_waits(self) -> bool:
        return False  # httpx2 waits in its own ways: each request is bounded by a cancel scope

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
            self._client = self._http_options.client(
                headers=self._extra_headers,
                auth=self._auth,
                timeout=httpx2.Timeout(self._timeout, read=None),
                # Each call holds a connection for its reply stream while its questions are answered
                # over new ones: a cap would let a hundred waiting calls starve their own answers.
                # Answers are already bounded (MAX_ANSWER_CONNECTIONS); calls are the app's to bound.
                limits=httpx2.Limits(max_connections=None, max_keepalive_connections=_KEEPALIVE_CONNECTIONS),
            )
        else:
            self._client.headers.update(self._extra_headers)
        self._request_auth = request_auth(self._url_auth, self._client)
        limit = pool_limit(self._client)
        if limit is not None:  # a pool with a cap (a user's): keep room in it for the answers
            self._pool = PoolSplit(self._shown, limit, self._client.timeout.pool, self._timeout)
            self._send_slots = anyio.Semaphore(self._pool.answers)

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
        if protocol_version is not None or message.get("method") == "initialize":
            # For the GET streams (resumption, standalone). An initialize forgets what a refused
            # server/discover probe set: the handshake's version comes with its answer.
            self._protocol_version = protocol_version
        request_headers = self._headers(headers)
        request_id = message["id"]
        pool = self._pool
        if pool is not None:
            await pool.acquire()
        self._requests_in_flight += 1
        self._server_requests.more_room()  # one more call that may ask a question
        try:
            async with self._exchange("POST", request_headers, _jsonrpc.encode(message)) as response:
                if is_initialize and response.status_code < 400:
                    self._session_id = self._valid_session_id(response)
                if response.status_code >= 400:
                    if is_initialize:
                        self.initialize_refused_with = response.status_code
                    return await self._error_reply(response, request_id, is_initialize)
                content_type = response.headers.get("content-type", "").partition(";")[0].strip().lower()
                if content_type == "text/event-stream":
                    return await self._read_sse(response, request_id, resumable)
                if content_type == "application/json":
                    return await self._read_json(response, request_id)
                raise ProtocolError(
                    f"{self._shown} answered {message.get('method')!r} with HTTP {response.status_code} and "
                    f"content type {content_type or '(none)'!r}; expected application/json or "
                    "text/event-stream. Is this URL an MCP endpoint?"
                )
        except httpx2.TransportError as exc:
            raise connection_error(self._shown, exc) from exc
        finally:
            self._requests_in_flight -= 1
            if pool is not None:
                pool.release()

    async def send(
        self, message: Message, headers: Mapping[str, str], *, protocol_version: str | None = None
    ) -> None:
        """POST a notification or a response; the server's acknowledgement is read within bounds.

        The acknowledgement may take at most ``timeout`` and ``max_message_bytes``: a server that never
        finishes it must not hang the client (the handshake waits on ``notifications/initialized``).
        At most ``MAX_ANSWER_CONNECTIONS`` run at once (fewer in a user's capped pool): answers to a
        thousand pushed requests go out in turn, instead of queueing a thousand POSTs in httpx2's pool,
        where every one of them times out.
        """
        what = message.get("method", "response")
        if protocol_version is not None:
            self._protocol_version = protocol_version
        status = 0
        body = b""
        slots = self._send_slots
        with anyio.move_on_after(self._timeout) as waiting:
            try:
                slots.acquire_nowait()  # a free slot costs no trip through the event loop
            except anyio.WouldBlock:
                await slots.acquire()
            try:
                async with self._exchange(
                    "POST", self._headers(headers), _jsonrpc.encode(message)
                ) as response:
                    status = response.status_code
                    body = await read_limited(response, self._shown, self._max_bytes)
            except httpx2.TransportError as exc:
                raise connection_error(self._shown, exc) from exc
            except ProtocolError as exc:
                logger.warning("%s (answering a %s)", exc, what)
                return
            finally:
                slots.release()
        if waiting.cancelled_caught:
            logger.warning("%s did not acknowledge a %s within %ss", self._shown, what, self._timeout)
            return
        if status >= 400:
            logger.warning(
                "%s refused a %s with HTTP %s: %.200s",
                self._shown,
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
        except (httpx2.HTTPError, MCPClientError):
            pass  # the session ends anyway; the server may have gone first
        finally:
            self._session_id = None
            if self._owns_client:
                with anyio.CancelScope(shield=True):
                    await client.aclose()
                self._client = None

    # --------------------------------------------------------------------------- internals

    def _require_client(self) -> httpx2.AsyncClient:
        if self._client is None:
            raise MCPConnectionError(f"the HTTP transport to {self._shown} is not open")
        return self._client

    def _exchange(self, method: str, headers: Mapping[str, str], content: bytes | None = None) -> Exchange:
        """One exchange with the endpoint, under the redirect policy (``http_redirects``).

        ``async with self._exchange(...) as response``: the response's body is streamed and closed on exit.
        """
        return Exchange(self._require_client(), self.url, method, headers, content, self._request_auth)

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

    def _valid_session_id(self, response: httpx2.Response) -> str | None:
        session_id = response.headers.get(_SESSION) or None
        if session_id is not None and not _SESSION_ID.fullmatch(session_id):
            raise ProtocolError(
                f"{self._shown} gave a session id (Mcp-Session-Id) with characters other than visible ASCII "
                f"({session_id[:80]!r}); the spec forbids that, and the client could not send it back"
            )
        return session_id

    async def _error_reply(self, response: httpx2.Response, request_id: Any, is_initialize: bool) -> Message:
        body = await read_limited(response, self._shown, self._max_bytes)
        status = response.status_code
        if status == 404 and self._session_id is not None and not is_initialize:
            self._session_id = None
            raise SessionExpiredError(f"{self._shown} no longer knows our session (HTTP 404)")
        try:
            reply = _jsonrpc.decode(body)
            if "error" in reply:
                reply["id"] = request_id
                return reply
        except ProtocolError:
            pass
        if status == 404:
            return _jsonrpc.error_response(
                request_id, _jsonrpc.METHOD_NOT_FOUND, f"HTTP 404 from {self._shown}"
            )
        text = body[:200].decode("utf-8", "replace").strip()
        detail = f": {text}" if text else ""
        return _jsonrpc.error_response(
            request_id,
            _jsonrpc.INTERNAL_ERROR,
            f"HTTP {status} {response.reason_phrase} from {self._shown}{detail}",
            {"httpStatus": status},  # a gateway's 502/503/504 is read by _reconnect
        )

    async def _read_json(self, response: httpx2.Response, request_id: Any) -> Message:
        body = await read_limited(response, self._shown, self._max_bytes)
        if not body.strip():
            raise ProtocolError(
                f"{self._shown} answered a request with an empty body (HTTP {response.status_code})"
            )
        reply = self._decode(body)
        if _jsonrpc.is_response(reply):
            if reply.get("id") is None and "error" in reply:
                reply["id"] = request_id
            if reply.get("id") == request_id:
                return reply
            raise ProtocolError(
                f"{self._shown} answered request {request_id!r} with a response for {reply.get('id')!r}"
            )
        raise ProtocolError(
            f"{self._shown} answered a request with a {reply.get('method')!r} message, not a response"
        )

    async def _read_sse(self, response: httpx2.Response, request_id: Any, resumable: bool) -> Message:
        """Read SSE events until our response, wherever it comes (see ``_read_own_stream``).

        One cancel scope per reply: a response delivered on the GET stream cancels it, and once our
        response is in, its deadline bounds reading the rest of the stream (``_consume_events``).
        """
        waiter = _Waiter()
        self._waiters[request_id] = waiter
        try:
            with anyio.CancelScope() as waiter.scope:
                await self._read_own_stream(response, request_id, resumable, waiter)
            assert waiter.reply is not None  # kept before the drain; else delivered on the GET stream
            return waiter.reply
        finally:
            self._waiters.pop(request_id, None)

    async def _read_own_stream(
        self, response: httpx2.Response, request_id: Any, resumable: bool, waiter: _Waiter
    ) -> Message:
        """Read our stream until the response; resume with GET + Last-Event-ID if the stream drops.

        Only legacy versions resume; in the 2026-07-28 era a dropped stream is lost and the client
        re-issues the request (``RequestStreamLost``).
        """
        cursor = StreamCursor()
        reply = await self._consume_events(response, request_id, cursor, waiter)
        attempts = 0
        while reply is None:
            if not resumable:
                raise RequestStreamLost(
                    f"{self._shown} closed the stream for request {request_id!r} before answering it"
                )
            if cursor.last_id is None:
                raise MCPConnectionError(
                    f"{self._shown} closed the stream for request {request_id!r} before answering it, "
                    "and gave no event id to resume from"
                )
            if attempts >= _MAX_RESUME_ATTEMPTS:
                raise MCPConnectionError(
                    f"{self._shown} never answered request {request_id!r}: its response stream broke off "
                    f"{attempts + 1} times in a row, and resuming it (from event {cursor.last_id!r}) brought "
                    "nothing new; the server may be overloaded or restarting, try again later"
                )
            attempts += 1
            await anyio.sleep(cursor.retry_ms / 1000)
            before = cursor.last_id
            reply = await self._resume(request_id, cursor, waiter)
            if cursor.last_id != before:
                attempts = 0  # progress: the stream gave us something new
        return reply

    async def _resume(self, request_id: Any, cursor: StreamCursor, waiter: _Waiter) -> Message | None:
        headers = self._get_headers()
        headers["last-event-id"] = cursor.last_id or ""
        try:
            async with self._exchange("GET", headers) as response:
                if response.status_code >= 400:
                    if response.status_code == 404 and self._session_id is not None:
                        self._session_id = None
                        raise SessionExpiredError(f"{self._shown} no longer knows our session (HTTP 404)")
                    return None
                if not is_event_stream(response):
                    return None
                return await self._consume_events(response, request_id, cursor, waiter)
        except httpx2.TransportError:
            return None  # counted as an attempt that yielded nothing

    async def _consume_events(
        self, response: httpx2.Response, request_id: Any, cursor: StreamCursor, waiter: _Waiter
    ) -> Message | None:
        """Dispatch every event of one SSE response; return our reply if it came.

        After the reply the rest of the stream is read (briefly: ``waiter.scope``'s deadline) so httpx2
        can reuse the connection; the reply is kept in ``waiter`` first, so a drain cut short keeps it.
        The questions the stream carried are cancelled by their owners when the request is over
        (``_session.questions``), never here: an answer being sent goes on to its end.
        """
        reply: Message | None = None
        try:
            reader = EventReader(response, self._shown, self._max_bytes, cursor)
            async for raw in response.aiter_raw():
                for data in reader.feed(raw):
                    message = self._decode(data)
                    if _jsonrpc.is_response(message):
                        ours = message.get("id") == request_id or (
                            message.get("id") is None and "error" in message
                        )
                        if ours and waiter.reply is None:  # the first answer wins (here or on GET)
                            message["id"] = request_id
                            reply = waiter.reply = message
                            if waiter.scope is not None:
                                waiter.scope.deadline = anyio.current_time() + _DRAIN_SECONDS
                        else:
                            logger.debug(
                                "ignoring a response for %r (unknown or repeated)", message.get("id")
                            )
                    else:
                        await self._dispatch(message, request_id)
        except httpx2.TransportError:
            if reply is None:
                return None  # dropped: the caller resumes from the cursor if it can
        except ProtocolError:
            if reply is None:
                raise
            # The answer came: garbage after it (read while draining) cannot take it away.
        return reply

    def _decode(self, data: bytes | str) -> Message:
        """``_jsonrpc.decode``, with the server's URL in the error."""
        try:
            return _jsonrpc.decode(data)
        except ProtocolError as exc:
            raise ProtocolError(f"{self._shown}: {exc}") from None

    async def _dispatch(self, message: Message, related: RequestId | None) -> None:
        """Pass a server message on; one that came on a request's own stream names that request.

        A request runs in its own task, once a slot is free (see ``ServerRequestSlots``); the session
        cancels its callback if the request it belongs to is over first.
        """
        on_message = self._on_message
        if on_message is None:
            return
        if not _jsonrpc.is_request(message) or self._spawn is None:
            await on_message(message, related)
            return
        await self._server_requests.spawn(self._spawn, functools.partial(on_message, message, related))

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
        cursor = StreamCursor()
        failures = 0
        while failures <= _MAX_RESUME_ATTEMPTS and self._session_id is not None:
            headers = self._get_headers()
            if cursor.last_id is not None:
                headers["last-event-id"] = cursor.last_id
            events_before = cursor.events
            try:
                async with self._exchange("GET", headers) as response:
                    ready.set()
                    if response.status_code >= 400 or not is_event_stream(response):
                        return  # 405: the server offers no standalone stream
                    reader = EventReader(response, self._shown, self._max_bytes, cursor)
                    async for raw in response.aiter_raw():
                        for data in reader.feed(raw):
                            try:
                                message = _jsonrpc.decode(data)
                            except ProtocolError as exc:
                                logger.warning("ignoring a malformed message on the GET stream: %s", exc)
                                continue
                            if _jsonrpc.is_response(message):
                                self._deliver_elsewhere(message)
                            else:
                                await self._dispatch(message, None)
            except (httpx2.HTTPError, MCPConnectionError, ProtocolError):
                pass
            failures = 0 if cursor.events != events_before else failures + 1
            await anyio.sleep(cursor.retry_ms / 1000)

    def _deliver_elsewhere(self, message: Message) -> None:
        """A response on the GET stream: hand it to the request still waiting for it on its own stream."""
        waiter = self._waiters.get(message.get("id"))
        if waiter is None or waiter.reply is not None or waiter.scope is None:
            logger.debug("ignoring a response on the GET stream for unknown request %r", message.get("id"))
            return
        waiter.reply = message
        waiter.scope.cancel()
