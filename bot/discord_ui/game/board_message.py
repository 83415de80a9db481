"""The thread's last message: this turn's lines above the board, the step, the buttons.

Each turn opens a new message that carries the turn's lines above the board;
the board of the turn before folds to one line of history. Within a turn, new
lines are added to that message's text by an edit (one request, where a post
and a fold would take two), and a write that would show nothing new is not
made: a revised secret choice changes nothing public, so nothing is touched.

The picture is uploaded once per message and kept by the edits that change only
text (a vote count, a Done mark, new lines): an edit that sends no `attachments`
keeps the message's file, so only a change the picture shows uploads a new one.
"""

from __future__ import annotations

import asyncio
import logging
import time

import discord

from bot.discord_http import Priority, request_priority
from bot.discord_ui.game import board
from bot.discord_ui.game.board import BoardDrawing, BoardMoment
from bot.discord_ui.game.lines import Batch
from bot.discord_ui.limits import CONTENT, edit_refused, message_chunks
from bot.discord_ui.safe_text import raw_names
from bot.texts.catalog import Translate

log = logging.getLogger(__name__)

# How long the game's deliveries wait for a progress edit of the board (a vote counted,
# a Done mark): past it, the edit waits in the request budget on its own, and the next
# lines are not held behind the lowest priority there is.
PROGRESS_PATIENCE = 0.25


class BoardMessage:
    """Which message holds the board, what it shows, and the writes that keep it last."""

    def __init__(
        self,
        game_id: int,
        lang: str,
        names: list[str],
        say: Translate,
        *,
        message_id: int | None = None,
    ) -> None:
        self.game_id = game_id
        self.lang = lang
        self.names = names
        self.say = say
        self.message_id = message_id
        self.notes: tuple[str, ...] = ()
        self.shown: BoardMoment | None = None
        self.last_write = 0.0
        self.repost = False
        self._fingerprint = ""
        # The text above the board in its message (this turn's lines); None: unknown, as
        # after a restart, so the next lines go out in a new message.
        self._content: str | None = None
        self._picture: tuple[str, bytes] | None = None
        # The picture key of the file the board message carries now; None: unknown.
        self._uploaded: str | None = None
        # The board a new post left above it, folded once the cursor is stored.
        self._to_fold: tuple[int, BoardMoment] | None = None

    def needs_new_message(self, moment: BoardMoment, batch: Batch | None) -> bool:
        """A new message at the bottom: for each turn, and when the lines no longer fit."""
        shown = self.shown
        if shown is None:
            return True
        if batch is None:
            return self.repost
        if self._content is None or moment.data["turn"] != shown.data["turn"]:
            return True
        added = sum(len(line) + 1 for line in batch.lines)
        return len(self._content) + added > CONTENT

    async def post(
        self, channel: discord.abc.Messageable, moment: BoardMoment, batch: Batch | None
    ) -> None:
        """New lines and the board below them, in as few messages as the limits allow;
        the board before is folded by `fold_previous`."""
        drawing = await self._draw(moment)
        chunks = message_chunks(batch.lines) if batch is not None else []
        last = chunks.pop() if chunks else None
        for part, chunk in enumerate(chunks):
            assert batch is not None
            await channel.send(chunk, nonce=batch.nonce(self.game_id, part))
        if batch is not None:
            sent = await channel.send(
                content=last,
                embed=drawing.embed,
                file=drawing.file(),
                view=drawing.view,
                nonce=batch.nonce(self.game_id, len(chunks)),
            )
        else:
            sent = await channel.send(embed=drawing.embed, file=drawing.file(), view=drawing.view)
        self._content = last or ""
        self.repost = False
        previous, self.message_id = self.message_id, sent.id
        folding = self.shown or moment
        self._now_showing(moment, drawing)
        if previous is not None and previous != sent.id:
            self._to_fold = (previous, folding)

    async def append(
        self, channel: discord.abc.Messageable, moment: BoardMoment, batch: Batch
    ) -> bool:
        """New lines of this turn, added above the board in its own message; False if
        the message was deleted (the lines then go out in a new one)."""
        assert self.message_id is not None
        assert self._content is not None
        drawing = await self._draw(moment)
        content = "\n".join(filter(None, [self._content, *batch.lines]))
        message = channel.get_partial_message(self.message_id)  # type: ignore[attr-defined]
        try:
            await message.edit(
                content=content, embed=drawing.embed, view=drawing.view, **self._upload(drawing)
            )
        except discord.HTTPException as error:
            if not edit_refused(error):
                raise
            log.info(
                "game %s: the board can no longer be edited (%s); posting it again",
                self.game_id,
                error,
            )
            self._content = None
            return False
        self._content = content
        self._now_showing(moment, drawing)
        return True

    async def edit(self, channel: discord.abc.Messageable, moment: BoardMoment) -> bool:
        """Progress within a step: the board in place, if it shows anything new; False if
        the message was deleted (it is then posted again)."""
        drawing = await self._draw(moment)
        if drawing.fingerprint == self._fingerprint:
            self.shown = moment
            return True
        assert self.message_id is not None
        message = channel.get_partial_message(self.message_id)  # type: ignore[attr-defined]
        with request_priority(Priority.PROGRESS):  # a count, a Done: the first to wait
            sending = asyncio.ensure_future(
                message.edit(embed=drawing.embed, view=drawing.view, **self._upload(drawing))
            )
        await asyncio.wait({sending}, timeout=PROGRESS_PATIENCE)
        if not sending.done():
            # Held back by the request budget: the game's next write goes on meanwhile,
            # and the budget merges it into this edit while it waits (`discord_http`).
            self._now_showing(moment, drawing)
            sending.add_done_callback(self._progress_sent)
            return True
        try:
            sending.result()
        except discord.HTTPException as error:
            if not edit_refused(error):
                raise
            log.info(
                "game %s: the board can no longer be edited (%s); posting it again",
                self.game_id,
                error,
            )
            self.repost = True
            return False
        self._now_showing(moment, drawing)
        return True

    def _progress_sent(self, sending: asyncio.Future[object]) -> None:
        """A progress edit that went on without waiting, come back: if it failed, the
        next write draws the board in full again (an edit Discord refuses there, for a
        deleted, hour-old or archived message, then posts it anew)."""
        if sending.cancelled() or sending.exception() is None:
            return
        log.info("game %s: a progress edit failed: %s", self.game_id, sending.exception())
        self._fingerprint = ""
        self._uploaded = None

    async def fold_previous(self, channel: discord.abc.Messageable) -> None:
        """The board above the new one becomes one line of history, without buttons."""
        if self._to_fold is None:
            return
        (message_id, moment), self._to_fold = self._to_fold, None
        message = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
        # Last in the budget's line, with progress, and not waited for past a moment: its
        # buttons already answer "stale", and a third of a busy token's edits are folds,
        # which must not hold back the lines.
        with request_priority(Priority.PROGRESS):
            folding = asyncio.ensure_future(
                message.edit(embed=board.folded(moment, self.say), attachments=[], view=None)
            )
        folding.add_done_callback(self._folded)
        await asyncio.wait({folding}, timeout=PROGRESS_PATIENCE)

    def _folded(self, folding: asyncio.Future[object]) -> None:
        """A fold come back: one of a message deleted by someone had nothing to fold."""
        if folding.cancelled():
            return
        error = folding.exception()
        # A board Discord no longer lets us edit stays as it was: its buttons say "moved on".
        if isinstance(error, Exception) and not edit_refused(error):
            log.info("game %s: folding the board before failed: %s", self.game_id, error)

    def _upload(self, drawing: BoardDrawing) -> dict[str, list[discord.File]]:
        """The edit's `attachments`: a new file only if the picture changed since the
        message's file was uploaded; none (the file kept) if only text changed."""
        if self._picture is not None and self._picture[0] == self._uploaded:
            return {}
        return {"attachments": [drawing.file()]}

    def _now_showing(self, moment: BoardMoment, drawing: BoardDrawing) -> None:
        self.shown = moment
        self._fingerprint = drawing.fingerprint
        # Every write that succeeded left the message with this moment's picture.
        self._uploaded = self._picture[0] if self._picture is not None else None
        self.last_write = time.monotonic()

    async def _draw(self, moment: BoardMoment) -> BoardDrawing:
        key = board.picture_key(moment)
        if self._picture is None or self._picture[0] != key:
            png = await asyncio.to_thread(
                board.render_picture, moment, self.say, raw_names(self.names)
            )
            self._picture = (key, png)
        return board.draw(moment, self._picture[1], self.lang, self.names, notes=self.notes)
