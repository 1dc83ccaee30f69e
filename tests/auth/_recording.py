"""Serialize and rebuild OAuth flow episodes: what a flow was asked, every step it yielded, every reply.

Shared by the recorder (``record_conformance.py``, run against the conformance harness's servers) and
the replay tests (``test_recorded_flows.py``), which drive the sans-IO flows with the recorded replies,
no sockets, and check that each step is the one recorded.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from mcp_client.auth._challenge import Challenge
from mcp_client.auth._discovery import Discovery, ResourceMetadata, ServerMetadata
from mcp_client.auth._flow import LoadClient, LoginRequest, LoginResult, OpenBrowser, Step
from mcp_client.auth._pkce import AuthorizationSecrets
from mcp_client.auth._records import ClientRegistration, StoredTokens
from mcp_client.auth._registration import ClientSettings
from mcp_client.auth._wire import HttpRequest, HttpResponse

CLOCK = 1_800_000_000.0
REDIRECT_URI = "http://127.0.0.1:8976/callback"


def step_to_json(step: Step) -> dict[str, Any]:
    if isinstance(step, HttpRequest):
        return {
            "kind": "http",
            "method": step.method,
            "url": step.url,
            "purpose": step.purpose,
            "headers": [list(pair) for pair in step.headers],
            "form": [list(pair) for pair in step.form] if step.form is not None else None,
            "json": dict(step.json_body) if step.json_body is not None else None,
        }
    if isinstance(step, OpenBrowser):
        return {"kind": "browser", "url": step.url, "issuer": step.issuer, "redirect_uri": step.redirect_uri}
    if isinstance(step, LoadClient):
        return {"kind": "load_client", "issuer": step.issuer}
    return {"kind": "save_client", "issuer": step.issuer, "client": step.client.to_dict()}


def reply_to_json(reply: object) -> Any:
    if isinstance(reply, HttpResponse):
        return {
            "status": reply.status,
            "url": reply.url,
            "headers": dict(reply.headers),
            "body": reply.body.decode("utf-8", "replace"),
            "www_authenticate": list(reply.www_authenticate),
        }
    if isinstance(reply, ClientRegistration):
        return {"client": reply.to_dict()}
    return reply


def reply_from_json(step: dict[str, Any], reply: Any) -> object:
    if step["kind"] == "http":
        return HttpResponse(
            status=reply["status"],
            url=reply["url"],
            headers=reply["headers"],
            body=reply["body"].encode("utf-8"),
            www_authenticate=tuple(reply["www_authenticate"]),
        )
    if step["kind"] == "load_client":
        return None if reply is None else ClientRegistration.from_dict(reply["client"])
    return reply


def request_to_json(request: LoginRequest) -> dict[str, Any]:
    return {
        "server_url": request.server_url,
        "settings": dataclasses.asdict(request.settings),
        "challenge": dataclasses.asdict(request.challenge) if request.challenge else None,
        "answered_401": request.answered_401,
        "step_up": request.step_up,
        "previous_scope": request.previous_scope,
        "known": dataclasses.asdict(request.known) if request.known else None,
    }


def request_from_json(data: dict[str, Any]) -> LoginRequest:
    settings = dict(data["settings"])
    if settings.get("scopes") is not None:
        settings["scopes"] = tuple(settings["scopes"])
    challenge = data["challenge"]
    return LoginRequest(
        server_url=data["server_url"],
        settings=ClientSettings(**settings),
        default_redirect_uri=lambda: REDIRECT_URI,
        clock=lambda: CLOCK,
        challenge=Challenge(challenge["scheme"], dict(challenge["params"])) if challenge else None,
        answered_401=data["answered_401"],
        step_up=data["step_up"],
        previous_scope=data["previous_scope"],
        known=discovery_from_json(data["known"]) if data["known"] else None,
    )


def discovery_from_json(data: dict[str, Any]) -> Discovery:
    metadata = data["resource_metadata"]
    resource_metadata = None
    if metadata is not None:
        resource_metadata = ResourceMetadata(
            url=metadata["url"],
            resource=metadata["resource"],
            authorization_servers=tuple(metadata["authorization_servers"]),
            scopes_supported=_tuple(metadata["scopes_supported"]),
        )
    server = dict(data["server"])
    for key in (
        "scopes_supported",
        "token_endpoint_auth_methods_supported",
        "code_challenge_methods_supported",
    ):
        server[key] = _tuple(server[key])
    return Discovery(data["resource"], resource_metadata, ServerMetadata(**server))


def result_to_json(result: object) -> Any:
    if isinstance(result, LoginResult):
        return {
            "tokens": result.tokens.to_dict(),
            "discovery": dataclasses.asdict(result.discovery),
            "requested_scope": result.requested_scope,
        }
    if isinstance(result, StoredTokens):
        return {"tokens": result.to_dict()}
    return result


def secrets_to_json(secrets: AuthorizationSecrets) -> dict[str, str]:
    return {"verifier": secrets.verifier, "challenge": secrets.challenge, "state": secrets.state}


def secrets_from_json(data: dict[str, str]) -> AuthorizationSecrets:
    return AuthorizationSecrets(verifier=data["verifier"], challenge=data["challenge"], state=data["state"])


def _tuple(value: Any) -> tuple[str, ...] | None:
    return tuple(value) if value is not None else None
