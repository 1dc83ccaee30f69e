"""MCP Apps without a UI: the extension, which tools have a view and who may call them, the view's
resource, and the host side of a view's JSON-RPC (``AppBridge``).

A host that renders views lives in ``ui_adapters.apps``; this package never imports a UI.
"""

from __future__ import annotations

from mcp_client._errors import AppResourceError
from mcp_client.apps._bridge import AppBridge
from mcp_client.apps._host_context import STYLE_VARIABLES, default_host_context, style_variables
from mcp_client.apps._resource import AppCsp, AppPermissions, AppResource
from mcp_client.apps._tool_app import (
    APP_MIME_TYPE,
    APPS_EXTENSION,
    ToolApp,
    app_may_call,
    app_of,
    model_may_see,
)

__all__ = [
    "APPS_EXTENSION",
    "APP_MIME_TYPE",
    "STYLE_VARIABLES",
    "AppBridge",
    "AppCsp",
    "AppPermissions",
    "AppResource",
    "AppResourceError",
    "ToolApp",
    "app_may_call",
    "app_of",
    "default_host_context",
    "model_may_see",
    "style_variables",
]


# Public names say where a user imports them from (reprs, tracebacks and the reference).
def _say_public() -> None:
    namespace = globals()
    for name in ("AppBridge", "AppCsp", "AppPermissions", "AppResource", "ToolApp"):
        namespace[name].__module__ = __name__
    for name in ("app_may_call", "app_of", "default_host_context", "model_may_see", "style_variables"):
        namespace[name].__module__ = __name__


_say_public()
