"""Free text in a chat, read per field kind: at least 200 typed replies per kind, each with the value
sent or a re-ask (the same question again, with a reason), through the whole ``ChatForm``."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_client.types import ElicitRequestFormParams
from tests.ui_adapters import chat_answers as table
from ui_adapters.chat import ChatForm

# Dates typed in words need the chat extra (dateparser); the floor venv runs without it.
pytest.importorskip("dateparser", reason="the chat extra is not installed: pip install -e '.[chat]'")

SCHEMAS: dict[str, dict[str, Any]] = {
    "boolean": {"type": "boolean", "title": "Agree"},
    "integer": {"type": "integer", "title": "Count"},
    "number": {"type": "number", "title": "Amount"},
    "single-choice": {
        "type": "string",
        "title": "Size",
        "oneOf": [{"const": value, "title": label} for value, label in table.SIZES],
    },
    "multi-choice": {
        "type": "array",
        "title": "Toppings",
        "items": {"anyOf": [{"const": value, "title": label} for value, label in table.TOPPINGS]},
    },
    "date": {"type": "string", "format": "date", "title": "Day"},
    "date-time": {"type": "string", "format": "date-time", "title": "When"},
    "text": {"type": "string", "title": "Note", "minLength": 2, "maxLength": 40},
    "email": {"type": "string", "format": "email", "title": "E-mail"},
    "uri": {"type": "string", "format": "uri", "title": "Link"},
}
TABLES: dict[str, list[table.Row]] = {
    "boolean": table.BOOLEAN,
    "integer": table.INTEGER,
    "number": table.NUMBER,
    "single-choice": table.SINGLE_CHOICE,
    "multi-choice": table.MULTI_CHOICE,
    "date": table.DATE,
    "date-time": table.DATE_TIME,
    "text": table.TEXT,
    "email": table.EMAIL,
    "uri": table.URI,
}


def _form(kind: str) -> ChatForm:
    schema = {"type": "object", "properties": {"value": SCHEMAS[kind]}, "required": ["value"]}
    params = ElicitRequestFormParams(message="One question", requested_schema=schema)
    return ChatForm(params, now=lambda: table.NOW)


@pytest.mark.parametrize("kind", list(TABLES))
def test_two_hundred_replies_per_kind(kind: str) -> None:
    rows = TABLES[kind]
    assert len(rows) >= 200, f"the {kind} table has only {len(rows)} rows"
    wrong: list[str] = []
    for typed, expected in rows:
        form = _form(kind)
        message = form.reply(typed)
        if expected is table.REASK:
            if message.step != "field" or not message.error or not message.text.startswith("Sorry: "):
                wrong.append(f"{typed!r}: expected a re-ask, got step {message.step} {message.text!r}")
            continue
        if message.step != "review":
            wrong.append(f"{typed!r}: expected {expected!r}, re-asked: {message.error}")
            continue
        form.reply("send")
        sent = form.result()
        assert sent.action == "accept" and sent.content is not None
        value = sent.content["value"]
        same = value == pytest.approx(expected) if isinstance(expected, float) else value == expected
        if not same or isinstance(value, bool) != isinstance(expected, bool):
            wrong.append(f"{typed!r}: expected {expected!r}, sent {value!r}")
    assert not wrong, f"{len(wrong)} of {len(rows)} {kind} replies read wrong:\n" + "\n".join(wrong[:40])
