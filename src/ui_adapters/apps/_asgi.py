"""``asgi_app(...)``: the MCP Apps host as an ASGI app, for a web app that shows views beside its messages.

It is an ``AppHost`` (what ``BrowserAppHost`` is without its sockets): the same views, sandbox and bridge
(``show``, ``present``, ``AppView``), served by the web app's own server (uvicorn, hypercorn...) through
the host's request->response core (``AppSite.respond``). Starlette (the ``apps-web`` extra) reads the
requests and writes the responses; it is imported when ``asgi_app`` is first called, never by
``ui_adapters.apps``.

The spec's two origins are two names (or ports) of the same server: ``host_origin`` serves each view's
host page and its message routes, ``sandbox_origin`` the views' sandbox proxies; a request is routed by
its ``Host`` header, and one for any other name is refused (421), so a DNS-rebinding page gets nothing.
The paths are unguessable tokens at the root, so the host mounts at ``/`` beside the app's own routes
(``Mount("/", app=host)`` after them). The host page may be framed by ``frame_ancestors`` (by default
``host_origin``: the web app's own page shows the view in an ``<iframe>`` beside its messages).

Enter the host in the web app's lifespan (``async with host:``): a mounted app hears no lifespan of its
own. As the root ASGI app it enters itself on the server's lifespan events.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from typing import Any, Literal
from urllib.parse import urlsplit

import anyio
import anyio.abc

from mcp_client import Client, ClientGroup
from ui_adapters.apps._host import AppHost, Callback, LogCallback
from ui_adapters.apps._site import MAX_MESSAGES_BODY, AppSite, Response
from ui_adapters.browser._http import Request

__all__ = ["AppHostASGI", "asgi_app"]

Scope = MutableMapping[str, Any]


def _authority(origin: str, what: str) -> tuple[str, str]:
    """``(scheme, host[:port])`` of an origin such as ``http://127.0.0.1:8000``; ``ValueError`` otherwise."""
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
        raise ValueError(
            f"{what} must be an origin such as 'http://127.0.0.1:8000' (scheme, host, port; no path), "
            f"not {origin!r}"
        )
    if parts.query or parts.fragment or "@" in parts.netloc:
        raise ValueError(f"{what} must be an origin, without credentials, query or fragment: {origin!r}")
    return parts.scheme, parts.netloc.lower()


class AppHostASGI(AppHost):
    """An ``AppHost`` served by the web app's ASGI server: ``await host(scope, receive, send)``.

    Made by ``asgi_app``; ``show``, ``present``, ``views`` and the callbacks are ``AppHost``'s. Views are
    never opened in a browser by the host: the web app puts ``view.url`` in its page.
    """

    def __init__(
        self,
        client: Client | ClientGroup,
        *,
        host_origin: str,
        sandbox_origin: str,
        frame_ancestors: Sequence[str] | None = None,
        theme: Literal["light", "dark"] = "light",
        on_message: Callback | None = None,
        on_open_link: Callback | None = None,
        on_model_context: Callback | None = None,
        on_log: LogCallback | None = None,
    ) -> None:
        scheme, host = _authority(host_origin, "host_origin")
        sandbox_scheme, sandbox = _authority(sandbox_origin, "sandbox_origin")
        if sandbox_scheme != scheme:
            raise ValueError("host_origin and sandbox_origin must use the same scheme (both http or https)")
        if host == sandbox:
            raise ValueError(
                "the host page and the views' sandbox need two different origins: give sandbox_origin "
                "another host name or port than host_origin (e.g. http://localhost:8000 beside "
                "http://127.0.0.1:8000)"
            )
        super().__init__(
            client,
            theme=theme,
            on_message=on_message,
            on_open_link=on_open_link,
            on_model_context=on_model_context,
            on_log=on_log,
        )
        self.host_origin: str = f"{scheme}://{host}"
        self.sandbox_origin: str = f"{scheme}://{sandbox}"
        self._scheme, self._host, self._sandbox = scheme, host, sandbox
        self._frame_ancestors = tuple(frame_ancestors) if frame_ancestors is not None else (self.host_origin,)
        self._entered = False

    async def _open_site(self, tg: anyio.abc.TaskGroup) -> AppSite:
        self._entered = True
        return AppSite(
            host_authority=self._host,
            sandbox_authority=self._sandbox,
            scheme=self._scheme,
            frame_ancestors=self._frame_ancestors,
        )

    async def _close_site(self) -> None:
        self._entered = False

    # ------------------------------------------------------------------ ASGI

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return  # a websocket: not ours (closing it unanswered refuses it)
        from starlette.requests import ClientDisconnect
        from starlette.requests import Request as StarletteRequest
        from starlette.responses import PlainTextResponse

        if not self._entered:
            text = "The MCP Apps host is not started: enter it in the app's lifespan (async with host)."
            await PlainTextResponse(text, status_code=503)(scope, receive, send)
            return
        incoming = StarletteRequest(scope, receive)
        headers: dict[str, str] = {}
        for name, value in incoming.headers.items():
            if name in headers:
                await PlainTextResponse(f"The header {name} is sent twice.", 400)(scope, receive, send)
                return
            headers[name] = value
        body = bytearray()
        try:
            async for chunk in incoming.stream():
                body += chunk
                if len(body) > MAX_MESSAGES_BODY:
                    await PlainTextResponse("The request is too large.", 413)(scope, receive, send)
                    return
        except ClientDisconnect:
            return
        path: str = scope["path"]
        root = scope.get("root_path") or ""
        if root and path.startswith(root):  # Starlette keeps the mount's prefix in both
            path = path[len(root) :] or "/"
        request = Request(
            incoming.method, path, scope.get("query_string", b"").decode("latin-1"), headers, bytes(body)
        )
        response = await self.site.respond(request)
        if response.stream is None:
            await _plain(response)(scope, receive, send)
        else:
            await _stream(response, receive, send)

    async def _lifespan(self, receive: Any, send: Any) -> None:
        """As the root app: enter the host on start-up, leave it (closing the views) on shut-down."""
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    await self.__aenter__()
                except Exception as exc:
                    await send({"type": "lifespan.startup.failed", "message": str(exc)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.__aexit__(None, None, None)
                await send({"type": "lifespan.shutdown.complete"})
                return


def _plain(response: Response) -> Any:
    from starlette.responses import Response as StarletteResponse

    headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
    return StarletteResponse(response.body, status_code=int(response.status), headers=headers)


async def _stream(response: Response, receive: Any, send: Any) -> None:
    """An event stream: the head, then each chunk ``response.stream`` writes, until it returns or the
    browser goes away (``http.disconnect``), whichever is first."""
    assert response.stream is not None
    head = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in response.headers.items()]
    await send({"type": "http.response.start", "status": int(response.status), "headers": head})
    gone = False

    async def write(chunk: bytes) -> None:
        await send({"type": "http.response.body", "body": chunk, "more_body": True})

    async with anyio.create_task_group() as tg:

        async def until_gone() -> None:
            nonlocal gone
            while (await receive())["type"] != "http.disconnect":
                pass
            gone = True
            tg.cancel_scope.cancel()

        async def run() -> None:
            await response.stream(write)  # type: ignore[misc]
            tg.cancel_scope.cancel()

        tg.start_soon(until_gone)
        tg.start_soon(run)
    if not gone:
        await send({"type": "http.response.body", "body": b"", "more_body": False})


def asgi_app(
    client: Client | ClientGroup,
    *,
    host_origin: str,
    sandbox_origin: str,
    frame_ancestors: Sequence[str] | None = None,
    theme: Literal["light", "dark"] = "light",
    on_message: Callback | None = None,
    on_open_link: Callback | None = None,
    on_model_context: Callback | None = None,
    on_log: LogCallback | None = None,
) -> AppHostASGI:
    """The MCP Apps host as an ASGI app (``AppHostASGI``): see the module docstring."""
    try:
        import starlette  # noqa: F401  # pyright: ignore[reportUnusedImport]
    except ImportError as missing:
        raise ImportError(
            "ui_adapters.apps.asgi_app needs Starlette, which is not installed: "
            "pip install 'mcp-elicit-client[apps-web]'"
        ) from missing
    return AppHostASGI(
        client,
        host_origin=host_origin,
        sandbox_origin=sandbox_origin,
        frame_ancestors=frame_ancestors,
        theme=theme,
        on_message=on_message,
        on_open_link=on_open_link,
        on_model_context=on_model_context,
        on_log=on_log,
    )
