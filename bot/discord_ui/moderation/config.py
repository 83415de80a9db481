"""`/lockdown config show|set|variant`: a server's settings, for its moderators.

Manage Server is checked on every call, whatever the server's command overrides
say. The rules of settings live in `bot.table.server_settings`; this module only
asks and tells.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import discord

from bot.discord_ui.limits import FIELD_VALUE, fit
from bot.discord_ui.server import ServerDesk
from bot.discord_ui.service import server_locale
from bot.table.campaign import never_together
from bot.table.server_settings import SETTING_KEYS, ServerConfig, SettingError, parse_setting
from bot.texts import catalog, t
from bot.texts.catalog import Translate, and_list, or_list
from lockdown_core import load_variants
from lockdown_core.ai import PERSONAS

VARIANT_STATES = ("unlock", "lock", "campaign")


class ConfigCommands:
    """`/lockdown config show|set|variant`, for those with Manage Server."""

    def __init__(self, desk: ServerDesk) -> None:
        self.desk = desk
        self.book = desk.book
        self.service = desk.service

    async def show_config(self, interaction: discord.Interaction[Any]) -> None:
        guild = await self.desk.moderator_server(interaction)
        if guild is None:
            return
        guild_id = guild.id
        config = await self.desk.config(interaction, guild_id)
        lang = config.language  # moderator menus read the server's language

        def say(key: str, **params: object) -> str:
            return t(lang, key, **params)

        embed = config_embed(config, lang)
        history = await self.book.history(guild_id)
        if history:
            embed.add_field(
                name=say("config.history_title"),
                value=fit(
                    "\n".join(
                        say(
                            "config.history_line",
                            user=f"<@{c.user_id}>",
                            setting=setting_label(say, c.key),
                            old=_shown(c.key, c.old, lang),
                            new=_shown(c.key, c.new, lang),
                            when=f"<t:{int(c.at.timestamp())}:R>",
                        )
                        for c in history
                    ),
                    FIELD_VALUE,
                ),
                inline=False,
            )
        await self.desk.reply(interaction, "", embed)

    async def set_config(self, interaction: discord.Interaction[Any], key: str, value: str) -> None:
        guild = await self.desk.moderator_server(interaction)
        if guild is None:
            return
        try:
            config = await self.book.change(
                guild.id,
                interaction.user.id,
                key,
                parse_setting(key, value),
                server_locale(interaction),
            )
        except SettingError as exc:
            params = dict(exc.params)
            if exc.key == "error.setting_unknown":
                params["keys"] = setting_labels(self.desk.service.lang(interaction))
            await self.service.tell(interaction, exc.key, **params)
            return
        await self.desk.tell_unreadable(interaction, guild.id, config)
        lang = config.language

        def say(key: str, **params: object) -> str:
            return t(lang, key, **params)

        changed = say(
            "config.changed",
            setting=setting_label(say, key),
            value=_shown(key, config.stored()[key], lang),
        )
        await self.desk.reply(interaction, changed + "\n" + say("config.saved"))

    async def set_variant(
        self, interaction: discord.Interaction[Any], variant: str, state: str
    ) -> None:
        guild = await self.desk.moderator_server(interaction)
        if guild is None:
            return
        if state not in VARIANT_STATES:
            say = self.desk.say(interaction)
            states = or_list(
                self.desk.service.lang(interaction),
                [say(f"config.state.{s}") for s in VARIANT_STATES],
            )
            await self.service.tell(interaction, "error.variant_state", states=states)
            return
        try:
            await self.book.set_variant(guild.id, interaction.user.id, variant, state)
        except SettingError as exc:
            await self.service.tell(interaction, exc.key, **exc.params)
            return
        config = await self.desk.config(interaction, guild.id)
        lang = config.language
        await self.desk.reply(
            interaction, t(lang, f"config.variant_{state}", name=t(lang, f"variant.{variant}.name"))
        )


def setting_label(say: Translate, key: str) -> str:
    """A setting as `/lockdown config set` shows it in its menu; the key itself for a
    setting stored by an older version that the menu no longer has."""
    label = f"setting.{key}"
    return say(label) if catalog().has(label) else key


def setting_labels(lang: str) -> str:
    """Every setting's name, as `lang` writes a list."""
    return and_list(lang, [setting_label(partial(t, lang), key) for key in SETTING_KEYS])


# The settings that hold Discord ids, shown as Discord shows them (#games, @Hosts): a
# moderator reads a name, not a number. Nobody is pinged: the bot mentions nobody.
_MENTIONS = {"channels": "<#{}>", "host_role": "<@&{}>", "players_role": "<@&{}>"}


def _shown(key: str, value: object, lang: str) -> str:
    """A stored setting's value in a moderator's reply: a list of them as `lang` lists,
    a channel or a role as its mention."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return t(lang, "config.on" if value else "config.off")
    mention = _MENTIONS.get(key, "{}")
    if isinstance(value, list):
        return and_list(lang, [mention.format(v) for v in value]) or "-"
    return mention.format(value)


def persona_name(say: Translate, persona: str) -> str:
    """A persona's name, with the word a moderator types to choose it."""
    return say("config.persona", name=say(f"ai_personas.{persona}.name"), word=persona)


def _never_together(config: ServerConfig, lang: str) -> list[str]:
    """Where hosts may combine variants, the pairs among those offered that they never may
    (R11.4), so that a moderator knows before a host is refused."""
    offered = load_variants() if config.offered_variants is None else config.offered_variants
    pairs = never_together(offered) if config.combine_variants else []
    if not pairs:
        return []
    names = [" + ".join(t(lang, f"variant.{v}.name") for v in pair) for pair in pairs]
    return [t(lang, "config.combine_never", pairs=and_list(lang, names))]


def config_embed(config: ServerConfig, lang: str) -> discord.Embed:
    """The server's settings, each list in it as `lang` writes a list."""
    say = partial(t, lang)
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
        say("config.ai_level", level=say(f"ai.level.{config.ai_level}")),
        say(
            "config.ai_personas",
            personas=and_list(lang, [persona_name(say, p) for p in config.ai_personas or PERSONAS]),
        ),
        say("config.host", who=f"<@&{config.host_role_id}>")
        if config.host_role_id is not None
        else say("config.host_everyone"),
        say("config.channels", channels=and_list(lang, [f"<#{c}>" for c in config.channel_ids]))
        if config.channel_ids
        else say("config.channels_any"),
        say(
            "config.designations_open" if config.open_designations else "config.designations_secret"
        ),
        say(
            "config.variants_offered",
            variants=and_list(lang, [say(f"variant.{v}.name") for v in config.offered_variants]),
        )
        if config.offered_variants is not None
        else say("config.variants_all"),
        say("config.combine", state=on if config.combine_variants else off),
        *_never_together(config, lang),
        say("config.conditions", state=on if config.show_conditions else off),
        say("config.replay_gif", state=on if config.replay_gif else off),
        say("config.dm_reminders", mode=say(f"config.dm_reminders.{config.dm_reminders}")),
        say(
            "config.lobbies",
            role="-" if config.players_role_id is None else f"<@&{config.players_role_id}>",
            full=on if config.start_when_full else off,
            minutes=config.lobby_timeout,
            per_person=config.lobbies_per_person,
            slow_min=config.slow_min_hours,
            slow_max=config.slow_max_hours,
        ),
        say("config.takeover_approval", state=on if config.takeover_approval else off),
        say("config.web_pages", state=on if config.web_pages else off),
        say("config.keys", keys=setting_labels(lang)),
    ]
    embed.description = "\n".join(lines)
    return embed
