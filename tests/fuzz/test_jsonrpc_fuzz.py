"""Fuzzing the JSON-RPC framing: whatever bytes a server sends, only ``ProtocolError`` comes out.

``_jsonrpc.decode`` is the one gate between the wire and the client; what passes it must be one
well-formed request, notification or response, and what the client sends must read back unchanged.
Bounded: a few hundred examples each, no deadline (CI machines are slow and shared).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_client._errors import MCPError, ProtocolError, UrlElicitationRequiredError
from mcp_client._protocol import jsonrpc as _jsonrpc

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)
ids = (
    st.integers()
    | st.text(max_size=8)
    | st.none()
    | st.booleans()
    | st.floats(allow_nan=False)
    | st.lists(st.integers(), max_size=2)
)
# Objects that look like JSON-RPC: the right keys, with right or wrong values.
rpcish = st.fixed_dictionaries(
    {},
    optional={
        "jsonrpc": st.sampled_from(["2.0", "1.0", 2.0]) | json_values,
        "id": ids,
        "method": st.sampled_from(["tools/call", "elicitation/create", "notifications/cancelled"])
        | json_values,
        "params": json_values,
        "result": st.dictionaries(st.text(max_size=5), json_values, max_size=3) | json_values,
        "error": st.fixed_dictionaries(
            {}, optional={"code": st.integers() | json_values, "message": json_values, "data": json_values}
        )
        | json_values,
    },
)


def assert_well_formed(message: dict[str, Any]) -> None:
    """What ``decode`` lets through: exactly the shapes the rest of the client relies on."""
    assert message["jsonrpc"] == "2.0"
    if "method" in message:
        assert isinstance(message["method"], str)
        if "id" in message:
            assert isinstance(message["id"], str | int) and not isinstance(message["id"], bool)
        assert _jsonrpc.is_request(message) == ("id" in message)
        return
    assert _jsonrpc.is_response(message)
    assert ("result" in message) != ("error" in message)
    request_id = message["id"]
    assert request_id is None or (isinstance(request_id, str | int) and not isinstance(request_id, bool))
    if "error" in message:
        assert isinstance(message["error"], dict) and isinstance(message["error"]["code"], int)
        error = _jsonrpc.error_from(message["error"])
        assert isinstance(error, MCPError)
        if message["error"]["code"] == _jsonrpc.URL_ELICITATION_REQUIRED:
            assert isinstance(error, UrlElicitationRequiredError)
    else:
        assert isinstance(message["result"], dict)


def decode_or_refuse(data: bytes | str) -> None:
    try:
        message = _jsonrpc.decode(data)
    except ProtocolError as exc:
        assert str(exc).startswith("the server sent")
        return
    assert_well_formed(message)


@FUZZ
@given(st.binary(max_size=300))
def test_arbitrary_bytes(data: bytes) -> None:
    decode_or_refuse(data)


@FUZZ
@given(st.text(max_size=200))  # including lone surrogates, which no UTF-8 stream can hold
def test_arbitrary_text(data: str) -> None:
    decode_or_refuse(data)


@FUZZ
@given(rpcish | json_values)
def test_json_that_may_or_may_not_be_json_rpc(value: Any) -> None:
    decode_or_refuse(json.dumps(value))


@FUZZ
@given(rpcish, st.integers(0, 400), st.binary(max_size=8))
def test_truncated_and_corrupted_messages(value: Any, cut: int, junk: bytes) -> None:
    data = json.dumps(value).encode()
    decode_or_refuse(data[:cut])
    decode_or_refuse(data[:cut] + junk + data[cut:])


@FUZZ
@given(
    st.integers(-(2**53), 2**53) | st.text(max_size=10),
    st.text(min_size=1, max_size=20),
    st.dictionaries(st.text(max_size=6), json_values, max_size=4),
)
def test_what_the_client_sends_reads_back_unchanged(
    request_id: int | str, method: str, params: dict[str, Any]
) -> None:
    for message in (
        _jsonrpc.request(request_id, method, params),
        _jsonrpc.notification(method, params),
        _jsonrpc.result_response(request_id, params),
        _jsonrpc.error_response(request_id, -32603, method, params or None),
    ):
        encoded = _jsonrpc.encode(message)
        assert b"\n" not in encoded  # one message per stdio line
        assert _jsonrpc.decode(encoded) == message


@FUZZ
@given(st.dictionaries(st.text(max_size=6), json_values, max_size=4) | json_values)
def test_any_url_elicitation_required_data_gives_the_documented_error(data: Any) -> None:
    error = _jsonrpc.error_from({"code": -32042, "message": "open these", "data": data})
    assert isinstance(error, UrlElicitationRequiredError)
    assert isinstance(error.elicitations, list)


@pytest.mark.parametrize(
    "data",
    [
        b'{"jsonrpc":"2.0","id":1,"result":{"x":NaN}}',
        b'{"jsonrpc":"2.0","id":1,"result":{"x":-Infinity}}',
        "\ud800",  # found by test_arbitrary_text: a TypeError escaped decode
    ],
)
def test_not_json_is_refused_even_where_python_would_accept_it(data: bytes | str) -> None:
    with pytest.raises(ProtocolError, match="not JSON"):
        _jsonrpc.decode(data)


def test_deep_nesting_and_huge_numbers_are_refused_not_crashing() -> None:
    for data in (
        b"[" * 100_000,
        b'{"a":' * 10_000,
        b'{"jsonrpc":"2.0","id":' + b"9" * 100_000 + b',"result":{}}',
    ):
        with pytest.raises(ProtocolError):
            _jsonrpc.decode(data)
