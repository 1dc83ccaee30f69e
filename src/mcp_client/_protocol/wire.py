"""Modules that ``from mcp_client import Client`` registers but runs only when first used.

pydantic and the 100+ classes of ``mcp_client.types`` cost about as much as ``import httpx`` itself,
and the session, its transports and their helpers as much again; nothing needs them before a
``Client`` is made. So ``_client`` imports what it builds inside ``Client.__init__`` (the session
loads the wire models with it, so connecting and the first call find them loaded), and refers to
the rest through module objects whose body runs on their first attribute access (the standard
library's ``importlib.util.LazyLoader``): ``wire`` is ``mcp_client.types``. ``import
mcp_client.types`` and ``from mcp_client.types import X`` behave as before: they get the same module,
run at that moment if it has not run yet.

The cost: names that only annotate ``Client``'s methods are imported for type checkers alone
(``if TYPE_CHECKING:``), so ``typing.get_type_hints`` on those methods needs them supplied (the docs
build does that, ``docs/_ext/public_names.py``).
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import TYPE_CHECKING

__all__ = ["lazy_module", "wire"]


def lazy_module(name: str) -> ModuleType:
    """The module ``name``, registered in ``sys.modules`` now and run on its first attribute access."""
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.loader is not None, name
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)  # lazy: the body runs on the first attribute access
    parent, _, child = name.rpartition(".")
    setattr(sys.modules[parent], child, module)  # `mcp_client.types` as an attribute, as after an import
    return module


if TYPE_CHECKING:
    from mcp_client import types as wire
else:
    wire = lazy_module("mcp_client.types")
