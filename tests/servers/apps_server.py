"""MCP Apps on the official `mcp==2.3.0` server (`mcp.server.apps.Apps`): the cases the npm examples lack.

| tool | `_meta.ui` | what it is for |
|---|---|---|
| `show_clock()` | view `ui://lab/clock.html` | text HTML with a CSP, permissions, a domain, a border |
| `show_blob()` | view `ui://lab/blob.html` | the same view served as a base64 `blob` |
| `model_only(text)` | visibility `["model"]` | a tool a view must not call |
| `app_only()` | visibility `["app"]`, a view | a tool a model must never see |
| `poll()` | visibility `["app"]`, no view | an app-only helper (as system-monitor's `poll-system-stats`) |
| `vis_string()` | visibility `"app"` (a string) | a sloppy server meaning app only |
| `vis_numbers()` | visibility `[1, "app"]` | a non-string entry among the strings |
| `vis_object()` | visibility `{"model": false}` | not a list: the default (model and app) |
| `uri_number()` | resourceUri `42` | no view |
| `uri_https()` | resourceUri `https://lab.example/view.html` | a view that is no `ui://` resource |
| `flat_only()` | only the deprecated `_meta["ui/resourceUri"]` | a view the old way |
| `show_plain()` | view `ui://lab/plain.html`, served as `text/html` | the wrong MIME type |
| `supports_apps()` | none | whether this request's client declared MCP Apps (`client_supports_apps`) |
| `ran()` | none | every tool run so far (itself left out), as a JSON list: did a call reach the server |

Resources served by hand (`read_resource` overridden) to test where `_meta.ui` comes from:
`ui://lab/listed-only.html` (its `_meta.ui` only on the `resources/list` entry), `ui://lab/both.html`
(a content CSP beside a listed one and a listed-only `prefersBorder`), `ui://lab/hostile.html` (every
`_meta.ui` field of the wrong shape on the content item), `ui://lab/bad-blob.html` (a `blob` that is not
base64), `ui://lab/latin1.html` (a `blob` that is not UTF-8).

    python tests/servers/apps_server.py stdio
    python tests/servers/apps_server.py http --port N     # APPS_SERVER_READY http://127.0.0.1:N/mcp
"""

import json
from collections.abc import Iterable, Sequence
from typing import Any

from _serve import serve, transport_parser
from mcp.server.apps import APP_MIME_TYPE, Apps, ResourceCsp, ResourcePermissions, client_supports_apps
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.resources import BinaryResource, TextResource
from mcp_types import BlobResourceContents, ReadResourceRequestParams, ReadResourceResult

READY_MARKER = "APPS_SERVER_READY"

CLOCK_HTML = "<!doctype html><title>Horloge</title><p>Il est midi, déjà.</p>"  # é: 2 bytes in UTF-8
CLOCK_CSP = ResourceCsp(
    connect_domains=["https://api.clock.example"],
    resource_domains=["https://cdn.clock.example", "https://*.fonts.example"],
    frame_domains=["https://player.clock.example"],
    base_uri_domains=["https://clock.example"],
)
CLOCK = "ui://lab/clock.html"
BLOB = "ui://lab/blob.html"
PLAIN = "ui://lab/plain.html"

# Resources whose content item this server writes itself (uri -> (content, the content item's _meta)).
HAND_MADE: dict[str, tuple[str | bytes, dict[str, Any] | None]] = {
    "ui://lab/listed-only.html": ("<p>listed only</p>", None),
    "ui://lab/both.html": (
        "<p>both</p>",
        {"ui": {"csp": {"connectDomains": ["https://content.example"]}}},
    ),
    "ui://lab/hostile.html": (
        "<p>hostile</p>",
        {
            "ui": {
                "csp": "connect-src *",
                "permissions": ["camera"],
                "domain": 5,
                "prefersBorder": "yes",
            }
        },
    ),
    "ui://lab/hostile-domains.html": (
        "<p>hostile domains</p>",
        {
            "ui": {
                "csp": {
                    "connectDomains": [
                        "https://ok.example",
                        7,
                        "https://x.example; script-src *",
                        "",
                        "https://a.example https://b.example",
                        "https://quote.example'",
                    ],
                    "resourceDomains": "https://cdn.example",
                },
                "permissions": {"camera": {}, "microphone": {}, "teleport": {}},
                "domain": "evil.example; script-src *",
            }
        },
    ),
    "ui://lab/latin1.html": ("<p>caf\xe9</p>".encode("latin-1"), None),
}
LISTED_META: dict[str, dict[str, Any]] = {
    "ui://lab/listed-only.html": {
        "ui": {
            "csp": {"connectDomains": ["https://listed.example"]},
            "permissions": {"geolocation": {}},
            "domain": "listed.example",
            "prefersBorder": False,
        }
    },
    "ui://lab/both.html": {
        "ui": {"csp": {"connectDomains": ["https://listed.example"]}, "prefersBorder": True}
    },
    "ui://lab/hostile.html": {
        "ui": {
            "csp": {"connectDomains": ["https://listed.example"]},
            "permissions": {"camera": {}},
            "domain": "listed.example",
            "prefersBorder": True,
        }
    },
}
BAD_BLOB = "ui://lab/bad-blob.html"


class _AppsLab(MCPServer):
    """Serves the hand-made resources' content items as written above (the rest as MCPServer does)."""

    async def read_resource(self, uri: Any, context: Any = None) -> Iterable[ReadResourceContents] | Any:
        made = HAND_MADE.get(str(uri))
        if made is not None:
            return [ReadResourceContents(content=made[0], mime_type=APP_MIME_TYPE, meta=made[1])]
        return await super().read_resource(uri, context)

    async def _handle_read_resource(self, ctx: Any, params: ReadResourceRequestParams) -> Any:
        if str(params.uri) == BAD_BLOB:
            contents = [BlobResourceContents(uri=BAD_BLOB, blob="not base64!!", mime_type=APP_MIME_TYPE)]
            return ReadResourceResult(contents=contents)
        return await super()._handle_read_resource(ctx, params)


apps = Apps()
runs: list[str] = []


@apps.tool(resource_uri=CLOCK, description="The time, with a clock view.")
def show_clock() -> str:
    runs.append("show_clock")
    return "12:00"


@apps.tool(resource_uri=BLOB, description="The time, with a view served as a blob.")
def show_blob() -> str:
    runs.append("show_blob")
    return "12:00 (blob)"


@apps.tool(resource_uri=CLOCK, visibility=["model"], description="For the model only.")
def model_only(text: str) -> str:
    runs.append("model_only")
    return f"model only: {text}"


@apps.tool(resource_uri=CLOCK, visibility=["app"], description="For the clock view only.")
def app_only() -> str:
    runs.append("app_only")
    return "app only"


apps.add_html_resource(
    CLOCK,
    CLOCK_HTML,
    name="clock",
    csp=CLOCK_CSP,
    permissions=ResourcePermissions(clipboard_write={}, camera={}),
    domain="clock.lab.example",
    prefers_border=True,
)
apps.add_resource(BinaryResource(uri=BLOB, name="blob clock", data=CLOCK_HTML.encode("utf-8")))

mcp = _AppsLab("apps-lab", version="0.0.1", log_level="WARNING", extensions=[apps])


def _hostile_tool(name: str, ui: Any, *, flat: bool = False) -> None:
    def run() -> str:
        runs.append(name)
        return f"ran {name}"

    meta = {"ui/resourceUri": ui} if flat else {"ui": ui}
    mcp.add_tool(run, name=name, description=f"The tool {name}.", meta=meta)


_hostile_tool("poll", {"visibility": ["app"]})
_hostile_tool("vis_string", {"resourceUri": CLOCK, "visibility": "app"})
_hostile_tool("vis_numbers", {"resourceUri": CLOCK, "visibility": [1, "app"]})
_hostile_tool("vis_object", {"resourceUri": CLOCK, "visibility": {"model": False}})
_hostile_tool("uri_number", {"resourceUri": 42})
_hostile_tool("uri_https", {"resourceUri": "https://lab.example/view.html"})
_hostile_tool("flat_only", CLOCK, flat=True)
_hostile_tool("show_plain", {"resourceUri": PLAIN})

mcp.add_resource(TextResource(uri=PLAIN, name="plain", mime_type="text/html", text="<p>plain html</p>"))
for _uri in (*HAND_MADE, BAD_BLOB):
    mcp.add_resource(
        TextResource(
            uri=_uri, name=_uri, mime_type=APP_MIME_TYPE, text="(served by hand)", meta=LISTED_META.get(_uri)
        )
    )


@mcp.tool(description="Whether this request's client declared MCP Apps.")
def supports_apps(ctx: Context) -> str:
    return f"apps: {client_supports_apps(ctx)}"


@mcp.tool(description="Every tool run so far (this one left out), as a JSON list.")
def ran() -> str:
    return json.dumps(runs)


def main(argv: Sequence[str] | None = None) -> None:
    parser, _, _ = transport_parser(__doc__)
    serve(parser.parse_args(argv), ready_marker=READY_MARKER, server=mcp)


if __name__ == "__main__":
    main()
