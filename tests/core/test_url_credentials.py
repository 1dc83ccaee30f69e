"""A server URL with credentials, ``http://user:s3cret@127.0.0.1:N/mcp``: the password goes to the server
as Basic auth (the transports take it out of the URL: httpx2, which logs every URL, never sees it) and
nowhere else.

Against ``servers/basic_auth_server.py`` (the official SDK behind a gate that refuses any request without
``Authorization: Basic user:s3cret``, and records what it received; its server has no name, so a client
names it by its URL): the calls work over streamable HTTP, HTTP+SSE chosen and HTTP+SSE fallen back to,
while ``client.server``, the context a question callback gets, an ``ApprovalRequest``, the audit line,
telemetry, log lines (httpx2's too) and the errors of failing calls show the URL without ``user:s3cret@``.
An ``auth=``, or the auth of the app's own ``http_client``, wins over the URL's credentials.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_client import (
    ApprovalRequest,
    ApprovalResult,
    Client,
    ClientRequestContext,
    MCPClientError,
    MCPConnectionError,
    ToolPolicy,
)
from mcp_client._connection.shown_url import without_credentials
from mcp_client.config import ConfigError, ServerConfig, load_config
from mcp_client.types import ElicitRequestParams, ElicitResult
from tests.core.helpers import text_of
from tests.support.servers import LOOPBACK, PEER_PYTHON, SERVERS_DIR, refused_loopback_port, run_http_server
from ui_adapters.broker.stores import redact_server

SERVER = SERVERS_DIR / "basic_auth_server.py"
TELEMETRY_SCRIPT = Path(__file__).with_name("url_credentials_telemetry_script.py")
REPO = Path(__file__).resolve().parents[2]
SECRET = "s3cret"
BOUND = 30


def _serve(*extra: str, path: str = "/mcp") -> Any:
    return run_http_server(
        lambda port: [PEER_PYTHON, str(SERVER), "http", "--host", LOOPBACK, "--port", str(port), *extra],
        path=path,
    )


def _with_credentials(url: str) -> str:
    return url.replace("http://", f"http://user:{SECRET}@", 1)


@pytest.fixture(scope="module")
def plain_url() -> Iterator[str]:
    """The streamable HTTP endpoint, without credentials (what every name of the server must read)."""
    with _serve() as url:
        yield url


@pytest.fixture(scope="module")
def sse_url() -> Iterator[str]:
    """The same server over HTTP+SSE only (``/sse``): streamable HTTP is refused there."""
    with _serve("--sse", path="/sse") as url:
        yield url


def _gate_log(result: Any) -> list[dict[str, str]]:
    return json.loads(text_of(result))


def _shown(exc: BaseException) -> str:
    """Everything a user may see of an error: its message and the traceback with its causes."""
    return "".join(traceback.format_exception(exc))


def _our_log_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name.startswith("mcp_client")]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("where", "transport", "kind"),
    [("streamable", "auto", "http"), ("sse", "sse", "sse"), ("sse", "auto", "sse")],
    ids=["streamable-http", "sse-chosen", "sse-fallback"],
)
async def test_the_password_reaches_the_server_and_no_name_of_it(
    plain_url: str, sse_url: str, where: str, transport: Any, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="mcp_client")
    url = plain_url if where == "streamable" else sse_url
    with anyio.fail_after(BOUND):
        # The gate's record is the server's (a module's tests share it, in any order): what came before.
        async with Client(_with_credentials(url), mode="legacy", transport=transport) as earlier:
            before = len(_gate_log(await earlier.call_tool("gate_log")))
        caplog.clear()
        async with Client(_with_credentials(url), mode="legacy", transport=transport) as client:
            assert client.transport_kind == kind
            assert client.server == url
            assert (await client.call_tool("echo", {"text": "hi"})).content[0].text == "hi"  # type: ignore[union-attr]
            log = _gate_log(await client.call_tool("gate_log"))[before:]
    # Every request of this client carried the Basic credentials (a fallback's refused POST too).
    assert log and {entry["verdict"] for entry in log} == {"accepted"}
    lines = _our_log_lines(caplog)
    assert not [line for line in lines if SECRET in line]
    if transport == "auto" and kind == "sse":  # the fallback says why, naming the server
        assert [line for line in lines if line.startswith(f"{url} refused initialize")]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("where", "transport", "kind"),
    [("streamable", "auto", "http"), ("sse", "sse", "sse"), ("sse", "auto", "sse")],
    ids=["streamable-http", "sse-chosen", "sse-fallback"],
)
async def test_no_log_record_of_any_library_holds_the_password(
    plain_url: str, sse_url: str, where: str, transport: Any, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    """httpx2 logs every request's URL at INFO (``HTTP Request: POST <url> ...``): it is never handed the
    URL's ``user:s3cret@`` (the transports send it as Basic auth themselves), so no record holds it."""
    caplog.set_level(logging.DEBUG)  # every logger: ours, httpx2's, its connection pool's
    url = plain_url if where == "streamable" else sse_url
    with anyio.fail_after(BOUND):
        async with Client(_with_credentials(url), mode="legacy", transport=transport) as client:
            assert client.transport_kind == kind
            assert text_of(await client.call_tool("echo", {"text": "hi"})) == "hi"
            log = _gate_log(await client.call_tool("gate_log"))
    assert log and {entry["verdict"] for entry in log} == {"accepted"}
    leaked = [
        f"{r.name}: {r.getMessage()}"
        for r in caplog.records
        if SECRET in r.getMessage() or SECRET in repr(r.args) or SECRET in (r.exc_text or "")
    ]
    assert leaked == []
    assert SECRET not in caplog.text
    # httpx2 did log the requests: to the URL without the credentials
    requests = [r.getMessage() for r in caplog.records if r.name == "httpx2" and r.levelno == logging.INFO]
    assert [line for line in requests if line.startswith(f"HTTP Request: POST {url.rsplit('/', 1)[0]}/")]


@pytest.mark.anyio
async def test_percent_encoded_credentials_are_sent_decoded(
    plain_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """As httpx2 reads a URL's userinfo: ``%75ser:s3%63ret`` is ``user:s3cret`` (and shown nowhere)."""
    caplog.set_level(logging.DEBUG)
    encoded = plain_url.replace("http://", "http://%75ser:s3%63ret@", 1)
    with anyio.fail_after(BOUND):
        async with Client(encoded, mode="legacy") as client:
            assert text_of(await client.call_tool("echo", {"text": "hi"})) == "hi"
            assert client.server == plain_url
    assert "s3%63ret" not in caplog.text and SECRET not in caplog.text


@pytest.mark.anyio
@pytest.mark.parametrize("kind", ["http", "sse"])
async def test_the_apps_own_client_sends_the_url_credentials_too(
    plain_url: str, sse_url: str, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    """``http_client=`` with no auth of its own: the URL's credentials go with each request (as httpx2
    sent them), the client itself is left as the app made it, and its log lines hold no password."""
    import httpx2

    from mcp_client import StreamableHTTPTransport
    from mcp_client._transports.http_sse import SSETransport

    caplog.set_level(logging.DEBUG)
    url = plain_url if kind == "http" else sse_url
    with anyio.fail_after(BOUND):
        async with httpx2.AsyncClient(timeout=BOUND) as http:
            make = StreamableHTTPTransport if kind == "http" else SSETransport
            transport = make(_with_credentials(url), http_client=http)
            assert transport.url == url  # what the requests go to
            async with Client(transport, mode="legacy") as client:
                assert text_of(await client.call_tool("echo", {"text": "hi"})) == "hi"
                log = _gate_log(await client.call_tool("gate_log"))
            assert http.auth is None
    assert log and {entry["verdict"] for entry in log} == {"accepted"}
    assert SECRET not in caplog.text


@pytest.mark.anyio
async def test_the_apps_own_client_auth_wins_over_the_url_credentials(plain_url: str) -> None:
    """The same rule as ``auth=``: a client with an auth of its own sends with it, not with the URL's."""
    import httpx2

    from mcp_client import StreamableHTTPTransport

    wrong_in_url = _with_credentials(plain_url).replace(SECRET, "wrong")
    with anyio.fail_after(BOUND):
        async with httpx2.AsyncClient(auth=httpx2.BasicAuth("user", SECRET), timeout=BOUND) as http:
            transport = StreamableHTTPTransport(wrong_in_url, http_client=http)
            async with Client(transport, mode="legacy") as client:
                assert text_of(await client.call_tool("echo", {"text": "hi"})) == "hi"
        async with httpx2.AsyncClient(auth=httpx2.BasicAuth("user", "wrong"), timeout=BOUND) as http:
            transport = StreamableHTTPTransport(_with_credentials(plain_url), http_client=http)
            with pytest.raises(MCPClientError, match="401"):
                async with Client(transport, mode="legacy") as client:
                    await client.call_tool("echo", {"text": "hi"})


@pytest.mark.anyio
async def test_without_the_password_the_gate_refuses(plain_url: str) -> None:
    """The peer's own check: the calls above work because the credentials were sent."""
    with anyio.fail_after(BOUND), pytest.raises(MCPClientError) as caught:
        async with Client(_with_credentials(plain_url).replace(SECRET, "wrong"), mode="legacy") as client:
            await client.call_tool("echo", {"text": "hi"})
    assert "401" in str(caught.value)


@pytest.mark.anyio
async def test_given_auth_wins_over_the_url_credentials(plain_url: str) -> None:
    """As httpx2 does: ``auth=`` replaces the URL's userinfo (here with the right password)."""
    import httpx2

    with anyio.fail_after(BOUND):
        wrong_in_url = _with_credentials(plain_url).replace(SECRET, "wrong")
        async with Client(wrong_in_url, mode="legacy", auth=httpx2.BasicAuth("user", SECRET)) as client:
            assert text_of(await client.call_tool("echo", {"text": "hi"})) == "hi"
            assert client.server == plain_url
        # and the URL's credentials are then not sent at all, even as a second try
        with pytest.raises(MCPClientError, match="401"):
            wrong_auth = httpx2.BasicAuth("user", "wrong")
            async with Client(_with_credentials(plain_url), mode="legacy", auth=wrong_auth) as client:
                await client.call_tool("echo", {"text": "hi"})


@pytest.mark.anyio
async def test_a_question_callback_sees_the_server_without_the_password(plain_url: str) -> None:
    seen: list[ClientRequestContext] = []

    async def answer(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        seen.append(context)
        return ElicitResult(action="accept", content={"confirm": True})

    with anyio.fail_after(BOUND):
        async with Client(_with_credentials(plain_url), mode="legacy", elicitation_callback=answer) as client:
            result = await client.call_tool("confirm")
    assert text_of(result) == "confirm: accept confirm=True"
    (context,) = seen
    assert context.server == plain_url
    assert context.server_name == plain_url  # the server gave no name: its URL names it
    assert SECRET not in repr(context)


@pytest.mark.anyio
async def test_an_approval_names_the_server_without_the_password(
    plain_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="mcp_client.approvals")
    asked: list[tuple[ClientRequestContext, ApprovalRequest]] = []

    async def approve(context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        asked.append((context, request))
        return ApprovalResult("allow")

    with anyio.fail_after(BOUND):
        async with Client(
            _with_credentials(plain_url), mode="legacy", tool_policy=ToolPolicy(), approval_callback=approve
        ) as client:
            assert text_of(await client.call_tool("write_note", {"text": "n"})) == "wrote n"
    ((context, request),) = asked
    assert request.server == plain_url  # no name of its own: the URL, without user:s3cret@
    assert context.server == plain_url
    (line,) = [r.getMessage() for r in caplog.records if r.name == "mcp_client.approvals"]
    assert plain_url in line and SECRET not in line


@pytest.mark.anyio
async def test_an_http_500_names_the_server_without_the_password(plain_url: str) -> None:
    with anyio.fail_after(BOUND):
        async with Client(_with_credentials(plain_url), mode="legacy") as client:
            with pytest.raises(MCPClientError) as caught:
                await client.call_tool("http_500")
    message = str(caught.value)
    assert f"HTTP 500 Internal Server Error from {plain_url}" in message
    assert SECRET not in _shown(caught.value)


@pytest.mark.anyio
async def test_an_http_404_names_the_server_without_the_password(plain_url: str) -> None:
    """A path the server does not serve: its 404 (no session yet) is the error the handshake reports."""
    url = plain_url.replace("/mcp", "/elsewhere")
    with anyio.fail_after(BOUND), pytest.raises(MCPClientError) as caught:
        async with Client(_with_credentials(url), mode="legacy", transport="http", reconnect=False):
            pass
    assert f"HTTP 404 from {url}" in str(caught.value)
    assert SECRET not in _shown(caught.value)


@pytest.mark.anyio
async def test_a_server_that_stopped_is_named_without_the_password(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="mcp_client")
    with anyio.fail_after(BOUND):
        with _serve() as url:
            client = Client(_with_credentials(url), mode="legacy", reconnect=False)
            await client.__aenter__()
            try:
                assert text_of(await client.call_tool("echo", {"text": "hi"})) == "hi"
            except BaseException:
                await client.__aexit__(None, None, None)
                raise
        try:  # the server is gone
            with pytest.raises(MCPClientError) as caught:
                await client.call_tool("echo", {"text": "again"})
        finally:
            await client.__aexit__(None, None, None)
    assert url in str(caught.value)
    assert SECRET not in _shown(caught.value)
    assert not [line for line in _our_log_lines(caplog) if SECRET in line]


@pytest.mark.anyio
async def test_a_notification_to_a_server_that_stopped_is_named_without_the_password() -> None:
    """Not a request: ``notifications/roots/list_changed``, sent when the server is gone."""

    async def roots(context: ClientRequestContext) -> list[Any]:
        return []

    with anyio.fail_after(BOUND):
        with _serve() as url:
            client = Client(_with_credentials(url), mode="legacy", reconnect=False, list_roots_callback=roots)
            await client.__aenter__()
            try:
                assert text_of(await client.call_tool("echo", {"text": "hi"})) == "hi"
            except BaseException:
                await client.__aexit__(None, None, None)
                raise
        try:  # the server is gone
            with pytest.raises(MCPConnectionError) as caught:
                await client.send_roots_list_changed()
        finally:
            await client.__aexit__(None, None, None)
    assert f"could not connect to {url} (" in str(caught.value)
    assert SECRET not in _shown(caught.value)


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["auto", "http", "sse"])
async def test_a_dead_port_is_named_without_the_password(transport: Any) -> None:
    with refused_loopback_port() as port, anyio.fail_after(BOUND):
        url = f"http://{LOOPBACK}:{port}/mcp"
        with pytest.raises(MCPConnectionError) as caught:
            async with Client(_with_credentials(url), transport=transport, reconnect=False):
                pass
    assert f"could not connect to {url}" in str(caught.value)
    assert SECRET not in _shown(caught.value)


def test_telemetry_names_the_server_without_the_password(plain_url: str) -> None:
    pytest.importorskip("opentelemetry.sdk", reason="the OpenTelemetry SDK (a test tool) is not installed")
    done = subprocess.run(
        [sys.executable, str(TELEMETRY_SCRIPT), _with_credentials(plain_url)],
        capture_output=True, text=True, timeout=120, check=False, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    spans = json.loads(done.stdout.strip().splitlines()[-1])
    events = [event for span in spans for event in span["events"]]
    assert [event["attributes"]["mcp.server"] for event in events] == [plain_url] * 2  # one per decision
    assert spans and SECRET not in done.stdout


def test_a_refused_url_is_named_without_the_password() -> None:
    with pytest.raises(ValueError, match="server must be an http:// or https:// URL") as caught:
        Client("ftp://user:s3cret@files.example/mcp")
    assert "'ftp://files.example/mcp'" in str(caught.value) and SECRET not in str(caught.value)


def test_a_config_entry_is_named_without_the_password() -> None:
    entry = ServerConfig(name="notes", kind="http", url="https://user:s3cret@notes.example:8443/mcp?x=1")
    assert entry.target == "https://notes.example:8443/mcp?x=1"
    with pytest.raises(ConfigError) as caught:
        load_config({"mcpServers": {"notes": {"url": "htps://user:s3cret@notes.example/mcp"}}})
    assert "got 'htps://notes.example/mcp'" in str(caught.value) and SECRET not in str(caught.value)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://u:p@h.example:8443/mcp?x=1#f", "https://h.example:8443/mcp?x=1#f"),
        ("http://u@h/mcp", "http://h/mcp"),
        ("http://:p@h/mcp", "http://h/mcp"),
        ("http://u:p@ss@h/mcp", "http://h/mcp"),  # an @ in the password: the last one ends the userinfo
        ("http://u:p@[::1]:9/mcp", "http://[::1]:9/mcp"),
        ("http://u:p@Example.COM:80/mcp", "http://Example.COM:80/mcp"),  # the host as given
        ("http://h:9/a@b?c=d@e#f@g", "http://h:9/a@b?c=d@e#f@g"),  # an @ after the authority stays
        ("http://u:p@h?c=d@e", "http://h?c=d@e"),
        ("HTTPS://u:p@h/mcp", "HTTPS://h/mcp"),
        ("http://h:9/mcp", "http://h:9/mcp"),
        (
            "python server.py --db postgres://u:p@db/x",
            "python server.py --db postgres://u:p@db/x",
        ),  # a command
        ("stdio: python x.py", "stdio: python x.py"),
        ("", ""),
    ],
)
def test_the_shown_url_and_the_stores_agree(url: str, shown: str) -> None:
    assert without_credentials(url) == shown
    assert redact_server(url) == shown  # ui_adapters mirrors the client's rule


@pytest.mark.parametrize(
    ("url", "sent_to", "credentials"),
    [
        ("http://user:s3cret@h:9/mcp?x=1", "http://h:9/mcp?x=1", ("user", SECRET)),
        ("http://%75ser:p%40ss%3A@h/mcp", "http://h/mcp", ("user", "p@ss:")),  # percent-decoded
        ("http://u:p@ss@h/mcp", "http://h/mcp", ("u", "p@ss")),  # the last @ ends the userinfo
        ("http://u@h/mcp", "http://h/mcp", ("u", "")),
        ("http://:p@h/mcp", "http://h/mcp", ("", "p")),
        ("http://@h/mcp", "http://h/mcp", None),  # an empty userinfo: nothing to send, as for httpx2
        ("http://h:9/a@b", "http://h:9/a@b", None),  # an @ in the path is no userinfo
        ("http://u:p@h:port/mcp", "http://u:p@h:port/mcp", None),  # httpx2 refuses it when sending
    ],
)
def test_the_url_sent_to_and_its_credentials(
    url: str, sent_to: str, credentials: tuple[str, str] | None
) -> None:
    """What each request goes to, and the ``Authorization`` it carries (``url_credentials``)."""
    import base64

    import httpx2

    from mcp_client._connection.url_credentials import take_credentials

    bare, auth = take_credentials(url)
    assert bare == sent_to
    if credentials is None:
        assert auth is None
    else:
        assert auth is not None
        sent = next(auth.auth_flow(httpx2.Request("POST", "http://h/mcp")))
        pair = ":".join(credentials).encode()
        assert sent.headers["authorization"] == "Basic " + base64.b64encode(pair).decode()
