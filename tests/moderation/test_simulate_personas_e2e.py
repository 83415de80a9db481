"""`/lockdown simulate` with the shrewd level: its seats take the server's personas in
turn, and the answer says how each persona did."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord_ui.simulate.desk import persona_lines
from bot.texts import t
from lockdown_core import load_ruleset
from lockdown_core.ai.simulation import simulate
from tests.fakediscord import FakeDiscord, start_client
from tests.moderation.test_moderation_e2e import configure
from tests.moderation.test_simulate_e2e import answer, make_bot

pytestmark = pytest.mark.e2e


async def test_a_shrewd_simulation_reports_each_of_the_servers_personas(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    [ana] = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path / "db.sqlite"), fake_discord) as bot:
        await configure(fake_discord, ana, general, "ai_personas", "gambler trickster")
        options = {"players": 3, "games": 12, "ai": "shrewd"}
        run = await fake_discord.slash(
            ana, "lockdown", subcommand="simulate", options=options, channel=general
        )
        assert await fake_discord.wait_until(
            lambda: run.original is not None and bool(run.original.attachments), within=120
        )
        text = await answer(fake_discord, run)
        # The run lets go of the server after its last answer has gone out.
        desk = bot.rooms.simulate.desk
        assert await fake_discord.wait_until(lambda: not desk.running, within=5)
    lines = [line for line in text.split("\n") if line.startswith("the ")]
    assert [line.split(":")[0] for line in lines] == ["the Gambler", "the Trickster"]
    assert t("en", "simulate.ai.shrewd") in text


def test_the_persona_lines_are_the_tallys_own_figures() -> None:
    tally = simulate(load_ruleset(), 3, "shrewd", 30, 0, personas=("warden", "trickster"))
    say = lambda key, **params: t("en", key, **params)  # noqa: E731
    trickster, warden = persona_lines(tally, say)
    assert "lies in 0% of its announcements" in warden
    deeds = tally.behaviour_by_kind["shrewd:trickster"]
    lies = round(100 * deeds["lies"] / deeds["announcements"])
    assert lies > 50
    assert f"lies in {lies}% of its announcements" in trickster
    wins = round(100 * tally.wins_by_kind.get("shrewd:trickster", 0.0) / 45)
    assert trickster.startswith(f"the Trickster: wins {wins}% of its games")
