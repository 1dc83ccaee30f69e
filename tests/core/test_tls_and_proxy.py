"""Corporate networks: a server behind a private CA, a client certificate, and a real forward proxy.

The HTTPS server is our features server with a certificate from a throwaway CA (``trustme``); the proxy
is ``proxy.py`` on loopback, whose access log shows the requests it carried. Every request of the client
(POSTs, the standalone stream, the session's DELETE) goes the way the options say.
"""

from __future__ import annotations

import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
import trustme

from mcp_client import Client, MCPConnectionError
from mcp_client._connection.http_options import HttpOptions
from mcp_client.types import TextContent
from tests.support.servers import FEATURES_SERVER, LOOPBACK, PEER_PYTHON, run_http_server

pytestmark = pytest.mark.anyio

TEST_TIMEOUT = 60.0


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture(scope="module")
def ca_file(ca: trustme.CA, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ca") / "ca.pem"
    ca.cert_pem.write_to_path(str(path))
    return path


@pytest.fixture(scope="module")
def server_cert(ca: trustme.CA, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """``(certfile, keyfile)`` for 127.0.0.1, issued by the throwaway CA."""
    folder = tmp_path_factory.mktemp("server-cert")
    cert = ca.issue_cert("127.0.0.1")
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert.cert_chain_pems[0].write_to_path(str(cert_file))
    for extra in cert.cert_chain_pems[1:]:
        extra.write_to_path(str(cert_file), append=True)
    cert.private_key_pem.write_to_path(str(key_file))
    return str(cert_file), str(key_file)


def https_server(script: Path, cert: tuple[str, str], *extra: str) -> Any:
    argv = lambda port: [  # noqa: E731
        PEER_PYTHON, str(script), "http", "--host", LOOPBACK, "--port", str(port),
        "--certfile", cert[0], "--keyfile", cert[1], *extra,
    ]  # fmt: skip
    return run_http_server(argv)


@pytest.fixture(scope="module")
def client_cert(ca: trustme.CA, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """``(certfile, keyfile)`` of a client certificate the throwaway CA issued."""
    folder = tmp_path_factory.mktemp("client-cert")
    cert = ca.issue_cert("client@example.com")
    cert_file, key_file = folder / "client.pem", folder / "client.key"
    cert.cert_chain_pems[0].write_to_path(str(cert_file))
    cert.private_key_pem.write_to_path(str(key_file))
    return str(cert_file), str(key_file)


@pytest.fixture(scope="module")
def mtls_url(server_cert: tuple[str, str], ca_file: Path) -> Iterator[str]:
    """HTTPS that requires a client certificate issued by the throwaway CA (mutual TLS)."""
    with https_server(FEATURES_SERVER, server_cert, "--client-ca", str(ca_file)) as url:
        yield url.replace("http://", "https://")


@pytest.fixture(scope="module")
def https_url(server_cert: tuple[str, str]) -> Iterator[str]:
    with https_server(FEATURES_SERVER, server_cert) as url:
        yield url.replace("http://", "https://")


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    argv = lambda port: [PEER_PYTHON, str(FEATURES_SERVER), "http", "--host", LOOPBACK, "--port", str(port)]  # noqa: E731
    with run_http_server(argv) as url:
        yield url


class Proxy:
    def __init__(self, url: str, log: Path) -> None:
        self.url = url
        self.log = log

    def carried(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def wait_for(self, text: str, seconds: float = 20.0) -> str:
        """The access log once it holds ``text`` (proxy.py logs a request when its connection ends)."""
        deadline = time.monotonic() + seconds
        while text not in (carried := self.carried()) and time.monotonic() < deadline:
            time.sleep(0.05)
        return carried


@pytest.fixture
def proxy() -> Iterator[Proxy]:
    with tempfile.TemporaryDirectory(prefix="mcp-proxy-") as folder:
        port_file, log = Path(folder) / "port", Path(folder) / "proxy.log"
        process = subprocess.Popen(
            [
                sys.executable, "-m", "proxy", "--hostname", LOOPBACK, "--port", "0", "--port-file",
                str(port_file), "--num-workers", "1", "--num-acceptors", "1", "--log-level", "INFO",
                "--log-file", str(log),
            ],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 45
            while not (port_file.exists() and port_file.read_text().strip()):
                assert process.poll() is None, "proxy.py exited"
                assert time.monotonic() < deadline, "proxy.py did not start"
                time.sleep(0.05)
            time.sleep(0.5)  # the port file is written just before the acceptor listens
            yield Proxy(f"http://{LOOPBACK}:{port_file.read_text().strip()}", log)
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


async def call(url: str, **options: Any) -> str:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(url, mode="legacy", **options) as client:
            return text_of(await client.call_tool("count", {"steps": 2, "interval": 0}))


async def test_a_private_ca_is_refused_by_default(https_url: str) -> None:
    refused = r"CERTIFICATE_VERIFY_FAILED|certificate verify failed"
    with pytest.raises(MCPConnectionError, match=refused) as caught:
        await call(https_url, trust_env=False)
    # The advice is the fix for a private CA, not "check that the server is running".
    assert "verify='ca.pem'" in str(caught.value) and "--ca-bundle" in str(caught.value)
    assert "check that the server is running" not in str(caught.value)


@pytest.mark.parametrize("how", ["path", "context"])
async def test_a_private_ca_is_trusted_when_given(https_url: str, ca_file: Path, how: str) -> None:
    verify: Any = str(ca_file) if how == "path" else ssl.create_default_context(cafile=str(ca_file))
    assert await call(https_url, verify=verify) == "counted to 2"


async def test_ssl_cert_file_is_honoured_as_httpx_does(
    https_url: str, ca_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(ca_file))
    assert await call(https_url) == "counted to 2"
    with pytest.raises(MCPConnectionError):
        await call(https_url, trust_env=False)


async def test_no_verification_when_asked(https_url: str) -> None:
    assert await call(https_url, verify=False) == "counted to 2"


async def test_a_client_certificate_is_presented_with_the_default_verify(
    mtls_url: str, ca_file: Path, client_cert: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``cert=`` alone (``verify`` left at its default, the CA trusted through ``SSL_CERT_FILE``)."""
    monkeypatch.setenv("SSL_CERT_FILE", str(ca_file))
    assert await call(mtls_url, cert=client_cert) == "counted to 2"


async def test_a_client_certificate_is_presented_with_a_private_ca(
    mtls_url: str, ca_file: Path, client_cert: tuple[str, str]
) -> None:
    assert await call(mtls_url, cert=client_cert, verify=str(ca_file)) == "counted to 2"


async def test_a_server_that_wants_a_client_certificate_refuses_a_client_without_one(
    mtls_url: str, ca_file: Path
) -> None:
    with pytest.raises(MCPConnectionError):
        await call(mtls_url, verify=str(ca_file))


async def test_a_proxy_carries_every_request(http_url: str, proxy: Proxy) -> None:
    assert await call(http_url, proxy=proxy.url) == "counted to 2"
    port = http_url.split(":")[2].split("/")[0]
    assert f"POST {LOOPBACK}:{port}/mcp" in proxy.wait_for("POST")


async def test_an_httpx_proxy_from_an_app_written_for_httpx_carries_every_request(
    http_url: str, proxy: Proxy
) -> None:
    import httpx

    assert await call(http_url, proxy=httpx.Proxy(proxy.url)) == "counted to 2"
    port = http_url.split(":")[2].split("/")[0]
    assert f"POST {LOOPBACK}:{port}/mcp" in proxy.wait_for("POST")


async def test_with_a_proxy_nothing_goes_around_it(http_url: str) -> None:
    from tests.support.servers import free_loopback_port

    dead_proxy = f"http://{LOOPBACK}:{free_loopback_port()}"  # nothing listens there
    with pytest.raises(MCPConnectionError):
        await call(http_url, proxy=dead_proxy)


async def test_https_through_the_proxy(https_url: str, ca_file: Path, proxy: Proxy) -> None:
    assert await call(https_url, proxy=proxy.url, verify=str(ca_file)) == "counted to 2"
    port = https_url.split(":")[2].split("/")[0]
    assert f"CONNECT {LOOPBACK}:{port}" in proxy.wait_for("CONNECT")


async def test_https_proxy_from_the_environment(
    http_url: str, proxy: Proxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    assert await call(http_url) == "counted to 2"
    assert "/mcp" in proxy.wait_for("/mcp")


async def test_the_apps_own_client_factory(http_url: str) -> None:
    import httpx2

    made: list[httpx2.AsyncClient] = []

    def factory(headers: Any = None, timeout: Any = None, auth: Any = None) -> httpx2.AsyncClient:
        client = httpx2.AsyncClient(
            headers={**(headers or {}), "x-from-factory": "yes"}, timeout=timeout, auth=auth
        )
        made.append(client)
        return client

    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(http_url, mode="legacy", httpx_client_factory=factory) as client:
            meta = text_of(await client.call_tool("count", {"steps": 1, "interval": 0}))
    assert meta == "counted to 1" and made


async def test_a_factory_written_for_httpx_is_told_to_build_an_httpx2_client(http_url: str) -> None:
    import httpx

    from mcp_client.auth import ClientCredentials

    def old_factory(headers: Any = None, timeout: Any = None, auth: Any = None) -> Any:
        return httpx.AsyncClient(headers=headers, auth=auth)

    with pytest.raises(TypeError) as caught:
        await call(http_url, httpx_client_factory=old_factory)
    assert str(caught.value).startswith(
        "httpx_client_factory returned an httpx.AsyncClient; mcp_client sends with httpx2"
    )
    assert "return httpx2.AsyncClient(...) with the same arguments" in str(caught.value)
    # With an auth, httpx refuses our httpx2.Auth before the factory returns: the note says the same.
    with pytest.raises(TypeError, match='Invalid "auth" argument') as caught:
        await call(http_url, httpx_client_factory=old_factory, auth=ClientCredentials("svc", "secret"))
    assert any("build an httpx2.AsyncClient" in note for note in getattr(caught.value, "__notes__", []))


async def test_an_httpx_client_given_to_a_transport_is_told_to_be_an_httpx2_one() -> None:
    import httpx

    from mcp_client import StreamableHTTPTransport
    from mcp_client._transports.http_sse import SSETransport

    async with httpx.AsyncClient() as old:
        for transport in (StreamableHTTPTransport, SSETransport):
            with pytest.raises(TypeError) as caught:
                transport("http://127.0.0.1:9/mcp", http_client=old)  # type: ignore[arg-type]
            said = str(caught.value)
            assert said.startswith("http_client is an httpx.AsyncClient; mcp_client sends with httpx2")
            assert "pass httpx2.AsyncClient(...) with the same arguments" in said


def test_option_mistakes_are_clear(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no such CA bundle"):
        Client("https://127.0.0.1:9/mcp", verify=str(tmp_path / "missing.pem"))
    with pytest.raises(ValueError, match="cert: no such file"):
        Client("https://127.0.0.1:9/mcp", cert=str(tmp_path / "client.pem"))
    with pytest.raises(ValueError, match="configure verify inside the factory"):
        HttpOptions(verify=False, httpx_client_factory=lambda **_: None)  # type: ignore[arg-type, return-value]
    with pytest.raises(ValueError, match="proxy must be an http"):
        Client("https://127.0.0.1:9/mcp", proxy="127.0.0.1:3128")


def test_options_with_a_ready_transport_are_never_dropped() -> None:
    from mcp_client import StreamableHTTPTransport

    ready = StreamableHTTPTransport("http://127.0.0.1:9/mcp")
    with pytest.raises(ValueError, match=r"headers and auth cannot apply to a ready transport: pass them"):
        Client(ready, headers={"x": "1"}, auth=lambda request: request)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="verify/cert/proxy"):
        Client(ready, verify=False)


async def test_oauth_requests_trust_the_same_ca(server_cert: tuple[str, str], ca_file: Path) -> None:
    """Discovery, registration, authorization and token requests go to an HTTPS authorization server
    behind the same private CA: with the CA given once to Client, the login completes."""
    from mcp_client.auth import OAuth
    from tests.support.servers import SERVERS_DIR

    context = ssl.create_default_context(cafile=str(ca_file))

    async def browser(authorization_url: str) -> str:
        import httpx2

        async with httpx2.AsyncClient(verify=context, follow_redirects=False, timeout=30) as http:
            return (await http.get(authorization_url)).headers["location"]

    with https_server(SERVERS_DIR / "oauth_server.py", server_cert) as plain_url:
        url = plain_url.replace("http://", "https://")
        with anyio.fail_after(TEST_TIMEOUT):
            async with Client(
                url, mode="legacy", verify=str(ca_file), auth=OAuth("tls", authorize=browser)
            ) as client:
                who = text_of(await client.call_tool("whoami", {}))
        assert who.startswith("client=") and "scopes=mcp:tools" in who
