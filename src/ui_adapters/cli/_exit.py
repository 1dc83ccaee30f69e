"""The exit codes of ``mcp-client`` and the error that means "the command line is wrong".

Scripts branch on these codes, so they are part of the CLI's contract (each command's ``--help`` lists
the ones it can return):

* 0: success.
* 1: the tool ran and reported an error (``isError``).
* 2: usage error: bad options, an unknown tool, an argument of the wrong type, a missing argument.
* 3: the server could not be reached or started, broke the protocol, answered with a JSON-RPC
  error, or did not answer in time.
* 4: ``call`` did not run the tool: the person denied it at the approval prompt, the tool is not
  marked read-only and stdin is not a terminal to ask on (pass ``--yes``), or the ``--config`` file's
  ``tool_policy`` denies it.
* 130: interrupted (Ctrl-C).
* 141: the reader of stdout went away (``mcp-client tools X | head -1``): nothing more is printed,
  no traceback, and the code a shell reports for a program stopped by SIGPIPE (128 + 13), as git
  and coreutils do.
"""

from __future__ import annotations

__all__ = [
    "EXIT_BROKEN_PIPE",
    "EXIT_CODES_HELP",
    "EXIT_CONNECTION",
    "EXIT_INTERRUPTED",
    "EXIT_NOT_APPROVED",
    "EXIT_OK",
    "EXIT_TOOL_ERROR",
    "EXIT_USAGE",
    "LOGIN_EXIT_CODES_HELP",
    "LOGOUT_EXIT_CODES_HELP",
    "SERVERS_EXIT_CODES_HELP",
    "TOOLS_EXIT_CODES_HELP",
    "UsageError",
]

EXIT_OK = 0
EXIT_TOOL_ERROR = 1
EXIT_USAGE = 2
EXIT_CONNECTION = 3
EXIT_NOT_APPROVED = 4
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141

_USAGE = "  2    usage error (bad option, unknown tool, wrong or missing argument)\n"
_INTERRUPTED = "  130  interrupted (Ctrl-C)\n"
_CUT = "  141  stdout was closed early (e.g. piped into head); the output was cut, nothing else went wrong\n"

EXIT_CODES_HELP = (
    "exit codes:\n"
    "  0    success\n"
    "  1    the tool reported an error (isError)\n"
    + _USAGE
    + "  3    connection, protocol or login error (server unreachable or exited, JSON-RPC error, timeout,\n"
    "       OAuth login refused or cancelled)\n"
    "  4    not run: you denied the call, the tool is not marked read-only and stdin is not a\n"
    "       terminal to ask on (pass --yes), or the --config file's tool_policy denies it\n"
    + _INTERRUPTED
    + _CUT
)
"""The exit codes of ``call`` (``--help``)."""

TOOLS_EXIT_CODES_HELP = (
    "exit codes:\n"
    "  0    success\n"
    "  2    usage error (bad option or SERVER)\n"
    "  3    connection, protocol or login error (server unreachable or exited, JSON-RPC error, timeout,\n"
    "       OAuth login refused or cancelled)\n" + _INTERRUPTED + _CUT
)
"""The exit codes of ``tools``: no tool runs, so no 1."""

SERVERS_EXIT_CODES_HELP = (
    "exit codes:\n"
    "  0    every server connected\n"
    "  2    usage error (no --config, bad option, unknown server name, config file mistake)\n"
    "  3    at least one server did not connect (each is listed with the reason)\n" + _INTERRUPTED + _CUT
)
"""The exit codes of ``servers``."""

LOGIN_EXIT_CODES_HELP = (
    "exit codes:\n"
    "  0    logged in; the tokens are kept\n"
    "  2    usage error (bad option, SERVER not an http(s):// URL, --private-key without --client-id)\n"
    "  3    the login failed: server or authorization server unreachable, login refused or cancelled,\n"
    "       private key file unreadable\n" + _INTERRUPTED
)
"""The exit codes of ``login``."""

LOGOUT_EXIT_CODES_HELP = (
    "exit codes:\n"
    "  0    logged out (the saved login is removed; the message says what was revoked), or no login\n"
    "       to forget\n"
    "  2    usage error (bad option, SERVER not an http(s):// URL)\n"
    "  3    the logout failed (the token file or the authorization server gave an error)\n" + _INTERRUPTED
)
"""The exit codes of ``logout``."""


class UsageError(Exception):
    """The command line cannot be run as given; the message says what to change (exit code 2)."""
