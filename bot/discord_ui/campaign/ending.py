"""A game's end on a server: the campaign closed (R10), the full reveal, "Play again"."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui.campaign.items import PlayAgainButton
from bot.discord_ui.server_desk import EMBED_FIELD, FinishedGame, ServerDesk, embed_fields
from bot.table.campaign import variant_of
from bot.table.lobby import Lobby, LobbyError
from bot.table.table import Table
from bot.texts import t
from bot.texts.narrate import describe


class CampaignEnding(ServerDesk):
    """At a game's end: the campaign closed, the reveal posted, "Play again" answered."""

    async def close_game(self, table: Table) -> str | None:
        """R10 for this server when a game ends: stored before anything is posted.

        Closing a game twice (a restart before its reveal was posted) unlocks
        nothing more; it returns the epilogue the game unlocked, if any.
        """
        meta = self.service.meta.get(table.game_id)
        if meta is None:
            return None
        self.finished[table.game_id] = FinishedGame(meta.guild_id, list(table.seats))
        self.plans.pop(table.game_id, None)  # a game keeps its lobby's id
        return await self.book.close_game(meta.guild_id, table.game_id, table.state)

    def end_message(
        self, table: Table, code: str | None, lang: str
    ) -> tuple[discord.Embed, discord.ui.View]:
        """The full reveal, the seed and "Play again"."""
        presenter = self.service.presenters.get(table.game_id)
        names = presenter.names if presenter is not None else [s.name for s in table.seats]
        embed = recap_embed(table, code, lang, names)
        view = discord.ui.View(timeout=None)
        view.add_item(PlayAgainButton(table.game_id, t(lang, "recap.play_again")))
        return embed, view

    async def play_again(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """A new lobby in the same channel, with the finished game's seats in their order."""
        done = self.finished.get(game_id)
        if done is None:
            stored = await self.book.finished_seats(game_id)
            if stored is None:
                await self.service.tell(interaction, "error.game_gone")
                return
            done = FinishedGame(*stored)
        if await self.service.refuse_other_server(interaction, done.guild_id):
            return
        if not any(s.user_id == interaction.user.id for s in done.seats):
            await self.service.tell(interaction, "error.not_seated")
            return
        thread = interaction.channel
        parent = thread.parent if isinstance(thread, discord.Thread) else thread
        if not isinstance(parent, discord.TextChannel):
            await self.service.tell(interaction, "error.use_in_text_channel")
            return
        if await self.service.refuse_missing_permissions(interaction, parent):
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            config = await self.lobby_config(interaction)
        except LobbyError as exc:
            await self.service.tell(interaction, exc.key, **exc.params)
            return
        host = interaction.user

        def seat_again(lobby: Lobby) -> None:
            for seat in done.seats:
                if seat.user_id is not None:
                    name = host.display_name if seat.user_id == host.id else seat.name
                    lobby.join(seat.user_id, name)
                elif config.allow_ai and seat.ai_kind is not None:
                    lobby.add_ai(host.id, seat.ai_kind)

        await self.service.open_lobby_thread(
            interaction, parent, config.language, config, seat=seat_again
        )


def recap_embed(table: Table, code: str | None, lang: str, names: list[str]) -> discord.Embed:
    """The full reveal: every vote's designations, the epilogue, the seed and how to check it.

    Hands, the box, scores and winners are in the game-over line just above.
    """

    def say(key: str, **params: object) -> str:
        return t(lang, key, **params)

    embed = discord.Embed(title=say("recap.title"))
    result = table.state.result or {}
    winners = result.get("winners", [])
    embed.description = say("recap.winners", names=", ".join(names[w] for w in winners) or "-")
    votes = [
        describe(event, lang, names)
        for event in table.public_log
        if event.kind == "designations_revealed"
    ]
    for chunk in embed_fields([f"{i}. {line}" for i, line in enumerate(votes, start=1)])[:3]:
        embed.add_field(name=say("recap.designations"), value=chunk, inline=False)
    if code is None:
        embed.add_field(
            name=say("recap.epilogue"), value=say("epilogue.all_unlocked"), inline=False
        )
    else:
        story = say(
            "epilogue.unlocked",
            code=code,
            title=say(f"epilogue.{code}.title"),
            story=say(f"epilogue.{code}.story"),
        )
        variant = variant_of(code)
        if variant is not None:
            story += "\n" + say(
                "epilogue.variant_unlocked",
                name=say(f"variant.{variant}.name"),
                change=say(f"variant.{variant}.change"),
            )
        embed.add_field(name=say("recap.epilogue"), value=story[:EMBED_FIELD], inline=False)
    if table.seed is not None:
        embed.add_field(
            name=say("recap.seed"),
            value=say(
                "recap.seed_check", seed=table.seed, hash=table.state.seed_hash, game=table.game_id
            ),
            inline=False,
        )
    return embed
