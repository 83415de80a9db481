""" "No cards this turn" outlives a Walkie-talkie at Discord's real pace (issue 31, item
3): requests take 50-200 ms under the rate limits, AI and passes answer after the
production-like delay, people click with human delays. After the Walkie-talkie
cancels every Done (R2.3), the window ends as soon as the people still asked
answer: it never waits out its timer on the seat that passed."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from bot.storage.database import Database
from bot.table.codes import encode
from lockdown_core import PlayCard, Step, pending_seats
from tests.discord_ui.players import open_and_start
from tests.discord_ui.seats_play import play_until
from tests.discord_ui.test_card_pass_e2e import SEED, click_on_panel
from tests.discord_ui.test_realtime import TIMERS, real_pace_bot, unkind, until
from tests.fakediscord import FakeDiscord, start_client

pytestmark = [pytest.mark.realtime, pytest.mark.e2e]

# The real-pace timers, but a card window long enough for the pass, a pause and the
# Walkie-talkie on a busy machine, a My hand clicked again included (`hand_panel`, when
# its reply is lost). The window must still end well before its timer.
WINDOW = TIMERS.model_copy(update={"card_window": 30})


async def test_a_pass_on_cards_outlives_a_walkie_talkie_at_real_pace(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("secrets.randbits", lambda _bits: SEED)
    unkind(fake_discord)
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy", "dan"])
    ana, bo, cy, dan = guild.members
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'lockdown.db'}")
    async with start_client(real_pace_bot(database, WINDOW), fake_discord) as bot:
        game = await open_and_start(
            fake_discord, bot, ana, [bo, cy, dan], 0, guild.channel("general")
        )
        table = game.table
        await play_until(game, random.Random(1), lambda: table.state.step == Step.WALKIE_WINDOW)
        state = table.state
        walkie = next(p for p in pending_seats(state) if "walkie_talkie" in state.hands[p])
        passer = next(p for p in pending_seats(state) if p != walkie)
        token = table.token
        await click_on_panel(game, game.people[passer], "Z")
        await asyncio.sleep(0.8)
        card = encode(PlayCard(walkie, "walkie_talkie"), table.state.rules)
        played = time.monotonic()
        await click_on_panel(game, game.people[walkie], card)
        # The people still asked think, then say Done; the passing seat is answered for.
        rng = random.Random(3)
        while table.token == token:
            waiting = [p for p in pending_seats(table.state) if p != passer]
            if waiting:
                await asyncio.sleep(rng.uniform(0.3, 0.8))
                await click_on_panel(game, game.people[waiting[0]], "N")
            else:
                await asyncio.wait_for(until(lambda: table.token != token), WINDOW.card_window)
        took = time.monotonic() - played
        assert took < WINDOW.card_window, f"the window waited {took:.1f} s: its timer ran out"
        assert "timeout" not in [e.kind for e in table.public_log]
        said = {"player": passer, "step": Step.WALKIE_WINDOW}
        done = [e for e in table.public_log if e.kind == "player_done" and e.data == said]
        assert len(done) == 2, "a Done clicked, then one said again for the seat"
        assert table.seats[passer].missed_deadlines == 0
        slow = [ix for ix in fake_discord.interactions if not ix.answered_in_time]
        assert not slow
    print(f"walkie window after the card: {took:.2f} s (timer {WINDOW.card_window} s)")
