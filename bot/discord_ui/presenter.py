"""The Presenter for Discord: one board message per game, a log, private nudges.

`show` runs under the game's lock, so it only queues work; a flush task a
moment later turns a burst of events into one board edit and one log message.
Nothing here ever waits on a player: a closed DM is noted, announced once in
neutral words, and the game goes on.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.discord_ui import views
from bot.render.board_image import BoardLabels, render_board
from bot.render.board_text import board_lines
from bot.table.presenter import Update
from bot.table.table import Table
from bot.texts import t
from bot.texts.narrate import describe

if TYPE_CHECKING:
    from lockdown_core import Event

log = logging.getLogger(__name__)

# Progress that the board itself shows; repeating it in the log would only add noise.
BOARD_ONLY = frozenset({"designation_count", "destination_locked", "player_done"})
DM_CLOSED = 50007
MAX_MESSAGE = 1900
INBOX_SIZE = 15


class DiscordPresenter:
    def __init__(
        self,
        client: discord.Client,
        game_id: int,
        channel_id: int,
        lang: str,
        names: list[str],
        user_ids: list[int | None],
        board_message_id: int | None = None,
        batch_delay: float = 0.4,
        on_board_message: Callable[[int, int], Awaitable[None]] | None = None,
        on_finished: Callable[[Table], Awaitable[None]] | None = None,
    ) -> None:
        self.client = client
        self.game_id = game_id
        self.channel_id = channel_id
        self.lang = lang
        self.names = names
        self.user_ids = user_ids
        self.board_message_id = board_message_id
        self.batch_delay = batch_delay
        self.on_board_message = on_board_message
        self.on_finished = on_finished
        self.inbox: dict[int, list[str]] = {i: [] for i in range(len(names))}
        self.dm_closed: set[int] = set()
        self._dm_notice_sent = False
        self._nudged: dict[int, str] = {}
        self._lines: list[str] = []
        self._table: Table | None = None
        self._flush: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def say(self, key: str, **params: object) -> str:
        return t(self.lang, key, **params)

    async def show(self, table: Table, update: Update) -> None:
        self._table = table
        for event in update.public:
            if event.kind not in BOARD_ONLY:
                self._lines.append(describe(event, self.lang, self.names))
        for notice in update.notices:
            params = dict(notice.params)
            if "seat" in params:
                params["name"] = self.names[int(str(params["seat"]))]
            self._lines.append(self.say(notice.key, **params))
        for seat, events in update.private.items():
            self._remember(seat, events)
        for seat in update.prompts:
            if self._nudged.get(seat) != table.token:
                self._nudged[seat] = table.token
                self._spawn(self._nudge(seat))
        if self._flush is None or self._flush.done():
            self._flush = asyncio.get_running_loop().create_task(self._flush_soon())

    def recall(self, private: dict[int, list[Event]]) -> None:
        """A resumed game: each seat's recent private lines, as they were before the restart.

        `private` is every seat's private events since the deal; only the last
        INBOX_SIZE are described, which is what remembering them all would keep.
        """
        for seat, events in private.items():
            self._remember(seat, events[-INBOX_SIZE:])

    def _remember(self, seat: int, events: list[Event]) -> None:
        box = self.inbox.setdefault(seat, [])
        box.extend(describe(e, self.lang, self.names, seat=seat) for e in events)
        del box[:-INBOX_SIZE]

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _channel(self) -> discord.abc.Messageable | None:
        channel = self.client.get_channel(self.channel_id)
        if channel is None:
            try:
                fetched = await self.client.fetch_channel(self.channel_id)
            except discord.HTTPException:
                log.warning("game %s: channel %s is gone", self.game_id, self.channel_id)
                return None
            channel = fetched
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _flush_soon(self) -> None:
        await asyncio.sleep(self.batch_delay)
        try:
            await self.flush()
        except (discord.HTTPException, aiohttp.ClientError, OSError):
            # The game goes on; the next update edits the board again.
            log.warning("game %s: could not update the thread", self.game_id, exc_info=True)

    async def flush(self) -> None:
        """Post the queued log lines and bring the board message up to date."""
        table = self._table
        channel = await self._channel()
        if table is None or channel is None:
            return
        lines, self._lines = self._lines, []
        for chunk in _chunks(lines):
            await channel.send(chunk)
        await self.refresh_board(channel, table)
        if table.finished and self.on_finished is not None:
            await self.on_finished(table)

    async def refresh_board(
        self, channel: discord.abc.Messageable, table: Table, repost: bool = False
    ) -> None:
        embed, file, view = await self.board(table)
        if self.board_message_id is not None and not repost:
            try:
                message = channel.get_partial_message(self.board_message_id)  # type: ignore[attr-defined]
                await message.edit(embed=embed, attachments=[file], view=view)
                return
            except discord.NotFound:
                log.info("game %s: board message was deleted; posting a new one", self.game_id)
        sent = await channel.send(embed=embed, file=file, view=view)
        self.board_message_id = sent.id
        if self.on_board_message is not None:
            await self.on_board_message(self.game_id, sent.id)

    async def board(self, table: Table) -> tuple[discord.Embed, discord.File, discord.ui.View]:
        data = table.view_for(None)
        rules = table.state.rules
        status = self.say(
            "board.picture_status", step=self.say(f"step.{data['step']}.name"), deck=data["deck"]
        )
        labels = BoardLabels(
            title=self.say("board.title", turn=data["turn"]),
            locations={loc: self.say(f"location.{loc}") for loc in range(1, 7)},
            kind_letters={k.key: self.say(f"kind.{k.key}.letter") for k in rules.kinds},
            closed=self.say("board.closed"),
            cold_storage=self.say("board.cold_storage_title"),
            status=status,
            names=self.names,
            badge=self.say("board.badge"),
            martyr=self.say("board.martyr"),
        )
        png = await asyncio.to_thread(
            render_board,
            data,
            labels,
            {loc.id: loc.character_spots for loc in rules.locations},
            {loc.id: loc.monster_spots for loc in rules.locations},
            list(rules.cold_storage_rows),
        )
        embed = discord.Embed(
            title=labels.title, description="\n".join(board_lines(data, self.names, self.say))
        )
        embed.add_field(
            name=self.say("board.step"), value=self._step_text(table, data), inline=False
        )
        if data["variants"]:
            embed.add_field(
                name=self.say("board.variants"),
                value=", ".join(self.say(f"variant.{v}.name") for v in data["variants"]),
                inline=False,
            )
        if self.dm_closed:
            embed.add_field(name="\u200b", value=self.say("notice.dm_closed"), inline=False)
        if table.finished and table.seed is not None:
            embed.set_footer(
                text=self.say("board.seed_revealed", seed=table.seed, hash=table.state.seed_hash)
            )
        else:
            embed.set_footer(text=self.say("board.seed_hash", hash=table.state.seed_hash))
        embed.set_image(url="attachment://board.png")
        file = discord.File(io.BytesIO(png), filename="board.png")
        return embed, file, views.board_view(table, self.say, self.names)

    def _step_text(self, table: Table, data: dict[str, object]) -> str:
        step = str(data["step"])
        parts = [self.say(f"step.{step}.name")]
        waiting = [self.names[p] for p in table.view_for(None)["waiting_for"]]
        vote = table.state.vote
        if step == "designation" and vote is not None:
            parts.append(
                self.say(
                    "board.designated", done=len(vote.designations), total=len(vote.candidates)
                )
            )
        elif waiting:
            parts.append(self.say("board.waiting_for", names=", ".join(waiting)))
        if table.deadline is not None and not table.finished:
            parts.append(self.say("board.deadline", when=f"<t:{int(table.deadline)}:R>"))
        return "\n".join(parts)

    async def _nudge(self, seat: int) -> None:
        """An optional DM; a refusal is remembered and never blocks the game."""
        user_id = self.user_ids[seat]
        if user_id is None or seat in self.dm_closed:
            return
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            await user.send(self.say("dm.your_turn", channel=f"<#{self.channel_id}>"))
        except discord.Forbidden as exc:
            log.info("game %s: seat %s does not take DMs (code %s)", self.game_id, seat, exc.code)
            self.dm_closed.add(seat)
            if not self._dm_notice_sent:
                self._dm_notice_sent = True
                self._lines.append(self.say("notice.dm_closed"))
        except discord.HTTPException:
            log.warning("game %s: DM to seat %s failed", self.game_id, seat, exc_info=True)

    async def close(self) -> None:
        """Stop pending edits and nudges (shutdown or abort), and wait until they have."""
        tasks = [*self._tasks, *([self._flush] if self._flush is not None else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _chunks(lines: list[str]) -> list[str]:
    chunks: list[str] = []
    current = ""
    for line in lines:
        if current and len(current) + len(line) + 1 > MAX_MESSAGE:
            chunks.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line[:MAX_MESSAGE]
    if current:
        chunks.append(current)
    return chunks
