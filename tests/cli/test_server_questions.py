"""``mcp-client call`` when the server asks for sampling or roots, against the official server.

The CLI has no model: a sampling request is refused with one clear sentence, which the user sees
(never ``Method not found``); ``--root PATH`` answers ``roots/list`` with ``file://`` URIs.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.cli._cli import ROOT, run_cli

QUESTIONS = ROOT / "tests" / "servers" / "questions_server.py"
NO_MODEL = "mcp-client has no model to answer sampling requests"


@pytest.fixture(params=["stdio", "http"])
def questions(request: pytest.FixtureRequest) -> str:
    if request.param == "stdio":
        return shlex.join([sys.executable, str(QUESTIONS), "stdio"])
    return str(request.getfixturevalue("questions_http_url"))


def test_sampling_is_refused_with_a_clear_sentence(questions: str, era: str) -> None:
    done = run_cli("call", "--mode", era, questions, "haiku", "topic=rain")
    assert done.returncode == 3, done
    assert done.stderr.startswith(
        "mcp-client: the tool asked for an answer from a language model (sampling), and this command "
        "line has no model to give one"
    ), done.stderr
    assert "mcp-client: mcp-client" not in done.stderr  # the name once (issue 26, item 9)
    assert "may not speak protocol" not in done.stderr  # our own refusal is not an era problem
    assert "-32601" not in done.stderr and "Method not found" not in done.stderr


def test_the_server_hears_the_same_sentence(questions_http_url: str) -> None:
    done = run_cli("call", "--mode", "legacy", questions_http_url, "raw_sample", "catch=true")
    assert (done.returncode, done.stdout) == (0, f"sampling refused: -32600 {NO_MODEL}\n"), done.stderr


def test_roots_come_from_the_root_options(questions: str, era: str, tmp_path: Path) -> None:
    (tmp_path / "alpha").mkdir()
    (tmp_path / "beta gamma").mkdir()
    done = run_cli(
        "call", "--mode", era, questions, "my_roots",
        "--root", str(tmp_path / "alpha"), "--root", str(tmp_path / "beta gamma"),
    )  # fmt: skip
    alpha, beta = (tmp_path / "alpha").as_uri(), (tmp_path / "beta gamma").as_uri()
    assert (done.returncode, done.stdout) == (0, f"roots: {alpha} (alpha), {beta} (beta gamma)\n"), (
        done.stderr
    )
    assert "%20" in beta  # a real file:// URI, spaces escaped


def test_without_a_root_the_user_is_told_to_pass_one(questions: str, era: str) -> None:
    done = run_cli("call", "--mode", era, questions, "my_roots")
    assert done.returncode == 3, done
    assert "pass --root PATH" in done.stderr


def test_a_root_that_does_not_exist_is_a_usage_error(questions_http_url: str, tmp_path: Path) -> None:
    done = run_cli("call", questions_http_url, "my_roots", "--root", str(tmp_path / "nowhere"))
    assert done.returncode == 2
    assert f"--root {tmp_path / 'nowhere'}: no such file or folder" in done.stderr
