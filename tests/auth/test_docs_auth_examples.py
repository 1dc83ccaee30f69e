"""The Python examples of docs/auth.md's "Proving who the client is" section, run as written.

Each block runs in its own process against ``_jwt_server`` (which verifies the assertions and DPoP
proofs with the public keys), with only its placeholders replaced: the MCP URL, the identity
provider's token endpoint, and the files it reads (``client.pem``, ``workload-token.jwt``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from mcp_client.auth._jose import pem_of
from tests.auth._jwt_server import JWT_BEARER, TOKEN_EXCHANGE, JwtServer, running_in_thread

DOC = Path(__file__).resolve().parents[2] / "docs" / "auth.md"
SECTION = DOC.read_text(encoding="utf-8").split("## Proving who the client is", 1)[1].split("\n## ", 1)[0]
BLOCKS = re.findall(r"```python\n(.*?)```", SECTION, flags=re.DOTALL)


def test_the_section_has_one_example_per_grant() -> None:
    assert len(BLOCKS) == 4


@pytest.mark.parametrize("number", range(4), ids=["private_key_jwt", "workload", "enterprise", "dpop"])
def test_the_example_runs(number: int, tmp_path: Path) -> None:
    block = BLOCKS[number]
    key = ec.generate_private_key(ec.SECP256R1())
    (tmp_path / "client.pem").write_bytes(pem_of(key))
    os.chmod(tmp_path / "client.pem", 0o600)
    (tmp_path / "workload-token.jwt").write_text("platform-issued-jwt\n")
    signs = "private_key=" in block
    server = JwtServer(client_id="reporting-service", client_public_key=key.public_key() if signs else None)
    with running_in_thread(server) as url:
        code = block.replace("https://mcp.example.com/mcp", url)
        code = code.replace("https://idp.example.com/oauth2/token", f"{server.base}/token")
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['whoami']"
    assert server.errors == []
    grants = [form["grant_type"] for form in server.token_requests]
    if number == 0:
        assert grants == ["client_credentials"] and len(server.assertions) == 1
    elif number == 1:
        assert grants == [JWT_BEARER] and server.token_requests[0]["assertion"] == "platform-issued-jwt"
    elif number == 2:
        assert grants == [TOKEN_EXCHANGE, JWT_BEARER]
    else:
        assert grants == ["client_credentials"] and len(server.token_proofs) == 1
        assert server.resource_proofs and {scheme for _, scheme in server.resource_requests[1:]} == {"DPoP"}
