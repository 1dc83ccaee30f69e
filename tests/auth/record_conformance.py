"""Record the OAuth flows of the conformance scenarios into ``tests/fixtures/auth/`` (a developer tool).

The conformance client (``tests/conformance/client.py``), with every run of the sans-IO login and
refresh flows recorded: the request, each step the flow yielded and the reply it got, the PKCE and
state values it drew, and its result or error. ``test_recorded_flows.py`` replays them with no sockets.
Regenerate after a deliberate change to what the flow sends:

    python scripts/conformance.py --auth only \\
        --client-command "$PWD/.venv/bin/python $PWD/tests/auth/record_conformance.py"

The harness's servers run on loopback with throwaway values (``test-token-...``): nothing recorded is
a real secret.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from mcp_client import OAuthError  # noqa: E402
from mcp_client.auth import _flow, _pkce  # noqa: E402
from tests.auth import _recording  # noqa: E402
from tests.conformance import client as conformance  # noqa: E402

OUT = REPO / "tests" / "fixtures" / "auth"
episodes: list[dict[str, Any]] = []


def _recorded(
    name: str, flow: Callable[..., Generator[Any, object, Any]]
) -> Callable[..., Generator[Any, object, Any]]:
    def run(*args: Any) -> Generator[Any, object, Any]:
        episode: dict[str, Any] = {"flow": name, "steps": [], "secrets": []}
        if name == "login":
            episode["request"] = _recording.request_to_json(args[0])
        else:
            episode["tokens"] = args[0].to_dict()
            episode["settings"] = dataclasses.asdict(args[1])
        episodes.append(episode)
        inner = flow(*args)
        try:
            step = next(inner)
            while True:
                reply = yield step
                episode["steps"].append(
                    {"step": _recording.step_to_json(step), "reply": _recording.reply_to_json(reply)}
                )
                step = inner.send(reply)
        except StopIteration as done:
            episode["result"] = _recording.result_to_json(done.value)
            return done.value
        except OAuthError as exc:
            episode["error"] = str(exc)
            raise

    return run


def main() -> int:
    original_new = _pkce.AuthorizationSecrets.new

    def recording_new() -> _pkce.AuthorizationSecrets:
        secrets = original_new()
        episodes[-1]["secrets"].append(_recording.secrets_to_json(secrets))
        return secrets

    _pkce.AuthorizationSecrets.new = staticmethod(recording_new)  # type: ignore[method-assign]
    _flow.login = _recorded("login", _flow.login)  # type: ignore[assignment]
    _flow.refresh = _recorded("refresh", _flow.refresh)  # type: ignore[assignment]
    make_oauth = conformance._oauth

    def fixed_clock_oauth(context: dict[str, Any]) -> Any:
        oauth = make_oauth(context)
        oauth.clock = lambda: _recording.CLOCK
        return oauth

    conformance._oauth = fixed_clock_oauth  # type: ignore[assignment]
    try:
        return conformance.main()
    finally:
        scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "unknown")
        wire = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION", "unknown")
        target = OUT / wire / (scenario.replace("/", "_") + ".json")
        target.parent.mkdir(parents=True, exist_ok=True)
        document = {"scenario": scenario, "wire": wire, "episodes": episodes}
        target.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    sys.exit(main())
