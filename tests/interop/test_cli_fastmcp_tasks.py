"""``mcp-client`` against fastmcp-tasks: a task tool called, detached, looked at, followed, cancelled.

The status line and the form are the terminal's; here stdin is a pipe, so the form reads its answers
line by line and the test asserts what reaches stdout and stderr, and the exit codes.
"""

from __future__ import annotations

import shlex

from tests.cli._cli import run_cli


def _command(stdio_command: tuple[str, list[str]]) -> str:
    command, args = stdio_command
    return shlex.join([command, *args])


def test_call_completes_a_required_task_tool(fastmcp_tasks_url: str) -> None:
    done = run_cli("call", fastmcp_tasks_url, "must_task", "n=5")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "required job 5 done\n"


def test_call_completes_a_required_task_tool_over_stdio(
    fastmcp_tasks_stdio_command: tuple[str, list[str]],
) -> None:
    done = run_cli("call", _command(fastmcp_tasks_stdio_command), "must_task", "n=6")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "required job 6 done\n"


def test_a_task_question_is_a_terminal_form(fastmcp_tasks_url: str) -> None:
    done = run_cli("call", fastmcp_tasks_url, "ask_name", "greeting=Hi", stdin="Ada\ns\n")
    assert done.returncode == 0, done.stderr
    assert "What is your name?" in done.stderr
    assert done.stdout == "Hi, Ada!\n"


def test_detach_prints_the_id_and_task_shows_and_follows_it(fastmcp_tasks_url: str) -> None:
    detached = run_cli("call", "--detach", fastmcp_tasks_url, "slow_task", "seconds=2")
    assert detached.returncode == 0, detached.stderr
    task_id = detached.stdout.strip()
    assert task_id and "\n" not in task_id
    assert f"mcp-client task {fastmcp_tasks_url} {task_id}" in detached.stderr

    looked = run_cli("task", fastmcp_tasks_url, task_id)
    assert looked.returncode == 0, looked.stderr
    assert f"Task {task_id}: " in looked.stderr

    followed = run_cli("task", "--wait", fastmcp_tasks_url, task_id)
    assert followed.returncode == 0, followed.stderr
    assert followed.stdout == "slept\n"
    assert f"Task {task_id}: completed" in followed.stderr


def test_task_cancel_cancels_it(fastmcp_tasks_url: str) -> None:
    task_id = run_cli("call", "--detach", fastmcp_tasks_url, "slow_task", "seconds=60").stdout.strip()
    cancelled = run_cli("task", "--cancel", fastmcp_tasks_url, task_id)
    assert cancelled.returncode == 0, cancelled.stderr
    assert f"Task {task_id}: cancelled" in cancelled.stderr
    looked = run_cli("task", fastmcp_tasks_url, task_id)
    assert looked.returncode == 3
    assert "was cancelled" in looked.stderr


def test_a_failed_task_is_an_error(fastmcp_tasks_url: str) -> None:
    done = run_cli("call", fastmcp_tasks_url, "fail_task")
    assert done.returncode == 3
    assert "the backend is down" in done.stderr
