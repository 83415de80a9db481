"""People's names made into text that Discord shows as written, and nothing more.

A display name is chosen by anyone: `<@123>`, `@everyone`, `# heading`,
`> quote`, `**x**`. Put raw into a message, it would ping someone (were
mentions allowed: the client allows none, `bot.app`) or turn its line into
a heading, a quote or a link. So every name the bot writes into Discord
text goes through `name_text`: markdown characters are escaped with a
backslash (Discord shows the character and hides the backslash), and the
mass mentions get a zero-width space after their `@`.

Labels (buttons, select options, thread names) are not markdown: they take
`name_plain`, the same name without escapes. Both are cut to Discord's
longest display name, so a name never pushes a title, a field or a label
over its limit. Pictures and the terminal keep the raw name: this module
is for the Discord layer only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.discord_ui.limits import NAME, fit

# Every character Discord's markdown gives a meaning to, at the start of a line or
# anywhere: emphasis, code, spoilers, quotes, headings, lists, links, mentions,
# custom emoji and timestamps (`<`), auto-linked URLs (`:`).
_MARKDOWN = re.compile(r"([\\*_~|`>#\-\[\]()<.:+])")
_MASS_MENTION = re.compile(r"@(everyone|here)", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s+")
_ZERO_WIDTH_SPACE = "\u200b"


def name_plain(name: str) -> str:
    """A name for a label: on one line, at most Discord's display name length."""
    return fit(_WHITESPACE.sub(" ", name).strip() or "?", NAME)


def escape(text: str) -> str:
    """`text` shown exactly as written in Discord's markdown, pinging nobody."""
    text = _MARKDOWN.sub(r"\\\1", text)
    return _MASS_MENTION.sub(lambda m: f"@{_ZERO_WIDTH_SPACE}{m.group(1)}", text)


def name_text(name: str) -> str:
    """A name for a message, an embed's title, description or field."""
    return escape(name_plain(name))


class SeatNames(list[str]):
    """A game's seat names as Discord text shows them (`name_text`), with the plain
    names kept for its pictures and labels (`plain_names`)."""

    def __init__(self, raw: Iterable[str]) -> None:
        raw = list(raw)
        super().__init__(name_text(name) for name in raw)
        self.raw = raw
        self.plain = [name_plain(name) for name in raw]


def plain_names(names: list[str]) -> list[str]:
    """The label form of `names`: the plain names of `SeatNames`, else `names` as given."""
    return names.plain if isinstance(names, SeatNames) else names


def raw_names(names: list[str]) -> list[str]:
    """The names as people chose them, for pictures: uncut, unescaped."""
    return names.raw if isinstance(names, SeatNames) else names
