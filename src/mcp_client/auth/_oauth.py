"""``OAuth``: OAuth 2.1 authorization for ``Client(url, auth=OAuth(...))``, as an ``httpx2.Auth``.

The decisions live in sans-IO modules (``_discovery``, ``_scopes``, ``_registration``, ``_authorize``,
``_tokens``, ``_retry``, strung together in ``_flow``); this module keeps per-server state (tokens,
what discovery found, what was asked for) and drives them: attach the token, refresh it before it
expires, and on a 401 or a 403 ``insufficient_scope`` refresh or log in and retry the request once.

Tokens are attached only to requests for the server they were obtained for: state is kept per MCP
endpoint URL, and a response that comes from another origin (a redirect) never starts a login.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import anyio
import httpx2
import sniffio

from mcp_client._connection.http_options import DEFAULT_HTTP_OPTIONS, HttpOptions
from mcp_client._errors import OAuthError
from mcp_client.auth import _flow, _scopes, _urls
from mcp_client.auth._challenge import Challenge
from mcp_client.auth._discovery import Discovery
from mcp_client.auth._dpop import DPoPKey, ResourceNonceRetry, present_token
from mcp_client.auth._dpop_option import DPoPOption
from mcp_client.auth._jwt_assertion import ClientAssertion
from mcp_client.auth._loopback import loopback_redirect_uri, no_browser_step
from mcp_client.auth._reason import FIRST_LOGIN, LoginReason
from mcp_client.auth._records import Revocation, StoredTokens
from mcp_client.auth._registration import ClientSettings
from mcp_client.auth._retry import Attempts, Login, Pass, Refresh, after_response
from mcp_client.auth._runner import StepRunner
from mcp_client.auth._storage import InMemoryTokenStorage, SharedTokenStorage, TokenStorage
from mcp_client.auth._token_signing import TokenRequestSigner

__all__ = ["OAuth"]

_T = TypeVar("_T")

logger = logging.getLogger("mcp_client.auth")

REFRESH_MARGIN_SECONDS = 10.0
"""Tokens this close to expiry are refreshed before a request rather than after its 401."""


def server_key(url: str | httpx2.URL) -> str:
    """The key for one MCP endpoint in state and storage: its canonical URL (no fragment)."""
    return _urls.canonical_resource(str(url))


class _LoopLock:
    """An ``anyio.Lock`` made on first use, and made again if the OAuth object moves to another backend."""

    def __init__(self) -> None:
        self._lock: anyio.Lock | None = None
        self._backend: str | None = None

    def get(self) -> anyio.Lock:
        backend = sniffio.current_async_library()
        if self._lock is None or backend != self._backend:
            self._lock, self._backend = anyio.Lock(), backend
        return self._lock


@dataclass(slots=True)
class _Session:
    """What this OAuth object knows about one MCP server."""

    key: str
    tokens: StoredTokens | None = None
    discovery: Discovery | None = None
    requested_scope: str | None = None
    loaded: bool = False
    lock: _LoopLock = field(default_factory=_LoopLock)
    refusal: _flow.Refused | None = None  # the last refresh the authorization server refused
    refused_client_id: str | None = None  # a registration it no longer knows (invalid_client)
    dpop_key: DPoPKey | None = None  # the key the tokens are bound to (DPoP), if any


class OAuth(httpx2.Auth):
    """OAuth 2.1 for MCP servers that need a login: ``Client(url, auth=OAuth("My App"))``.

    On a 401 the flow discovers the server's authorization server, picks the scopes (``scopes``, else
    what the server asks for), identifies the client (``client_id``/``client_secret`` if given, else
    ``client_metadata_url`` where the server accepts Client ID Metadata Documents, else a registration
    stored for that server, else dynamic registration as ``client_name``), sends the person to log in
    (``authorize``), exchanges the code with PKCE, and retries the request. Tokens are refreshed
    before they expire and after a 401; a 403 ``insufficient_scope`` asks for the missing scopes.

    ``authorize(authorization_url) -> redirect_url`` is the browser step: it gets the full URL to open
    and returns the URL the browser came back to (with ``code``, ``state`` and maybe ``iss``). The
    default raises an ``OAuthError`` explaining how to get one: ``mcp_client`` has no user interface;
    ``ui_adapters.login.browser_login()`` is the terminal one. ``redirect_uri`` defaults to
    ``http://127.0.0.1:<free port>/callback``. ``storage`` (default ``InMemoryTokenStorage()``) keeps
    tokens and registrations; ``FileTokenStorage()`` keeps them across runs. ``timeout`` bounds each
    request to the authorization server (the browser step is not bounded: cancel it from outside).

    ``private_key`` (with ``client_id``) authenticates every token request with a signed
    ``private_key_jwt`` assertion instead of a secret: PEM text, a ``Path`` to a PEM file (refused if
    others can read it), a JWK dict, a cryptography key, or an async ``sign(claims) -> jwt`` callable
    for a key held by an HSM or a KMS; ``signing_algorithm`` overrides the one chosen for the key.
    ``dpop=True`` binds the tokens to a fresh ES256 key (RFC 9449; ``dpop=<key>`` to the app's own):
    every token request and every request to the server carries a new proof, and a generated key is
    stored with the tokens it binds. Both need the ``oauth-jwt`` extra (``pip install
    'mcp-elicit-client[oauth-jwt]'``).

    Only for ``httpx2.AsyncClient`` (the ``Client`` uses one). Everything that fails ends in
    ``OAuthError``; no token, code, verifier or secret ever appears in a message, a log line or a repr.
    """

    requires_request_body = False
    requires_response_body = False

    _http_options: HttpOptions = DEFAULT_HTTP_OPTIONS

    def use_http_options(self, options: HttpOptions) -> None:
        """Send discovery, registration, token and revocation requests as the MCP requests go.

        ``Client`` calls this with its own ``verify`` / ``cert`` / ``proxy`` / ``httpx_client_factory``, so
        a private CA or a proxy given once reaches the authorization server too.
        """
        self._http_options = options

    def __init__(
        self,
        client_name: str = "mcp-client",
        *,
        scopes: Sequence[str] | str | None = None,
        client_id: str | None = None,
        client_secret: str | None = None,
        client_metadata_url: str | None = None,
        redirect_uri: str | None = None,
        authorize: Callable[[str], Awaitable[str]] | None = None,
        storage: TokenStorage | None = None,
        timeout: float = 30.0,
        private_key: object | None = None,
        signing_algorithm: str | None = None,
        dpop: object = False,
    ) -> None:
        if client_secret is not None and client_id is None:
            raise ValueError("client_secret was given without client_id")
        if private_key is not None and client_id is None:
            raise ValueError(
                "private_key was given without client_id (the client registered with its public key)"
            )
        if private_key is not None and client_secret is not None:
            raise ValueError("pass client_secret or private_key, not both")
        if client_metadata_url is not None:
            parts = httpx2.URL(client_metadata_url)
            if parts.scheme != "https" or parts.path in ("", "/") or parts.fragment:
                raise ValueError(
                    "client_metadata_url must be an https URL with a path (the Client ID Metadata Document); "
                    f"got {client_metadata_url!r}"
                )
        if redirect_uri is not None:
            _check_redirect_uri(redirect_uri)
        if timeout <= 0:
            raise ValueError("timeout must be a positive number of seconds")
        selected = _scopes.join(scopes)
        self._settings = ClientSettings(
            client_name=client_name,
            scopes=tuple(selected.split()) if selected else (() if scopes is not None else None),
            client_id=client_id,
            client_secret=client_secret,
            client_metadata_url=client_metadata_url,
            redirect_uri=redirect_uri,
            private_key_jwt=private_key is not None,
        )
        self._assertion = (
            ClientAssertion(private_key, algorithm=signing_algorithm) if private_key is not None else None
        )
        self._dpop = DPoPOption(dpop)
        self._authorize = authorize if authorize is not None else no_browser_step
        self.storage: TokenStorage = storage if storage is not None else InMemoryTokenStorage()
        self._timeout = timeout
        self._sessions: dict[str, _Session] = {}
        self.clock: Callable[[], float] = time.time
        """Wall-clock seconds; tests may replace it to make tokens expire."""
        self.default_redirect_uri: Callable[[], str] = loopback_redirect_uri

    def __repr__(self) -> str:
        settings = self._settings
        who = (
            f"client_id={settings.client_id!r}"
            if settings.client_id
            else f"client_name={settings.client_name!r}"
        )
        secret = ", client_secret=<hidden>" if settings.client_secret else ""
        secret += ", private_key=<hidden>" if self._assertion is not None else ""
        secret += ", dpop=True" if self._dpop.enabled else ""
        return f"OAuth({who}{secret}, storage={self.storage!r})"

    # ----------------------------------------------------------------------------------- public API

    async def login(self, server_url: str) -> StoredTokens:
        """Log in to ``server_url`` now, without waiting for a 401 (``mcp-client login``).

        Discovery starts from the server's well-known metadata; a server that publishes none gets an
        ``OAuthError`` (it may need no login). The tokens are stored and returned.
        """
        session = await self._session(server_key(server_url))
        async with session.lock.get():
            await self._login(session, None, step_up=False, answered_401=False, reason=FIRST_LOGIN)
        assert session.tokens is not None
        return session.tokens

    async def logout(self, server_url: str, *, revoke: bool = True) -> bool:
        """Forget the tokens and registrations for ``server_url``; revoke the tokens first if the server
        supports it (RFC 7009, best effort: ``revoke()`` says what the server answered). True if there
        was anything to forget. Storage that holds nothing for the server is left untouched."""
        if revoke:
            await self.revoke(server_url)
        session = await self._session(server_key(server_url))
        async with session.lock.get():
            had = session.tokens is not None
            await self.storage.clear(session.key)
            self._sessions.pop(session.key, None)
        return had

    async def revoke(self, server_url: str) -> Revocation:
        """Ask the authorization server to revoke the tokens held for ``server_url`` (RFC 7009), keeping
        them here; the ``Revocation`` says which it revoked and which it refused, and why."""
        session = await self._session(server_key(server_url))
        async with session.lock.get():
            tokens = session.tokens
            if tokens is None:
                return Revocation(not_tried="there is no saved login")
            try:
                return await self._run(session, _flow.revoke(tokens, self._settings))
            except OAuthError as exc:
                logger.info("could not revoke the tokens for %s: %s", session.key, exc)
                return Revocation(not_tried=str(exc), expires_at=tokens.expires_at)

    async def get_tokens(self, server_url: str) -> StoredTokens | None:
        """The tokens held for ``server_url`` (from storage on first use), or ``None``."""
        return (await self._session(server_key(server_url))).tokens

    # -------------------------------------------------------------------------------- httpx2.Auth

    def sync_auth_flow(self, request: httpx2.Request) -> Generator[httpx2.Request, httpx2.Response, None]:
        raise OAuthError("OAuth works with httpx2.AsyncClient only (mcp_client.Client uses one)")
        yield request  # pragma: no cover  (makes this a generator)

    async def async_auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        session = await self._session(server_key(request.url))
        await self._refresh_if_expiring(session)
        attempts = Attempts()
        nonce_retry = ResourceNonceRetry(self._dpop.nonces)
        while True:
            sent = self._attach(request, session)
            response = yield request
            if not _urls.same_origin(str(response.url), str(request.url)):
                return  # redirected elsewhere: no token went there, and no login starts for it
            if nonce_retry.should_retry(response, sent is not None and "DPoP" in request.headers):
                continue  # the server wants its DPoP nonce in the proof: once more, with a new proof
            action = after_response(
                response.status_code,
                tuple(response.headers.get_list("www-authenticate")),
                server=session.key,
                sent_token=sent is not None,
                can_refresh=session.tokens is not None and session.tokens.can_refresh,
                attempts=attempts,
            )
            if isinstance(action, Pass):
                return
            await self._recover(session, action, sent, attempts)

    # -------------------------------------------------------------------------------- internals

    def _attach(self, request: httpx2.Request, session: _Session) -> str | None:
        tokens = session.tokens
        if tokens is None or not _urls.same_origin(str(request.url), session.key):
            request.headers.pop("Authorization", None)
            return None
        present_token(request, tokens, session.dpop_key, self._dpop.nonces)
        return tokens.access_token

    async def _session(self, key: str) -> _Session:
        session = self._sessions.get(key)
        if session is None:
            session = self._sessions[key] = _Session(key)
        if not session.loaded:
            async with session.lock.get():
                if not session.loaded:
                    session.tokens = await self.storage.get_tokens(key)
                    if session.tokens is not None:
                        session.requested_scope = session.tokens.scope
                        session.dpop_key = self._dpop.key_for_stored(session.tokens)
                    session.loaded = True
        return session

    async def _refresh_if_expiring(self, session: _Session) -> None:
        tokens = session.tokens
        if (
            tokens is None
            or not tokens.can_refresh
            or not tokens.expires_within(REFRESH_MARGIN_SECONDS, self.clock())
        ):
            return
        async with session.lock.get():
            if session.tokens is tokens:
                try:
                    await self._refresh(session)
                except OAuthError as exc:
                    logger.info(
                        "could not refresh the tokens for %s before they expire: %s", session.key, exc
                    )

    async def _recover(
        self, session: _Session, action: Refresh | Login, sent: str | None, attempts: Attempts
    ) -> None:
        async with session.lock.get():
            current = session.tokens.access_token if session.tokens is not None else None
            if current is not None and current != sent:
                # Another request refreshed or logged in while this one waited: just retry with that.
                if isinstance(action, Refresh):
                    attempts.refreshed = True
                else:
                    attempts.logins += 1
                return
            if isinstance(action, Refresh):
                attempts.refreshed = True
                if await self._refresh(session):
                    return
                action = Login(action.challenge, step_up=False)
            attempts.logins += 1
            reason = self._reason(session, action, sent)
            await self._login(
                session, action.challenge, step_up=action.step_up, answered_401=True, reason=reason
            )

    @staticmethod
    def _reason(session: _Session, action: Login, sent: str | None) -> LoginReason:
        if action.step_up:
            return LoginReason("step_up", scope=action.challenge.scope if action.challenge else None)
        if session.refusal is not None:
            return LoginReason("refused", error=session.refusal.error)
        if sent is not None:
            return LoginReason("expired")
        return FIRST_LOGIN

    def _refresh_lock(self, key: str) -> contextlib.AbstractAsyncContextManager[None]:
        if isinstance(self.storage, SharedTokenStorage):
            return self.storage.refresh_lock(key)
        return contextlib.nullcontext()

    async def _refresh(self, session: _Session) -> bool:
        """Refresh the tokens (True if there are good tokens now), one process at a time.

        With a storage other processes share, the saved tokens are read again under its lock first:
        if another process refreshed them meanwhile, those are used. Presenting the refresh token it
        rotated out would make the authorization server revoke the login for everyone.
        """
        if session.tokens is None:
            return False
        async with self._refresh_lock(session.key):
            if isinstance(self.storage, SharedTokenStorage):
                stored = await self.storage.get_tokens(session.key)
                if stored is not None and stored.access_token != session.tokens.access_token:
                    session.tokens = stored
                    session.dpop_key = self._dpop.key_for_stored(stored)
                    session.refusal = None
                    if not stored.expires_within(REFRESH_MARGIN_SECONDS, self.clock()):
                        logger.info("using the tokens another process renewed for %s", session.key)
                        return True
            tokens = session.tokens
            result = await self._run(session, _flow.refresh(tokens, self._settings, self.clock))
            if isinstance(result, _flow.Refused):
                self._refused(session, tokens, result)
                return False
            if result is None:
                logger.info("the tokens for %s cannot be refreshed", session.key)
                return False
            result = self._dpop.bind(result, session.dpop_key)
            session.tokens = result
            session.refusal = None
            await self.storage.set_tokens(session.key, result)
        logger.info("refreshed the tokens for %s", session.key)
        return True

    def _refused(self, session: _Session, tokens: StoredTokens, refusal: _flow.Refused) -> None:
        """Remember a refused refresh: its refresh token is dead, and maybe the registration is too."""
        code = refusal.error or f"HTTP {refusal.status}"
        logger.info("the authorization server refused to refresh the tokens for %s (%s)", session.key, code)
        session.refusal = refusal
        session.tokens = tokens.with_changes(refresh_token=None)  # never presented again
        if refusal.error != "invalid_client":
            return
        if refusal.client_id in (self._settings.client_id, self._settings.client_metadata_url):
            raise OAuthError(
                f"the authorization server {tokens.issuer} does not accept the client {refusal.client_id!r} "
                "(invalid_client): check the client_id and client_secret given to OAuth()",
                error="invalid_client",
            )
        # A registration the server forgot (restarted, or the registration expired): register again.
        logger.info(
            "the authorization server no longer knows client %s; registering again", refusal.client_id
        )
        session.refused_client_id = refusal.client_id

    async def _login(
        self,
        session: _Session,
        challenge: Challenge | None,
        *,
        step_up: bool,
        answered_401: bool,
        reason: LoginReason,
    ) -> None:
        previous = None
        if step_up:
            granted = session.tokens.scope if session.tokens is not None else None
            previous = _scopes.union(session.requested_scope, granted)
        request = _flow.LoginRequest(
            server_url=session.key,
            settings=self._settings,
            default_redirect_uri=self.default_redirect_uri,
            clock=self.clock,
            challenge=challenge,
            answered_401=answered_401,
            step_up=step_up,
            previous_scope=previous,
            known=session.discovery,
            refused_client_id=session.refused_client_id,
            reason=reason,
        )
        if session.dpop_key is None:
            session.dpop_key = self._dpop.key_for_login()
        result = await self._run(session, _flow.login(request))
        tokens = self._dpop.bind(result.tokens, session.dpop_key)
        session.tokens = tokens
        session.discovery = result.discovery
        session.requested_scope = result.requested_scope
        session.refusal = None
        session.refused_client_id = None
        await self.storage.set_tokens(session.key, tokens)
        logger.info("logged in to %s at %s", session.key, result.discovery.server.issuer)

    async def _run(self, session: _Session, flow: Generator[_flow.Step, object, _T]) -> _T:
        signer = TokenRequestSigner(
            assertion=self._assertion, dpop=session.dpop_key, nonces=self._dpop.nonces
        )
        async with self._http_options.client(timeout=self._timeout) as http:
            return await StepRunner(http, self.storage, session.key, self._authorize, signer=signer).run(flow)


def _check_redirect_uri(redirect_uri: str) -> None:
    parts = httpx2.URL(redirect_uri)
    if not parts.scheme:
        raise ValueError(f"redirect_uri must be an absolute URL; got {redirect_uri!r}")
    if parts.fragment:
        raise ValueError("redirect_uri must not have a fragment")
    if parts.scheme == "http" and not _urls.is_loopback_host(parts.host):
        raise ValueError("an http redirect_uri must point to this machine (127.0.0.1, [::1] or localhost)")
