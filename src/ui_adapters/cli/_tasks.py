"""Tools the CLI cannot call yet: those whose server runs them only as tasks.

A tool that declares ``execution.taskSupport: "required"`` (the tasks extension,
``io.modelcontextprotocol/tasks``; ``execution`` in 2025-11-25) is run by its server only for a client
that asks for a task, and ``mcp_client`` does not do tasks yet: the call would fail with a bare JSON-RPC
error (-32601 or -32021). ``tools`` marks such a tool and ``call`` says so before sending anything.
"""

from __future__ import annotations

from mcp_client.types import Tool

__all__ = ["NEEDS_TASKS", "needs_tasks", "needs_tasks_message"]

NEEDS_TASKS = "needs tasks: mcp-client cannot call this tool yet"


def needs_tasks(tool: Tool) -> bool:
    """True when the tool's definition says it runs only as a task (``taskSupport: "required"``)."""
    execution = (tool.model_extra or {}).get("execution")
    return isinstance(execution, dict) and execution.get("taskSupport") == "required"  # pyright: ignore[reportUnknownMemberType]


def needs_tasks_message(tool: Tool, server: str) -> str:
    """What ``call`` says instead of calling a tool that runs only as a task."""
    return (
        f"{tool.name} on {server} runs only as a task (its definition says "
        '"taskSupport": "required"), and mcp-client cannot run tasks yet, so it was not called'
    )
