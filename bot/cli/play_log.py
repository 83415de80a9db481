"""The terminal game's outputs besides its menus: what the channel would show, and
its lines wrapped to the terminal (the game kept in a file is `saved_game`)."""

from __future__ import annotations

import asyncio
import shutil
import textwrap
from collections.abc import Callable

from bot.table.presenter import Update
from bot.table.table import Table
from bot.texts import t
from bot.texts.narrate import story

Write = Callable[[str], None]


class TerminalPresenter:
    """Prints what the channel would show, and what only your seat may see."""

    def __init__(self, write: Write, lang: str, names: list[str], seat: int) -> None:
        self.write = write
        self.lang = lang
        self.names = names
        self.seat = seat
        self.changed = asyncio.Event()
        # What the person chose, said before what it caused: set just before the
        # table applies it, written with the first lines that follow.
        self.receipt: str | None = None

    def say(self, key: str, **params: object) -> str:
        return t(self.lang, key, **params)

    async def show(self, table: Table, update: Update) -> None:
        # One stream, in order: your choice, then what it caused; a card you are handed
        # shows where it was handed over.
        if self.receipt is not None:
            self.write(self.receipt)
            self.receipt = None
        for line in story(update.seen_by(self.seat), self.lang, self.names, self.seat):
            self.write("  » " + line.text if line.private else line.text)
        for notice in update.notices:
            params = dict(notice.params)
            if "seat" in params:
                params["name"] = self.names[int(str(params["seat"]))]
            self.write(self.say(notice.key, **params))
        self.changed.set()


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
