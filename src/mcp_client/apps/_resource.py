"""A tool's view as a host needs it: ``read_app`` reads the ``ui://`` resource and checks it.

A host renders the view's HTML in a sandbox built from what the server declared about it: the
Content-Security-Policy domains, the browser permissions, a dedicated origin, a border. The spec puts
those in the ``_meta.ui`` of the ``resources/read`` content item, with the ``resources/list`` entry's as
the fallback (field by field: a field the content item names wins, even when malformed).

Everything here is server data, so nothing is trusted: a field of the wrong type counts as not declared
(for the CSP that is the spec's restrictive default, never a looser one), a domain that could break out
of a CSP directive (whitespace, ``;``, ``,``, quotes, control characters) is dropped, and an unknown
permission is ignored. The view is refused (``AppResourceError``, the client stays usable) when it is not
``text/html;profile=mcp-app``, when its HTML is over ``max_app_bytes``, or when it cannot be read as
UTF-8 HTML (a ``blob`` that is not base64).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcp_client._errors import AppResourceError, ServerError
from mcp_client.apps._tool_app import APP_MIME_TYPE, app_of

if TYPE_CHECKING:
    from mcp_client._client import Client
    from mcp_client.types import BlobResourceContents, TextResourceContents

DEFAULT_MAX_APP_BYTES = 10 * 1024 * 1024
"""``Client(max_app_bytes=...)``'s default: 10 MiB of HTML."""

_UI_FIELDS = ("csp", "permissions", "domain", "prefersBorder")
_UNSAFE_SOURCE = re.compile(r"[\s;,'\"\x00-\x1f\x7f]")


@dataclass(frozen=True)
class AppCsp:
    """The origins a view may reach, as its server declared them (each empty: nothing allowed).

    ``connect_domains``: ``connect-src`` (fetch, XHR, WebSocket); ``resource_domains``: scripts, styles,
    images, fonts, media; ``frame_domains``: ``frame-src``; ``base_uri_domains``: ``base-uri``.
    """

    connect_domains: tuple[str, ...] = ()
    resource_domains: tuple[str, ...] = ()
    frame_domains: tuple[str, ...] = ()
    base_uri_domains: tuple[str, ...] = ()


@dataclass(frozen=True)
class AppPermissions:
    """The browser features a view asks for (a host may grant them through the iframe's ``allow``)."""

    camera: bool = False
    microphone: bool = False
    geolocation: bool = False
    clipboard_write: bool = False

    @property
    def allow(self) -> str:
        """The iframe ``allow`` attribute granting what was asked for (``""`` for nothing)."""
        wanted = (
            ("camera", self.camera),
            ("microphone", self.microphone),
            ("geolocation", self.geolocation),
            ("clipboard-write", self.clipboard_write),
        )
        return "; ".join(name for name, asked in wanted if asked)


@dataclass(frozen=True)
class AppResource:
    """A tool's view, read and checked: ``await client.read_app(tool)``.

    ``html`` is the document (decoded from ``text`` or a base64 ``blob``); ``csp``, ``permissions``,
    ``domain`` (a dedicated sandbox origin, host-dependent) and ``prefers_border`` (``None``: the host
    decides) come from the resource's ``_meta.ui``.
    """

    uri: str
    html: str
    csp: AppCsp = field(default_factory=AppCsp)
    permissions: AppPermissions = field(default_factory=AppPermissions)
    domain: str | None = None
    prefers_border: bool | None = None


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}  # pyright: ignore[reportUnknownVariableType]


def _sources(value: object) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        return ()
    return tuple(
        item
        for item in value  # pyright: ignore[reportUnknownVariableType]
        if isinstance(item, str) and item and not _UNSAFE_SOURCE.search(item)
    )


def csp_of(value: object) -> AppCsp:
    """The ``AppCsp`` of a ``_meta.ui.csp`` value; anything malformed counts as not declared."""
    csp = _mapping(value)
    return AppCsp(
        connect_domains=_sources(csp.get("connectDomains")),
        resource_domains=_sources(csp.get("resourceDomains")),
        frame_domains=_sources(csp.get("frameDomains")),
        base_uri_domains=_sources(csp.get("baseUriDomains")),
    )


def permissions_of(value: object) -> AppPermissions:
    """The ``AppPermissions`` of a ``_meta.ui.permissions`` value (each feature asked for by its key)."""
    asked = _mapping(value)
    return AppPermissions(
        camera="camera" in asked,
        microphone="microphone" in asked,
        geolocation="geolocation" in asked,
        clipboard_write="clipboardWrite" in asked,
    )


def _domain(value: object) -> str | None:
    return value if isinstance(value, str) and value and not _UNSAFE_SOURCE.search(value) else None


def _ui_of(meta: object) -> Mapping[str, Any]:
    return _mapping(_mapping(meta).get("ui"))


def _is_app_mime(mime: str | None) -> bool:
    return mime is not None and "".join(mime.split()).lower() == APP_MIME_TYPE


def _html(item: TextResourceContents | BlobResourceContents, uri: str, label: str, max_bytes: int) -> str:
    too_big = (
        f"the view {uri} of {label} is over max_app_bytes ({max_bytes} bytes of HTML); "
        "raise Client(max_app_bytes=...) to show it"
    )
    text = getattr(item, "text", None)
    if isinstance(text, str):
        if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
            raise AppResourceError(too_big, uri=uri)
        return text
    blob = "".join(str(getattr(item, "blob", "")).split())
    if len(blob) > (max_bytes // 3 + 2) * 4:  # surely over the limit once decoded: do not decode it
        raise AppResourceError(too_big, uri=uri)
    try:
        data = base64.b64decode(blob, validate=True)
    except (binascii.Error, ValueError):
        raise AppResourceError(
            f"the view {uri} of {label} is a blob that is not base64: it cannot be shown", uri=uri
        ) from None
    if len(data) > max_bytes:
        raise AppResourceError(too_big, uri=uri)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise AppResourceError(
            f"the view {uri} of {label} is not UTF-8 HTML: it cannot be shown", uri=uri
        ) from None


async def _listed(client: Client, uri: str) -> tuple[str | None, Mapping[str, Any]]:
    """``(mimeType, _meta.ui)`` of ``uri``'s ``resources/list`` entry (nothing if it is not listed)."""
    try:
        resources = (await client.list_resources()).resources
    except ServerError:
        return None, {}
    entry = next((resource for resource in resources if resource.uri == uri), None)
    if entry is None:
        return None, {}
    return entry.mime_type, _ui_of(entry.meta)


async def _uri_of(client: Client, app: object) -> str:
    label = client.server
    if isinstance(app, str) and app.startswith("ui://"):
        return app
    tool: object = app
    if isinstance(app, str):
        tools = (await client.list_tools()).tools
        found = next((tool for tool in tools if tool.name == app), None)
        if found is None:
            raise AppResourceError(f"{label} has no tool named {app!r}: its view cannot be read")
        tool = found
    elif not hasattr(app, "name"):
        raise TypeError(f"read_app takes a ui:// URI, a tool or a tool's name, not {type(app).__name__}")
    name = getattr(getattr(tool, "tool", tool), "name", "?")
    view = app_of(tool)
    if view is None or view.resource_uri is None:
        raise AppResourceError(
            f"the tool {name!r} of {label} has no view (no _meta.ui.resourceUri): call it as any tool"
        )
    if not view.resource_uri.startswith("ui://"):
        raise AppResourceError(
            f"the tool {name!r} of {label} names its view {view.resource_uri!r}, which is no ui:// "
            "resource: it is not read",
            uri=view.resource_uri,
        )
    return view.resource_uri


async def read_app(client: Client, app: object, *, max_bytes: int) -> AppResource:
    """``Client.read_app``: the view of ``app`` (a ``ui://`` URI, a ``Tool``, a ``GroupTool`` or a tool
    name), read from ``client`` and checked (see the module docstring)."""
    uri = await _uri_of(client, app)
    label = client.server
    contents = (await client.read_resource(uri)).contents
    if not contents:
        raise AppResourceError(f"{label} returned nothing for the view {uri}", uri=uri)
    item = next((content for content in contents if content.uri == uri), contents[0])
    ui = _ui_of(item.meta)
    mime = item.mime_type
    listed_ui: Mapping[str, Any] = {}
    if mime is None or any(key not in ui for key in _UI_FIELDS):
        listed_mime, listed_ui = await _listed(client, uri)
        mime = mime if mime is not None else listed_mime
    if not _is_app_mime(mime):
        raise AppResourceError(
            f"the view {uri} of {label} is served as {mime!r}, not {APP_MIME_TYPE!r}: "
            "it is no MCP Apps view, and no other kind is rendered",
            uri=uri,
        )
    html = _html(item, uri, label, max_bytes)
    merged = {**listed_ui, **ui}
    border = merged.get("prefersBorder")
    return AppResource(
        uri=uri,
        html=html,
        csp=csp_of(merged.get("csp")),
        permissions=permissions_of(merged.get("permissions")),
        domain=_domain(merged.get("domain")),
        prefers_border=border if isinstance(border, bool) else None,
    )
