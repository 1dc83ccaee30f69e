"""The reconnect rules as values: which requests may be sent again, which tools are safe, what the
``Supervisor`` does with a restart that fails or succeeds, and what it says when it gives up.

The real servers (killed, crashing at start, redeployed) are in ``test_reconnect_stdio.py`` and
``test_reconnect_http.py``; here the restart is a function the test scripts, so every edge runs in
milliseconds (no delays: ``first_delay=0`` makes every wait zero).
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import Iterator

import anyio
import httpx2
import pytest

from mcp_client import MCPConnectionError, MCPError, Reconnect, ServerError, ServerExitedError
from mcp_client._connection import telemetry
from mcp_client._connection.reconnect import (
    ServerHealth,
    Supervisor,
    lost_server,
    may_repeat,
    never_sent,
    policy_of,
    safe_tools_of,
)
from mcp_client._errors import MCPClientError

pytestmark = pytest.mark.anyio

NOW = Reconnect(attempts=3, first_delay=0.0, max_delay=60.0)  # no wait between attempts; 60s after giving up


class Restarts:
    """A scripted ``restart``: each call raises the next error of ``outcomes`` (``None``: succeeds)."""

    def __init__(self, *outcomes: MCPClientError | None) -> None:
        self.outcomes = list(outcomes)
        self.calls = 0
        self.reconnected = 0

    async def restart(self) -> None:
        self.calls += 1
        outcome = self.outcomes.pop(0) if self.outcomes else None
        if outcome is not None:
            raise outcome

    async def on_reconnected(self) -> None:
        self.reconnected += 1


def supervisor(restarts: Restarts, policy: Reconnect = NOW, *, restarts_process: bool = True) -> Supervisor:
    return Supervisor(
        policy, "bistro", restarts.restart, restarts.on_reconnected, restarts_process=restarts_process
    )


def test_only_tools_that_say_read_only_or_idempotent_are_safe() -> None:
    tools = [
        {"name": "read", "annotations": {"readOnlyHint": True}},
        {"name": "put", "annotations": {"idempotentHint": True}},
        {"name": "said_no", "annotations": {"readOnlyHint": False, "idempotentHint": False}},
        {"name": "truthy", "annotations": {"readOnlyHint": "yes", "idempotentHint": 1}},  # only true counts
        {"name": "bare"},
        {"name": "odd", "annotations": ["readOnlyHint"]},
        {"annotations": {"readOnlyHint": True}},  # no name
        {"name": 7, "annotations": {"readOnlyHint": True}},
        "not a tool",
        {"name": "after_the_junk", "annotations": {"readOnlyHint": True}},
    ]
    assert safe_tools_of(tools) == frozenset({"read", "put", "after_the_junk"})
    assert safe_tools_of([]) == frozenset()


@pytest.mark.parametrize(
    ("method", "params", "repeat"),
    [
        ("tools/list", None, True),
        ("resources/read", {"uri": "file:///a"}, True),
        ("tools/call", {"name": "read"}, True),
        ("tools/call", {"name": "write"}, False),
        ("tools/call", None, False),
        ("resources/read_all", None, False),  # a method the protocol does not define: not known safe
        ("read", {"name": "read"}, False),  # a tool's name is safe in tools/call only
    ],
)
def test_which_requests_may_be_sent_twice(method: str, params: dict[str, str] | None, repeat: bool) -> None:
    assert may_repeat(method, params, frozenset({"read"})) is repeat


@pytest.mark.parametrize(
    ("error", "lost"),
    [
        (MCPConnectionError("connection lost"), True),
        (ServerExitedError("exited", returncode=1), True),
        (ServerError(-32000, "Bad gateway", {"httpStatus": 502}), True),
        (ServerError(-32000, "Unavailable", {"httpStatus": 503}), True),
        (ServerError(-32000, "Timeout", {"httpStatus": 504}), True),
        (ServerError(-32000, "Internal", {"httpStatus": 500}), False),
        (ServerError(-32000, "Unavailable", {"httpStatus": "503"}), False),
        (ServerError(-32000, "Unavailable", None), False),
        (MCPError(-32000, "ours", {"httpStatus": 503}), False),  # not the server's answer
        (MCPClientError("something else"), False),
    ],
)
def test_which_errors_say_the_server_went_away(error: MCPClientError, lost: bool) -> None:
    assert lost_server(error) is lost


def test_policy_of_reads_true_false_and_a_policy() -> None:
    assert policy_of(True) == Reconnect()
    assert policy_of(False) is None
    assert policy_of(NOW) is NOW


def test_reconnect_refuses_each_nonsense_value_and_takes_the_edges() -> None:
    for attempts in (0, -1, True, 1.0, "2"):
        with pytest.raises(ValueError, match=r"Reconnect\(attempts=\.\.\.\) must be a whole number"):
            Reconnect(attempts=attempts)  # type: ignore[arg-type]
    for value in (-0.1, float("inf"), float("nan"), True, "1"):
        with pytest.raises(ValueError, match=r"Reconnect\(first_delay=\.\.\.\) must be a finite number"):
            Reconnect(first_delay=value)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"Reconnect\(max_delay=\.\.\.\) must be a finite number"):
            Reconnect(max_delay=value)  # type: ignore[arg-type]
    assert Reconnect(attempts=1, first_delay=0, max_delay=0).attempts == 1  # the smallest policy


def test_never_sent_copies_the_error_with_what_it_says() -> None:
    exited = ServerExitedError("the server exited", returncode=3, stderr_tail="Traceback...")
    copy = never_sent(exited)
    assert type(copy) is ServerExitedError and copy is not exited
    assert (str(copy), copy.returncode, copy.stderr_tail) == ("the server exited", 3, "Traceback...")
    plain = never_sent(MCPConnectionError("connection refused"))
    assert type(plain) is MCPConnectionError and str(plain) == "connection refused"


async def test_a_call_in_flight_is_not_sent_again_and_nothing_restarts(
    caplog: pytest.LogCaptureFixture,
) -> None:
    restarts = Restarts()
    sup = supervisor(restarts)
    error = MCPConnectionError("connection lost")
    caplog.set_level(logging.INFO, "mcp_client.session")
    with pytest.raises(MCPConnectionError) as raised:
        await sup.recover(error, "tools/call", {"name": "write"}, frozenset({"read"}))
    assert raised.value is error
    assert restarts.calls == 0 and sup.state == ServerHealth("connected")
    assert [r.getMessage() for r in caplog.records] == [
        "bistro: tools/call was in flight when the connection died; not sending it again"
    ]
    # A refused connection read mid-response (not a refusal to connect) is no proof it was never sent.
    cut = MCPConnectionError("connection lost")
    cut.__cause__ = httpx2.ReadError("reset")
    with pytest.raises(MCPConnectionError):
        await sup.recover(cut, "tools/call", {"name": "write"}, frozenset())
    assert restarts.calls == 0
    # A call of a tool that said it is read-only is sent again: the server is brought back first.
    await sup.recover(
        MCPConnectionError("connection lost"), "tools/call", {"name": "read"}, frozenset({"read"})
    )
    assert (restarts.calls, sup.generation) == (1, 1)


@pytest.mark.parametrize("how", ["marked", "refused", "timed out"])
async def test_a_request_that_never_left_is_sent_again_whatever_it_is(how: str) -> None:
    restarts = Restarts()
    sup = supervisor(restarts)
    error = MCPConnectionError("connection refused")
    if how == "marked":
        error = never_sent(error)
    else:
        error.__cause__ = (
            httpx2.ConnectError("refused") if how == "refused" else httpx2.ConnectTimeout("slow")
        )
    await sup.recover(error, "tools/call", {"name": "write"}, frozenset())
    assert (restarts.calls, restarts.reconnected, sup.generation) == (1, 1, 1)
    await sup.recover(never_sent(MCPConnectionError("again")), "tools/call", {"name": "write"}, frozenset())
    assert (restarts.calls, restarts.reconnected, sup.generation) == (2, 2, 2)


async def test_failed_attempts_are_counted_then_the_server_is_back(caplog: pytest.LogCaptureFixture) -> None:
    seen: list[tuple[ServerHealth, bool]] = []
    restarts = Restarts(MCPConnectionError("refused once"), MCPConnectionError("refused twice"), None)
    sup = supervisor(restarts, restarts_process=False)

    original = restarts.restart

    async def restart() -> None:
        seen.append((sup.state, sup.under_way))
        await original()

    sup._restart = restart  # pyright: ignore[reportPrivateUsage]
    caplog.set_level(logging.INFO, "mcp_client.session")
    await sup.recover(MCPConnectionError("connection lost:\nthe rest"), "tools/list", None, frozenset())
    assert [state for state, _ in seen] == [
        ServerHealth("reconnecting", 0, None, "connection lost:\nthe rest"),
        ServerHealth("reconnecting", 1, 0.0, "refused once"),
        ServerHealth("reconnecting", 2, 0.0, "refused twice"),
    ]
    assert all(under_way for _, under_way in seen)
    assert (restarts.calls, restarts.reconnected, sup.generation, sup.failures) == (3, 1, 1, 0)
    assert sup.state == ServerHealth("connected") and not sup.under_way
    messages = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "mcp_client.session"]
    assert messages == [
        (logging.INFO, "bistro: attempt 1 to reconnect failed: refused once"),
        (logging.INFO, "bistro: attempt 2 to reconnect failed: refused twice"),
        (
            logging.WARNING,
            "bistro went away (connection lost) and was reached again (attempt 3); its state is new",
        ),
    ]


async def test_a_restarted_process_is_said_started_again(caplog: pytest.LogCaptureFixture) -> None:
    sup = supervisor(Restarts())
    caplog.set_level(logging.WARNING, "mcp_client.session")
    await sup.recover(MCPConnectionError("lost the MUX; \nmore"), "ping", None, frozenset())
    assert [r.getMessage() for r in caplog.records] == [
        "bistro went away (lost the MUX) and was started again (attempt 1); its state is new"
    ]


async def test_after_the_last_attempt_it_gives_up_naming_them_and_waits_max_delay() -> None:
    last = ServerExitedError("the server exited", returncode=2, stderr_tail="ImportError: x")
    restarts = Restarts(MCPConnectionError("first"), MCPConnectionError("second"), last)
    sup = supervisor(restarts)
    with pytest.raises(ServerExitedError) as raised:
        await sup.recover(MCPConnectionError("lost"), "tools/list", None, frozenset())
    message = (
        "could not restart the server 'bistro': 3 attempts failed in a row; the last: the server exited. "
        "The next request tries again after 60s."
    )
    assert str(raised.value) == message
    assert (raised.value.returncode, raised.value.stderr_tail) == (2, "ImportError: x")
    assert raised.value.__cause__ is last
    assert sup.state == ServerHealth("failed", 3, None, message)
    # Before max_delay has passed, the next request fails at once, with the same words.
    with pytest.raises(ServerExitedError) as again:
        await sup.recover(MCPConnectionError("lost"), "tools/list", None, frozenset())
    assert again.value is raised.value and restarts.calls == 3


@pytest.mark.parametrize("restarts_process", [True, False])
async def test_giving_up_on_a_connection_error(restarts_process: bool) -> None:
    sup = supervisor(Restarts(*[MCPConnectionError("refused")] * 3), restarts_process=restarts_process)
    with pytest.raises(MCPConnectionError) as raised:
        await sup.recover(MCPConnectionError("lost"), "ping", None, frozenset())
    verb = "restart" if restarts_process else "reconnect to"
    assert str(raised.value) == (
        f"could not {verb} the server 'bistro': 3 attempts failed in a row; the last: refused. "
        "The next request tries again after 60s."
    )
    # A stdio server that would not start again is an exited server, even when its last words were not.
    assert type(raised.value) is (ServerExitedError if restarts_process else MCPConnectionError)
    if isinstance(raised.value, ServerExitedError):
        assert (raised.value.returncode, raised.value.stderr_tail) == (None, "")


async def test_once_max_delay_has_passed_the_next_request_starts_over() -> None:
    restarts = Restarts(*[MCPConnectionError("refused")] * 3, None)
    sup = supervisor(restarts, Reconnect(attempts=2, first_delay=0.0, max_delay=0.0))
    with pytest.raises(MCPConnectionError, match="2 attempts failed in a row"):
        await sup.recover(MCPConnectionError("lost"), "ping", None, frozenset())
    # Two attempts again: the first fails, the second brings the server back.
    await sup.recover(MCPConnectionError("lost"), "ping", None, frozenset())
    assert (restarts.calls, sup.failures, sup.generation) == (4, 0, 1)
    assert sup.state == ServerHealth("connected")


async def test_requests_lost_together_restart_once() -> None:
    release = anyio.Event()
    restarts = Restarts()

    async def slow_restart() -> None:
        await release.wait()
        await restarts.restart()

    sup = Supervisor(NOW, "bistro", slow_restart, restarts.on_reconnected, restarts_process=True)
    with anyio.fail_after(10):
        async with anyio.create_task_group() as tg:
            tg.start_soon(sup.recover, MCPConnectionError("lost"), "ping", None, frozenset())
            await anyio.wait_all_tasks_blocked()
            assert sup.under_way  # the others arrive while the restart runs: they wait for it
            for _ in range(2):
                tg.start_soon(sup.recover, MCPConnectionError("lost"), "ping", None, frozenset())
            await anyio.wait_all_tasks_blocked()
            release.set()
    assert (restarts.calls, restarts.reconnected, sup.generation) == (1, 1, 1)


async def test_a_request_the_restart_itself_makes_fails_instead_of_waiting_for_the_restart() -> None:
    """The legacy log level is set again during the restart: its failure is the restart's, not a new one."""
    inner = MCPConnectionError("lost again")
    raised: list[BaseException] = []
    sup: Supervisor | None = None

    async def restart() -> None:
        assert sup is not None
        try:
            await sup.recover(inner, "logging/setLevel", None, frozenset())
        except MCPConnectionError as exc:
            raised.append(exc)
            if len(raised) == 1:
                raise

    sup = Supervisor(NOW, "bistro", restart, Restarts().on_reconnected, restarts_process=True)
    with anyio.fail_after(10):
        await sup.recover(MCPConnectionError("lost"), "ping", None, frozenset())
    assert raised == [inner, inner] and sup.generation == 1


async def test_each_wait_is_the_jittered_delay_never_a_spin(monkeypatch: pytest.MonkeyPatch) -> None:
    """The waits asked of ``anyio.sleep`` between attempts (no clock assertion): ``delay(n)`` each."""
    waits: list[float] = []
    sleep = anyio.sleep

    async def recorded(seconds: float) -> None:
        waits.append(seconds)
        await sleep(0)

    monkeypatch.setattr(random, "random", lambda: 1.0)  # the top of each jitter: the ceiling itself
    monkeypatch.setattr(anyio, "sleep", recorded)
    restarts = Restarts(MCPConnectionError("refused"), MCPConnectionError("refused"), None)
    sup = supervisor(restarts, Reconnect(attempts=3, first_delay=0.5, max_delay=0.75))
    await sup.recover(MCPConnectionError("lost"), "ping", None, frozenset())
    assert len(waits) == 2 and restarts.calls == 3
    assert 0.4 < waits[0] <= 0.5 and 0.65 < waits[1] <= 0.75


async def test_the_reconnect_span_and_its_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """What an OpenTelemetry backend is told (the real exporter runs in ``test_telemetry.py``)."""
    spans: list[tuple[str, str, bool]] = []
    events: list[tuple[object, str, dict[str, object]]] = []
    span = object()

    @contextlib.contextmanager
    def reconnect_span(server: str, cause: str, *, restarts_process: bool) -> Iterator[object]:
        spans.append((server, cause, restarts_process))
        yield span

    monkeypatch.setattr(telemetry, "reconnect_span", reconnect_span)
    monkeypatch.setattr(telemetry, "event", lambda s, name, attributes: events.append((s, name, attributes)))
    restarts = Restarts(ServerExitedError("exited", returncode=1), None)
    await supervisor(restarts).recover(MCPConnectionError("lost:\nmore"), "ping", None, frozenset())
    assert spans == [("bistro", "lost", True)]
    assert events == [
        (
            span,
            "mcp.client.reconnect_attempt_failed",
            {"mcp.reconnect.attempt": 1, "error.type": "ServerExitedError"},
        ),
        (span, "mcp.client.reconnected", {"mcp.reconnect.attempt": 2}),
    ]
    await supervisor(Restarts(), restarts_process=False).recover(
        MCPConnectionError("x"), "ping", None, frozenset()
    )
    assert spans[-1] == ("bistro", "x", False)


def test_the_doubling_stops_at_two_to_the_sixtieth() -> None:
    """However long the outage, the ceiling is computed without overflow: doubling stops at 2**60."""
    tiny = Reconnect(first_delay=1e-300, max_delay=1.0)
    assert tiny.ceiling(61) == tiny.ceiling(10**6) == 1e-300 * 2.0**60


# scripts/mutants on _connection/reconnect.py with this file: the survivors left behave the same.
# * ``_without_mark``: ``recover`` calls it only on an error ``_was_never_sent`` said no to, so the mark
#   is never there and the ``delattr`` never runs (its mutants, and ``getattr(..., None)`` for
#   ``False`` here and in ``_was_never_sent``, change nothing).
# * ``Supervisor.__init__``: ``_resume_at`` is read only after giving up set it; ``_last_error`` is set
#   before any attempt; ``_restarting_in = ""`` (also in ``_bring_back``) never equals a task id.
# * ``_exhausted``'s ``if last is not None``: ``_bring_back`` sets ``_last_error`` first, never None.
# * ``monotonic() <= _resume_at`` for ``<``: differs only within one tick of the clock.
