"""MCP Apps hosts: a server's own interface (a tool's view), rendered for a person.

``BrowserAppHost`` serves each view on loopback and opens it in the system browser, sandboxed as the
MCP Apps spec requires (two origins, a proxy frame, a Content-Security-Policy from the resource's
declared ``csp``); the view's JSON-RPC goes through ``mcp_client.apps.AppBridge`` and our ``Client``.
``AppHost`` is the same without the sockets, for a server of your own (``AppHost.site.respond``).
``asgi_app(...)`` is that host served by a web app (Starlette, the ``apps-web`` extra, imported when it
is called).
"""

from __future__ import annotations

from ui_adapters.apps._asgi import AppHostASGI, asgi_app
from ui_adapters.apps._browser_host import BrowserAppHost
from ui_adapters.apps._host import AppHost
from ui_adapters.apps._view import AppView

__all__ = ["AppHost", "AppHostASGI", "AppView", "BrowserAppHost", "asgi_app"]
