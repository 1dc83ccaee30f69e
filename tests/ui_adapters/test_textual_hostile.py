"""``ui_adapters.textual`` against what a server or the app around it may throw at the form: server text
full of Textual markup (``[/x]`` that does not parse, ``[@click=app.quit]`` that would be a link running
an action of the app) in every place it reaches a widget, titles made of control characters, and an
app whose own global CSS would break the form's widgets. Driven with Textual's pilot; what is asserted
is what the screen shows."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("textual", reason="the textual extra is not installed (pip install -e '.[textual]')")

from textual.widgets import Static

from mcp_client.types import ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult
from tests.ui_adapters._textual_helpers import EVERY_KIND, Host, context, screen_lines
from ui_adapters.textual import ElicitationScreen

pytestmark = pytest.mark.anyio

BROKEN = "[/x] B"
"""A closing tag that opens nothing: Textual's markup parser raises ``MarkupError`` on it."""
CLICK = "[@click=app.quit]Quit[/]"
"""Markup for a link that quits the app when clicked: shown as markup, it would read just "Quit"."""


def screen_text(app: Any) -> str:
    return "\n".join(screen_lines(app))


def choices_schema(title: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "one": {
                "type": "string",
                "title": "One",
                "oneOf": [{"const": "a", "title": title}, {"const": "b", "title": "plain"}],
            },
        },
        "required": ["one"],
    }


@pytest.mark.parametrize("title", [BROKEN, CLICK])
async def test_a_single_choice_shows_option_titles_with_markup_as_written(title: str) -> None:
    """In the open list and, once chosen, in the select (both read a ``str`` as markup)."""
    params = ElicitRequestFormParams(message="Pick", requested_schema=choices_schema(title))
    app = Host(ElicitationScreen(params, context()))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert title not in screen_text(app)
        await pilot.press("enter")  # the list opens
        await pilot.pause()
        assert f"▊  {title}" in screen_text(app)
        await pilot.press("down", "enter")  # the first option, chosen: the select shows it
        await pilot.pause()
        assert f"▊  {title}" in screen_text(app)
        current = app.screen.query_one("#field-0 SelectCurrent #label", Static)
        assert str(current.render()) == title
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.results == [ElicitResult(action="accept", content={"one": "a"})]


@pytest.mark.parametrize("title", [BROKEN, CLICK])
async def test_a_multiple_choice_shows_option_titles_with_markup_as_written(title: str) -> None:
    schema = {
        "type": "object",
        "properties": {
            "many": {
                "type": "array",
                "title": "Many",
                "items": {"anyOf": [{"const": "a", "title": title}, {"const": "b", "title": "plain"}]},
            },
        },
    }
    params = ElicitRequestFormParams(message="Pick", requested_schema=schema)
    app = Host(ElicitationScreen(params, context()))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert f"▐X▌ {title}" in screen_text(app)
        await pilot.press("space", "ctrl+s")  # the first option
        await pilot.pause()
    assert app.results == [ElicitResult(action="accept", content={"many": ["a"]})]


async def test_server_text_everywhere_in_the_form_is_shown_as_written() -> None:
    """The header naming the server and the tool, the message, a field's title, its help, a default."""
    schema = {
        "type": "object",
        "properties": {
            "note": {
                "type": "string",
                "title": f"Note {BROKEN}",
                "description": f"Help {CLICK}",
                "default": CLICK,
            },
            "agree": {"type": "boolean", "title": CLICK},
        },
    }
    params = ElicitRequestFormParams(message=f"Message {BROKEN} {CLICK}", requested_schema=schema)
    app = Host(ElicitationScreen(params, context(f"srv {CLICK}", tool=f"tool {BROKEN}")))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        shown = screen_text(app)
        assert f"srv {CLICK} · tool {BROKEN} asks:" in shown
        assert f"Message {BROKEN} {CLICK}" in shown
        assert f"Note {BROKEN} (optional)" in shown
        assert f"Help {CLICK}" in shown
        assert f"{CLICK} (optional)" in shown
        assert app.screen.query_one("#field-0").value == CLICK  # type: ignore[attr-defined]
        await pilot.click("#asker")  # were it a link, the app would quit
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, ElicitationScreen)


async def test_a_link_with_markup_is_shown_as_written() -> None:
    url = f"https://example.com/{BROKEN.replace(' ', '')}/{CLICK}"
    params = ElicitRequestURLParams(message=f"Sign in {CLICK}", url=url, elicitation_id="e")
    app = Host(ElicitationScreen(params, context(CLICK), open_url=lambda url: None))
    async with app.run_test(size=(160, 30)) as pilot:
        await pilot.pause()
        shown = screen_text(app)
        assert f"{CLICK} asks you to open a web page:" in shown
        assert f"Sign in {CLICK}" in shown
        assert f"Link: {url}" in shown


@pytest.mark.parametrize("name", [BROKEN, CLICK])
async def test_a_server_named_with_markup_withdraws_its_question(name: str) -> None:
    """The notification names the server as it is named (it used to crash the app on ``[/x]``)."""
    params = ElicitRequestFormParams(message="Pick", requested_schema=choices_schema("x"))
    app = Host(ElicitationScreen(params, context(name)))
    async with app.run_test(size=(160, 30), notifications=True) as pilot:
        await pilot.pause()
        app.question.withdraw()
        await pilot.pause()
        assert app.results == [None]
        toasts = [str(toast.render()) for toast in app.screen.query("Toast")]
        assert toasts == [
            f"Withdrawn: {name} no longer needs this answer (the call that asked is over: the server went "
            "away or the call was cancelled). Nothing was sent."
        ]


async def test_a_title_of_control_characters_falls_back_to_the_name_cleaned() -> None:
    """The title cleans to nothing: the property name is shown instead, cleaned of its escapes too."""
    schema = {
        "type": "object",
        "properties": {"co\x1b[31mlou\x1b]0;pwned\x07r": {"type": "string", "title": "\x1b[2J\x07\x1b[H"}},
        "required": ["co\x1b[31mlou\x1b]0;pwned\x07r"],
    }
    params = ElicitRequestFormParams(message="Pick", requested_schema=schema)
    app = Host(ElicitationScreen(params, context()))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        labels = [str(label.render()) for label in app.screen.query(".label")]
        assert labels == ["colour"]
        assert any(line.strip(" █") == "colour" for line in screen_lines(app))


# ------------------------------------------------------------------------- the app's own CSS

AGREE = 5  # the yes/no without a default: a Select of Yes/No

HOSTILE_CSS = {
    "the example's option list": "OptionList { height: 1fr; }",
    "hidden and shrunk widgets": """
        Button { display: none; }
        Input { width: 20; height: 1; }
        Select { width: 12; max-height: 1; }
        SelectionList { height: 1; }
        Switch { display: none; }
    """,
    "stretched containers": """
        Screen { layout: horizontal; align: left top; }
        Vertical, VerticalScroll, Horizontal { height: 1fr; width: 50%; }
        Button { width: 100%; height: 3; }
        Static { height: 3; }
        OptionList { max-height: 1; }
    """,
}


def every_kind() -> ElicitationScreen:
    return ElicitationScreen(
        ElicitRequestFormParams(message="Book a table?", requested_schema=EVERY_KIND), context()
    )


def dialog_lines(app: Any) -> list[str]:
    """The rows of the screen the dialog covers, as text."""
    region = app.screen.query_one("#dialog").region
    return [line[region.x : region.right] for line in screen_lines(app)[region.y : region.bottom]]


async def the_form_as_drawn(app: Any, pilot: Any) -> list[list[str]]:
    """The dialog as first shown, with the Yes/No list open, and tabbed down to the last field."""
    await pilot.pause()
    looks = [dialog_lines(app)]
    await pilot.press(*["tab"] * AGREE, "enter")
    await pilot.pause()
    looks.append(dialog_lines(app))
    await pilot.press("escape", *["tab"] * (len(EVERY_KIND["properties"]) - 1 - AGREE))
    await pilot.pause()
    looks.append(dialog_lines(app))
    return looks


def hosted(css: str) -> Host:
    class HostileHost(Host):
        CSS = css

    return HostileHost(every_kind())


def the_actions_are_shown(lines: list[str]) -> bool:
    return any("Send" in line and "Decline" in line and "Cancel" in line for line in lines)


@pytest.mark.parametrize("css", list(HOSTILE_CSS.values()), ids=list(HOSTILE_CSS))
async def test_an_apps_own_css_does_not_change_the_form(css: str) -> None:
    """The same form in an app with no CSS of its own and in one whose global rules would empty the
    Yes/No list, hide the buttons or stretch the containers: drawn the same, row for row."""
    plain, hostile = hosted(""), hosted(css)
    async with hostile.run_test(size=(100, 50)) as pilot:
        shown = await the_form_as_drawn(hostile, pilot)
    assert the_actions_are_shown(shown[0])
    assert any(line.strip(" ▊▎█") == "Yes" for line in shown[1])  # the list, open
    assert any(line.strip(" ▊▎█") == "No" for line in shown[1])
    async with plain.run_test(size=(100, 50)) as pilot:
        expected = await the_form_as_drawn(plain, pilot)
    assert shown == expected


@pytest.mark.parametrize("css", ["", "\n".join(HOSTILE_CSS.values())], ids=["own CSS", "hostile CSS"])
async def test_at_80x24_the_actions_stay_on_screen_and_each_field_scrolls_into_view(css: str) -> None:
    app = hosted(css)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for index in range(len(EVERY_KIND["properties"])):
            assert app.focused is not None and app.focused.id == f"field-{index}"
            assert the_actions_are_shown(screen_lines(app))
            assert dialog_lines(app)[1].strip(" █") == "bistro asks:"  # who asks stays on top
            body = app.screen.query_one("#body").region
            field = app.focused.region
            assert body.y <= field.y and field.bottom <= body.bottom, f"field-{index} is out of view"
            await pilot.press("tab")
            await pilot.pause()
        assert app.focused is not None and app.focused.id == "send"


async def test_an_error_goes_once_its_value_is_fixed_and_says_what_is_wrong_meanwhile() -> None:
    app = Host(every_kind())
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")  # everything empty
        await pilot.pause()

        def errors() -> dict[str, str]:
            return {str(w.id): str(w.render()) for w in app.screen.query(".error.shown")}

        assert errors()["error-0"] == "✗ this field is required"
        assert errors()[f"error-{AGREE}"] == "✗ this field is required"
        assert app.results == []
        await pilot.press("A")  # name: one character, still too short
        await pilot.pause()
        assert errors()["error-0"] == "✗ must be at least 2 characters"
        await pilot.press("d")
        await pilot.pause()
        assert "error-0" not in errors()
        assert "✗ must be at least 2 characters" not in "\n".join(screen_lines(app))
        await pilot.press("backspace", "backspace")  # emptied again: the error it shows is current
        await pilot.pause()
        assert errors()["error-0"] == "✗ this field is required"
        await pilot.press(*["tab"] * AGREE, "enter", "down", "enter")  # agree: Yes
        await pilot.pause()
        assert f"error-{AGREE}" not in errors()
        assert "error-1" in errors()  # the fields not touched keep theirs until Send checks them again


async def test_a_refused_link_says_why() -> None:
    params = ElicitRequestURLParams(message="Pay", url="javascript:alert(1)", elicitation_id="e")
    app = Host(ElicitationScreen(params, context(), open_url=lambda url: None))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "This link must not be opened:" in screen_text(app)
