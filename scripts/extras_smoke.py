"""Each optional extra alone, from the built wheel: a fresh venv with the package and that one extra.

The full test venv has every optional library, so it cannot notice an extra that forgot one (the docs
build that needed pytest, the suite that needed Sphinx to collect). Here each extra of ``EXTRAS`` gets
its own venv in ``.venv-extras/NAME`` (made anew each run: nothing left from an earlier install), with
the package and that extra and nothing else, then its smoke runs in that venv's Python and must do the
real thing the extra is for: build the docs strictly, collect the test suite, store a record in a real
Redis, sign a ``private_key_jwt`` assertion, parse a SKILL.md frontmatter, carry a span's trace context.

What is installed is what a user gets: the sdist and the wheel are built first (``python -m build``:
the wheel from the sdist, so a file the sdist forgot is missing from the wheel too) and checked with
``twine check --strict``, and each extra is installed from that wheel, not from the checkout, and its
smoke runs in a folder outside the checkout (it first checks that ``mcp_client`` and ``ui_adapters``
come from the venv's site-packages). The ``examples`` row is the installed package itself: ``py.typed``
in both packages, ``mcp-client --help`` and ``mcp-client demo``, the canned-callback example against the
bistro, and the browser form page served from the installed package. Only ``docs`` and ``test`` are
installed with ``-e`` from the checkout: their smokes are the checkout's docs build and test suite.

To check a new extra, write its smoke below (a function that imports the extra's library and uses it
through our code; raise or fail an ``assert`` when something is wrong) and add a row to ``EXTRAS``.

Fast on purpose: the venvs are made without pip (the running pip installs into them with ``--python``),
pip's cache is reused, no bytecode is compiled ahead, and the venvs are made two at a time.

Usage: .venv/bin/python scripts/extras_smoke.py [NAME ...]   (default: every extra of the table)
       ``scripts/test`` runs it; ``--inside NAME`` is how it runs a smoke in a venv (not for you).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENVS = ROOT / ".venv-extras"
DIST = VENVS / "dist"
SMOKE_TIMEOUT = 900.0  # seconds, for one install or one smoke on a busy machine
FROM_CHECKOUT = frozenset({"docs", "test"})  # extras whose smoke is the checkout's own docs or tests


# ------------------------------------------------------------------------------------------ the smokes
# Each runs inside the venv of its extra (``sys.executable`` is that venv's Python), cwd = the repository.


def docs_build() -> None:
    """``bash scripts/docs`` (the strict build) with this venv: the docs extra is all it needs."""
    with tempfile.TemporaryDirectory(prefix="mcp-client-extras-docs-") as out:
        env = {**os.environ, "VENV": sys.prefix, "DOCS_BUILD": out}
        _run(["bash", "scripts/docs"], env=env)
        assert (Path(out) / "docs" / "index.html").exists(), "the docs build wrote no index.html"


def test_collection() -> None:
    """The whole suite collects with the test extra alone, and a test that needs Sphinx skips, saying why."""
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    _run([*pytest, "--collect-only"])
    shown = _run([*pytest, "-rs", "tests/test_docs_reference.py"])
    assert "needs the docs extra" in shown, f"the docs reference test did not skip for Sphinx:\n{shown}"


def redis_store() -> None:
    """A ``RedisStore`` keeps and gives back a record in a real redis-server on loopback."""
    import anyio

    from ui_adapters import RedisStore

    binary = shutil.which("redis-server")
    if binary is None:
        problem = "redis-server is not installed (Debian: apt-get install redis-server)"
        if os.environ.get("CI"):
            raise AssertionError(f"the redis extra's smoke must run in CI: {problem}")
        import redis.asyncio  # noqa: F401  # at least the library the store imports on first use

        print(f"redis: only imported, {problem}")
        return

    async def keep_a_record(url: str) -> None:
        store = RedisStore(url, namespace="extras-smoke")
        await store.open()
        try:
            await store.put_record("smoke", "one", {"answer": 42})
            assert await store.get_record("smoke", "one") == {"answer": 42}
        finally:
            await store.close()

    with _redis_server(binary) as url:
        anyio.run(keep_a_record, url)


def private_key_jwt_assertion() -> None:
    """A ``private_key_jwt`` client assertion signed with an EC key verifies with its public key."""
    import anyio
    import jwt
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    from mcp_client.auth._jwt_assertion import ClientAssertion

    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    assertion = anyio.run(ClientAssertion(pem).make, "smoke-client", "https://as.example")
    claims = jwt.decode(assertion, key.public_key(), algorithms=["ES256"], audience="https://as.example")
    assert (claims["iss"], claims["sub"]) == ("smoke-client", "smoke-client"), claims


def skill_frontmatter() -> None:
    """A SKILL.md's YAML frontmatter is parsed (PyYAML's safe_load), a date given as its ISO text."""
    from mcp_client._skills.integrity import parse_frontmatter

    text = "---\nname: pdf\ndescription: Fill PDF forms\nreviewed: 2026-01-31\n---\n# PDF\n"
    parsed = parse_frontmatter("skill://pdf/SKILL.md", text)
    assert parsed == {"name": "pdf", "description": "Fill PDF forms", "reviewed": "2026-01-31"}, parsed


def client_span() -> None:
    """A request's span puts the trace context of the app's current span into the request's ``_meta``."""
    from opentelemetry import trace
    from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags

    from mcp_client._connection.telemetry import request_span

    parent = SpanContext(trace_id=0x1234, span_id=0x5678, is_remote=False, trace_flags=TraceFlags(1))
    params: dict[str, object] = {"name": "get_weather"}
    with trace.use_span(NonRecordingSpan(parent)), request_span("tools/call", params, request_id=1):
        pass
    meta = params.get("_meta")
    assert isinstance(meta, dict) and f"{0x1234:032x}" in str(meta.get("traceparent")), params


def _exported_tool() -> object:
    """A tool as the bridge exports it: an optional field, a nested object, a ``$ref`` to inline."""
    from mcp_client.llm import ExportedTool
    from mcp_client.types import Tool

    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "where"},
            "when": {"$ref": "#/$defs/slot"},
        },
        "required": ["city"],
        "$defs": {"slot": {"type": "object", "properties": {"day": {"type": "string", "format": "date"}}}},
    }
    return ExportedTool(
        "bistro__book_table", Tool(name="book_table", input_schema=schema, description="Book")
    )


def openai_formats() -> None:
    """The exported tool passes the openai SDK's own types (Chat Completions and Responses)."""
    from openai.types.chat import ChatCompletionToolParam
    from openai.types.responses import FunctionToolParam
    from pydantic import TypeAdapter

    from mcp_client.llm import _openai

    tool = _exported_tool()
    TypeAdapter(ChatCompletionToolParam).validate_python(_openai.chat_tool(tool))  # type: ignore[arg-type]
    TypeAdapter(FunctionToolParam).validate_python(_openai.responses_tool(tool))  # type: ignore[arg-type]


def anthropic_format() -> None:
    """The exported tool passes the anthropic SDK's ``ToolParam``."""
    from anthropic.types import ToolParam
    from pydantic import TypeAdapter

    from mcp_client.llm import _anthropic

    TypeAdapter(ToolParam).validate_python(_anthropic.tool(_exported_tool()))  # type: ignore[arg-type]


def gemini_format() -> None:
    """The exported tool is a google-genai ``FunctionDeclaration`` (its unsupported keywords removed)."""
    from google.genai import types

    from mcp_client.llm import _gemini

    declaration = types.FunctionDeclaration.model_validate(_gemini.declaration(_exported_tool()))  # type: ignore[arg-type]
    assert declaration.name == "bistro__book_table", declaration


def pydantic_ai_toolset() -> None:
    """``MCPToolset`` is a PydanticAI toolset an ``Agent`` takes (no model is called)."""
    from pydantic_ai import Agent
    from pydantic_ai.toolsets import AbstractToolset

    from mcp_client import Client
    from mcp_client.frameworks.pydantic_ai import MCPToolset

    toolset = MCPToolset(Client("http://127.0.0.1:9/mcp"))
    assert isinstance(toolset, AbstractToolset)
    Agent("test", toolsets=[toolset])


def langchain_tool() -> None:
    """The exported tool is a LangChain ``StructuredTool`` with its arguments' schema."""
    from langchain_core.tools import StructuredTool

    from mcp_client import Client
    from mcp_client.frameworks import langchain
    from mcp_client.llm import ToolBridge

    tool = langchain._tool(ToolBridge(Client("http://127.0.0.1:9/mcp")), _exported_tool())  # type: ignore[arg-type]
    assert isinstance(tool, StructuredTool) and "city" in tool.args, tool.args


def openai_agents_tool() -> None:
    """The exported tool is an OpenAI Agents SDK ``FunctionTool`` (strict where the schema allows)."""
    from agents import FunctionTool

    from mcp_client import Client
    from mcp_client.frameworks import openai_agents
    from mcp_client.llm import ToolBridge

    bridge = ToolBridge(Client("http://127.0.0.1:9/mcp"))
    tool = openai_agents._tool(bridge, _exported_tool(), None)  # type: ignore[arg-type]
    assert isinstance(tool, FunctionTool) and "city" in tool.params_json_schema["properties"], tool


def chat_dates_in_words() -> None:
    """A ``ChatForm`` reads "tomorrow" as a date (dateparser) and sends it as ISO after the review."""
    from datetime import UTC, datetime

    from mcp_client.types import ElicitRequestFormParams, ElicitResult
    from ui_adapters.chat import ChatForm

    schema = {
        "type": "object",
        "properties": {"day": {"type": "string", "format": "date"}},
        "required": ["day"],
    }
    params = ElicitRequestFormParams(message="Which day?", requested_schema=schema)
    form = ChatForm(params, now=lambda: datetime(2026, 12, 23, 12, 0, tzinfo=UTC))
    form.next_message()
    review = form.reply("tomorrow")
    assert review.step == "review", review
    form.reply("send")
    assert form.result() == ElicitResult(action="accept", content={"day": "2026-12-24"}), form.result()


def textual_screen() -> None:
    """An ``ElicitationScreen`` pushed in a headless Textual app (``run_test``), answered with keys."""
    import anyio
    from textual.app import App

    from mcp_client.types import ElicitRequestFormParams, ElicitResult
    from ui_adapters.textual import ElicitationScreen

    schema = {"type": "object", "properties": {"guests": {"type": "integer"}}, "required": ["guests"]}
    results: list[ElicitResult | None] = []

    class Host(App[None]):
        def on_mount(self) -> None:
            question = ElicitationScreen(
                ElicitRequestFormParams(message="How many?", requested_schema=schema)
            )
            self.push_screen(question, callback=results.append)

    async def answer() -> None:
        app = Host()
        async with app.run_test() as pilot:
            await pilot.press("4", "ctrl+s")
            await pilot.pause()

    anyio.run(answer)
    assert results == [ElicitResult(action="accept", content={"guests": 4})], results


def apps_web_host() -> None:
    """``ui_adapters.apps.asgi_app`` under Starlette alone: routed by ``Host``, refusing other names."""
    import anyio
    import httpx2

    from mcp_client import Client
    from ui_adapters.apps import asgi_app

    async def run() -> None:
        host = asgi_app(
            Client("http://127.0.0.1:9/mcp"),  # never connected: no view is shown
            host_origin="http://127.0.0.1:8000",
            sandbox_origin="http://localhost:8000",
        )
        transport = httpx2.ASGITransport(app=host)  # pyright: ignore[reportArgumentType]
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as http:
            assert (await http.get("/x")).status_code == 503  # not entered yet: says how to start it
            async with host:
                assert (await http.get("/no-such-view")).status_code == 404
                rebound = await http.get("/no-such-view", headers={"Host": "evil.example"})
                assert rebound.status_code == 421, rebound.status_code

    anyio.run(run)


def installed_package() -> None:
    """The wheel as a user runs it: typed packages, the CLI, the demo, an example, the browser page."""
    import importlib.resources

    import mcp_client

    for package in ("mcp_client", "ui_adapters"):
        assert importlib.resources.files(package).joinpath("py.typed").is_file(), f"{package}: no py.typed"
    command = str(Path(sys.executable).with_name("mcp-client"))
    shown = _run([command, "--help"], cwd=Path.cwd())
    assert shown.startswith("usage: mcp-client"), shown
    shown = _run([command, "--version"], cwd=Path.cwd())
    assert shown.strip() == f"mcp-client {mcp_client.__version__}", shown
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200", "NO_COLOR": "1"}
    shown = _run([command, "demo"], cwd=Path.cwd(), env=env, stdin="y\n2025-12-27\n\ny\n\n")
    for expected in ("[SUCCESS] Booked for 2025-12-27", "deleted ~/projects/old-drafts"):
        assert expected in shown, f"mcp-client demo did not print {expected!r}:\n{shown}"
    example = ROOT / "examples" / "clients" / "canned_callback.py"  # examples are not in the wheel
    shown = _run([sys.executable, str(example)], cwd=Path.cwd())
    assert shown == (
        "bistro asks: No tables for 2 on 2025-12-25. Would you like another date?\n"
        "[SUCCESS] Booked for 2025-12-27\n"
    ), shown
    browser_page()


def browser_page() -> None:
    """A form question's page, served by ``BrowserFormAdapter``, fetched and answered over HTTP."""
    import re

    import anyio
    import httpx2

    from mcp_client import ClientRequestContext
    from mcp_client.types import ElicitRequestFormParams, ElicitResult
    from ui_adapters import BrowserFormAdapter

    schema = {"type": "object", "properties": {"name": {"type": "string", "title": "Name"}}}
    context = ClientRequestContext(
        server="http://127.0.0.1:9/mcp", server_info=None, protocol_version="2025-11-25", era="legacy"
    )
    urls: list[str] = []
    opened = anyio.Event()

    def open_browser(url: str) -> None:
        urls.append(url)
        opened.set()

    async def ask_and_answer() -> ElicitResult:
        adapter = BrowserFormAdapter(open_browser=open_browser, timeout=60)
        params = ElicitRequestFormParams(message="Who is coming?", requested_schema=schema)
        results: list[ElicitResult] = []

        async def ask() -> None:
            results.append(await adapter(context, params))

        async with anyio.create_task_group() as tg, httpx2.AsyncClient(timeout=30) as http:
            tg.start_soon(ask)
            with anyio.fail_after(60):
                await opened.wait()
            page = await http.get(urls[0])
            assert page.status_code == 200, page
            assert "content-security-policy" in page.headers, page.headers
            for piece in ("<style nonce=", "<script nonce=", "Who is coming?", 'name="field-0"'):
                assert piece in page.text, f"the question page lacks {piece!r}:\n{page.text[:3000]}"
            csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
            assert csrf is not None, page.text[:3000]
            origin = urls[0].split("/", 3)
            sent = await http.post(
                urls[0],
                data={"csrf": csrf.group(1), "action": "accept", "field-0": "Ada"},
                headers={"Origin": f"{origin[0]}//{origin[2]}"},
            )
            assert sent.status_code == 200, sent
        return results[0]

    result = anyio.run(ask_and_answer)
    assert result == ElicitResult(action="accept", content={"name": "Ada"}), result


def _from_site_packages() -> None:
    """The packages this smoke uses are the installed wheel's, not the checkout's ``src``."""
    import sysconfig

    import mcp_client
    import ui_adapters

    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    assert not Path.cwd().resolve().is_relative_to(ROOT), f"the smoke runs inside the checkout: {Path.cwd()}"
    for package in (mcp_client, ui_adapters):
        where = Path(package.__file__ or "").resolve()
        assert where.is_relative_to(site), f"{package.__name__} comes from {where}, not from {site}"


EXTRAS: dict[str, Callable[[], None]] = {
    # extra (as pyproject.toml names it): its smoke
    "docs": docs_build,
    "test": test_collection,
    "redis": redis_store,
    "oauth-jwt": private_key_jwt_assertion,
    "skills": skill_frontmatter,
    "otel": client_span,
    "chat": chat_dates_in_words,
    "textual": textual_screen,
    "apps-web": apps_web_host,
    "openai": openai_formats,
    "anthropic": anthropic_format,
    "gemini": gemini_format,
    "pydantic-ai": pydantic_ai_toolset,
    "langchain": langchain_tool,
    "openai-agents": openai_agents_tool,
    "examples": installed_package,
}


# ------------------------------------------------------------------------------------------ helpers


def _run(
    argv: list[str], *, env: dict[str, str] | None = None, cwd: Path = ROOT, stdin: str | None = None
) -> str:
    """Run a command (in the repository unless ``cwd``); its output, or an ``AssertionError`` carrying it."""
    done = subprocess.run(
        argv,
        cwd=cwd,
        env=env,
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=SMOKE_TIMEOUT,
        check=False,
    )
    shown = done.stdout + done.stderr
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(argv)} exited {done.returncode}:\n{shown[-6000:]}")
    return shown


@contextlib.contextmanager
def _redis_server(binary: str) -> Iterator[str]:
    """A throwaway redis-server on a free loopback port, nothing persisted; yields its URL."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with tempfile.TemporaryDirectory(prefix="mcp-client-extras-redis-") as folder:
        argv = [binary, "--bind", "127.0.0.1", "--port", str(port), "--dir", folder, "--save", ""]
        proc = subprocess.Popen([*argv, "--appendonly", "no"], stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 15
            while not _answers_ping(port):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"redis-server did not start on port {port}")
                time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            proc.kill()
            proc.wait(timeout=10)


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def build_wheel() -> Path:
    """The sdist, then the wheel from it, as a release builds them, both passing ``twine check``."""
    shutil.rmtree(DIST, ignore_errors=True)
    _run([sys.executable, "-m", "build", "--outdir", str(DIST), str(ROOT)])
    dists = sorted(str(path) for path in DIST.iterdir())
    _run([sys.executable, "-m", "twine", "check", "--strict", *dists])
    (wheel,) = DIST.glob("*.whl")
    return wheel


def check(name: str, wheel: concurrent.futures.Future[Path] | None) -> tuple[str, float, float]:
    """Make the venv of one extra, install the package with it, run its smoke; the seconds each took."""
    venv = VENVS / name
    shutil.rmtree(venv, ignore_errors=True)
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    pip = [sys.executable, "-m", "pip", "--python", python]
    if wheel is None:
        _run([*pip, "install", "--quiet", "--no-compile", "-e", f".[{name}]"])
    else:
        _run([*pip, "install", "--quiet", "--no-compile", f"{wheel.result()}[{name}]"])
    _run([*pip, "check"])
    installed = time.monotonic()
    if wheel is None:
        _run([python, __file__, "--inside", name])
    else:
        with tempfile.TemporaryDirectory(prefix="mcp-client-extras-wheel-") as outside:
            _run([python, __file__, "--inside", name], cwd=Path(outside))
    return name, installed - started, time.monotonic() - installed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument(
        "names", nargs="*", metavar="NAME", help=f"extras to check (default: {', '.join(EXTRAS)})"
    )
    parser.add_argument("--inside", metavar="NAME", help=argparse.SUPPRESS)
    parser.add_argument("--jobs", type=int, default=2, help="venvs made at the same time (default: 2)")
    args = parser.parse_args()
    if args.inside:
        if args.inside not in FROM_CHECKOUT:
            _from_site_packages()
        EXTRAS[args.inside]()
        return 0
    unknown = [name for name in args.names if name not in EXTRAS]
    if unknown:
        parser.error(f"no smoke for {unknown}: add it to EXTRAS in {Path(__file__).name}")
    names = args.names or list(EXTRAS)
    names.sort(key=lambda name: name not in FROM_CHECKOUT)  # these first, while the wheel is built
    failed = 0
    with (
        concurrent.futures.ThreadPoolExecutor(max_workers=1) as builder,
        concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool,
    ):
        wheel = builder.submit(build_wheel) if set(names) - FROM_CHECKOUT else None
        runs = {pool.submit(check, name, None if name in FROM_CHECKOUT else wheel): name for name in names}
        if wheel is not None:
            try:
                print(f"   wheel: built and checked ({wheel.result().name})", flush=True)
            except (AssertionError, subprocess.SubprocessError) as exc:
                failed += 1
                print(f"   wheel: FAILED\n{exc}", flush=True)
        for run in concurrent.futures.as_completed(runs):
            name = runs[run]
            try:
                _, install, smoke = run.result()
            except (AssertionError, subprocess.SubprocessError) as exc:
                failed += 1
                if name not in FROM_CHECKOUT and wheel is not None and exc is wheel.exception():
                    print(f"   {name}: not run (no wheel)", flush=True)
                else:
                    print(f"   {name}: FAILED\n{exc}", flush=True)
            else:
                print(f"   {name}: ok (install {install:.0f} s, smoke {smoke:.0f} s)", flush=True)
    if failed:
        print(f"{failed} extra(s) do not work alone: see above (the venvs stay in {VENVS})")
        return 1
    shutil.rmtree(VENVS, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
