"""Turn the SERVER argument into what ``Client`` takes: a URL, or a command to run over stdio.

SERVER is one of:

* an ``http://`` or ``https://`` URL: streamable HTTP;
* the path of a Python file (optionally followed by its arguments): run with this very interpreter
  over stdio, so a server written next to the client needs no activation step;
* a command line, quoted as one argument (``"npx -y some-server --flag"``): run over stdio.

Mistakes are caught here, before anything starts, with a message saying what SERVER may be.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from mcp_client import StdioServerParameters
from ui_adapters.cli._exit import UsageError

__all__ = ["parse_header", "parse_server"]

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_WHAT_SERVER_IS = (
    "SERVER is an http(s):// URL, the path of a Python file, or a quoted command line "
    'such as "python my_server.py --flag"'
)
_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")


def parse_server(spec: str) -> str | StdioServerParameters:
    """The ``Client`` server argument for ``spec``; ``UsageError`` if it cannot be one."""
    text = spec.strip()
    if not text:
        raise UsageError(f"SERVER is empty. {_WHAT_SERVER_IS}.")
    if _SCHEME.match(text):
        return _url(text)
    if _is_python_file(text):  # a whole path, spaces and all
        return _python_file(text, [])
    try:
        words = shlex.split(text, posix=os.name != "nt")
    except ValueError as error:
        raise UsageError(f"cannot split SERVER {spec!r} into a command line: {error}") from None
    if not words:
        raise UsageError(f"SERVER is empty. {_WHAT_SERVER_IS}.")
    command, args = words[0], words[1:]
    if command.endswith(".py") and (_is_python_file(command) or shutil.which(command) is None):
        if not _is_python_file(command):
            raise UsageError(f"no such Python file: {command!r}. {_WHAT_SERVER_IS}.")
        return _python_file(command, args)
    if shutil.which(command) is None:
        raise UsageError(f"command not found: {command!r}. {_WHAT_SERVER_IS}.")
    return StdioServerParameters(command, args)


def parse_header(text: str) -> tuple[str, str]:
    """A ``--header`` value, ``"Name: value"``, as ``(name, value)``; ``UsageError`` if malformed."""
    name, sep, value = text.partition(":")
    name = name.strip()
    if not sep or not _HEADER_NAME.match(name):
        raise UsageError(f'--header expects NAME:VALUE (e.g. "Authorization: Bearer x"), got {text!r}')
    value = value.strip()
    if any(ch in value for ch in "\r\n\0"):
        raise UsageError(f"--header {name}: the value cannot contain line breaks or NUL")
    return name, value


def _url(text: str) -> str:
    parts = urlsplit(text)
    if parts.scheme.lower() not in ("http", "https"):
        raise UsageError(f"unsupported URL scheme {parts.scheme!r} in {text!r}. {_WHAT_SERVER_IS}.")
    if not parts.hostname:
        raise UsageError(f"the URL {text!r} has no host. {_WHAT_SERVER_IS}.")
    return text


def _is_python_file(text: str) -> bool:
    return text.endswith(".py") and Path(text).is_file()


def _python_file(path: str, args: Sequence[str]) -> StdioServerParameters:
    return StdioServerParameters(sys.executable, [str(Path(path).resolve()), *args])
