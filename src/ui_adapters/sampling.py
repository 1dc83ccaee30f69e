"""Let a person see, change or refuse what a server wants the app's model to answer: ``SamplingReview``.

The MCP spec wants a human able to deny sampling: a server asks the client's model a question, paid
for and seen by the user, so the user must see it first. ``SamplingReview(llm)`` is a
``sampling_callback`` that shows the request (server name, system prompt, each message, token limit,
the model hints and tools offered; all server text sanitized, never markup), then asks:

* ``a`` approve: ask the app's ``llm(params)``;
* ``e`` edit the prompt: retype the last user message, then decide again;
* ``r`` refuse (also Ctrl-C, end of input, or no valid answer after three tries).

After the model has answered, the answer is shown and sent back only if the person says yes. Every
refusal raises ``MCPError(-1, "User rejected sampling request")``, the spec's code: a legacy server hears
it, and a 2026-07-28 call raises it.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Final, NoReturn, TypeAlias

import anyio
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from rich.console import Console
from rich.text import Text

from mcp_client import ClientRequestContext, MCPError
from mcp_client.types import (
    AudioContent,
    CreateMessageRequestParams,
    CreateMessageResult,
    CreateMessageResultWithTools,
    ImageContent,
    SamplingMessage,
    TextContent,
    ToolResultContent,
    ToolUseContent,
)
from ui_adapters._terminal_prompt import prompt_line
from ui_adapters.canned_sampling import prompt_text
from ui_adapters.text import sanitize

__all__ = ["USER_REJECTED", "SamplingReview"]

SamplingAnswer: TypeAlias = CreateMessageResult | CreateMessageResultWithTools
Llm: TypeAlias = Callable[[CreateMessageRequestParams], SamplingAnswer | Awaitable[SamplingAnswer]]
"""The app's model: ``llm(params) -> CreateMessageResult`` (sync or async)."""

USER_REJECTED: Final = -1
"""The JSON-RPC error code the sampling spec gives for "User rejected sampling request"."""

_MAX_NAME: Final = 200
_MAX_TEXT: Final = 4000
_MAX_MESSAGES: Final = 50
_MAX_ATTEMPTS: Final = 3


class SamplingReview:
    """A sampling callback that puts a person between the server and ``llm`` (see the module docstring).

    ``console`` receives what is shown (a rich ``Console``); ``input``/``output`` are prompt_toolkit's
    (tests pass ``create_pipe_input()`` and ``DummyOutput()``). Requests are reviewed one at a time.
    """

    def __init__(
        self,
        llm: Llm,
        *,
        console: Console | None = None,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self._llm = llm
        self._console = console if console is not None else Console(highlight=False)
        self._input = input
        self._output = output
        self._lock: anyio.Lock | None = None

    async def __call__(
        self, context: ClientRequestContext, params: CreateMessageRequestParams
    ) -> SamplingAnswer:
        if self._lock is None:
            self._lock = anyio.Lock()
        async with self._lock:  # two reviews at once would garble the terminal
            return await self._review(context, params)

    async def _review(
        self, context: ClientRequestContext, params: CreateMessageRequestParams
    ) -> SamplingAnswer:
        name = sanitize(context.server_name, max_length=_MAX_NAME, single_line=True) or "(unnamed server)"
        self._show_request(name, params)
        while True:
            choice = await self._choose(
                "Send this to the model? [a]pprove, [e]dit the prompt, [r]efuse: ", {"a", "e", "r"}
            )
            if choice == "e":
                params = await self._edit(params)
                continue
            if choice != "a":
                self._refuse("Refused: nothing was sent to the model.")
            break
        self._console.print(Text("Asking the model…", style="dim"))
        answer = self._llm(params)
        if inspect.isawaitable(answer):
            answer = await answer
        self._show_answer(name, answer)
        if await self._choose(f"Send this answer to {name}? [y/N] ", {"y", "n"}, empty="n") != "y":
            self._refuse("Refused: the answer was not sent.")
        self._console.print(Text("Answer sent.", style="green"))
        return answer

    # ------------------------------------------------------------------------------------------- showing

    def _show_request(self, name: str, params: CreateMessageRequestParams) -> None:
        console = self._console
        console.rule(Text(f"{name} wants to ask your model"), align="left", style="cyan")
        if params.system_prompt:
            console.print(
                Text.assemble(
                    ("System prompt: ", "bold"), sanitize(params.system_prompt, max_length=_MAX_TEXT)
                )
            )
        for message in params.messages[:_MAX_MESSAGES]:
            console.print(_message_line(message))
        if len(params.messages) > _MAX_MESSAGES:
            console.print(Text(f"… and {len(params.messages) - _MAX_MESSAGES} more messages", style="dim"))
        limits = Text.assemble(("Token limit: ", "bold"), str(params.max_tokens))
        hints = params.model_preferences.hints if params.model_preferences else None
        names = [sanitize(h.name, max_length=80, single_line=True) for h in hints or [] if h.name]
        if names:
            limits.append("   Model hints: ", style="bold")
            limits.append(", ".join(names))
        console.print(limits)
        if params.tools:
            tools = ", ".join(sanitize(t.name, max_length=80, single_line=True) for t in params.tools)
            console.print(Text.assemble(("Tools offered to the model: ", "bold"), tools))

    def _show_answer(self, name: str, answer: SamplingAnswer) -> None:
        console = self._console
        console.rule(Text(f"The model's answer (not yet sent to {name})"), align="left", style="cyan")
        blocks = answer.content if isinstance(answer.content, list) else [answer.content]
        for block in blocks:
            console.print(Text(_block_text(block)))
        console.print(
            Text.assemble(
                ("Model: ", "bold"), answer.model, ("   Stopped: ", "bold"), answer.stop_reason or "?"
            )
        )

    # ------------------------------------------------------------------------------------------- asking

    async def _edit(self, params: CreateMessageRequestParams) -> CreateMessageRequestParams:
        try:
            text = await prompt_line(
                "Prompt: ", input=self._input, output=self._output, default=prompt_text(params)
            )
        except (KeyboardInterrupt, EOFError):
            self._refuse("Refused: nothing was sent to the model.")
        edited = _with_prompt(params, text)
        self._console.print(Text.assemble(("Prompt now: ", "bold"), sanitize(text, max_length=_MAX_TEXT)))
        return edited

    async def _choose(self, question: str, allowed: set[str], empty: str | None = None) -> str:
        """One letter from ``allowed``; three wrong tries, Ctrl-C or end of input refuse."""
        for _ in range(_MAX_ATTEMPTS):
            try:
                answer = (await prompt_line(question, input=self._input, output=self._output)).strip().lower()
            except (KeyboardInterrupt, EOFError):
                return "r"
            if not answer and empty is not None:
                return empty
            if answer[:1] in allowed:
                return answer[:1]
            self._console.print(Text(f"Please answer one of: {', '.join(sorted(allowed))}.", style="yellow"))
        return "r"

    def _refuse(self, why: str) -> NoReturn:
        self._console.print(Text(why, style="yellow"))
        raise MCPError(USER_REJECTED, "User rejected sampling request")


def _message_line(message: SamplingMessage) -> Text:
    line = Text(f"{message.role}: ", style="bold")
    line.append(" ".join(_block_text(block) for block in message.content_as_list))
    return line


def _block_text(block: object) -> str:
    if isinstance(block, TextContent):
        return sanitize(block.text, max_length=_MAX_TEXT)
    if isinstance(block, ImageContent):
        return f"[image, {sanitize(block.mime_type, max_length=80, single_line=True)}]"
    if isinstance(block, AudioContent):
        return f"[audio, {sanitize(block.mime_type, max_length=80, single_line=True)}]"
    if isinstance(block, ToolUseContent):
        return f"[the model calls the tool {sanitize(block.name, max_length=80, single_line=True)}]"
    if isinstance(block, ToolResultContent):
        return "[a tool's result]"
    return "[content]"


def _with_prompt(params: CreateMessageRequestParams, text: str) -> CreateMessageRequestParams:
    """``params`` with the last user message's text replaced by ``text`` (or a user message added)."""
    messages = list(params.messages)
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].role == "user":
            others = [b for b in messages[index].content_as_list if not isinstance(b, TextContent)]
            content = [TextContent(text=text), *others] if others else TextContent(text=text)
            messages[index] = messages[index].model_copy(update={"content": content})
            break
    else:
        messages.append(SamplingMessage(role="user", content=TextContent(text=text)))
    return params.model_copy(update={"messages": messages})
