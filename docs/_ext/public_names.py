"""Resolve the private module paths type hints carry to the public names the reference documents.

``Client.__init__`` is annotated with ``StdioServerParameters``, whose ``__module__`` is
``mcp_client._stdio``; the reference documents it as ``mcp_client.StdioServerParameters``. A
reference to ``package._private.Name`` resolves to ``package.Name`` (or the public module that
exports it) when that name is public; anything else stays unresolved, and the strict build fails.
References to other libraries (httpx, anyio, pydantic, the standard library) are left unlinked on
purpose: the build fetches nothing from the network.
"""

from __future__ import annotations

import ast
import functools
import importlib
import operator
import pkgutil
import re
import types
import typing
from pathlib import Path
from typing import Any

from docutils import nodes
from pydantic import BaseModel
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.typing import stringify_annotation


def public_ui_adapters_modules() -> list[str]:
    """``ui_adapters.X`` for each public module and package (not ``cli``: a command, see docs/cli.md)."""
    package = Path(importlib.import_module("ui_adapters").__file__ or "").parent
    modules = [path.stem for path in package.glob("*.py") if not path.stem.startswith("_")]
    modules += [path.parent.name for path in package.glob("*/__init__.py") if path.parent.name != "cli"]
    return [f"ui_adapters.{name}" for name in sorted(modules)]


PUBLIC_MODULES = (
    "mcp_client",
    "mcp_client.types",
    "mcp_client.schema",
    "mcp_client.auth",
    "mcp_client.config",
    "ui_adapters",
    *public_ui_adapters_modules(),
)

# Other libraries' names (and Python's own), shown as plain text.
FOREIGN = re.compile(
    r"^(httpx|httpx2|anyio|pydantic|pydantic_core|typing|typing_extensions|collections|types|enum|datetime|"
    r"pathlib|os|re|json|asyncio|trio|pytest|_pytest|starlette|webbrowser|logging|abc|contextlib|"
    r"builtins|rich|prompt_toolkit|textual|ssl|opentelemetry|redis|yaml)(\.|$)"
    r"|^(str|int|float|bool|bytes|dict|list|tuple|set|frozenset|object|None|type|Exception|LookupError|"
    r"ValueError|RuntimeError|BaseException|Any|Callable|Awaitable|Mapping|Sequence|Iterable|Iterator|"
    r"AsyncIterator|Literal|Self|Path|TypeAlias|ellipsis|NoneType|Input|Output|Console)$"
)


def _candidates(target: str) -> list[str]:
    name = target.rsplit(".", 1)[-1]
    return [f"{module}.{name}" for module in PUBLIC_MODULES]


def resolve(app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement) -> Any:
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"]
    if FOREIGN.search(target):
        return contnode
    if "._" not in target and "." in target and not target.startswith(("mcp_client", "ui_adapters")):
        return None
    candidates, reftype = _candidates(target), node["reftype"]
    argument = _type_argument(target, node.get("py:module"), node.get("py:class"))
    if argument is not None:  # an inherited member's ``ResultT``: the documented class's own type
        name = argument.rsplit(".", 1)[-1]
        candidates, contnode, reftype = [argument, *_candidates(name)], nodes.Text(name), "obj"
    domain = env.get_domain("py")
    objects = domain.objects  # type: ignore[attr-defined]
    for candidate in candidates:
        if candidate in objects:
            new = node.copy()
            new["reftarget"] = candidate
            return domain.resolve_xref(env, node["refdoc"], app.builder, reftype, candidate, new, contnode)
    if argument is not None or _is_private(target):
        return contnode  # an implementation detail in a public signature: shown, not linked
    return None


def _type_argument(target: str, module_name: str | None, class_name: str | None) -> str | None:
    """The name the documented class gives a type parameter of its generic base, or ``None``.

    ``PendingQuestion(PendingItem[ElicitResult, QuestionStatus])`` inherits ``settle(result: ResultT)``;
    its reference shows ``ElicitResult`` (``module.name``: the name as the class's own module has it).
    """
    try:
        cls: Any = functools.reduce(
            getattr, (class_name or "").split("."), importlib.import_module(module_name or "")
        )
    except (ImportError, AttributeError, ValueError):
        return None
    parameter = target.rsplit(".", 1)[-1]
    for klass in getattr(cls, "__mro__", ()):
        for base in getattr(klass, "__orig_bases__", ()):
            parameters = getattr(typing.get_origin(base), "__parameters__", ())
            for variable, argument in zip(parameters, typing.get_args(base), strict=False):
                if variable.__name__ == parameter and not isinstance(argument, typing.TypeVar):
                    names = vars(importlib.import_module(klass.__module__)).items()
                    name = next((name for name, value in names if value is argument), None)
                    return f"{klass.__module__}.{name}" if name is not None else None
    return None


def _is_private(target: str) -> bool:
    """An existing name no public ``__all__`` lists: ``mcp_client._x.Name``, ``mcp_client.types.WireModel``.

    A name that does not exist at all is not private, it is a mistake: it stays unresolved.
    """
    if not target.startswith(("mcp_client.", "ui_adapters.")):
        return False
    module_name, _, name = target.rpartition(".")
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return False
    if not hasattr(module, name):
        return False
    hidden = name.startswith("_") or any(part.startswith("_") for part in module_name.split("."))
    return hidden or name not in getattr(module, "__all__", ())


def public_bases(app: Sphinx, name: str, obj: object, options: Any, bases: list[type]) -> None:
    """``Bases:`` names public classes only: a private base (``WireModel``, ``PausableCalls``) is replaced
    by its own nearest public bases, so ``TextContent`` shows pydantic's ``BaseModel``. A private generic
    base (``PendingItem[ElicitResult, QuestionStatus]``) goes the same way, ``Generic`` with it."""
    shown: list[type] = []
    for base in bases:
        for public in _public_ancestors(base):
            if public not in shown:
                shown.append(public)
    bases[:] = [base for base in shown if base is not object] or [object]


def _public_ancestors(cls: type) -> list[type]:
    origin = typing.get_origin(cls) or cls  # a subscripted base: its class
    if origin is typing.Generic:
        return []
    if not origin.__module__.startswith(("mcp_client", "ui_adapters")) or _is_exported(origin):
        return [cls]
    return [ancestor for base in origin.__bases__ for ancestor in _public_ancestors(base)]


def _is_exported(cls: type) -> bool:
    """Listed in the ``__all__`` of a public module (where the reference documents it)."""
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        if cls.__name__ in getattr(module, "__all__", ()) and getattr(module, cls.__name__, None) is cls:
            return True
    return False


def readable_signature(
    app: Sphinx,
    what: str,
    name: str,
    obj: object,
    options: Any,
    signature: str | None,
    annotation: str | None,
) -> tuple[str | None, str | None]:
    """Signatures a reader can use.

    A pydantic model's ``__init__`` is ``(**data: Any)``: show its fields instead, as the keyword
    arguments they are (with ``defer_build`` pydantic has not made a signature of its own yet). A
    dataclass field with a ``default_factory`` shows as ``<factory>``, which breaks the signature.
    """
    if what == "class" and isinstance(obj, type) and issubclass(obj, BaseModel):
        return _fields_signature(obj), annotation
    if signature:
        signature = signature.replace("= <factory>", "= ...")
    return signature, annotation


def _plain(annotation: Any) -> Any:
    """``annotation`` without ``Annotated[...]`` metadata (pydantic's ``Field`` discriminators), deeply."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _plain(args[0])
    if not args:
        return annotation
    plain = tuple(_plain(arg) for arg in args)
    if origin in (typing.Union, types.UnionType):
        return functools.reduce(operator.or_, plain)
    if origin is typing.Literal:
        return annotation
    try:
        return origin[plain]
    except TypeError:
        return annotation


def _fields_signature(model: type[BaseModel]) -> str:
    parameters = []
    for field_name, info in model.model_fields.items():
        text = f"{field_name}: {stringify_annotation(_plain(info.annotation), 'smart')}"
        if not info.is_required():
            default = "..." if info.default_factory is not None else repr(info.default)
            text += f" = {default}"
        parameters.append(text)
    return f"(*, {', '.join(parameters)})" if parameters else "()"


def complete_pages(app: Sphinx, docname: str, source: list[str]) -> None:
    """Nothing public goes missing when a branch adds a page or a name without touching the index.

    * ``index``: pages no toctree of the index lists are added to the navigation, under "More".
    * ``reference/mcp_client``: names of ``mcp_client.__all__`` the page does not group are documented
      under "More names".
    * ``reference/ui_adapters``: public ``ui_adapters`` modules the page does not have get a section.
    """
    text = source[0]
    if docname == "index":
        listed = set(re.findall(r"^([\w/-]+)$", text, flags=re.M))
        pages = sorted(
            doc
            for doc in app.env.found_docs
            if doc != "index" and not doc.startswith("reference/") and doc not in listed
        )
        if pages:
            text += "\n```{toctree}\n:hidden:\n:caption: More\n\n" + "\n".join(pages) + "\n```\n"
    elif docname == "reference/mcp_client":
        module = importlib.import_module("mcp_client")
        names = [
            name
            for name in module.__all__
            if name != "__version__"
            and f"mcp_client.{name}\n" not in text
            and f":: {name}\n   :module: mcp_client\n" not in text
        ]
        if names:
            directives = "\n".join(
                f".. autoclass:: mcp_client.{name}"
                if isinstance(getattr(module, name), type)
                else f".. py:data:: {name}\n   :module: mcp_client\n\n   ``{getattr(module, name)!r}``\n"
                for name in names
            )
            text += f"\n## More names\n\n```{{eval-rst}}\n{directives}\n```\n"
    elif docname == "reference/ui_adapters":
        for module in public_ui_adapters_modules():
            if f".. automodule:: {module}\n" not in text:
                text += f"\n## `{module}`\n\n```{{eval-rst}}\n.. automodule:: {module}\n```\n"
    source[0] = text


def fill_type_checking_names(package: str = "mcp_client") -> None:
    """Give each module of ``package`` the names it imports only for type checkers.

    ``from mcp_client import Client`` loads the session and the wire models on first use (see
    ``mcp_client._protocol.wire``), so their names in annotations are imported under ``if TYPE_CHECKING:``
    only; autodoc evaluates annotations in the module's globals, which must hold them to link them.
    Every module is loaded by now, so these imports cannot run into a cycle.
    """
    root = importlib.import_module(package)
    names = [package] + [m.name for m in pkgutil.walk_packages(root.__path__, f"{package}.")]
    for name in names:
        try:
            module = importlib.import_module(name)
        except ImportError:  # a module of an extra the docs venv lacks (frameworks): not documented
            continue
        tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"):
                continue
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.module and not statement.level:
                    try:
                        source = importlib.import_module(statement.module)
                    except ImportError:  # an optional library (cryptography, a framework)
                        continue
                    for alias in statement.names:
                        value: object = getattr(source, alias.name, None)
                        if value is None:  # a submodule: `from mcp_client._session import call_options`
                            value = importlib.import_module(f"{statement.module}.{alias.name}")
                        module.__dict__.setdefault(alias.asname or alias.name, value)


def setup(app: Sphinx) -> dict[str, Any]:
    fill_type_checking_names()
    app.connect("source-read", complete_pages)
    app.connect("missing-reference", resolve)
    app.connect("autodoc-process-bases", public_bases)
    app.connect("autodoc-process-signature", readable_signature)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
