"""OpenTelemetry: a CLIENT span per request with the MCP attributes, and its trace context in ``_meta``
where the server reads it (the features server's ``show_meta`` echoes what it received), in both eras.

The tracer provider is process-wide, so the client runs in a process of its own
(``telemetry_script.py``) with the SDK's in-memory exporter; the rest of the suite never sees a
recording provider. Until the app sets a tracer provider, a request opens no span and carries no
trace context (``telemetry_late_script.py``). Without ``opentelemetry`` installed nothing is imported
and nothing changes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.servers import FEATURES_SERVER, SERVERS_DIR, start_http_server, stdio_command

SCRIPT = Path(__file__).with_name("telemetry_script.py")
RECONNECT_SCRIPT = Path(__file__).with_name("telemetry_reconnect_script.py")
LATE_SCRIPT = Path(__file__).with_name("telemetry_late_script.py")
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def features_url() -> Iterator[str]:
    with start_http_server(script=FEATURES_SERVER) as url:
        yield url


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_a_span_per_request_and_its_traceparent_in_meta(features_url: str, mode: str) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), features_url, mode],
        capture_output=True, text=True, timeout=120, check=False, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    spans = {span["name"]: span for span in seen["spans"]}
    call = spans["tools/call show_meta"]
    assert call["kind"] == "CLIENT"
    assert call["attributes"]["mcp.method.name"] == "tools/call"
    assert call["attributes"]["gen_ai.tool.name"] == "show_meta"
    assert call["attributes"]["network.transport"] == "http"
    assert call["attributes"]["mcp.protocol.version"] in ("2025-11-25", "2026-07-28")
    # the server saw this very span's trace and span id (the flags byte is the SDK's to set)
    assert seen["meta"]["traceparent"][:-3] == call["traceparent"][:-3]
    failed = spans["no/such_method"]
    assert failed["status"] == "ERROR" and failed["attributes"]["error.type"] == "-32601"


def test_a_reconnect_is_a_span_with_an_event_and_the_new_handshake_inside_it() -> None:
    command, args = stdio_command(SERVERS_DIR / "restart_server.py")
    done = subprocess.run(
        [sys.executable, str(RECONNECT_SCRIPT), json.dumps([command, *args])],
        capture_output=True, text=True, timeout=120, check=False, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["pids"][0] != seen["pids"][1]  # the server was started again
    (reconnect,) = [span for span in seen["spans"] if span["name"] == "mcp.client.reconnect"]
    assert reconnect["kind"] == "INTERNAL" and reconnect["status"] != "ERROR"
    assert reconnect["attributes"]["mcp.reconnect.restarts_process"] is True
    assert "restart_server.py" in reconnect["attributes"]["mcp.server"]
    assert reconnect["attributes"]["mcp.reconnect.cause"]  # why: the server's exit
    assert [event["name"] for event in reconnect["events"]] == ["mcp.client.reconnected"]
    assert reconnect["events"][0]["attributes"]["mcp.reconnect.attempt"] == 1
    # The call that met the dead server, sent again on the new one, is traced once, after it.
    calls = [span for span in seen["spans"] if span["name"] == "tools/call pid"]
    assert len(calls) >= 2 and calls[-1]["status"] != "ERROR"


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_no_span_and_no_traceparent_until_the_app_sets_a_tracer_provider(
    features_url: str, mode: str
) -> None:
    done = subprocess.run(
        [sys.executable, str(LATE_SCRIPT), features_url, mode],
        capture_output=True, text=True, timeout=120, check=False, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["tracing_on_before"] is False and seen["tracing_on_after"] is True
    assert "traceparent" not in seen["meta_before"]
    assert "traceparent" in seen["meta_after"]
    assert seen["spans"] == ["tools/call show_meta"]


NOOP_SCRIPT = """
import json, sys
import anyio
from opentelemetry import trace
from mcp_client import Client
from mcp_client._connection import telemetry as _telemetry

trace.set_tracer_provider(trace.NoOpTracerProvider())  # what an app does to turn tracing off
asked = []
get_tracer = trace.get_tracer
trace.get_tracer = lambda *args, **kwargs: asked.append(args) or get_tracer(*args, **kwargs)

async def main(url, mode):
    async with Client(url, mode=mode) as client:
        result = await client.call_tool("show_meta", {})
    meta = json.loads(result.content[0].text)
    print(json.dumps({"tracing_on": _telemetry.tracing_on(), "tracers": len(asked), "meta": meta}))

anyio.run(main, sys.argv[1], sys.argv[2])
"""


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_no_op_tracer_provider_is_no_tracing(features_url: str, mode: str) -> None:
    """An app that sets the API's ``NoOpTracerProvider`` turned tracing off: the client asks it for no
    tracer and puts no trace context in ``_meta``, as with no provider at all."""
    done = subprocess.run(
        [sys.executable, "-c", NOOP_SCRIPT, features_url, mode],
        capture_output=True, text=True, timeout=120, check=False, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["tracing_on"] is False
    assert seen["tracers"] == 0  # no span opened for the handshake or the call
    assert "traceparent" not in seen["meta"]


def test_without_opentelemetry_nothing_is_imported() -> None:
    script = (
        "import sys, importlib.abc\n"
        "class Hide(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'opentelemetry' or name.startswith('opentelemetry.'):\n"
        "            raise ModuleNotFoundError(name)\n"
        "        return None\n"
        "sys.meta_path.insert(0, Hide())\n"
        "import mcp_client\n"
        "from mcp_client._connection import telemetry as _telemetry\n"
        "assert not _telemetry.tracing_available()\n"
        "assert not [m for m in sys.modules if m.startswith('opentelemetry')]\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stdout.strip() == "ok", done.stderr
