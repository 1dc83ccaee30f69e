"""A worker process of the approval tests (issue 45): a client whose tool call waits for an approval
that another process gives, or that a store remembered "always".

    python approval_worker_script.py broker STORE SERVER_URL TOOL
        QuestionBroker(store=STORE) is the approval_callback; prints ``result: <text>`` or
        ``denied: <message>`` once the call ends (the approval is answered elsewhere).
    python approval_worker_script.py always STORE SERVER_URL TOOL ANSWER
        canned_approvals({TOOL: ANSWER}) (ANSWER: allow-always, deny-always, or none: nothing canned)
        with approval_store=STORE; prints the result and ``asked: N``.

STORE is ``sqlite:PATH`` or ``redis:URL:NAMESPACE`` (the URL without ``redis://``).
"""

from __future__ import annotations

import sys

import anyio

from mcp_client import ApprovalResult, Client, ToolCallDenied, ToolPolicy
from mcp_client.types import CallToolResult, TextContent
from ui_adapters import QuestionBroker, RedisStore, SqliteStore, canned_approvals


def open_store(spec: str) -> SqliteStore | RedisStore:
    kind, _, rest = spec.partition(":")
    if kind == "sqlite":
        return SqliteStore(rest)
    address, _, namespace = rest.rpartition(":")
    return RedisStore(f"redis://{address}", namespace=namespace)


def text_of(result: CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, TextContent))


async def call(client: Client, tool: str) -> None:
    try:
        arguments = {"text": "x"} if tool in ("write_note", "plain") else {}
        print("result:", text_of(await client.call_tool(tool, arguments)), flush=True)
    except ToolCallDenied as exc:
        print("denied:", exc, flush=True)


async def main(mode: str, store_spec: str, url: str, tool: str, answer: str = "none") -> None:
    store = open_store(store_spec)
    if mode == "broker":
        async with QuestionBroker(timeout=120, store=store, lease=30) as broker:
            async with Client(url, approval_callback=broker, tool_policy=ToolPolicy()) as client:
                print("calling", flush=True)
                await call(client, tool)
        return
    canned = {
        "allow-always": {tool: ApprovalResult(decision="allow", remember="always")},
        "deny-always": {tool: ApprovalResult(decision="deny", remember="always")},
    }.get(answer, {})
    approvals = canned_approvals(canned)
    try:
        async with Client(
            url, approval_callback=approvals, tool_policy=ToolPolicy(), approval_store=store
        ) as client:
            await call(client, tool)
    finally:
        await store.close()
    print("asked:", len(approvals.asked), flush=True)


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:])
