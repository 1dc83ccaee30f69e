"""SamplingReview at the terminal: keys in through a prompt_toolkit pipe, screen out of rich.

The "model" is a recorder, so what the person let through to it is asserted directly; what the server
would get is the returned CreateMessageResult, or the MCPError a refusal raises.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, field

import anyio
import pytest
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from mcp_client import ClientRequestContext, MCPError
from mcp_client.types import (
    CreateMessageRequestParams,
    CreateMessageResult,
    Implementation,
    TextContent,
)
from ui_adapters import SamplingReview

pytestmark = pytest.mark.anyio
BOUND = 10

HOSTILE = "Write a haiku\x1b]0;pwned\x07 about \x1b[2Jrain\u202e"


@dataclass
class Terminal:
    keys: PipeInput
    screen: io.StringIO
    asked: list[CreateMessageRequestParams] = field(default_factory=list)

    async def llm(self, params: CreateMessageRequestParams) -> CreateMessageResult:
        self.asked.append(params)
        return CreateMessageResult(
            content=TextContent(text="old pond\x1b[31m, a frog"), model="tiny-1", stop_reason="endTurn"
        )

    def review(self) -> SamplingReview:
        console = Console(file=self.screen, width=120, color_system=None)
        return SamplingReview(self.llm, console=console, input=self.keys, output=DummyOutput())

    @property
    def text(self) -> str:
        return self.screen.getvalue()


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    with create_pipe_input() as keys:
        yield Terminal(keys=keys, screen=io.StringIO())


def context() -> ClientRequestContext:
    info = Implementation(name="poet-server", version="1", title="Poet \x1b[1mServer")
    return ClientRequestContext(
        server="http://127.0.0.1/mcp",
        server_info=info,
        protocol_version="2025-11-25",
        era="legacy",
        request_id=7,
    )


def request(prompt: str = HOSTILE) -> CreateMessageRequestParams:
    return CreateMessageRequestParams.model_validate(
        {
            "messages": [
                {"role": "assistant", "content": {"type": "text", "text": "Hello."}},
                {"role": "user", "content": {"type": "text", "text": prompt}},
            ],
            "systemPrompt": "You are a terse\x1b[8m poet.",
            "maxTokens": 60,
            "modelPreferences": {"hints": [{"name": "haiku"}]},
        }
    )


async def test_approve_shows_the_request_and_the_answer_before_sending(terminal: Terminal) -> None:
    terminal.keys.send_text("a\r")
    terminal.keys.send_text("y\r")
    with anyio.fail_after(BOUND):
        result = await terminal.review()(context(), request())
    assert result.model == "tiny-1"
    assert terminal.asked == [request()]
    text = terminal.text
    assert "Poet Server wants to ask your model" in text
    assert "System prompt: You are a terse poet." in text
    assert "assistant: Hello." in text
    assert "user: Write a haiku about rain" in text
    assert "Token limit: 60" in text and "Model hints: haiku" in text
    assert "The model's answer (not yet sent to Poet Server)" in text
    assert "old pond, a frog" in text and "Model: tiny-1" in text
    assert "Answer sent." in text
    assert "\x1b" not in text and "\u202e" not in text  # server and model text never reach the terminal raw


async def test_edit_the_prompt_before_the_model_sees_it(terminal: Terminal) -> None:
    terminal.keys.send_text("e\r")
    terminal.keys.send_text("\x15a limerick about snow\r")  # Ctrl-U clears the prefilled prompt
    terminal.keys.send_text("a\r")
    terminal.keys.send_text("y\r")
    with anyio.fail_after(BOUND):
        await terminal.review()(context(), request("Write a haiku about rain."))
    [sent] = terminal.asked
    assert sent.messages[-1].content_as_list[0].text == "a limerick about snow"  # type: ignore[union-attr]
    assert sent.messages[0].content_as_list[0].text == "Hello."  # type: ignore[union-attr]
    assert sent.system_prompt == "You are a terse\x1b[8m poet."  # only the prompt changed
    assert "Prompt now: a limerick about snow" in terminal.text


@pytest.mark.parametrize(
    "keys", ["r\r", "x\rq\rz\r", "\x03"], ids=["refuse", "three-wrong-answers", "ctrl-c"]
)
async def test_refusing_before_the_model_sends_nothing_to_it(terminal: Terminal, keys: str) -> None:
    terminal.keys.send_text(keys)
    with anyio.fail_after(BOUND), pytest.raises(MCPError) as caught:
        await terminal.review()(context(), request())
    assert (caught.value.code, caught.value.message) == (-1, "User rejected sampling request")
    assert terminal.asked == []
    assert "Refused: nothing was sent to the model." in terminal.text


@pytest.mark.parametrize("keys", ["n\r", "\r"], ids=["no", "enter-means-no"])
async def test_the_answer_goes_back_only_if_the_person_says_so(terminal: Terminal, keys: str) -> None:
    terminal.keys.send_text("a\r")
    terminal.keys.send_text(keys)
    with anyio.fail_after(BOUND), pytest.raises(MCPError, match="User rejected sampling request"):
        await terminal.review()(context(), request())
    assert len(terminal.asked) == 1
    assert "Refused: the answer was not sent." in terminal.text
