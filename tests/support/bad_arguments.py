"""Arguments a model may send that JSON cannot carry, or that no server should be handed.

Shared by the bridge's tests (tests/llm) and the framework adapters' (tests/frameworks): each case is
the raw argument string a model sends, and ``WHY`` the sentence the model must read back for it.
"""

from __future__ import annotations

from typing import Any

DEEP = 100_000
BAD_ARGUMENT_STRINGS = {
    "nan": '{"value": NaN}',
    "infinity": '{"value": [1, -Infinity]}',
    "overflow": '{"value": 1e400}',
    "digits": '{"value": ' + "7" * 5000 + "}",
    "deep": '{"value": ' + "[" * DEEP + "]" * DEEP + "}",
    "deeper_than_100": '{"value": ' + '{"v": ' * 150 + "1" + "}" * 150 + "}",
}
NOT_FINITE = "the arguments hold NaN or Infinity, which JSON does not allow: send a finite number or null."
TOO_LONG = "a number in the arguments has more than 4300 digits: send a shorter one."
TOO_DEEP = "the arguments are nested more than 100 levels deep: send a flatter object."
WHY = {
    "nan": NOT_FINITE,
    "infinity": NOT_FINITE,
    "overflow": NOT_FINITE,
    "digits": TOO_LONG,
    "deep": TOO_DEEP,
    "deeper_than_100": TOO_DEEP,
}


def nested(depth: int) -> dict[str, Any]:
    """``{"v": {"v": ...}}``, ``depth`` levels below the top, built without recursion."""
    root: dict[str, Any] = {}
    node = root
    for _ in range(depth):
        node["v"] = {}
        node = node["v"]
    return root
