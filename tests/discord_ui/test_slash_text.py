"""The `/lockdown` words as Discord receives them when the commands are synced.

The whole tree (every room's subcommands of `/lockdown`) is turned
into the payload discord.py sends, with `CatalogTranslator`: a French client must
see every moderation command, subcommand, option and menu entry in French, an
English client in English; and the answers name a setting as its menu did.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.moderation.config import VARIANT_STATES, ConfigCommands, config_embed
from bot.discord_ui.rooms import Rooms
from bot.discord_ui.server import ServerDesk
from bot.discord_ui.slash import CatalogTranslator
from bot.table.campaign import variant_epilogues
from bot.table.server_settings import SETTING_KEYS, ServerConfig, SettingError
from bot.texts import catalog, t
from bot.texts.catalog import FALLBACK, LANGUAGES, and_list, or_list
from bot.texts.lang import locale_language

RATINGS_SUBCOMMANDS = ("on", "off", "season", "variant", "reset", "exclude", "recompute")
# Where each moderation word sits in the payload, and its catalog key.
COMMANDS = {
    ("config",): "command.config.name",
    ("config", "show"): "command.config.show.name",
    ("config", "set"): "command.config.set.name",
    ("config", "variant"): "command.config.variant.name",
    ("variants",): "command.variants.name",
    ("epilogues",): "command.epilogues.name",
    ("stats",): "command.stats.name",
    ("leaderboard",): "command.leaderboard.name",
    ("rating",): "command.rating.name",
    ("casual",): "command.casual.name",
    ("ratings",): "command.ratings.name",
    **{("ratings", sub): f"command.ratings.{sub}.name" for sub in RATINGS_SUBCOMMANDS},
}
OPTIONS = {
    ("config", "set", "setting"): "command.config.option.setting.name",
    ("config", "set", "value"): "command.config.option.value.name",
    ("config", "variant", "variant"): "command.config.option.variant.name",
    ("config", "variant", "state"): "command.config.option.state.name",
    ("stats", "user"): "command.stats.option.user.name",
    ("leaderboard", "view"): "command.leaderboard.option.view.name",
    ("casual", "casual"): "command.casual.option.casual.name",
    ("ratings", "season", "months"): "command.ratings.option.months.name",
    ("ratings", "variant", "variant"): "command.ratings.option.variant.name",
    ("ratings", "variant", "rated"): "command.ratings.option.rated.name",
    ("ratings", "reset", "confirm"): "command.ratings.option.confirm.name",
    ("ratings", "exclude", "member"): "command.ratings.option.member.name",
    ("ratings", "exclude", "excluded"): "command.ratings.option.excluded.name",
}
CHOICES = {
    ("config", "set", "setting"): {key: f"setting.{key}" for key in SETTING_KEYS},
    ("config", "variant", "variant"): {key: f"variant.{key}.name" for key in variant_epilogues()},
    ("config", "variant", "state"): {state: f"config.state.{state}" for state in VARIANT_STATES},
    ("leaderboard", "view"): {
        view: f"rating.view.{view}" for view in ("season", "lifetime", "wins")
    },
    ("ratings", "variant", "variant"): {key: f"variant.{key}.name" for key in variant_epilogues()},
}
ENGLISH = ("en-US", "en-GB")


async def synced_lockdown() -> dict[str, Any]:
    """`/lockdown` as it is sent to Discord, moderation included."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    await Rooms.build(ServerDesk(MagicMock(), MagicMock())).add_to(bot)
    group = bot.tree.get_command("lockdown")
    assert isinstance(group, app_commands.Group)
    return await group.get_translated_payload(bot.tree, CatalogTranslator())


def nodes(
    payload: dict[str, Any], path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """Every command, subcommand and option under `payload`, by its path of English names."""
    for option in payload.get("options", []):
        here = (*path, option["name"])
        yield here, option
        yield from nodes(option, here)


# Each Discord locale whose language we speak, with that language: `fr`, but also
# Spain's `es-ES` and Latin America's `es-419`.
SPOKEN = {
    locale.value: lang
    for locale in discord.Locale
    if (lang := locale_language(locale.value)) not in (None, FALLBACK)
}


def assert_named(node: dict[str, Any], key: str) -> None:
    localized = node.get("name_localizations") or {}
    assert node["name"] == t("en", key)
    assert {locale: localized.get(locale) for locale in SPOKEN} == {
        locale: t(lang, key) for locale, lang in SPOKEN.items()
    }
    assert not set(localized) & set(ENGLISH), "English clients keep the English name"


def test_french_and_both_spanish_locales_are_spoken() -> None:
    assert {"fr": "fr", "es-ES": "es", "es-419": "es"}.items() <= SPOKEN.items()


async def test_every_moderation_word_is_in_the_client_s_language_and_english_otherwise() -> None:
    found = dict(nodes(await synced_lockdown()))
    for path, key in {**COMMANDS, **OPTIONS}.items():
        assert_named(found[path], key)
    for path, keys in CHOICES.items():
        choices = found[path]["choices"]
        assert [c["value"] for c in choices] == list(keys), "values stay the internal keys"
        for entry in choices:
            assert_named(entry, keys[entry["value"]])
    moderation = {p for p in found if p[0] in {c[0] for c in COMMANDS}}
    assert moderation == {*COMMANDS, *OPTIONS}, "a moderation word without a test"


async def test_the_names_the_french_help_gives_exist_for_french_clients() -> None:
    found = dict(nodes(await synced_lockdown()))
    french = {node["name_localizations"]["fr"] for path, node in found.items() if len(path) == 1}
    help_text = t("fr", "help.text", least=3, most=6)
    for name in ("variantes", "classement", "epilogues", "stats", "config"):
        assert f"/lockdown {name}" in help_text
        assert name in french


async def test_german_clients_get_german_names_within_discords_rules() -> None:
    """Discord's `de`: every command and option is named in German, by Discord's rule for
    names, one name per sibling, each description within 100 characters; and every
    `/lockdown ...` the German texts mention is a name German clients can type."""
    found = dict(nodes(await synced_lockdown()))
    siblings: dict[tuple[str, ...], list[str]] = {}
    for path, node in found.items():
        if "choices" in node:
            labels = [c["name_localizations"]["de"] for c in node["choices"]]
            assert all(1 <= len(label) <= 100 for label in labels), path
        name = node["name_localizations"]["de"]
        assert re.fullmatch(r"[-_\w]{1,32}", name), (path, name)
        assert name == name.lower(), (path, name)
        assert 1 <= len(node["description_localizations"]["de"]) <= 100, path
        siblings.setdefault(path[:-1], []).append(name)
    assert all(len(set(names)) == len(names) for names in siblings.values()), siblings
    commands = {path: node["name_localizations"]["de"] for path, node in found.items()}
    typed = {" ".join(commands[path[: i + 1]] for i in range(len(path))) for path in commands}
    texts = catalog()
    mentioned = {
        found.strip()
        for key in texts.keys
        for found in re.findall(r"/lockdown ((?:[a-z_]+ ?)+)", texts.template("de", key))
    }
    assert "einstellungen zeigen" in mentioned, "the scan finds the commands"
    # The one mention with its values after the command's name.
    assert mentioned - typed == {"einstellungen setzen web_pages on"}


# Discord's rule for command and option names in any language.
NAME_RULE = re.compile(r"^[-_\w\u0900-\u097f\u0e00-\u0e7f]{1,32}$")


async def test_every_localized_name_is_one_discord_accepts_and_unique_among_its_siblings() -> None:
    """Discord refuses the whole sync for one bad or duplicated name, in any locale."""
    payload = await synced_lockdown()
    groups = [payload, *(node for _, node in nodes(payload))]
    for group in groups:
        siblings = [o for o in group.get("options", []) if "name_localizations" in o]
        for locale in SPOKEN:
            names = [(o.get("name_localizations") or {}).get(locale, o["name"]) for o in siblings]
            assert len(set(names)) == len(names), (group["name"], locale, names)
            for name in names:
                assert NAME_RULE.match(name), (locale, name)
                assert name == name.lower(), (locale, name)
        for option in group.get("options", []):
            descriptions = (option.get("description_localizations") or {}).values()
            assert all(1 <= len(d) <= 100 for d in descriptions), option["name"]
        for choice in group.get("choices", []):
            names = (choice.get("name_localizations") or {}).values()
            assert all(1 <= len(n) <= 100 for n in names), choice["value"]


def localized_tree(payload: dict[str, Any], locale: str | None) -> dict[str, set[str]]:
    """Each `/lockdown` command as a client in `locale` sees it (English when None), with
    the names of its subcommands."""

    def name(node: dict[str, Any]) -> str:
        names = node.get("name_localizations") or {}
        return str(names.get(locale, node["name"]) if locale else node["name"])

    subcommand = discord.AppCommandOptionType.subcommand.value
    return {
        name(node): {name(o) for o in node.get("options", []) if o["type"] == subcommand}
        for node in payload["options"]
    }


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_every_command_a_text_names_is_one_its_reader_has(lang: str) -> None:
    """`/lockdown noches nueva` in a Spanish text is what a Spanish client types."""
    locale = next((loc for loc, spoken in SPOKEN.items() if spoken == lang), None)
    tree = localized_tree(await synced_lockdown(), locale)
    named = 0
    for key in catalog().keys:
        text = catalog().template(lang, key)
        for top, sub in re.findall(r"/lockdown ([\w-]+)(?: ([\w-]+))?", text):
            named += 1
            assert top in tree, (key, top)
            if tree[top] and sub:
                assert sub in tree[top], (key, top, sub)
    assert named > 20


def moderator(locale: discord.Locale) -> MagicMock:
    interaction = MagicMock(spec_set=discord.Interaction)
    interaction.locale = locale
    interaction.guild = MagicMock(spec_set=discord.Guild)
    interaction.guild.id = 10
    user = MagicMock(spec_set=discord.Member)
    user.id = 1
    user.guild_permissions = discord.Permissions(manage_guild=True)
    interaction.user = user
    response = MagicMock(spec_set=discord.InteractionResponse)
    response.is_done.return_value = False

    async def defer(**_: object) -> None:
        response.is_done.return_value = True

    response.defer = AsyncMock(side_effect=defer)
    interaction.response = response
    interaction.followup = MagicMock(spec_set=discord.Webhook)
    interaction.followup.send = AsyncMock()
    return interaction


def moderation_with(book: MagicMock) -> ConfigCommands:
    service = MagicMock()
    service.lang.side_effect = lambda interaction: "fr"

    async def tell(interaction: MagicMock, key: str, **params: object) -> None:
        await interaction.followup.send(t("fr", key, **params), ephemeral=True)

    service.tell = tell
    return ConfigCommands(ServerDesk(service, book))


def answer(interaction: MagicMock) -> str:
    interaction.followup.send.assert_awaited_once()
    text: str = interaction.followup.send.await_args.args[0]
    return text


@pytest.mark.parametrize(
    ("locale", "lang"), [(discord.Locale.american_english, "fr"), (discord.Locale.french, "en")]
)
async def test_a_changed_setting_is_named_in_the_servers_language(
    locale: discord.Locale, lang: str
) -> None:
    """Moderator menus follow the server's language, whatever the moderator's client."""
    book = MagicMock()
    changed = ServerConfig().with_value("language", lang).with_value("timer_discussion", 90)
    book.change = AsyncMock(return_value=changed)
    interaction = moderator(locale)
    await moderation_with(book).set_config(interaction, "timer_discussion", "90")
    text = answer(interaction)
    label = t(lang, "setting.timer_discussion")
    assert text.startswith(t(lang, "config.changed", setting=label, value="90"))
    assert "timer_discussion" not in text


async def test_a_changed_switch_reads_on_or_off_in_the_servers_language() -> None:
    book = MagicMock()
    changed = ServerConfig().with_value("language", "fr").with_value("allow_ai", "non")
    book.change = AsyncMock(return_value=changed)
    interaction = moderator(discord.Locale.american_english)
    await moderation_with(book).set_config(interaction, "allow_ai", "non")
    expected = t("fr", "config.changed", setting=t("fr", "setting.allow_ai"), value="désactivé")
    assert answer(interaction).startswith(expected)


async def test_an_unknown_setting_lists_the_settings_as_the_menu_names_them() -> None:
    book = MagicMock()
    book.change = AsyncMock(side_effect=SettingError("error.setting_unknown", keys="raw"))
    interaction = moderator(discord.Locale.french)
    await moderation_with(book).set_config(interaction, "volume", "11")
    labels = and_list("fr", [t("fr", f"setting.{key}") for key in SETTING_KEYS])
    assert answer(interaction) == t("fr", "error.setting_unknown", keys=labels)


async def test_a_wrong_state_lists_the_states_as_the_menu_names_them() -> None:
    interaction = moderator(discord.Locale.french)
    await moderation_with(MagicMock()).set_variant(interaction, "hush", "maybe")
    states = or_list("fr", [t("fr", f"config.state.{s}") for s in VARIANT_STATES])
    assert answer(interaction) == t("fr", "error.variant_state", states=states)


def test_the_settings_listing_names_the_french_subcommand_and_the_labels() -> None:
    embed = config_embed(ServerConfig(), "fr")
    assert embed.description is not None
    last = embed.description.splitlines()[-1]
    labels = and_list("fr", [t("fr", f"setting.{key}") for key in SETTING_KEYS])
    assert last == t("fr", "config.keys", keys=labels)
    assert f"/lockdown config {t('fr', 'command.config.set.name')}" in last


async def test_a_room_s_subcommands_join_lockdown_with_its_cog_and_leave_with_it() -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    rooms = Rooms.build(ServerDesk(MagicMock(), MagicMock()))
    await rooms.add_to(bot)
    names = {command.name for command in rooms.group.commands}
    assert {"new", "board", "config", "variants", "stats", "simulate"} <= names
    await bot.remove_cog(rooms.stats.qualified_name)
    left = {command.name for command in rooms.group.commands}
    assert names - left == {"stats", "leaderboard", "history"}
