"""Variants that change the same rule are never combined (R11.4), and a server's open
designations are its own rule (R11.5), on the fake Discord of a French server.

The moderator sees which pairs hosts may never combine; a host who picks one is
told why in French, and the lobby keeps its pick; Open ballots, locked on this
server, still reaches the game through the server's setting.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.texts import t
from bot.texts.catalog import and_list
from tests.fakediscord import FakeDiscord, start_client
from tests.moderation.test_moderation_e2e import answer_text, configure, make_bot, unlock

pytestmark = pytest.mark.e2e


async def test_a_clashing_pair_is_refused_in_the_readers_language(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild(
        "Club", members=["ana", "bo"], channels=("general",), locale="fr"
    )
    ana, bo = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path / "db.sqlite"), fake_discord) as bot:
        await unlock(fake_discord, ana, general, "creche", "hush", "spare_keys")
        await configure(fake_discord, ana, general, "combine_variants", "on")
        await configure(fake_discord, ana, general, "open_designations", "on")
        show = await fake_discord.slash(ana, "lockdown", subcommand="config show", channel=general)
        shown = await answer_text(fake_discord, show)
        pairs = and_list(
            "fr",
            [
                f"{t('fr', f'variant.{a}.name')} + {t('fr', f'variant.{b}.name')}"
                for a, b in (
                    ("creche", "hush"),
                    ("last_stand", "lone_survivor"),
                    ("overrun", "quiet_mall"),
                    ("hoarders", "empty_hands"),
                )
            ],
        )
        assert t("fr", "config.combine_never", pairs=pairs) in shown
        assert t("fr", "config.designations_open") in shown

        await fake_discord.slash(bo, "lockdown", subcommand="new", channel=general)
        assert await fake_discord.wait_until(lambda: bool(bot.hub.lobbies), within=5)
        thread = fake_discord.threads()[-1]
        assert await fake_discord.wait_until(lambda: bool(fake_discord.messages(thread)), within=5)
        message = fake_discord.messages(thread)[0]
        lobby_id = next(iter(bot.hub.lobbies))
        select = f"ld:v:{lobby_id}"
        await fake_discord.select(bo, message, select, ["spare_keys"])
        refused = await fake_discord.select(bo, message, select, ["hush", "creche"])
        assert await answer_text(fake_discord, refused) == t(
            "fr",
            "error.variants_clash",
            first=t("fr", "variant.creche.name"),
            second=t("fr", "variant.hush.name"),
            first_change=t("fr", "variant.creche.change"),
            second_change=t("fr", "variant.hush.change"),
        )
        assert bot.hub.lobbies[lobby_id].variants == ["spare_keys"]

        await fake_discord.select(bo, message, select, ["creche", "spare_keys"])
        assert bot.hub.lobbies[lobby_id].variants == ["creche", "spare_keys"]
        await fake_discord.click(ana, message, f"ld:l:{lobby_id}:join")
        await fake_discord.click(bo, message, f"ld:l:{lobby_id}:ai")
        await fake_discord.click(bo, message, f"ld:l:{lobby_id}:start")
        assert await fake_discord.wait_until(lambda: bot.hub.table_in(thread.id) is not None)
        table = bot.hub.table_in(thread.id)
        assert table is not None
        # Open ballots is not unlocked here: the server's setting adds it all the same.
        assert table.state.rules.variants == ("creche", "spare_keys", "open_ballots")
