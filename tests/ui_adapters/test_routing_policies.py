"""Ready policies: always decline, always cancel, and "stop asking this server for this session"."""

from __future__ import annotations

import anyio
import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from mcp_client import ClientRequestContext
from mcp_client.types import (
    ElicitRequestFormParams,
    ElicitRequestParams,
    ElicitRequestURLParams,
    ElicitResult,
)
from ui_adapters import StopAskingPolicy, always_cancel, always_decline, terminal_ask_to_stop


def context(server: str = "http://127.0.0.1:8000/mcp") -> ClientRequestContext:
    return ClientRequestContext(server=server, server_info=None, protocol_version="2025-11-25", era="legacy")


FORM = ElicitRequestFormParams(message="Name?", requested_schema={"type": "object", "properties": {}})
URL = ElicitRequestURLParams(message="Pay.", url="https://pay.example.com/", elicitation_id="pay-1")
PESTER = "http://127.0.0.1:1/mcp"
OTHER = "http://127.0.0.1:2/mcp"


class Person:
    """Stands for the user behind the wrapped adapter: answers from a list and counts the questions."""

    def __init__(self, *answers: str, modes: frozenset[str] | None = None) -> None:
        self._answers = list(answers)
        self.asked = 0
        self.completed: list[str] = []
        if modes is not None:
            self.elicitation_modes = modes

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        self.asked += 1
        return ElicitResult.model_validate({"action": self._answers.pop(0)})

    async def on_elicitation_complete(self, elicitation_id: str) -> None:
        self.completed.append(elicitation_id)


@pytest.mark.anyio
@pytest.mark.parametrize("params", [FORM, URL])
async def test_always_decline_and_always_cancel(params: ElicitRequestParams) -> None:
    assert await always_decline(context(), params) == ElicitResult(action="decline")
    assert await always_cancel(context(), params) == ElicitResult(action="cancel")
    assert not hasattr(always_decline, "elicitation_modes")  # the client declares both modes


@pytest.mark.anyio
async def test_a_stopped_server_is_declined_without_asking() -> None:
    person = Person("accept", "accept")
    policy = StopAskingPolicy(person)
    policy.stop(PESTER)
    assert await policy(context(PESTER), FORM) == ElicitResult(action="decline")
    assert await policy(context(PESTER), URL) == ElicitResult(action="decline")
    assert person.asked == 0
    assert (await policy(context(OTHER), FORM)).action == "accept"  # other servers are still asked
    assert policy.stopped_servers == {PESTER}

    policy.resume(PESTER)
    assert not policy.is_stopped(PESTER)
    assert (await policy(context(PESTER), FORM)).action == "accept"


@pytest.mark.anyio
async def test_choosing_dont_ask_again_after_a_decline_stops_the_server() -> None:
    asked_to_stop: list[str] = []

    async def yes(context: ClientRequestContext, params: ElicitRequestParams) -> bool:
        asked_to_stop.append(context.server)
        return True

    person = Person("accept", "decline")
    policy = StopAskingPolicy(person, ask_to_stop=yes)
    assert (await policy(context(PESTER), FORM)).action == "accept"
    assert asked_to_stop == []  # only a decline leads to the question
    assert (await policy(context(PESTER), FORM)).action == "decline"
    assert asked_to_stop == [PESTER]
    assert policy.is_stopped(PESTER)
    assert (await policy(context(PESTER), FORM)).action == "decline"
    assert person.asked == 2


@pytest.mark.anyio
async def test_saying_no_to_dont_ask_again_keeps_asking() -> None:
    async def no(context: ClientRequestContext, params: ElicitRequestParams) -> bool:
        return False

    policy = StopAskingPolicy(Person("decline", "accept"), ask_to_stop=no)
    assert (await policy(context(PESTER), FORM)).action == "decline"
    assert (await policy(context(PESTER), FORM)).action == "accept"


def test_modes_follow_the_wrapped_callback() -> None:
    assert StopAskingPolicy(Person(modes=frozenset({"form"}))).elicitation_modes == {"form"}
    assert StopAskingPolicy(Person()).elicitation_modes == {"form", "url"}


@pytest.mark.anyio
async def test_completion_is_forwarded_to_the_wrapped_callback() -> None:
    person = Person()
    await StopAskingPolicy(person).elicitation_complete_callback("pay-1")
    assert person.completed == ["pay-1"]
    await StopAskingPolicy(always_decline).on_elicitation_complete("pay-1")  # no listener: ignored


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("keys", "stops"), [("y\r", True), ("yes\r", True), ("\r", False), ("n\r", False), ("\x03", False)]
)
async def test_terminal_ask_to_stop_defaults_to_no(keys: str, stops: bool) -> None:
    with create_pipe_input() as pipe:
        policy = StopAskingPolicy(
            Person("decline"), ask_to_stop=terminal_ask_to_stop(input=pipe, output=DummyOutput())
        )
        pipe.send_text(keys)
        with anyio.fail_after(10):
            assert (await policy(context(PESTER), FORM)).action == "decline"
    assert policy.is_stopped(PESTER) is stops
