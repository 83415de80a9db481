"""`/lockdown simulate` on the fake Discord: moderators only, one run per server, progress
edited into the answer, then the comparison table and its chart."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import LockdownBot
from bot.settings import Settings
from bot.table.timers import TableConfig
from bot.texts import t
from tests.discord_ui.clock import FastScheduler
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.records import FakeInteraction

pytestmark = pytest.mark.e2e


def make_bot(db: Path) -> LockdownBot:
    settings = Settings(discord_token="fake-bot-token", database_url=f"sqlite+aiosqlite:///{db}")
    return LockdownBot(
        settings,
        scheduler=FastScheduler(),
        config=TableConfig(ai_delay=1.0),
        batch_delay=0.01,
        edit_interval=0.0,
    )


async def answer(fake: FakeDiscord, ix: FakeInteraction) -> str:
    await fake.wait_until(
        lambda: (ix.original is not None and not ix.original.loading) or bool(ix.followups),
        within=10,
    )
    messages = [m for m in (ix.original, *ix.followups) if m is not None]
    return "\n".join(m.text for m in messages)


async def test_simulate_is_for_moderators_once_per_server_and_answers_with_a_chart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    general = guild.channel("general")
    other = fake_discord.create_guild("Other", members=["cy"], channels=("general",))
    async with start_client(make_bot(tmp_path / "db.sqlite"), fake_discord) as bot:
        desk = bot.rooms.simulate.desk
        desk.progress_every = 0.05
        desk.max_runs = 1
        ix = await fake_discord.slash(
            bo, "lockdown", subcommand="simulate", options={"games": 10}, channel=general
        )
        assert ix.answered_in_time
        assert t("en", "error.not_moderator") in await answer(fake_discord, ix)

        # A variant this server has not unlocked is refused, and nothing runs.
        ix = await fake_discord.slash(
            ana, "lockdown", subcommand="simulate", options={"variant": "hush"}, channel=general
        )
        locked = t("en", "error.variant_locked", name=t("en", "variant.hush.name"))
        assert locked in await answer(fake_discord, ix)
        # The run lets go of the server after its last answer has gone out.
        assert await fake_discord.wait_until(lambda: not desk.running, within=5)

        await bot.desk.book.set_variant(guild.id, ana.id, "hush", "unlock")
        options = {"variant": "hush", "players": 3, "games": 200}
        run = await fake_discord.slash(
            ana, "lockdown", subcommand="simulate", options=options, channel=general
        )
        assert run.answered_in_time
        assert run.ephemeral
        assert await fake_discord.wait_until(lambda: guild.id in desk.running, within=5)
        second = await fake_discord.slash(
            ana, "lockdown", subcommand="simulate", options={"games": 5}, channel=general
        )
        assert t("en", "simulate.already") in await answer(fake_discord, second)
        # The bot-wide cap: another server waits for a free slot.
        elsewhere = await fake_discord.slash(
            other.owner,
            "lockdown",
            subcommand="simulate",
            options={"games": 5},
            channel=other.channel("general"),
        )
        assert t("en", "simulate.busy") in await answer(fake_discord, elsewhere)

        assert await fake_discord.wait_until(
            lambda: run.original is not None and bool(run.original.attachments), within=120
        )
        final = run.original
        assert final is not None
        texts = [version.content for version in final.versions]
        # The answer was edited with the games played as they went, then with the result.
        played = [int(text.split("\n")[1].split()[0]) for text in texts if "games played" in text]
        assert len(played) >= 2, texts
        assert played == sorted(set(played))
        assert played[-1] <= 400
        assert final.content.startswith(
            t("en", "simulate.done", games=200, players=3, ai="random", seconds="")[:30]
        )
        (chart,) = final.attachments
        assert chart.is_png
        assert chart.description is not None
        assert "Hush" in chart.description
        table = final.embeds[0]["description"]
        assert "A = Base rules" in table
        assert "B = Hush" in table
        # The run lets go of the server after its last answer has gone out.
        assert await fake_discord.wait_until(lambda: not desk.running, within=5)


def test_every_ai_line_up_of_the_simulator_has_its_words() -> None:
    from bot.discord_ui.simulate.desk import AI_LABELS
    from lockdown_core.ai.simulation import AI_CHOICES

    assert set(AI_LABELS) == set(AI_CHOICES)
