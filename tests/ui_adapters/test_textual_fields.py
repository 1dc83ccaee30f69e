"""The Textual form's words as values (no app, no pilot): a field's label, and option labels handed to
``Select``/``SelectionList`` as plain ``Text`` (a ``str`` label would be read as Textual markup).

The screen itself, driven by a pilot, is in ``test_textual_form.py`` and ``test_textual_hostile.py``.
"""

from __future__ import annotations

import pytest

pytest.importorskip("textual", reason="the textual extra is not installed: pip install -e '.[textual]'")

from rich.text import Text
from textual.widgets import Select, SelectionList, Switch

from mcp_client._schema.model import Option
from mcp_client.schema import FieldKind, FormField
from ui_adapters.textual._fields import FieldInput, field_label

OPTIONS = (Option("a", "[b]Bold?[/b] [@click=app.quit]x[/]"), Option("c", "\x07"), Option("d", "Dine in"))


def test_a_field_is_labelled_by_its_title_else_its_name_optional_ones_said_so() -> None:
    assert field_label(
        FormField(name="party", kind=FieldKind.INTEGER, label="Party size", required=True)
    ) == ("Party size")
    assert field_label(FormField(name="party", kind=FieldKind.INTEGER, label="Party size")) == (
        "Party size (optional)"
    )
    # A title of control characters only cleans to nothing: the property's name (cleaned too) stands in.
    assert (
        field_label(FormField(name="par\x07ty", kind=FieldKind.TEXT, label="\x07", required=True)) == "party"
    )
    assert field_label(
        FormField(name="n", kind=FieldKind.TEXT, label="a\nb " + "x" * 300, required=True)
    ) == ("a b " + "x" * 195 + "…")


def test_a_name_standing_in_is_cut_to_one_line_too() -> None:
    name = "first\nsecond " + "y" * 300
    assert field_label(FormField(name=name, kind=FieldKind.TEXT, label="", required=True)) == (
        "first second " + "y" * 186 + "…"
    )


def test_single_choice_labels_are_plain_text_not_markup() -> None:
    widget = FieldInput.build(
        FormField(name="s", kind=FieldKind.SINGLE_CHOICE, label="S", options=OPTIONS, default="d"), "s"
    ).widget
    assert isinstance(widget, Select)
    options = [(prompt, value) for prompt, value in widget._options if value is not Select.NULL]  # pyright: ignore[reportPrivateUsage]
    assert all(type(prompt) is Text and not prompt.spans for prompt, _ in options)
    assert [(str(prompt), value) for prompt, value in options] == [
        ("[b]Bold?[/b] [@click=app.quit]x[/]", "a"),
        ("c", "c"),  # a label of controls only: the value is shown
        ("Dine in", "d"),
    ]


def test_multi_choice_labels_are_plain_text_and_the_defaults_are_ticked() -> None:
    widget = FieldInput.build(
        FormField(name="m", kind=FieldKind.MULTI_CHOICE, label="M", options=OPTIONS, default=["c"]), "m"
    ).widget
    assert isinstance(widget, SelectionList)
    shown = [widget.get_option_at_index(index) for index in range(widget.option_count)]
    assert [(str(option.prompt), option.value) for option in shown] == [
        ("[b]Bold?[/b] [@click=app.quit]x[/]", "a"),
        ("c", "c"),
        ("Dine in", "d"),
    ]
    assert widget.selected == ["c"]


def test_each_choice_widget_is_built_with_its_prompt_id_and_default() -> None:
    """What the widgets start with, read before any app mounts them (the pilot tests see them shown)."""
    single = FormField(name="s", kind=FieldKind.SINGLE_CHOICE, label="S", options=OPTIONS, default="d")
    built = FieldInput.build(single, "field-s")
    assert built.form_field is single
    widget = built.widget
    assert isinstance(widget, Select)
    assert (widget.id, widget.prompt, widget._value) == ("field-s", "Choose one", "d")  # pyright: ignore[reportPrivateUsage, reportUnknownMemberType]
    unset = FieldInput.build(
        FormField(name="s", kind=FieldKind.SINGLE_CHOICE, label="S", options=OPTIONS), "s"
    )
    assert isinstance(unset.widget, Select) and unset.widget._value is Select.NULL  # pyright: ignore[reportPrivateUsage, reportUnknownMemberType]

    # A yes/no without a default starts with nothing chosen: never a side picked for the person.
    yes_no = FieldInput.build(FormField(name="b", kind=FieldKind.BOOLEAN, label="B"), "field-b").widget
    assert isinstance(yes_no, Select)
    assert (yes_no.id, yes_no.prompt, yes_no._value) == ("field-b", "Choose yes or no", Select.NULL)  # pyright: ignore[reportPrivateUsage, reportUnknownMemberType]
    assert [(prompt, value) for prompt, value in yes_no._options if value is not Select.NULL] == [  # pyright: ignore[reportPrivateUsage, reportUnknownMemberType, reportUnknownVariableType]
        ("Yes", True),
        ("No", False),
    ]
    for default in (True, False):
        switch = FieldInput.build(
            FormField(name="b", kind=FieldKind.BOOLEAN, label="B", default=default), "sw"
        )
        assert isinstance(switch.widget, Switch)
        assert (switch.widget.id, switch.widget.value, switch.value()) == ("sw", default, default)

    several = FieldInput.build(
        FormField(name="m", kind=FieldKind.MULTI_CHOICE, label="M", options=OPTIONS), "ms"
    )
    assert isinstance(several.widget, SelectionList)
    assert (several.widget.id, several.widget.selected, several.value()) == ("ms", [], [])


# scripts/mutants on _fields.py with this file and test_textual_form.py -k every_field_kind: field_label
# 18/18 killed; the option labels as Text all killed. Left: ``cast(None, ...)`` in ``value()`` (cast does
# nothing at run time: equivalent); the Input built for text, numbers and dates (its id, default,
# validators, placeholder), a yes/no Select left empty read as MISSING, and the validator's messages
# need a mounted app (Input cannot be built outside one): tests for them belong with the pilot tests.
