"""Each distinct ``requestedSchema`` parsed once: a server asks the same form again and again.

A legacy tool that asks on every call sends the same ``requestedSchema`` every time; parsing it
(``parse_form_schema``: every property checked against the spec's subset) is the larger part of
reading the question. The parsed ``FormSchema`` is immutable, so one parse serves every question whose
schema has the same JSON. The key is the schema's JSON text (``pydantic_core.to_json``, in the
server's key order), not Python equality: ``true`` and ``1`` are different schemas here, as are two
orders of the same properties (the form shows its fields in the server's order). A schema that is
refused is not kept: each question with it is refused again, with the same message. Bounded: the
oldest entry goes once ``MAX_SCHEMAS`` are kept.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import from_json, to_json

from mcp_client._schema.model import FormSchema
from mcp_client._schema.parse import parse_form_schema

__all__ = ["MAX_SCHEMAS", "parse_form_schema_once"]

MAX_SCHEMAS = 128
"""Distinct schemas kept per process."""

_parsed: dict[bytes, FormSchema] = {}


def parse_form_schema_once(schema: object) -> FormSchema:
    """``parse_form_schema(schema)``, parsed once per distinct JSON (see the module docstring).

    The form kept holds its own copy of the schema (``raw``), decoded from the key, so that what one
    caller does with the mapping it passed changes nothing for the next.
    """
    try:
        key = to_json(schema, inf_nan_mode="constants")  # NaN stays NaN, as the parser saw it
    except Exception:  # not JSON (params built by hand): parsed as it is, not kept
        return parse_form_schema(schema)
    form = _parsed.get(key)
    if form is None:
        copy: Any = from_json(key)
        form = parse_form_schema(copy)
        _parsed[key] = form
        while len(_parsed) > MAX_SCHEMAS:
            del _parsed[next(iter(_parsed))]
    return form
