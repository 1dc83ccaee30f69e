"""The exit codes of ``mcp-client`` and the error that means "the command line is wrong".

Scripts branch on these codes, so they are part of the CLI's contract (documented in ``--help``):

* 0: success.
* 1: the tool ran and reported an error (``isError``).
* 2: usage error: bad options, an unknown tool, an argument of the wrong type, a missing argument.
* 3: the server could not be reached or started, broke the protocol, answered with a JSON-RPC
  error, or did not answer in time.
* 130: interrupted (Ctrl-C).
"""

from __future__ import annotations

__all__ = [
    "EXIT_CODES_HELP",
    "EXIT_CONNECTION",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_TOOL_ERROR",
    "EXIT_USAGE",
    "UsageError",
]

EXIT_OK = 0
EXIT_TOOL_ERROR = 1
EXIT_USAGE = 2
EXIT_CONNECTION = 3
EXIT_INTERRUPTED = 130

EXIT_CODES_HELP = """\
exit codes:
  0    success
  1    the tool reported an error (isError)
  2    usage error (bad option, unknown tool, wrong or missing argument)
  3    connection, protocol or login error (server unreachable or exited, JSON-RPC error, timeout,
       OAuth login refused or cancelled)
  130  interrupted (Ctrl-C)
"""


class UsageError(Exception):
    """The command line cannot be run as given; the message says what to change (exit code 2)."""
