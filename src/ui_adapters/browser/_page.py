"""The HTML of a question page: the form with a native, labelled input for every field kind.

Everything the server wrote (its name, the message, labels, help, option labels) goes through ``_text``
(control and bidi characters removed) and ``html.escape``: it is shown as text, never read as markup.
Inputs are named by the field's position and choices by option number (see ``_submission``), so no
server string ends up in a ``name`` or ``value`` attribute that comes back to us.

The page works without script (the browser's own validation, then ours). With script, which the
Content-Security-Policy allows only with this response's nonce, it shows the browser's validation
messages next to each field, checks how many options a multi-choice field has ticked, and keeps an
event stream open so the adapter knows when the tab is closed (and the page knows when the question
was closed elsewhere).
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping

from mcp_client.schema import AnswerValue, FieldKind, FormField, FormSchema
from ui_adapters._answer_text import number_text as _number
from ui_adapters.broker.pending import PendingQuestion, QuestionStatus
from ui_adapters.browser._submission import Submission, field_key, local_date_time
from ui_adapters.text import sanitize

__all__ = ["closed_text", "document", "escape", "json_text", "render_closed", "render_form", "render_notice"]

_MAX_MESSAGE = 8000
_MAX_LABEL = 200
_MAX_HELP = 1000

_CLOSED_TEXT: dict[QuestionStatus, tuple[str, str]] = {
    "answered": ("Answer sent", "Your answer was sent to {server}. You can close this tab."),
    "declined": ("Declined", "{server} was told that you declined. You can close this tab."),
    "cancelled": ("Cancelled", "The question from {server} was cancelled. You can close this tab."),
    "timed-out": (
        "Timed out",
        "Nobody answered in time, so the question from {server} was cancelled. You can close this tab.",
    ),
    "withdrawn": ("No longer needed", "{server} no longer needs this answer. You can close this tab."),
    "pending": ("Waiting", "The question from {server} is still waiting for an answer."),
}

_CSS = """
:root { color-scheme: light dark; --accent: #2458d6; --error: #b3261e; --muted: #5f6368;
  --line: #d6d9de; --card: #ffffff; --page: #f3f4f7; }
@media (prefers-color-scheme: dark) { :root { --accent: #8ab4f8; --error: #f2b8b5; --muted: #a9adb3;
  --line: #3c4043; --card: #202124; --page: #17181a; } }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px 16px; background: var(--page); font: 16px/1.45 system-ui, -apple-system,
  "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
main { max-width: 620px; margin: 0 auto; background: var(--card); border: 1px solid var(--line);
  border-radius: 12px; padding: 24px 28px; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
.asker { margin: 0; color: var(--muted); font-size: 14px; }
.asker strong { color: inherit; font-weight: 600; }
.count { float: right; margin: 0; color: var(--muted); font-size: 14px; }
.message { margin: 8px 0 20px; font-size: 19px; font-weight: 600; white-space: pre-wrap;
  overflow-wrap: anywhere; }
.field { margin: 0 0 18px; padding: 0; border: 0; min-width: 0; }
.field > label:not(.choice), .field > legend { display: block; font-weight: 600; margin-bottom: 4px;
  padding: 0; }
.required { color: var(--error); margin-left: 2px; }
.help, .hint { margin: 0 0 6px; color: var(--muted); font-size: 14px; white-space: pre-wrap;
  overflow-wrap: anywhere; }
input[type=text], input[type=email], input[type=url], input[type=number], input[type=date],
input[type=datetime-local], select { width: 100%; padding: 8px 10px; font: inherit;
  border: 1px solid var(--line); border-radius: 8px; background: transparent; color: inherit; }
input:focus-visible, select:focus-visible, button:focus-visible { outline: 2px solid var(--accent);
  outline-offset: 1px; }
.choice { display: flex; gap: 8px; align-items: center; margin: 4px 0; font-weight: 400; }
.choices-inline .choice { display: inline-flex; margin-right: 18px; }
.error { margin: 4px 0 0; color: var(--error); font-size: 14px; }
.error:empty { display: none; }
[aria-invalid=true] { border-color: var(--error) !important; }
.form-error, .closed { padding: 10px 12px; border-radius: 8px; margin: 0 0 16px; }
.form-error { border: 1px solid var(--error); color: var(--error); }
.closed { border: 1px solid var(--line); }
.actions { display: flex; gap: 10px; flex-wrap: wrap; margin-top: 22px; }
button { font: inherit; padding: 8px 18px; border-radius: 8px; border: 1px solid var(--line);
  background: transparent; color: inherit; cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; font-weight: 600; }
@media (prefers-color-scheme: dark) { button.primary { color: #202124; } }
footer { max-width: 620px; margin: 12px auto 0; color: var(--muted); font-size: 13px; text-align: center; }
"""

CLOSED_SCRIPT = """\
  const closed = document.getElementById("closed");
  const texts = JSON.parse(document.getElementById("closed-texts").textContent);
  const events = new EventSource(form.dataset.events);
  events.addEventListener("closed", (event) => {
    events.close();
    closed.textContent = texts[event.data] || texts.withdrawn;
    closed.hidden = false;
    Array.from(form.elements).forEach((element) => { element.disabled = true; });
  });
"""
"""A page script's end, inside its function where ``form`` is the page's form: once the server says the
page is closed (its ``closed`` event: answered, timed out, withdrawn), the form is disabled and the
sentence for that outcome (the ``closed-texts`` JSON) shown. Shared by the question and approval pages."""

_SCRIPT = (
    """
"use strict";
(() => {
  const form = document.getElementById("question");
  if (!form) { return; }
  const errorBox = (name) => document.getElementById("error-" + String(name).replace("field-", ""));
  const show = (name, text) => { const box = errorBox(name); if (box) { box.textContent = text; } };
  const groups = Array.from(form.querySelectorAll("fieldset[data-min], fieldset[data-max]"));
  const checkGroup = (group) => {
    const boxes = Array.from(group.querySelectorAll("input[type=checkbox]"));
    if (boxes.length === 0) { return; }
    const ticked = boxes.filter((box) => box.checked).length;
    const min = group.dataset.min ? Number(group.dataset.min) : 0;
    const max = group.dataset.max ? Number(group.dataset.max) : Infinity;
    const options = (n) => n + (n === 1 ? " option" : " options");
    let problem = "";
    if (ticked < min) { problem = "Choose at least " + options(min) + "."; }
    if (ticked > max) { problem = "Choose at most " + options(max) + "."; }
    boxes[0].setCustomValidity(problem);
    if (!problem) { show(boxes[0].name, ""); group.removeAttribute("aria-invalid"); }
  };
  groups.forEach(checkGroup);
  form.addEventListener("invalid", (event) => {
    const input = event.target;
    show(input.name, input.validationMessage);
    const group = input.closest("fieldset");
    (group || input).setAttribute("aria-invalid", "true");
  }, true);
  form.addEventListener("input", (event) => {
    const input = event.target;
    const group = input.closest("fieldset[data-min], fieldset[data-max]");
    if (group) { checkGroup(group); return; }
    if (input.name && input.validity.valid) {
      show(input.name, "");
      const holder = input.closest("fieldset") || input;
      holder.removeAttribute("aria-invalid");
    }
  });
"""
    + CLOSED_SCRIPT
    + """})();
"""
)


def closed_text(status: QuestionStatus, server: str) -> str:
    """The sentence that tells the person what became of the question."""
    return _CLOSED_TEXT[status][1].format(server=server)


def render_form(
    question: PendingQuestion,
    form: FormSchema,
    *,
    nonce: str,
    csrf: str,
    action: str,
    events: str,
    submission: Submission | None = None,
    errors: Mapping[str, str] | None = None,
) -> str:
    """The question page. ``submission`` and ``errors`` re-show a post that was refused, with the
    person's input kept and each problem next to its field."""
    errors = errors or {}
    server = _server(question)
    count = question.context.question_count
    fields = "\n".join(
        _field_html(index, form_field, submission, errors.get(form_field.name))
        for index, form_field in enumerate(form.fields)
    )
    form_error = errors.get("")
    closed_texts = {status: closed_text(status, server) for status in _CLOSED_TEXT}
    return _document(
        f"Question from {server}",
        nonce,
        f"""<main>
<p class="count">{_count_text(question.context.question_index, count)}</p>
<p class="asker"><strong id="server">{_text(server)}</strong>{_tool(question)} asks</p>
<p class="message" id="message">{_text(sanitize(question.message, max_length=_MAX_MESSAGE))}</p>
<div class="closed" id="closed" role="status" hidden></div>
{f'<p class="form-error" role="alert">{_text(form_error)}</p>' if form_error else ""}
<form id="question" method="post" action="{_attr(action)}" data-events="{_attr(events)}">
<input type="hidden" name="csrf" value="{_attr(csrf)}">
{fields}
<div class="actions">
<button type="submit" name="action" value="accept" class="primary" id="accept">Accept</button>
<button type="submit" name="action" value="decline" id="decline" formnovalidate>Decline</button>
<button type="submit" name="action" value="cancel" id="cancel" formnovalidate>Cancel</button>
</div>
</form>
</main>
<footer>Shown by mcp-client on this computer, for this question only. Closing this tab cancels the
question.</footer>
<script type="application/json" id="closed-texts">{_json_text(closed_texts)}</script>
<script nonce="{_attr(nonce)}">{_SCRIPT}</script>""",
    )


def render_closed(question: PendingQuestion, *, nonce: str) -> str:
    """The page shown once the question is settled (by this page, another one, or the timeout)."""
    server = _server(question)
    title, _ = _CLOSED_TEXT[question.status]
    return _document(
        f"{title}: question from {server}",
        nonce,
        f"""<main>
<p class="asker"><strong id="server">{_text(server)}</strong>{_tool(question)} asked</p>
<p class="message" id="message">{_text(sanitize(question.message, max_length=_MAX_MESSAGE))}</p>
<p class="closed" id="closed" role="status">{_text(closed_text(question.status, server))}</p>
</main>""",
    )


def render_notice(title: str, text: str, *, nonce: str) -> str:
    """A page for a request we refuse (an out-of-date form, a missing page)."""
    return _document(title, nonce, f'<main><p class="message">{_text(title)}</p><p>{_text(text)}</p></main>')


# ------------------------------------------------------------------------------------------- fields


def _field_html(index: int, form_field: FormField, submission: Submission | None, error: str | None) -> str:
    kind = form_field.kind
    if kind is FieldKind.BOOLEAN or kind is FieldKind.MULTI_CHOICE:
        return _group_html(index, form_field, submission, error)
    key = field_key(index)
    described = f"help-{index} hint-{index} error-{index}"
    attributes = [f'id="{key}"', f'name="{key}"', f'aria-describedby="{described}"']
    if form_field.required:
        attributes.append("required")
    if error:
        attributes.append('aria-invalid="true"')
    shown = _shown_value(form_field, submission.sent(index) if submission is not None else None)
    if kind is FieldKind.SINGLE_CHOICE:
        control = _select_html(form_field, attributes, shown)
    else:
        attributes.extend(_input_attributes(form_field))
        if shown:
            attributes.append(f'value="{_attr(shown[0])}"')
        control = f"<input {' '.join(attributes)}>"
    return f"""<div class="field" data-kind="{kind.value}">
<label for="{key}">{_label_html(form_field)}</label>
{_help_html(index, form_field)}
{control}
{_hint_html(index, form_field)}
<p class="error" id="error-{index}" aria-live="polite">{_text(error or "")}</p>
</div>"""


def _group_html(index: int, form_field: FormField, submission: Submission | None, error: str | None) -> str:
    """Yes/no as two radio buttons, a multi-choice as checkboxes, in a fieldset whose legend is the label.

    A boolean with no default starts with neither chosen: the person must pick (a required one cannot
    be sent without).
    """
    key = field_key(index)
    shown = _shown_value(form_field, submission.sent(index) if submission is not None else None)
    if form_field.kind is FieldKind.BOOLEAN:
        choices = [("true", "Yes"), ("false", "No")]
        kind_attrs = 'type="radio"' + (" required" if form_field.required else "")
        layout = "choices-inline"
        group_data = ""
    else:
        choices = [(str(number), option.label) for number, option in enumerate(form_field.options)]
        kind_attrs = 'type="checkbox"'
        layout = ""
        group_data = "".join(
            f' data-{name}="{value}"'
            for name, value in (("min", form_field.min_items), ("max", form_field.max_items))
            if value is not None
        )
    invalid = ' aria-invalid="true"' if error else ""
    items = "\n".join(
        f'<label class="choice"><input {kind_attrs} id="{key}-{number}" name="{key}" value="{_attr(value)}"'
        f'{" checked" if value in shown else ""} aria-describedby="help-{index} hint-{index} error-{index}">'
        f" {_text(sanitize(label, max_length=_MAX_LABEL, single_line=True))}</label>"
        for number, (value, label) in enumerate(choices)
    )
    opening = f'class="field {layout}" data-kind="{form_field.kind.value}" id="group-{index}"'
    return f"""<fieldset {opening}{group_data}{invalid}>
<legend>{_label_html(form_field)}</legend>
{_help_html(index, form_field)}
{items}
{_hint_html(index, form_field)}
<p class="error" id="error-{index}" aria-live="polite">{_text(error or "")}</p>
</fieldset>"""


def _select_html(form_field: FormField, attributes: list[str], shown: list[str]) -> str:
    placeholder = "Choose one" if form_field.required else "(none)"
    options = [f'<option value=""{" selected" if not shown else ""}>{placeholder}</option>']
    for number, option in enumerate(form_field.options):
        selected = " selected" if str(number) in shown else ""
        label = _text(sanitize(option.label, max_length=_MAX_LABEL, single_line=True) or option.value)
        options.append(f'<option value="{number}"{selected}>{label}</option>')
    return f"<select {' '.join(attributes)}>\n" + "\n".join(options) + "\n</select>"


def _input_attributes(form_field: FormField) -> list[str]:
    kind = form_field.kind
    attributes = [f'type="{_INPUT_TYPES[kind]}"']
    if kind is FieldKind.INTEGER or kind is FieldKind.NUMBER:
        attributes.append('step="1"' if kind is FieldKind.INTEGER else 'step="any"')
        attributes.append('inputmode="numeric"' if kind is FieldKind.INTEGER else 'inputmode="decimal"')
        if form_field.minimum is not None:
            attributes.append(f'min="{_number(form_field.minimum)}"')
        if form_field.maximum is not None:
            attributes.append(f'max="{_number(form_field.maximum)}"')
    elif kind is FieldKind.DATE_TIME:
        attributes.append('step="1"')
    else:
        if form_field.min_length is not None:
            attributes.append(f'minlength="{form_field.min_length}"')
        if form_field.max_length is not None:
            attributes.append(f'maxlength="{form_field.max_length}"')
        if kind is FieldKind.EMAIL:
            attributes.append('autocomplete="email"')
        else:
            attributes.append('autocomplete="off"')
    return attributes


_INPUT_TYPES = {
    FieldKind.TEXT: "text",
    FieldKind.EMAIL: "email",
    FieldKind.URI: "url",
    FieldKind.DATE: "date",
    FieldKind.DATE_TIME: "datetime-local",
    FieldKind.INTEGER: "number",
    FieldKind.NUMBER: "number",
}


def _shown_value(form_field: FormField, sent: list[str] | None) -> list[str]:
    """What the inputs show, as form values: what the person posted, else the schema's default."""
    if sent is not None:
        return sent
    default = form_field.default
    if default is None:
        return []
    return _form_values(form_field, default)


def _form_values(form_field: FormField, value: AnswerValue) -> list[str]:
    kind = form_field.kind
    if kind is FieldKind.BOOLEAN:
        return ["true" if value else "false"]
    if kind is FieldKind.SINGLE_CHOICE or kind is FieldKind.MULTI_CHOICE:
        wanted = value if isinstance(value, list) else [value]
        return [str(number) for number, option in enumerate(form_field.options) if option.value in wanted]
    if kind is FieldKind.DATE_TIME:
        return [local_date_time(str(value))]
    if isinstance(value, float):
        return [_number(value)]
    return [str(value)]


def _label_html(form_field: FormField) -> str:
    label = _text(sanitize(form_field.label, max_length=_MAX_LABEL, single_line=True) or form_field.name)
    if not form_field.required:
        return label
    return (
        f'{label}<span class="required" aria-hidden="true">*</span><span class="sr-only"> (required)</span>'
    )


def _help_html(index: int, form_field: FormField) -> str:
    if not form_field.help:
        return ""
    return f'<p class="help" id="help-{index}">{_text(sanitize(form_field.help, max_length=_MAX_HELP))}</p>'


def _hint_html(index: int, form_field: FormField) -> str:
    hint = _hint(form_field)
    return f'<p class="hint" id="hint-{index}">{_text(hint)}</p>' if hint else ""


def _hint(form_field: FormField) -> str:
    """The constraints in words, so the person knows the rules before breaking one."""
    kind = form_field.kind
    if kind is FieldKind.MULTI_CHOICE:
        low, high = form_field.min_items, form_field.max_items
        return _range_text(
            low or None,
            high,
            "Choose at least {} option",
            "Choose at most {} option",
            "Choose {} to {} options",
        )
    if kind is FieldKind.INTEGER or kind is FieldKind.NUMBER:
        low, high = form_field.minimum, form_field.maximum
        what = "A whole number" if kind is FieldKind.INTEGER else "A number"
        if low is not None and high is not None:
            return f"{what} from {_number(low)} to {_number(high)}"
        if low is not None:
            return f"{what}, at least {_number(low)}"
        if high is not None:
            return f"{what}, at most {_number(high)}"
        return ""
    if kind is FieldKind.DATE_TIME:
        return "In your local time"
    if kind in (FieldKind.TEXT, FieldKind.EMAIL, FieldKind.URI):
        return _range_text(
            form_field.min_length or None,
            form_field.max_length,
            "At least {} character",
            "At most {} character",
            "{} to {} characters",
        )
    return ""


def _range_text(low: int | None, high: int | None, at_least: str, at_most: str, between: str) -> str:
    if low is not None and high is not None:
        return between.format(low, high)
    if low is not None:
        return at_least.format(low) + ("" if low == 1 else "s")
    if high is not None:
        return at_most.format(high) + ("" if high == 1 else "s")
    return ""


# ------------------------------------------------------------------------------------------ helpers


def _document(title: str, nonce: str, body: str) -> str:
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>{_text(title)}</title>
<style nonce="{_attr(nonce)}">{_CSS}.sr-only {{ position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip-path: inset(50%); white-space: nowrap; }}</style>
</head>
<body>
{body}
</body>
</html>
"""


def _server(question: PendingQuestion) -> str:
    return sanitize(question.server_name, max_length=_MAX_LABEL, single_line=True) or "The server"


def _tool(question: PendingQuestion) -> str:
    """`` · book_table`` (as HTML) when the question says which tool call asks, else nothing."""
    tool = sanitize(question.context.tool_name or "", max_length=_MAX_LABEL, single_line=True)
    return f' · <strong id="tool">{_text(tool)}</strong>' if tool else ""


def _count_text(index: int, count: int) -> str:
    return f"Question {index} of {count}" if count > 1 else ""


def _text(text: str) -> str:
    """Server text as HTML text content: every ``<``, ``&`` and quote escaped."""
    return html.escape(text, quote=True)


escape = _text
"""``_text`` for the other pages of the package (the approval page)."""


def document(title: str, nonce: str, body: str) -> str:
    """A whole page with the package's style (for the approval page)."""
    return _document(title, nonce, body)


def json_text(value: object) -> str:
    """``_json_text`` for the other pages of the package."""
    return _json_text(value)


def _attr(text: str) -> str:
    return html.escape(text, quote=True)


def _json_text(value: object) -> str:
    """JSON inside a ``<script type=application/json>``: ``<``, ``>`` and ``&`` escaped, so the text
    can never close the element early."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
