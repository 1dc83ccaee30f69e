"""The OAuth flow's decisions, one rule at a time, on values: no sockets, no servers.

Documents come from the recorded conformance exchanges (``tests/fixtures/auth``) and are then bent
the way a hostile or broken server would bend them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_client import MCPClientError, OAuthError
from mcp_client.auth import _flow, _scopes, _urls
from mcp_client.auth._authorize import authorization_url, read_redirect
from mcp_client.auth._challenge import bearer_challenge, parse_challenges
from mcp_client.auth._discovery import (
    ServerMetadata,
    read_resource_metadata,
    read_server_metadata,
    resource_metadata_urls,
)
from mcp_client.auth._flow import LoadClient, LoginRequest, OpenBrowser, SaveClient
from mcp_client.auth._pkce import AuthorizationSecrets, s256
from mcp_client.auth._records import ClientRegistration, StoredTokens
from mcp_client.auth._registration import ClientSettings, read_registration, registration_request
from mcp_client.auth._retry import Attempts, Login, Pass, Refresh, after_response
from mcp_client.auth._tokens import code_exchange, read_tokens
from mcp_client.auth._wire import MAX_DOCUMENT_BYTES, HttpRequest, HttpResponse, oauth_error_from

FIXTURE = (
    Path(__file__).resolve().parents[1] / "fixtures" / "auth" / "2026-07-28" / "auth_metadata-default.json"
)
SERVER = "http://localhost:38663/mcp"


def _recorded() -> list[dict[str, Any]]:
    return json.loads(FIXTURE.read_text())["episodes"][0]["steps"]


def _recorded_document(kind: str) -> tuple[str, dict[str, Any]]:
    purpose = {"prm": "protected resource metadata", "as": "authorization server metadata"}[kind]
    for step in _recorded():
        if step["step"].get("purpose") == purpose and step["reply"]["status"] == 200:
            return step["reply"]["url"], json.loads(step["reply"]["body"])
    raise AssertionError(f"no recorded {purpose}")


def _response(url: str, document: object, status: int = 200) -> HttpResponse:
    body = document if isinstance(document, bytes) else json.dumps(document).encode()
    return HttpResponse(status=status, url=url, body=body)


def _server_url_of_recording() -> str:
    return _recorded()[0]["step"]["url"].replace("/.well-known/oauth-protected-resource", "")


# ------------------------------------------------------------------------------------------ challenge


def test_bearer_challenge_fields_are_read_among_other_schemes() -> None:
    header = (
        'Basic realm="x", Bearer error="insufficient_scope", scope="files:read  files:write", '
        'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"'
    )
    challenge = bearer_challenge([header, "DPoP algs=ES256"])
    assert challenge is not None
    assert challenge.error == "insufficient_scope"
    assert challenge.scope == "files:read files:write"
    assert challenge.resource_metadata == "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"


@pytest.mark.parametrize(
    "header",
    [
        'Bearer scope="unterminated',
        '"',
        "Bearer ,,,, =",
        "Bearer " + "a" * 9000,
        "\x00\x01",
        "Negotiate abc==",
    ],
)
def test_malformed_challenges_never_raise(header: str) -> None:
    challenges = parse_challenges([header])
    assert all(c.scheme for c in challenges)


def test_quoted_values_unescape() -> None:
    challenge = bearer_challenge(['Bearer realm="a \\"b\\"", scope=unquoted'])
    assert challenge is not None and challenge.params["realm"] == 'a "b"' and challenge.scope == "unquoted"


# ------------------------------------------------------------------------------------------------ urls


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "javascript:alert(1)",
        "data:text/html,hi",
        "ftp://as.example.com/token",
        "http://as.example.com/token",  # plain http off this machine
        "https://user:pw@as.example.com/token",
        "https://as.example.com/token#frag",
        "https://as.example.com/to ken",
        "https://as.example.com\\@evil.example/token",
        "https:///no-host",
        "https://as.example.com:99999/token",
        "",
        None,
        42,
    ],
)
def test_unusable_endpoint_urls_are_refused(url: object) -> None:
    with pytest.raises(OAuthError):
        _urls.web_url(url, "the token endpoint")


@pytest.mark.parametrize(
    "url",
    ["https://as.example.com/token", "http://127.0.0.1:9/t", "http://localhost:9/t", "http://[::1]:9/t"],
)
def test_https_and_loopback_http_are_allowed(url: str) -> None:
    assert _urls.web_url(url, "the token endpoint") == url


def test_well_known_urls_path_aware_first_and_never_the_root_of_a_tenant_issuer() -> None:
    assert _urls.protected_resource_metadata_urls("https://h.example/a/mcp/") == [
        "https://h.example/.well-known/oauth-protected-resource/a/mcp",
        "https://h.example/.well-known/oauth-protected-resource",
    ]
    assert _urls.authorization_server_metadata_urls("https://h.example/tenant1") == [
        "https://h.example/.well-known/oauth-authorization-server/tenant1",
        "https://h.example/.well-known/openid-configuration/tenant1",
        "https://h.example/tenant1/.well-known/openid-configuration",
    ]
    assert _urls.authorization_server_metadata_urls("https://h.example") == [
        "https://h.example/.well-known/oauth-authorization-server",
        "https://h.example/.well-known/openid-configuration",
    ]


def test_resource_covers_only_same_origin_whole_segment_parents() -> None:
    assert _urls.resource_covers("https://h.example/mcp", "https://h.example/mcp")
    assert _urls.resource_covers("https://h.example", "https://h.example/mcp")
    assert _urls.resource_covers("https://H.example:443/", "https://h.example/mcp")
    assert not _urls.resource_covers("https://h.example/mc", "https://h.example/mcp")
    assert not _urls.resource_covers("https://h.example/mcp", "https://h.example:8443/mcp")
    assert not _urls.resource_covers("https://evil.example/mcp", "https://h.example/mcp")


# -------------------------------------------------------------------------------------------- discovery


def test_challenge_resource_metadata_url_comes_first_and_is_checked() -> None:
    urls = resource_metadata_urls("https://h.example/mcp", "https://h.example/custom.json")
    assert urls[0] == "https://h.example/custom.json"
    with pytest.raises(OAuthError, match="uses file:"):
        resource_metadata_urls("https://h.example/mcp", "file:///etc/passwd")


def test_recorded_metadata_reads() -> None:
    url, prm = _recorded_document("prm")
    server_url = _server_url_of_recording()
    metadata = read_resource_metadata(_response(url, prm), server_url)
    assert metadata is not None and metadata.authorization_servers
    as_url, document = _recorded_document("as")
    server = read_server_metadata(_response(as_url, document), metadata.authorization_servers[0])
    assert server is not None and server.token_endpoint.endswith("/token")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"resource": "https://evil.example.com/mcp"}, "not for"),
        ({"resource": "javascript:alert(1)"}, "uses javascript:"),
        ({"authorization_servers": []}, "names no authorization server"),
        ({"authorization_servers": ["file:///etc/passwd"]}, "uses file:"),
        ({"authorization_servers": "https://as.example.com"}, "not a list of strings"),
        ({"authorization_servers": ["https://as.example.com?x=1"]}, "query"),
    ],
)
def test_hostile_resource_metadata_ends_in_a_clear_error(change: dict[str, Any], message: str) -> None:
    url, prm = _recorded_document("prm")
    with pytest.raises(OAuthError, match=message):
        read_resource_metadata(_response(url, {**prm, **change}), _server_url_of_recording())


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"{not json", "not send valid JSON"),
        (b"[1, 2]", "not an object"),
        (b'{"a":' * 100_000, "valid JSON|more than"),
        (b" " * (MAX_DOCUMENT_BYTES + 1), "more than"),
    ],
)
def test_malformed_or_huge_documents_are_refused(body: bytes, message: str) -> None:
    with pytest.raises(OAuthError, match=message):
        read_resource_metadata(_response("https://h.example/.well-known/x", body), "https://h.example/mcp")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"issuer": "https://attacker.example.com"}, "refusing to use it"),
        ({"authorization_endpoint": "javascript:alert(1)"}, "uses javascript:"),
        ({"token_endpoint": "file:///etc/passwd"}, "uses file:"),
        ({"token_endpoint": "http://as.example.com/token"}, "must use https"),
        ({"registration_endpoint": "data:,x"}, "uses data:"),
        ({"code_challenge_methods_supported": ["plain"]}, "PKCE S256"),
        ({"code_challenge_methods_supported": None}, "PKCE S256"),
        ({"token_endpoint": None}, "no token_endpoint"),
        ({"scopes_supported": [1, 2]}, "not a list of strings"),
    ],
)
def test_hostile_server_metadata_ends_in_a_clear_error(change: dict[str, Any], message: str) -> None:
    url, document = _recorded_document("as")
    issuer = document["issuer"]
    changed = {k: v for k, v in {**document, **change}.items() if v is not None}
    with pytest.raises(OAuthError, match=message):
        read_server_metadata(_response(url, changed), issuer)


def test_issuer_comparison_is_exact() -> None:
    url, document = _recorded_document("as")
    issuer = document["issuer"]
    with pytest.raises(OAuthError):
        read_server_metadata(_response(url, {**document, "issuer": issuer + "/"}), issuer)
    with pytest.raises(OAuthError):
        read_server_metadata(_response(url, {**document, "issuer": issuer.upper()}), issuer)


@pytest.mark.parametrize("status", [301, 302, 400, 401, 404])
def test_not_found_like_answers_move_on_to_the_next_url(status: int) -> None:
    assert (
        read_resource_metadata(_response("https://h.example/x", {}, status), "https://h.example/mcp") is None
    )
    assert read_server_metadata(_response("https://h.example/x", {}, status), "https://h.example") is None


@pytest.mark.parametrize("status", [429, 500, 503])
def test_server_errors_stop_discovery_instead_of_falling_back(status: int) -> None:
    with pytest.raises(OAuthError, match=f"HTTP {status}"):
        read_resource_metadata(_response("https://h.example/x", {}, status), "https://h.example/mcp")


def test_a_hostile_document_means_nothing_is_fetched_from_it() -> None:
    """The flow stops at the bad document: it never yields a request to the URL the document names."""
    server_url = "https://mcp.example.com/mcp"
    request = LoginRequest(server_url, ClientSettings("t"), lambda: "http://127.0.0.1:1/cb", lambda: 0.0)
    flow = _flow.login(request)
    step = next(flow)
    assert isinstance(step, HttpRequest) and step.url.endswith("/oauth-protected-resource/mcp")
    prm = {"resource": server_url, "authorization_servers": ["https://as.example.com"]}
    step = flow.send(_response(step.url, prm))
    assert (
        isinstance(step, HttpRequest)
        and step.url == "https://as.example.com/.well-known/oauth-authorization-server"
    )
    document = {
        "issuer": "https://as.example.com",
        "authorization_endpoint": "https://as.example.com/authorize",
        "token_endpoint": "file:///etc/shadow",
        "code_challenge_methods_supported": ["S256"],
    }
    with pytest.raises(OAuthError, match="uses file:") as caught:
        flow.send(_response(step.url, document))
    assert isinstance(caught.value, MCPClientError)


def test_plain_http_server_off_this_machine_gets_no_login() -> None:
    request = LoginRequest("http://mcp.example.com/mcp", ClientSettings("t"), lambda: "x", lambda: 0.0)
    with pytest.raises(OAuthError, match="plain http"):
        next(_flow.login(request))


_WITH_CREDENTIALS = "https://user:s3cret@h.example/.well-known/oauth-protected-resource?token=t1"
_SHOWN = "https://h.example/.well-known/oauth-protected-resource?token=t1"


def _refusal_of(reader: str) -> OAuthError:
    """The error one reader raises for a response at ``_WITH_CREDENTIALS`` (a URL with a user:password@)."""
    _, document = _recorded_document("as")
    readers = {
        "resource metadata HTTP 500": lambda: read_resource_metadata(
            _response(_WITH_CREDENTIALS, {}, 500), "https://h.example/mcp"
        ),
        "resource metadata not JSON": lambda: read_resource_metadata(
            _response(_WITH_CREDENTIALS, b"{not json"), "https://h.example/mcp"
        ),
        "resource metadata for another server": lambda: read_resource_metadata(
            _response(_WITH_CREDENTIALS, {"resource": "https://other.example/mcp"}), "https://h.example/mcp"
        ),
        "resource metadata, no server": lambda: read_resource_metadata(
            _response(_WITH_CREDENTIALS, {"authorization_servers": []}), "https://h.example/mcp"
        ),
        "resource metadata, bad list": lambda: read_resource_metadata(
            _response(_WITH_CREDENTIALS, {"authorization_servers": [1]}), "https://h.example/mcp"
        ),
        "server metadata HTTP 503": lambda: read_server_metadata(
            _response(_WITH_CREDENTIALS, {}, 503), document["issuer"]
        ),
        "server metadata, other issuer": lambda: read_server_metadata(
            _response(_WITH_CREDENTIALS, {**document, "issuer": "https://x.example"}), document["issuer"]
        ),
        "token endpoint refusal": lambda: _raise(
            oauth_error_from(_response(_WITH_CREDENTIALS, {"error": "invalid_grant"}, 400), "token endpoint")
        ),
        "token response without a token": lambda: read_tokens(
            _response(_WITH_CREDENTIALS, {"token_type": "Bearer"}),
            _token_request(),
            now=0.0,
            issuer=None,
            client=_client(),
            resource=None,
            token_endpoint=_WITH_CREDENTIALS,
            revocation_endpoint=None,
            requested_scope=None,
        ),
    }
    with pytest.raises(OAuthError) as caught:
        readers[reader]()
    return caught.value


def _raise(error: OAuthError) -> None:
    raise error


@pytest.mark.parametrize(
    "reader",
    [
        "resource metadata HTTP 500",
        "resource metadata not JSON",
        "resource metadata for another server",
        "resource metadata, no server",
        "resource metadata, bad list",
        "server metadata HTTP 503",
        "server metadata, other issuer",
        "token endpoint refusal",
        "token response without a token",
    ],
)
def test_an_error_quoting_a_url_never_shows_its_user_and_password(reader: str) -> None:
    """The URL an answer came from is quoted without ``user:s3cret@``; its query (here a token of the
    server's own) stays, as in every URL the client shows."""
    message = str(_refusal_of(reader))
    assert _SHOWN in message
    assert "s3cret" not in message and "user:" not in message


@pytest.mark.anyio
async def test_an_unreachable_endpoint_is_named_without_its_user_and_password() -> None:
    """The driver's own messages (``could not reach ... at <url>``) follow the same rule."""
    import httpx2

    from mcp_client.auth._loopback import no_browser_step
    from mcp_client.auth._runner import StepRunner
    from mcp_client.auth._storage import InMemoryTokenStorage
    from mcp_client.auth._wire import get_json
    from tests.support.servers import LOOPBACK, refused_loopback_port

    with refused_loopback_port() as port:
        url = f"http://user:s3cret@{LOOPBACK}:{port}/.well-known/oauth-protected-resource?token=t1"
        async with httpx2.AsyncClient() as http:
            runner = StepRunner(http, InMemoryTokenStorage(), "k", no_browser_step)
            with pytest.raises(OAuthError) as caught:
                await runner.send(get_json(url, "protected resource metadata"))
    shown = f"http://{LOOPBACK}:{port}/.well-known/oauth-protected-resource?token=t1"
    assert f"could not reach the protected resource metadata at {shown}: ConnectError" in str(caught.value)
    assert "s3cret" not in str(caught.value)


# ----------------------------------------------------------------------------------------------- scopes


@pytest.mark.parametrize(
    ("configured", "challenged", "resource", "server", "expected"),
    [
        (("a", "b"), "c", ("d",), ("x",), "a b"),  # the application's choice wins
        (("a", "b"), "c", ("d",), ("offline_access",), "a b offline_access"),  # + refresh where listed
        (None, "c d", ("e",), None, "c d"),  # then WWW-Authenticate
        (None, None, ("e", "f"), None, "e f"),  # then the resource's scopes_supported
        (None, None, None, ("x", "offline_access"), None),  # else omitted (no lone offline_access)
        (None, "c", None, ("offline_access",), "c offline_access"),  # refresh tokens where listed
        (None, "c", ("offline_access",), ("c",), "c"),  # not where the server does not list it
        ((), "c", None, None, None),  # explicitly no scopes
    ],
)
def test_scope_selection(
    configured: tuple[str, ...] | None,
    challenged: str | None,
    resource: tuple[str, ...] | None,
    server: tuple[str, ...] | None,
    expected: str | None,
) -> None:
    assert _scopes.select(configured, challenged, resource, server) == expected


def test_step_up_union_keeps_order_and_drops_duplicates() -> None:
    assert (
        _scopes.union("mcp:basic offline_access", "mcp:write mcp:basic")
        == "mcp:basic offline_access mcp:write"
    )
    assert _scopes.union(None, None) is None


def test_step_up_keeps_offline_access_where_the_server_lists_it() -> None:
    # A later process rebuilds "what was asked before" from the granted scope, which never holds
    # offline_access: the step-up must ask for it again, or its tokens cannot be refreshed (issue 26).
    assert _scopes.step_up("mcp:tools", "mcp:admin", ("openid", "offline_access")) == (
        "mcp:tools mcp:admin offline_access"
    )
    assert _scopes.step_up("mcp:tools", "mcp:admin", ("openid",)) == "mcp:tools mcp:admin"
    assert _scopes.step_up(None, None, ("offline_access",)) is None


# ------------------------------------------------------------------------------------- authorize / redirect


def _server(**changes: Any) -> ServerMetadata:
    base: dict[str, Any] = {
        "issuer": "https://as.example.com",
        "authorization_endpoint": "https://as.example.com/authorize?tenant=t1",
        "token_endpoint": "https://as.example.com/token",
        "registration_endpoint": "https://as.example.com/register",
    }
    return ServerMetadata(**{**base, **changes})


def test_authorization_url_carries_pkce_state_resource_and_keeps_endpoint_query() -> None:
    secrets = AuthorizationSecrets.new()
    url = authorization_url(
        _server(),
        client_id="c1",
        redirect_uri="http://127.0.0.1:5/cb",
        secrets=secrets,
        scope="a offline_access",
        resource="https://mcp.example.com/mcp",
    )
    from urllib.parse import parse_qs, urlsplit

    query = parse_qs(urlsplit(url).query)
    assert query["tenant"] == ["t1"]
    assert query["code_challenge"] == [s256(secrets.verifier)]
    assert query["code_challenge_method"] == ["S256"]
    assert query["state"] == [secrets.state]
    assert query["resource"] == ["https://mcp.example.com/mcp"]
    assert query["prompt"] == ["consent"]


def _redirect(**params: str) -> str:
    from urllib.parse import urlencode

    return "http://127.0.0.1:5/cb?" + urlencode(params)


def test_redirect_checks() -> None:
    secrets = AuthorizationSecrets.new()
    server = _server(iss_parameter_supported=True)
    good = {"code": "c0de", "state": secrets.state, "iss": "https://as.example.com"}
    assert read_redirect(_redirect(**good), secrets, server) == "c0de"
    assert read_redirect("?" + _redirect(**good).split("?", 1)[1], secrets, server) == "c0de"  # pasted query
    for bad, message in [
        ({**good, "state": "other"}, "state"),
        ({k: v for k, v in good.items() if k != "state"}, "state"),
        ({**good, "iss": "https://as.example.com/"}, "RFC 9207"),
        ({**good, "iss": "https://evil.example.com"}, "RFC 9207"),
        ({k: v for k, v in good.items() if k != "iss"}, "RFC 9207"),
        ({"state": secrets.state, "iss": "https://as.example.com"}, "no authorization code"),
        ({"error": "access_denied", "error_description": "no\x1b[2J thanks"}, "access_denied"),
    ]:
        with pytest.raises(OAuthError, match=message) as caught:
            read_redirect(_redirect(**bad), secrets, server)
        assert "\x1b" not in str(caught.value)
    # Without advertised support, a missing iss is fine; a present one is still compared.
    plain = _server()
    assert read_redirect(_redirect(code="c", state=secrets.state), secrets, plain) == "c"
    with pytest.raises(OAuthError):
        read_redirect(
            _redirect(code="c", state=secrets.state, iss="https://evil.example.com"), secrets, plain
        )


def test_access_denied_keeps_the_oauth_error_code() -> None:
    secrets = AuthorizationSecrets.new()
    with pytest.raises(OAuthError) as caught:
        read_redirect(_redirect(error="access_denied", state=secrets.state), secrets, _server())
    assert caught.value.error == "access_denied"


# ------------------------------------------------------------------------------------------ registration


def test_registration_asks_for_a_public_native_client_where_allowed() -> None:
    server = _server(token_endpoint_auth_methods_supported=("client_secret_basic", "none"))
    request = registration_request(server, ClientSettings("My App"), "http://127.0.0.1:5/cb", "a b")
    body = dict(request.json_body or {})
    assert body["token_endpoint_auth_method"] == "none"
    assert body["application_type"] == "native"
    assert body["grant_types"] == ["authorization_code", "refresh_token"]
    assert body["redirect_uris"] == ["http://127.0.0.1:5/cb"]
    assert body["client_name"] == "My App" and body["scope"] == "a b"


def test_registration_method_follows_the_server_answer() -> None:
    server = _server(token_endpoint_auth_methods_supported=("client_secret_post",))
    request = registration_request(server, ClientSettings("x"), "http://127.0.0.1:5/cb", None)
    assert dict(request.json_body or {})["token_endpoint_auth_method"] == "client_secret_post"
    answer = {
        "client_id": "id1",
        "client_secret": "s3cret-value",
        "token_endpoint_auth_method": "client_secret_post",
    }
    client = read_registration(
        _response("https://as.example.com/register", answer, 201), request, server, "u"
    )
    assert (client.client_id, client.client_secret, client.token_endpoint_auth_method) == (
        "id1",
        "s3cret-value",
        "client_secret_post",
    )
    with pytest.raises(OAuthError, match="sent no client_secret"):
        read_registration(
            _response(
                "https://as.example.com/register",
                {"client_id": "i", "token_endpoint_auth_method": "client_secret_basic"},
                201,
            ),
            request,
            server,
            "u",
        )
    with pytest.raises(OAuthError, match="private_key_jwt"):
        read_registration(
            _response(
                "https://as.example.com/register",
                {"client_id": "i", "token_endpoint_auth_method": "private_key_jwt"},
                201,
            ),
            request,
            server,
            "u",
        )


def test_no_registration_endpoint_asks_for_a_configured_client() -> None:
    with pytest.raises(OAuthError, match=r"client_id=\.\.\."):
        registration_request(_server(registration_endpoint=None), ClientSettings("x"), "u", None)


def test_credentials_are_bound_to_their_issuer() -> None:
    """A registration stored for one issuer is looked up by issuer: another server never sees it."""
    settings = ClientSettings("x")
    request = LoginRequest(
        "https://mcp.example.com/mcp", settings, lambda: "http://127.0.0.1:5/cb", lambda: 0.0
    )
    server = _server(issuer="https://as2.example.com", token_endpoint_auth_methods_supported=("none",))
    flow = _flow.identify(request, server, None)
    step = next(flow)
    assert step == LoadClient("https://as2.example.com")
    step = flow.send(None)  # nothing stored for AS2 (only for AS1): register there
    assert isinstance(step, HttpRequest) and step.purpose == "registration endpoint"
    step = flow.send(_response(step.url, {"client_id": "as2-client"}, 201))
    assert isinstance(step, SaveClient) and step.issuer == "https://as2.example.com"


# ------------------------------------------------------------------------------------------------ tokens


def _client(method: str = "client_secret_basic") -> ClientRegistration:
    return ClientRegistration("id 1", "p@ss:w/rd", method, "http://127.0.0.1:5/cb", "https://as.example.com")


def test_client_secret_basic_form_encodes_the_pair() -> None:
    request = code_exchange(
        "https://as.example.com/token", _client(), code="c", verifier="v", redirect_uri="u", resource="r"
    )
    import base64

    header = request.header("authorization")
    assert header is not None
    assert base64.b64decode(header.split()[1]).decode() == "id%201:p%40ss%3Aw%2Frd"
    assert "client_secret" not in request.form_dict()
    post = code_exchange(
        "https://as.example.com/token",
        _client("client_secret_post"),
        code="c",
        verifier="v",
        redirect_uri="u",
        resource="r",
    )
    assert post.form_dict()["client_secret"] == "p@ss:w/rd" and post.header("authorization") is None


def _token_request() -> HttpRequest:
    return code_exchange(
        "https://as.example.com/token",
        _client(),
        code="the-code",
        verifier="the-verifier",
        redirect_uri="u",
        resource="r",
    )


def _read(document: object, status: int = 200, previous: StoredTokens | None = None) -> StoredTokens:
    return read_tokens(
        _response("https://as.example.com/token", document, status),
        _token_request(),
        now=1000.0,
        issuer="https://as.example.com",
        client=_client(),
        resource="r",
        token_endpoint="https://as.example.com/token",
        revocation_endpoint=None,
        requested_scope="a",
        previous=previous,
    )


def test_token_response_gets_an_absolute_expiry_and_keeps_what_a_refresh_omits() -> None:
    tokens = _read({"access_token": "at1", "token_type": "bearer", "expires_in": 60, "refresh_token": "rt1"})
    assert (tokens.expires_at, tokens.scope, tokens.refresh_token) == (1060.0, "a", "rt1")
    rotated = _read(
        {"access_token": "at2", "token_type": "Bearer", "refresh_token": "rt2", "scope": "a b"},
        previous=tokens,
    )
    assert (rotated.refresh_token, rotated.scope, rotated.expires_at) == ("rt2", "a b", None)
    kept = _read({"access_token": "at3", "token_type": "Bearer"}, previous=rotated)
    assert (kept.refresh_token, kept.scope) == ("rt2", "a b")


@pytest.mark.parametrize(
    ("document", "status", "message"),
    [
        ({"token_type": "Bearer"}, 200, "no access_token"),
        ({"access_token": "x", "token_type": "MAC"}, 200, "only Bearer and DPoP"),
        ({"access_token": "x"}, 200, "only Bearer"),
        ({"error": "invalid_grant", "error_description": "code the-code was used"}, 400, "invalid_grant"),
    ],
)
def test_bad_token_responses(document: object, status: int, message: str) -> None:
    with pytest.raises(OAuthError, match=message) as caught:
        _read(document, status)
    assert "the-code" not in str(caught.value) and "the-verifier" not in str(caught.value)


# ------------------------------------------------------------------------------------------ retry policy


def _after(status: int, header: str | None = None, **kw: Any) -> object:
    attempts = kw.pop("attempts", Attempts())
    return after_response(
        status,
        (header,) if header else (),
        server="https://mcp.example.com/mcp",
        sent_token=kw.pop("sent_token", False),
        can_refresh=kw.pop("can_refresh", False),
        attempts=attempts,
    )


def test_retry_policy() -> None:
    assert isinstance(_after(200), Pass)
    assert isinstance(_after(403, 'Bearer error="invalid_token"'), Pass)  # plain forbidden: nothing to fix
    assert _after(401, 'Bearer scope="a"') == Login(bearer_challenge(['Bearer scope="a"']), step_up=False)
    assert isinstance(_after(401, sent_token=True, can_refresh=True), Refresh)
    assert isinstance(
        _after(401, sent_token=True, can_refresh=True, attempts=Attempts(refreshed=True)), Login
    )
    step_up = _after(403, 'Bearer error="insufficient_scope", scope="b"', sent_token=True)
    assert isinstance(step_up, Login) and step_up.step_up
    with pytest.raises(OAuthError, match="rejected the token it had just issued"):
        _after(401, sent_token=True, attempts=Attempts(logins=1))
    with pytest.raises(OAuthError, match="after 2 authorizations"):
        _after(403, 'Bearer error="insufficient_scope"', sent_token=True, attempts=Attempts(logins=2))


# ------------------------------------------------------------------------------------------- the browser


def test_the_browser_step_gets_the_full_url_and_a_non_string_answer_is_an_error() -> None:
    settings = ClientSettings("x", client_id="pre", client_secret=None)
    request = LoginRequest(
        "https://mcp.example.com/mcp", settings, lambda: "http://127.0.0.1:5/cb", lambda: 0.0
    )
    flow = _flow.login(request)
    step = next(flow)
    step = flow.send(
        _response(
            step.url,
            {"resource": "https://mcp.example.com/mcp", "authorization_servers": ["https://as.example.com"]},
        )
    )  # type: ignore[union-attr]
    document = {
        "issuer": "https://as.example.com",
        "authorization_endpoint": "https://as.example.com/authorize",
        "token_endpoint": "https://as.example.com/token",
        "code_challenge_methods_supported": ["S256"],
    }
    step = flow.send(_response(step.url, document))  # type: ignore[union-attr]
    assert isinstance(step, OpenBrowser) and step.url.startswith("https://as.example.com/authorize?")
    assert "<" not in repr(step) and "state" not in repr(step)
    with pytest.raises(OAuthError, match="must return the redirect URL"):
        flow.send(None)
