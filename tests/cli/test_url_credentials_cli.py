"""``mcp-client`` given a server URL with ``user:s3cret@``: what it prints names the server without the
password (the library's ``without_credentials`` rule, through ``Client.server`` and the CLI's own label)."""

from __future__ import annotations

import pytest

from tests.cli._cli import run_cli
from tests.support.servers import LOOPBACK, refused_loopback_port

pytestmark = pytest.mark.slow


def test_a_dead_server_with_a_password_is_named_without_it() -> None:
    with refused_loopback_port() as port:
        url = f"http://{LOOPBACK}:{port}/mcp"
        done = run_cli("tools", url.replace("http://", "http://user:s3cret@"))
    assert (done.returncode, done.stdout) == (3, "")
    assert f"could not connect to {url} (connection refused)" in done.stderr
    assert "s3cret" not in done.stderr
