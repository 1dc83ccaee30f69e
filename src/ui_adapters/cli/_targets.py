"""Which server(s) a command talks to: the SERVER word, ``--server NAME``, ``SERVER.TOOL`` or the tool's
name in the group (what ``tools --config`` lists), or a config.

Without ``--config``, SERVER is a URL, a Python file or a quoted command line (``_servers``). With
``--config FILE`` (an ``mcpServers`` file, read only when named), SERVER is one of the file's names; a
listing command left without one talks to every server of the file at once (a ``ClientGroup``).
The connection options of the command line (TLS, proxy, transport, mode, timeout) apply to every server;
an entry's own ``mode``, ``timeout``, ``headers``, ``type`` and ``auth`` win for that server. An entry's
``tool_policy`` is what ``call`` follows for that server (``_approval.FilePolicy``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from mcp_client import StdioServerParameters
from mcp_client.config import ConfigError, MCPConfig, ServerConfig, load_config
from ui_adapters.cli._approval import FilePolicy
from ui_adapters.cli._commands import Connection, LoginOptions
from ui_adapters.cli._exit import UsageError

__all__ = [
    "Everyone",
    "config_of",
    "connection_for",
    "login_options",
    "only_server",
    "split_target",
    "tls_options",
]


@dataclass(frozen=True)
class Everyone:
    """Every server of a config (a listing command given no SERVER)."""

    config: MCPConfig
    base: Connection


def config_of(args: argparse.Namespace) -> MCPConfig | None:
    """The ``--config`` file, loaded and checked (``UsageError`` naming the file, server and field)."""
    if not args.config:
        return None
    try:
        return load_config(args.config)
    except ConfigError as error:
        raise UsageError(str(error)) from None


def tls_options(args: argparse.Namespace) -> tuple[bool | str, str | None]:
    """``(verify, proxy)`` for ``Client`` from ``--ca-bundle``, ``--insecure`` and ``--proxy``."""
    if args.insecure and args.ca_bundle:
        raise UsageError("--insecure and --ca-bundle contradict each other; give one")
    verify: bool | str = True
    if args.insecure:
        verify = False
        print(
            "mcp-client: warning: --insecure: the server's TLS certificate is not checked; anyone on the "
            "way can read and change this session",
            file=sys.stderr,
        )
    elif args.ca_bundle:
        verify = args.ca_bundle
    return verify, args.proxy


def split_target(
    args: argparse.Namespace, words: Sequence[str], base: Connection, *, what: str, dotted: bool
) -> tuple[Connection | Everyone, list[str]]:
    """The server to talk to and the words left after it.

    ``dotted``: with a config, the first word may be ``SERVER.NAME`` (``call``, ``get-prompt``).
    ``what`` names the word after SERVER in messages (``TOOL``, ``URI``...).
    """
    config = config_of(args)
    rest = list(words)
    if config is None:
        spec = args.server_option
        if spec is None:
            if not rest:
                usage = f"SERVER {what}".strip()
                raise UsageError(f"name the server: {usage}, or --config FILE with the server's name there")
            spec = rest.pop(0)
        from ui_adapters.cli._servers import parse_server

        return _with(base, server=parse_server(spec)), rest
    name: str | None = args.server_option
    only = next(iter(config.servers)) if len(config.servers) == 1 else None
    if name is None and not what:  # a listing: SERVER, or every server
        if not rest:
            return Everyone(config, base), rest
        name = rest.pop(0)
    elif name is None and dotted and rest:
        name, rest[0] = _split_dotted(config, rest[0], what, only)
    elif name is None and len(rest) > 1:
        name = rest.pop(0)
    elif name is None:
        name = only
    if name is None:
        raise UsageError(
            f"name one server of {config.source}: --server NAME {what} "
            f"(servers: {', '.join(config.servers) or 'none'})"
        )
    return connection_for(config, name, base), rest


def login_options(args: argparse.Namespace) -> tuple[str, LoginOptions]:
    """``login``'s URL and options: the command line's, filled in from the config entry's ``"auth"``."""
    given = LoginOptions(args.client_id, args.private_key, args.dpop, tuple(args.scope))
    config = config_of(args)
    if config is None:
        return args.server, given
    try:
        entry = config[args.server]
    except KeyError as error:
        raise UsageError(str(error.args[0])) from None
    if entry.url is None:
        raise UsageError(f"server {entry.name!r} of {config.source} has no URL: only http(s) servers log in")
    saved = entry.auth_options
    if saved is None:
        return entry.url, given
    return entry.url, LoginOptions(
        given.client_id or saved.client_id,
        given.private_key or saved.private_key,
        given.dpop or saved.dpop,
        given.scopes or saved.scopes,
    )


def only_server(config: MCPConfig, name: str, *, headers: Mapping[str, str] | None = None) -> MCPConfig:
    """``config`` cut down to server ``name`` (``UsageError`` naming the servers if there is none), with
    the command line's ``headers`` added to its own (an http(s) server only)."""
    try:
        entry = config[name]
    except KeyError as error:
        raise UsageError(str(error.args[0])) from None
    if headers:
        if entry.url is None:
            raise UsageError("--header only applies to http(s):// servers; this SERVER runs over stdio")
        entry = replace(entry, headers={**entry.headers, **headers})
    return MCPConfig({name: entry}, config.source)


def connection_for(config: MCPConfig, name: str, base: Connection) -> Connection:
    """A ``Connection`` to server ``name`` of ``config``, with the command line's options as defaults."""
    try:
        entry = config[name]
    except KeyError as error:
        raise UsageError(str(error.args[0])) from None
    return _from_entry(entry, base, config.source)


def _from_entry(entry: ServerConfig, base: Connection, source: str) -> Connection:
    if entry.kind == "in-process":
        raise UsageError(f"server {entry.name!r} runs in-process; the command line cannot start it")
    if entry.kind == "stdio":
        assert entry.command is not None
        server: str | StdioServerParameters = StdioServerParameters(
            entry.command, list(entry.args), dict(entry.env) if entry.env is not None else None, entry.cwd
        )
        transport = base.transport
    else:
        assert entry.url is not None
        server = entry.url
        transport = "sse" if entry.kind == "sse" else base.transport
    login = None
    if entry.auth_options is not None:
        options = entry.auth_options
        login = LoginOptions(options.client_id, options.private_key, options.dpop, options.scopes)
    return _with(
        base,
        server=server,
        headers={**entry.headers, **base.headers},
        mode=entry.mode or base.mode,
        timeout=entry.timeout if entry.timeout is not None else base.timeout,
        transport=transport,
        login=login,
        name=entry.name,
        file_policy=FilePolicy(entry.tool_policy, entry, source) if entry.tool_policy is not None else None,
    )


def _split_dotted(config: MCPConfig, word: str, what: str, only: str | None) -> tuple[str, str]:
    """``SERVER.NAME`` → ``(SERVER, NAME)``, the longest server name of the config that fits; for a tool,
    also the name ``tools --config`` shows (the group's: ``{server}_{tool}``, a ``tool_prefix`` or a
    ``rename_tools`` entry), which only one server of the file may give.

    A config of one server needs no ``SERVER.``: a word that names none is that server's.
    """
    for name in sorted(config.servers, key=len, reverse=True):
        if word.startswith(name + ".") and len(word) > len(name) + 1:
            return name, word[len(name) + 1 :]
    if what == "TOOL":
        found = [(entry.name, tool) for entry in config.servers.values() if (tool := entry.tool_named(word))]
        if len(found) > 1:
            both = " and ".join(f"{server}.{tool}" for server, tool in found)
            raise UsageError(
                f"{word!r} is the name of two tools in {config.source} ({both}): write one of those"
            )
        if found:
            return found[0]
    if only is not None:
        return only, word
    servers = ", ".join(config.servers) or "none"
    shown = f"the name `tools --config` shows, SERVER.{what}" if what == "TOOL" else f"SERVER.{what}"
    raise UsageError(
        f"{word!r} names no server of {config.source}: write {shown} or --server NAME {what} "
        f"(servers: {servers})"
    )


def _with(base: Connection, **changes: object) -> Connection:
    return replace(base, **changes)  # type: ignore[arg-type]
