"""Issue 24: a config entry's ``"auth"`` object gives ``mcp-client login`` its options, in a real terminal.

Same authorization server as ``test_login_key_options``: it checks the private_key_jwt assertion and the
DPoP proof of every token request, so a login that ignored the file's options would fail there.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.auth._jwt_server import JwtServer, running_in_thread
from tests.cli.test_demo import ENTER
from tests.cli.test_login import _finish, spawn
from tests.cli.test_login_key_options import _key_file

pytestmark = pytest.mark.slow


def test_login_and_tools_take_the_options_from_the_config(tmp_path: Path) -> None:
    path, key = _key_file(tmp_path, 0o600)
    server = JwtServer(client_id="cli-app", client_public_key=key.public_key())
    with running_in_thread(server) as url:
        config = tmp_path / "mcp.json"
        entry = {"url": url, "auth": {"client_id": "cli-app", "private_key": path.name, "dpop": True}}
        config.write_text(json.dumps({"mcpServers": {"corp": entry}}), encoding="utf-8")
        with spawn(tmp_path, "login", "--config", str(config), "corp", browser=True) as child:
            child.expect(r"Open the login page in your browser\? \[y/N\]")
            child.send("y" + ENTER)
            child.expect("Logged in to")
            child.expect("client cli-app signs in with its private key")
            child.expect(r"tokens bound to a DPoP key \(kept with them\)")
            assert _finish(child) == 0
        with spawn(tmp_path, "tools", "--config", str(config), "corp") as child:
            child.expect("whoami")
            assert _finish(child) == 0
    assert server.errors == []
    assert len(server.assertions) == 1 and len(server.token_proofs) == 1


def test_login_of_a_stdio_server_of_the_config_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"local": {"command": "python"}}}), encoding="utf-8")
    with spawn(tmp_path, "login", "--config", str(config), "local") as child:
        child.expect("has no URL: only http\\(s\\) servers log in")
        assert _finish(child) == 2
