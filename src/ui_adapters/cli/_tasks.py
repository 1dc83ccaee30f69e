"""Tools whose server runs them only as tasks (``execution.taskSupport: "required"``).

Such a tool needs the tasks extension (``io.modelcontextprotocol/tasks``), which exists only in protocol
2026-07-28: ``call`` connects in that era for it (``--mode auto``), and follows the task to its end.
With ``--mode legacy`` it says so before sending anything.
"""

from __future__ import annotations

from mcp_client.types import Tool

__all__ = ["needs_tasks", "needs_tasks_message"]


def needs_tasks(tool: Tool) -> bool:
    """True when the tool's definition says it runs only as a task (``taskSupport: "required"``)."""
    execution = (tool.model_extra or {}).get("execution")
    return isinstance(execution, dict) and execution.get("taskSupport") == "required"  # pyright: ignore[reportUnknownMemberType]


def needs_tasks_message(tool: Tool, server: str) -> str:
    """What ``call --mode legacy`` says instead of calling a tool that runs only as a task."""
    return (
        f"{tool.name} on {server} runs only as a task (its definition says "
        '"taskSupport": "required"), and tasks exist only in protocol 2026-07-28; it was not called. '
        "Use --mode auto or --mode 2026-07-28"
    )
