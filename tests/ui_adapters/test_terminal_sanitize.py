"""ui_adapters.text.sanitize: server text made safe to print (used by the terminal and URL adapters)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui_adapters.text import sanitize


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("plain text", "plain text"),
        ("\x1b[31mred\x1b[0m", "red"),
        ("\x1b[6;66H\x1b[2Kmoved", "moved"),
        ("\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\", "click"),
        ("\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07", "click"),
        ("\x1b]0;window title\x07after", "after"),
        ("\x1bP+q544e\x1b\\dcs", "dcs"),
        ("\x1b_apc\x1b\\x", "x"),
        ("\x1b7saved\x1b8", "saved"),
        ("\x9b31m8-bit\x9d0;t\x9cok", "8-bitok"),
        ("unterminated \x1b]0;everything after", "unterminated"),
        ("\u202eevil\u202c\u2066iso\u2069\u200e\u200f", "eviliso"),
        ("zero\u200bwidth\u200c\u200d\u2060\ufeff", "zerowidth"),
        ("bell\x07 back\x08space del\x7f", "bell backspace del"),
        ("[bold]markup[/bold] stays", "[bold]markup[/bold] stays"),
        ("café 日本 emoji 🎉", "café 日本 emoji 🎉"),
        ("tab\there", "tab here"),
        ("a\r\nb\rc\u2028d", "a\nb\nc\nd"),
        ("a\n\n\n\n\nb", "a\n\nb"),
    ],
)
def test_sanitize(raw: str, clean: str) -> None:
    assert sanitize(raw) == clean


def test_single_line_and_truncation() -> None:
    assert sanitize("one\ntwo\r\n  three", single_line=True) == "one two three"
    assert sanitize("x" * 100, max_length=10) == "x" * 9 + "…"
    assert sanitize("short", max_length=10) == "short"
    assert len(sanitize("\x1b[31m" * 100_000 + "y" * 1_000_000, max_length=50)) <= 50


@given(st.text())
def test_output_never_holds_a_control_or_format_character(text: str) -> None:
    out = sanitize(text, max_length=200)
    assert len(out) <= 200
    for ch in out:
        assert ch == "\n" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Zl", "Zp"), repr(ch)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp")) | st.just("\t")))
def test_ordinary_text_is_unchanged_but_for_tabs_and_outer_space(text: str) -> None:
    assert sanitize(text) == text.replace("\t", " ").strip()
