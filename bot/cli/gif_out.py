"""The replay GIF written to a file, for `lockdown export --gif` and `lockdown replay
--gif`: Pillow is imported only by the commands that draw."""

from __future__ import annotations

import sys
from pathlib import Path

from bot.render.replay_gif import GifTooLarge, Start, draw_gif
from lockdown_core import IllegalAction


def write_gif(start: Start, gif: Path, lang: str, command: str) -> int:
    """Draw the game from `start` into `gif`; the exit status, 2 with `command`'s own
    message if it cannot be played again or drawn under Discord's limit."""
    state, opening, moves = start
    try:
        data = draw_gif(state, opening, moves, lang)
    except IllegalAction as exc:
        print(f"lockdown {command}: the game cannot be played again: {exc}", file=sys.stderr)
        return 2
    except GifTooLarge as exc:
        print(f"lockdown {command}: no GIF under Discord's limit: {exc}", file=sys.stderr)
        return 2
    gif.write_bytes(data)
    print(f"{gif}: {len(data)} bytes")
    return 0
