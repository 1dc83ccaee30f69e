"""``Client(FastMCP(...))``: fastmcp's server object in the client's own process, in both eras.

fastmcp lives in a venv of its own (it runs on httpx2), so the client runs there too, from this
checkout's ``src`` (``scripts/install_peers.py`` puts our runtime dependencies in that venv).
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.interop import _peers

SCRIPT = _peers.HERE / "fastmcp_in_process.py"


@pytest.mark.parametrize(
    ("mode", "era"), [("legacy", "legacy"), ("2026-07-28", "modern"), ("auto", "modern")]
)
def test_a_fastmcp_server_object_answers_in_process(mode: str, era: str) -> None:
    python = _peers.require_installed(_peers.FASTMCP_PYTHON, "fastmcp 4.1.6 (its venv)")
    env = {**os.environ, "PYTHONPATH": str(_peers.REPO / "src")}
    done = subprocess.run(
        [str(python), str(SCRIPT), mode], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["answer"]["era"] == era
    assert report["answer"]["action"] == "accept"
    assert report["answer"]["content"]["name"] == "Ada"
    assert report["asked"] == ["Hi! Please fill in your profile."]
    assert report["listening"] == 0  # no port opened
    assert report["label"] == "in-process server 'fastmcp-interop-peer'"
