"""The OAuth flows as sans-IO generators: they yield what they need and are sent what came back.

A flow yields *steps* and is sent each step's answer:

=================  ============================================  =================================
step               what the driver does                          what it sends back
=================  ============================================  =================================
``HttpRequest``    sends it (bounded, no cross-origin redirect)  ``HttpResponse``
``OpenBrowser``    runs the ``authorize`` callback               the redirect URL (``str``)
``LoadClient``     reads the registration stored for an issuer   ``ClientRegistration | None``
``SaveClient``     stores a new registration                     ``None``
=================  ============================================  =================================

and finally returns its result (``StopIteration.value``). Everything decided here is decided on
values, so tests drive a flow with recorded responses and no sockets (``tests/auth``); the async
driver (``_runner``) is a loop of a dozen lines.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field, replace
from urllib.parse import urlsplit

from mcp_client._errors import OAuthError
from mcp_client.auth import _registration, _scopes, _tokens, _urls
from mcp_client.auth._authorize import authorization_url, read_redirect
from mcp_client.auth._challenge import Challenge
from mcp_client.auth._discovery import (
    Discovery,
    ServerMetadata,
    legacy_issuer,
    legacy_server_metadata,
    read_resource_metadata,
    read_server_metadata,
    resource_indicator,
    resource_metadata_urls,
    server_metadata_urls,
)
from mcp_client.auth._pkce import AuthorizationSecrets
from mcp_client.auth._reason import FIRST_LOGIN, LoginReason
from mcp_client.auth._records import ClientRegistration, Revocation, StoredTokens
from mcp_client.auth._registration import ClientSettings
from mcp_client.auth._wire import HttpRequest, HttpResponse, get_json, oauth_error_from


@dataclass(frozen=True, slots=True)
class OpenBrowser:
    """Send the person to ``url``; answer with the URL the browser was redirected back to.

    ``reason`` says why a login is needed now, for the person (``login_reason()`` while it runs).
    """

    url: str = field(repr=False)
    issuer: str
    redirect_uri: str
    reason: LoginReason = FIRST_LOGIN


@dataclass(frozen=True, slots=True)
class LoadClient:
    issuer: str


@dataclass(frozen=True, slots=True)
class SaveClient:
    issuer: str
    client: ClientRegistration


Step = HttpRequest | OpenBrowser | LoadClient | SaveClient


def fetch(request: HttpRequest) -> Generator[Step, object, HttpResponse]:
    reply = yield request
    if not isinstance(reply, HttpResponse):
        raise TypeError(f"a flow sent {request!r} was answered with {type(reply).__name__}")
    return reply


# ------------------------------------------------------------------------------------------ discovery


def discover(
    server_url: str, challenge: Challenge | None, *, answered_401: bool
) -> Generator[Step, object, Discovery]:
    """Protected resource metadata, then authorization server metadata (see ``_discovery``).

    ``answered_401``: the server did challenge us, so a server without any metadata is a 2025-03-26
    server (default endpoints on its origin). A proactive login (``OAuth.login``) that finds no
    metadata at all stops instead: the server may need no login.
    """
    _urls.web_url(server_url, "the MCP server URL")  # tokens go there: https, or this machine
    resource_metadata = None
    for url in resource_metadata_urls(server_url, challenge.resource_metadata if challenge else None):
        response = yield from fetch(get_json(url, "protected resource metadata"))
        resource_metadata = read_resource_metadata(response, server_url)
        if resource_metadata is not None:
            break
    legacy = resource_metadata is None
    issuer = (
        legacy_issuer(server_url) if resource_metadata is None else resource_metadata.authorization_servers[0]
    )
    server: ServerMetadata | None = None
    tried = server_metadata_urls(issuer)
    for url in tried:
        response = yield from fetch(get_json(url, "authorization server metadata"))
        server = read_server_metadata(response, issuer, legacy=legacy)
        if server is not None:
            break
    if server is None:
        if not legacy:
            raise OAuthError(
                f"the authorization server {issuer} named by {server_url} publishes no metadata "
                f"(tried {', '.join(tried)})"
            )
        if not answered_401:
            raise OAuthError(
                f"{server_url} publishes no OAuth metadata (protected resource or authorization server); "
                "it may not need a login"
            )
        server = legacy_server_metadata(server_url)
    return Discovery(resource_indicator(server_url, resource_metadata), resource_metadata, server)


# -------------------------------------------------------------------------------------------- login


@dataclass(frozen=True, slots=True)
class LoginRequest:
    """Everything a login needs to know before it starts.

    ``challenge`` is the Bearer challenge of the 401/403 that started it (``None`` for a proactive
    login). A ``step_up`` (403 ``insufficient_scope``) asks for ``previous_scope`` plus the challenge's
    scope, and reuses ``known`` discovery when there is one. ``default_redirect_uri`` makes a loopback
    redirect URI when none is configured or registered; ``clock`` gives wall-clock seconds.
    ``refused_client_id`` is a registration the authorization server no longer knows (``invalid_client``
    on a refresh): a stored registration with that id is not used, a new one is made. ``reason`` is
    shown to the person with the login page.
    """

    server_url: str
    settings: ClientSettings
    default_redirect_uri: Callable[[], str]
    clock: Callable[[], float]
    challenge: Challenge | None = None
    answered_401: bool = True
    step_up: bool = False
    previous_scope: str | None = None
    known: Discovery | None = None
    refused_client_id: str | None = None
    reason: LoginReason = FIRST_LOGIN


@dataclass(frozen=True, slots=True)
class LoginResult:
    tokens: StoredTokens
    discovery: Discovery
    requested_scope: str | None


def login(request: LoginRequest) -> Generator[Step, object, LoginResult]:
    """Discovery, scope choice, client identity, the browser step with PKCE, and the code exchange."""
    challenge = request.challenge
    if request.step_up and request.known is not None:
        discovery = request.known
    else:
        discovery = yield from discover(request.server_url, challenge, answered_401=request.answered_401)
    server = discovery.server
    resource_scopes = discovery.resource_metadata.scopes_supported if discovery.resource_metadata else None
    scope = _scopes.select(
        request.settings.scopes,
        challenge.scope if challenge else None,
        resource_scopes,
        server.scopes_supported,
    )
    if request.step_up:
        challenged = challenge.scope if challenge else None
        scope = _scopes.step_up(request.previous_scope, challenged, server.scopes_supported)
    client = yield from identify(request, server, scope)
    reason = request.reason
    while True:
        redirect_uri = client.redirect_uri or request.settings.redirect_uri or request.default_redirect_uri()
        secrets = AuthorizationSecrets.new()
        url = authorization_url(
            server,
            client_id=client.client_id,
            redirect_uri=redirect_uri,
            secrets=secrets,
            scope=scope,
            resource=discovery.resource,
        )
        reply = yield OpenBrowser(url, server.issuer, redirect_uri, reason)
        if not isinstance(reply, str):
            raise OAuthError(
                f"the authorize callback returned {type(reply).__name__}; it must return the redirect URL"
            )
        try:
            code = read_redirect(reply, secrets, server)
            break
        except OAuthError as exc:
            if (
                exc.error != "invalid_scope"
                or reason.kind == "register_again"
                or not is_registered(client, request)
            ):
                raise
            # The authorization server holds the client we registered to the scopes of the login it was
            # registered for (an earlier one): register again for these scopes and ask once more.
            request = replace(request, refused_client_id=client.client_id)
            client = yield from identify(request, server, scope)
            reason = LoginReason("register_again", scope=scope)
    exchange = _tokens.code_exchange(
        server.token_endpoint,
        client,
        code=code,
        verifier=secrets.verifier,
        redirect_uri=redirect_uri,
        resource=discovery.resource,
    )
    response = yield from fetch(exchange)
    tokens = _tokens.read_tokens(
        response,
        exchange,
        now=request.clock(),
        issuer=server.issuer,
        client=client,
        resource=discovery.resource,
        token_endpoint=server.token_endpoint,
        revocation_endpoint=server.revocation_endpoint,
        requested_scope=scope,
    )
    return LoginResult(tokens, discovery, scope)


def identify(
    request: LoginRequest, server: ServerMetadata, scope: str | None
) -> Generator[Step, object, ClientRegistration]:
    """Pre-registered, else metadata document, else stored for this issuer, else a new registration.

    A stored registration whose id the server refused (``request.refused_client_id``) is not used. A
    registration naming ``scope`` that the server refuses for it is made again without ``scope``.
    """
    settings = request.settings
    chosen = _registration.pre_registered(settings, server) or _registration.metadata_document_client(
        settings, server
    )
    if chosen is not None:
        return chosen
    stored = yield LoadClient(server.issuer)
    if stored is not None and not isinstance(stored, ClientRegistration):
        raise TypeError(f"LoadClient was answered with {type(stored).__name__}")
    if (
        _registration.stored_is_usable(stored, settings, request.clock())
        and stored is not None
        and stored.client_id != request.refused_client_id
    ):
        return stored
    redirect_uri = settings.redirect_uri or request.default_redirect_uri()
    registration = _registration.registration_request(server, settings, redirect_uri, scope)
    response = yield from fetch(registration)
    plain = _registration.without_scope(registration)
    if plain is not None and _registration.refused_for_scope(response):
        registration = plain  # the server keeps these scopes for resources, not for clients
        response = yield from fetch(registration)
    client = _registration.read_registration(response, registration, server, redirect_uri)
    yield SaveClient(server.issuer, client)
    return client


def is_registered(client: ClientRegistration, request: LoginRequest) -> bool:
    """True for a client this library registered (neither configured nor a metadata document URL)."""
    return client.client_id not in (request.settings.client_id, request.settings.client_metadata_url)


# ------------------------------------------------------------------------------------------ refresh


def client_for_tokens(
    tokens: StoredTokens, settings: ClientSettings
) -> Generator[Step, object, ClientRegistration | None]:
    """The client the tokens were issued to, as needed to refresh or revoke them; ``None`` if unknown."""
    client_id = tokens.client_id
    if client_id is None:
        return None
    if client_id == settings.client_id:
        return ClientRegistration(
            client_id=client_id,
            client_secret=settings.client_secret,
            token_endpoint_auth_method=tokens.client_auth_method
            or ("client_secret_basic" if settings.client_secret else "none"),
            issuer=tokens.issuer,
        )
    if client_id == settings.client_metadata_url:
        return ClientRegistration(
            client_id=client_id, token_endpoint_auth_method="none", issuer=tokens.issuer
        )
    if tokens.issuer is None:
        return None
    stored = yield LoadClient(tokens.issuer)
    if isinstance(stored, ClientRegistration) and stored.client_id == client_id:
        return stored
    return None


@dataclass(frozen=True, slots=True)
class Refused:
    """The token endpoint refused a refresh: ``error`` is its OAuth error code (``invalid_grant``...)."""

    status: int
    error: str | None
    client_id: str


def refresh(
    tokens: StoredTokens, settings: ClientSettings, clock: Callable[[], float]
) -> Generator[Step, object, StoredTokens | Refused | None]:
    """Fresh tokens from the refresh token; ``Refused`` when the server refused (log in again), ``None``
    when these tokens cannot be refreshed at all.

    A 5xx or 429 raises ``OAuthError``: a transient failure is not a reason to send a person to the
    browser again.
    """
    if not tokens.can_refresh:
        return None
    client = yield from client_for_tokens(tokens, settings)
    if client is None:
        return None
    request = _tokens.refresh(tokens, client)
    response = yield from fetch(request)
    if response.status >= 500 or response.status == 429:
        raise OAuthError(
            f"the token endpoint at {response.shown_url} failed to refresh the tokens "
            f"(HTTP {response.status}); try again later"
        )
    if response.status != 200:
        return Refused(response.status, oauth_error_from(response, "token endpoint").error, client.client_id)
    assert tokens.token_endpoint is not None
    return _tokens.read_tokens(
        response,
        request,
        now=clock(),
        issuer=tokens.issuer,
        client=client,
        resource=tokens.resource,
        token_endpoint=tokens.token_endpoint,
        revocation_endpoint=tokens.revocation_endpoint,
        requested_scope=tokens.scope,
        previous=tokens,
    )


def revoke(tokens: StoredTokens, settings: ClientSettings) -> Generator[Step, object, Revocation]:
    """Best-effort RFC 7009 revocation of the refresh and access tokens, and what the server answered.

    A server that refuses the client's registered secret method at its revocation endpoint (some want
    the secret in the form even from a ``client_secret_basic`` client) is asked once more with the
    other one.
    """
    if tokens.revocation_endpoint is None:
        return Revocation(
            not_tried="the authorization server offers no revocation", expires_at=tokens.expires_at
        )
    client = yield from client_for_tokens(tokens, settings)
    if client is None:
        return Revocation(
            not_tried="the client they were issued to is not known any more", expires_at=tokens.expires_at
        )
    revoked: list[str] = []
    refused: list[tuple[str, str]] = []
    pairs = [(tokens.refresh_token, "refresh_token"), (tokens.access_token, "access_token")]
    for token, hint in pairs:
        if not token:
            continue
        response = yield from fetch(_tokens.revocation(tokens.revocation_endpoint, client, token, hint))
        other = _other_secret_method(client)
        if response.status in (400, 401) and other is not None:
            response = yield from fetch(_tokens.revocation(tokens.revocation_endpoint, other, token, hint))
        name = hint.replace("_", " ")
        if response.status == 200:
            revoked.append(name)
        else:
            error = oauth_error_from(response, "revocation endpoint").error
            refused.append((name, error or f"HTTP {response.status}"))
    return Revocation(tuple(revoked), tuple(refused), expires_at=tokens.expires_at)


def _other_secret_method(client: ClientRegistration) -> ClientRegistration | None:
    swap = {"client_secret_basic": "client_secret_post", "client_secret_post": "client_secret_basic"}
    method = swap.get(client.token_endpoint_auth_method)
    if method is None or not client.client_secret:
        return None
    return replace(client, token_endpoint_auth_method=method)


# ------------------------------------------------------------------------------- client credentials


@dataclass(frozen=True, slots=True)
class ClientCredentialsRequest:
    server_url: str
    client_id: str
    client_secret: str | None = field(repr=False)
    scopes: tuple[str, ...] | None
    clock: Callable[[], float]
    challenge: Challenge | None = None
    known: Discovery | None = None
    private_key_jwt: bool = False


def client_credentials(
    request: ClientCredentialsRequest,
) -> Generator[Step, object, tuple[StoredTokens, Discovery]]:
    """Discovery (unless known), then the ``client_credentials`` grant (RFC 6749 section 4.4)."""
    discovery = request.known
    if discovery is None:
        discovery = yield from discover(request.server_url, request.challenge, answered_401=True)
    server = discovery.server
    settings = ClientSettings(
        "client-credentials",
        client_id=request.client_id,
        client_secret=request.client_secret,
        private_key_jwt=request.private_key_jwt,
    )
    client = _registration.pre_registered(settings, server)
    assert client is not None
    resource_scopes = discovery.resource_metadata.scopes_supported if discovery.resource_metadata else None
    challenged = request.challenge.scope if request.challenge else None
    scope = _scopes.select(request.scopes, challenged, resource_scopes, None)
    token_request = _tokens.client_credentials(
        server.token_endpoint, client, scope=scope, resource=discovery.resource
    )
    response = yield from fetch(token_request)
    tokens = _tokens.read_tokens(
        response,
        token_request,
        now=request.clock(),
        issuer=server.issuer,
        client=client,
        resource=discovery.resource,
        token_endpoint=server.token_endpoint,
        revocation_endpoint=server.revocation_endpoint,
        requested_scope=scope,
    )
    return tokens, discovery


def redirect_path(redirect_uri: str) -> str:
    """The path a loopback listener for ``redirect_uri`` must answer on."""
    return urlsplit(redirect_uri).path or "/"
