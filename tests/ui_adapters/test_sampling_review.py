"""SamplingReview at the terminal: keys in through a prompt_toolkit pipe, screen out of rich.

The "model" is a recorder, so what the person let through to it is asserted directly; what the server
would get is the returned CreateMessageResult, or the MCPError a refusal raises.
"""

from __future__ import annotations

import anyio
import pytest
from prompt_toolkit.output import DummyOutput

from mcp_client import ClientRequestContext, MCPError
from mcp_client.types import (
    CreateMessageRequestParams,
    CreateMessageResult,
    Implementation,
    TextContent,
)
from tests.ui_adapters._terminal_helpers import PipeTerminal
from ui_adapters import SamplingReview

pytestmark = pytest.mark.anyio
BOUND = 10

HOSTILE = "Write a haiku\x1b]0;pwned\x07 about \x1b[2Jrain\u202e"


class Model:
    """The app's model: records what the person let through to it, answers with hostile text."""

    def __init__(self) -> None:
        self.asked: list[CreateMessageRequestParams] = []

    async def __call__(self, params: CreateMessageRequestParams) -> CreateMessageResult:
        self.asked.append(params)
        return CreateMessageResult(
            content=TextContent(text="old pond\x1b[31m, a frog"), model="tiny-1", stop_reason="endTurn"
        )


@pytest.fixture
def model() -> Model:
    return Model()


def _review(terminal: PipeTerminal, model: Model) -> SamplingReview:
    return SamplingReview(model, console=terminal.console(), input=terminal.keys, output=DummyOutput())


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


async def test_approve_shows_the_request_and_the_answer_before_sending(
    terminal: PipeTerminal, model: Model
) -> None:
    terminal.keys.send_text("a\r")
    terminal.keys.send_text("y\r")
    with anyio.fail_after(BOUND):
        result = await _review(terminal, model)(context(), request())
    assert result.model == "tiny-1"
    assert model.asked == [request()]
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


async def test_edit_the_prompt_before_the_model_sees_it(terminal: PipeTerminal, model: Model) -> None:
    terminal.keys.send_text("e\r")
    terminal.keys.send_text("\x15a limerick about snow\r")  # Ctrl-U clears the prefilled prompt
    terminal.keys.send_text("a\r")
    terminal.keys.send_text("y\r")
    with anyio.fail_after(BOUND):
        await _review(terminal, model)(context(), request("Write a haiku about rain."))
    [sent] = model.asked
    assert sent.messages[-1].content_as_list[0].text == "a limerick about snow"  # type: ignore[union-attr]
    assert sent.messages[0].content_as_list[0].text == "Hello."  # type: ignore[union-attr]
    assert sent.system_prompt == "You are a terse\x1b[8m poet."  # only the prompt changed
    assert "Prompt now: a limerick about snow" in terminal.text


@pytest.mark.parametrize(
    "keys", ["r\r", "x\rq\rz\r", "\x03"], ids=["refuse", "three-wrong-answers", "ctrl-c"]
)
async def test_refusing_before_the_model_sends_nothing_to_it(
    terminal: PipeTerminal, model: Model, keys: str
) -> None:
    terminal.keys.send_text(keys)
    with anyio.fail_after(BOUND), pytest.raises(MCPError) as caught:
        await _review(terminal, model)(context(), request())
    assert (caught.value.code, caught.value.message) == (-1, "User rejected sampling request")
    assert model.asked == []
    assert "Refused: nothing was sent to the model." in terminal.text


@pytest.mark.parametrize("keys", ["n\r", "\r"], ids=["no", "enter-means-no"])
async def test_the_answer_goes_back_only_if_the_person_says_so(
    terminal: PipeTerminal, model: Model, keys: str
) -> None:
    terminal.keys.send_text("a\r")
    terminal.keys.send_text(keys)
    with anyio.fail_after(BOUND), pytest.raises(MCPError, match="User rejected sampling request"):
        await _review(terminal, model)(context(), request())
    assert len(model.asked) == 1
    assert "Refused: the answer was not sent." in terminal.text
