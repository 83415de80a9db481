"""The game's and the lobby's rooms called directly, with strict mocks of discord's classes.

`spec_set` makes a mock refuse any attribute the real class lacks, so a typo
or an API misuse fails here as it would against Discord.
"""

from __future__ import annotations

from unittest.mock import AsyncMock, MagicMock

import discord

from bot.discord_ui.game.abort import Abort
from bot.discord_ui.game.play import Play
from bot.discord_ui.game.thread_commands import ThreadCommands
from bot.discord_ui.limits import CONTENT
from bot.discord_ui.lobby.cog import LobbyRoom
from bot.discord_ui.server import ServerDesk
from bot.discord_ui.service import GameService, locale_lang
from bot.discord_ui.slash import CatalogTranslator, lockdown_group
from bot.table.hub import GameHub
from bot.table.timers import TableConfig
from bot.texts import t
from bot.texts.rules_text import guide
from lockdown_core import load_ruleset
from tests.table.fakes import ManualScheduler


def make_interaction(
    user_id: int = 1,
    locale: discord.Locale = discord.Locale.american_english,
    channel_id: int = 500,
) -> MagicMock:
    interaction = MagicMock(spec_set=discord.Interaction)
    interaction.locale = locale
    interaction.channel_id = channel_id
    user = MagicMock(spec_set=discord.Member)
    user.id = user_id
    user.display_name = f"user{user_id}"
    interaction.user = user
    response = MagicMock(spec_set=discord.InteractionResponse)
    response.is_done.return_value = False
    response.send_message = AsyncMock()
    interaction.response = response
    return interaction


def make_service() -> GameService:
    client = MagicMock(spec_set=discord.Client)
    hub = GameHub(ManualScheduler(), lambda kind, seat, _seed: MagicMock(), MagicMock())
    return GameService(client, hub, TableConfig())


async def test_rules_answers_privately_with_the_guide_in_the_readers_language() -> None:
    service = make_service()
    interaction = make_interaction(locale=discord.Locale.french)
    await ThreadCommands(service).rules_here(interaction)
    interaction.response.send_message.assert_awaited_once()
    kwargs = interaction.response.send_message.await_args.kwargs
    assert kwargs["embed"].title == t("fr", "rules.title")
    assert kwargs["embed"].description == guide("fr", load_ruleset())
    assert kwargs["ephemeral"] is True
    names = [f.name for f in kwargs["embed"].fields]
    assert names == [t("fr", "rules.kinds_title"), t("fr", "rules.dangers_title")]


async def test_my_hand_for_a_game_that_is_gone_is_a_short_private_answer() -> None:
    service = make_service()
    interaction = make_interaction()
    await Play(service).show_hand(interaction, game_id=42)
    interaction.response.send_message.assert_awaited_once_with(
        t("en", "error.game_gone"), ephemeral=True
    )


async def test_abort_outside_a_game_thread_changes_nothing() -> None:
    service = make_service()
    interaction = make_interaction()
    await Abort(service).ask(interaction)
    interaction.response.send_message.assert_awaited_once_with(
        t("en", "error.no_game_here"), ephemeral=True
    )
    assert service.hub.tables == {}


async def test_help_answers_privately_within_one_message() -> None:
    interaction = make_interaction()
    await ThreadCommands(make_service()).help(interaction)
    text = interaction.response.send_message.await_args.args[0]
    assert text == t("en", "help.text", least=3, most=6)
    assert len(text) <= CONTENT
    assert interaction.response.send_message.await_args.kwargs["ephemeral"] is True


def test_the_reader_language_follows_their_discord_locale_we_speak() -> None:
    assert locale_lang(discord.Locale.french, "en") == "fr"
    assert locale_lang(discord.Locale.spain_spanish, "en") == "es"
    assert locale_lang(discord.Locale.latin_american_spanish, "fr") == "es"
    assert locale_lang(discord.Locale.japanese, "fr") == "fr"
    assert locale_lang(None, "en") == "en"


async def test_command_names_and_descriptions_are_translated_for_french_clients() -> None:
    translator = CatalogTranslator()
    room = LobbyRoom(lockdown_group(), ServerDesk(make_service(), MagicMock()))
    new = next(c for c in room.slash_commands() if c.name == "new")
    name = await translator.translate(new._locale_name, discord.Locale.french, MagicMock())  # type: ignore[attr-defined]
    assert name == t("fr", "command.new.name")
    assert name != "new"
    english = await translator.translate(
        new._locale_name,
        discord.Locale.british_english,  # type: ignore[attr-defined]
        MagicMock(),
    )
    assert english is None
