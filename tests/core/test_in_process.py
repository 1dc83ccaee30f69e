"""Servers in the same process: ``Client(MCPServer(...))`` and ``InProcessTransport(app)``, no socket.

The official SDK's ``MCPServer`` built right here in the test, in both eras, with a form question
answered by ``CannedAnswers``, sampling and roots, progress; an ASGI app (Starlette) mounting the
server's app; and no listening socket in this process at any time.
"""

from __future__ import annotations

import json
import os
from collections.abc import Generator
from typing import Annotated, Any

import anyio
import httpx2
import pytest
from mcp.server.mcpserver import Context, Elicit, ElicitationResult, MCPServer, Resolve
from mcp.server.mcpserver.resolve import ListRoots, Sample
from mcp_types import CreateMessageResult, ListRootsResult, SamplingMessage
from mcp_types import TextContent as ServerText
from pydantic import BaseModel

from mcp_client import Client, ClientRequestContext, ProtocolError
from mcp_client._transports.in_process import InProcessTransport
from mcp_client.types import ListRootsResult as ClientRoots
from mcp_client.types import Root, TextContent
from tests.interop._peers import listening_addresses
from ui_adapters.canned import CannedAnswers
from ui_adapters.canned_sampling import CannedSampling

pytestmark = pytest.mark.anyio

ERAS = ["legacy", "2026-07-28"]
TEST_TIMEOUT = 30.0


class Booking(BaseModel):
    date: str
    confirm: bool


async def ask_date(day: str) -> Elicit[Booking]:
    return Elicit(f"{day} is full. Another date?", Booking)


async def ask_model(topic: str) -> Sample:
    return Sample(
        [SamplingMessage(role="user", content=ServerText(type="text", text=f"A haiku about {topic}"))],
        max_tokens=20,
    )


async def ask_roots() -> ListRoots:
    return ListRoots()


def make_server() -> MCPServer:
    server = MCPServer("bistro-in-process", version="1.0.0")

    @server.tool(description="Book a table; asks for another date when the day is full.")
    async def book(day: str, answer: Annotated[ElicitationResult[Booking], Resolve(ask_date)]) -> str:
        if answer.action == "accept" and answer.data is not None and answer.data.confirm:
            return f"booked {answer.data.date}"
        return f"not booked ({answer.action})"

    @server.tool(description="Ask the client's model.")
    async def haiku(topic: str, answer: Annotated[CreateMessageResult, Resolve(ask_model)]) -> str:
        content = answer.content
        return f"model={answer.model} text={getattr(content, 'text', '')}"

    @server.tool(description="The client's roots.")
    async def my_roots(roots: Annotated[ListRootsResult, Resolve(ask_roots)]) -> str:
        return ", ".join(str(root.uri) for root in roots.roots)

    @server.tool(description="Report progress.")
    async def count(steps: int, ctx: Context) -> str:
        for step in range(1, steps + 1):
            await ctx.report_progress(step, steps, f"step {step}")
        return f"counted {steps}"

    return server


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
@pytest.mark.parametrize("mode", ERAS)
async def test_an_official_server_object_answers_in_process(mode: str) -> None:
    answers = CannedAnswers(fields={"date": "2025-12-27", "confirm": True})
    sampling = CannedSampling(default="an old pond", model="canned")
    progress: list[str | None] = []

    async def roots(context: ClientRequestContext) -> ClientRoots:
        return ClientRoots(roots=[Root(uri="file:///work/app", name="app")])

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(message)

    before = listening_addresses(os.getpid())
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(
            make_server(),
            mode=mode,
            elicitation_callback=answers,
            sampling_callback=sampling,
            list_roots_callback=roots,
        ) as client:
            assert client.server == "in-process server 'bistro-in-process'"
            booked = await client.call_tool("book", {"day": "2025-12-25"})
            assert client.server_info is not None and client.server_info.name == "bistro-in-process"
            assert listening_addresses(os.getpid()) == before  # no port was opened for it
            poem = await client.call_tool("haiku", {"topic": "frogs"})
            where = await client.call_tool("my_roots", {})
            counted = await client.call_tool("count", {"steps": 2}, progress_callback=on_progress)
    assert text_of(booked) == "booked 2025-12-27"
    assert answers.messages == ["2025-12-25 is full. Another date?"]
    assert [q.context.era for q in answers.questions] == ["legacy" if mode == "legacy" else "modern"]
    assert text_of(poem) == "model=canned text=an old pond"
    assert text_of(where) == "file:///work/app"
    assert text_of(counted) == "counted 2" and progress == ["step 1", "step 2"]


@pytest.mark.parametrize("mode", ERAS)
async def test_any_asgi_app_serving_streamable_http(mode: str) -> None:
    from starlette.applications import Starlette
    from starlette.routing import Mount

    server = make_server()
    inner = server.streamable_http_app()
    app = Starlette(
        routes=[Mount("/api", app=inner)], lifespan=lambda _app: inner.router.lifespan_context(inner)
    )
    answers = CannedAnswers(fields={"date": "2026-01-02", "confirm": True})
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(
            InProcessTransport(app, path="/api/mcp"), mode=mode, elicitation_callback=answers
        ) as client:
            assert text_of(await client.call_tool("book", {"day": "2026-01-01"})) == "booked 2026-01-02"


async def test_a_declined_question_reaches_the_tool() -> None:
    from mcp_client.types import ElicitResult

    answers = CannedAnswers(script=[ElicitResult(action="decline")])
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(make_server(), mode="legacy", elicitation_callback=answers) as client:
            assert text_of(await client.call_tool("book", {"day": "2025-12-25"})) == "not booked (decline)"


def test_an_object_that_is_no_server_is_refused_clearly() -> None:
    with pytest.raises(TypeError, match="neither an ASGI app nor a server object"):
        InProcessTransport(object())


async def test_a_stored_discover_result_skips_the_probe() -> None:
    """``prior_discover``: capabilities and server info at once, and no ``server/discover`` on the wire."""
    server = make_server()
    inner = server.streamable_http_app()
    methods: list[str] = []

    async def counting(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            headers = dict(scope["headers"])
            methods.append(headers.get(b"mcp-method", b"").decode())
        await inner(scope, receive, send)

    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(InProcessTransport(server)) as first:
            stored = first.discover_result
        assert stored is not None and "supportedVersions" in stored
        async with Client(InProcessTransport(counting), prior_discover=stored) as client:
            assert client.era == "modern" and client.protocol_version == "2026-07-28"
            assert client.server_info is not None and client.server_info.name == "bistro-in-process"
            assert client.server_capabilities.tools is not None
            assert text_of(await client.call_tool("count", {"steps": 1})) == "counted 1"
    assert "server/discover" not in methods and "tools/call" in methods


def test_a_prior_discover_that_cannot_be_used_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot go with mode='legacy'"):
        Client(make_server(), mode="legacy", prior_discover={"supportedVersions": ["2026-07-28"]})
    with pytest.raises(ValueError, match="lists 2025-06-18"):
        Client(make_server(), prior_discover={"supportedVersions": ["2025-06-18"]})
    with pytest.raises(ValueError, match="no supportedVersions"):
        Client(make_server(), prior_discover={"capabilities": {}})


async def test_an_app_whose_startup_fails_is_refused_with_its_reason() -> None:
    """The ASGI lifespan's ``lifespan.startup.failed`` (Starlette sends it when startup raises) ends the
    connection with the app's own message; no request reaches an app that never started."""
    from contextlib import asynccontextmanager

    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from mcp_client import MCPConnectionError

    reached: list[str] = []

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> Any:
        raise RuntimeError("the database is not there")
        yield

    async def mcp(request: Request) -> JSONResponse:
        reached.append(request.method)
        return JSONResponse({"jsonrpc": "2.0", "id": 1, "result": {}})

    app = Starlette(routes=[Route("/mcp", mcp, methods=["POST"])], lifespan=lifespan)
    with anyio.fail_after(TEST_TIMEOUT), pytest.raises(MCPConnectionError, match="failed to start") as caught:
        async with Client(InProcessTransport(app), mode="legacy"):
            pass
    assert "the database is not there" in str(caught.value)
    assert reached == []


class _Bearer(httpx2.Auth):
    """An app's auth: it signs each request, and keeps what it saw."""

    def __init__(self) -> None:
        self.methods: list[str] = []

    def auth_flow(self, request: httpx2.Request) -> Generator[httpx2.Request, httpx2.Response, None]:
        self.methods.append(request.method)
        request.headers["authorization"] = "Bearer in-process"
        yield request


@pytest.mark.parametrize("mode", ERAS)
async def test_auth_signs_every_in_process_request(mode: str) -> None:
    """``auth=`` applies in process as over the network (it was dropped: the app was never signed)."""
    server = make_server()
    inner = server.streamable_http_app()
    seen: list[str | None] = []

    async def recording(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            seen.append(headers.get(b"authorization", b"").decode() or None)
        await inner(scope, receive, send)

    by_object, by_app = _Bearer(), _Bearer()
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server, mode=mode, auth=by_object) as client:
            assert text_of(await client.call_tool("count", {"steps": 1})) == "counted 1"
        async with Client(InProcessTransport(recording, auth=by_app), mode=mode) as client:
            assert text_of(await client.call_tool("count", {"steps": 1})) == "counted 1"
    assert "POST" in by_object.methods
    assert "POST" in by_app.methods and seen and set(seen) == {"Bearer in-process"}


@pytest.mark.parametrize("given", ["mapping", "Implementation"])
async def test_the_client_info_given_is_what_the_server_is_told(given: str) -> None:
    """``client_info=`` as a mapping (checked as an ``Implementation``) or an ``Implementation``: the
    ``initialize`` the server receives names it, and the default ``mcp-client`` when none is given."""
    from mcp_client.types import Implementation

    told: list[Any] = []

    def recording() -> Any:
        inner = make_server().streamable_http_app()  # one app per connection: its manager runs once

        async def app(scope: Any, receive: Any, send: Any) -> None:
            async def reading() -> Any:
                message = await receive()
                if b'"initialize"' in message.get("body", b""):
                    told.append(json.loads(message["body"])["params"]["clientInfo"])
                return message

            await inner(scope, reading, send)

        return app

    info = {"name": "bistro-app", "version": "2.1", "title": "Bistro"}
    with anyio.fail_after(TEST_TIMEOUT):
        client_info = info if given == "mapping" else Implementation.model_validate(info)
        async with Client(InProcessTransport(recording()), mode="legacy", client_info=client_info) as client:
            assert text_of(await client.call_tool("count", {"steps": 1})) == "counted 1"
        async with Client(InProcessTransport(recording()), mode="legacy") as client:
            assert text_of(await client.call_tool("count", {"steps": 1})) == "counted 1"
    assert told[0] == info
    assert told[1]["name"] == "mcp-client" and told[1]["version"]


def test_a_client_info_that_is_no_implementation_is_refused() -> None:
    with pytest.raises(ValueError, match=r"Implementation\nname\n  Field required"):
        Client(make_server(), client_info={"version": "2.1"})


@pytest.mark.parametrize("mode", ERAS)
async def test_headers_reach_an_in_process_server(mode: str) -> None:
    """``headers=`` apply in process as over the network: the tool reads the one the app set."""
    server = make_server()

    @server.tool()
    def team(ctx: Context) -> str:
        return f"team={(ctx.headers or {}).get('x-team')}"

    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server, mode=mode, headers={"X-Team": "bistro"}) as client:
            assert text_of(await client.call_tool("team", {})) == "team=bistro"


async def test_max_message_bytes_bounds_an_in_process_answer() -> None:
    server = make_server()

    @server.tool()
    def menu() -> str:
        return "x" * 20000

    with anyio.fail_after(TEST_TIMEOUT):
        with pytest.raises(ProtocolError) as caught:
            async with Client(server, mode="legacy", max_message_bytes=8192) as client:
                await client.call_tool("menu", {})
    # Named as the user knows it, not by the made-up origin the app is told it serves.
    said = "in-process server 'bistro-in-process' sent an SSE event larger than 8192 bytes"
    assert str(caught.value).startswith(said), caught.value
    assert "127.0.0.1" not in str(caught.value)


async def test_timeout_bounds_an_in_process_servers_acknowledgement(caplog: pytest.LogCaptureFixture) -> None:
    """``timeout=`` applies in process too: an app that never acknowledges ``notifications/initialized``
    holds the handshake for that long, not for the default 30 s."""
    server = make_server()
    build = server.streamable_http_app

    def stalling() -> Any:
        inner = build()

        async def app(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http" and scope["method"] == "POST":
                first = await receive()
                if b'"notifications/initialized"' in first.get("body", b""):
                    await anyio.sleep_forever()
                replayed = [first]

                async def replay() -> Any:
                    return replayed.pop() if replayed else await receive()

                await inner(scope, replay, send)
                return
            await inner(scope, receive, send)

        return app

    server.streamable_http_app = stalling  # type: ignore[method-assign]
    caplog.set_level("WARNING", logger="mcp_client")
    with anyio.fail_after(TEST_TIMEOUT - 10):
        async with Client(server, mode="legacy", timeout=1) as client:
            assert text_of(await client.call_tool("count", {"steps": 1})) == "counted 1"
    assert "did not acknowledge a notifications/initialized within 1s" in caplog.text, caplog.text


def test_network_options_for_an_in_process_server_are_refused() -> None:
    with pytest.raises(ValueError) as caught:
        Client(make_server(), verify=False)
    assert str(caught.value) == (
        "verify/cert/proxy/trust_env/httpx_client_factory cannot apply to the in-process server "
        "'bistro-in-process': it is reached inside this process, with no network; leave them out "
        "(headers and auth do apply)"
    )


def test_auth_beside_a_transports_own_http_client_is_refused() -> None:
    from mcp_client import StreamableHTTPTransport

    with pytest.raises(ValueError, match=r"give the auth to it instead: httpx2\.AsyncClient\(auth=\.\.\.\)"):
        StreamableHTTPTransport("http://127.0.0.1:9/mcp", auth=_Bearer(), http_client=httpx2.AsyncClient())
