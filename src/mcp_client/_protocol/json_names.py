"""What kind of JSON value something is, in words, for the messages that refuse it ("got a string")."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["json_type"]


def json_type(value: object) -> str:
    """``"null"``, ``"a boolean"``, ``"a number"``, ``"a string"``, ``"a list"``, ``"an object"``, or the
    Python type's name for anything JSON cannot hold. Shared by the config loader and the elicitation
    schema parser, so both name a wrong value the same way."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__
