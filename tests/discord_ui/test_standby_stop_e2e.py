"""A deploy's new process stopped while it still stands by: the clicks it won were
deferred at its door and no other process will answer them, so each person is told,
privately and in their language, to try again in a moment. At Discord's pace: every
request takes 50-200 ms and the rate limits hold."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.ops.handover import InteractionGate
from bot.texts import t
from lockdown_core import facts, load_ruleset
from tests.discord_ui.test_games_e2e import make_bot
from tests.discord_ui.test_realtime import unkind
from tests.fakediscord import FakeDiscord, start_client

pytestmark = pytest.mark.e2e


class NobodyElse:
    """A claims table where no other process claims anything: every claim here wins."""

    async def claim(self, interaction_ids: Sequence[int]) -> set[int]:
        return set(interaction_ids)

    async def prune(self) -> int:
        return 0


@pytest.mark.parametrize("locale", ["en-US", "de"])
async def test_a_click_won_while_standing_by_is_told_to_retry_when_the_process_stops(
    fake_discord: FakeDiscord, tmp_path: Path, locale: str
) -> None:
    unkind(fake_discord)
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    ana = guild.members[0]
    ana.locale = locale
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        gate = InteractionGate(NobodyElse(), standby_grace=0.05)
        bot.tree.gate = gate  # standing by: the shards are another process's
        asked = await fake_discord.slash(
            ana, "lockdown", subcommand="help", channel=guild.channel("general"), within=5
        )
        assert asked.answered_in_time, "won at once, deferred by its door's watch"
        assert asked.deferred
        assert gate.won_standing_by == 1
        await gate.close()
        lang = "de" if locale == "de" else "en"
        told = t(lang, "error.shutting_down")

        def answers() -> list[str]:
            shown = [m.text for m in asked.followups]
            if asked.original is not None and not asked.original.loading:
                shown.append(asked.original.text)
            return shown

        assert await fake_discord.wait_until(lambda: told in answers(), within=5), asked
        seats = facts.player_range(load_ruleset())
        helped = t(lang, "help.text", least=seats[0], most=seats[-1])
        assert helped not in answers(), "the handler never ran: the games were not its own"
