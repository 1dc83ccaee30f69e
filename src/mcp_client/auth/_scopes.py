"""Which scopes to ask for (MCP "scope selection strategy", SEP-2207, SEP-2350). No I/O.

1. Scopes the application configured (``OAuth(scopes=...)``) are used as given.
2. Else the ``scope`` of the server's ``WWW-Authenticate`` challenge,
3. else every scope in the protected resource metadata's ``scopes_supported``,
4. else none: the ``scope`` parameter is omitted and the authorization server applies its default.

``offline_access`` is added (to a non-empty request) only when the authorization server lists it in
its own ``scopes_supported``: that is how a client asks for a refresh token without requesting a scope
the server does not know. A step-up after ``403 insufficient_scope`` asks for the union of what was
asked before and what the challenge names, so escalating one operation keeps the others working.
"""

from __future__ import annotations

from collections.abc import Sequence

OFFLINE_ACCESS = "offline_access"


def select(
    configured: Sequence[str] | None,
    challenged: str | None,
    resource_scopes: Sequence[str] | None,
    server_scopes: Sequence[str] | None,
) -> str | None:
    """The ``scope`` parameter to request, or ``None`` to omit it."""
    if configured is not None:
        return join(configured)
    chosen = challenged or (join(resource_scopes) if resource_scopes else None)
    if chosen and server_scopes is not None and OFFLINE_ACCESS in server_scopes:
        chosen = union(chosen, OFFLINE_ACCESS)
    return chosen


def union(first: str | None, second: str | None) -> str | None:
    """Both scope strings merged, first one's order kept, duplicates dropped; ``None`` if both are empty."""
    merged: list[str] = []
    for scope in (first or "").split() + (second or "").split():
        if scope not in merged:
            merged.append(scope)
    return " ".join(merged) or None


def join(scopes: Sequence[str] | str | None) -> str | None:
    if scopes is None:
        return None
    if isinstance(scopes, str):
        scopes = scopes.split()
    return union(" ".join(scopes), None)
