"""Two clicks of one person, answered in either order, leave exactly one panel.

At Discord's pace a person may act on their panel and click My hand on the board
before the bot's answer to the first click has come back. The action moves the
step on, so My hand sends a new panel; the first click's answer then edits the old
one. Whichever answer returns first, the person must end with one panel: the
newest click's, showing the step they are in. The answers are held on their way
back from the fake Discord (Discord has already applied them), and released in
the order each case forces.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from tests.discord_ui.players import an_action, open_and_start
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.protocol import CallbackType
from tests.fakediscord.records import FakeInteraction
from tests.fakediscord.rest import ApiReply, ApiRequest

pytestmark = [pytest.mark.e2e, pytest.mark.realtime]


class HeldAnswers:
    """Holds the replies to the bot's answers of chosen interactions until released.

    A deferral is let through: only what carries the panel (a message sent or edited
    through the interaction) waits, as a slow request of Discord's would."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._fake = fake
        self._handle: Callable[[ApiRequest], Awaitable[ApiReply]] = fake.rest.handle
        self.gates: dict[int, asyncio.Event] = {}
        self.held: dict[int, int] = {}

    def hold(self, ix: FakeInteraction) -> None:
        self.gates[ix.id] = asyncio.Event()
        self.held[ix.id] = 0

    def release(self, ix: FakeInteraction) -> None:
        self.gates[ix.id].set()

    def _held_for(self, request: ApiRequest) -> int | None:
        parts = request.path.split("/")
        token = next(
            (parts[i + 2] for i, p in enumerate(parts[:-2]) if p in ("interactions", "webhooks")),
            None,
        )
        if token is None:
            return None
        if isinstance(request.body, dict) and request.body.get("type") in (
            CallbackType.DEFERRED_UPDATE_MESSAGE,
            CallbackType.DEFERRED_CHANNEL_MESSAGE,
        ):
            return None
        for ix_id in self.gates:
            if self._fake.world.interactions[ix_id].token == token:
                return ix_id
        return None

    async def handle(self, request: ApiRequest) -> ApiReply:
        reply = await self._handle(request)
        ix_id = self._held_for(request)
        if ix_id is not None:
            self.held[ix_id] += 1
            await self.gates[ix_id].wait()
        return reply


@pytest.mark.parametrize("first_back", ["action", "my_hand"])
async def test_two_clicks_of_one_person_leave_one_panel_whatever_comes_back_first(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first_back: str
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    fake_discord.set_latency((0.05, 0.15), seed=3)
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        table = game.table
        mover = game.people[table.state.mover]
        panel, button = await an_action(game, mover)
        await fake_discord.settle(quiet=0.3)
        step = table.token

        held = HeldAnswers(fake_discord)
        monkeypatch.setattr(fake_discord.rest, "handle", held.handle)
        action = await fake_discord.click(mover, panel, str(button.custom_id), wait=False)
        held.hold(action)
        assert await fake_discord.wait_until(lambda: table.token != step, within=5.0)
        hand = await fake_discord.click(mover, game.board(), f"ld:h:{table.game_id}", wait=False)
        held.hold(hand)
        assert await fake_discord.wait_until(
            lambda: held.held[action.id] > 0 and held.held[hand.id] > 0, within=5.0
        )
        order = (action, hand) if first_back == "action" else (hand, action)
        # The fake is quiet while both replies are held: `settle` alone would return at
        # once, before the bot has done anything with the reply just released.
        held.release(order[0])
        await asyncio.sleep(1.0)
        await fake_discord.settle(quiet=0.5)
        held.release(order[1])
        await asyncio.sleep(1.0)
        await fake_discord.settle(quiet=0.5)

        assert action.answered_in_time
        assert hand.answered_in_time
        shown = [m for m in fake_discord.ephemerals(mover) if m.embeds]
        assert len(shown) == 1, f"{len(shown)} panels on screen"
        # The one panel is the newest click's, and its buttons are the step now.
        assert shown[0] is hand.original or shown[0] in hand.followups
        actions = [b.custom_id for b in shown[0].buttons if b.custom_id.startswith("ld:a:")]
        assert all(f":{table.token}:" in custom_id for custom_id in actions)
        if first_back == "my_hand":
            # The action's answer, drawn last, moved onto the newer panel with its receipt.
            assert str(button.label) in str(shown[0].embeds)
