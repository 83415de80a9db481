""" "No cards this turn" outlives a Walkie-talkie, on the fake Discord (issue 31, item
3): a person passes in the Walkie-talkie step, then another seat plays one, which
cancels every Done (R2.3). The table answers for the passing seat again at once: the
step does not wait out its timer on them, and they miss no deadline."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.table.codes import encode
from bot.texts import t
from lockdown_core import PlayCard, Step, pending_seats
from tests.discord_ui.players import Game, open_and_start
from tests.discord_ui.seats_play import hand_panel, make_bot, play_until
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.records import FakeUser

pytestmark = pytest.mark.e2e

# A deal where seat 2 holds a Walkie-talkie and every other seat a card of its own.
SEED = 2


async def click_on_panel(game: Game, user: FakeUser, code: str) -> str:
    """The person opens My hand and clicks the button of `code`: the receipt they read."""
    fake, table = game.fake, game.table
    panel = await hand_panel(fake, game, user)
    custom_id = f"ld:a:{table.game_id}:{table.token}:{code}"
    assert any(b.custom_id == custom_id for b in panel.buttons), f"no {code} on the panel"
    ix = await fake.click(user, panel, custom_id)
    assert ix.answered_in_time
    await fake.settle()
    return (ix.original or ix.message or panel).text


async def test_r2_3_a_pass_on_cards_is_answered_again_after_a_walkie_talkie(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("secrets.randbits", lambda _bits: SEED)
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy", "dan"])
    ana, bo, cy, dan = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(
            fake_discord, bot, ana, [bo, cy, dan], 0, guild.channel("general")
        )
        table = game.table
        await play_until(game, random.Random(1), lambda: table.state.step == Step.WALKIE_WINDOW)
        state = table.state
        waiting = pending_seats(state)
        walkie = next(p for p in waiting if "walkie_talkie" in state.hands[p])
        passer = next(p for p in waiting if p != walkie)
        turn, token = state.turn, table.token
        receipt = await click_on_panel(game, game.people[passer], "Z")
        assert t("en", "panel.no_cards_receipt") in receipt
        assert passer not in pending_seats(table.state)
        card = encode(PlayCard(walkie, "walkie_talkie"), table.state.rules)
        await click_on_panel(game, game.people[walkie], card)
        # R2.3 cancelled the pass's Done; the table says it again without a click.
        assert await fake_discord.wait_until(
            lambda: table.token != token or passer not in pending_seats(table.state), within=5
        )
        done = [
            e
            for e in table.public_log
            if e.kind == "player_done" and e.data == {"player": passer, "step": Step.WALKIE_WINDOW}
        ]
        assert len(done) == 2, "a Done clicked, then one said again for the seat"
        await play_until(game, random.Random(2), lambda: table.token != token)
        assert table.state.turn == turn
        assert "timeout" not in [e.kind for e in table.public_log]
        assert table.seats[passer].missed_deadlines == 0
        fake_discord.assert_no_contract_violations()
