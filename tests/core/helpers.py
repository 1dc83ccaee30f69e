"""Small helpers for the core tests: connecting to the guide server in every era and transport."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mcp_client import (
    ClientRequestContext,
    StdioServerParameters,
    StdioTransport,
    StreamableHTTPTransport,
    Transport,
)
from mcp_client.types import ElicitRequestParams, ElicitResult


@dataclass
class Recorder:
    """An elicitation callback that answers with ``answer(params)`` and records what it was asked."""

    answer: Callable[[ElicitRequestParams], ElicitResult | Awaitable[ElicitResult]]
    questions: list[tuple[ClientRequestContext, ElicitRequestParams]] = field(default_factory=list)

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        self.questions.append((context, params))
        result = self.answer(params)
        if not isinstance(result, ElicitResult):
            result = await result
        return result


def accept(**content: Any) -> Recorder:
    return Recorder(lambda _params: ElicitResult(action="accept", content=content or None))


def reply(action: str) -> Recorder:
    return Recorder(lambda _params: ElicitResult(action=action))  # type: ignore[arg-type]


def plan_trip_answer(params: Any) -> ElicitResult:
    """Answers each of the guide server's ``plan_trip`` questions (dates, budget, then confirm)."""
    props = params.requested_schema["properties"]
    if "start" in props:
        return ElicitResult(action="accept", content={"start": "2026-05-01", "nights": 3})
    if "max_eur" in props:
        return ElicitResult(action="accept", content={"max_eur": 2500})
    return ElicitResult(action="accept", content={"confirm": True})


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


def server_for(transport: str, http_url: str, stdio_command: tuple[str, list[str]]) -> Any:
    if transport == "http":
        return http_url
    command, args = stdio_command
    return StdioServerParameters(command, args)


class RecordingTransport:
    """A real transport (HTTP or stdio, as ``server_for`` gives) that also keeps every message the
    client sends without awaiting a reply: notifications and its answers to the server's requests."""

    def __init__(self, server: Any) -> None:
        self.inner: Transport = (
            StdioTransport(server)
            if isinstance(server, StdioServerParameters)
            else StreamableHTTPTransport(server)
        )
        self.sent: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def send(
        self, message: dict[str, Any], headers: Mapping[str, str], *, protocol_version: str | None = None
    ) -> None:
        self.sent.append(message)
        await self.inner.send(message, headers, protocol_version=protocol_version)
