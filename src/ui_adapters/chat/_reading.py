"""Free text typed in a chat, read as a field's value: the words people use, not the syntax a form wants.

A chat has no widgets: "1,200", "12.5 kg", "yep", "the second one", "24 Dec" and "next friday" must all
become values. Each reader turns text into a candidate value or raises ``ValueError`` with a short
reason saying what is expected; the field itself (``FormField.check``) then judges the value, so the
constraints are the same as in every other adapter. Dates and times go through ``dateparser`` (a
well-kept parser of natural-language dates, the ``chat`` extra); without it only ISO dates are read.
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo

from mcp_client.schema import AnswerValue, FieldKind, FormField, Option
from ui_adapters.chat._dates import read_date, read_date_time

__all__ = ["read_answer", "read_number", "read_yes_no"]

_YES = frozenset(
    {
        "y",
        "yes",
        "yeah",
        "yep",
        "yup",
        "sure",
        "ok",
        "okay",
        "true",
        "t",
        "on",
        "1",
        "correct",
        "right",
        "affirmative",
        "of course",
        "absolutely",
        "yes please",
        "please do",
        "go ahead",
        "do it",
        "✓",
        "✔",
        "👍",
    }
)
_NO = frozenset(
    {
        "n",
        "no",
        "nope",
        "nah",
        "false",
        "f",
        "off",
        "0",
        "no thanks",
        "no thank you",
        "negative",
        "not really",
        "don't",
        "dont",
        "do not",
        "✗",
        "✘",
        "👎",
    }
)
_NONE_WORDS = frozenset({"none", "nothing", "no one", "neither"})
_ALL_WORDS = frozenset({"all", "all of them", "everything", "every one", "both"})
# One number, maybe signed, with thousands separators (1,200 / 1 200 / 1_200 / 1'200) or a decimal
# point or comma, maybe wrapped in a unit or currency ("12.5 kg", "€12", "20%", "3 people").
_NUMBER = re.compile(r"[-+−]?(?:\d[\d,' _\u00a0\u202f]*)?\d(?:[.,]\d+)?|[-+−]?[.,]\d+")
_UNIT = re.compile(r"^[^\d]{0,12}$")
_LIST_SEPARATORS = re.compile(r"\s*[,;/]\s*")
_WORD_SEPARATORS = re.compile(r"\s*(?:&|\+|\band\b|\bplus\b)\s*")
_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "last": -1,
}
_FILLER = re.compile(r"^(?:the|option|number|no\.?|#)\s*|\s*(?:one|option)$")


def read_answer(field: FormField, text: str, *, now: datetime, zone: tzinfo) -> AnswerValue:
    """``field``'s value for ``text`` (not blank), or ``ValueError`` with what is expected.

    The value is checked against the field's constraints (``FormField.check``); the reason then comes
    from there ("must be at least 18").
    """
    value = _convert(field, text.strip(), now=now, zone=zone)
    reason = field.check(value)
    if reason is not None:
        raise ValueError(reason)
    return value


def _convert(field: FormField, text: str, *, now: datetime, zone: tzinfo) -> AnswerValue:
    kind = field.kind
    if kind in (FieldKind.TEXT, FieldKind.EMAIL, FieldKind.URI):
        return text
    if kind is FieldKind.DATE:
        return read_date(text, now=now).isoformat()
    if kind is FieldKind.DATE_TIME:
        return _iso_time(read_date_time(text, now=now, zone=zone))
    if kind is FieldKind.BOOLEAN:
        return read_yes_no(text)
    if kind is FieldKind.INTEGER or kind is FieldKind.NUMBER:
        return read_number(text, whole=kind is FieldKind.INTEGER)
    if kind is FieldKind.SINGLE_CHOICE:
        return _option(field.options, text)
    return _options(field.options, text)


def read_yes_no(text: str) -> bool:
    """True or False for a yes/no word in English ("yep", "no thanks"), else ``ValueError``."""
    word = _plain(text)
    if word in _YES:
        return True
    if word in _NO:
        return False
    raise ValueError("answer yes or no")


def read_number(text: str, *, whole: bool) -> int | float:
    """The one number in ``text``: separators and a unit around it are allowed ("1,200", "12.5 kg").

    A comma followed by exactly three digits groups thousands ("1,200" is 1200); otherwise a single
    comma is a decimal comma ("12,5" is 12.5). Text with no number, or with two, is refused.
    """
    wanted = "a whole number, like 42" if whole else "a number, like 12.5"
    found = list(_NUMBER.finditer(text))
    if len(found) != 1:
        raise ValueError(f"type {wanted}" if not found else f"type just one number ({wanted})")
    match = found[0]
    if not (_UNIT.match(text[: match.start()]) and _UNIT.match(text[match.end() :])):
        raise ValueError(f"type {wanted}")
    digits = _plain_number(match.group().replace("−", "-"))
    if digits is None:
        raise ValueError(f"type {wanted}")
    number = float(digits)
    if number.is_integer() and ("." not in digits or whole):
        return int(number) if abs(number) < 2**63 else number
    return number


def _plain_number(text: str) -> str | None:
    """``text`` as Python reads a number: thousands separators dropped, a decimal comma made a point.

    Groups after the first must have three digits ("1,200", "1 200 000"); a single comma followed by
    other than three digits is a decimal comma ("12,5"). ``None`` when the grouping makes no sense.
    """
    sign = text[0] if text[0] in "+-" else ""
    body = text[len(sign) :]
    if "." in body:
        body, fraction = body.rsplit(".", 1)
        fraction = "." + fraction
    else:
        fraction = ""
    groups = re.split(r"[,' _\u00a0\u202f]", body)
    if not fraction and len(groups) == 2 and "," in body and len(groups[1]) != 3 and groups[1].isdigit():
        return f"{sign}{groups[0] or 0}.{groups[1]}"  # 12,5: a decimal comma
    if len(groups) > 1 and not (1 <= len(groups[0]) <= 3 and all(len(group) == 3 for group in groups[1:])):
        return None
    joined = "".join(groups)
    if not (joined or fraction[1:]).isdigit() or (fraction and not fraction[1:].isdigit()):
        return None
    return f"{sign}{joined or 0}{fraction}"


def _option(options: tuple[Option, ...], text: str) -> str:
    """The option ``text`` names: its value, its label, its number (1-based, or "second"), or an
    unambiguous start of its label or value, ignoring case."""
    wanted = _plain(text)
    for option in options:  # exact value first: a quick reply sends it
        if option.value == text:
            return option.value
    for option in options:
        if _plain(option.value) == wanted or _plain(option.label) == wanted:
            return option.value
    position = _position(wanted, len(options))
    if position is not None:
        return options[position].value
    bare = _FILLER.sub("", wanted)
    if bare:
        starts = [
            option
            for option in options
            if _plain(option.label).startswith(bare) or _plain(option.value).startswith(bare)
        ]
        if len(starts) == 1:
            return starts[0].value
        if len(starts) > 1:
            names = ", ".join(option.label for option in starts[:5])
            raise ValueError(f'"{text}" could be {names}: type more of it, or its number')
    raise ValueError("choose one of the options, by its name or number")


def _options(options: tuple[Option, ...], text: str) -> list[str]:
    """The options a multiple-choice answer names, separated by commas or "and"; "none" and "all"."""
    wanted = _plain(text)
    if wanted in _NONE_WORDS:
        return []
    if wanted in _ALL_WORDS:
        return [option.value for option in options]
    try:  # an option whose own name holds a separator ("Salt & pepper")
        return [_option(options, text)]
    except ValueError:
        pass
    chosen: list[str] = []
    for piece in _LIST_SEPARATORS.split(text):
        if not piece.strip():
            continue
        try:  # "salt & vinegar" is one option even where "&" separates others
            values = [_option(options, piece)]
        except ValueError:
            values = [_option(options, part) for part in _WORD_SEPARATORS.split(piece) if part.strip()]
        chosen.extend(value for value in values if value not in chosen)
    return chosen


def _position(word: str, count: int) -> int | None:
    """The 0-based index ``word`` names ("2", "#2", "the second", "second one", "last")."""
    bare = _FILLER.sub("", word).strip()
    if bare.isdigit():
        number = int(bare)
        return number - 1 if 1 <= number <= count else None
    ordinal = _ORDINALS.get(bare)
    if ordinal is None:
        return None
    if ordinal == -1:
        return count - 1 if count else None
    return ordinal - 1 if ordinal <= count else None


def _plain(text: str) -> str:
    """``text`` folded for comparison: case, surrounding space and final punctuation ignored."""
    return " ".join(text.casefold().split()).strip(" .!?")


def _iso_time(moment: datetime) -> str:
    text = moment.isoformat(timespec="seconds")
    return text[:-6] + "Z" if text.endswith("+00:00") else text
