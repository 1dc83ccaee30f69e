"""Output that scripts can trust, and errors that say what to do (issue 12, items 7 and 9-15)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.cli._cli import BISTRO_URL, EXAMPLE_SERVERS, ROOT, TIMEOUT, TYPED, cli_env, run_cli

LONG = "y" * 300


# ---------------------------------------------------------------------------------------- output


def test_redirected_output_is_the_servers_text_unwrapped() -> None:
    done = run_cli("call", str(TYPED), "read_note", f"text={LONG} https://example.com/{'p' * 90}")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{LONG} https://example.com/{'p' * 90}\n"


def test_text_repeated_as_structured_content_is_printed_once() -> None:
    done = run_cli("call", str(TYPED), "read_note", "text=hello there")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "hello there\n"


def test_a_closed_pipe_ends_the_command_quietly_with_141() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "ui_adapters.cli", "tools", str(TYPED)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=cli_env(),
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # like `| head -1` that has already exited
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=TIMEOUT) == 141, stderr
    assert stderr == ""


@pytest.mark.parametrize("unbuffered", ["1", ""], ids=["PYTHONUNBUFFERED=1", "buffered"])
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_a_result_cut_by_head_exits_141_buffered_or_not(unbuffered: str, as_json: bool) -> None:
    # Unbuffered, a write the reader stops in the middle of used to be cut short without an error:
    # the rest of the result was dropped in silence and the command exited 0.
    lines = [f"line {n:05d}" for n in range(11_000)]  # about 110 KB: more than a pipe holds
    options = ["--json"] if as_json else []
    text = "text=" + "\n".join(lines)
    process = subprocess.Popen(
        [sys.executable, "-m", "ui_adapters.cli", "call", "--yes", *options, str(TYPED), "read_note", text],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=cli_env(PYTHONUNBUFFERED=unbuffered),
    )
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()  # `| head -1`: one line, then the reader is gone
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=TIMEOUT) == 141, stderr
    assert first == (b"{\n" if as_json else b"line 00000\n")
    assert stderr == ""


# ---------------------------------------------------------------------------------- tool listings


def test_an_array_of_objects_shows_its_item_shape_and_a_json_example() -> None:
    listing = run_cli("tools", str(TYPED))
    assert re.search(
        r"^\s+entities\s+array of \{name, entityType, observations\}\s+required", listing.stdout, re.M
    )
    done = run_cli("call", str(TYPED), "create_entities", "entities=foo")
    assert done.returncode == 2
    example = '[{"name": "text", "entityType": "text", "observations": ["a", "b"]}]'
    assert f"entities={shlex.quote(example)}" in done.stderr
    assert 'entities=\'["a", "b"]\'' not in done.stderr
    worked = run_cli("call", str(TYPED), "create_entities", f"entities={example}")
    assert (worked.returncode, worked.stdout) == (0, "text (text)\n")


# ------------------------------------------------------------------------------------------ errors


def test_a_timeout_names_the_option_to_raise(guide_http_url: str) -> None:
    # A server already running: one started over stdio may not answer initialize within 10s when busy.
    done = run_cli("call", "--timeout", "1", guide_http_url, "slow", "seconds=10")
    assert done.returncode == 3
    assert "raise --timeout SECONDS" in done.stderr
    assert "Client(timeout" not in done.stderr


def test_a_file_that_is_not_a_server_is_named_as_such() -> None:
    done = run_cli("tools", "/etc/passwd")
    assert done.returncode == 2
    assert "is a file, but neither a Python file (.py) nor an executable program" in done.stderr
    assert "command not found" not in done.stderr


def test_a_url_without_its_scheme_gets_a_did_you_mean() -> None:
    done = run_cli("tools", "127.0.0.1:8000/mcp")
    assert done.returncode == 2
    assert "Did you mean http://127.0.0.1:8000/mcp?" in done.stderr


def test_a_404_is_an_http_status_not_a_json_rpc_error(typed_http_url: str) -> None:
    parts = urlsplit(typed_http_url)
    wrong = urlunsplit(parts._replace(path="/nope"))
    done = run_cli("tools", wrong)
    assert done.returncode == 3
    assert "HTTP 404" in done.stderr
    assert "JSON-RPC error" not in done.stderr
    assert "Nothing answers at /nope" in done.stderr


class _OldSseHandler(BaseHTTPRequestHandler):
    """The deprecated HTTP+SSE transport (2024-11-05): GET opens a stream announcing the POST endpoint."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.wfile.write(b"event: endpoint\ndata: /messages/?session_id=abc\n\n")
        self.wfile.flush()

    def do_POST(self) -> None:
        self.send_response(405)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def old_sse_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _OldSseHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/sse"
    finally:
        server.shutdown()
        thread.join(timeout=10)


def test_an_old_http_sse_endpoint_is_recognised(old_sse_url: str) -> None:
    """Left to choose, the client falls back to HTTP+SSE by itself; only --transport http needs advice."""
    done = run_cli("tools", "--transport", "http", old_sse_url)
    assert done.returncode == 3
    assert "This endpoint speaks the older HTTP+SSE transport" in done.stderr
    assert "leave --transport out (or give --transport sse)" in done.stderr


# ------------------------------------------------------------------------------------------ demo & help


def test_a_link_answered_in_a_one_shot_command_promises_no_follow_up() -> None:
    done = run_cli("call", "--mode", "legacy", str(BISTRO_URL), "pay_deposit", "booking_id=B42", stdin="y\n")
    assert done.returncode == 0, done.stderr
    assert "Waiting for the payment of booking B42" in done.stdout
    assert "will say when" not in done.stderr + done.stdout


def test_the_demo_date_field_refuses_an_impossible_date() -> None:
    done = run_cli("demo", stdin="y\n2025-13-45\n2025-12-27\n\ny\n\n")
    assert done.returncode == 0, done.stderr
    assert "must be a date like 2025-12-26" in done.stdout + done.stderr
    assert "→ [SUCCESS] Booked for 2025-12-27" in done.stdout


def test_every_help_example_names_a_tool_its_example_server_has() -> None:
    help_text = run_cli("--help").stdout
    examples = re.findall(r"mcp-client call .*?(examples/servers/\w+\.py) (\w+)", help_text)
    assert examples
    for script, tool in examples:
        listing = run_cli("tools", str(ROOT / script))
        assert re.search(rf"^{tool}\b", listing.stdout, re.M), (script, tool)
    assert " add a=1 b=2" not in help_text
    assert all(path.exists() for path in EXAMPLE_SERVERS.glob("*.py"))
