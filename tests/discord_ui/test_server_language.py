"""Each reader in their language, on the fake Discord.

A new server's language is its preferred locale until a moderator sets one; the
moderator menus follow the server's language whatever the moderator's client;
the My hand panel, its "Recently" lines included, reads in the reader's language
at the moment it is shown, whatever the game's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.texts import t
from tests.discord_ui.players import open_and_start
from tests.fakediscord import FakeDiscord, start_client
from tests.moderation.test_moderation_e2e import answer_text, configure, make_bot

pytestmark = pytest.mark.e2e


async def test_a_french_server_plays_in_french_from_its_first_command(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild(
        "Club", members=["ana", "bo"], locale="fr", member_locale="en-US"
    )
    ana, bo = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path / "db.sqlite"), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo], 1, general)
        lobby = fake_discord.messages(game.thread)[0]
        assert t("fr", "lobby.started") in lobby.text
        assert game.thread.name == t("fr", "lobby.thread_name", host="ana")[:90]
        assert bot.service.meta[game.table.game_id].lang == "fr"
        assert bot.service.presenters[game.table.game_id].lang == "fr"


async def test_a_moderator_choice_wins_over_the_servers_locale(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], locale="fr")
    ana, bo = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path / "db.sqlite"), fake_discord) as bot:
        assert (await bot.desk.book.config(guild.id, "fr")).language == "fr"
        await configure(fake_discord, ana, general, "language", "en")
        assert (await bot.desk.book.config(guild.id, "fr")).language == "en"
        game = await open_and_start(fake_discord, bot, ana, [bo], 1, general)
        assert bot.service.meta[game.table.game_id].lang == "en"


@pytest.mark.parametrize(("server", "client"), [("fr", "en-US"), ("en-US", "fr")])
async def test_moderator_menus_follow_the_servers_language_not_the_client(
    fake_discord: FakeDiscord, tmp_path: Path, server: str, client: str
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana"], locale=server, member_locale=client)
    ana = guild.owner
    general = guild.channel("general")
    lang = server[:2]
    async with start_client(make_bot(tmp_path / "db.sqlite"), fake_discord):
        show = await fake_discord.slash(ana, "lockdown", subcommand="config show", channel=general)
        assert t(lang, "config.title") in await answer_text(fake_discord, show)
        text = await configure(fake_discord, ana, general, "timer_discussion", "120")
        assert t(lang, "config.saved") in text


async def test_a_french_reader_of_an_english_game_reads_their_panel_in_french(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild(
        "Club", members=["ana", "bo"], locale="en-US", member_locale="en-US"
    )
    ana, bo = guild.members
    bo.locale = "fr"
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path / "db.sqlite"), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo], 1, general)
        table = game.table
        assert bot.service.meta[table.game_id].lang == "en"
        panels = {}
        for user in (ana, bo):
            ix = await fake_discord.click(user, game.board(), f"ld:h:{table.game_id}")
            assert ix.answered_in_time
            assert ix.original is not None
            panels[user.name] = ix.original.text
        seat = {s.user_id: s.seat for s in table.seats}
        for user, lang in ((ana, "en"), (bo, "fr")):
            panel = panels[user.name]
            assert t(lang, "panel.title", name=user.name) in panel
            assert t(lang, "panel.kinds") in panel
            hand = table.view_for(seat[user.id])["hand"]
            cards = ", ".join(t(lang, f"card.{c}") for c in hand)
            dealt = "event.hand_dealt.private" if hand else "event.hand_dealt.private.empty"
            assert t(lang, dealt, cards=cards) in panel, panel
