"""The "Writing a transport" example in docs/transports.md runs, in both eras, on public names alone.

The block is taken from the page as it stands and executed: an in-memory transport (a subclass of the
public ``mcp_client.Transport``) and a tiny in-process server whose one tool asks a question, pushed in
the legacy era and returned in 2026-07-28. The callback's answer must reach the tool in both.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import anyio
import pytest

pytestmark = pytest.mark.anyio

PAGE = Path(__file__).resolve().parents[1] / "docs" / "transports.md"


def _example() -> str:
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## Writing a transport", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_example_uses_public_names_only() -> None:
    code = _example()
    assert "from mcp_client import" in code
    assert not re.search(r"mcp_client\._|from mcp_client\.\w*_\w* import|import mcp_client\._", code)
    assert "class InMemoryTransport(Transport)" in code


async def test_the_documented_transport_runs_a_call_with_a_question_in_both_eras() -> None:
    namespace: dict[str, Any] = {"__name__": "docs_transports_example"}
    exec(compile(_example(), str(PAGE), "exec"), namespace)
    with anyio.fail_after(30):
        said = await namespace["main"]()
    assert said == ["legacy: booked", "modern: booked"]
