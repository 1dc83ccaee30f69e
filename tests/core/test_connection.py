"""Connecting, negotiating, timing out, cancelling and losing servers: what a user sees in each case."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncGenerator, Generator
from typing import Any
from urllib.parse import urlsplit

import anyio
import anyio.lowlevel
import httpx
import httpx2
import pytest

from mcp_client import (
    Client,
    MCPConnectionError,
    MCPError,
    MCPTimeoutError,
    ServerError,
    ServerExitedError,
    StdioServerParameters,
)
from tests.core.helpers import accept, server_for, text_of
from tests.support.servers import free_loopback_port, start_http_server

pytestmark = pytest.mark.anyio


# ------------------------------------------------------------------ construction


def test_unknown_mode_lists_the_valid_values() -> None:
    with pytest.raises(ValueError) as caught:
        Client("http://127.0.0.1:1/mcp", mode="2025-11-25")
    message = str(caught.value)
    assert "'legacy'" in message and "'auto'" in message and "'2026-07-28'" in message


def test_a_command_string_is_not_mistaken_for_a_url() -> None:
    with pytest.raises(ValueError, match="StdioServerParameters"):
        Client("python server.py")


def test_each_misgiven_option_is_refused_with_the_message_that_says_what_to_pass() -> None:
    """The whole message, as the app's developer reads it: the option, what it takes, what was given."""
    from mcp_client import StreamableHTTPTransport

    def refusal(kind: type[Exception], **options: Any) -> str:
        server = options.pop("server", "http://127.0.0.1:9/mcp")
        with pytest.raises(kind) as caught:
            Client(server, **options)
        return str(caught.value)

    assert refusal(ValueError, mode="2025-11-25") == (
        "mode must be one of 'legacy', 'auto', '2026-07-28'; got '2025-11-25'"
    )
    assert refusal(ValueError, input_required_max_rounds=-1) == "input_required_max_rounds must be 0 or more"
    Client("http://127.0.0.1:9/mcp", input_required_max_rounds=0)  # none at all is a choice
    Client("https://mcp.example.test/mcp")  # both schemes are URLs
    assert refusal(ValueError, log_level="verbose") == (
        "log level must be one of debug, info, notice, warning, error, critical, alert, emergency; "
        "got 'verbose'"
    )
    assert refusal(ValueError, transport="websocket") == (
        "transport must be one of 'auto', 'http', 'sse'; got 'websocket'"
    )
    stdio = StdioServerParameters("python", args=["server.py"])
    assert refusal(ValueError, server=stdio, transport="sse") == (
        "transport='sse' applies to a URL only; the server given is StdioServerParameters"
    )
    assert refusal(ValueError, server=stdio, headers={"X-Team": "bistro"}, auth=_RecordingAuth()) == (
        "headers and auth cannot apply to a stdio server (StdioServerParameters): they only apply to "
        "HTTP servers"
    )
    assert refusal(ValueError, server=stdio, verify=False) == (
        "verify/cert/proxy/trust_env/httpx_client_factory cannot apply to a stdio server "
        "(StdioServerParameters): they only apply to HTTP servers"
    )
    ready = StreamableHTTPTransport("http://127.0.0.1:9/mcp")
    assert refusal(ValueError, server=ready, auth=_RecordingAuth(), trust_env=False) == (
        "auth and verify/cert/proxy/trust_env/httpx_client_factory cannot apply to a ready transport: "
        "pass them to the transport itself, e.g. StreamableHTTPTransport(url, headers=..., auth=..., "
        "http_options=HttpOptions(verify=...)), or give Client the URL instead"
    )
    assert refusal(TypeError, server=b"http://127.0.0.1:9/mcp") == (
        "server must be a URL string, a StdioServerParameters, a Transport or a server object (the official "
        "SDK's MCPServer, fastmcp's FastMCP); got bytes. For any other ASGI app, use InProcessTransport(app)"
    )
    assert refusal(ValueError, server="python server.py") == (
        "server must be an http:// or https:// URL, a StdioServerParameters or a transport; got "
        "'python server.py'. For a command, use StdioServerParameters(command, args=[...])."
    )


async def test_using_a_client_outside_async_with_says_how() -> None:
    from mcp_client import ClientStateError

    client = Client("http://127.0.0.1:1/mcp")
    with pytest.raises(ClientStateError, match="async with"):
        await client.list_tools()


# ------------------------------------------------------------------ negotiation


async def test_auto_adopts_the_modern_era(guide_http_url: str) -> None:
    async with Client(guide_http_url, mode="auto") as client:
        assert client.protocol_version == "2026-07-28"
        assert client.era == "modern"
        assert client.server_info is not None and client.server_info.name == "elicitation-research"
        assert client.server_capabilities.tools is not None
        assert client.instructions == "Research server for elicitation traces."


async def test_auto_falls_back_to_the_handshake(guide_http_legacy_only_url: str) -> None:
    callback = accept(accept_alternative=True)
    async with Client(guide_http_legacy_only_url, mode="auto", elicitation_callback=callback) as client:
        assert client.protocol_version == "2025-11-25"
        assert client.era == "legacy"
        result = await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})
    assert text_of(result) == "[SUCCESS] Booked for 2025-12-26"


async def test_auto_over_stdio_adopts_modern(guide_stdio_command: tuple[str, list[str]]) -> None:
    async with Client(StdioServerParameters(*guide_stdio_command), mode="auto") as client:
        assert client.protocol_version == "2026-07-28"
        assert text_of(await client.call_tool("echo", {"text": "hi"})) == "hi"


async def test_legacy_capabilities_reach_the_server(guide_http_url: str) -> None:
    """Without a callback the client declares nothing, so a resolver is refused with -32021."""
    async with Client(guide_http_url, mode="legacy") as client:
        with pytest.raises(MCPError) as caught:
            await client.call_tool("delete_folder", {"path": "/srv/photos"})
    assert caught.value.code == -32021
    assert caught.value.data == {"requiredCapabilities": {"elicitation": {"form": {}}}}


async def test_declaring_only_url_mode_is_honoured(guide_http_url: str) -> None:
    callback = accept(confirm=True)
    async with Client(
        guide_http_url, mode="2026-07-28", elicitation_callback=callback, elicitation_modes=["url"]
    ) as client:
        with pytest.raises(MCPError) as caught:
            await client.call_tool("delete_folder", {"path": "/srv/photos"})
    assert caught.value.code == -32021  # the server needs form mode, which we did not declare
    assert callback.questions == []


# ------------------------------------------------------------------ connection failures


async def test_nothing_listening_names_the_url() -> None:
    url = f"http://127.0.0.1:{free_loopback_port()}/mcp"
    with pytest.raises(MCPConnectionError) as caught:
        async with Client(url, mode="legacy"):
            pass
    assert url in str(caught.value)


async def test_missing_command_names_the_command() -> None:
    with pytest.raises(MCPConnectionError, match="no-such-mcp-server-binary"):
        async with Client(StdioServerParameters("no-such-mcp-server-binary", ["--x"])):
            pass


async def test_not_an_mcp_endpoint_is_explained(guide_http_url: str) -> None:
    parts = urlsplit(guide_http_url)
    url = f"{parts.scheme}://{parts.netloc}/not-mcp"
    with pytest.raises(MCPConnectionError) as caught:
        async with Client(url, mode="legacy"):
            pass
    assert url in str(caught.value) and "initialize" in str(caught.value)


async def test_server_exit_mid_call_reports_its_stderr(
    guide_stdio_command: tuple[str, list[str]], era: str
) -> None:
    async with Client(StdioServerParameters(*guide_stdio_command), mode=era) as client:
        await client.call_tool("echo", {"text": "warm"})
        with anyio.fail_after(30), pytest.raises(ServerExitedError) as caught:
            await client.call_tool("crash", {})  # not read-only: not sent again after the crash
        assert caught.value.returncode == 3
        assert "crash requested" in caught.value.stderr_tail
        assert "crash requested" in str(caught.value)
        with anyio.fail_after(30):  # the next call starts the server again (Client(reconnect=...))
            assert text_of(await client.call_tool("echo", {"text": "again"})) == "again"


async def test_without_reconnect_later_calls_fail_at_once(
    guide_stdio_command: tuple[str, list[str]], era: str
) -> None:
    async with Client(StdioServerParameters(*guide_stdio_command), mode=era, reconnect=False) as client:
        await client.call_tool("echo", {"text": "warm"})
        with anyio.fail_after(30), pytest.raises(ServerExitedError):
            await client.call_tool("crash", {})
        with pytest.raises(ServerExitedError) as caught:  # later calls fail the same way, at once
            await client.call_tool("echo", {"text": "again"})
        assert caught.value.returncode == 3 and "crash requested" in caught.value.stderr_tail


# ------------------------------------------------------------------ time and cancellation


@pytest.mark.parametrize("transport", ["http", "stdio"])
async def test_timeout_names_the_request_and_the_client_recovers(
    transport: str, era: str, guide_http_url: str, guide_stdio_command: tuple[str, list[str]]
) -> None:
    async with Client(
        server_for(transport, guide_http_url, guide_stdio_command), mode=era, timeout=1.0
    ) as client:
        await client.call_tool("echo", {"text": "warm"})
        with pytest.raises(MCPTimeoutError) as caught:
            await client.call_tool("slow", {"seconds": 5})
        assert "tools/call" in str(caught.value) and "timeout" in str(caught.value)
        assert text_of(await client.call_tool("echo", {"text": "after"})) == "after"


@pytest.mark.parametrize("transport", ["http", "stdio"])
async def test_cancelled_call_leaves_nothing_behind(
    transport: str, era: str, guide_http_url: str, guide_stdio_command: tuple[str, list[str]]
) -> None:
    async with Client(server_for(transport, guide_http_url, guide_stdio_command), mode=era) as client:
        await client.call_tool("echo", {"text": "warm"})
        with anyio.move_on_after(0.3) as scope:
            await client.call_tool("slow", {"seconds": 60})
        assert scope.cancelled_caught
        # Back long before the cancelled call would have ended: a 5 s bound beside a 5 s call neither
        # told an echo stuck behind it apart nor left a busy machine any room.
        with anyio.fail_after(30):
            assert text_of(await client.call_tool("echo", {"text": "after"})) == "after"


async def test_cancelling_under_a_pending_question_stops_the_callback(guide_http_url: str) -> None:
    started = anyio.Event()
    finished: list[bool] = []

    async def never_answers(_context: Any, _params: Any) -> Any:
        started.set()
        try:
            await anyio.sleep(60)
        finally:
            finished.append(True)

    async with Client(guide_http_url, mode="legacy", elicitation_callback=never_answers) as client:
        async with anyio.create_task_group() as tg:

            async def call() -> None:
                await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})

            tg.start_soon(call)
            with anyio.fail_after(15):
                await started.wait()
            tg.cancel_scope.cancel()
        assert text_of(await client.call_tool("echo", {"text": "after"})) == "after"
    assert finished == [True]  # the callback was cancelled, not left running


# ------------------------------------------------------------------ HTTP details


class _RecordingAuth(httpx.Auth):
    """A real httpx.Auth: adds a bearer token and records every request's headers as sent."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers["Authorization"] = "Bearer t0ken"
        self.requests.append(request)
        yield request


async def test_headers_and_auth_go_on_every_request(guide_http_url: str, era: str) -> None:
    auth = _RecordingAuth()
    async with Client(guide_http_url, mode=era, headers={"X-Team": "bistro"}, auth=auth) as client:
        await client.call_tool("echo", {"text": "hi"})
    assert auth.requests, "no request went through the auth flow"
    for request in auth.requests:
        assert request.headers["x-team"] == "bistro"
        assert request.headers["authorization"] == "Bearer t0ken"
    posts = [r for r in auth.requests if r.method == "POST"]
    call = next(r for r in posts if b'"tools/call"' in r.content)
    assert call.headers["mcp-protocol-version"] == ("2025-11-25" if era == "legacy" else "2026-07-28")
    if era == "legacy":
        assert call.headers["mcp-session-id"]
        assert auth.requests[-1].method == "DELETE"  # the session is closed on exit
    else:
        assert call.headers["mcp-method"] == "tools/call" and call.headers["mcp-name"] == "echo"
        assert "mcp-session-id" not in call.headers


class _AsyncAuth(httpx.Auth):
    """A real httpx.Auth that does I/O, as httpx tells such auths to: its own ``async_auth_flow``, which
    awaits before sending and reads each response sent back into it."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, int, str]] = []

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        await anyio.lowlevel.checkpoint()  # e.g. a token read from a store
        request.headers["Authorization"] = "Bearer from-async"
        response = yield request
        self.seen.append((request.method, response.status_code, request.headers["authorization"]))


async def test_an_httpx_auth_with_its_own_async_flow_sees_every_response(
    guide_http_url: str, era: str
) -> None:
    """httpx.Auth is httpx's class, not httpx2's: the client runs its flow by the same protocol."""
    auth = _AsyncAuth()
    async with Client(guide_http_url, mode=era, auth=auth) as client:
        assert text_of(await client.call_tool("echo", {"text": "hi"})) == "hi"
    assert ("POST", 200, "Bearer from-async") in auth.seen
    assert all(header == "Bearer from-async" and status < 400 for _, status, header in auth.seen), auth.seen


class _AsyncFlowOnTheObject:
    """An auth whose ``async_auth_flow`` is set on the object, not defined by its class."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, int]] = []
        self.async_auth_flow = self._flow  # type: ignore[method-assign]

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        yield request  # unsigned: the one run must be the async flow

    async def _flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        request.headers["Authorization"] = "Bearer set-on-the-object"
        response = yield request
        self.seen.append((request.method, response.status_code))


class _HttpxAsyncFlowOnTheObject(_AsyncFlowOnTheObject, httpx.Auth):
    """The same on an httpx.Auth, whose class alone would give httpx's default ``async_auth_flow``."""


class _Delegating:
    """A proxy around such an auth, its attributes (the flows too) found by ``__getattr__``."""

    def __init__(self) -> None:
        self.inner = _AsyncFlowOnTheObject()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@pytest.mark.parametrize(
    "auth_class",
    [_HttpxAsyncFlowOnTheObject, _AsyncFlowOnTheObject, _Delegating],
    ids=["httpx", "plain", "proxy"],
)
async def test_an_async_auth_flow_set_on_the_object_is_the_one_run(
    guide_http_url: str, auth_class: type[Any]
) -> None:
    """Not httpx.Auth's default (which the class alone would give): the object's own flow signs."""
    auth = auth_class()
    async with Client(guide_http_url, mode="2026-07-28", auth=auth) as client:
        assert text_of(await client.call_tool("echo", {"text": "hi"})) == "hi"
    assert ("POST", 200) in auth.seen


def test_an_auth_that_is_no_auth_is_refused_naming_what_to_pass() -> None:
    refusal = r"auth must be an httpx2\.Auth .* or an httpx\.Auth subclass .*got str"
    with pytest.raises(TypeError, match=refusal):
        Client("http://127.0.0.1:9/mcp", auth="Bearer t0ken")  # type: ignore[arg-type]


class _PlainAuth:
    """An ``auth_flow`` and nothing else: no ``requires_*`` flags to read."""

    def __init__(self) -> None:
        self.methods: list[str] = []

    def auth_flow(self, request: httpx2.Request) -> Generator[httpx2.Request, httpx2.Response, None]:
        self.methods.append(request.method)
        yield request


class _SlotsAuth:
    """With ``__slots__`` (an object without a ``__dict__``) and an ``async_auth_flow`` of its own."""

    __slots__ = ("methods",)

    def __init__(self) -> None:
        self.methods: list[str] = []

    def auth_flow(self, request: httpx2.Request) -> Generator[httpx2.Request, httpx2.Response, None]:
        yield request  # not the one run: the async flow is

    async def async_auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        self.methods.append(request.method)
        yield request


@pytest.mark.parametrize("auth_class", [_PlainAuth, _SlotsAuth], ids=["plain", "slots"])
async def test_an_object_with_only_an_auth_flow_is_an_auth(
    guide_http_url: str, era: str, auth_class: type[_PlainAuth]
) -> None:
    """No httpx class and no ``requires_*`` flags: the flow alone is enough, and runs on every request."""
    plain = auth_class()
    async with Client(guide_http_url, mode=era, auth=plain) as client:
        assert text_of(await client.call_tool("echo", {"text": "hi"})) == "hi"
    assert "POST" in plain.methods


async def test_first_call_after_connect_hears_questions_on_the_get_stream(guide_http_url: str) -> None:
    """conformance elicitation-sep1034 (2025-11-25): a server pushing on the standalone GET stream.

    The stream must be open before the first request, or the question is dropped and the call hangs.
    """
    callback = accept(confirm=True)
    auth = _RecordingAuth()
    async with Client(
        guide_http_url, mode="legacy", elicitation_callback=callback, timeout=10, auth=auth
    ) as client:
        with anyio.fail_after(15):
            result = await client.call_tool("ask_on_get_stream", {})
    assert text_of(result) == "get-stream answer: accept {'confirm': True}"
    assert callback.questions[0][1].message == "Asked on the standalone stream: continue?"
    methods = [r.method if r.method != "POST" else json.loads(r.content).get("method") for r in auth.requests]
    assert methods.index("GET") < methods.index("tools/call"), methods


async def test_resumes_a_dropped_stream_with_last_event_id(guide_http_resumable_url: str) -> None:
    auth = _RecordingAuth()
    callback = accept(accept_alternative=True, date="2025-12-28")
    async with Client(
        guide_http_resumable_url, mode="legacy", elicitation_callback=callback, auth=auth
    ) as client:
        with anyio.fail_after(20):
            result = await client.call_tool("book_table_resumable", {"date": "2025-12-25", "party_size": 2})
    assert text_of(result) == "[SUCCESS] Booked for 2025-12-28 after a resumed stream"
    resumes = [r for r in auth.requests if r.method == "GET" and "last-event-id" in r.headers]
    assert resumes and resumes[0].headers["last-event-id"].startswith("ev-")


async def test_a_restarted_legacy_server_gets_a_new_session() -> None:
    port = free_loopback_port()
    with contextlib.ExitStack() as servers:
        url = servers.enter_context(start_http_server(port=port))
        async with Client(url, mode="legacy") as client:
            assert text_of(await client.call_tool("echo", {"text": "one"})) == "one"
            old_session = client.session_id
            servers.close()  # the server goes away, and with it our session
            servers.enter_context(start_http_server(port=port))  # same port, new process
            assert text_of(await client.call_tool("echo", {"text": "two"})) == "two"
            assert client.session_id is not None and client.session_id != old_session


async def test_list_methods_follow_every_page(
    guide_http_paged_url: str, guide_http_url: str, era: str
) -> None:
    async with Client(guide_http_url, mode=era) as client:
        all_tools = [t.name for t in (await client.list_tools()).tools]
    async with Client(guide_http_paged_url, mode=era) as client:
        paged_tools = [t.name for t in (await client.list_tools()).tools]
        prompts = (await client.list_prompts()).prompts
    assert len(all_tools) > 3
    assert paged_tools == all_tools
    assert len(prompts) >= 3


@pytest.mark.parametrize("url_fixture", ["guide_http_json_url", "guide_http_stateless_url"])
async def test_legacy_servers_without_a_back_channel(
    url_fixture: str, request: pytest.FixtureRequest
) -> None:
    url = request.getfixturevalue(url_fixture)
    async with Client(url, mode="legacy", elicitation_callback=accept(accept_alternative=True)) as client:
        assert text_of(await client.call_tool("echo", {"text": "json"})) == "json"
        with pytest.raises(MCPError) as caught:
            await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})
    assert caught.value.code == -32600 and "back-channel" in caught.value.message
    assert type(caught.value) is ServerError  # not NoBackChannelError: the legacy era is all it has


@pytest.mark.parametrize("anyio_backend", ["trio"])
async def test_works_on_trio(guide_http_url: str, guide_stdio_command: tuple[str, list[str]]) -> None:
    for server in (guide_http_url, StdioServerParameters(*guide_stdio_command)):
        for mode in ("legacy", "2026-07-28"):
            async with Client(server, mode=mode, elicitation_callback=accept(confirm=True)) as client:
                result = await client.call_tool("delete_folder", {"path": "/srv/trio"})
            assert text_of(result) == "deleted /srv/trio"
