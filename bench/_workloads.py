"""The workloads: which tool to call, with which arguments, and the one right answer.

Kept in a module with no third-party imports so every driver (and the fastmcp venv) can load it.
"""

from __future__ import annotations

from dataclasses import dataclass

FANOUT_ANSWER_DELAY_S = 0.010


@dataclass(frozen=True)
class Workload:
    name: str
    transport: str  # "http" | "stdio"
    tool: str
    concurrency: int
    legacy_only: bool = False
    description: str = ""
    answer_delay_s: float = 0.0
    """How long the driver's elicitation callback takes to answer (a person, a model, a lookup)."""
    fan_out: bool = False
    """A load level (``fanout-N``): N calls in flight, each asking; every call of the run is in flight
    at once at least once, peak RSS is also shown per waiting call, and a peer may fail it."""
    smoke: bool = False
    """Runs in ``--quick`` in place of the fan-out levels (and not in a full run)."""

    def calls_for(self, calls: int) -> int:
        """The calls a run makes: a fan-out level makes at least one per call in flight."""
        return max(calls, self.concurrency) if self.fan_out else calls

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
        *(
            Workload(
                f"fanout-{n}",
                "http",
                "confirm",
                n,
                description=f"{n} calls in flight over HTTP, each asking one question answered after 10 ms",
                answer_delay_s=FANOUT_ANSWER_DELAY_S,
                fan_out=True,
                smoke=smoke,
            )
            for n, smoke in ((1, False), (16, False), (128, False), (512, False), (4, True))
        ),
    ]
}


def default_workloads(quick: bool) -> list[str]:
    """What runs without ``--workloads``: every level in a full run; in ``--quick``, the tiny fan-out
    (4 calls in flight) instead of the real levels, so the smoke run stays short."""
    return [name for name, w in WORKLOADS.items() if (w.smoke if quick else not w.smoke) or not w.fan_out]
