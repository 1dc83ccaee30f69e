"""``mcp-client login --client-id ID --private-key FILE --dpop``, in a real terminal (pexpect).

The authorization server is ``tests/auth/_jwt_server``: it verifies the private_key_jwt assertion of
every token request and the DPoP proof with the public keys, and issues a DPoP-bound token.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from mcp_client.auth._jose import pem_of
from tests.auth._jwt_server import JwtServer, running_in_thread
from tests.cli.test_demo import ENTER
from tests.cli.test_login import _finish, spawn

pytestmark = pytest.mark.slow


def _key_file(folder: Path, mode: int) -> tuple[Path, ec.EllipticCurvePrivateKey]:
    key = ec.generate_private_key(ec.SECP256R1())
    path = folder / "client.pem"
    path.write_bytes(pem_of(key))
    os.chmod(path, mode)
    return path, key


def test_login_with_a_private_key_and_dpop(tmp_path: Path) -> None:
    path, key = _key_file(tmp_path, 0o600)
    server = JwtServer(client_id="cli-app", client_public_key=key.public_key())
    with running_in_thread(server) as url:
        args = ("login", url, "--client-id", "cli-app", "--private-key", str(path), "--dpop")
        with spawn(tmp_path, *args, browser=True) as child:
            child.expect(r"Open the login page in your browser\? \[y/N\]")
            child.send("y" + ENTER)
            child.expect("Logged in to")
            child.expect("client cli-app signs in with its private key")
            child.expect(r"tokens bound to a DPoP key \(kept with them\)")
            assert _finish(child) == 0
        # A later run, tokens expired: it refreshes with the same client key and DPoP key by itself.
        token_file = tmp_path / "mcp-client" / "tokens.json"
        document = json.loads(token_file.read_text())
        document["servers"][url]["tokens"]["expires_at"] = 1.0
        token_file.write_text(json.dumps(document))
        with spawn(tmp_path, "tools", url) as child:
            child.expect("whoami")
            assert _finish(child) == 0
    assert server.errors == []
    assert [form["grant_type"] for form in server.token_requests] == ["authorization_code", "refresh_token"]
    assert len(server.assertions) == 2 and len(server.token_proofs) == 2
    assert server.bound["at-1"] == server.bound["at-0"]
    keys = json.loads((tmp_path / "mcp-client" / "client-keys.json").read_text())
    assert keys[url] == {"client_id": "cli-app", "private_key": str(path.resolve())}
    assert stat.S_IMODE(os.stat(tmp_path / "mcp-client" / "client-keys.json").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(token_file).st_mode) == 0o600
    saved = json.loads(token_file.read_text())["servers"][url]["tokens"]
    assert saved["token_type"] == "DPoP" and saved["dpop_jwk"]["kty"] == "EC"
    assert "PRIVATE KEY" not in token_file.read_text()  # the client key stays in its own file


def test_a_key_file_others_can_read_is_refused_in_one_line(tmp_path: Path) -> None:
    path, _ = _key_file(tmp_path, 0o644)
    args = ("login", "http://127.0.0.1:9/mcp", "--client-id", "cli-app", "--private-key", str(path))
    with spawn(tmp_path, *args) as child:
        child.expect(r"can be read by others \(mode 644\); refusing to use it\. Run: chmod 600")
        output = child.before or ""
        assert _finish(child) == 3
    assert "Traceback" not in output


def test_private_key_needs_a_client_id(tmp_path: Path) -> None:
    path, _ = _key_file(tmp_path, 0o600)
    with spawn(tmp_path, "login", "http://127.0.0.1:9/mcp", "--private-key", str(path)) as child:
        child.expect("--private-key needs --client-id")
        assert _finish(child) == 2
