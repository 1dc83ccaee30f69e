"""What to do after the MCP server answered an authorized request: the retry policy, with no I/O.

One request may cause at most one token refresh and ``MAX_LOGINS`` logins (a login after a 401, a
step-up after a 403 ``insufficient_scope``), each followed by one retry of the request. A 401 after a
login is final (the server refuses the token it just issued), and so is a third ``insufficient_scope``:
the caller gets an ``OAuthError``, not an endless loop of browser windows.
"""

from __future__ import annotations

from dataclasses import dataclass

from mcp_client._errors import OAuthError
from mcp_client.auth._challenge import Challenge, bearer_challenge

MAX_LOGINS = 2


@dataclass(slots=True)
class Attempts:
    """What has been tried for one request so far."""

    refreshed: bool = False
    logins: int = 0


@dataclass(frozen=True, slots=True)
class Pass:
    """Hand the response to the caller as it is."""


@dataclass(frozen=True, slots=True)
class Refresh:
    """Refresh the tokens, then retry (log in instead if the refresh fails)."""

    challenge: Challenge | None


@dataclass(frozen=True, slots=True)
class Login:
    """Log in (``step_up``: asking for more scopes), then retry."""

    challenge: Challenge | None
    step_up: bool


Action = Pass | Refresh | Login


def after_response(
    status: int,
    www_authenticate: tuple[str, ...],
    *,
    server: str,
    sent_token: bool,
    can_refresh: bool,
    attempts: Attempts,
) -> Action:
    """The next move for a response with ``status`` (``OAuthError`` when the limits are reached)."""
    if status not in (401, 403):
        return Pass()
    challenge = bearer_challenge(www_authenticate)
    if status == 403:
        if challenge is None or challenge.error != "insufficient_scope":
            return Pass()  # a plain "forbidden": not something a login can fix
        if attempts.logins >= MAX_LOGINS:
            needed = f" (it asks for {challenge.scope!r})" if challenge.scope else ""
            raise OAuthError(
                f"{server} still refuses the request for insufficient scope after {attempts.logins} "
                f"authorizations{needed}; giving up"
            )
        return Login(challenge, step_up=sent_token)
    if attempts.logins:
        raise OAuthError(f"{server} rejected the token it had just issued (401 Unauthorized); giving up")
    if sent_token and can_refresh and not attempts.refreshed:
        return Refresh(challenge)
    return Login(challenge, step_up=False)
