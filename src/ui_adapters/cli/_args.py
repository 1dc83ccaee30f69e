"""``KEY=VALUE`` words from the command line, turned into a tool's arguments by its ``inputSchema``.

A shell only has strings, a tool wants JSON. Each value is read as the type its parameter declares:
``integer`` (``42``), ``number`` (``2.5``), ``boolean`` (``true``/``false``, ``yes``/``no``, ``1``/``0``),
``null`` (``null``), ``array`` and ``object`` (JSON text), ``string`` (as typed). When a parameter
accepts several types, the first that reads the text wins, strings last, so ``n=5`` is ``5`` for
``integer | string``. A parameter the schema says nothing about takes JSON if the text is JSON, else
the text itself.

Every problem is reported at once (wrong type, not a choice, unknown name, missing required one),
followed by the tool's parameter list, so one failed attempt shows how to write the right one.
"""

from __future__ import annotations

import difflib
import json
import math
import re
import shlex
from collections.abc import Callable, Sequence
from typing import Any

from mcp_client.types import Tool
from ui_adapters.cli._exit import UsageError
from ui_adapters.cli._params import Parameter, accepts_extra, parameters_of

__all__ = ["ArgumentsError", "parse_arguments", "suggest", "usage_line"]

_INTEGER = re.compile(r"[+-]?\d+")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_TRUE = frozenset({"true", "yes", "y", "on", "1"})
_FALSE = frozenset({"false", "no", "n", "off", "0"})
# Which type gets the first try when a parameter accepts several: the most particular first.
_TRY_ORDER = ("null", "integer", "number", "boolean", "array", "object", "string")
_ARTICLE = {"integer": "an integer", "array": "an array", "object": "an object", "null": "null"}
_EXAMPLES = {
    "integer": "42",
    "number": "2.5",
    "boolean": "true",
    "null": "null",
    "array": """'["a", "b"]'""",
    "object": """'{"key": "value"}'""",
}


class ArgumentsError(UsageError):
    """The ``KEY=VALUE`` words do not fit the tool; ``problems`` lists each, ``tool`` is the tool."""

    def __init__(self, tool: Tool, problems: Sequence[str]) -> None:
        self.tool = tool
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


def parse_arguments(tool: Tool, words: Sequence[str]) -> dict[str, Any]:
    """The JSON arguments for ``tool`` from ``KEY=VALUE`` words; ``ArgumentsError`` lists every problem."""
    params = {p.name: p for p in parameters_of(tool)}
    open_schema = accepts_extra(tool)
    arguments: dict[str, Any] = {}
    given: set[str] = set()  # names given, read or not: a wrong value is not also "missing"
    problems: list[str] = []
    for word in words:
        key, sep, text = word.partition("=")
        if not sep or not key:
            problems.append(f"{word!r} is not KEY=VALUE (write e.g. {_example_word(tool)})")
            continue
        if key in given:
            problems.append(f"{key} is given twice")
            continue
        given.add(key)
        param = params.get(key)
        if param is None and not open_schema:
            problems.append(_unknown(tool, key, list(params)))
            continue
        try:
            arguments[key] = convert(param, text) if param is not None else _guess(text)
        except ValueError as error:
            problems.append(f"{key}: {error}")
    missing = [p.name for p in params.values() if p.required and p.name not in given]
    if missing:
        noun = "parameter" if len(missing) == 1 else "parameters"
        problems.append(f"missing required {noun}: {', '.join(missing)}")
    if problems:
        raise ArgumentsError(tool, problems)
    return arguments


def convert(param: Parameter, text: str) -> Any:
    """``text`` as a value of ``param``'s declared types; ``ValueError`` saying what was expected."""
    if not param.types:
        value = _guess(text)
    else:
        ordered = sorted(param.types, key=_TRY_ORDER.index)
        for kind in ordered:
            try:
                value = _READERS[kind](text)
                break
            except ValueError:
                continue
        else:
            raise ValueError(
                _not_json(param, text) or f"expected {_expected(param)}, got {text!r}{_hint(param)}"
            )
    if param.choices and value not in param.choices:
        raise ValueError(f"expected {param.type_label}, got {text!r}")
    return value


def usage_line(tool: Tool, program: str, server: str) -> str:
    """``mcp-client call SERVER TOOL date=STRING party_size=INTEGER [note=STRING]``."""
    words: list[str] = []
    for param in parameters_of(tool):
        placeholder = "|".join(param.types).upper() if param.types else "VALUE"
        word = f"{param.name}={placeholder}"
        words.append(word if param.required else f"[{word}]")
    return " ".join([program, "call", server, tool.name, *words])


def _read_null(text: str) -> None:
    if text != "null":
        raise ValueError
    return None


def _read_integer(text: str) -> int:
    if not _INTEGER.fullmatch(text.strip()):
        raise ValueError
    return int(text)


def _read_number(text: str) -> int | float:
    stripped = text.strip()
    if not _NUMBER.fullmatch(stripped):
        raise ValueError
    if _INTEGER.fullmatch(stripped):
        return int(stripped)
    value = float(stripped)
    if math.isinf(value):
        raise ValueError
    return value


def _read_boolean(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ValueError


def _read_json(kind: type[Any]) -> Callable[[str], Any]:
    def read(text: str) -> Any:
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError from error
        if not isinstance(value, kind):
            raise ValueError
        return value

    return read


_READERS: dict[str, Callable[[str], Any]] = {
    "null": _read_null,
    "integer": _read_integer,
    "number": _read_number,
    "boolean": _read_boolean,
    "array": _read_json(list),
    "object": _read_json(dict),
    "string": str,
}


def _guess(text: str) -> Any:
    """For a parameter with no declared type: JSON when the text is JSON, else the text itself."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _not_json(param: Parameter, text: str) -> str | None:
    """For a list or object parameter given text that starts like JSON but does not parse: where it broke."""
    if not ({"array", "object"} & set(param.types)) or not text.lstrip().startswith(("[", "{")):
        return None
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return f"not valid JSON at char {error.pos} ({error.msg}): {text!r}{_hint(param)}"
    return None


def _expected(param: Parameter) -> str:
    names = [_ARTICLE.get(kind, f"a {kind}") for kind in param.types]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _hint(param: Parameter) -> str:
    if param.example is not None and ("array" in param.types or "object" in param.types):
        return f" (write e.g. {param.name}={shlex.quote(param.example)})"
    examples = [_EXAMPLES[kind] for kind in param.types if kind in _EXAMPLES]
    if not examples:
        return ""
    shown = " or ".join(f"{param.name}={example}" for example in examples[:2])
    return f" (write e.g. {shown})"


def suggest(given: str, names: Sequence[str]) -> str | None:
    """The name the user probably meant: a close spelling, else one that starts with or holds ``given``."""
    close = difflib.get_close_matches(given, list(names), n=1)
    if close:
        return close[0]
    lowered = given.lower()
    for name in names:
        if lowered and (name.lower().startswith(lowered) or lowered in name.lower()):
            return name
    return None


def _unknown(tool: Tool, key: str, names: list[str]) -> str:
    close = suggest(key, names)
    suggestion = f"; did you mean {close}?" if close else ""
    if not names:
        return f"{tool.name} takes no parameters, but {key} was given"
    return f"{tool.name} has no parameter {key!r}{suggestion}"


def _example_word(tool: Tool) -> str:
    params = parameters_of(tool)
    if not params:
        return "name=value"
    first = params[0]
    kind = first.types[0] if first.types else "string"
    return f"{first.name}={_EXAMPLES.get(kind, 'text')}"
