"""``mcp-client`` given a server URL with ``user:s3cret@``: what it prints names the server without the
password (the library's ``without_credentials`` rule, through ``Client.server`` and the CLI's own label),
and the CLI sends them as Basic auth with no OAuth login of its own (``servers/basic_auth_server.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.cli._cli import run_cli
from tests.support.servers import LOOPBACK, PEER_PYTHON, SERVERS_DIR, refused_loopback_port, run_http_server

BASIC_AUTH_SERVER = SERVERS_DIR / "basic_auth_server.py"

pytestmark = pytest.mark.slow


def test_a_dead_server_with_a_password_is_named_without_it() -> None:
    with refused_loopback_port() as port:
        url = f"http://{LOOPBACK}:{port}/mcp"
        done = run_cli("tools", url.replace("http://", "http://user:s3cret@"))
    assert (done.returncode, done.stdout) == (3, "")
    assert f"could not connect to {url} (connection refused)" in done.stderr
    assert "s3cret" not in done.stderr


@pytest.fixture(scope="module")
def basic_auth_url() -> Iterator[str]:
    """``servers/basic_auth_server.py``: every request needs ``Authorization: Basic user:s3cret``."""
    with run_http_server(
        lambda port: [PEER_PYTHON, str(BASIC_AUTH_SERVER), "http", "--host", LOOPBACK, "--port", str(port)]
    ) as url:
        yield url


@pytest.mark.parametrize("command", [("call", "echo", "text=hi"), ("tools",)])
def test_url_credentials_reach_a_basic_auth_server(basic_auth_url: str, command: tuple[str, ...]) -> None:
    """The URL's ``user:s3cret@`` is the user's authorization: the CLI's OAuth login stays out of it
    (it would win over the URL's credentials, and the server wants Basic auth, not a login)."""
    verb, *rest = command
    done = run_cli(verb, basic_auth_url.replace("http://", "http://user:s3cret@"), *rest)
    assert done.returncode == 0, done.stderr
    if verb == "call":
        assert done.stdout.strip() == "hi"
    else:
        assert "echo" in done.stdout and "gate_log" in done.stdout
    assert "s3cret" not in done.stdout + done.stderr


def test_wrong_url_credentials_fail_naming_the_server_without_them(basic_auth_url: str) -> None:
    """The refusal: a 401 with a Basic challenge is reported as it is, no login is started."""
    done = run_cli("call", basic_auth_url.replace("http://", "http://user:wrong@"), "echo", "text=hi")
    assert (done.returncode, done.stdout) == (3, "")
    assert "401" in done.stderr and basic_auth_url in done.stderr
    assert "wrong" not in done.stderr.replace(basic_auth_url, "")
    assert "log in" not in done.stderr.lower() and "login" not in done.stderr.lower()


@pytest.mark.parametrize(
    ("header", "shown"),
    [
        (["--header", "X-Api-Key: k3y-value"], "--header 'X-Api-Key: ***'"),
        (["--header=X-Api-Key: k3y-value"], "'--header=X-Api-Key: ***'"),
    ],
)
def test_the_yes_advice_leaves_the_credentials_out(
    basic_auth_url: str, header: list[str], shown: str
) -> None:
    """No terminal to ask on: the refusal repeats the command with ``--yes``, but not the URL's password
    nor a credential header's value (stderr ends up in CI logs), and says to put them back."""
    secret_url = basic_auth_url.replace("http://", "http://user:s3cret@")
    done = run_cli("call", secret_url, *header, "write_note", "text=hi", yes=False)
    assert done.returncode == 4, done.stderr
    assert "s3cret" not in done.stderr and "k3y-value" not in done.stderr
    said = " ".join(done.stderr.split())
    assert (
        f"pass --yes: mcp-client call --yes {basic_auth_url} {shown} write_note text=hi "
        "(with your credentials put back: left out here)"
    ) in said, said
