"""The workloads: which tool to call, with which arguments, and the one right answer.

Kept in a module with no third-party imports so every driver (and the fastmcp venv) can load it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Workload:
    name: str
    transport: str  # "http" | "stdio"
    tool: str
    concurrency: int
    legacy_only: bool = False
    description: str = ""

    def arguments(self, i: int) -> dict[str, str]:
        if self.tool == "echo":
            return {"text": f"hello {i}"}
        return {"item": f"item{i}"}

    def expected(self, i: int) -> str:
        if self.tool == "echo":
            return f"hello {i}"
        return f"done item{i}"


WORKLOADS: dict[str, Workload] = {
    w.name: w
    for w in [
        Workload("http-echo", "http", "echo", 1, description="echo over streamable HTTP, one call at a time"),
        Workload("stdio-echo", "stdio", "echo", 1, description="echo over stdio, one call at a time"),
        Workload(
            "http-elicit",
            "http",
            "confirm",
            1,
            description="Resolve(...) tool that asks one boolean question, answered by a canned callback",
        ),
        Workload(
            "http-elicit-ctx",
            "http",
            "confirm_ctx",
            1,
            legacy_only=True,
            description="ctx.elicit tool (legacy era only), answered by a canned callback",
        ),
        Workload("http-echo-c16", "http", "echo", 16, description="echo over HTTP, 16 calls in flight"),
    ]
}
