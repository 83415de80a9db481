"""A practice game's page, on the fake Discord: private until its player shares it from
the reveal; then the page answers, and the server's history still leaves it out. A
server with pages off offers no sharing."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.app import LockdownBot
from bot.texts import t
from tests.discord_ui.players import play_by_clicking
from tests.discord_ui.test_practice_e2e import open_practice
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.records import FakeChannel, FakeMessage, FakeUser
from tests.moderation.test_moderation_e2e import answer_text, configure
from tests.web.conftest import PUBLIC_URL
from tests.web.test_web_e2e import LINK, fetch, settings_for, web_bot

pytestmark = pytest.mark.e2e


def _reveal(fake: FakeDiscord, thread: FakeChannel, game_id: int) -> FakeMessage | None:
    wanted = f"ld:p:{game_id}"
    for message in fake.messages(thread):
        if any(b.custom_id == wanted for b in message.buttons):
            return message
    return None


async def _practice_to_its_reveal(
    fake: FakeDiscord, bot: LockdownBot, user: FakeUser, channel: FakeChannel
) -> tuple[int, FakeMessage]:
    game = await open_practice(fake, bot, user, channel, 2)
    await play_by_clicking(game, random.Random(4))
    game_id = game.table.game_id
    assert await fake.wait_until(lambda: _reveal(fake, game.thread, game_id) is not None, within=30)
    reveal = _reveal(fake, game.thread, game_id)
    assert reveal is not None
    return game_id, reveal


async def test_the_player_shares_a_practice_page_that_stays_out_of_the_history(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    settings = settings_for(tmp_path)
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    [ana] = guild.members
    general = guild.channel("general")
    bot = web_bot(settings)
    async with start_client(bot, fake_discord):
        game_id, reveal = await _practice_to_its_reveal(fake_discord, bot, ana, general)
        # A practice reveal links no page: the game is private until shared.
        assert not LINK.search(reveal.content or "")
        share = f"ld:w:{game_id}"
        [button] = [b for b in reveal.buttons if b.custom_id == share]
        assert button.label == t("en", "share.button")

        shared = await answer_text(fake_discord, await fake_discord.click(ana, reveal, share))
        found = LINK.search(shared)
        assert found is not None, shared
        assert shared == t("en", "share.done", url=found.group(0))
        status, page = await asyncio.to_thread(
            fetch, settings, found.group(0).removeprefix(PUBLIC_URL)
        )
        assert status == 200
        assert "ana" in page
        assert str(ana.id) not in page

        listed = await fake_discord.slash(ana, "lockdown", subcommand="history", channel=general)
        assert found.group(0) not in await answer_text(fake_discord, listed)

        # Pages turned off: the shared page answers 404, and a click says why.
        await configure(fake_discord, ana, general, "web_pages", "off")
        status, _ = await asyncio.to_thread(
            fetch, settings, found.group(0).removeprefix(PUBLIC_URL)
        )
        assert status == 404
        refused = await answer_text(fake_discord, await fake_discord.click(ana, reveal, share))
        assert refused == t("en", "share.error.no_pages")

        # And a practice ending there offers no sharing at all.
        _, second = await _practice_to_its_reveal(fake_discord, bot, ana, general)
        assert not [b for b in second.buttons if (b.custom_id or "").startswith("ld:w:")]
