"""Fixtures for the model-facing tests: a fake provider endpoint the real SDKs talk to, and the bistro
example server (its ``book_table`` asks the user a question when the date is full)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mcp_client import StdioServerParameters
from tests.llm.fake_provider import FakeProvider, running_fake_provider

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "servers"
BISTRO = StdioServerParameters(sys.executable, [str(EXAMPLES / "bistro.py")])


@pytest.fixture
def fake_provider() -> Iterator[FakeProvider]:
    with running_fake_provider() as provider:
        yield provider
