"""``--ca-bundle``, ``--insecure``, ``--proxy`` and the environment (``SSL_CERT_FILE``, ``HTTP_PROXY``).

The HTTPS server has a certificate from a throwaway CA (``trustme``), the proxy is ``proxy.py`` on
loopback whose access log shows what it carried: the fixtures of ``tests/core/test_tls_and_proxy.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli._cli import run_cli
from tests.core.test_tls_and_proxy import (  # noqa: F401  (fixtures)
    Proxy,
    ca,
    ca_file,
    http_url,
    https_url,
    proxy,
    server_cert,
)
from tests.support.servers import LOOPBACK

COUNT = ("count", "steps=2", "interval=0")


def test_a_private_ca_is_refused_without_the_bundle(https_url: str) -> None:  # noqa: F811
    done = run_cli("call", https_url, *COUNT)
    assert done.returncode == 3
    assert "certificate" in done.stderr.lower()


def test_ca_bundle(https_url: str, ca_file: Path) -> None:  # noqa: F811
    done = run_cli("call", "--ca-bundle", str(ca_file), https_url, *COUNT)
    assert done.returncode == 0, done.stderr
    assert "counted to 2" in done.stdout


def test_ssl_cert_file_from_the_environment(https_url: str, ca_file: Path) -> None:  # noqa: F811
    done = run_cli("call", https_url, *COUNT, env={"SSL_CERT_FILE": str(ca_file)})
    assert done.returncode == 0, done.stderr
    assert "counted to 2" in done.stdout


def test_insecure_warns_on_stderr(https_url: str) -> None:  # noqa: F811
    done = run_cli("call", "--insecure", "--json", https_url, *COUNT)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["content"][0]["text"] == "counted to 2"  # stdout stays clean
    assert "warning: --insecure: the server's TLS certificate is not checked" in done.stderr


def test_insecure_and_ca_bundle_contradict(https_url: str, ca_file: Path) -> None:  # noqa: F811
    done = run_cli("tools", "--insecure", "--ca-bundle", str(ca_file), https_url)
    assert done.returncode == 2
    assert "--insecure and --ca-bundle contradict each other" in done.stderr


def test_proxy_carries_the_requests(http_url: str, proxy: Proxy) -> None:  # noqa: F811
    done = run_cli("call", "--proxy", proxy.url, http_url, *COUNT)
    assert done.returncode == 0, done.stderr
    port = http_url.split(":")[2].split("/")[0]
    assert f"POST {LOOPBACK}:{port}/mcp" in proxy.wait_for("POST")


def test_http_proxy_from_the_environment(http_url: str, proxy: Proxy) -> None:  # noqa: F811
    done = run_cli("tools", http_url, env={"HTTP_PROXY": proxy.url, "NO_PROXY": "", "no_proxy": ""})
    assert done.returncode == 0, done.stderr
    assert "/mcp" in proxy.wait_for("/mcp")


def test_https_through_the_proxy_for_every_server_of_a_config(
    https_url: str,  # noqa: F811
    ca_file: Path,  # noqa: F811
    proxy: Proxy,  # noqa: F811
    tmp_path: Path,
) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"features": {"url": https_url}}}), encoding="utf-8")
    done = run_cli("servers", "--config", str(config), "--ca-bundle", str(ca_file), "--proxy", proxy.url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("features  connected")
    port = https_url.split(":")[2].split("/")[0]
    assert f"CONNECT {LOOPBACK}:{port}" in proxy.wait_for("CONNECT")


@pytest.mark.parametrize("flag", ["--insecure", "--proxy"])
def test_the_options_are_in_the_help(flag: str) -> None:
    assert flag in run_cli("call", "--help").stdout
