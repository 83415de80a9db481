"""Discord's documented limits on what a message may hold, and text cut to fit them.

The OpenAPI description carries some of these; the rest are in Discord's
developer documentation. A message over a limit is refused whole (400), so
what grows with the game is fitted here rather than cut mid-word.
"""

from __future__ import annotations

from collections.abc import Iterable

CONTENT = 2000
FIELD_VALUE = 1024
EMBED_TOTAL = 6000


def field_chunks(lines: Iterable[str], limit: int = FIELD_VALUE) -> list[str]:
    """Whole lines gathered into values of at most `limit` characters, in order.

    A single line longer than `limit` (none of ours is) is cut with an ellipsis.
    """
    chunks: list[str] = []
    current = ""
    for line in lines:
        if len(line) > limit:
            line = line[: limit - 1] + "…"
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks
