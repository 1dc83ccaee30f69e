"""Why a login is needed now, told to the browser step, so the person is not left guessing.

A first login, a saved login the authorization server refused (expired or revoked), a server that
asks for more permission (a step-up after ``403 insufficient_scope``) and a registration made again
all end in the same browser step; only the reason differs. The ``authorize`` callback keeps its one
argument (the URL): it reads the reason with ``login_reason()`` while it runs.
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal

__all__ = ["LoginReason", "login_reason"]

LoginKind = Literal["first", "refused", "expired", "step_up", "register_again"]


@dataclass(frozen=True, slots=True)
class LoginReason:
    """Why the person is sent to log in.

    ``kind``: ``"first"`` (no saved login), ``"refused"`` (the authorization server refused to renew the
    saved login: ``error`` holds its code, such as ``invalid_grant``), ``"expired"`` (the server no
    longer accepts the saved login and it cannot be renewed), ``"step_up"`` (the server asks for more
    permission: ``scope`` holds what it asks for), ``"register_again"`` (the authorization server
    refused this app's registration for these scopes; it was registered again).
    """

    kind: LoginKind
    error: str | None = None
    scope: str | None = None

    def describe(self) -> str:
        """One sentence for the person, e.g. "The server asks for more permission (mcp:admin)."."""
        if self.kind == "refused":
            code = f" ({self.error})" if self.error else ""
            return (
                f"Your saved login was refused by the authorization server{code}: it expired or was "
                "revoked. Log in again."
            )
        if self.kind == "expired":
            return "Your saved login has expired and cannot be renewed. Log in again."
        if self.kind == "step_up":
            wanted = f" ({self.scope})" if self.scope else ""
            return f"The server asks for more permission{wanted}. Log in again to grant it."
        if self.kind == "register_again":
            return (
                "The authorization server would not grant these permissions to this app's earlier "
                "registration; it was registered again. Log in once more."
            )
        return "This server needs you to log in."


FIRST_LOGIN = LoginReason("first")

_current: ContextVar[LoginReason | None] = ContextVar("mcp_client_login_reason", default=None)


def login_reason() -> LoginReason | None:
    """Why the login whose ``authorize`` callback is running was started; ``None`` outside one."""
    return _current.get()


@contextmanager
def telling(reason: LoginReason) -> Generator[None]:
    """``login_reason()`` returns ``reason`` inside this block (the driver wraps the callback in it)."""
    token = _current.set(reason)
    try:
        yield
    finally:
        _current.reset(token)
