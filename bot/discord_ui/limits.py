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

import discord

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
# A person's display name (global name or server nickname): longer ones are cut.
NAME = 32
# An attachment's description (its alt text).
ATTACHMENT_DESCRIPTION = 1024
# A thread's name.
THREAD_NAME = 100
# The choices of one slash command option.
COMMAND_CHOICES = 25

# Edits Discord refuses for the message's age or its thread's state, where a new message
# goes through: 30046, edits of messages older than an hour past an unpublished allowance;
# 50083, any edit in an archived thread (a message sent there unarchives it).
EDIT_REFUSED_OLD = 30046
EDIT_REFUSED_ARCHIVED = 50083

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


def edit_refused(error: Exception) -> bool:
    """Whether Discord refused an edit of a message that can no longer be edited but may be
    posted anew: deleted, too old to edit now, or in an archived thread. A slow game's
    board is hours old and its thread idle for hours: it must never depend on an edit."""
    if isinstance(error, discord.NotFound):
        return True
    return isinstance(error, discord.HTTPException) and error.code in (
        EDIT_REFUSED_OLD,
        EDIT_REFUSED_ARCHIVED,
    )
