"""A whole game on the fake Discord in a Spanish server, with an English reader at the table.

The thread (lobby, board, every line of the game, the picture's alt text) speaks
the server's language, Spanish, from its preferred locale `es-ES`; each
person's My hand panels speak their own Discord language, so the English
reader sitting at the Spanish table reads English panels all game long, and a
Latin American client (`es-419`) reads Spanish ones.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.texts import t
from tests.discord_ui.players import open_and_start, play_by_clicking
from tests.discord_ui.test_games_e2e import make_bot, public_text
from tests.fakediscord import FakeDiscord, start_client
from tests.moderation.test_moderation_e2e import configure

pytestmark = pytest.mark.e2e


async def test_a_spanish_server_plays_a_whole_game_with_an_english_reader_at_the_table(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], locale="es-ES")
    ana, bo = guild.members
    ana.locale, bo.locale = "es-419", "en-US"
    # A clock 100 times fast: timers short enough for seconds, long enough that both
    # people click through many steps (and many panels) before their defaults apply.
    async with start_client(make_bot(tmp_path, speed=100.0), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo], 1, guild.channel("general"))
        table = game.table
        assert bot.service.meta[table.game_id].lang == "es"
        assert game.thread.name == t("es", "lobby.thread_name", host="ana")[:90]
        assert t("es", "lobby.started") in fake_discord.messages(game.thread)[0].text
        await play_by_clicking(game, random.Random(5))
        assert table.finished
        # The end is posted after the last step's answers: wait for it, not for a quiet moment.
        assert await fake_discord.wait_until(
            lambda: t("es", "recap.title") in public_text(fake_discord, game), within=15
        )

        thread = public_text(fake_discord, game)
        for key in ("event.game_over", "recap.title"):
            assert t("es", key) in thread, key
            assert t("en", key) not in thread, key
        assert t("es", "event.turn_ended", turn=1) in thread
        board = game.board().attachments[0]
        assert board.is_png
        assert board.description is not None
        assert board.description.startswith("Tablero de Lockdown, turno ")

        for user, lang, other in ((ana, "es", "en"), (bo, "en", "es")):
            # Every panel the person was shown, those since replaced too.
            shown = [m for m in fake_discord.world.messages.values() if m.visible_to == user.id]
            panels = [m.text for m in shown if m.buttons]
            assert len(panels) > 3, f"{user.name} played from few panels"
            mine = t(lang, "panel.title", name=user.name)
            assert all(mine in text for text in panels), (user.name, lang)
            assert not any(t(other, "panel.kinds") in text for text in panels)


async def test_a_moderator_offers_spanish_to_an_english_server(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The `language` setting takes any catalog language; the menus then speak it."""
    guild = fake_discord.create_guild("Club", members=["ana"], locale="en-US")
    ana = guild.owner
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        await configure(fake_discord, ana, general, "language", "es")
        assert (await bot.desk.book.config(guild.id, "en")).language == "es"
        text = await configure(fake_discord, ana, general, "timer_discussion", "120")
        assert t("es", "config.saved") in text
