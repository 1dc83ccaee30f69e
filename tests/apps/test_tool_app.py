"""``app_of(tool)``, ``model_may_see`` and ``app_may_call`` as values, no server: every shape of
``_meta.ui`` a server may send, honest or not (the live servers' tools are in ``test_visibility.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_client import GroupTool
from mcp_client.apps import APP_MIME_TYPE, APPS_EXTENSION, ToolApp, app_may_call, app_of, model_may_see
from mcp_client.types import Tool

VIEW = "ui://lab/clock.html"
BOTH = ("model", "app")


def _tool(meta: Any) -> Tool:
    return Tool.model_validate({"name": "t", "inputSchema": {"type": "object"}, "_meta": meta})


def test_the_constants_are_the_spec_s() -> None:
    assert APPS_EXTENSION == "io.modelcontextprotocol/ui"
    assert APP_MIME_TYPE == "text/html;profile=mcp-app"


@pytest.mark.parametrize(
    ("meta", "expected"),
    [
        (None, None),
        ({}, None),
        ({"other": 1}, None),
        ({"ui": "app"}, None),  # no mapping and no flat key: nothing to do with MCP Apps
        ({"ui": {}}, ToolApp(None, BOTH)),
        ({"ui": {"resourceUri": VIEW}}, ToolApp(VIEW, BOTH)),
        ({"ui": {"resourceUri": VIEW, "visibility": ["app"]}}, ToolApp(VIEW, ("app",))),
        ({"ui": {"visibility": ["app"]}}, ToolApp(None, ("app",))),  # an app-only helper, no view
        ({"ui": {"resourceUri": VIEW, "visibility": ["model"]}}, ToolApp(VIEW, ("model",))),
        ({"ui/resourceUri": VIEW}, ToolApp(VIEW, BOTH)),  # the deprecated flat key
        ({"ui": {"resourceUri": 42}, "ui/resourceUri": VIEW}, ToolApp(VIEW, BOTH)),
        ({"ui": {"resourceUri": ""}}, ToolApp(None, BOTH)),
        ({"ui": {"resourceUri": 42}}, ToolApp(None, BOTH)),
        ({"ui": {"resourceUri": VIEW}, "ui/resourceUri": "ui://old"}, ToolApp(VIEW, BOTH)),  # ui wins
    ],
)
def test_app_of_reads_the_view_and_the_visibility(meta: Any, expected: ToolApp | None) -> None:
    assert app_of(_tool(meta)) == expected
    assert app_of({"name": "t", "_meta": meta}) == expected  # the tool as a JSON mapping


@pytest.mark.parametrize(
    ("visibility", "expected"),
    [
        ("app", ("app",)),  # a lone string names one audience: the sloppy server meant app only
        ("model", ("model",)),
        ([1, "app"], ("app",)),  # non-string entries dropped
        ([None, {"x": 1}, "model"], ("model",)),
        ([1], BOTH),  # nothing readable left: the default
        ({"model": False}, BOTH),  # not a list: the default
        (None, BOTH),
        (7, BOTH),
        ([], ()),  # an empty list: nobody
        (["Model"], ("Model",)),  # not "model": the model does not see it
    ],
)
def test_a_visibility_of_any_shape(visibility: Any, expected: tuple[str, ...]) -> None:
    tool = _tool({"ui": {"resourceUri": VIEW, "visibility": visibility}})
    app = app_of(tool)
    assert app is not None and app.visibility == expected
    assert model_may_see(tool) is ("model" in expected) is app.model_visible
    assert app_may_call(tool) is ("app" in expected) is app.app_visible


def test_a_tool_without_mcp_apps_is_for_everyone() -> None:
    plain = _tool(None)
    assert model_may_see(plain) and app_may_call(plain)


def test_a_group_tool_is_read_through_its_server_s_tool() -> None:
    inner = _tool({"ui": {"resourceUri": VIEW, "visibility": ["app"]}})
    grouped = GroupTool(name="lab_t", server="lab", tool=inner)
    assert app_of(grouped) == ToolApp(VIEW, ("app",))
    assert not model_may_see(grouped) and app_may_call(grouped)


def test_what_has_no_meta_mapping_has_no_app() -> None:
    assert app_of(object()) is None  # no meta attribute at all
    assert app_of({"name": "t", "_meta": "ui://x"}) is None  # _meta that is no mapping
    assert app_of({"name": "t", "_meta": ["ui"]}) is None


def test_a_resource_uri_that_is_no_string_falls_back_only_to_a_string() -> None:
    flat_ok = {"_meta": {"ui": {"resourceUri": 5}, "ui/resourceUri": VIEW}}
    assert app_of(flat_ok) == ToolApp(resource_uri=VIEW, visibility=BOTH)
    neither = {"_meta": {"ui": {"resourceUri": 5}, "ui/resourceUri": 7}}
    assert app_of(neither) == ToolApp(resource_uri=None, visibility=BOTH)
    empty = {"_meta": {"ui": {"resourceUri": ""}, "ui/resourceUri": ""}}
    assert app_of(empty) == ToolApp(resource_uri=None, visibility=BOTH)
