"""bot/discord_ui/safe_text.py: a name is shown as written, pings nobody, fits every limit."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.discord_ui.limits import NAME
from bot.discord_ui.safe_text import SeatNames, escape, name_plain, name_text, plain_names

# What Discord shows of escaped text: a backslash before punctuation is hidden.
_SHOWN = re.compile(r"\\([^0-9A-Za-z\s])")


def shown(text: str) -> str:
    return _SHOWN.sub(r"\1", text).replace("\u200b", "")


def test_hostile_names_are_escaped() -> None:
    assert escape("<@123>") == r"\<@123\>"
    assert escape("# heading") == r"\# heading"
    assert escape("> quote") == r"\> quote"
    assert escape("**x**") == r"\*\*x\*\*"
    assert escape("-# small") == r"\-\# small"
    assert escape("1. first") == r"1\. first"
    assert escape("[link](https://x.y)") == r"\[link\]\(https\://x\.y\)"
    assert escape("@everyone and @Here") == "@\u200beveryone and @\u200bHere"


@given(st.text(min_size=1, max_size=300))
def test_a_name_is_shown_as_written_on_one_line_and_never_too_long(name: str) -> None:
    text = name_text(name)
    assert shown(text) == name_plain(name)
    assert "\n" not in text
    assert len(name_plain(name)) <= NAME
    assert re.search(r"(?<!\\)[<*_`|~>#\[]", text) is None, "no markdown left unescaped"


def test_a_long_name_is_cut_with_an_ellipsis() -> None:
    assert name_plain("x" * 200) == "x" * (NAME - 1) + "…"
    assert name_plain("  two\nlines ") == "two lines"


def test_seat_names_keep_the_plain_and_raw_forms() -> None:
    names = SeatNames(["**ana**", "b" * 50])
    assert names == [r"\*\*ana\*\*", "b" * (NAME - 1) + "…"]
    assert plain_names(names) == ["**ana**", "b" * (NAME - 1) + "…"]
    assert names.raw == ["**ana**", "b" * 50]
    assert plain_names(["as", "given"]) == ["as", "given"]
