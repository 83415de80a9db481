"""Real discord.py objects fed raw INTERACTION_CREATE payloads, no socket at all."""

from __future__ import annotations

from pathlib import Path

from bot.texts import t
from bot.texts.rules_text import guide
from lockdown_core import load_ruleset
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, wire


async def test_slash_commands_and_lobby_buttons_through_parsed_payloads(tmp_path: Path) -> None:
    fake = FakeDiscord()
    guild = fake.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    general = guild.channel("general")
    async with wire(make_bot(tmp_path), fake):
        rules = await fake.slash(bo, "lockdown", subcommand="rules", channel=general)
        assert rules.ephemeral
        assert rules.answered_in_time
        assert rules.response_data is not None
        assert guide("en", load_ruleset()) == rules.response_data["embeds"][0]["description"]

        opened = await fake.slash(ana, "lockdown", subcommand="new", channel=general)
        assert opened.answered_in_time
        assert await fake.wait_until(lambda: bool(fake.threads()))
        thread = fake.threads()[-1]
        assert await fake.wait_until(lambda: bool(fake.messages(thread)))
        lobby = fake.messages(thread)[0]
        join = next(b.custom_id for b in lobby.buttons if b.custom_id.endswith(":join"))
        joined = await fake.click(bo, lobby, join)
        assert joined.answered_in_time
        # Answered first, stored, then shown: the card changes after the answer.
        assert await fake.wait_until(lambda: "bo" in str(lobby.embeds))
        start = next(b.custom_id for b in lobby.buttons if b.custom_id.endswith(":start"))
        refused = await fake.click(bo, lobby, start)
        assert refused.ephemeral
        assert refused.response_data is not None
        assert refused.response_data["content"] == t("en", "error.lobby_not_host")
