"""What a view asks of the person goes to the app's callbacks, and nothing happens without one; what a
broken or hostile view sends never crashes the host; ``teardown()`` is bounded. ``AppBridge`` against
the official ``mcp`` server's apps peer (tests/servers/apps_bridge_server.py) over HTTP."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from mcp_client import Client
from mcp_client.apps import AppBridge
from tests.apps.bridge_helpers import INITIALIZE, INITIALIZED, Outbox, handshake, request

pytestmark = pytest.mark.anyio

LINK = {"url": "https://example.com/docs"}
MESSAGE = {"role": "user", "content": [{"type": "text", "text": "What time is it in Lima?"}]}
CONTEXT = {
    "content": [{"type": "text", "text": "the view shows Lima"}],
    "structuredContent": {"zone": "Lima"},
}

# (the bridge's keyword, the method, its params, what the view is told without the callback)
ASKS = [
    ("on_open_link", "ui/open-link", LINK, "this host opens no links"),
    ("on_message", "ui/message", MESSAGE, "this host takes no messages from views"),
    ("on_model_context", "ui/update-model-context", CONTEXT, "this host takes no model context from views"),
]
IDS = [method for _, method, _, _ in ASKS]


@pytest.fixture
async def client(apps_bridge_http_url: str) -> AsyncIterator[Client]:
    async with Client(apps_bridge_http_url) as connected:
        yield connected


def _bridge(client: Client, outbox: Outbox | None = None, **callbacks: Any) -> AppBridge:
    return AppBridge(client, "show_time", send=outbox or Outbox(), **callbacks)


# ------------------------------------------------------------------ the callbacks


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
@pytest.mark.parametrize(("keyword", "method", "params", "refusal"), ASKS, ids=IDS)
@pytest.mark.parametrize("kind", ["sync", "async"])
async def test_a_callback_that_accepts_gets_the_params_and_the_view_succeeds(
    client: Client, keyword: str, method: str, params: dict[str, Any], refusal: str, kind: str
) -> None:
    seen: list[dict[str, Any]] = []

    def sync_accept(got: dict[str, Any]) -> bool:
        seen.append(got)
        return True

    async def async_accept(got: dict[str, Any]) -> bool:
        await anyio.lowlevel.checkpoint()
        seen.append(got)
        return True

    bridge = _bridge(client, **{keyword: sync_accept if kind == "sync" else async_accept})
    await handshake(bridge)
    answer = await bridge.handle(request(2, method, params))
    assert answer == {"jsonrpc": "2.0", "id": 2, "result": {}}
    assert seen == [params]


@pytest.mark.parametrize(("keyword", "method", "params", "refusal"), ASKS, ids=IDS)
@pytest.mark.parametrize("kind", ["sync", "async"])
async def test_a_callback_that_refuses_gives_the_view_an_error(
    client: Client, keyword: str, method: str, params: dict[str, Any], refusal: str, kind: str
) -> None:
    async def async_refuse(got: dict[str, Any]) -> bool:
        return False

    bridge = _bridge(client, **{keyword: (lambda got: False) if kind == "sync" else async_refuse})
    answer = await bridge.handle(request(3, method, params))
    assert answer == {
        "jsonrpc": "2.0",
        "id": 3,
        "error": {"code": -32000, "message": f"the host refused the view's {method}"},
    }


@pytest.mark.parametrize(("keyword", "method", "params", "refusal"), ASKS, ids=IDS)
async def test_without_its_callback_a_request_is_refused_and_logged(
    client: Client,
    keyword: str,
    method: str,
    params: dict[str, Any],
    refusal: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    bridge = _bridge(client)
    with caplog.at_level(logging.WARNING, logger="mcp_client.apps"):
        answer = await bridge.handle(request(4, method, params))
    assert answer == {"jsonrpc": "2.0", "id": 4, "error": {"code": -32000, "message": refusal}}
    assert f"the view sent {method}; refused: this host has no {keyword} callback" in caplog.messages


@pytest.mark.parametrize(("keyword", "method", "params", "refusal"), ASKS, ids=IDS)
@pytest.mark.parametrize("kind", ["sync", "async"])
async def test_a_callback_that_raises_gives_the_view_an_error_and_the_host_goes_on(
    client: Client,
    keyword: str,
    method: str,
    params: dict[str, Any],
    refusal: str,
    kind: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def sync_raises(got: dict[str, Any]) -> bool:
        raise RuntimeError("the callback broke")

    async def async_raises(got: dict[str, Any]) -> bool:
        raise RuntimeError("the callback broke")

    bridge = _bridge(client, **{keyword: sync_raises if kind == "sync" else async_raises})
    with caplog.at_level(logging.ERROR, logger="mcp_client.apps"):
        answer = await bridge.handle(request(5, method, params))
    assert answer == {
        "jsonrpc": "2.0",
        "id": 5,
        "error": {"code": -32603, "message": f"the host failed to handle {method}"},
    }
    (record,) = [r for r in caplog.records if r.name == "mcp_client.apps" and r.levelno == logging.ERROR]
    assert record.getMessage() == f"the host's {keyword} callback failed on the view's {method}"
    assert record.exc_info is not None and "the callback broke" in str(record.exc_info[1])
    assert await bridge.handle(request(6, "ping")) == {"jsonrpc": "2.0", "id": 6, "result": {}}


@pytest.mark.parametrize("returned", [None, 1, "yes"])
async def test_a_callback_that_returns_no_bool_refuses(
    client: Client, returned: object, caplog: pytest.LogCaptureFixture
) -> None:
    bridge = _bridge(client, on_message=lambda got: returned)
    with caplog.at_level(logging.WARNING, logger="mcp_client.apps"):
        answer = await bridge.handle(request(7, "ui/message", MESSAGE))
    assert answer is not None and answer["error"]["code"] == -32000
    assert f"on_message returned {returned!r}, not True or False: the view's ui/message is refused" in (
        caplog.messages
    )


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "file:///etc/passwd",
        "data:text/html,<script>1</script>",
        "https://exa mple.com/",
        "https://example.com/\nx",
        "https:///nohost",
        "//example.com/",
    ],
)
async def test_a_link_that_is_no_http_url_never_reaches_the_callback(client: Client, url: str) -> None:
    asked: list[dict[str, Any]] = []
    bridge = _bridge(client, on_open_link=lambda got: asked.append(got) or True)
    answer = await bridge.handle(request(8, "ui/open-link", {"url": url}))
    assert answer is not None
    assert answer["error"] == {"code": -32602, "message": "ui/open-link opens http and https links only"}
    assert asked == []


@pytest.mark.parametrize(
    ("method", "params", "message"),
    [
        ("ui/open-link", {}, "ui/open-link needs the link (params.url, a string)"),
        ("ui/message", {"role": "user", "content": "hi"}, "ui/message needs its content"),
        ("tools/call", {"arguments": {}}, "tools/call needs the tool's name (params.name, a string)"),
        ("tools/call", {"name": "show_time", "arguments": [1]}, "the arguments of tool 'show_time'"),
        ("resources/read", {}, "resources/read needs the resource's uri"),
        ("ui/request-display-mode", {"mode": "huge"}, "ui/request-display-mode needs a mode"),
    ],
)
async def test_params_a_method_cannot_use_get_invalid_params(
    client: Client, method: str, params: dict[str, Any], message: str
) -> None:
    bridge = _bridge(client, on_open_link=lambda got: True, on_message=lambda got: True)
    answer = await bridge.handle(request(9, method, params))
    assert answer is not None
    assert answer["error"]["code"] == -32602
    assert answer["error"]["message"].startswith(message)


# ------------------------------------------------------------------ logs


@pytest.mark.parametrize("kind", ["sync", "async"])
async def test_the_views_logs_go_to_on_log(client: Client, kind: str) -> None:
    logs: list[dict[str, Any]] = []

    async def async_log(params: dict[str, Any]) -> None:
        logs.append(params)

    bridge = _bridge(client, on_log=logs.append if kind == "sync" else async_log)
    params = {"level": "info", "logger": "clock", "data": "tick"}
    assert (
        await bridge.handle({"jsonrpc": "2.0", "method": "notifications/message", "params": params}) is None
    )
    assert logs == [params]


async def test_without_on_log_the_views_logs_go_to_the_logger_and_a_failing_on_log_is_logged(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    log = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "warning", "data": "low"}}
    with caplog.at_level(logging.DEBUG, logger="mcp_client.apps"):
        assert await _bridge(client).handle(log) is None

        def broken(params: dict[str, Any]) -> None:
            raise RuntimeError("on_log broke")

        assert await _bridge(client, on_log=broken).handle(log) is None
    records = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "mcp_client.apps"]
    assert records == [
        (logging.WARNING, "the view logs ('view'): 'low'"),
        (logging.ERROR, "the host's on_log callback failed"),
    ]


# ------------------------------------------------------------------ the rest of the protocol


async def test_ping_display_mode_and_size(client: Client) -> None:
    bridge = _bridge(client)
    assert await bridge.handle(request("p", "ping")) == {"jsonrpc": "2.0", "id": "p", "result": {}}
    mode = await bridge.handle(request(10, "ui/request-display-mode", {"mode": "fullscreen"}))
    assert mode == {"jsonrpc": "2.0", "id": 10, "result": {"mode": "inline"}}
    assert bridge.size == {}
    resized = {
        "jsonrpc": "2.0",
        "method": "ui/notifications/size-changed",
        "params": {"width": 320, "height": 200},
    }
    assert await bridge.handle(resized) is None
    assert bridge.size == {"width": 320, "height": 200}
    taller = {
        "jsonrpc": "2.0",
        "method": "ui/notifications/size-changed",
        "params": {"height": 250.5, "width": "x"},
    }
    assert await bridge.handle(taller) is None
    assert bridge.size == {"width": 320, "height": 250.5}
    assert not bridge.teardown_requested
    assert await bridge.handle({"jsonrpc": "2.0", "method": "ui/notifications/request-teardown"}) is None
    assert bridge.teardown_requested


@pytest.mark.parametrize("method", ["sampling/createMessage", "ui/download-file", "prompts/list", "x"])
async def test_an_unknown_method_gets_method_not_found(client: Client, method: str) -> None:
    answer = await _bridge(client).handle(request(11, method, {}))
    assert answer == {
        "jsonrpc": "2.0",
        "id": 11,
        "error": {"code": -32601, "message": f"this host has no method {method!r}"},
    }


MALFORMED: list[tuple[object, dict[str, Any] | None]] = [
    ("tools/call", {"code": -32600, "id": None}),
    ([{"jsonrpc": "2.0", "id": 1, "method": "ping"}], {"code": -32600, "id": None}),
    (None, {"code": -32600, "id": None}),
    ({"id": 1, "method": "ping"}, {"code": -32600, "id": 1}),
    ({"jsonrpc": "1.0", "id": 1, "method": "ping"}, {"code": -32600, "id": 1}),
    ({"jsonrpc": "2.0", "id": 1}, {"code": -32600, "id": 1}),
    ({"jsonrpc": "2.0", "id": 1, "method": 5}, {"code": -32600, "id": 1}),
    ({"jsonrpc": "2.0", "id": 1, "method": ""}, {"code": -32600, "id": 1}),
    ({"jsonrpc": "2.0", "id": True, "method": "ping"}, {"code": -32600, "id": None}),
    ({"jsonrpc": "2.0", "id": [1], "method": "ping"}, {"code": -32600, "id": None}),
    ({"jsonrpc": "2.0", "id": None, "method": "ping"}, {"code": -32600, "id": None}),
    ({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": "show_time"}, {"code": -32602, "id": 1}),
    ({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": [1, 2]}, {"code": -32602, "id": 1}),
    ({"jsonrpc": "2.0", "method": "notifications/message", "params": "x"}, None),
    ({"jsonrpc": "2.0", "method": 7}, None),
    ({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": [1]}}, None),
    ({"jsonrpc": "2.0", "method": "ui/notifications/size-changed", "params": {"width": True}}, None),
    ({"jsonrpc": "2.0", "id": 99, "result": {}}, None),  # an answer to nothing the host asked
]


@pytest.mark.parametrize(("message", "expected"), MALFORMED, ids=[str(i) for i in range(len(MALFORMED))])
async def test_a_malformed_message_gets_an_error_and_never_raises(
    client: Client, message: object, expected: dict[str, Any] | None
) -> None:
    bridge = _bridge(client)
    answer = await bridge.handle(message)
    if expected is None:
        assert answer is None
    else:
        assert answer is not None
        assert answer["jsonrpc"] == "2.0"
        assert (answer["error"]["code"], answer["id"]) == (expected["code"], expected["id"])
        assert answer["error"]["message"]
    assert await bridge.handle(request(12, "ping")) == {"jsonrpc": "2.0", "id": 12, "result": {}}
    assert bridge.size == {}


# ------------------------------------------------------------------ teardown


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_teardown_waits_a_bounded_time_when_the_view_never_answers(client: Client) -> None:
    outbox = Outbox()
    bridge = _bridge(client, outbox)
    await handshake(bridge)
    with anyio.fail_after(10):
        answered = await bridge.teardown("user closed it", timeout=0.2)
    assert answered is False
    assert outbox.sent == [
        {"jsonrpc": "2.0", "id": 1, "method": "ui/resource-teardown", "params": {"reason": "user closed it"}}
    ]
    assert bridge.closed
    # Afterwards nothing is sent and the view's requests are refused; a second teardown is a no-op.
    await bridge.tool_result({"content": []})
    assert len(outbox.sent) == 1
    answer = await bridge.handle(request(13, "ping"))
    assert answer is not None and answer["error"]["code"] == -32000
    assert await bridge.teardown() is False


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_teardown_returns_once_the_view_answers(client: Client) -> None:
    outbox = Outbox()
    bridge = _bridge(client, outbox, teardown_timeout=30)

    async def view_answers() -> None:
        while not outbox.sent:  # noqa: ASYNC110 - the outbox is a plain list
            await anyio.sleep(0.01)
        sent = outbox.sent[-1]
        assert sent["method"] == "ui/resource-teardown" and sent["params"] == {}
        assert await bridge.handle({"jsonrpc": "2.0", "id": sent["id"], "result": {}}) is None

    await handshake(bridge)
    with anyio.fail_after(10):
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(view_answers)
            assert await bridge.teardown() is True


async def test_teardown_with_an_error_answer_or_before_initialized(client: Client) -> None:
    outbox = Outbox()
    bridge = _bridge(client, outbox)

    async def view_fails() -> None:
        while not outbox.sent:  # noqa: ASYNC110 - the outbox is a plain list
            await anyio.sleep(0.01)
        failed = {"jsonrpc": "2.0", "id": outbox.sent[-1]["id"], "error": {"code": -32000, "message": "no"}}
        assert await bridge.handle(failed) is None

    await handshake(bridge)
    with anyio.fail_after(10):
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(view_fails)
            assert await bridge.teardown(timeout=30) is False
    # A view never initialized gets nothing at all (the host may not send it anything).
    early = Outbox()
    not_ready = _bridge(client, early)
    await not_ready.tool_input({"zone": "UTC"})
    await not_ready.handle(INITIALIZE)
    assert await not_ready.teardown(timeout=30) is False
    assert early.sent == []
    assert await not_ready.handle(INITIALIZED) is None
    assert early.sent == []


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_a_send_that_fails_never_breaks_handle_or_teardown(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken_send(message: dict[str, Any]) -> None:
        raise ConnectionError("the page is gone")

    bridge = AppBridge(client, "show_time", send=broken_send)
    await bridge.tool_input({"zone": "UTC"})
    with caplog.at_level(logging.WARNING, logger="mcp_client.apps"):
        await handshake(bridge)
        assert await bridge.teardown(timeout=5) is False
    messages = caplog.messages
    assert "ui/notifications/tool-input could not be sent to the view" in messages
    assert "the view's ui/resource-teardown could not be sent" in messages


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_teardown_is_bounded_even_when_send_blocks_and_cancels_what_the_view_still_runs(
    apps_bridge_http_url: str,
) -> None:
    asking = anyio.Event()

    async def never_answers(context: Any, params: Any) -> Any:
        asking.set()
        await anyio.sleep_forever()

    stuck = anyio.Event()

    async def blocking_send(message: dict[str, Any]) -> None:
        if message.get("method") == "ui/resource-teardown":
            stuck.set()
            await anyio.sleep_forever()

    answers: list[dict[str, Any] | None] = []
    async with Client(apps_bridge_http_url, mode="legacy", elicitation_callback=never_answers) as client:
        bridge = AppBridge(client, "show_time", send=blocking_send)
        await handshake(bridge)

        async def view_call() -> None:
            answers.append(
                await bridge.handle(
                    request(20, "tools/call", {"name": "set_alarm", "arguments": {"at": "9"}})
                )
            )

        with anyio.fail_after(20):
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(view_call)
                await asking.wait()
                assert await bridge.teardown(timeout=0.3) is False
                assert stuck.is_set()
    assert answers == [None]  # the call was cancelled with the view: nobody to answer


async def test_a_views_log_is_data_in_the_hosts_log(client: Client, caplog: pytest.LogCaptureFixture) -> None:
    hostile = {
        "level": "error",
        "logger": "x\nFAKE host line",
        "data": "\x1b[31mred\nsecond line" + "y" * 5000,
    }
    log = {"jsonrpc": "2.0", "method": "notifications/message", "params": hostile}
    with caplog.at_level(logging.DEBUG, logger="mcp_client.apps"):
        assert await _bridge(client).handle(log) is None
    (line,) = [r.getMessage() for r in caplog.records if r.name == "mcp_client.apps"]
    assert "\n" not in line and "\x1b" not in line
    assert line.startswith("the view logs ('x\\nFAKE host line'): '\\x1b[31mred\\nsecond line")
    assert len(line) < 2100
