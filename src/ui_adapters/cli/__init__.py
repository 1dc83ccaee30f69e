"""The ``mcp-client`` command (also ``python -m ui_adapters.cli``): list tools, call one, or run the demo.

::

    mcp-client demo
    mcp-client tools SERVER
    mcp-client call SERVER TOOL [KEY=VALUE ...] [--mode legacy|auto|2026-07-28] [--header K:V] [--json]
                    [--root PATH ...] [--detach]
    mcp-client task SERVER TASK_ID [--wait | --cancel]
    mcp-client apps SERVER TOOL [KEY=VALUE ...] [--no-browser] [--yes]
    mcp-client prompts SERVER | get-prompt SERVER NAME [KEY=VALUE ...] | resources SERVER | read SERVER URI
    mcp-client servers --config FILE          (and --config FILE on every command: SERVER is a name there)
    mcp-client login SERVER [--scope S ...]
    mcp-client logout SERVER

``main`` turns every failure into a message on stderr and a documented exit code (``_exit``). The CLI
is an application built on both packages: it uses ``mcp_client`` and ``ui_adapters`` through their
public names only, and ``mcp_client`` never imports it. rich and prompt_toolkit are imported only
when a command runs, so ``mcp-client --help`` is quick.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from ui_adapters.cli._exit import (
    EXIT_BROKEN_PIPE,
    EXIT_CONNECTION,
    EXIT_INTERRUPTED,
    EXIT_NOT_APPROVED,
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    UsageError,
)
from ui_adapters.cli._parser import PROGRAM, build_parser, parse_command_line

if TYPE_CHECKING:
    import argparse

    from rich.console import Console

    from ui_adapters.cli._commands import Connection
    from ui_adapters.cli._targets import Everyone

__all__ = ["EXIT_BROKEN_PIPE", "EXIT_CONNECTION", "EXIT_TOOL_ERROR", "EXIT_USAGE", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``) and return the exit code."""
    parser = build_parser()
    args = parse_command_line(parser, argv)
    args.command_line = list(argv if argv is not None else sys.argv[1:])  # for the --yes suggestion

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
    from ui_adapters.cli._approval import NotApprovedError
    from ui_adapters.cli._args import ArgumentsError, usage_line
    from ui_adapters.cli._commands import Connection
    from ui_adapters.cli._render import print_parameters
    from ui_adapters.cli._targets import Everyone
    from ui_adapters.text import sanitize

    target: Connection | Everyone | None = None
    server_label = "SERVER"
    try:
        if args.command == "demo":
            from ui_adapters.cli._demo import run_demo

            return run_demo(out, err)
        if args.command in ("login", "logout"):
            from ui_adapters.cli._login import run_login, run_logout

            if args.command == "login":
                from ui_adapters.cli._targets import login_options

                url, login = login_options(args)
                return anyio.run(
                    lambda: run_login(
                        url,
                        out,
                        err,
                        scopes=login.scopes,
                        client_id=login.client_id,
                        private_key=login.private_key,
                        dpop=login.dpop,
                    )
                )
            return anyio.run(lambda: run_logout(args.server, out, err))
        target, words = _target(args)
        server_label = "SERVER"
        if isinstance(target, Connection):
            server_label = shlex.quote(_server_word(args))
            if target.name is not None:  # a server of the file: --config FILE --server NAME
                server_label = f"--config {shlex.quote(args.config)} --server {shlex.quote(target.name)}"
        if isinstance(target, Everyone):
            return anyio.run(lambda: _run_everyone(args.command, target, out, err, as_json=args.json))
        return anyio.run(lambda: _run_one(args, target, words, out, err))
    except ArgumentsError as error:
        _complain(err, "wrong arguments for " + error.tool.name + ":", *error.problems)
        err.print()
        print_parameters(err, error.tool)
        usage = usage_line(error.tool, PROGRAM, server_label)
        err.print(Text("Usage: " + sanitize(usage, single_line=True), style="dim"), soft_wrap=True)
        return EXIT_USAGE
    except UsageError as error:
        _complain(err, str(error))
        return EXIT_USAGE
    except NotApprovedError as error:
        _complain(err, str(error))
        return EXIT_NOT_APPROVED
    except MCPClientError as error:
        connection = target if isinstance(target, Connection) else None
        advice = advice_for(
            error,
            server=connection.server if connection is not None else None,
            mode=connection.mode if connection is not None else getattr(args, "mode", "auto"),
            roots_given=bool(getattr(args, "root", None)),
            transport=connection.transport if connection is not None else "auto",
        )
        label = connection.label if connection is not None else "the server"
        typed = getattr(args, "server", None)
        if connection is None and isinstance(typed, str) and not getattr(args, "config", None):
            from ui_adapters.broker.stores import redact_server

            label = redact_server(typed)  # login / logout: the URL as given, less any user:password
        in_config = None
        if connection is not None and connection.name is not None:
            if connection.mode != getattr(args, "mode", None):  # the file's entry chose it, not --mode
                in_config = getattr(args, "config", None)
        _complain(err, message_for(error, server=label, mode_in_config=in_config), *advice)
        return EXIT_CONNECTION


_ONE_NAME_AFTER_SERVER = {"call": "TOOL", "apps": "TOOL", "get-prompt": "NAME", "read": "URI"}


def _target(args: argparse.Namespace) -> tuple[Connection | Everyone, list[str]]:
    """The server(s) the command talks to (``_targets``), and the words left for the command."""
    from dataclasses import replace

    from ui_adapters.cli._targets import Everyone, config_of, only_server, split_target

    words: list[str] = list(getattr(args, "arguments", None) or ())
    if getattr(args, "server", None) is not None:
        words.insert(0, args.server)
    base = _base_connection(args)
    if args.command == "servers":
        config = config_of(args)
        if config is None:
            raise UsageError("servers lists the servers of a config file: mcp-client servers --config FILE")
        name = args.server_option or (words[0] if words else None)
        return Everyone(only_server(config, name) if name else config, base), []
    if args.command == "tools" and (config := config_of(args)) is not None:
        # One server of the file or all: listed through the group, under the names `call` takes.
        name = args.server_option or (words.pop(0) if words else None)
        _no_more(words, "tools")
        target: Connection | Everyone = Everyone(config, base)
        if name is not None:
            target = Everyone(only_server(config, name, headers=base.headers), replace(base, headers={}))
        rest: list[str] = []
    else:
        what = _ONE_NAME_AFTER_SERVER.get(args.command, "")
        target, rest = split_target(args, words, base, what=what, dotted=what in ("TOOL", "NAME"))
    if isinstance(target, Everyone) and target.base.headers:
        raise UsageError(
            "--header goes to one server: name it (SERVER or --server NAME), or put the header in the "
            'entry\'s "headers" in the file'
        )
    if not isinstance(target, Everyone) and target.headers and not isinstance(target.server, str):
        raise UsageError("--header only applies to http(s):// servers; this SERVER runs over stdio")
    return target, rest


def _server_word(args: argparse.Namespace) -> str:
    """SERVER as the person typed it (for a usage line they can copy)."""
    if args.server_option is not None:
        return args.server_option
    words = [w for w in (getattr(args, "server", None), *(getattr(args, "arguments", None) or ())) if w]
    return words[0] if words else "SERVER"


def _base_connection(args: argparse.Namespace) -> Connection:
    """The command line's connection options, before SERVER (or a config entry) fills the server in."""
    from ui_adapters.cli._commands import Connection
    from ui_adapters.cli._server_questions import root_for
    from ui_adapters.cli._servers import parse_header
    from ui_adapters.cli._targets import tls_options

    headers = dict(parse_header(h) for h in args.header)
    roots = tuple(root_for(path) for path in args.root)
    verify, proxy = tls_options(args)
    return Connection(
        server="",
        mode=args.mode,
        headers=headers,
        timeout=args.timeout,
        log_level=args.log_level,
        roots=roots,
        transport=args.transport,
        verify=verify,
        proxy=proxy,
    )


async def _run_one(
    args: argparse.Namespace, connection: Connection, words: list[str], out: Console, err: Console
) -> int:
    command, as_json = args.command, args.json
    if command == "tools":
        from ui_adapters.cli._commands import run_tools

        _no_more(words, "tools")
        return await run_tools(connection, out, err, as_json=as_json)
    if command == "task":
        from ui_adapters.cli._task_command import run_task

        _no_more(words, "task")
        return await run_task(
            connection, args.task_id, out, err, as_json=as_json, wait=args.wait, cancel=args.cancel
        )
    if command == "call":
        from ui_adapters.cli._commands import run_call

        if not words:
            raise UsageError("name the tool: call SERVER TOOL [KEY=VALUE ...]")
        return await run_call(
            connection,
            words[0],
            words[1:],
            out,
            err,
            as_json=as_json,
            detach=args.detach,
            yes=args.yes,
            command=_with_yes(args.command_line, "call"),
        )
    if command == "apps":
        from ui_adapters.cli._apps_command import run_apps

        if not words:
            raise UsageError("name the tool: apps SERVER TOOL [KEY=VALUE ...]")
        return await run_apps(
            connection,
            words[0],
            words[1:],
            out,
            err,
            as_json=as_json,
            open_browser=not args.no_browser,
            yes=args.yes,
            command=_with_yes(args.command_line, "apps"),
        )
    from ui_adapters.cli import _listing

    if command == "prompts":
        _no_more(words, "prompts")
        return await _listing.run_prompts(connection, out, err, as_json=as_json)
    if command == "resources":
        _no_more(words, "resources")
        return await _listing.run_resources(connection, out, err, as_json=as_json)
    if command == "get-prompt":
        return await _listing.run_get_prompt(connection, words, out, err, as_json=as_json)
    return await _listing.run_read(connection, words, out, err, as_json=as_json)


async def _run_everyone(
    command: str, everyone: Everyone, out: Console, err: Console, *, as_json: bool
) -> int:
    from ui_adapters.cli import _everyone

    run = {
        "servers": _everyone.run_servers,
        "tools": _everyone.run_all_tools,
        "prompts": _everyone.run_all_prompts,
        "resources": _everyone.run_all_resources,
    }[command]
    return await run(everyone, out, err, as_json=as_json)


_SECRET_HEADER_WORDS = ("authorization", "cookie", "token", "secret", "key", "password")


def _with_yes(command_line: Sequence[str], command: str) -> str:
    """This command line again with ``--yes`` after ``command`` (``call``, ``apps``): what to run to
    skip the approval.

    Never with a secret in it (stderr ends up in CI logs and terminal scrollback): a URL's
    ``user:password@`` is left out and a credential header's value (``--header "Authorization: ..."``)
    shown as ``***``, and the line then says to put them back.
    """
    from ui_adapters.broker.stores import redact_server

    words = [PROGRAM, *command_line]
    if command in words:
        words.insert(words.index(command) + 1, "--yes")
    shown: list[str] = []
    for before, word in zip(["", *words], words, strict=False):
        is_header = before == "--header" or word.startswith("--header=")
        name, colon, _value = word.partition(":")
        if is_header and colon and any(w in name.lower() for w in _SECRET_HEADER_WORDS):
            shown.append(f"{name}: ***")
        else:
            shown.append(redact_server(word))
    line = shlex.join(shown)
    if shown != words:
        line += " (with your credentials put back: left out here)"
    return line


def _no_more(words: list[str], command: str) -> None:
    if words:
        raise UsageError(f"{command} takes one SERVER; unexpected: {' '.join(words)}")


def _complain(err: Console, first: str, *more: str) -> None:
    from rich.text import Text

    text = Text(f"{PROGRAM}: ", style="bold red")
    text.append(first)
    for line in more:
        text.append("\n  " + line)
    err.print(text, soft_wrap=True)
