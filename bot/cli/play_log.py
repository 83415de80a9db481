"""The terminal game's outputs besides its menus: the game kept in a file as it is
played (the seed and every action, which `lockdown replay`, `lockdown board` and
`lockdown export --gif` read), and its lines wrapped to the terminal.

The file is written again after each action, so a game quit, interrupted or
crashed halfway is kept up to where it stopped. It holds the seed: it is the
person's own game against AI seats, with nobody to hide the deck from.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.table.seats import Seat
from lockdown_core import GameState, ReplayLog


class SavedLog:
    """An `ActionStore` for the terminal table: each accepted action goes to `path`."""

    def __init__(self, path: Path, log: ReplayLog) -> None:
        self.path = path
        self.log = log
        self.write()

    async def record(
        self,
        game_id: int,
        expected_version: int,
        actor: int | None,
        action: dict[str, Any],
        state: GameState,
        deadline: float | None,
        seats: list[Seat],
    ) -> None:
        self.log.actions.append(action)
        self.write()

    def write(self) -> None:
        title = f"Terminal game, seed {self.log.seed}"
        data = {"title": title, **self.log.model_dump()}
        self.path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")


def terminal_writer() -> Callable[[str], None]:
    """Print each line, wrapped between words to the terminal's width (read at each line:
    the window may be resized), the wrapped part under the line's text, not its marks.
    Never inside a word: a command or a file name too long for the line stays whole."""

    def write(text: str) -> None:
        width = shutil.get_terminal_size().columns
        for line in text.splitlines() or [""]:
            body = line.lstrip(" »0123456789.")
            indent = " " * (len(line) - len(body))
            print(
                textwrap.fill(
                    line,
                    width,
                    subsequent_indent=indent,
                    break_long_words=False,
                    break_on_hyphens=False,
                )
                if len(line) > width
                else line,
                flush=True,
            )

    return write
