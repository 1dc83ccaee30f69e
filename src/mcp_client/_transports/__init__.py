"""The transports the package ships, behind the public ``mcp_client.Transport`` seam
(``_connection.transport``).

``http`` (streamable HTTP, with ``sse`` decoding and ``content_encoding``) and ``stdio`` (a server
subprocess, driven by ``stdio_asyncio`` on asyncio and ``stdio_anyio`` elsewhere, both standing on
``stdio_pipes``). Only ``_options.transport_for`` and ``mcp_client/__init__`` name them.
"""
