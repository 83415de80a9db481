"""Discord's documented limits on what a message may hold, and text fitted to them.

Every limit the bot meets is named here once; nothing else in the Discord
layer writes one of these numbers. The OpenAPI description carries some of
them; the rest are in Discord's developer documentation. A message over a
limit is refused whole (400), so what grows with the game is fitted here:
lines are gathered whole into messages or fields, and only a single line
longer than the whole space is cut, with an ellipsis.
"""

from __future__ import annotations

from collections.abc import Iterable

# A message.
CONTENT = 2000
NONCE = 25
# An embed.
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_VALUE = 1024
EMBED_TOTAL = 6000
# Components: five rows of five buttons, or one select menu per row.
VIEW_ITEMS = 25
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
OPTION_LABEL = 100
# An attachment's description (its alt text).
ATTACHMENT_DESCRIPTION = 1024
# A thread's name.
THREAD_NAME = 100
# The choices of one slash command option.
COMMAND_CHOICES = 25

ELLIPSIS = "…"


def fit(text: str, limit: int) -> str:
    """`text` as it is when it fits in `limit` characters, else cut with an ellipsis."""
    return text if len(text) <= limit else text[: limit - len(ELLIPSIS)] + ELLIPSIS


def split_lines(lines: Iterable[str], limit: int) -> list[str]:
    """Whole lines gathered, in order, into texts of at most `limit` characters each.

    The one splitter of the Discord layer: a thread's lines into messages
    (`CONTENT`), a long hand or a listing into embed fields (`FIELD_VALUE`).
    A single line longer than `limit` (none of ours is) is cut by `fit`.
    """
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = fit(line, limit)
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks


def field_chunks(lines: Iterable[str]) -> list[str]:
    """Whole lines gathered into embed field values."""
    return split_lines(lines, FIELD_VALUE)


def message_chunks(lines: Iterable[str]) -> list[str]:
    """Whole lines gathered into message contents."""
    return split_lines(lines, CONTENT)
