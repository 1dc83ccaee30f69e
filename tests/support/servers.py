"""Start test-peer servers as real subprocesses on loopback, and always reap them.

Tests never mock a server: they spawn one (the official SDK's MCPServer, or any script that follows
the same CLI convention) and talk to it over HTTP or stdio. Every wait here is bounded, and a
server that fails to come up is reported with its own stderr so the failure explains itself.

CLI convention for HTTP server scripts: `python SCRIPT http --host 127.0.0.1 --port N [extra args]`,
serving streamable HTTP at `/mcp`.
"""

import contextlib
import ipaddress
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from tests.support import temp

SERVERS_DIR = Path(__file__).resolve().parent.parent / "servers"
GUIDE_SERVER = SERVERS_DIR / "guide_server.py"
FEATURES_SERVER = SERVERS_DIR / "features_server.py"
QUESTIONS_SERVER = SERVERS_DIR / "questions_server.py"
FORMS_SERVER = SERVERS_DIR / "forms_server.py"

LOOPBACK = "127.0.0.1"
READY_TIMEOUT = 15.0
STOP_TIMEOUT = 5.0
_SPAWN_ATTEMPTS = 3  # a freshly picked port can be taken by someone else before the server binds it


class ServerStartError(RuntimeError):
    """A test server did not start accepting connections in time (message carries its stderr)."""


def free_loopback_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP) as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def refused_loopback_port() -> Iterator[int]:
    """A port on 127.0.0.1 that refuses every connection for the block ("nothing listens there").

    The port is bound and never listened on, so no other process (another test worker, another run on
    the machine) can start a server on it meanwhile, as it could on a port merely free a moment ago.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP) as sock:
        sock.bind((LOOPBACK, 0))
        yield int(sock.getsockname()[1])


def listening_addresses(pid: int) -> list[tuple[str, int]]:
    """The (address, port) of every TCP socket in LISTEN state that process ``pid`` holds (Linux /proc)."""
    inodes: set[str] = set()
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[len("socket:[") : -1])
    found: list[tuple[str, int]] = []
    for table, decode in (("tcp", _decode_ipv4), ("tcp6", _decode_ipv6)):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
                fields = line.split()
                local, state, inode = fields[1], fields[3], fields[9]
                if state == "0A" and inode in inodes:  # 0A is TCP_LISTEN
                    address, port = local.split(":")
                    found.append((decode(address), int(port, 16)))
    return found


def _decode_ipv4(hex_address: str) -> str:
    return ".".join(str(b) for b in reversed(bytes.fromhex(hex_address)))


def _decode_ipv6(hex_address: str) -> str:
    raw = bytes.fromhex(hex_address)
    # /proc prints the address as four host-order (little-endian) 32-bit words.
    words = b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4))
    return str(ipaddress.IPv6Address(words))


def _accepts_connections(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP) as sock:
        sock.settimeout(0.5)
        try:
            sock.connect((LOOPBACK, port))
        except OSError:
            return False
        return True


def serves_on(proc: subprocess.Popen[bytes], port: int) -> bool:
    """``proc`` itself accepts connections on ``LOOPBACK:port``.

    A port that answers is not enough: between our pick of a free port and the server's bind, another
    process on the machine (another test worker, another run) may have taken it; then our server exits
    with "address already in use" and the port that answers is somebody else's.
    """
    if not _accepts_connections(port):
        return False
    return any((LOOPBACK, port) in listening_addresses(pid) for pid in _self_and_descendants(proc.pid))


def _self_and_descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (a server run through a wrapper listens in a child)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = (entry / "stat").read_text()
                parent = int(stat[stat.rindex(")") + 2 :].split()[1])
                children.setdefault(parent, []).append(int(entry.name))
    found, todo = [pid], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Terminate, then kill if it ignores SIGTERM; always wait so no zombie is left."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=STOP_TIMEOUT)


def _read(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


@contextlib.contextmanager
def run_http_server(
    argv_for_port: Callable[[int], Sequence[str]],
    *,
    path: str = "/mcp",
    ready_timeout: float = READY_TIMEOUT,
    env: dict[str, str] | None = None,
    port: int | None = None,
) -> Iterator[str]:
    """Run `argv_for_port(port)` until the block ends, yielding `http://127.0.0.1:PORT{path}`.

    Generic over the server program: the callable builds the command line for a chosen free port.
    Waits (bounded) until the port accepts TCP connections; if the process exits first or the wait
    times out, raises `ServerStartError` with the process's stderr. On exit the process is
    terminated and waited for, whatever happened inside the block.
    """
    full_env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    fixed_port = port  # a given port (e.g. to restart a server in place); otherwise a free one
    last_error = ""
    for _ in range(_SPAWN_ATTEMPTS):
        port = free_loopback_port() if fixed_port is None else fixed_port
        with tempfile.TemporaryDirectory(prefix=f"{temp.PREFIX}server-") as tmp:
            out_path, err_path = os.path.join(tmp, "stdout"), os.path.join(tmp, "stderr")
            with open(out_path, "wb") as out, open(err_path, "wb") as err:
                proc = subprocess.Popen(
                    list(argv_for_port(port)), stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=full_env
                )
            try:
                deadline = time.monotonic() + ready_timeout
                while proc.poll() is None and time.monotonic() < deadline:
                    if serves_on(proc, port):
                        break
                    time.sleep(0.05)
                else:
                    if proc.poll() is None:  # timed out while still running
                        raise ServerStartError(
                            f"server did not accept connections on port {port} within {ready_timeout}s\n"
                            f"argv: {proc.args}\nstderr:\n{_read(err_path)}"
                        )
                    last_error = f"server exited with status {proc.returncode}\nstderr:\n{_read(err_path)}"
                    if "address already in use" in last_error.lower():
                        continue  # lost the port race: try another port
                    raise ServerStartError(f"argv: {proc.args}\n{last_error}")
                yield f"http://{LOOPBACK}:{port}{path}"
                return
            finally:
                _stop(proc)
    raise ServerStartError(f"gave up after {_SPAWN_ATTEMPTS} attempts\n{last_error}")


# The interpreter that runs the peer servers (the official `mcp` SDK). Normally this one; the CI step that
# runs the client at its lowest declared dependency versions points it at the main venv, because `mcp`
# itself needs newer versions of the same libraries.
PEER_PYTHON = os.environ.get("MCP_CLIENT_TEST_PEER_PYTHON") or sys.executable


def start_http_server(
    *extra_args: str, script: Path | str = GUIDE_SERVER, port: int | None = None
) -> contextlib.AbstractContextManager[str]:
    """Run a server script over streamable HTTP; yields its `/mcp` URL.

    `extra_args` go after the standard `http --host 127.0.0.1 --port N`, e.g. `"--json-response"`,
    `"--stateless"`, `"--resumable"`, `"--page-size", "3"` for the guide server.
    """
    return run_http_server(
        lambda port: [
            PEER_PYTHON,
            str(script),
            "http",
            "--host",
            LOOPBACK,
            "--port",
            str(port),
            *extra_args,
        ],
        port=port,
    )


def stdio_command(script: Path | str, *extra_args: str) -> tuple[str, list[str]]:
    """`(command, args)` that starts a server script on stdio with this interpreter."""
    return PEER_PYTHON, [str(script), "stdio", *extra_args]


def guide_stdio_command(*extra_args: str) -> tuple[str, list[str]]:
    """`(command, args)` for the guide server on stdio, e.g. for `StdioServerParameters(command, args)`."""
    return stdio_command(GUIDE_SERVER, *extra_args)
