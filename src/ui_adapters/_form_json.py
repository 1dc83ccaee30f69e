"""The normalized form as plain JSON, for front ends that render it themselves (a browser, a chat card).

``describe_form`` turns a ``FormSchema`` into lists and dicts that ``json.dumps`` accepts as they are,
so a web page never has to read raw JSON Schema. Every field has the same keys (``None`` where a
constraint does not apply to its kind), so a front end can read them without checking first. Server
text (labels, help, option labels) has terminal and bidi controls removed (``ui_adapters.text``) but
is otherwise as the server wrote it: a front end must still insert it as text, never as HTML.
"""

from __future__ import annotations

from typing import Any

from mcp_client.schema import AnswerValue, FormField, FormSchema
from ui_adapters.text import sanitize

__all__ = ["describe_field", "describe_form"]


def describe_form(form: FormSchema) -> dict[str, Any]:
    """``{"confirmation": bool, "fields": [...]}``; see ``describe_field`` for one field's keys."""
    return {
        "confirmation": form.is_confirmation,
        "fields": [describe_field(form_field) for form_field in form.fields],
    }


def describe_field(form_field: FormField) -> dict[str, Any]:
    """One field: ``name`` (the key its answer goes under), ``kind`` (a ``FieldKind`` value such as
    ``"date"`` or ``"multi-choice"``), ``label``, ``help``, ``required``, ``default``, the constraints
    ``min_length``, ``max_length``, ``minimum``, ``maximum``, ``min_items``, ``max_items`` and, for
    choices, ``options`` as ``[{"value", "label"}]`` in the server's order."""
    return {
        "name": form_field.name,
        "kind": form_field.kind.value,
        "label": sanitize(form_field.label, single_line=True) or form_field.name,
        "help": sanitize(form_field.help) if form_field.help else None,
        "required": form_field.required,
        "default": _json_value(form_field.default),
        "min_length": form_field.min_length,
        "max_length": form_field.max_length,
        "minimum": form_field.minimum,
        "maximum": form_field.maximum,
        "min_items": form_field.min_items,
        "max_items": form_field.max_items,
        "options": [
            {"value": option.value, "label": sanitize(option.label, single_line=True) or option.value}
            for option in form_field.options
        ],
    }


def _json_value(value: AnswerValue | None) -> AnswerValue | None:
    return list(value) if isinstance(value, list) else value
