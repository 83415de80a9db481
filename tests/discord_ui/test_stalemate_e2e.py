"""A stalled game on the fake Discord (R9.4): the thread says why nothing can end it,
My hand offers the vote to end it, and a majority of the seated people gives it up,
unscored.

The game is dealt at a position instead of a fresh deal (the hub's `new_game` is
replaced for the test): no card left, no Monster on the board, the supply empty for
as many turn ends as the data's `stall_turns`, so the end of the turn the people
play makes it stalled. Everything else is real: lobby, buttons, table, database.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.table import hub
from bot.texts import t
from lockdown_core import Event, GameState, load_ruleset
from lockdown_core.ruleset import Ruleset
from lockdown_core.stall import stalled
from tests.core.builders import PARKING, at_turn, position
from tests.discord_ui.players import open_and_start
from tests.discord_ui.seats_play import hand_panel, make_bot, play_until, thread_text
from tests.fakediscord import FakeDiscord, start_client
from tests.moderation.test_forged_servers import forged_click
from tests.moderation.test_moderation_e2e import answer_text

pytestmark = pytest.mark.e2e

STILL = load_ruleset().stall_turns


def say(key: str, **params: object) -> str:
    return t("en", key, **params)


def nearly_stalled(rules: Ruleset, players: int, seed: int | str) -> tuple[GameState, list[Event]]:
    """Stands in for `new_game`: three seats, nothing left that could change the game,
    and the supply empty at the end of the last `stall_turns` turns."""
    assert players == 3
    assert STILL is not None
    family = {"leader": PARKING, "weeper": 5, "useless": 4}
    state = position(
        *({"blocker": 1 + seat, **family} for seat in range(3)),
        supply=0,
        deck=[],
        turn=STILL + 1,
    )
    state.supply_empty_turns = STILL
    return state, at_turn(state)


async def test_a_stall_offers_the_seated_people_the_vote_to_give_the_game_up(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub, "new_game", nearly_stalled)
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        table = game.table
        game_id = table.game_id
        end = f"ld:s:{game_id}:end"
        # Not stalled yet, and the host is here: no vote to end.
        panel = await hand_panel(fake_discord, game, bo)
        assert all(b.custom_id != end for b in panel.buttons)
        early = await forged_click(fake_discord, bo, game.thread, game.board(), end)
        assert early == say("handover.error.host_here")

        await play_until(game, random.Random(3), lambda: stalled(table.state))
        # The thread says why, and how the table may act on it here.
        why = say("event.stalemate", turns=say("count.turn_other", count=STILL))
        how = say("handover.stalemate.vote")
        assert await fake_discord.wait_until(
            lambda: f"{why}\n{how}" in thread_text(fake_discord, game), within=5
        )
        panel = await hand_panel(fake_discord, game, bo)
        assert any(b.custom_id == end for b in panel.buttons)
        first = await fake_discord.click(bo, panel, end)
        assert await answer_text(fake_discord, first) == say(
            "handover.end.voted", votes=1, needed=2
        )
        notice = say("handover.notice.end_vote.stalled", votes=1, needed=2)
        assert await fake_discord.wait_until(
            lambda: notice in thread_text(fake_discord, game), within=5
        )
        assert game_id in bot.hub.tables
        last = await forged_click(fake_discord, cy, game.thread, game.board(), end)
        assert last == say("handover.end.carried")
        assert game_id not in bot.hub.tables
        assert await fake_discord.wait_until(
            lambda: say("handover.announce.given_up") in thread_text(fake_discord, game),
            within=5,
        )
        # Given up, not scored: no end of game was told.
        assert "game_over" not in [e.kind for e in table.public_log]
        assert say("event.game_over") not in thread_text(fake_discord, game)
