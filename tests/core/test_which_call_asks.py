"""Every question says which tool call asked it (``ClientRequestContext.tool_name`` and ``arguments``).

The official ``mcp`` guide server (tests/servers/guide_server.py), over HTTP on 127.0.0.1 and as a
subprocess, in both eras: a 2026-07-28 question names the call that returned it; a legacy question names
its call where the server says which one it belongs to (streamable HTTP: the call's own response stream),
and nothing over stdio, where the server cannot say.
"""

from __future__ import annotations

from typing import Any

import pytest

from mcp_client import Client
from tests.core.helpers import Recorder, accept, plan_trip_answer, server_for, text_of

pytestmark = pytest.mark.anyio


@pytest.fixture
def server(transport: str, guide_http_url: str, guide_stdio_command: tuple[str, list[str]]) -> Any:
    return server_for(transport, guide_http_url, guide_stdio_command)


async def test_a_question_names_the_tool_call_that_asked_it(server: Any, era: str, transport: str) -> None:
    callback = accept(confirm=True)
    async with Client(server, mode=era, elicitation_callback=callback) as client:
        result = await client.call_tool("delete_folder", {"path": "/srv/photos"})
    assert text_of(result) == "deleted /srv/photos"
    (context, _params) = callback.questions[0]
    if era == "legacy" and transport == "stdio":
        # A legacy server over stdio does not say which request a question belongs to: no guess.
        assert context.tool_name is None and context.arguments is None
    else:
        assert context.tool_name == "delete_folder"
        assert context.arguments == {"path": "/srv/photos"}


async def test_several_rounds_each_name_the_call(server: Any, era: str, transport: str) -> None:
    callback = Recorder(plan_trip_answer)
    async with Client(server, mode=era, elicitation_callback=callback) as client:
        await client.call_tool("plan_trip", {"destination": "Lisbon"})
    names = {context.tool_name for context, _ in callback.questions}
    assert len(callback.questions) == 3
    assert names == ({None} if era == "legacy" and transport == "stdio" else {"plan_trip"})


async def test_a_prompts_question_names_no_tool(server: Any, era: str) -> None:
    callback = accept(confirm=True)
    async with Client(server, mode=era, elicitation_callback=callback) as client:
        await client.get_prompt("trip_prompt", {"destination": "Oslo"})
    assert callback.questions
    assert all(context.tool_name is None for context, _ in callback.questions)
