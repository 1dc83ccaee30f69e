"""A scripted OpenAI Agents SDK ``Model`` for offline runs: it calls one tool, then says what the tool
returned. Imports the SDK, so the tests import it inside the test that runs the SDK."""

from __future__ import annotations

import json
from typing import Any

from agents.items import ModelResponse
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText


class ScriptedModel(Model):
    """Calls ``tool`` with ``arguments`` (call id ``c1``; a string is sent as it is, JSON or not), then
    answers ``Tool: <the tool's output>``.

    ``tools`` are the tools of the first turn, ``inputs`` what every turn was given.
    """

    def __init__(self, tool: str, arguments: dict[str, Any] | str) -> None:
        self.tool = tool
        self.arguments = arguments
        self.tools: list[Any] = []
        self.inputs: list[Any] = []

    async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any) -> Any:
        self.inputs.append(input)
        outputs = [i for i in input if isinstance(i, dict) and i.get("type") == "function_call_output"]
        if not outputs:
            self.tools = kwargs["tools"]
            arguments = self.arguments if isinstance(self.arguments, str) else json.dumps(self.arguments)
            call = ResponseFunctionToolCall(
                type="function_call", call_id="c1", name=self.tool, arguments=arguments
            )
            return ModelResponse(output=[call], usage=Usage(), response_id=None)
        text = ResponseOutputText(type="output_text", text=f"Tool: {outputs[0]['output']}", annotations=[])
        message = ResponseOutputMessage(
            type="message", id="m1", role="assistant", status="completed", content=[text]
        )
        return ModelResponse(output=[message], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError
