"""The ``mcp-client`` command line: subcommands, options and help text (argparse, nothing else).

``call`` takes its ``KEY=VALUE`` words anywhere after the tool name, options included
(``call SERVER TOOL a=1 --json b=2``): argparse cannot mix a variable-length positional with options,
so the words it does not recognise are collected by ``parse_command_line`` instead.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ui_adapters.cli._exit import (
    EXIT_CODES_HELP,
    LOGIN_EXIT_CODES_HELP,
    LOGOUT_EXIT_CODES_HELP,
    SERVERS_EXIT_CODES_HELP,
    TOOLS_EXIT_CODES_HELP,
)

__all__ = ["build_parser", "parse_command_line"]

PROGRAM = "mcp-client"
MODES = ("legacy", "auto", "2026-07-28")
TRANSPORTS = ("auto", "http", "sse")
_SERVER_HELP = "URL, Python file or quoted command line; with --config, a server name of the file"
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")

_DESCRIPTION = """\
Talk to an MCP server from the terminal. Questions the server asks during a call (elicitations)
are shown as forms in the terminal; links are shown with their real host and opened only if you agree.

SERVER is an http(s):// URL (streamable HTTP, or HTTP+SSE), the path of a Python file (run over stdio
with this Python), or a quoted command line (run over stdio), e.g.
"npx -y @modelcontextprotocol/server-everything".
With --config FILE (an mcpServers file, read only when named), SERVER is one of the file's server names.

A server that needs a login (OAuth) gets one when it first asks: the login page opens in your browser
after you agree (or, with no browser, you paste back the address it ends on), and the tokens are kept
for next time. `login` and `logout` do that, and undo it, explicitly. A URL with user:password@ (or an
Authorization header of yours) sends your own credentials instead: no login then.
"""

_EXAMPLES = """\
examples:
  mcp-client demo
  mcp-client tools http://127.0.0.1:8000/mcp
  mcp-client call examples/servers/bistro.py book_table date=2025-12-25 party_size=2
  mcp-client call "python my_server.py" search query="mcp client" limit=5 tags='["a", "b"]'
  mcp-client call --json examples/servers/bistro.py book_table date=2025-12-24 party_size=2 | jq .content
  mcp-client call examples/servers/files.py delete_folder path=/tmp/old-drafts < answers.txt
  mcp-client servers --config mcp.json
  mcp-client tools --config mcp.json
  mcp-client call --config mcp.json bistro.book_table date=2025-12-25 party_size=2
  mcp-client prompts examples/servers/bistro.py
  mcp-client read --config mcp.json --server notes file:///notes/today.md
  mcp-client call --detach http://127.0.0.1:8000/mcp search_logs query=timeout
  mcp-client task --wait http://127.0.0.1:8000/mcp TASK_ID
  mcp-client login https://mcp.example.com/mcp
  mcp-client logout https://mcp.example.com/mcp
"""


def build_parser() -> argparse.ArgumentParser:
    from mcp_client import __version__

    parser = argparse.ArgumentParser(
        prog=PROGRAM,
        description=_DESCRIPTION,
        epilog=_EXAMPLES
        + "\n"
        + EXIT_CODES_HELP.replace("exit codes:", "exit codes (call; see each command's --help):", 1),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"{PROGRAM} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    connection = argparse.ArgumentParser(add_help=False)
    options = connection.add_argument_group("connection options")
    options.add_argument(
        "--mode",
        choices=MODES,
        default="auto",
        help="protocol era: auto (default: the initialize handshake when the server speaks it, where "
        "questions asked with ctx.elicit work; 2026-07-28 otherwise), legacy (the handshake only), "
        "or 2026-07-28",
    )
    options.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="NAME:VALUE",
        help="HTTP header sent with every request (repeatable; HTTP servers only)",
    )
    options.add_argument(
        "--timeout",
        type=_positive_seconds,
        default=30.0,
        metavar="SECONDS",
        help="seconds to wait for each answer from the server; each progress report from the server "
        "starts the wait again, and time spent answering its questions does not count (default: 30)",
    )
    options.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        default="info",
        metavar="LEVEL",
        help="print the server's log messages at LEVEL and above on stderr: "
        + ", ".join(LOG_LEVELS)
        + " (default: info)",
    )
    options.add_argument(
        "--root",
        action="append",
        default=[],
        metavar="PATH",
        help="a folder (or file) the server may work in, sent when it asks for roots (repeatable)",
    )
    options.add_argument("--json", action="store_true", help="print the raw result as JSON (for scripts)")
    options.add_argument(
        "--config",
        metavar="FILE",
        help="an mcpServers file (Claude Desktop, Cursor, VS Code): SERVER is then one of its server names; "
        "never read unless named here",
    )
    options.add_argument(
        "--server",
        metavar="NAME",
        dest="server_option",
        help="the server (with --config: its name in the file), instead of the SERVER word",
    )
    options.add_argument(
        "--transport",
        choices=TRANSPORTS,
        default="auto",
        help="for URLs: http (streamable HTTP), sse (the older HTTP+SSE) or auto (default: streamable "
        "HTTP, falling back to HTTP+SSE)",
    )
    options.add_argument(
        "--ca-bundle",
        metavar="FILE",
        help="trust the certificate authorities in this PEM file (a private CA); SSL_CERT_FILE is read "
        "when not given",
    )
    options.add_argument(
        "--insecure",
        action="store_true",
        help="do not verify the server's TLS certificate (a throwaway test server only)",
    )
    options.add_argument(
        "--proxy",
        metavar="URL",
        help="send HTTP requests through this proxy; HTTPS_PROXY / HTTP_PROXY / NO_PROXY are read when "
        "not given",
    )

    tools = commands.add_parser(
        "tools",
        parents=[connection],
        help="list a server's tools and their arguments",
        description="List the server's tools with their arguments.",
        epilog=TOOLS_EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    tools.add_argument(
        "server", metavar="SERVER", nargs="?", help=_SERVER_HELP + " (left out: every server of the file)"
    )

    call = commands.add_parser(
        "call",
        parents=[connection],
        help="call a tool, answering its questions in the terminal",
        description=(
            "Call TOOL with KEY=VALUE arguments. Values are read by the tool's input schema: "
            "integers (n=3), numbers (x=2.5), booleans (flag=true), null, JSON arrays and objects "
            "(tags='[\"a\"]'), and plain text for strings. Questions the tool asks are answered "
            "in the terminal (or read line by line from stdin when it is not a terminal)."
        ),
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    call.add_argument(
        "arguments",
        nargs="*",
        metavar="SERVER TOOL [KEY=VALUE ...]",
        help="the server, the tool's name (see `mcp-client tools SERVER`) and its arguments; with --config, "
        "the name `tools --config` shows, SERVER.TOOL or --server NAME TOOL",
    )
    call.add_argument(
        "--yes",
        "-y",
        action="store_true",
        help="run the tool without asking first; without it, a tool the server does not mark "
        "read-only is asked about at the terminal, and refused when stdin is not a terminal (exit 4)",
    )
    call.add_argument(
        "--detach",
        action="store_true",
        help="if the server runs the call as a task, print its id and return (see `mcp-client task`)",
    )

    apps = commands.add_parser(
        "apps",
        parents=[connection],
        help="call a tool and open its view (MCP Apps) in the browser",
        description=(
            "Call TOOL with KEY=VALUE arguments (as `call` does) and show its view, the server's own "
            "interface for the result (MCP Apps), in your browser: served on this machine, sandboxed. "
            "The tool's text and the view's URL are printed; the command serves the view until its "
            "page is closed or Ctrl-C. What the view asks for (a message, a link) is shown and refused. "
            "As with `call`, a tool the server does not mark read-only is asked about first, and so is "
            "each such tool the view calls (no terminal: refused), unless --yes."
        ),
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    apps.add_argument(
        "arguments",
        nargs="*",
        metavar="SERVER TOOL [KEY=VALUE ...]",
        help="the server, a tool that has a view and its arguments (as for `call`)",
    )
    apps.add_argument(
        "--yes",
        "-y",
        action="store_true",
        help="run the tool, and the tools the view calls, without asking; without it, a tool the server "
        "does not mark read-only is asked about at the terminal, and refused when stdin is not a terminal "
        "(exit 4 for the first call; the view's call gets an error)",
    )
    apps.add_argument(
        "--no-browser",
        action="store_true",
        help="do not open the browser: print the view's URL (on this machine only) and serve it",
    )

    task = commands.add_parser(
        "task",
        parents=[connection],
        help="show, follow or cancel a task a call started (see call --detach)",
        description=(
            "Show the status of task TASK_ID on SERVER, and its result once it has one. With --wait, "
            "follow it to its end, answering its questions in the terminal; with --cancel, cancel it."
        ),
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    task.add_argument("server", metavar="SERVER", help=_SERVER_HELP)
    task.add_argument("task_id", metavar="TASK_ID", help="the id `call --detach` printed")
    task_action = task.add_mutually_exclusive_group()
    task_action.add_argument("--wait", action="store_true", help="follow the task to its end")
    task_action.add_argument("--cancel", action="store_true", help="ask the server to cancel the task")

    _add_listing_commands(commands, connection)

    login = commands.add_parser(
        "login",
        help="log in to a server that needs authorization (OAuth), keeping the tokens",
        description=(
            "Log in to SERVER now: its login page is shown, opened in your browser if you agree, and "
            "the tokens are kept in your data folder (file readable by you only) for tools and call. "
            "Without a browser (SSH), open the link on any device and paste back the address it ends on."
        ),
        epilog=LOGIN_EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    login.add_argument(
        "server", metavar="SERVER", help="the server's http(s):// URL, or with --config its name in the file"
    )
    login.add_argument(
        "--config",
        metavar="FILE",
        help='an mcpServers file: SERVER is one of its names, and its "auth" object gives --client-id, '
        "--private-key, --dpop and --scope (the options given here win)",
    )
    login.add_argument(
        "--scope",
        action="append",
        default=[],
        metavar="SCOPE",
        help="ask for this scope (repeatable); default: what the server asks for",
    )
    login.add_argument(
        "--client-id",
        metavar="ID",
        help="log in as this client, registered beforehand at the authorization server",
    )
    login.add_argument(
        "--private-key",
        metavar="FILE",
        help=(
            "authenticate the client (--client-id) with this PEM private key (private_key_jwt) instead "
            "of a secret; the file must be readable by you only (chmod 600)"
        ),
    )
    login.add_argument(
        "--dpop",
        action="store_true",
        help="bind the tokens to a new key of this client (DPoP, RFC 9449); the key is kept with them",
    )
    logout = commands.add_parser(
        "logout",
        help="log out of a server: revoke and forget its tokens",
        description="Revoke SERVER's tokens (where its authorization server allows) and forget them.",
        epilog=LOGOUT_EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    logout.add_argument("server", metavar="SERVER", help="the server's http(s):// URL")

    commands.add_parser(
        "demo",
        help="run a guided demo against a bundled example server (no arguments needed)",
        description=(
            "Start the bundled example server on 127.0.0.1 (a free port), book a table and delete a "
            "folder with it, answering its questions in this terminal, then stop it. Needs the "
            'official MCP SDK for the server: pip install "mcp-elicit-client[examples]" (in a checkout: '
            'pip install -e ".[examples]").'
        ),
    )
    return parser


def _add_listing_commands(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parent: argparse.ArgumentParser
) -> None:
    """``servers``, ``prompts``, ``get-prompt``, ``resources`` and ``read``."""
    servers = commands.add_parser(
        "servers",
        parents=[parent],
        help="with --config: each server of the file, connected or why not, its era, transport and tools",
        description="Connect to every server of the --config file at once and say how each one went.",
        epilog=SERVERS_EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    servers.add_argument("server", metavar="SERVER", nargs="?", help="one server of the file only")
    for name, what in (("prompts", "prompts"), ("resources", "resources and resource templates")):
        listing = commands.add_parser(
            name,
            parents=[parent],
            help=f"list a server's {what}",
            description=f"List the server's {what} (with --config and no SERVER: every server's).",
            epilog=TOOLS_EXIT_CODES_HELP,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        listing.add_argument(
            "server", metavar="SERVER", nargs="?", help=_SERVER_HELP + " (left out: every server of the file)"
        )
    get_prompt = commands.add_parser(
        "get-prompt",
        parents=[parent],
        help="get a prompt's messages, with KEY=VALUE arguments",
        description="Get prompt NAME filled in with KEY=VALUE arguments and print its messages.",
        epilog=TOOLS_EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    get_prompt.add_argument(
        "arguments",
        nargs="*",
        metavar="SERVER NAME [KEY=VALUE ...]",
        help="the server, the prompt's name and its arguments; with --config, SERVER.NAME or --server NAME",
    )
    read = commands.add_parser(
        "read",
        parents=[parent],
        help="read a resource by its URI",
        description="Read the resource at URI and print its contents (text as is, binary as a summary).",
        epilog=TOOLS_EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    read.add_argument(
        "arguments",
        nargs="*",
        metavar="SERVER URI",
        help="the server and the resource's URI; with --config, SERVER URI or --server NAME URI",
    )


def parse_command_line(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse ``argv``; ``call``'s ``KEY=VALUE`` words may come before, between or after options."""
    args, extra = parser.parse_known_args(argv)
    if args.command in ("call", "apps", "get-prompt", "read"):
        unknown = [word for word in extra if word.startswith("-")]
        if unknown:
            parser.error(f"unrecognized arguments: {' '.join(unknown)}")
        args.arguments = [*args.arguments, *extra]
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value
