"""What the wire tests of the browser UIs' page servers share (``test_browser_form_http.py``,
``test_browser_approval_http.py``): a UI run in the background whose page an HTTP client reads instead
of a browser, and whose outcome the test then waits for."""

from __future__ import annotations

import re
from collections.abc import Awaitable
from typing import Generic, TypeVar
from urllib.parse import urlsplit

import anyio
import httpx

BOUND = 20
"""Seconds for a page to open and for the UI to end."""

ResultT = TypeVar("ResultT")


class OpenedPage(Generic[ResultT]):
    """The page a browser UI opened (``open_browser=self.open``), and what the UI returned once it ended.

    A subclass builds the UI with ``open_browser=self.open`` and runs it with ``await self.settle(...)``.
    """

    def __init__(self) -> None:
        self.urls: list[str] = []
        self.opened = anyio.Event()
        self.result: ResultT | None = None
        self.done = anyio.Event()

    def open(self, url: str) -> None:
        self.urls.append(url)
        self.opened.set()

    @property
    def url(self) -> str:
        return self.urls[-1]

    @property
    def origin(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"

    async def settle(self, outcome: Awaitable[ResultT]) -> None:
        """Await the UI's answer; ``done`` is set however it ends."""
        try:
            self.result = await outcome
        finally:
            self.done.set()

    async def page(self, http: httpx.AsyncClient) -> tuple[httpx.Response, str]:
        """The page, once opened, and its form's CSRF token."""
        with anyio.fail_after(BOUND):
            await self.opened.wait()
        response = await http.get(self.url)
        match = re.search(r'name="csrf" value="([^"]+)"', response.text)
        assert match is not None
        return response, match.group(1)

    async def outcome(self) -> ResultT:
        with anyio.fail_after(BOUND):
            await self.done.wait()
        assert self.result is not None
        return self.result
