"""A real headless Chromium (Debian's ``chromium`` + ``chromium-driver``), driven by Selenium.

Tests of ``BrowserFormAdapter`` use it as the person at the keyboard: the adapter's ``open_browser``
hook loads the page in this browser, and the test clicks and types. Selenium is synchronous, so every
browser step runs in a worker thread (``Browser.run``) while the client and the page server go on in
the event loop. The browser only ever loads loopback pages; its background traffic is switched off.

``bash scripts/test`` installs the two Debian packages. Without them the browser tests are skipped
locally and fail under CI (``CI`` set), so a CI run can never pass without having run them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import anyio
import pytest

from tests.support import temp

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--lang=en-US",
    "--window-size=720,1000",
]
STEP_TIMEOUT = 20.0  # seconds for one browser step (a page load, a wait for some text)

_T = TypeVar("_T")


def wait_until(driver: Any, condition: Callable[[Any], _T | bool], timeout: float = STEP_TIMEOUT) -> _T:
    """Selenium's wait, riding out a page that re-renders while it is read.

    A page that replaces its content (the form closing, a view loading) turns an element found a moment
    ago stale; Selenium's own wait only rides out an element not found yet, so a read racing the
    re-render failed a test on a busy machine (CI, stop 48). The condition is simply asked again.
    """
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    ignored = (NoSuchElementException, StaleElementReferenceException)
    return WebDriverWait(driver, timeout, ignored_exceptions=ignored).until(condition)  # type: ignore[no-any-return]


def closed_text(driver: Any) -> str:
    """The text a page shows once it is done (its ``#closed`` element, shown and not empty)."""

    def shown(d: Any) -> str | bool:
        element = d.find_element("id", "closed")
        return element.text if element.is_displayed() and element.text else False

    return wait_until(driver, shown)


# Run in every document of a watched tab before the page's own scripts (over the DevTools protocol, so
# the page's CSP does not apply): counts the page's event streams that have opened.
_COUNT_STREAMS = """
if (!window.__testStreams) {
  window.__testStreams = {opened: 0};
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("open", () => { window.__testStreams.opened += 1; });
    }
  };
}
"""


def watch_streams(driver: Any) -> None:
    """Count the event streams of the pages the current tab loads from now on (``stream_opened``)."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _COUNT_STREAMS})


def stream_opened(driver: Any, timeout: float = STEP_TIMEOUT) -> None:
    """Wait until the page in the current tab has its event stream open.

    Our pages tell their server the tab is there by holding an event stream open, and a tab closed
    before its stream ever opened is never noticed: a test that closes or reloads a tab waits for this
    first (a fixed sleep was too short on a busy machine).
    """
    wait_until(driver, lambda d: d.execute_script("return (window.__testStreams || {}).opened > 0"), timeout)


def _missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not path.exists():
            return f"{path} is missing: apt-get install chromium chromium-driver (bash scripts/test does)"
    try:
        import selenium  # noqa: F401  # pyright: ignore[reportUnusedImport]
    except ImportError:
        return "selenium is not installed: pip install -e '.[test]'"
    return None


class Browser:
    """One Chromium window; ``open`` is what ``BrowserFormAdapter(open_browser=...)`` calls."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver
        self.opened: list[str] = []
        self._opened = anyio.Event()
        self.new_tab = False

    def reset(self, *, new_tab: bool = False) -> None:
        """Before each test: forget earlier pages; ``new_tab`` opens the next page in its own tab."""
        self.opened = []
        self._opened = anyio.Event()
        self.new_tab = new_tab

    async def open(self, url: str) -> None:
        def load() -> None:
            if self.new_tab:
                self.driver.switch_to.new_window("tab")
                watch_streams(self.driver)
            self.driver.get(url)

        await anyio.to_thread.run_sync(load)
        self.opened.append(url)
        self._opened.set()

    async def wait_opened(self) -> str:
        with anyio.fail_after(STEP_TIMEOUT):
            await self._opened.wait()
        return self.opened[-1]

    async def run(self, step: Callable[..., _T], *args: Any) -> _T:
        """Run a synchronous Selenium step in a worker thread."""
        return await anyio.to_thread.run_sync(step, *args)


@pytest.fixture(scope="session")
def _chromium() -> Iterator[Any]:
    problem = _missing()
    if problem is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the browser tests must run in CI: {problem}")
        pytest.skip(problem)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = temp.mkdtemp("chromium")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    driver.set_page_load_timeout(STEP_TIMEOUT)
    watch_streams(driver)  # the first tab, which every test keeps (new tabs are watched as they open)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def browser(_chromium: Any) -> Iterator[Browser]:
    """The shared Chromium, left with one blank tab after each test."""
    browser = Browser(_chromium)
    yield browser
    handles = _chromium.window_handles
    for handle in handles[1:]:
        _chromium.switch_to.window(handle)
        _chromium.close()
    _chromium.switch_to.window(handles[0])
    _chromium.get("about:blank")
