"""Every Python example in the README and the docs runs against a real server, or is marked as not run.

See ``tests/support/docs_examples.py`` for how a block says how it runs. The servers are the example
servers of the docs (``examples/servers/*.py``) over HTTP on 127.0.0.1, started once per session and
only when an example needs them; examples that start their server over stdio do it themselves. The
terminal summary line ``docs examples: N run, M not run (marked)`` comes from ``tests/conftest.py``.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.auth.conftest import start_oauth_server
from tests.llm.fake_provider import running_fake_provider
from tests.support.docs_examples import PLACEHOLDER_URL, ROOT, Example, examples
from tests.support.scripted_model import ScriptedTurns, model_env
from tests.support.servers import PEER_PYTHON, run_http_server

EXAMPLES = examples()
RUN = [example for example in EXAMPLES if example.not_run is None and example.tested_by is None]
ELSEWHERE = [example for example in EXAMPLES if example.tested_by is not None]
NOT_RUN = [example for example in EXAMPLES if example.not_run is not None]
TIMEOUT = 120  # seconds per example: a bound, never reached when things work

# Runs a block as a program; a block written with top-level `await` (an excerpt) runs on asyncio.
RUNNER = """
import asyncio, inspect, sys
source = open(sys.argv[1], encoding="utf-8").read()
code = compile(source, sys.argv[2], "exec", flags=0x2000)  # PyCF_ALLOW_TOP_LEVEL_AWAIT
namespace = {"__name__": "__main__"}
if code.co_flags & inspect.CO_COROUTINE:
    asyncio.run(eval(code, namespace))
else:
    exec(code, namespace)
"""


class ExampleServers:
    """The docs' example servers over HTTP, each started on first use and stopped with the session."""

    def __init__(self, stack: contextlib.ExitStack) -> None:
        self._stack = stack
        self._urls: dict[str, str] = {}

    def url(self, name: str) -> str:
        if name not in self._urls:
            if name == "oauth":
                server = contextlib.contextmanager(start_oauth_server)()
            else:
                script = ROOT / "examples" / "servers" / f"{name}.py"
                assert script.exists(), f"no example server {script}"
                server = run_http_server(
                    lambda port: [PEER_PYTHON, str(script), "--http", "--port", str(port)]
                )
            self._urls[name] = self._stack.enter_context(server)
        return self._urls[name]


@pytest.fixture(scope="session")
def example_servers() -> Iterator[ExampleServers]:
    with contextlib.ExitStack() as stack:
        yield ExampleServers(stack)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # mcp-client
    env["PYTHONUNBUFFERED"] = "1"
    return env


def test_every_page_has_its_examples_found() -> None:
    """The parser sees the examples: the README's and the guides' (a regex gone wrong finds none)."""
    pages = {example.page for example in RUN}
    assert "README.md" in pages
    assert {"docs/quickstart.md", "docs/elicitation.md", "docs/ui.md", "docs/testing.md"} <= pages
    assert all(example.not_run.strip() for example in NOT_RUN if example.not_run is not None)


@pytest.mark.parametrize("example", ELSEWHERE, ids=[example.id for example in ELSEWHERE])
def test_an_example_run_elsewhere_names_a_test_that_reads_its_page(example: Example) -> None:
    test = ROOT / str(example.tested_by)
    assert test.is_file(), f"{example.id}: tested-by={example.tested_by} does not exist"
    page, source = Path(example.page), test.read_text(encoding="utf-8")
    assert f'"{page.name}"' in source or str(page) in source, (
        f"{example.id}: {example.tested_by} does not read it"
    )


@pytest.mark.slow
@pytest.mark.parametrize("example", RUN, ids=[example.id for example in RUN])
def test_the_example_runs(example: Example, example_servers: ExampleServers, tmp_path: Path) -> None:
    code = example.code
    if example.server is not None:
        assert PLACEHOLDER_URL in code, f"{example.id}: server={example.server} but no {PLACEHOLDER_URL}"
        code = code.replace(PLACEHOLDER_URL, example_servers.url(example.server))
    if example.runner == "pytest":
        path = tmp_path / "test_docs_example.py"
        path.write_text(code, encoding="utf-8")
        argv = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(tmp_path),
            str(path),
        ]
    else:
        path = tmp_path / "example.py"
        path.write_text(code, encoding="utf-8")
        argv = [sys.executable, "-c", RUNNER, str(path), example.id]
    with contextlib.ExitStack() as stack:
        env = _env()
        turns = None
        if example.model is not None:  # the provider SDKs reach a scripted model on 127.0.0.1
            provider = stack.enter_context(running_fake_provider())
            provider.respond = turns = ScriptedTurns(*example.model)
            env.update(model_env(provider.url))
        result = subprocess.run(
            argv, input=example.stdin, capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT, env=env
        )
    shown = f"{example.id} exited {result.returncode}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    assert result.returncode == 0, shown
    for expected in example.expect:
        assert expected in result.stdout, f"{example.id}: {expected!r} not printed\n{shown}"
    if turns is not None:
        assert turns.results, f"{example.id}: the model was never given the tool's result\n{shown}"
