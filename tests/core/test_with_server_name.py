"""``with_server_name``: a callback given to one's own ``Client`` sees the app's name for the server.

What ``ClientGroup`` does for its members (and the CLI for a server of a ``--config`` file), public for
an app that connects to several servers itself. Against the official server (``guide_server.py``).
"""

from __future__ import annotations

from typing import Any

import pytest

from mcp_client import Client, ClientRequestContext, with_server_name
from mcp_client.types import ElicitRequestParams, ElicitResult
from tests.core.helpers import text_of

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("kind", ["async", "sync"])
async def test_the_callback_sees_the_given_name_and_answers_as_it_would(
    guide_http_legacy_only_url: str, kind: str
) -> None:
    seen: list[tuple[str, str | None, str]] = []

    def answer(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        seen.append((context.server_name, context.config_name, context.server))
        return ElicitResult(action="accept", content={"accept_alternative": True, "date": "2025-12-27"})

    async def answer_async(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        return answer(context, params)

    callback: Any = answer_async if kind == "async" else answer
    named = with_server_name(callback, "bistro")
    async with Client(guide_http_legacy_only_url, mode="legacy", elicitation_callback=named) as client:
        result = await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})
    assert text_of(result) == "[SUCCESS] Booked for 2025-12-27"
    assert seen == [("bistro", "bistro", guide_http_legacy_only_url)]  # the URL stays what it was


async def test_without_it_the_server_names_itself(guide_http_legacy_only_url: str) -> None:
    seen: list[str] = []

    async def answer(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        seen.append(context.server_name)
        return ElicitResult(action="decline")

    async with Client(guide_http_legacy_only_url, mode="legacy", elicitation_callback=answer) as client:
        await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})
    assert seen == ["elicitation-research"]
