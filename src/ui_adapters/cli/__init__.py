"""The ``mcp-client`` command (also ``python -m ui_adapters.cli``): list tools, call one, or run the demo.

::

    mcp-client demo
    mcp-client tools SERVER
    mcp-client call SERVER TOOL [KEY=VALUE ...] [--mode legacy|auto|2026-07-28] [--header K:V] [--json]
                    [--root PATH ...] [--detach]
    mcp-client task SERVER TASK_ID [--wait | --cancel]
    mcp-client login SERVER [--scope S ...]
    mcp-client logout SERVER

``main`` turns every failure into a message on stderr and a documented exit code (``_exit``). The CLI
is an application built on both packages: it uses ``mcp_client`` and ``ui_adapters`` through their
public names only, and ``mcp_client`` never imports it. rich and prompt_toolkit are imported only
when a command runs, so ``mcp-client --help`` is quick.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from ui_adapters.cli._exit import (
    EXIT_BROKEN_PIPE,
    EXIT_CONNECTION,
    EXIT_INTERRUPTED,
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    UsageError,
)
from ui_adapters.cli._parser import PROGRAM, build_parser, parse_command_line

if TYPE_CHECKING:
    import argparse

    from rich.console import Console

    from ui_adapters.cli._commands import Connection

__all__ = ["EXIT_BROKEN_PIPE", "EXIT_CONNECTION", "EXIT_TOOL_ERROR", "EXIT_USAGE", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``) and return the exit code."""
    parser = build_parser()
    args = parse_command_line(parser, argv)

    from rich.console import Console

    class _Stdout(Console):
        def on_broken_pipe(self) -> None:  # rich's own handler exits 1, the "tool error" code
            raise BrokenPipeError

    out = _Stdout(file=_stdout(), highlight=False, soft_wrap=False)
    err = Console(stderr=True, highlight=False)
    try:
        return _run(args, out, err)
    except KeyboardInterrupt:
        err.print("\nInterrupted.", style="yellow", markup=False)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return _stdout_closed()


def _stdout() -> TextIO:
    """``sys.stdout``, buffered at the bytes level even under ``PYTHONUNBUFFERED=1`` / ``python -u``.

    Unbuffered, ``sys.stdout`` writes to the raw file, and when the reader goes away in the middle of a
    write (``| head``) the raw write is cut short instead of failing: the text layer drops the rest
    without a word, no ``BrokenPipeError`` is ever raised, and the command exits 0 with its output cut.
    A ``BufferedWriter`` writes all or raises. Every print flushes, so nothing waits in the buffer.
    """
    import io
    import sys

    stdout = sys.stdout
    if not isinstance(getattr(stdout, "buffer", None), io.RawIOBase):
        return stdout
    raw = io.FileIO(stdout.fileno(), "wb", closefd=False)  # its own: closing it leaves sys.stdout alone
    return io.TextIOWrapper(
        io.BufferedWriter(raw), encoding=stdout.encoding, errors=stdout.errors, write_through=True
    )


def _stdout_closed() -> int:
    """The reader of stdout is gone: stop quietly (no traceback, nor one at exit when Python flushes)."""
    import os
    import sys

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return EXIT_BROKEN_PIPE


def _run(args: argparse.Namespace, out: Console, err: Console) -> int:
    import anyio
    from rich.text import Text

    from mcp_client import MCPClientError
    from ui_adapters.cli._advice import advice_for, message_for
    from ui_adapters.cli._args import ArgumentsError, usage_line
    from ui_adapters.cli._render import print_parameters
    from ui_adapters.text import sanitize

    try:
        if args.command == "demo":
            from ui_adapters.cli._demo import run_demo

            return run_demo(out, err)
        if args.command in ("login", "logout"):
            from ui_adapters.cli._login import run_login, run_logout

            if args.command == "login":
                return anyio.run(
                    lambda: run_login(
                        args.server,
                        out,
                        err,
                        scopes=args.scope,
                        client_id=args.client_id,
                        private_key=args.private_key,
                        dpop=args.dpop,
                    )
                )
            return anyio.run(lambda: run_logout(args.server, out, err))
        connection = _connection(args)
        if args.command == "tools":
            from ui_adapters.cli._commands import run_tools

            return anyio.run(lambda: run_tools(connection, out, err, as_json=args.json))
        if args.command == "task":
            from ui_adapters.cli._task_command import run_task

            return anyio.run(
                lambda: run_task(
                    connection, args.task_id, out, err, as_json=args.json, wait=args.wait, cancel=args.cancel
                )
            )
        from ui_adapters.cli._commands import run_call

        return anyio.run(
            lambda: run_call(
                connection, args.tool, args.arguments, out, err, as_json=args.json, detach=args.detach
            )
        )
    except ArgumentsError as error:
        _complain(err, "wrong arguments for " + error.tool.name + ":", *error.problems)
        err.print()
        print_parameters(err, error.tool)
        usage = usage_line(error.tool, PROGRAM, shlex.quote(args.server))
        err.print(Text("Usage: " + sanitize(usage, single_line=True), style="dim"), soft_wrap=True)
        return EXIT_USAGE
    except UsageError as error:
        _complain(err, str(error))
        return EXIT_USAGE
    except MCPClientError as error:
        advice = advice_for(
            error,
            server=_server_of(args),
            mode=getattr(args, "mode", "auto"),
            roots_given=bool(getattr(args, "root", None)),
        )
        _complain(err, message_for(error, server=getattr(args, "server", "the server")), *advice)
        return EXIT_CONNECTION


def _server_of(args: argparse.Namespace) -> object:
    from ui_adapters.cli._servers import parse_server

    try:
        return parse_server(args.server)
    except UsageError:
        return None


def _connection(args: argparse.Namespace) -> Connection:
    from ui_adapters.cli._commands import Connection
    from ui_adapters.cli._server_questions import root_for
    from ui_adapters.cli._servers import parse_header, parse_server

    server = parse_server(args.server)
    headers = dict(parse_header(h) for h in args.header)
    if headers and not isinstance(server, str):
        raise UsageError("--header only applies to http(s):// servers; this SERVER runs over stdio")
    roots = tuple(root_for(path) for path in args.root)
    return Connection(
        server=server,
        mode=args.mode,
        headers=headers,
        timeout=args.timeout,
        log_level=args.log_level,
        roots=roots,
    )


def _complain(err: Console, first: str, *more: str) -> None:
    from rich.text import Text

    text = Text(f"{PROGRAM}: ", style="bold red")
    text.append(first)
    for line in more:
        text.append("\n  " + line)
    err.print(text, soft_wrap=True)
