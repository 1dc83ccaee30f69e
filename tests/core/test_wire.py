"""Wire-level unit tests on the captured traces: what the client sends and how it reads replies.

The sans-IO parts (era dressing, negotiation decisions, the multi-round-trip loop, JSON-RPC framing)
are driven with the exact bytes of tests/fixtures/traces, including cases no real server sends.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcp_client import (
    InputRequiredLimitError,
    InputRequiredRoundsExceededError,
    ProtocolError,
    UnsupportedProtocolVersionError,
    UrlElicitationRequiredError,
)
from mcp_client._protocol import headers as _headers
from mcp_client._protocol import jsonrpc as _jsonrpc
from mcp_client._protocol import version_choice as _version_choice
from mcp_client._protocol.eras import LegacyEra, ModernEra
from mcp_client._session import input_required as _input_required
from mcp_client._session.elicitation import capabilities_for
from tests.support.traces import TRACES as _TRACES

TRACES = _TRACES
CLIENT_INFO = {"name": "research-client", "version": "0.1"}
BOTH_MODES = capabilities_for(["form", "url"])


def trace(name: str) -> dict[str, Any]:
    path = TRACES / f"{name}.json"
    if not path.exists():
        pytest.skip(f"trace {name} is not available at {path}")
    return json.loads(path.read_text())


def headers_of(exchange: dict[str, Any]) -> dict[str, str]:
    return {k.lower(): v for k, v in exchange["request"]["headers"]}


def posts(name: str, method: str = "tools/call") -> list[dict[str, Any]]:
    """The trace's POSTs carrying ``method`` (the client's own requests, in order)."""
    return [
        e
        for e in trace(name)["exchanges"]
        if e["request"]["method"] == "POST" and (e["request"].get("body") or {}).get("method") == method
    ]


def reply_of(exchange: dict[str, Any]) -> dict[str, Any]:
    response = exchange["response"]
    if "sse_events" in response:
        return next(ev["data"] for ev in response["sse_events"] if isinstance(ev.get("data"), dict))
    return response["body"]


# ------------------------------------------------------------------ the modern envelope and headers


def test_modern_request_matches_the_capture_byte_for_byte() -> None:
    first = posts("M02_modern_delete_folder_accept")[0]
    body = first["request"]["body"]
    era = ModernEra("2026-07-28", BOTH_MODES, CLIENT_INFO)
    params, headers = era.prepare(
        body["method"], {"name": "delete_folder", "arguments": {"path": "/srv/photos"}}
    )
    assert params == body["params"]
    sent = headers_of(first)
    for key, value in headers.items():
        assert sent[key.lower()] == value
    assert {"mcp-protocol-version", "mcp-method", "mcp-name"} <= {k.lower() for k in headers}


def test_the_retry_puts_answers_and_state_at_the_top_of_params() -> None:
    retry = posts("M02_modern_delete_folder_accept")[1]["request"]["body"]
    era = ModernEra("2026-07-28", BOTH_MODES, CLIENT_INFO)
    round_params = {k: v for k, v in retry["params"].items() if k != "_meta"}
    params, _ = era.prepare("tools/call", round_params)
    assert params == retry["params"]
    assert "inputResponses" not in params["_meta"] and "requestState" not in params["_meta"]


def test_legacy_era_sends_params_untouched_with_the_version_header() -> None:
    era = LegacyEra("2025-11-25")
    params = {"name": "book_table", "arguments": {"date": "2025-12-25"}}
    assert era.prepare("tools/call", params) == (params, {"MCP-Protocol-Version": "2025-11-25"})


def test_capabilities_follow_the_declared_modes() -> None:
    assert capabilities_for([]) == {}
    assert capabilities_for(["form"]) == {"elicitation": {"form": {}}}
    assert capabilities_for(["url", "form"]) == {"elicitation": {"form": {}, "url": {}}}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("delete_folder", "delete_folder"),
        ("café", "=?base64?Y2Fmw6k=?="),
        (" padded", "=?base64?IHBhZGRlZA==?="),
        ("=?base64?abc?=", "=?base64?PT9iYXNlNjQ/YWJjPz0=?="),
        ("line\nbreak", "=?base64?bGluZQpicmVhaw==?="),
    ],
)
def test_header_values_that_would_not_survive_are_base64_wrapped(value: str, expected: str) -> None:
    assert _headers.encode_value(value) == expected


def test_x_mcp_header_arguments_become_param_headers() -> None:
    era = ModernEra("2026-07-28", {}, CLIENT_INFO)
    schema = {
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "count": {"type": "integer", "x-mcp-header": "Count"},
            "dry": {"type": "boolean", "x-mcp-header": "Dry"},
            "note": {"type": "string"},
        },
    }
    assert era.absorb_tools([{"name": "deploy", "inputSchema": schema}]) == [
        {"name": "deploy", "inputSchema": schema}
    ]
    _, headers = era.prepare(
        "tools/call", {"name": "deploy", "arguments": {"region": "eu-west", "count": 3, "dry": True}}
    )
    assert headers["Mcp-Param-Region"] == "eu-west"
    assert headers["Mcp-Param-Count"] == "3"
    assert headers["Mcp-Param-Dry"] == "true"
    assert not any(k.startswith("Mcp-Param-Note") for k in headers)


@pytest.mark.parametrize(
    "bad_property",
    [
        {"type": "number", "x-mcp-header": "Price"},  # numbers are not allowed
        {"type": "string", "x-mcp-header": "Bad Header"},  # not an RFC 9110 token
        {"type": "string", "x-mcp-header": ""},
        {
            "type": "object",
            "properties": {"x": {"type": "string", "x-mcp-header": "X"}},
            "x-mcp-header": "Obj",
        },
    ],
)
def test_tools_with_invalid_x_mcp_header_are_dropped(bad_property: dict[str, Any]) -> None:
    era = ModernEra("2026-07-28", {}, CLIENT_INFO)
    good = {"name": "ok", "inputSchema": {"type": "object", "properties": {}}}
    bad = {"name": "bad", "inputSchema": {"type": "object", "properties": {"p": bad_property}}}
    assert [t["name"] for t in era.absorb_tools([good, bad])] == ["ok"]


def test_duplicate_header_tokens_drop_the_tool() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string", "x-mcp-header": "Same"},
            "b": {"type": "string", "x-mcp-header": "same"},
        },
    }
    assert _headers.header_map(schema) is None


# ------------------------------------------------------------------ negotiation decisions


def test_probe_reply_from_a_modern_server_is_adopted() -> None:
    exchange = posts("A01_auto_probe_modern", "server/discover")[0]
    decision = _version_choice.after_probe(reply_of(exchange), "2026-07-28")
    assert isinstance(decision, _version_choice.Adopt) and decision.version == "2026-07-28"


def test_probe_refused_by_a_legacy_server_falls_back() -> None:
    exchange = posts("A02_auto_fallback_to_legacy", "server/discover")[0]
    decision = _version_choice.after_probe(reply_of(exchange), "2026-07-28")
    assert isinstance(decision, _version_choice.Fallback)
    assert "-32600" in decision.reason


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ({"error": {"code": -32601, "message": "Method not found"}}, _version_choice.Fallback),
        (
            {"error": {"code": -32000, "message": "Bad Request: Server not initialized"}},
            _version_choice.Fallback,
        ),
        (
            {"error": {"code": -32022, "message": "x", "data": {"supported": ["2025-11-25"]}}},
            _version_choice.Fallback,
        ),
        ({"result": {"supportedVersions": ["2025-11-25"]}}, _version_choice.Fallback),
        ({"result": {"supportedVersions": "nope"}}, _version_choice.Fallback),
        ({"result": {"supportedVersions": ["2099-01-01", "2026-07-28"]}}, _version_choice.Adopt),
    ],
)
def test_probe_decisions(reply: dict[str, Any], expected: type) -> None:
    assert isinstance(_version_choice.after_probe(reply, "2026-07-28"), expected)


def test_probe_at_an_unknown_version_is_retried_at_the_mutual_one() -> None:
    reply = {
        "error": {
            "code": -32022,
            "message": "x",
            "data": {"supported": ["2026-07-28"], "requested": "2099-01-01"},
        }
    }
    assert _version_choice.after_probe(reply, "2099-01-01") == _version_choice.ProbeAgain("2026-07-28")


def test_probe_refused_at_the_very_version_offered_is_retried_once() -> None:
    """conformance request-metadata: the first request gets -32022 naming the version we offered."""
    reply = {"error": {"code": -32022, "message": "x", "data": {"supported": ["2026-07-28"]}}}
    assert _version_choice.after_probe(reply, "2026-07-28") == _version_choice.ProbeAgain("2026-07-28")


def test_a_modern_only_server_with_nothing_in_common_aborts_the_connect() -> None:
    reply = {"error": {"code": -32022, "message": "x", "data": {"supported": ["2099-01-01"]}}}
    with pytest.raises(UnsupportedProtocolVersionError) as caught:
        _version_choice.after_probe(reply, "2026-07-28")
    assert caught.value.supported == ["2099-01-01"]
    assert "2099-01-01" in str(caught.value)


def test_initialize_naming_a_modern_version_probes_again() -> None:
    error = {"code": -32022, "message": "x", "data": {"supported": ["2026-07-28"]}}
    assert _version_choice.after_initialize_error(error) == _version_choice.ProbeAgain("2026-07-28")
    assert _version_choice.after_initialize_error({"code": -32600, "message": "x"}) is None


def test_unknown_legacy_version_is_refused_by_name() -> None:
    assert _version_choice.check_legacy_version("2025-06-18") == "2025-06-18"
    with pytest.raises(UnsupportedProtocolVersionError, match="1999-01-01"):
        _version_choice.check_legacy_version("1999-01-01")


# ------------------------------------------------------------------ the multi-round-trip loop


class Replay:
    """Plays a server's recorded results back, recording the params the loop sends each round."""

    def __init__(self, results: list[dict[str, Any]]) -> None:
        self.results = list(results)
        self.sent: list[dict[str, Any]] = []

    async def __call__(self, params: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(params)
        return self.results.pop(0)


async def answer_accept(
    key: str, method: str, params: dict[str, Any], index: int, count: int
) -> dict[str, Any]:
    props = params["requestedSchema"]["properties"]
    content = (
        {"start": "2026-05-01", "nights": 3}
        if "start" in props
        else {"max_eur": 2500}
        if "max_eur" in props
        else {"confirm": True}
    )
    return {"action": "accept", "content": content}


@pytest.mark.anyio
async def test_two_rounds_send_only_the_latest_answers_and_the_exact_state() -> None:
    results = [reply_of(e)["result"] for e in posts("M06_modern_plan_trip_two_rounds")]
    replay = Replay(results)
    params = {"name": "plan_trip", "arguments": {"destination": "Lisbon"}}
    final = await _input_required.run(replay, params, answer_accept, max_rounds=10, what="test")
    assert final == results[-1]
    first, second, third = replay.sent
    assert first == params
    assert set(second["inputResponses"]) == set(results[0]["inputRequests"])
    assert second["requestState"] == results[0]["requestState"]
    assert set(third["inputResponses"]) == set(results[1]["inputRequests"])  # only the latest answers
    assert third["requestState"] == results[1]["requestState"]
    assert all(p["name"] == "plan_trip" and p["arguments"] == {"destination": "Lisbon"} for p in replay.sent)


@pytest.mark.anyio
async def test_no_state_is_sent_when_the_server_sent_none() -> None:
    results = [
        {
            "resultType": "input_required",
            "inputRequests": {
                "q": {
                    "method": "elicitation/create",
                    "params": {
                        "message": "ok?",
                        "requestedSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}},
                    },
                }
            },
        },
        {"content": []},
    ]
    replay = Replay(results)
    await _input_required.run(replay, {"name": "t"}, answer_accept, max_rounds=10, what="test")
    assert "requestState" not in replay.sent[1]
    assert replay.sent[1]["inputResponses"] == {"q": {"action": "accept", "content": {"confirm": True}}}


@pytest.mark.anyio
async def test_a_result_without_result_type_is_complete() -> None:
    done = {"content": [{"type": "text", "text": "done"}]}
    replay = Replay([done])
    assert await _input_required.run(replay, {}, answer_accept, max_rounds=1, what="t") == done
    assert len(replay.sent) == 1


@pytest.mark.anyio
async def test_the_round_cap_counts_rounds_like_the_capture() -> None:
    """M21: a cap of 3 means 4 requests and 3 answered rounds, then the error."""
    results = [reply_of(e)["result"] for e in posts("M21_modern_max_rounds")]
    while len(results) < 6:
        results.append(results[-1])
    replay = Replay(results)
    answered: list[str] = []

    async def answer(key: str, method: str, params: dict[str, Any], index: int, count: int) -> dict[str, Any]:
        answered.append(key)
        return {"action": "accept", "content": {"confirm": True}}

    with pytest.raises(InputRequiredRoundsExceededError, match="input_required_max_rounds"):
        await _input_required.run(replay, {"name": "always_input"}, answer, max_rounds=3, what="tools/call")
    assert len(replay.sent) == 4 and len(answered) == 3


@pytest.mark.anyio
async def test_a_refused_question_stops_the_round_before_any_is_answered() -> None:
    question = {"method": "elicitation/create", "params": {"message": "?", "requestedSchema": {}}}
    replay = Replay(
        [
            {
                "resultType": "input_required",
                "inputRequests": {"e": question, "s": {"method": "sampling/createMessage", "params": {}}},
            }
        ]
    )
    answered: list[str] = []

    async def answer(key: str, method: str, params: dict[str, Any], index: int, count: int) -> dict[str, Any]:
        answered.append(key)
        return {"action": "decline"}

    def check(key: str, method: str) -> None:
        if method != "elicitation/create":
            raise ProtocolError(f"no answer for {method}")

    with pytest.raises(ProtocolError, match="sampling/createMessage"):
        await _input_required.run(replay, {}, answer, max_rounds=10, what="tools/call", check=check)
    assert answered == []
    assert len(replay.sent) == 1


@pytest.mark.anyio
async def test_too_many_questions_or_too_much_state_is_refused() -> None:
    question = {
        "method": "elicitation/create",
        "params": {"message": "?", "requestedSchema": {"type": "object", "properties": {}}},
    }
    many = {f"q{i}": question for i in range(_input_required.MAX_QUESTIONS_PER_ROUND + 1)}
    with pytest.raises(InputRequiredLimitError, match="questions"):
        await _input_required.run(
            Replay([{"resultType": "input_required", "inputRequests": many}]),
            {},
            answer_accept,
            max_rounds=10,
            what="t",
        )
    huge = "x" * (_input_required.MAX_REQUEST_STATE_CHARS + 1)
    with pytest.raises(InputRequiredLimitError, match="requestState"):
        await _input_required.run(
            Replay([{"resultType": "input_required", "requestState": huge}]),
            {},
            answer_accept,
            max_rounds=10,
            what="t",
        )


# ------------------------------------------------------------------ JSON-RPC framing


@pytest.mark.parametrize(
    ("data", "complaint"),
    [
        (b"not json", "not JSON"),
        (b"[1, 2]", "JSON list"),
        (b'{"id": 1, "result": {}}', "jsonrpc"),
        (
            b'{"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": 1, "message": "x"}}',
            "both or neither",
        ),
        (b'{"jsonrpc": "2.0", "id": 1}', "both or neither"),
        (b'{"jsonrpc": "2.0", "result": {}}', "usable id"),
        (b'{"jsonrpc": "2.0", "id": true, "result": {}}', "usable id"),
        (b'{"jsonrpc": "2.0", "id": 1, "error": {"message": "no code"}}', "error code"),
        (b'{"jsonrpc": "2.0", "id": 1, "result": [1]}', "not a JSON object"),
        (b'{"jsonrpc": "2.0", "method": 5}', "method"),
    ],
)
def test_malformed_messages_are_protocol_errors(data: bytes, complaint: str) -> None:
    with pytest.raises(ProtocolError, match=complaint):
        _jsonrpc.decode(data)


def test_url_elicitation_required_carries_the_typed_list() -> None:
    exchange = posts("L08_legacy_require_url_32042")[0]
    error = reply_of(exchange)["error"]
    exc = _jsonrpc.error_from(error)
    assert isinstance(exc, UrlElicitationRequiredError)
    assert [e.elicitation_id for e in exc.elicitations] == ["bank-B42"]
    assert exc.elicitations[0].url == "https://bank.example.com/connect?booking=B42"


def test_encoding_is_compact_utf8_on_one_line() -> None:
    encoded = _jsonrpc.encode({"jsonrpc": "2.0", "id": 1, "method": "x", "params": {"text": "café\nnext"}})
    assert encoded == '{"jsonrpc":"2.0","id":1,"method":"x","params":{"text":"café\\nnext"}}'.encode()
