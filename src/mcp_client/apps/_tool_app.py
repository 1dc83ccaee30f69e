"""Which tools have a view, and who may see and call them (``_meta.ui`` of a tool, MCP Apps).

A tool declares its interface in ``_meta.ui``: ``resourceUri`` (the ``ui://`` resource holding the view)
and ``visibility`` (who may call it: ``"model"``, ``"app"``, both by default). Servers written before
the extension settled say ``_meta["ui/resourceUri"]`` instead; both are read. The visibility rule is a
MUST of the spec the client keeps whether or not it declared the extension: a tool whose visibility lacks
``"model"`` is never handed to a model, and a view may only call a tool whose visibility has ``"app"``.

Server data is untrusted: a ``visibility`` that is not a list of strings counts as the default, except
that a lone string names one audience (``"app"`` means app only), so a sloppy server that meant to hide a
helper tool from the model gets it hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

APPS_EXTENSION = "io.modelcontextprotocol/ui"
"""The extension's identifier in the client's capabilities (``extensions``)."""

APP_MIME_TYPE = "text/html;profile=mcp-app"
"""The MIME type of a view's HTML, the only one this client renders."""

Audience = Literal["model", "app"]
DEFAULT_VISIBILITY: tuple[str, ...] = ("model", "app")


@dataclass(frozen=True)
class ToolApp:
    """A tool's part in MCP Apps, as ``app_of(tool)`` reads it from ``_meta.ui``.

    ``resource_uri`` is the ``ui://`` resource of its view (``None`` for an app-only helper tool that
    has a visibility and no view of its own); ``visibility`` says who may call it.
    """

    resource_uri: str | None
    visibility: tuple[str, ...] = DEFAULT_VISIBILITY

    @property
    def model_visible(self) -> bool:
        """Whether a model may be given this tool (its visibility has ``"model"``)."""
        return "model" in self.visibility

    @property
    def app_visible(self) -> bool:
        """Whether a view may call this tool (its visibility has ``"app"``)."""
        return "app" in self.visibility


def _meta_of(tool: object) -> Mapping[str, Any] | None:
    """The ``_meta`` of a ``Tool``, a ``GroupTool`` (its server's tool) or a raw tool mapping."""
    inner = getattr(tool, "tool", None)
    if inner is not None and not isinstance(tool, Mapping):
        tool = inner
    meta = tool.get("_meta") if isinstance(tool, Mapping) else getattr(tool, "meta", None)  # pyright: ignore[reportUnknownMemberType]
    return meta if isinstance(meta, Mapping) else None  # pyright: ignore[reportUnknownVariableType]


def _visibility(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list | tuple):
        entries = tuple(item for item in value if isinstance(item, str))  # pyright: ignore[reportUnknownVariableType]
        return entries if entries or not value else DEFAULT_VISIBILITY
    return DEFAULT_VISIBILITY


def app_of(tool: object) -> ToolApp | None:
    """The tool's ``ToolApp`` when ``_meta.ui`` (or the deprecated ``_meta["ui/resourceUri"]``) is there,
    ``None`` for a tool that has nothing to do with MCP Apps.

    ``tool`` is a ``Tool`` from ``list_tools()``, a ``GroupTool`` of a ``ClientGroup``, or a tool as a
    JSON mapping.
    """
    meta = _meta_of(tool)
    if meta is None:
        return None
    ui = meta.get("ui")
    flat = meta.get("ui/resourceUri")
    if not isinstance(ui, Mapping) and flat is None:
        return None
    ui_map: Mapping[str, Any] = ui if isinstance(ui, Mapping) else {}  # pyright: ignore[reportUnknownVariableType]
    uri = ui_map.get("resourceUri")
    if not isinstance(uri, str) or not uri:
        uri = flat if isinstance(flat, str) and flat else None
    visibility = _visibility(ui_map["visibility"]) if "visibility" in ui_map else DEFAULT_VISIBILITY
    return ToolApp(resource_uri=uri, visibility=visibility)


def model_may_see(tool: object) -> bool:
    """Whether a model may be given ``tool``: true unless its ``_meta.ui.visibility`` lacks ``"model"``."""
    app = app_of(tool)
    return app is None or app.model_visible


def app_may_call(tool: object) -> bool:
    """Whether a view may call ``tool``: true unless its ``_meta.ui.visibility`` lacks ``"app"``."""
    app = app_of(tool)
    return app is None or app.app_visible
