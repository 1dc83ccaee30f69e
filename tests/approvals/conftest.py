"""The approval tests' peer (``tests/servers/approvals_server.py``, a process of its own per client over
stdio, so what ran is counted per test) and a recording ``approval_callback``."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from mcp_client import (
    ApprovalRequest,
    ApprovalResult,
    Client,
    ClientRequestContext,
    StdioServerParameters,
)
from mcp_client.types import TextContent
from tests.support.servers import SERVERS_DIR, stdio_command

APPROVALS_SERVER = SERVERS_DIR / "approvals_server.py"
BOUND = 120  # seconds: generous, for a busy machine


def approvals_server(*extra: str) -> StdioServerParameters:
    """A new approvals server process (over stdio) for one client."""
    return StdioServerParameters(*stdio_command(APPROVALS_SERVER, *extra))


@pytest.fixture
def server() -> StdioServerParameters:
    return approvals_server()


def text(result: Any) -> str:
    return "".join(block.text for block in result.content if isinstance(block, TextContent))


async def ran(client: Client) -> list[str]:
    """The tools that ran on this client's server (asked of an ungated tool: ``ran`` is read-only)."""
    return json.loads(text(await client.call_tool("ran")))


@dataclass
class Approver:
    """An ``approval_callback`` answering from ``answers`` (tool → result, ``"*"`` for the rest) and
    recording each request and context it was handed."""

    answers: Mapping[str, ApprovalResult | Callable[[ApprovalRequest], Any]] = field(default_factory=dict)
    asked: list[ApprovalRequest] = field(default_factory=list[ApprovalRequest])
    contexts: list[ClientRequestContext] = field(default_factory=list[ClientRequestContext])

    async def __call__(self, context: ClientRequestContext, request: ApprovalRequest) -> Any:
        self.asked.append(request)
        self.contexts.append(context)
        answer = self.answers.get(request.tool, self.answers.get("*", ApprovalResult("allow")))
        return answer(request) if callable(answer) else answer

    @property
    def tools(self) -> list[str]:
        return [request.tool for request in self.asked]
