"""A whole game on a German server, with a French reader at the table.

The thread speaks the server's language (German) to everyone, the French
player's own panel speaks French, and nothing of either other language leaks
into the thread. The clock runs a thousand times fast, as in the other games.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.texts import catalog, t
from tests.discord_ui.players import open_and_start, open_panel, play_by_clicking
from tests.discord_ui.test_games_e2e import make_bot, public_text
from tests.fakediscord import FakeDiscord, start_client

pytestmark = pytest.mark.e2e

STEPS = ("discussion", "designation", "destinations", "move", "game_over")


async def test_a_german_server_plays_in_german_and_a_french_reader_reads_french(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild(
        "Klub", members=["ana", "bo", "cy"], locale="de", member_locale="de"
    )
    ana, bo, cy = guild.members
    bo.locale = "fr"
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        table = game.table
        assert bot.service.meta[table.game_id].lang == "de"
        assert game.thread.name == t("de", "lobby.thread_name", host="ana")[:90]
        assert t("de", "lobby.started") in fake_discord.messages(game.thread)[0].text
        assert t("de", "ui.button.my_hand") in [b.label for b in game.board().buttons]

        # The game runs on while panels open: check what every panel of a seat shows.
        for user, lang in ((ana, "de"), (bo, "fr"), (cy, "de")):
            panel = await open_panel(game, user)
            assert panel is not None
            for key in ("panel.title", "panel.kinds", "kind.weeper", "kind.weeper.help"):
                assert t(lang, key, name=user.name) in panel.text, (key, panel.text)

        await play_by_clicking(game, random.Random(5))
        assert table.finished
        # The end is posted after the last step's answers: wait for it, not for a quiet moment.
        assert await fake_discord.wait_until(
            lambda: t("de", "recap.title") in public_text(fake_discord, game), within=15
        )
        thread = public_text(fake_discord, game)
        assert t("de", "event.game_over") in thread
        assert game.board().attachments[0].is_png
        texts = catalog()
        for step in STEPS:
            assert texts.template("en", f"step.{step}.name") not in thread, step
            assert texts.template("fr", f"step.{step}.name") not in thread, step
        shown = "\n".join(m.text for m in fake_discord.messages(game.thread))
        assert t("de", "recap.title") in shown
        assert "{" not in shown, "a template left unfilled"
