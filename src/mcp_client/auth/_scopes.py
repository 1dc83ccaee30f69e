"""Which scopes to ask for (MCP "scope selection strategy", SEP-2207, SEP-2350). No I/O.

1. Scopes the application configured (``OAuth(scopes=...)``, ``mcp-client login --scope``),
2. else the ``scope`` of the server's ``WWW-Authenticate`` challenge,
3. else every scope in the protected resource metadata's ``scopes_supported``,
4. else none: the ``scope`` parameter is omitted and the authorization server applies its default.

``offline_access`` is added (to a non-empty request, configured or not) only when the authorization
server lists it in its own ``scopes_supported``: that is how a client asks for a refresh token without
requesting a scope the server does not know. A step-up after ``403 insufficient_scope`` asks for the
union of what was asked before and what the challenge names, so escalating one operation keeps the
others working; it keeps ``offline_access`` by the same rule, even when "what was asked before" had to
be rebuilt from the scopes granted (which never hold ``offline_access``) in a later process, so the
step-up's tokens can still be refreshed.
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
        chosen = join(configured)
    else:
        chosen = challenged or (join(resource_scopes) if resource_scopes else None)
    return with_offline_access(chosen, server_scopes)


def step_up(previous: str | None, challenged: str | None, server_scopes: Sequence[str] | None) -> str | None:
    """A step-up's scope: what was asked before plus what the challenge names, ``offline_access`` kept."""
    return with_offline_access(union(previous, challenged), server_scopes)


def with_offline_access(scope: str | None, server_scopes: Sequence[str] | None) -> str | None:
    """``scope`` plus ``offline_access`` when it is not empty and the authorization server lists it."""
    if scope and server_scopes is not None and OFFLINE_ACCESS in server_scopes:
        return union(scope, OFFLINE_ACCESS)
    return scope


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
