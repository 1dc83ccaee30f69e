"""Where tokens and client registrations live between requests, and between runs.

``TokenStorage`` is the small protocol the OAuth flow talks to; records are keyed by the MCP server's
URL (the tokens) and by server and authorization-server issuer (the registrations: credentials are
bound to the issuer that minted them, so a server that moves to another authorization server gets a
fresh registration there). ``InMemoryTokenStorage`` forgets everything at exit; ``FileTokenStorage``
keeps one JSON file, readable by its owner only (0600 in a 0700 folder), written atomically.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import stat
import sys
import tempfile
import time
from collections.abc import AsyncGenerator, Callable, Generator
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable

import anyio
import anyio.to_thread

from mcp_client.auth._records import ClientRegistration, StoredTokens

__all__ = ["FileTokenStorage", "InMemoryTokenStorage", "TokenStorage", "default_storage_path"]

logger = logging.getLogger("mcp_client.auth")

_FILE_NAME = "tokens.json"
_FORMAT_VERSION = 1
_MAX_FILE_BYTES = 8 * 1024 * 1024
_REFRESH_LOCK_WAIT = 60.0  # seconds: longer than one bounded refresh request; then go on without it
_REFRESH_LOCK_POLL = 0.05

_Record = TypeVar("_Record", StoredTokens, ClientRegistration)


@runtime_checkable
class TokenStorage(Protocol):
    """Keeps tokens per server and client registrations per (server, issuer).

    ``server`` is the MCP endpoint URL as the client uses it; ``issuer`` the authorization server's
    issuer identifier. Implementations must be safe to call from concurrent tasks; ``clear`` forgets
    everything about one server (``mcp-client logout``).
    """

    async def get_tokens(self, server: str) -> StoredTokens | None: ...

    async def set_tokens(self, server: str, tokens: StoredTokens) -> None: ...

    async def get_client(self, server: str, issuer: str) -> ClientRegistration | None: ...

    async def set_client(self, server: str, issuer: str, client: ClientRegistration) -> None: ...

    async def clear(self, server: str) -> None: ...


@runtime_checkable
class SharedTokenStorage(Protocol):
    """A storage other processes share (``FileTokenStorage``): refreshes are taken in turn.

    ``refresh_lock(server)`` is held across reading the saved tokens, refreshing them and saving the
    result, so that of several processes whose tokens expired together one refreshes and the others
    use its tokens (a rotated-out refresh token presented again makes many authorization servers
    revoke the whole login).
    """

    def refresh_lock(self, server: str) -> contextlib.AbstractAsyncContextManager[None]: ...


class InMemoryTokenStorage:
    """Tokens and registrations for the life of the process (the default)."""

    def __init__(self) -> None:
        self._tokens: dict[str, StoredTokens] = {}
        self._clients: dict[tuple[str, str], ClientRegistration] = {}

    def __repr__(self) -> str:
        return f"InMemoryTokenStorage(servers={sorted(self._tokens)!r})"

    async def get_tokens(self, server: str) -> StoredTokens | None:
        return self._tokens.get(server)

    async def set_tokens(self, server: str, tokens: StoredTokens) -> None:
        self._tokens[server] = tokens

    async def get_client(self, server: str, issuer: str) -> ClientRegistration | None:
        return self._clients.get((server, issuer))

    async def set_client(self, server: str, issuer: str, client: ClientRegistration) -> None:
        self._clients[(server, issuer)] = client

    async def clear(self, server: str) -> None:
        self._tokens.pop(server, None)
        for key in [key for key in self._clients if key[0] == server]:
            del self._clients[key]


def default_storage_path() -> Path:
    """``tokens.json`` in the user's data folder for ``mcp-client``.

    Linux and other Unixes: ``$XDG_DATA_HOME/mcp-client`` (default ``~/.local/share/mcp-client``;
    a relative ``XDG_DATA_HOME`` is ignored, as the XDG spec says: it would put tokens wherever the
    program happens to run); macOS: ``~/Library/Application Support/mcp-client``; Windows:
    ``%LOCALAPPDATA%\\mcp-client``.
    """
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = str(Path.home() / "Library" / "Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME", "")
        if not os.path.isabs(base):
            base = str(Path.home() / ".local" / "share")
    return Path(base) / "mcp-client" / _FILE_NAME


class FileTokenStorage:
    """Tokens and registrations in one JSON file that survives restarts.

    ``path`` is the file (or a folder to hold ``tokens.json``); default ``default_storage_path()``.
    The file is created with mode 0600, the folder (when this class creates it) with 0700; a file
    found readable by others is tightened to 0600. Each write replaces the file atomically under a
    lock (POSIX), so two processes logging in at once do not lose each other's records. A file that
    cannot be read as ours is treated as empty (with a warning) and replaced on the next write.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        chosen = Path(path).expanduser() if path is not None else default_storage_path()
        if chosen.is_dir():
            chosen = chosen / _FILE_NAME
        self.path = chosen

    def __repr__(self) -> str:
        return f"FileTokenStorage({str(self.path)!r})"

    async def get_tokens(self, server: str) -> StoredTokens | None:
        entry = (await self._read()).get(server, {})
        return _load(StoredTokens, entry.get("tokens"), self.path)

    async def set_tokens(self, server: str, tokens: StoredTokens) -> None:
        def change(servers: dict[str, Any]) -> None:
            servers.setdefault(server, {})["tokens"] = tokens.to_dict()

        await self._update(change)

    async def get_client(self, server: str, issuer: str) -> ClientRegistration | None:
        clients = (await self._read()).get(server, {}).get("clients")
        if not isinstance(clients, dict):
            return None
        return _load(ClientRegistration, clients.get(issuer), self.path)

    async def set_client(self, server: str, issuer: str, client: ClientRegistration) -> None:
        def change(servers: dict[str, Any]) -> None:
            entry = servers.setdefault(server, {})
            clients = entry.get("clients")
            if not isinstance(clients, dict):
                clients = entry["clients"] = {}
            clients[issuer] = client.to_dict()

        await self._update(change)

    async def clear(self, server: str) -> None:
        """Forget ``server``; a file that holds nothing for it is left as it is (or not created)."""
        if not self.path.exists():
            return

        def change(servers: dict[str, Any]) -> bool:
            return servers.pop(server, None) is not None

        await self._update(change)

    @contextlib.asynccontextmanager
    async def refresh_lock(self, server: str) -> AsyncGenerator[None]:
        """Hold the file's refresh lock (one refresh at a time among processes sharing the file).

        Waits (without blocking the event loop) at most a minute: a process that holds it longer is
        stuck, and refreshing anyway is better than never. POSIX only; elsewhere this does nothing.
        """
        del server  # one lock for the whole file: simple, and refreshes are rare
        try:
            import fcntl
        except ImportError:  # Windows
            yield
            return
        self._ensure_folder()
        lock_path = self.path.with_name(self.path.name + ".refresh.lock")
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            deadline = time.monotonic() + _REFRESH_LOCK_WAIT
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        logger.warning(
                            "another process has held %s for a minute; refreshing anyway", lock_path
                        )
                        break
                    await anyio.sleep(_REFRESH_LOCK_POLL)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    async def servers(self) -> list[str]:
        """The servers this file holds anything for (``mcp-client logout`` lists them)."""
        return sorted(await self._read())

    # ------------------------------------------------------------------------------------ file access

    async def _read(self) -> dict[str, Any]:
        return await anyio.to_thread.run_sync(self._read_sync)

    async def _update(self, change: Callable[[dict[str, Any]], bool | None]) -> None:
        await anyio.to_thread.run_sync(self._update_sync, change)

    def _read_sync(self) -> dict[str, Any]:
        with self._locked(exclusive=False):
            return self._load_file()

    def _update_sync(self, change: Callable[[dict[str, Any]], bool | None]) -> None:
        """Apply ``change`` under the lock; it may return False to say it changed nothing (no write)."""
        with self._locked(exclusive=True):
            servers = self._load_file()
            if change(servers) is False:
                return
            self._write_file(servers)

    def _load_file(self) -> dict[str, Any]:
        try:
            with open(self.path, "rb") as file:
                self._tighten(file.fileno())
                raw = file.read(_MAX_FILE_BYTES + 1)
        except FileNotFoundError:
            return {}
        except OSError as exc:
            logger.warning(
                "could not read the token file %s (%s); starting without stored logins", self.path, exc
            )
            return {}
        try:
            if len(raw) > _MAX_FILE_BYTES:
                raise ValueError("too large")
            document = json.loads(raw)
            if not isinstance(document, dict) or document.get("version") != _FORMAT_VERSION:
                raise ValueError("not a token file of this version")
            servers = document.get("servers")
            if not isinstance(servers, dict):
                raise ValueError("no servers")
        except (ValueError, RecursionError):
            logger.warning("the token file %s is not readable as ours; it will be replaced", self.path)
            return {}
        return {
            key: value for key, value in servers.items() if isinstance(key, str) and isinstance(value, dict)
        }

    def _write_file(self, servers: dict[str, Any]) -> None:
        self._ensure_folder()
        data = json.dumps({"version": _FORMAT_VERSION, "servers": servers}, indent=2, sort_keys=True)
        fd, tmp = tempfile.mkstemp(prefix=".tokens-", suffix=".tmp", dir=self.path.parent)
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def _ensure_folder(self) -> None:
        folder = self.path.parent
        if not folder.exists():
            folder.mkdir(parents=True, mode=0o700, exist_ok=True)
            with contextlib.suppress(OSError):
                os.chmod(folder, 0o700)

    @staticmethod
    def _tighten(fd: int) -> None:
        if not hasattr(os, "fchmod"):
            return
        with contextlib.suppress(OSError):
            mode = os.fstat(fd).st_mode
            if mode & (stat.S_IRWXG | stat.S_IRWXO):
                os.fchmod(fd, 0o600)

    @contextlib.contextmanager
    def _locked(self, *, exclusive: bool) -> Generator[None]:
        try:
            import fcntl
        except ImportError:  # Windows: atomic replace only
            yield
            return
        if not exclusive and not self.path.exists():
            yield
            return
        self._ensure_folder()
        lock_path = self.path.with_name(self.path.name + ".lock")
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
            yield
        finally:
            os.close(fd)  # closing releases the lock


def _load(kind: type[_Record], data: object, path: Path) -> _Record | None:
    if not isinstance(data, dict):
        return None
    try:
        return kind.from_dict(data)
    except ValueError as exc:
        logger.warning("ignoring an unreadable %s record in %s: %s", kind.__name__, path, exc)
        return None
