"""A game's end on a server: the campaign closed (R10), the full reveal with "Play again"
(and, under a practice game, its page to share), and the replay GIF if the server wants
it (`game.end.GameEnding`)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_ui.campaign.items import PlayAgainButton, SharePageButton
from bot.discord_ui.campaign.recap import recap_embed
from bot.discord_ui.limits import FIELD_VALUE, fit
from bot.discord_ui.ratings.words import reveal_lines
from bot.discord_ui.safe_text import SeatNames
from bot.discord_ui.seats.credit import credit_line
from bot.discord_ui.server import ServerDesk
from bot.rating.records import GameRating
from bot.render.describe import gif_description
from bot.render.pool import drawings
from bot.render.replay_gif import game_gif
from bot.table.credit import SeatChange
from bot.table.game_pages import NotShared
from bot.table.seats import Seat
from bot.table.table import Table
from bot.texts import t
from bot.texts.ai_talk import seat_names

log = logging.getLogger(__name__)


@dataclass(slots=True)
class FinishedGame:
    """The seats of a game that just ended, kept until Play again has used them."""

    guild_id: int
    seats: list[Seat]


class CampaignEnding:
    """What every game does at its end on its server; the seats kept for Play again."""

    def __init__(self, desk: ServerDesk) -> None:
        self.desk = desk
        self.finished: dict[int, FinishedGame] = {}
        # Each ending game's seat changes, read as it closes, told once in its reveal.
        self.changes: dict[int, list[SeatChange]] = {}
        # And how it was rated (stored with its end), told in its reveal too.
        self.ratings: dict[int, GameRating] = {}
        # Each ending game's page on the web, found as it closes, linked from its reveal.
        self.links: dict[int, str] = {}
        # Practice games ending where pages are on: their reveal offers to share the page.
        self.shareable: set[int] = set()

    async def close(self, table: Table) -> str | None:
        """R10 for this server when a game ends: stored before anything is posted.

        Closing a game twice (a restart before its reveal was posted) unlocks
        nothing more; it returns the epilogue the game unlocked, if any. A practice
        game closes nothing: it is no part of the server's campaign.
        """
        service = self.desk.service
        meta = service.meta.get(table.game_id)
        if meta is None:
            return None
        if service.practice(table.game_id) is not None:
            if await self._pages_on(meta.guild_id):
                self.shareable.add(table.game_id)
            return None
        self.finished[table.game_id] = FinishedGame(meta.guild_id, list(table.seats))
        self.changes[table.game_id] = await self._seat_changes(table.game_id)
        await self._rating(table.game_id)
        link = await self._page_link(meta.guild_id, table.game_id)
        if link is not None:
            self.links[table.game_id] = link
        service.plans.pop(table.game_id, None)  # a game keeps its lobby's id
        return await self.desk.book.close_game(meta.guild_id, table.game_id, table.state)

    def message(
        self, table: Table, code: str | None, lang: str
    ) -> tuple[discord.Embed, discord.ui.View]:
        """The full reveal, the seed and "Play again"."""
        presenter = self.desk.service.presenters.get(table.game_id)
        names = (
            presenter.names
            if presenter is not None
            else SeatNames(seat_names(lang, [(s.name, s.ai_kind) for s in table.seats]))
        )
        practice = self.desk.service.practice(table.game_id) is not None
        embed = recap_embed(table, code, lang, names, practice)
        credit = self._credit(table, lang, names)
        if credit:
            embed.add_field(
                name=t(lang, "credit.title"), value=fit(credit, FIELD_VALUE), inline=False
            )
        rating = self.ratings.pop(table.game_id, None)
        if rating is not None:
            people = {s.user_id: names[i] for i, s in enumerate(table.seats) if s.user_id}
            embed.add_field(
                name=t(lang, "rating.reveal.title"),
                value=fit(reveal_lines(lang, rating, people), FIELD_VALUE),
                inline=False,
            )
        view = discord.ui.View(timeout=None)
        view.add_item(PlayAgainButton(table.game_id, t(lang, "recap.play_again")))
        if table.game_id in self.shareable:
            self.shareable.discard(table.game_id)
            view.add_item(SharePageButton(table.game_id, t(lang, "share.button")))
        return embed, view

    async def share_page(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Share a practice game's page, at its player's click, and give them the link."""
        service = self.desk.service
        if self.desk.pages is None or interaction.guild_id is None:
            await service.tell(interaction, NotShared.NO_PAGES.value)
            return
        try:
            shared = await self.desk.pages.share(interaction.guild_id, game_id, interaction.user.id)
        except Exception:
            log.exception("game %s: its page could not be shared", game_id)
            await service.tell(interaction, "share.error.unreadable")
            return
        if isinstance(shared, NotShared):
            await service.tell(interaction, shared.value)
            return
        log.info("game %s: its practice page shared by its player", game_id)
        await service.tell(interaction, "share.done", url=shared)

    async def _rating(self, game_id: int) -> None:
        """How the game's end was rated, if its server rates games; none (logged) if it
        cannot be read: the reveal goes out without it rather than not at all."""
        if self.desk.ratings is None:
            return
        try:
            rating = await self.desk.ratings.game_rating(game_id)
        except Exception:
            log.exception("game %s: its rating could not be read", game_id)
            return
        if rating is not None:
            self.ratings[game_id] = rating

    def page_line(self, table: Table, lang: str) -> str | None:
        link = self.links.pop(table.game_id, None)
        return None if link is None else t(lang, "web.link", url=link)

    async def _pages_on(self, guild_id: int) -> bool:
        """Whether a game of the server may have a page; no (logged) if the server's
        choice cannot be read."""
        if self.desk.pages is None:
            return False
        try:
            return await self.desk.pages.can_link(guild_id)
        except Exception:
            log.exception("server %s: its pages setting could not be read", guild_id)
            return False

    async def _page_link(self, guild_id: int, game_id: int) -> str | None:
        """The game's page, if the operators and the server want pages; none (logged)
        if the server's choice cannot be read: the reveal goes out without it."""
        if self.desk.pages is None:
            return None
        try:
            return await self.desk.pages.link(guild_id, game_id)
        except Exception:
            log.exception("game %s: no link to its page, the setting could not be read", game_id)
            return None

    async def _seat_changes(self, game_id: int) -> list[SeatChange]:
        """The game's seat changes as kept; none (logged) if they cannot be read: the
        reveal goes out without the credit rather than not at all."""
        stored_games = self.desk.service.hub.stored_games
        if stored_games is None:
            return []
        try:
            return await stored_games.actions.seat_changes(game_id)
        except Exception:
            log.exception("game %s: its seat changes could not be read", game_id)
            return []

    def _credit(self, table: Table, lang: str, names: list[str]) -> str:
        """A line per seat that changed hands: who played it when, who gets its score."""
        changes = self.changes.pop(table.game_id, [])
        scores = (table.state.result or {}).get("scores", [0] * len(table.seats))
        lines = []
        for seat in range(len(table.seats)):
            mine = [c for c in changes if c.seat == seat]
            if mine:
                lines.append(credit_line(lang, names[seat], mine, scores[seat]))
        return "\n".join(lines)

    async def replay(self, table: Table, lang: str) -> tuple[bytes, str] | None:
        """The game's GIF from its stored log, if the server wants it (`replay_gif`), with
        its description for screen readers."""
        service = self.desk.service
        meta = service.meta.get(table.game_id)
        stored_games = service.hub.stored_games
        if meta is None or stored_games is None or table.seed is None:
            return None
        try:
            config = await self.desk.book.config(meta.guild_id)
            if not config.replay_gif:
                return None
            record = await stored_games.replayable(table.game_id)
        except Exception:
            log.exception("game %s: no replay GIF, its log could not be read", table.game_id)
            return None
        names = seat_names(lang, [(seat.name, seat.ai_kind) for seat in table.seats])
        gif = await game_gif(record, lang, names)
        if gif is None:
            return None
        # The description replays the game too: in the drawing pool, like the GIF.
        return gif, await drawings.run(gif_description, record, lang, names)
