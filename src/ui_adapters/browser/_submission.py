"""What the browser posted, turned into an answer for the form, or into one error per field.

The page names its inputs ``field-<n>`` (the field's place in the form) and its choices by option
number, so nothing the server chose (property names, option values) travels through HTML attributes
and back. Every value is converted by the field's kind and checked with the form model
(``FormField.check``, then ``FormSchema.validate_content``): the browser's own validation helps the
person, this is what decides. A post that skips the page (a script, a forged request) gets the same
checks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal
from urllib.parse import parse_qs

from mcp_client import InvalidElicitationContentError
from mcp_client.schema import AnswerValue, FieldKind, FormField, FormSchema
from ui_adapters.browser._http import BadRequest

__all__ = ["Submission", "field_key", "local_date_time", "parse_submission", "read_answer"]

Action = Literal["accept", "decline", "cancel"]
_ACTIONS: tuple[Action, ...] = ("accept", "decline", "cancel")
_TEXT_KINDS = frozenset({FieldKind.TEXT, FieldKind.EMAIL, FieldKind.URI, FieldKind.DATE})


def field_key(index: int) -> str:
    """The name of the input (or inputs) of the field at ``index``."""
    return f"field-{index}"


@dataclass(slots=True)
class Submission:
    """A decoded post: the button pressed, the CSRF token, and what was sent for each field."""

    action: Action
    csrf: str
    values: dict[str, list[str]] = field(default_factory=dict[str, list[str]])

    def sent(self, index: int) -> list[str]:
        return self.values.get(field_key(index), [])


def parse_submission(content_type: str | None, body: bytes) -> Submission:
    """Decode an ``application/x-www-form-urlencoded`` post; ``BadRequest`` for anything else."""
    if (content_type or "").split(";")[0].strip().lower() != "application/x-www-form-urlencoded":
        raise BadRequest("the answer must be posted as application/x-www-form-urlencoded")
    try:
        values = parse_qs(
            body.decode("utf-8"), keep_blank_values=True, strict_parsing=False, max_num_fields=1000
        )
    except (UnicodeDecodeError, ValueError):
        raise BadRequest("the posted form is not valid UTF-8 form data") from None
    actions = values.pop("action", [])
    tokens = values.pop("csrf", [])
    if len(actions) != 1 or actions[0] not in _ACTIONS:
        raise BadRequest("the post must say which button was pressed: accept, decline or cancel")
    action: Action = _ACTIONS[_ACTIONS.index(actions[0])]  # pyright: ignore[reportAssignmentType]
    return Submission(action=action, csrf=tokens[0] if len(tokens) == 1 else "", values=values)


def read_answer(form: FormSchema, submission: Submission) -> tuple[dict[str, AnswerValue], dict[str, str]]:
    """``(content, errors)``: the accept content ready to send, or ``errors`` by field name.

    ``errors`` maps a field name to a short sentence ("Must be at least 18"); the key ``""`` holds a
    problem with the form as a whole. When ``errors`` is empty, ``content`` passed
    ``FormSchema.validate_content`` (defaults are filled in for fields left empty that have one).
    """
    content: dict[str, AnswerValue] = {}
    errors: dict[str, str] = {}
    for index, form_field in enumerate(form.fields):
        try:
            value = _convert(form_field, submission.sent(index))
        except ValueError as exc:
            errors[form_field.name] = _sentence(str(exc))
            continue
        reason = form_field.check(value)
        if reason is not None:
            errors[form_field.name] = _sentence(reason)
        elif value is not None:
            content[form_field.name] = value
    if errors:
        return {}, errors
    try:
        return dict(form.validate_content(form.fill_defaults(content))), {}
    except InvalidElicitationContentError as exc:  # a rule only the whole form can break
        return {}, {exc.field or "": str(exc)}


def local_date_time(value: str) -> str:
    """A stored RFC 3339 date-time as a ``datetime-local`` input shows it: in this machine's time zone.

    The browser runs on this machine (the page is served on loopback), so its local time is ours.
    """
    try:
        moment = datetime.fromisoformat(value.upper())
    except ValueError:
        return ""
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%dT%H:%M:%S")


def _convert(form_field: FormField, sent: list[str]) -> AnswerValue | None:
    kind = form_field.kind
    if kind is FieldKind.MULTI_CHOICE:
        chosen = [_option(form_field, text) for text in sent if text != ""]
        if chosen or form_field.required or not form_field.min_items:
            return chosen  # nothing ticked is an empty choice, unless that would break an optional field
        return None
    if len(sent) > 1:
        raise ValueError("was sent more than once")
    text = sent[0] if sent else ""
    if kind is FieldKind.TEXT:
        return text or None
    text = text.strip()
    if not text:
        return None
    if kind in _TEXT_KINDS:
        return text
    if kind is FieldKind.DATE_TIME:
        return _with_time_zone(text)
    if kind is FieldKind.BOOLEAN:
        if text not in ("true", "false"):
            raise ValueError("must be yes or no")
        return text == "true"
    if kind is FieldKind.SINGLE_CHOICE:
        return _option(form_field, text)
    return _number(form_field, text)


def _option(form_field: FormField, text: str) -> str:
    if text.isascii() and text.isdigit() and len(text) <= 6 and int(text) < len(form_field.options):
        return form_field.options[int(text)].value
    raise ValueError("is not one of the options")


def _number(form_field: FormField, text: str) -> int | float:
    whole = form_field.kind is FieldKind.INTEGER
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        raise ValueError("must be a whole number" if whole else "must be a number") from None
    if not math.isfinite(number):
        raise ValueError("must be a finite number")
    if whole and number.is_integer():
        return int(number)
    return number


def _with_time_zone(text: str) -> str:
    """A ``datetime-local`` value (no zone) read in this machine's zone; a value with a zone is kept."""
    try:
        moment = datetime.fromisoformat(text.upper())
    except ValueError:
        return text  # FormField.check names the format it should have
    if moment.tzinfo is not None:
        return text
    return moment.astimezone().isoformat()


def _sentence(reason: str) -> str:
    return reason[:1].upper() + reason[1:]
