"""The person's next line at the terminal table, read in the background.

A line typed before a menu appears is not an answer to it: a "1" pressed
twice, or typed while the AI seats played, once designated its own typist in
a Parking lot vote. So each new menu first discards what was typed before it:
the line a background read already holds, and, at a real terminal, whatever
waits unread in its input buffer. Lines piped from a script were written
on purpose and are all kept: only a keyboard at a terminal is forgiven.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable

try:
    import termios
except ImportError:  # not on Windows: a console there has no input queue to flush
    termios = None  # type: ignore[assignment]

ReadLine = Callable[[], Awaitable[str]]


def flush_stdin() -> None:
    """Drop what was typed at the terminal and not read yet."""
    if termios is not None:
        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)


def terminal_flush() -> Callable[[], None] | None:
    """`flush_stdin` when a person types at a terminal, None when lines come from a
    pipe or a file (a script, whose every line is meant)."""
    return flush_stdin if sys.stdin.isatty() else None


class Keyboard:
    """One read pending at a time, so the menu can be redrawn while the person thinks."""

    def __init__(self, read_line: ReadLine, flush: Callable[[], None] | None = None) -> None:
        """`flush` empties the terminal's input buffer; None keeps every line typed
        ahead (scripted input)."""
        self.read_line = read_line
        self.flush = flush
        self.pending: asyncio.Task[str] | None = None

    def discard(self) -> None:
        """Forget everything typed so far: called as a new menu is drawn. A background
        read still waiting goes on and answers the new menu; one that already got a
        line drops it."""
        if self.flush is None:
            return
        self.flush()
        if self.pending is not None and self.pending.done():
            if not self.pending.cancelled():
                self.pending.exception()  # a failed read is dropped too: the next one starts anew
            self.pending = None

    async def answer(self, still: Callable[[], bool], changed: asyncio.Event) -> str | None:
        """The next line typed, or None as soon as the menu on screen no longer holds
        (`still()` turns False when the game changes it)."""
        if self.pending is None:
            self.pending = asyncio.ensure_future(self.read_line())
        while True:
            changed.clear()
            if not still():
                return None
            moved = asyncio.ensure_future(changed.wait())
            done, _ = await asyncio.wait({self.pending, moved}, return_when=asyncio.FIRST_COMPLETED)
            moved.cancel()
            if self.pending in done:
                # A read that failed (end of input) is not read again: the next one starts anew.
                read, self.pending = self.pending, None
                return read.result()

    def close(self) -> None:
        if self.pending is not None:
            self.pending.cancel()
