"""``ToolPolicy``: the app's rule for which tool calls run, which are refused, and which a person approves.

Patterns are ``fnmatch`` patterns on the tool's name: the name the app calls it by (a ``ClientGroup``'s
unique name) and ``server.tool`` (the server's name in the group, or the server's own name for a lone
``Client``). ``deny`` wins over ``allow``; a call neither names is judged by ``ask``, from the tool's
annotations. Annotations are what the server claims about its tool, not a guarantee: a server that marks
a destructive tool read-only gets it run unasked under ``"unless_read_only"``. Deny by name what must
never run.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any, Literal

AskRule = Literal["always", "unless_read_only", "destructive", "never"]
ASK_RULES: tuple[str, ...] = ("always", "unless_read_only", "destructive", "never")


@dataclass(frozen=True)
class PolicyDecision:
    """What ``ToolPolicy.decide`` says of one call: ``action`` and the rule that decided (``reason``,
    words an audit log and an approval UI can show)."""

    action: Literal["allow", "deny", "ask"]
    reason: str


def _patterns(name: str, value: Iterable[str] | str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = (value,)
    patterns = tuple(value)
    for pattern in patterns:
        if not isinstance(pattern, str) or not pattern:  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                f"ToolPolicy({name}=...) takes fnmatch patterns (non-empty strings), got {pattern!r}"
            )
    return patterns


def _hint(annotations: Mapping[str, Any] | None, key: str) -> bool | None:
    value = annotations.get(key) if annotations else None
    return value if isinstance(value, bool) else None


@dataclass(frozen=True, init=False)
class ToolPolicy:
    """Which tool calls a model (or a view, or the app) may make: ``deny`` wins, then ``allow``, then
    ``ask``.

    ``ask`` says when a person is asked for a call no pattern names: ``"always"``; ``"unless_read_only"``
    (the default: unless the tool's ``readOnlyHint`` is true); ``"destructive"`` (unless
    ``destructiveHint`` is false or ``readOnlyHint`` is true: the spec's defaults, so a tool with no
    annotations is asked about); ``"never"`` (run it).
    """

    allow: tuple[str, ...] = field(default=())
    deny: tuple[str, ...] = field(default=())
    ask: AskRule = "unless_read_only"

    def __init__(
        self,
        allow: Iterable[str] | str = (),
        deny: Iterable[str] | str = (),
        ask: AskRule = "unless_read_only",
    ) -> None:
        if ask not in ASK_RULES:
            raise ValueError(f"ToolPolicy(ask={ask!r}): ask is one of {', '.join(map(repr, ASK_RULES))}")
        object.__setattr__(self, "allow", _patterns("allow", allow))
        object.__setattr__(self, "deny", _patterns("deny", deny))
        object.__setattr__(self, "ask", ask)

    @property
    def may_ask(self) -> bool:
        """Whether this policy can ever ask a person (then the client needs an ``approval_callback``)."""
        return self.ask != "never"

    def decide(
        self,
        tool: str,
        annotations: Mapping[str, Any] | None = None,
        *,
        server: str | None = None,
        own_name: str | None = None,
    ) -> PolicyDecision:
        """The decision for a call of ``tool`` (the name the app calls it by) on ``server``, given the
        annotations the server lists for it. ``own_name`` is the server's own name for the tool where
        the app calls it otherwise (a ``ClientGroup``'s unique name): ``server.tool`` patterns match it."""
        names = [tool] if server is None else [tool, f"{server}.{own_name or tool}"]
        for pattern in self.deny:
            if any(fnmatchcase(name, pattern) for name in names):
                return PolicyDecision("deny", f"deny pattern {pattern!r}")
        for pattern in self.allow:
            if any(fnmatchcase(name, pattern) for name in names):
                return PolicyDecision("allow", f"allow pattern {pattern!r}")
        read_only = _hint(annotations, "readOnlyHint") is True
        if self.ask == "never":
            return PolicyDecision("allow", 'ask="never"')
        if self.ask == "always":
            return PolicyDecision("ask", 'ask="always"')
        if self.ask == "unless_read_only":
            if read_only:
                return PolicyDecision("allow", 'ask="unless_read_only": the server marks it read-only')
            return PolicyDecision("ask", 'ask="unless_read_only": the server does not mark it read-only')
        if read_only or _hint(annotations, "destructiveHint") is False:
            return PolicyDecision("allow", 'ask="destructive": the server marks it not destructive')
        return PolicyDecision("ask", 'ask="destructive": the server does not mark it safe')
