"""A test peer on the official `mcp==2.3.0` MCPServer with MCP Apps tools (`mcp.server.apps`): tools whose
result a host shows in a view, beside a plain one.

| tool | `_meta.ui` | answers |
|---|---|---|
| `forecast(city)` | `resourceUri` | `Sunny in <city>, 21 C`, structuredContent `{"city", "celsius": 21}` |
| `storm(city)` | `resourceUri` | an error result (`isError`), text `No forecast for <city>` |
| `legacy_forecast(city)` | flat `ui/resourceUri` | as `forecast` (the deprecated spelling) |
| `echo(text)` | none | `text`, unchanged |
| `ran()` | none | every tool run so far (itself left out), as a JSON list |

The views are all `ui://weather/view.html`; `forecast` declares an outputSchema (`Forecast`).

`ui://weather/view.html` is a small HTML view (`text/html;profile=mcp-app`) that shows the result.

    python tests/servers/app_tools_server.py stdio
    python tests/servers/app_tools_server.py http --port N   # APP_TOOLS_SERVER_READY http://127.0.0.1:N/mcp
"""

import json
from collections.abc import Sequence
from typing import Annotated

from _serve import serve, transport_parser
from mcp.server.apps import Apps
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel

READY_MARKER = "APP_TOOLS_SERVER_READY"
VIEW = "ui://weather/view.html"
VIEW_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>Weather</title></head>
<body><main id="forecast">waiting for the forecast</main></body></html>
"""

apps = Apps()
runs: list[str] = []


class Forecast(BaseModel):
    city: str
    celsius: int


def _forecast(city: str) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(text=f"Sunny in {city}, 21 C")],
        structured_content={"city": city, "celsius": 21},
    )


@apps.tool(resource_uri=VIEW, description="The weather in a city, shown in a view.")
def forecast(city: str) -> Annotated[CallToolResult, Forecast]:
    runs.append("forecast")
    return _forecast(city)


@apps.tool(resource_uri=VIEW, description="A forecast that always fails.")
def storm(city: str) -> CallToolResult:
    runs.append("storm")
    return CallToolResult(content=[TextContent(text=f"No forecast for {city}")], is_error=True)


apps.add_html_resource(VIEW, VIEW_HTML, name="weather view")
mcp = MCPServer("app-tools-lab", version="0.0.1", log_level="WARNING", extensions=[apps])


@mcp.tool(
    description="The weather, with its view named the deprecated way.",
    meta={"ui/resourceUri": VIEW},
)
def legacy_forecast(city: str) -> CallToolResult:
    runs.append("legacy_forecast")
    return _forecast(city)


@mcp.tool(description="Say the text back.")
def echo(text: str) -> str:
    runs.append("echo")
    return text


@mcp.tool(description="Every tool run so far (this one left out), as a JSON list.")
def ran() -> str:
    return json.dumps(runs)


def main(argv: Sequence[str] | None = None) -> None:
    parser, _, _ = transport_parser(__doc__)
    serve(parser.parse_args(argv), ready_marker=READY_MARKER, server=mcp)


if __name__ == "__main__":
    main()
