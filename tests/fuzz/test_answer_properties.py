"""Properties of the answer the client sends back, beyond tests/schema/test_schema_properties.py.

That file checks the schema model on its own (``parse_form_schema``, ``validate_content``); here the
checks go one step further out, to what ``Router.answer`` (through ``ElicitationHandler``) puts on
the wire whatever the server asked and whatever the callback returned, to ``parse_request`` on
arbitrary ``params``, and to the text path the terminal adapters use
(``ui_adapters.terminal._typed_text.parse_typed``).
"""

from __future__ import annotations

from typing import Any

import anyio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_client._errors import ElicitationError, InvalidElicitationSchemaError, MCPError
from mcp_client._protocol import jsonrpc as _jsonrpc
from mcp_client._protocol.eras import UNSETTLED
from mcp_client._session.context import ClientRequestContext
from mcp_client._session.elicitation import ALL_MODES, ElicitationHandler, parse_request
from mcp_client._session.router import Router
from mcp_client.schema import parse_form_schema
from mcp_client.types import ElicitRequestURLParams, ElicitResult
from tests.schema.test_schema_properties import conform_schema, json_values, schemaish
from ui_adapters.terminal._typed_text import parse_typed

PROPS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CONTEXT = ClientRequestContext(server="test", server_info=None, protocol_version="2026-07-28", era="modern")

actions = st.sampled_from(["accept", "decline", "cancel"])


def callback_results(field_names: list[str]) -> st.SearchStrategy[Any]:
    """What a callback might return: right, wrong, or not an answer at all (or it raises)."""
    content = st.none() | st.dictionaries(
        st.sampled_from(field_names) | st.text(max_size=4) if field_names else st.text(max_size=4),
        json_values,
        max_size=5,
    )
    return st.one_of(
        st.builds(lambda a, c: ElicitResult.model_construct(action=a, content=c), actions, content),
        st.fixed_dictionaries({"action": actions | json_values}, optional={"content": content | json_values}),
        json_values,
        st.sampled_from([RuntimeError("boom"), MCPError(-32000, "refused by the callback")]),
    )


def _answer(params: Any, returned: Any) -> dict[str, Any]:
    async def callback(context: ClientRequestContext, _params: Any) -> Any:
        if isinstance(returned, Exception):
            raise returned
        return returned

    router = Router([ElicitationHandler(callback, ALL_MODES)])  # type: ignore[arg-type]
    return anyio.run(router.answer, "elicitation/create", params, CONTEXT, UNSETTLED)


def _check_wire_answer(answer: dict[str, Any], schema: dict[str, Any] | None) -> None:
    """What goes to the server: a known action; content only with accept, and then valid for the form."""
    assert answer["action"] in ("accept", "decline", "cancel")
    _jsonrpc.encode(answer)  # JSON-safe: no NaN, no infinity, nothing unserialisable
    if answer["action"] != "accept" or schema is None:
        assert set(answer) == {"action"}
        return
    form = parse_form_schema(schema)
    assert form.validate_content(answer["content"]) == answer["content"]  # valid and already normalized
    assert set(answer["content"]) <= {f.name for f in form.fields}


@PROPS
@given(generated=conform_schema(), message=st.text(max_size=10), data=st.data())
def test_only_a_valid_answer_ever_leaves(generated: Any, message: str, data: st.DataObject) -> None:
    schema, props = generated
    returned = data.draw(callback_results(list(props)), label="callback returned")
    params = {"mode": "form", "message": message, "requestedSchema": schema}
    try:
        answer = _answer(params, returned)
    except (ElicitationError, MCPError):
        return  # refused locally, with a documented error: nothing is sent
    _check_wire_answer(answer, schema)


@PROPS
@given(schema=json_values | schemaish, returned=callback_results(["a", "b"]))
def test_any_schema_and_any_callback_result_fail_only_in_documented_ways(schema: Any, returned: Any) -> None:
    params = {"mode": "form", "message": "Well?", "requestedSchema": schema}
    try:
        answer = _answer(params, returned)
    except (ElicitationError, MCPError):
        return
    _check_wire_answer(answer, schema)


@PROPS
@given(
    url=st.text(max_size=30) | st.just("https://pay.example.com/x"),
    elicitation_id=st.none() | st.text(max_size=6),
    content=st.dictionaries(st.text(max_size=4), json_values, max_size=3),
)
def test_a_url_answer_never_carries_content(
    url: str, elicitation_id: str | None, content: dict[str, Any]
) -> None:
    params: dict[str, Any] = {"mode": "url", "message": "Open it", "url": url}
    if elicitation_id is not None:
        params["elicitationId"] = elicitation_id
    try:
        answer = _answer(params, ElicitResult.model_construct(action="accept", content=content))
    except (ElicitationError, MCPError):
        return
    assert answer == {"action": "accept"}


@PROPS
@given(
    raw=json_values
    | st.fixed_dictionaries(
        {},
        optional={
            "mode": st.sampled_from(["form", "url", "FORM", ""]) | json_values,
            "message": st.text(max_size=6) | json_values,
            "url": st.text(max_size=10) | json_values,
            "elicitationId": st.text(max_size=4) | json_values,
            "requestedSchema": schemaish | json_values,
        },
    )
)
def test_parse_request_on_anything_fails_only_with_the_schema_error(raw: Any) -> None:
    try:
        params, schema = parse_request(raw)
    except InvalidElicitationSchemaError:
        return
    assert isinstance(raw, dict)
    if isinstance(params, ElicitRequestURLParams):
        assert schema is None and params.url == raw["url"]
    else:
        assert schema is not None and params.message == raw["message"]


@PROPS
@given(generated=conform_schema(), data=st.data())
def test_filling_defaults_never_overrides_an_answer_and_validation_is_idempotent(
    generated: Any, data: st.DataObject
) -> None:
    schema, props = generated
    form = parse_form_schema(schema)
    content = {
        name: data.draw(prop.valid, label=name) for name, prop in props.items() if data.draw(st.booleans())
    }
    filled = form.fill_defaults(content)
    assert {k: filled[k] for k in content} == content
    try:
        once = form.validate_content(filled)
    except ElicitationError:
        return
    assert form.validate_content(once) == once
    assert list(once) == [f.name for f in form.fields if f.name in once]  # the form's order


@PROPS
@given(generated=conform_schema(), text=st.text(max_size=20))
def test_typed_text_is_either_refused_with_a_reason_or_a_valid_value(generated: Any, text: str) -> None:
    """The terminal's text path: whatever is typed, ``parse_typed`` gives a value that passes ``check``."""
    schema, _ = generated
    for form_field in parse_form_schema(schema).fields:
        try:
            value = parse_typed(form_field, text)
        except ValueError as exc:
            assert str(exc)  # a reason the person can read
            continue
        if value is not None:
            assert form_field.check(value) is None


@PROPS
@given(generated=conform_schema(), data=st.data())
def test_a_valid_value_typed_back_as_text_reads_the_same(generated: Any, data: st.DataObject) -> None:
    schema, props = generated
    for form_field in parse_form_schema(schema).fields:
        value = data.draw(props[form_field.name].valid, label=form_field.name)
        if (
            isinstance(value, bool)
            or isinstance(value, list)
            or (isinstance(value, str) and value != value.strip())
        ):
            continue  # booleans are typed as yes/no, lists need their own separator, spaces are trimmed
        if isinstance(value, str) and (not value.strip() or "," in value):
            continue
        typed = repr(value) if isinstance(value, float) else str(value)
        assert parse_typed(form_field, typed) == value, (form_field, typed)
