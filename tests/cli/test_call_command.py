"""``mcp-client call``: arguments typed by the schema, questions answered, results printed, both eras.

stdin is a pipe here, so the terminal adapters read their answers line by line (their non-interactive
mode); the real-terminal path is covered by the pexpect tests in test_terminal.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.cli._cli import GUIDE, run_cli
from tests.conftest import ERAS


@pytest.mark.parametrize("mode", [*ERAS, "auto"])
def test_a_call_that_asks_nothing(bistro: str, mode: str) -> None:
    done = run_cli("call", "--mode", mode, bistro, "book_table", "date=2025-12-24", "party_size=2")
    assert (done.returncode, done.stdout) == (0, "[SUCCESS] Booked for 2025-12-24\n"), done.stderr


def test_the_bistro_question_is_answered_from_stdin(bistro: str, era: str) -> None:
    # yes to the alternative, a new date, Enter to send the answers; a resolver asks in either era
    done = run_cli(
        "call", "--mode", era, bistro, "book_table", "date=2025-12-25", "party_size=2",
        stdin="y\n2025-12-27\n\n",
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "[SUCCESS] Booked for 2025-12-27\n"), done.stderr
    assert "No tables for 2 on 2025-12-25. Would you like another date?" in done.stderr


def test_end_of_input_cancels_the_question_instead_of_hanging(bistro: str) -> None:
    done = run_cli("call", "--mode", "legacy", bistro, "book_table", "date=2025-12-25", "party_size=2")
    assert (done.returncode, done.stdout) == (0, "[CANCELLED] user cancelled\n"), done.stderr


def test_the_resolver_question_in_both_eras(files: str, era: str) -> None:
    done = run_cli("call", "--mode", era, files, "delete_folder", "path=/tmp/old-drafts", stdin="y\n\n")
    assert (done.returncode, done.stdout) == (0, "deleted /tmp/old-drafts\n"), done.stderr
    assert "Really delete /tmp/old-drafts? This cannot be undone." in done.stderr


def test_declining_at_the_review(files_http_url: str) -> None:
    done = run_cli("call", files_http_url, "delete_folder", "path=/tmp/x", stdin="y\nd\n")
    assert (done.returncode, done.stdout) == (0, "kept /tmp/x (outcome: decline)\n"), done.stderr


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_ctx_elicit_in_the_modern_era_fails_in_one_line_with_the_fix(
    transport: str, request: pytest.FixtureRequest
) -> None:
    """The guide server's ``book_table`` asks with ``ctx.elicit``: no channel for it in 2026-07-28."""
    server = f"{GUIDE} stdio" if transport == "stdio" else request.getfixturevalue("guide_http_url")
    done = run_cli("call", "--mode", "2026-07-28", server, "book_table", "date=2025-12-25", "party_size=2")
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("mcp-client: "), done.stderr
    assert "tried to ask you a question the legacy way (ctx.elicit)" in done.stderr
    assert "so the question never reached you: try again with --mode legacy (or leave --mode out).\n" in (
        done.stderr
    )


def test_ctx_elicit_in_a_config_entrys_modern_era_names_the_entry(tmp_path: Path) -> None:
    """The entry's ``mode`` wins over ``--mode``: the fix is in the file."""
    config = tmp_path / "mcp.json"
    entry = {"command": sys.executable, "args": [str(GUIDE), "stdio"], "mode": "2026-07-28"}
    config.write_text(json.dumps({"mcpServers": {"guide": entry}}))
    done = run_cli("call", "--config", str(config), "guide.book_table", "date=2025-12-25", "party_size=2")
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == (
        "mcp-client: guide tried to ask you a question the legacy way (ctx.elicit), which a 2026-07-28 "
        f'connection has no channel for, so the question never reached you: set "mode": "legacy" in its '
        f"entry of {config}.\n"
    )


@pytest.mark.parametrize(("answer", "expected"), [("y\n", "Waiting for the payment"), ("n\n", "decline")])
def test_a_link_question_asks_for_consent(bistro_url: str, answer: str, expected: str) -> None:
    done = run_cli("call", "--mode", "legacy", bistro_url, "pay_deposit", "booking_id=B42", stdin=answer)
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout
    assert "https://pay.example.com/deposit?booking=B42" in done.stderr
    assert "pay.example.com" in done.stderr


def test_values_are_typed_by_the_input_schema(typed_http_url: str) -> None:
    done = run_cli(
        "call", typed_http_url, "describe", "count=3", "ratio=2", "flag=yes", 'tags=["a", "b"]',
        'options={"k": 1}', "colour=blue", "note=null", "label=",
        "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    received = json.loads(done.stdout)["structuredContent"]
    assert received == {
        "count": [3, "int"],
        "ratio": [2.0, "float"],
        "flag": [True, "bool"],
        "tags": [["a", "b"], "list"],
        "options": [{"k": 1}, "dict"],
        "colour": ["blue", "str"],
        "note": [None, "NoneType"],
        "label": ["", "str"],
    }


@pytest.mark.parametrize(("either", "shown"), [("5", "either=5"), ("five", "either='five'")])
def test_ref_and_any_of_parameters(typed_http_url: str, either: str, shown: str) -> None:
    done = run_cli("call", typed_http_url, "nested", 'point={"x": 1, "y": 2}', f"either={either}")
    assert (done.returncode, done.stdout) == (0, f"point=(1,2) {shown}\n"), done.stderr


def test_options_may_come_between_the_arguments(typed_http_url: str) -> None:
    done = run_cli(
        "call", typed_http_url, "describe", "count=1", "--json", "ratio=0.5", "--mode", "legacy",
        "flag=false", "tags=[]", "options={}",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["structuredContent"]["ratio"] == [0.5, "float"]


def test_json_prints_the_raw_result(bistro_http_url: str) -> None:
    done = run_cli("call", bistro_http_url, "book_table", "date=2025-12-24", "party_size=2", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["content"] == [{"type": "text", "text": "[SUCCESS] Booked for 2025-12-24"}]
    assert result["structuredContent"] == {"result": "[SUCCESS] Booked for 2025-12-24"}
    assert result["isError"] is False


def test_structured_content_alone_is_printed_as_json(typed_http_url: str) -> None:
    done = run_cli("call", typed_http_url, "summary")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"total": 3, "items": ["a", "b", "c"]}


def test_a_dict_result_is_printed_once(typed_http_url: str) -> None:
    done = run_cli(
        "call", typed_http_url, "describe", "count=1", "ratio=1", "flag=1", "tags=[]", "options={}"
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["count"] == [1, "int"]  # one JSON document, not text + JSON


def test_headers_reach_an_http_server(typed_http_url: str) -> None:
    done = run_cli(
        "call", typed_http_url, "headers", "--header", "X-Demo: 42", "--header", "X-Other:a:b", "--json"
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)["structuredContent"]
    assert (seen["x-demo"], seen["x-other"]) == ("42", "a:b")
