"""Link the API's names written in backticks to their entry in the reference.

The guides write names as inline code (```Client```, ```ToolBridge```, ```client.call_tool(...)```,
```ChatMessage.step```), not as cross-reference roles, so they read the same on GitHub. Once every page
is read, the Python domain knows what the reference documents; this turns the first mention of each
such name on a page into a link to its entry. What counts as a name:

* a documented object by its full name (``mcp_client.types.ElicitResult``, ``ui_adapters.chat``);
* a public module's name by itself (``Client``, ``ChatForm``) when exactly one public module has it;
* ``Class.member`` (``Client.call_tool``, ``ChatForm.restore``), and ``client.member`` for ``Client``'s;
* any of these followed by a call (``chat_callback(send, receive)``, ``client.listen(...)``);
* ``Class.field`` that the reference does not list separately links to the class, which documents it.

Anything else (a value, an expression, a name of another library) stays plain code. Headings and code
already in a link are left alone, and so are the signatures of the reference itself.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any, NamedTuple

from docutils import nodes
from public_names import PUBLIC_MODULES
from sphinx import addnodes
from sphinx.application import Sphinx

_NAME = re.compile(r"(?P<name>[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)(?:\(.*\))?", re.S)


class Target(NamedTuple):
    docname: str
    anchor: str
    is_class: bool


def _targets(app: Sphinx) -> dict[str, Target]:
    """Every spelling a page may use for a documented name, mapped to its entry (ambiguous ones dropped)."""
    domain: Any = app.env.get_domain("py")
    full: dict[str, Target] = {}
    for name, entry in domain.objects.items():
        if "._" in name or getattr(entry, "aliased", False):
            continue  # a private path (``mcp_client._client.Client``): the public one is listed too
        full[name] = Target(entry.docname, entry.node_id, entry.objtype in ("class", "exception"))
    spellings: dict[str, set[str]] = defaultdict(set)
    for name, module in domain.modules.items():  # by their full name only: ``chat`` is a word
        full.setdefault(name, Target(module.docname, module.node_id, False))
        spellings[name].add(name)
    for name in full:
        spellings[name].add(name)
        if name in domain.modules:
            continue
        for module in PUBLIC_MODULES:
            rest = name.removeprefix(f"{module}.")
            if rest == name:
                continue
            parts = rest.split(".")
            if len(parts) <= 2:  # ``Client`` and ``Client.call_tool``, not deeper
                spellings[rest].add(name)
            if len(parts) == 2 and parts[0] == "Client":
                spellings[f"client.{parts[1]}"].add(name)
    return {spelling: full[names.pop()] for spelling, names in spellings.items() if len(names) == 1}


def _target(text: str, targets: dict[str, Target]) -> Target | None:
    match = _NAME.fullmatch(text.strip())
    if match is None:
        return None
    name = match["name"]
    if name in targets:
        return targets[name]
    head, _, _ = name.rpartition(".")
    owner = targets.get(head) if head else None
    return owner if owner is not None and owner.is_class else None


def _skipped(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, (nodes.reference, nodes.title, addnodes.desc_signature, nodes.rubric)):
            return True
        parent = parent.parent
    return False


def link_names(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.format != "html":
        return
    targets: dict[str, Target] | None = getattr(app.builder, "_name_links_targets", None)
    if targets is None:  # once per build, after every page is read
        targets = _targets(app)
        app.builder._name_links_targets = targets  # type: ignore[attr-defined]
    linked: set[Target] = set()
    for literal in list(doctree.findall(nodes.literal)):
        target = _target(literal.astext(), targets)
        if target is None or target in linked or _skipped(literal):
            continue
        linked.add(target)
        uri = app.builder.get_relative_uri(docname, target.docname) + "#" + target.anchor
        link = nodes.reference("", "", internal=True, refuri=uri, classes=["api-name"])
        literal.replace_self(link)
        link += literal


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("doctree-resolved", link_names)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
