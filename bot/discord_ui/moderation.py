"""Server moderators and the community's shared history on Discord.

`/lockdown config ...` (Manage Server, checked here on every call whatever
the server's command overrides say), `/lockdown variants`, `/lockdown
epilogues`, `/lockdown stats`, `/lockdown leaderboard`; the lobby's variant
menu; at each game's end the campaign (R10), the full reveal and "Play again".
The rules of settings and campaign live in `bot.table`; this module only asks
and tells.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.campaign_items import CAMPAIGN_ITEMS, PlayAgainButton, VariantSelect
from bot.discord_ui.service import GameService, is_moderator, locale_lang
from bot.discord_ui.slash_text import command_name, command_text, menu_choice
from bot.table.campaign import (
    check_variant_choice,
    epilogue_order,
    game_variants,
    variant_epilogues,
    variant_of,
)
from bot.table.guild_settings import SETTING_KEYS, GuildConfig, SettingError, parse_setting
from bot.table.lobby import Lobby, LobbyError
from bot.table.seats import Seat
from bot.table.server_book import ServerBook
from bot.table.table import Table, TableConfig
from bot.texts import catalog, t
from bot.texts.narrate import describe

log = logging.getLogger(__name__)

Say = Callable[..., str]
VARIANT_STATES = ("unlock", "lock", "campaign")
EMBED_FIELD = 1024


@dataclass(slots=True)
class LobbyPlan:
    """What a lobby was opened with: the server's settings then, and what it offers."""

    config: GuildConfig
    offered: list[str]


@dataclass(slots=True)
class FinishedGame:
    guild_id: int
    seats: list[Seat]


class Moderation:
    def __init__(self, service: GameService, book: ServerBook) -> None:
        self.service = service
        self.book = book
        self.plans: dict[int, LobbyPlan] = {}
        self.finished: dict[int, FinishedGame] = {}

    def _lang(self, interaction: discord.Interaction[Any], config: GuildConfig) -> str:
        return locale_lang(interaction.locale, config.language)

    def _say(self, interaction: discord.Interaction[Any]) -> Say:
        """Texts in the language `service.tell` answers in, for what goes into its answer."""
        lang = self.service.lang(interaction)
        return lambda key, **params: t(lang, key, **params)

    async def _server(
        self, interaction: discord.Interaction[Any]
    ) -> tuple[discord.Guild, GuildConfig, str] | None:
        """For a server-wide listing: the server, its settings and the reader's language.

        Defers (the answer reads the database); None, after saying why, outside a server.
        """
        guild = interaction.guild
        if guild is None:
            await self.service.tell(interaction, "error.use_in_text_channel")
            return None
        await interaction.response.defer(ephemeral=True, thinking=True)
        config = await self.book.config(guild.id)
        return guild, config, self._lang(interaction, config)

    async def _reply(
        self, interaction: discord.Interaction[Any], text: str, embed: discord.Embed | None = None
    ) -> None:
        kwargs: dict[str, Any] = {"ephemeral": True}
        if embed is not None:
            kwargs["embed"] = embed
        if interaction.response.is_done():
            await interaction.followup.send(text or discord.utils.MISSING, **kwargs)
        else:
            await interaction.response.send_message(text or None, **kwargs)

    async def _refuse_non_moderator(self, interaction: discord.Interaction[Any]) -> bool:
        """Manage Server is checked on every call: Discord's default permissions are only a
        hint that a server may override."""
        if interaction.guild is not None and is_moderator(interaction):
            return False
        log.info("user %s refused a moderator command", interaction.user.id)
        await self.service.tell(interaction, "error.not_moderator")
        return True

    # /lockdown config ---------------------------------------------------------

    async def show_config(self, interaction: discord.Interaction[Any]) -> None:
        if await self._refuse_non_moderator(interaction):
            return
        assert interaction.guild is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        guild_id = interaction.guild.id
        config = await self.book.config(guild_id)
        lang = self._lang(interaction, config)

        def say(key: str, **params: object) -> str:
            return t(lang, key, **params)

        embed = config_embed(config, say)
        history = await self.book.history(guild_id)
        if history:
            embed.add_field(
                name=say("config.history_title"),
                value="\n".join(
                    say(
                        "config.history_line",
                        user=f"<@{c.user_id}>",
                        setting=setting_label(say, c.key),
                        old=_shown(c.old, say),
                        new=_shown(c.new, say),
                        when=f"<t:{int(c.at.timestamp())}:R>",
                    )
                    for c in history
                )[:EMBED_FIELD],
                inline=False,
            )
        await self._reply(interaction, "", embed)

    async def set_config(self, interaction: discord.Interaction[Any], key: str, value: str) -> None:
        if await self._refuse_non_moderator(interaction):
            return
        assert interaction.guild is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            config = await self.book.change(
                interaction.guild.id, interaction.user.id, key, parse_setting(key, value)
            )
        except SettingError as exc:
            params = dict(exc.params)
            if exc.key == "error.setting_unknown":
                params["keys"] = setting_labels(self._say(interaction))
            await self.service.tell(interaction, exc.key, **params)
            return
        lang = self._lang(interaction, config)

        def say(key: str, **params: object) -> str:
            return t(lang, key, **params)

        changed = say(
            "config.changed",
            setting=setting_label(say, key),
            value=_shown(config.stored()[key], say),
        )
        await self._reply(interaction, changed + "\n" + say("config.saved"))

    async def set_variant(
        self, interaction: discord.Interaction[Any], variant: str, state: str
    ) -> None:
        if await self._refuse_non_moderator(interaction):
            return
        assert interaction.guild is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        if state not in VARIANT_STATES:
            say = self._say(interaction)
            states = ", ".join(say(f"config.state.{s}") for s in VARIANT_STATES)
            await self.service.tell(interaction, "error.variant_state", states=states)
            return
        try:
            await self.book.set_variant(interaction.guild.id, interaction.user.id, variant, state)
        except SettingError as exc:
            await self.service.tell(interaction, exc.key, **exc.params)
            return
        config = await self.book.config(interaction.guild.id)
        lang = self._lang(interaction, config)
        await self._reply(
            interaction, t(lang, f"config.variant_{state}", name=t(lang, f"variant.{variant}.name"))
        )

    # Shared history --------------------------------------------------------------

    async def list_variants(self, interaction: discord.Interaction[Any]) -> None:
        context = await self._server(interaction)
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
        for chunk in _fields(lines):
            embed.add_field(name="\u200b", value=chunk, inline=False)
        await self._reply(interaction, "", embed)

    async def list_epilogues(self, interaction: discord.Interaction[Any]) -> None:
        context = await self._server(interaction)
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
        for chunk in _fields(lines):
            embed.add_field(name="\u200b", value=chunk, inline=False)
        await self._reply(interaction, "", embed)

    async def user_stats(
        self, interaction: discord.Interaction[Any], user: discord.abc.User | None
    ) -> None:
        context = await self._server(interaction)
        if context is None:
            return
        guild, _config, lang = context
        who = user or interaction.user
        stats = await self.book.user_stats(guild.id, who.id)
        embed = discord.Embed(title=t(lang, "stats.title", name=who.display_name))
        if stats.games == 0:
            embed.description = t(lang, "stats.none")
        else:
            embed.description = t(
                lang,
                "stats.record",
                games=stats.games,
                wins=stats.wins,
                points=stats.total_score,
                devoured=stats.times_devoured,
            )
            survivors = ", ".join(
                f"{t(lang, f'kind.{kind}')} {n}" for kind, n in stats.survivors_by_kind.items()
            )
            favourites = ", ".join(
                f"{t(lang, f'card.{c.card}')} ({c.plays})" for c in stats.favourite_cards
            )
            embed.add_field(name=t(lang, "stats.survivors"), value=survivors or "-", inline=False)
            embed.add_field(name=t(lang, "stats.favourites"), value=favourites or "-", inline=False)
        await self._reply(interaction, "", embed)

    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        context = await self._server(interaction)
        if context is None:
            return
        guild, _config, lang = context
        entries = await self.book.leaderboard(guild.id)
        embed = discord.Embed(title=t(lang, "leaderboard.title"))
        embed.description = "\n".join(
            t(
                lang,
                "leaderboard.line",
                rank=rank,
                name=f"<@{entry.user_id}>",
                wins=entry.wins,
                games=entry.games,
            )
            for rank, entry in enumerate(entries, start=1)
        ) or t(lang, "leaderboard.empty")
        await self._reply(interaction, "", embed)

    # Lobbies ------------------------------------------------------------------------

    async def lobby_config(self, interaction: discord.Interaction[Any]) -> GuildConfig:
        """The server's settings for a new lobby; LobbyError if this member or channel
        may not host."""
        guild = interaction.guild
        assert guild is not None
        config = await self.book.config(guild.id)
        channel_id = interaction.channel_id or 0
        if not config.allows_channel(channel_id):
            raise LobbyError(
                "error.lobby_channel", channels=", ".join(f"<#{c}>" for c in config.channel_ids)
            )
        user = interaction.user
        roles = {r.id for r in user.roles} if isinstance(user, discord.Member) else set()
        if not config.may_host(roles, is_moderator(interaction)):
            raise LobbyError("error.lobby_host_role", role=f"<@&{config.host_role_id}>")
        return config

    async def lobby_opened(self, lobby: Lobby, config: GuildConfig) -> None:
        lobby.allow_ai = config.allow_ai
        self.plans[lobby.lobby_id] = LobbyPlan(
            config, await self.book.offered(lobby.guild_id, config)
        )

    def decorate_lobby(self, lobby: Lobby, view: discord.ui.View, say: Say) -> None:
        """The host's variant menu, when this server offers any."""
        plan = self.plans.get(lobby.lobby_id)
        if plan is None or not plan.offered:
            return
        view.add_item(
            VariantSelect(
                lobby.lobby_id, plan.offered, lobby.variants, plan.config.combine_variants, say
            )
        )

    def table_config(self, lobby: Lobby, base: TableConfig) -> TableConfig:
        """The game's timers from the server's settings at lobby time."""
        plan = self.plans.get(lobby.lobby_id)
        if plan is None:
            return base
        return dataclasses.replace(base, timers=plan.config.timers)

    def game_variants(self, lobby: Lobby) -> Callable[[Lobby], list[str]] | None:
        """How the lobby's chosen variants become the game's under the server's settings
        at lobby time; applied by the hub at the start, to the choice stored last."""
        plan = self.plans.get(lobby.lobby_id)
        if plan is None:
            return None
        config = plan.config
        return lambda started: game_variants(started.variants, config)

    async def choose_variants(
        self, interaction: discord.Interaction[Any], lobby_id: int, chosen: list[str]
    ) -> None:
        lobby = self.service.hub.lobbies.get(lobby_id)
        plan = self.plans.get(lobby_id)
        if lobby is None or plan is None:
            await self.service.tell(interaction, "error.lobby_gone")
            return
        try:
            if interaction.user.id != lobby.host_id and not is_moderator(interaction):
                raise LobbyError("error.lobby_not_host_variants")
            check_variant_choice(chosen, plan.offered, plan.config.combine_variants)
        except LobbyError as exc:
            params = dict(exc.params)
            if "name" in params:
                lang = self._lang(interaction, plan.config)
                params["name"] = t(lang, f"variant.{params['name']}.name")
            await self.service.tell(interaction, exc.key, **params)
            return
        try:
            await self.service.hub.change_lobby(lobby, lambda target: _choose(target, chosen))
        except LobbyError as exc:
            await self.service.tell(interaction, exc.key, **exc.params)
            return
        embed, view = self.service.lobby_message(lobby)
        await interaction.response.edit_message(embed=embed, view=view)

    # End of game --------------------------------------------------------------------

    async def game_over(self, table: Table) -> None:
        """R10 for this server, then the full reveal, the seed and "Play again"."""
        meta = self.service.meta.get(table.game_id)
        presenter = self.service.presenters.get(table.game_id)
        if meta is None or presenter is None or table.game_id in self.finished:
            return
        self.finished[table.game_id] = FinishedGame(meta.guild_id, list(table.seats))
        self.plans.pop(table.game_id, None)  # a game keeps its lobby's id
        try:
            code = await self.book.close_game(meta.guild_id, table.game_id, table.state)
        except Exception:
            # The reveal and "Play again" matter more than one lost unlock; the log keeps it.
            log.exception("game %s: the campaign could not be updated", table.game_id)
            code = None
        embed = recap_embed(table, code, presenter.lang, presenter.names)
        view = discord.ui.View(timeout=None)
        view.add_item(PlayAgainButton(table.game_id, presenter.say("recap.play_again")))
        channel = self.service.client.get_channel(presenter.channel_id)
        if isinstance(channel, discord.abc.Messageable):
            await channel.send(embed=embed, view=view)

    async def play_again(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """A new lobby in the same channel, with the finished game's seats in their order."""
        done = self.finished.get(game_id)
        if done is None:
            stored = await self.book.finished_seats(game_id)
            if stored is None:
                await self.service.tell(interaction, "error.game_gone")
                return
            done = FinishedGame(*stored)
        if not any(s.user_id == interaction.user.id for s in done.seats):
            await self.service.tell(interaction, "error.not_seated")
            return
        thread = interaction.channel
        parent = thread.parent if isinstance(thread, discord.Thread) else thread
        if not isinstance(parent, discord.TextChannel):
            await self.service.tell(interaction, "error.use_in_text_channel")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            config = await self.lobby_config(interaction)
        except LobbyError as exc:
            await self.service.tell(interaction, exc.key, **exc.params)
            return
        lang = config.language
        host = interaction.user
        new_thread = await parent.create_thread(
            name=t(lang, "lobby.thread_name", host=host.display_name)[:90],
            type=discord.ChannelType.public_thread,
            auto_archive_duration=1440,
        )

        def seat_again(lobby: Lobby) -> None:
            for seat in done.seats:
                if seat.user_id is not None:
                    name = host.display_name if seat.user_id == host.id else seat.name
                    lobby.join(seat.user_id, name)
                elif config.allow_ai and seat.ai_kind is not None:
                    lobby.add_ai(host.id, seat.ai_kind)

        lobby = await self.service.hub.open_lobby(
            done.guild_id,
            new_thread.id,
            host.id,
            host.display_name,
            language=lang,
            seat=seat_again,
        )
        self.service.lobby_langs[lobby.lobby_id] = lang
        await self.lobby_opened(lobby, config)
        embed, view = self.service.lobby_message(lobby)
        await new_thread.send(embed=embed, view=view)
        await interaction.followup.send(
            t(self.service.lang(interaction, lang), "lobby.opened", thread=new_thread.mention),
            ephemeral=True,
        )


def _choose(lobby: Lobby, chosen: list[str]) -> None:
    lobby.variants = list(chosen)


def setting_label(say: Say, key: str) -> str:
    """A setting as `/lockdown config set` shows it in its menu; the key itself for a
    setting stored by an older version that the menu no longer has."""
    label = f"setting.{key}"
    return say(label) if catalog().has(label) else key


def setting_labels(say: Say) -> str:
    return ", ".join(setting_label(say, key) for key in SETTING_KEYS)


def _shown(value: object, say: Say) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return say("config.on" if value else "config.off")
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "-"
    return str(value)


def _fields(lines: list[str]) -> list[str]:
    """Lines packed into embed fields of at most 1024 characters."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = line[:EMBED_FIELD]
        if current and len(current) + len(line) + 1 > EMBED_FIELD:
            chunks.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks[:20]


def config_embed(config: GuildConfig, say: Say) -> discord.Embed:
    on, off = say("config.on"), say("config.off")
    embed = discord.Embed(title=say("config.title"))
    timers = config.timers
    lines = [
        say("config.language", language=config.language),
        say(
            "config.timers",
            discussion=timers.discussion,
            designation=timers.designation,
            destination=timers.destination,
            other=timers.other,
        ),
        say("config.ai", state=on if config.allow_ai else off),
        say("config.host", who=f"<@&{config.host_role_id}>")
        if config.host_role_id is not None
        else say("config.host_everyone"),
        say("config.channels", channels=", ".join(f"<#{c}>" for c in config.channel_ids))
        if config.channel_ids
        else say("config.channels_any"),
        say(
            "config.designations_open" if config.open_designations else "config.designations_secret"
        ),
        say(
            "config.variants_offered",
            variants=", ".join(say(f"variant.{v}.name") for v in config.offered_variants),
        )
        if config.offered_variants is not None
        else say("config.variants_all"),
        say("config.combine", state=on if config.combine_variants else off),
        say("config.conditions", state=on if config.show_conditions else off),
        say("config.keys", keys=setting_labels(say)),
    ]
    embed.description = "\n".join(lines)
    return embed


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
    for chunk in _fields([f"{i}. {line}" for i, line in enumerate(votes, start=1)])[:3]:
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


def attach(bot: commands.Bot, moderation: Moderation) -> None:
    """Add the moderation and history subcommands to `/lockdown` and register the
    campaign's persistent components (they find their handler as `client.moderation`)."""
    group = bot.tree.get_command("lockdown")
    assert isinstance(group, app_commands.Group)
    bot.add_dynamic_items(*CAMPAIGN_ITEMS)

    # Discord takes default permissions for a whole top-level command only, so a
    # subcommand group cannot be hidden from members: the handlers check Manage Server.
    config = app_commands.Group(
        name=command_name("config"),
        description=command_text("command.config.description"),
        parent=group,
        guild_only=True,
    )

    @config.command(
        name=command_name("config.show"),
        description=command_text("command.config.show.description"),
    )
    async def show(interaction: discord.Interaction[Any]) -> None:
        await moderation.show_config(interaction)

    @config.command(
        name=command_name("config.set"), description=command_text("command.config.set.description")
    )
    @app_commands.rename(
        setting=command_text("command.config.option.setting.name"),
        value=command_text("command.config.option.value.name"),
    )
    @app_commands.describe(
        setting=command_text("command.config.option.setting"),
        value=command_text("command.config.option.value"),
    )
    @app_commands.choices(setting=[menu_choice(f"setting.{key}", key) for key in SETTING_KEYS])
    async def set_(interaction: discord.Interaction[Any], setting: str, value: str) -> None:
        await moderation.set_config(interaction, setting, value)

    @config.command(
        name=command_name("config.variant"),
        description=command_text("command.config.variant.description"),
    )
    @app_commands.rename(
        variant=command_text("command.config.option.variant.name"),
        state=command_text("command.config.option.state.name"),
    )
    @app_commands.describe(
        variant=command_text("command.config.option.variant"),
        state=command_text("command.config.option.state"),
    )
    @app_commands.choices(
        variant=[menu_choice(f"variant.{key}.name", key) for key in variant_epilogues()],
        state=[menu_choice(f"config.state.{state}", state) for state in VARIANT_STATES],
    )
    async def variant(interaction: discord.Interaction[Any], variant: str, state: str) -> None:
        await moderation.set_variant(interaction, variant, state)

    @app_commands.command(
        name=command_name("variants"), description=command_text("command.variants.description")
    )
    @app_commands.guild_only()
    async def variants(interaction: discord.Interaction[Any]) -> None:
        await moderation.list_variants(interaction)

    @app_commands.command(
        name=command_name("epilogues"), description=command_text("command.epilogues.description")
    )
    @app_commands.guild_only()
    async def epilogues(interaction: discord.Interaction[Any]) -> None:
        await moderation.list_epilogues(interaction)

    @app_commands.command(
        name=command_name("stats"), description=command_text("command.stats.description")
    )
    @app_commands.rename(user=command_text("command.stats.option.user.name"))
    @app_commands.describe(user=command_text("command.stats.option.user"))
    @app_commands.guild_only()
    async def stats(
        interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        await moderation.user_stats(interaction, user)

    @app_commands.command(
        name=command_name("leaderboard"),
        description=command_text("command.leaderboard.description"),
    )
    @app_commands.guild_only()
    async def leaderboard(interaction: discord.Interaction[Any]) -> None:
        await moderation.leaderboard(interaction)

    group.add_command(variants)
    group.add_command(epilogues)
    group.add_command(stats)
    group.add_command(leaderboard)
