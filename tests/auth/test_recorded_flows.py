"""Replay every OAuth flow recorded against the conformance harness, with no sockets.

Each episode in ``tests/fixtures/auth/<wire>/<scenario>.json`` holds what a sans-IO flow was asked,
each step it yielded and the reply it got (recorded by ``record_conformance.py``). The replay drives
the same flow with the recorded replies and the recorded PKCE/state values, and checks that every
step is exactly the one recorded (same URL, same form fields, same registration body) and that the
flow ends the same way: the same tokens, or the same ``OAuthError``. A change in what the client
sends or decides shows up here as the first step that differs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_client import OAuthError
from mcp_client.auth import _flow
from mcp_client.auth._pkce import AuthorizationSecrets
from mcp_client.auth._records import StoredTokens
from mcp_client.auth._registration import ClientSettings
from tests.auth import _recording

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "auth"


def _episodes() -> list[Any]:
    cases = []
    for path in sorted(FIXTURES.rglob("*.json")):
        document = json.loads(path.read_text())
        for index, episode in enumerate(document["episodes"]):
            name = f"{document['wire']}:{document['scenario']}#{index}"
            cases.append(pytest.param(episode, id=name))
    return cases


def test_every_auth_scenario_of_both_wires_is_recorded() -> None:
    recorded = {(p.parent.name, p.stem) for p in FIXTURES.rglob("*.json")}
    assert len([r for r in recorded if r[0] == "2025-11-25"]) == 14
    assert len([r for r in recorded if r[0] == "2026-07-28"]) == 25


@pytest.mark.parametrize("episode", _episodes())
def test_replay(episode: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = iter(episode["secrets"])
    monkeypatch.setattr(
        AuthorizationSecrets, "new", staticmethod(lambda: _recording.secrets_from_json(next(drawn)))
    )
    if episode["flow"] == "login":
        flow = _flow.login(_recording.request_from_json(episode["request"]))
    else:
        settings = dict(episode["settings"])
        settings["scopes"] = tuple(settings["scopes"]) if settings["scopes"] is not None else None
        flow = _flow.refresh(
            StoredTokens.from_dict(episode["tokens"]), ClientSettings(**settings), lambda: _recording.CLOCK
        )

    result: object = None
    error: str | None = None
    try:
        step = next(flow)
        for number, recorded in enumerate(episode["steps"]):
            assert _recording.step_to_json(step) == recorded["step"], f"step {number} differs"
            step = flow.send(_recording.reply_from_json(recorded["step"], recorded["reply"]))
        pytest.fail(f"the flow asked for more than the {len(episode['steps'])} recorded steps: {step!r}")
    except StopIteration as done:
        result = done.value
    except OAuthError as exc:
        error = str(exc)

    assert error == episode.get("error")
    assert json.loads(json.dumps(_recording.result_to_json(result))) == episode.get("result")
