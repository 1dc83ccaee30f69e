"""A scripted model behind the OpenAI, Anthropic and Gemini APIs, for the docs' model examples.

The docs examples (``docs/models.md``) are programs a reader runs with a real model: ``AsyncOpenAI()``,
``AsyncAnthropic()``, ``genai.Client()``, PydanticAI's ``"openai:..."``, the Agents SDK's default
model. They run here unchanged, against ``tests/llm/fake_provider.py`` on 127.0.0.1, which the SDKs
reach through their own environment variables (``model_env``). The model's script is the same in every
API: the first turn calls one tool; once the conversation holds the tool's result, it answers
``The tool answered: <the result>``, so what the example prints shows what the tool answered. Asked
with no tools to call (a server's sampling request), it answers ``TEXT``.
"""

from __future__ import annotations

import json
from typing import Any

from tests.llm import fake_provider as fake

__all__ = ["ScriptedTurns", "model_env"]


def model_env(url: str) -> dict[str, str]:
    """The environment that points every provider SDK at the fake endpoint ``url`` (with a dummy key)."""
    return {
        "OPENAI_BASE_URL": f"{url}/v1",
        "OPENAI_API_KEY": "docs-example-key",
        "ANTHROPIC_BASE_URL": url,
        "ANTHROPIC_API_KEY": "docs-example-key",
        "GOOGLE_GEMINI_BASE_URL": url,
        "GEMINI_API_KEY": "docs-example-key",
        "OPENAI_AGENTS_DISABLE_TRACING": "1",  # the Agents SDK would upload traces to the real API
    }


TEXT = "rain on the tin roof"


class ScriptedTurns:
    """``FakeProvider.respond``: call ``tool`` with ``arguments``, then say what the tool answered.

    A request that offers no tools (or ``tool=""``) is answered with ``TEXT``.
    """

    def __init__(self, tool: str, arguments: dict[str, Any]) -> None:
        self.tool = tool
        self.arguments = arguments
        self.results: list[str] = []  # the tool results the model was given, in order

    def __call__(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        if not self.tool or not body.get("tools"):
            self.results.append(TEXT)
            if "generateContent" in path:
                return fake.gemini_text(TEXT)
            if path.endswith("/messages"):
                return fake.anthropic_text(TEXT)
            return fake.responses_text(TEXT) if path.endswith("/responses") else fake.chat_text(TEXT)
        if "generateContent" in path:
            result = _gemini_result(body)
            if result is None:
                return fake.gemini_function_call(self.tool, self.arguments)
            return fake.gemini_text(self._say(result))
        if path.endswith("/messages"):
            result = _anthropic_result(body)
            if result is None:
                return fake.anthropic_tool_use(self.tool, self.arguments)
            return fake.anthropic_text(self._say(result))
        if path.endswith("/responses"):
            result = _responses_result(body)
            if result is None:
                return fake.responses_function_call(self.tool, self.arguments)
            return fake.responses_text(self._say(result))
        result = _chat_result(body)
        if result is None:
            return fake.chat_tool_call(self.tool, self.arguments)
        return fake.chat_text(self._say(result))

    def _say(self, result: str) -> str:
        self.results.append(result)
        return f"The tool answered: {result}"


def _text(value: Any) -> str:
    """A tool result as the SDK sent it (a string, text blocks, or an object) as one string."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(_text(i.get("text", i)) if isinstance(i, dict) else str(i) for i in value)
    return json.dumps(value)


def _chat_result(body: dict[str, Any]) -> str | None:
    found = [m.get("content") for m in body.get("messages", []) if m.get("role") == "tool"]
    return _text(found[-1]) if found else None


def _responses_result(body: dict[str, Any]) -> str | None:
    items = body.get("input")
    if not isinstance(items, list):
        return None
    outputs = [o for o in items if isinstance(o, dict) and o.get("type") == "function_call_output"]
    found = [o.get("output") for o in outputs]
    return _text(found[-1]) if found else None


def _anthropic_result(body: dict[str, Any]) -> str | None:
    found = [
        block.get("content")
        for message in body.get("messages", [])
        if isinstance(message.get("content"), list)
        for block in message["content"]
        if isinstance(block, dict) and block.get("type") == "tool_result"
    ]
    return _text(found[-1]) if found else None


def _gemini_result(body: dict[str, Any]) -> str | None:
    found = [
        part["functionResponse"].get("response")
        for content in body.get("contents", [])
        for part in content.get("parts", [])
        if isinstance(part, dict) and "functionResponse" in part
    ]
    return _text(found[-1]) if found else None
