"""Keeping a ``ClientGroup``'s servers alive: the background retries of a member that is down, and its health.

A member that fails to connect is tried again in the background, by the task that holds it, with the
same backoff as ``Client(reconnect=...)``: the waits grow from ``first_delay`` to ``max_delay``; after
``attempts`` failures in a row its state is ``"failed"`` but it is still tried every ``max_delay``
seconds (a server that starts late, or comes back after an outage, joins the group by itself).
While it is down, ``group.failures`` names it and why, its tools are left out of ``list_tools()``, and
a call of one of them fails at once. A connected member's own ``Client`` restarts its server on the
next request; ``health()`` reads that client's state too.
"""

from __future__ import annotations

import anyio

from mcp_client._client import Client
from mcp_client._connection.reconnect import Reconnect, ServerHealth
from mcp_client._errors import MCPClientError

__all__ = ["MemberKeeper", "client_health"]

_HEALTH_PING_SECONDS = 5.0
"""How long ``health()`` waits for a connected server's answer before calling it down."""


class MemberKeeper:
    """The failures in a row of one member that is down, and when it is tried next."""

    def __init__(self, policy: Reconnect) -> None:
        self.policy = policy
        self.failures = 0
        self.next_delay: float | None = None
        self.reason: str | None = None

    def failed(self, error: BaseException | None) -> float:
        """One more failure: how long to wait before the next attempt."""
        self.failures += 1
        self.reason = str(error) if error is not None else None
        self.next_delay = self.policy.delay(self.failures)
        return self.next_delay

    def connected(self) -> None:
        self.failures, self.next_delay, self.reason = 0, None, None

    @property
    def health(self) -> ServerHealth:
        if self.failures >= self.policy.attempts:
            return ServerHealth("failed", self.failures, self.next_delay, self.reason)
        return ServerHealth("reconnecting", self.failures, self.next_delay, self.reason)


async def client_health(client: Client) -> ServerHealth:
    """A connected client's state: it answers a ping (bounded), or what its reconnect says.

    While a reconnect is under way its state is given as it is (a ping would only queue behind it). A
    client whose reconnect gave up is pinged like any other: before ``max_delay`` has passed the ping
    fails at once (``failed``); after it, the ping is the request that tries again, so a server that
    came back reads ``connected`` without waiting for the app's next call. So is one whose reconnect
    was cancelled half-way (the ping's bound cut it short): the ping takes it up where it stopped.
    """
    supervisor = client._session.supervisor  # pyright: ignore[reportPrivateUsage]
    if supervisor is not None and supervisor.under_way:
        return supervisor.state
    try:
        with anyio.fail_after(_HEALTH_PING_SECONDS):
            await client.send_ping()
    except (MCPClientError, TimeoutError) as exc:
        if supervisor is not None and supervisor.state.state != "connected":
            return supervisor.state
        if isinstance(exc, TimeoutError):  # its message is empty: say what did not happen
            return ServerHealth("failed", 0, None, f"no answer to a ping within {_HEALTH_PING_SECONDS:g}s")
        return ServerHealth("failed", 0, None, str(exc) or type(exc).__name__)
    return ServerHealth("connected")
