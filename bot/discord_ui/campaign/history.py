"""`/lockdown variants` and `/lockdown epilogues`: the server's campaign so far."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui.limits import EMBED_FIELDS, field_chunks
from bot.discord_ui.server import ServerDesk
from bot.table.campaign import epilogue_order
from bot.texts import t


class CampaignHistory:
    """The server's variants and epilogues as its campaign has unlocked them."""

    def __init__(self, desk: ServerDesk) -> None:
        self.desk = desk
        self.book = desk.book

    async def list_variants(self, interaction: discord.Interaction[Any]) -> None:
        context = await self.desk.context(interaction)
        if context is None:
            return
        guild, config, lang = context
        lines = []
        for status in await self.book.variants(guild.id):
            state = "variants.unlocked" if status.unlocked else "variants.locked"
            lines.append(
                t(
                    lang,
                    "variants.line",
                    name=t(lang, f"variant.{status.key}.name"),
                    status=t(lang, state),
                    change=t(lang, f"variant.{status.key}.change"),
                )
                + (f" {t(lang, 'variants.by_moderator')}" if status.by_moderator else "")
            )
        note = t(lang, "variants.combine" if config.combine_variants else "variants.one")
        embed = discord.Embed(title=t(lang, "variants.title"), description=note)
        for chunk in field_chunks(lines)[:EMBED_FIELDS]:
            embed.add_field(name="\u200b", value=chunk, inline=False)
        await self.desk.reply(interaction, "", embed)

    async def list_epilogues(self, interaction: discord.Interaction[Any]) -> None:
        context = await self.desk.context(interaction)
        if context is None:
            return
        guild, config, lang = context
        unlocked = set(await self.book.unlocked_epilogues(guild.id))
        lines = []
        for code in epilogue_order():
            if code in unlocked:
                lines.append(
                    t(
                        lang,
                        "epilogues.unlocked",
                        code=code,
                        title=t(lang, f"epilogue.{code}.title"),
                    )
                )
            elif config.show_conditions:
                lines.append(
                    t(
                        lang,
                        "epilogues.locked_condition",
                        code=code,
                        condition=t(lang, f"epilogue.{code}.condition"),
                    )
                )
            else:
                lines.append(t(lang, "epilogues.locked", code=code))
        embed = discord.Embed(
            title=t(lang, "epilogues.title", unlocked=len(unlocked), total=len(epilogue_order()))
        )
        for chunk in field_chunks(lines)[:EMBED_FIELDS]:
            embed.add_field(name="\u200b", value=chunk, inline=False)
        await self.desk.reply(interaction, "", embed)
