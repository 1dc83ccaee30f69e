"""``mcpServers`` files: the server lists that Claude Desktop, Cursor, VS Code, fastmcp and mcp-use read.

::

    from mcp_client.config import load_config

    config = load_config("mcp.json")          # a path, a JSON text's parsed dict, or an MCPConfig
    for server in config.servers.values():
        print(server.name, server.kind)

Two shapes are read:

* ``{"mcpServers": {name: entry}}`` (Claude Desktop, Cursor, Claude Code's ``.mcp.json``, fastmcp,
  mcp-use);
* ``{"servers": {name: entry}}`` (VS Code's ``mcp.json``; its ``inputs`` list is ignored).

An entry is a **stdio** server (``command``, ``args``, ``env``, ``cwd``) or a **remote** one (``url``,
``headers``, and ``type``: ``"http"`` (streamable HTTP, the default; ``"streamable-http"``,
``"streamableHttp"`` are read as the same) or ``"sse"`` (the older HTTP+SSE transport)). ``type:
"stdio"`` may be written out. Options of ours, per server: ``mode`` (as ``Client(mode=...)``),
``timeout`` (seconds per request), ``include_tools`` / ``exclude_tools`` (lists of tool names or
``fnmatch`` patterns), ``tool_prefix`` (the prefix a ``ClientGroup`` puts before this server's tool
names, instead of ``"{name}_"``), ``rename_tools`` (``{tool: new name}``), ``auth: "oauth"`` (log in
with ``mcp_client.auth.OAuth``; or ``auth: {"client_id", "private_key", "dpop", "scopes"}``, the login
options of ``mcp-client login``, read into ``ServerConfig.auth_options``), ``tool_policy`` (``{"allow":
[...], "deny": [...], "ask": "..."}``, the arguments of ``ToolPolicy``: a ``ClientGroup`` gates this
server's tool calls with it, as with ``ClientGroup(tool_policies={name: ToolPolicy(...)})``) and
``disabled: true`` (skipped).
Unknown keys are kept in ``ServerConfig.extra`` and otherwise ignored, so a file written for another
client still loads. A config given as a dict (not a file) may also name a server object to run in this
process, ``{"server": MCPServer(...)}`` (the official SDK's or fastmcp's), as ``Client(server)`` does.

``${VAR}``, ``${env:VAR}`` (VS Code's spelling) and ``${VAR:-default}`` are replaced from the environment
in ``command``, ``args``, ``env``, ``cwd``, ``url`` and ``headers``; ``$$`` is a literal ``$``. A variable
that is not set (and has no default) is an error, never an empty string sent as a secret.

Every mistake is a ``ConfigError`` naming the file, the server and the field, and saying what fits (a
file that is not UTF-8 JSON: the line and column, ``_group.config_json``); it quotes values as written, never
what a variable expanded to (a secret). A relative ``cwd`` is read relative to the file's folder (the
current folder for a dict), and must exist.

No file is ever picked up by itself: an app (or ``mcp-client --config``) names the file it trusts, since a
cloned repository's ``.mcp.json`` would otherwise start its commands on the user's machine.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from mcp_client._approvals.policy import ASK_RULES, AskRule, ToolPolicy
from mcp_client._connection.shown_url import without_credentials
from mcp_client._errors import MCPClientError
from mcp_client._group.config_json import JsonTextError, parse_json
from mcp_client._protocol.json_names import json_type
from mcp_client._protocol.versions import MODES

__all__ = ["ConfigError", "MCPConfig", "OAuthOptions", "ServerConfig", "load_config"]

ServerKind = Literal["stdio", "http", "sse", "in-process"]

_KINDS: dict[str, ServerKind] = {
    "stdio": "stdio",
    "http": "http",
    "streamable-http": "http",
    "streamable_http": "http",
    "streamablehttp": "http",
    "sse": "sse",
}
_STDIO_KEYS = frozenset({"command", "args", "env", "cwd", "envFile"})
_REMOTE_KEYS = frozenset({"url", "headers"})
_IN_PROCESS_KEYS = frozenset({"server"})
_OUR_KEYS = frozenset(
    {
        "type",
        "transport",
        "mode",
        "timeout",
        "include_tools",
        "exclude_tools",
        "tool_prefix",
        "rename_tools",
        "auth",
        "tool_policy",
        "disabled",
    }
)
_POLICY_KEYS = ("allow", "deny", "ask")
_VARIABLE = re.compile(r"\$\$|\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


class ConfigError(MCPClientError, ValueError):
    """An ``mcpServers`` file or dict that cannot be used; the message names the server and the field."""


@dataclass(frozen=True, slots=True)
class OAuthOptions:
    """How to log in to one server, as ``mcp-client login`` is told with its options.

    Written in a config entry as ``"auth": {"client_id": "...", "private_key": "key.pem", "dpop": true}``
    (every field optional): ``client_id`` is a client registered beforehand, ``private_key`` the PEM file
    it authenticates with (private_key_jwt; a relative path is read from the config file's folder),
    ``dpop`` binds the tokens to a key of this client (RFC 9449), ``scopes`` the scopes to ask for.
    """

    client_id: str | None = None
    private_key: str | None = None
    dpop: bool = False
    scopes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """One server of a config, checked and with its variables expanded.

    ``kind`` is ``"stdio"`` (``command``, ``args``, ``env``, ``cwd`` are set) or ``"http"`` / ``"sse"``
    (``url`` and ``headers`` are set). The options of ours are ``None`` / empty where the file left them
    out; ``extra`` holds every key this module does not read, untouched. ``tool_policy`` is the entry's
    ``"tool_policy"`` read into a ``ToolPolicy`` (what a ``ClientGroup`` gates this server's calls with).
    """

    name: str
    kind: ServerKind
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] | None = None
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict[str, str])
    server: object | None = None
    mode: str | None = None
    timeout: float | None = None
    include_tools: tuple[str, ...] | None = None
    exclude_tools: tuple[str, ...] = ()
    tool_prefix: str | None = None
    rename_tools: Mapping[str, str] = field(default_factory=dict[str, str])
    auth: Literal["oauth"] | None = None
    auth_options: OAuthOptions | None = None
    tool_policy: ToolPolicy | None = None
    extra: Mapping[str, Any] = field(default_factory=dict[str, Any])

    @property
    def target(self) -> str:
        """The URL (without ``user:password@``), or the command line, for messages."""
        if self.url is not None:
            return without_credentials(self.url)
        if self.server is not None:
            return f"in-process {type(self.server).__name__}"
        import shlex

        return shlex.join([self.command or "", *self.args])

    def tool_name(self, tool: str) -> str:
        """The name a ``ClientGroup`` gives this server's ``tool`` (unless the app passes ``tool_name=``):
        ``rename_tools`` first, then ``tool_prefix`` + the name, else ``{server}_{tool}``."""
        renamed = self.rename_tools.get(tool)
        return renamed if renamed is not None else self._tool_prefix + tool

    def offers(self, tool: str) -> bool:
        """Whether ``include_tools`` / ``exclude_tools`` (names or ``fnmatch`` patterns) let ``tool`` in."""
        from fnmatch import fnmatchcase

        if self.include_tools is not None and not any(fnmatchcase(tool, p) for p in self.include_tools):
            return False
        return not any(fnmatchcase(tool, p) for p in self.exclude_tools)

    def tool_named(self, name: str) -> str | None:
        """The server's own name for the tool a group offers as ``name``, when this entry gives that name
        to a tool it lets in (``tool_name`` read backwards); ``None`` otherwise. From the config alone:
        whether the server has such a tool is for the server to say."""
        candidates = [tool for tool, renamed in self.rename_tools.items() if renamed == name]
        prefix = self._tool_prefix
        if name.startswith(prefix) and len(name) > len(prefix):
            candidates.append(name[len(prefix) :])
        return next((t for t in candidates if self.tool_name(t) == name and self.offers(t)), None)

    @property
    def _tool_prefix(self) -> str:
        return self.tool_prefix if self.tool_prefix is not None else f"{self.name}_"


@dataclass(frozen=True, slots=True)
class MCPConfig:
    """A loaded config: its servers by name (in file order, disabled ones left out) and where it came from."""

    servers: Mapping[str, ServerConfig]
    source: str = "<dict>"
    disabled: tuple[str, ...] = ()

    def __getitem__(self, name: str) -> ServerConfig:
        try:
            return self.servers[name]
        except KeyError:
            known = ", ".join(self.servers) or "none"
            raise KeyError(f"no server named {name!r} in {self.source} (servers: {known})") from None


def load_config(
    source: str | os.PathLike[str] | Mapping[str, Any] | MCPConfig,
    *,
    environ: Mapping[str, str] | None = None,
) -> MCPConfig:
    """Read and check a config: a file path, an already parsed dict, or an ``MCPConfig`` (returned as is).

    ``environ`` is where ``${VAR}`` is looked up (default: ``os.environ``). Raises ``ConfigError``.
    """
    if isinstance(source, MCPConfig):
        return source
    env = os.environ if environ is None else environ
    if isinstance(source, Mapping):
        return _parse(source, "<dict>", Path.cwd(), env)
    path = Path(source)
    label = str(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{label}: no such file") from None
    except OSError as exc:
        raise ConfigError(f"{label}: cannot be read ({exc.strerror or exc})") from None
    try:
        data = parse_json(raw)
    except JsonTextError as exc:
        raise ConfigError(f"{label}: {exc}") from None
    if not isinstance(data, Mapping):
        raise ConfigError(f'{label}: expected a JSON object with an "mcpServers" (or "servers") object')
    return _parse(data, label, path.resolve().parent, env)  # type: ignore[arg-type]


def _parse(data: Mapping[str, Any], label: str, folder: Path, environ: Mapping[str, str]) -> MCPConfig:
    if "mcpServers" in data:
        entries = data["mcpServers"]
        where = "mcpServers"
    elif "servers" in data:
        entries = data["servers"]
        where = "servers"
    else:
        raise ConfigError(
            f'{label}: no "mcpServers" object (Claude Desktop, Cursor) or "servers" object (VS Code); '
            f"found keys: {', '.join(sorted(map(str, data))) or 'none'}"
        )
    if not isinstance(entries, Mapping):
        raise ConfigError(f'{label}: "{where}" must be an object of servers by name')
    servers: dict[str, ServerConfig] = {}
    disabled: list[str] = []
    for name, entry in entries.items():  # type: ignore[misc]
        if not isinstance(name, str) or not name:
            raise ConfigError(f"{label}: a server name must be a non-empty string; got {name!r}")
        server = _Entry(label, str(name), folder, environ).parse(entry)
        if server is None:
            disabled.append(name)
        else:
            servers[name] = server
    return MCPConfig(servers=servers, source=label, disabled=tuple(disabled))


class _Entry:
    """Reads one server entry, with errors that name the file, the server and the field."""

    def __init__(self, label: str, name: str, folder: Path, environ: Mapping[str, str]) -> None:
        self.label = label
        self.name = name
        self.folder = folder
        self.environ = environ

    def fail(self, field_name: str | None, problem: str) -> ConfigError:
        where = f"server {self.name!r}" + (f", field {field_name!r}" if field_name else "")
        return ConfigError(f"{self.label}: {where}: {problem}")

    def parse(self, entry: object) -> ServerConfig | None:
        if not isinstance(entry, Mapping):
            raise self.fail(None, f"expected an object, got {json_type(entry)}")
        raw: Mapping[str, Any] = entry  # type: ignore[assignment]
        if raw.get("disabled") is True:
            return None
        kind = self._kind(raw)
        extra = {
            k: v for k, v in raw.items() if k not in _STDIO_KEYS | _REMOTE_KEYS | _IN_PROCESS_KEYS | _OUR_KEYS
        }
        options: dict[str, Any] = {
            "mode": self._mode(raw),
            "timeout": self._timeout(raw),
            "include_tools": self._names(raw, "include_tools"),
            "exclude_tools": self._names(raw, "exclude_tools") or (),
            "tool_prefix": self._optional_string(raw, "tool_prefix"),
            "rename_tools": self._string_map(raw, "rename_tools") or {},
            "auth": self._auth(raw),
            "auth_options": self._auth_options(raw),
            "tool_policy": self._tool_policy(raw),
            "extra": extra,
        }
        if kind == "in-process":
            return ServerConfig(name=self.name, kind="in-process", server=raw["server"], **options)
        if kind == "stdio":
            for key in _REMOTE_KEYS & raw.keys():
                raise self.fail(key, 'belongs to a remote server, but this entry has a "command"')
            return ServerConfig(
                name=self.name,
                kind="stdio",
                command=self._command(raw),
                args=self._args(raw),
                env=self._env(raw),
                cwd=self._cwd(raw),
                **options,
            )
        return ServerConfig(
            name=self.name, kind=kind, url=self._url(raw), headers=self._headers(raw), **options
        )

    def _kind(self, raw: Mapping[str, Any]) -> ServerKind:
        has_command, has_url = "command" in raw, "url" in raw
        if "server" in raw:
            if has_command or has_url:
                raise self.fail("server", 'an in-process server object goes without "command" or "url"')
            return "in-process"
        if has_command and has_url:
            raise self.fail(None, 'has both "command" (a stdio server) and "url" (a remote one); keep one')
        declared = raw.get("type", raw.get("transport"))
        if declared is not None:
            key = "type" if "type" in raw else "transport"
            if not isinstance(declared, str) or declared.lower() not in _KINDS:
                raise self.fail(
                    key, f'unknown type {declared!r}; use "stdio", "http" (streamable HTTP) or "sse"'
                )
            kind = _KINDS[declared.lower()]
            if kind == "stdio" and not has_command:
                raise self.fail("command", 'a stdio server needs a "command"')
            if kind != "stdio" and not has_url:
                raise self.fail("url", f'a {kind} server needs a "url"')
            return kind
        if has_command:
            return "stdio"
        if has_url:
            return "http"
        raise self.fail(None, 'needs a "command" (a stdio server) or a "url" (a remote server)')

    def _string(self, raw: Mapping[str, Any], key: str) -> str:
        value = raw[key]
        if not isinstance(value, str):
            raise self.fail(key, f"expected a string, got {json_type(value)}")
        return self._expand(value, key)

    def _optional_string(self, raw: Mapping[str, Any], key: str) -> str | None:
        if raw.get(key) is None:
            return None
        value = raw[key]
        if not isinstance(value, str):
            raise self.fail(key, f"expected a string, got {json_type(value)}")
        return value

    def _expand(self, value: str, field_name: str) -> str:
        def replace(match: re.Match[str]) -> str:
            if match.group(0) == "$$":
                return "$"
            variable, default = match.group(1), match.group(2)
            found = self.environ.get(variable)
            if found is not None:
                return found
            if default is not None:
                return default
            raise self.fail(
                field_name,
                f"${{{variable}}} is not set in the environment; set it, or write ${{{variable}:-default}}",
            )

        return _VARIABLE.sub(replace, value)

    def _command(self, raw: Mapping[str, Any]) -> str:
        command = self._string(raw, "command")
        if not command.strip():
            raise self.fail("command", "is empty")
        return command

    def _args(self, raw: Mapping[str, Any]) -> tuple[str, ...]:
        value = raw.get("args", [])
        if not isinstance(value, list):
            raise self.fail("args", f"expected a list of strings, got {json_type(value)}")
        args: list[str] = []
        for index, item in enumerate(value):  # type: ignore[arg-type]
            if not isinstance(item, str | int | float) or isinstance(item, bool):
                raise self.fail(f"args[{index}]", f"expected a string, got {json_type(item)}")
            args.append(self._expand(str(item), f"args[{index}]"))
        return tuple(args)

    def _string_map(self, raw: Mapping[str, Any], key: str) -> dict[str, str] | None:
        value = raw.get(key)
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise self.fail(key, f"expected an object of strings, got {json_type(value)}")
        result: dict[str, str] = {}
        for name, item in value.items():  # type: ignore[misc]
            if isinstance(item, bool) or not isinstance(item, str | int | float):
                raise self.fail(f"{key}.{name}", f"expected a string, got {json_type(item)}")
            result[str(name)] = self._expand(str(item), f"{key}.{name}")
        return result

    def _env(self, raw: Mapping[str, Any]) -> dict[str, str] | None:
        return self._string_map(raw, "env")

    def _headers(self, raw: Mapping[str, Any]) -> dict[str, str]:
        return self._string_map(raw, "headers") or {}

    def _cwd(self, raw: Mapping[str, Any]) -> str | None:
        if raw.get("cwd") is None:
            return None
        cwd = Path(self._string(raw, "cwd")).expanduser()
        if not cwd.is_absolute():
            cwd = self.folder / cwd
        if not cwd.is_dir():
            written = raw["cwd"]
            shown = repr(written) if _VARIABLE.search(written) else repr(str(cwd))  # never an expanded value
            raise self.fail("cwd", f"{shown} is not a folder that exists")
        return str(cwd)

    def _url(self, raw: Mapping[str, Any]) -> str:
        url = self._string(raw, "url")
        if not url.startswith(("http://", "https://")):
            # the text as written: the expanded one may hold a secret (an API key in the query)
            written = without_credentials(str(raw["url"]))  # nor a user:password@ written in it
            raise self.fail("url", f"must start with http:// or https://; got {written!r}")
        return url

    def _mode(self, raw: Mapping[str, Any]) -> str | None:
        mode = raw.get("mode")
        if mode is None:
            return None
        if mode not in MODES:
            raise self.fail("mode", f"must be one of {', '.join(repr(m) for m in MODES)}; got {mode!r}")
        return str(mode)

    def _timeout(self, raw: Mapping[str, Any]) -> float | None:
        value = raw.get("timeout")
        if value is None:
            return None
        seconds = math.nan
        if isinstance(value, int | float) and not isinstance(value, bool):
            try:
                seconds = float(value)
            except OverflowError:  # an integer of hundreds of digits
                seconds = math.inf
        if not 0 < seconds < math.inf:  # NaN too
            shown = repr(value)
            shown = shown if len(shown) <= 40 else f"{shown[:20]}...({len(shown)} characters)"
            raise self.fail("timeout", f"expected a number of seconds above 0 (and finite); got {shown}")
        return seconds

    def _names(self, raw: Mapping[str, Any], key: str) -> tuple[str, ...] | None:
        value = raw.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):  # type: ignore[misc]
            raise self.fail(
                key, f'expected a list of tool names (or patterns such as "get_*"); got {value!r}'
            )
        return tuple(value)  # type: ignore[arg-type]

    def _auth(self, raw: Mapping[str, Any]) -> Literal["oauth"] | None:
        value = raw.get("auth")
        if value is None:
            return None
        if value != "oauth" and not isinstance(value, Mapping):
            raise self.fail(
                "auth",
                '"oauth", or an object such as {"client_id": "...", "private_key": "key.pem", "dpop": true}; '
                f"got {value!r}",
            )
        return "oauth"

    def _auth_options(self, raw: Mapping[str, Any]) -> OAuthOptions | None:
        value = raw.get("auth")
        if not isinstance(value, Mapping):
            return None
        options: Mapping[str, Any] = value  # type: ignore[assignment]
        unknown = sorted(set(map(str, options)) - {"client_id", "private_key", "dpop", "scopes"})
        if unknown:
            raise self.fail(
                f"auth.{unknown[0]}", "unknown login option; use client_id, private_key, dpop or scopes"
            )
        client_id = self._auth_string(options, "client_id")
        private_key = self._auth_string(options, "private_key")
        if private_key is not None:
            key = Path(private_key).expanduser()
            private_key = str(key if key.is_absolute() else self.folder / key)
            if client_id is None:
                raise self.fail(
                    "auth.private_key", 'needs "client_id" (the client the key was registered for)'
                )
        dpop = options.get("dpop", False)
        if not isinstance(dpop, bool):
            raise self.fail("auth.dpop", f"expected true or false, got {json_type(dpop)}")
        scopes = options.get("scopes", [])
        if not isinstance(scopes, list) or not all(isinstance(s, str) for s in scopes):  # type: ignore[misc]
            raise self.fail("auth.scopes", "expected a list of strings")
        return OAuthOptions(client_id, private_key, dpop, tuple(scopes))  # type: ignore[arg-type]

    def _auth_string(self, options: Mapping[str, Any], key: str) -> str | None:
        value = options.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"auth.{key}", f"expected a non-empty string, got {json_type(value)}")
        return self._expand(value, f"auth.{key}")

    def _tool_policy(self, raw: Mapping[str, Any]) -> ToolPolicy | None:
        """``"tool_policy": {"allow": [...], "deny": [...], "ask": "..."}``, each key optional, as
        ``ToolPolicy(allow=..., deny=..., ask=...)`` takes them (the same defaults)."""
        value = raw.get("tool_policy")
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise self.fail(
                "tool_policy",
                f'expected an object such as {{"deny": ["drop_*"], "ask": "always"}}; got {json_type(value)}',
            )
        policy: Mapping[str, Any] = value  # type: ignore[assignment]
        unknown = sorted(set(map(str, policy)) - set(_POLICY_KEYS))
        if unknown:
            raise self.fail(f"tool_policy.{unknown[0]}", "unknown key; use allow, deny or ask")
        allow = self._patterns(policy, "allow")
        deny = self._patterns(policy, "deny")
        ask = policy.get("ask", "unless_read_only")
        if ask not in ASK_RULES:
            raise self.fail(
                "tool_policy.ask", f"must be one of {', '.join(map(repr, ASK_RULES))}; got {_short(ask)}"
            )
        rule: AskRule = ask
        return ToolPolicy(allow=allow, deny=deny, ask=rule)

    def _patterns(self, policy: Mapping[str, Any], key: str) -> tuple[str, ...]:
        value = policy.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):  # type: ignore[misc]
            raise self.fail(
                f"tool_policy.{key}",
                "expected a list of tool names or fnmatch patterns (non-empty strings), such as "
                f'["drop_*", "files.wipe_disk"]; got {_short(value)}',
            )
        return tuple(value)  # type: ignore[arg-type]


def _short(value: object) -> str:
    """``value`` as the file wrote it, for a message: its ``repr``, cut at 40 characters."""
    shown = repr(value)
    return shown if len(shown) <= 40 else f"{shown[:20]}...({len(shown)} characters)"
