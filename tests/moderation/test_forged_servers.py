"""Every permission is checked against the game's own server (issue 13, item 2).

A moderator is a moderator of the server a click or command comes from. Here
the owner of another server (a moderator there), and a player seated in the
game who is also a member of that other server, send forged interactions:
the payload says their own server, the custom id or the channel names a game
or a lobby of the first server. discord.py only dispatches a click whose
custom id is on the clicked message, so each forged payload carries a message
of the sender's own server whose components were rewritten to hold that id,
which is what a hand-made payload can do. Every one of them must get the same
private refusal, in our words, and change nothing.
"""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any

import pytest

from bot.app import LockdownBot
from bot.discord_ui.campaign.ending import FinishedGame
from bot.settings import Settings
from bot.storage.rating_seasons import SeasonRepository
from bot.table.timers import TableConfig
from bot.texts import t
from tests.discord_ui.clock import FastScheduler
from tests.discord_ui.players import open_and_start
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.actions import command_data, interaction_payload
from tests.fakediscord.payloads import channel_payload
from tests.fakediscord.protocol import InteractionType
from tests.fakediscord.records import FakeChannel, FakeInteraction, FakeMessage, FakeUser
from tests.moderation.test_moderation_e2e import answer_text

pytestmark = pytest.mark.e2e

REFUSAL = t("en", "error.other_server")


def make_bot(db: Path) -> LockdownBot:
    # Real time: nothing moves on by itself while the forged payloads arrive.
    settings = Settings(discord_token="fake-bot-token", database_url=f"sqlite+aiosqlite:///{db}")
    return LockdownBot(
        settings,
        scheduler=FastScheduler(speed=1.0),
        config=TableConfig(),
        batch_delay=0.01,
        edit_interval=0.0,
    )


async def forge(
    fake: FakeDiscord,
    kind: InteractionType,
    user: FakeUser,
    home: FakeChannel,
    data: dict[str, Any],
    *,
    message: FakeMessage | None = None,
    channel: FakeChannel | None = None,
) -> FakeInteraction:
    """An interaction from `user` in `home`'s server, as a hand-made payload can be:
    `channel` (another server's thread) instead of `home` as the channel, and for a
    click, `message`'s components replaced by the one forged component."""
    world = fake.world
    interaction_id = world.new_id()
    token = f"ix-{interaction_id}-{secrets.token_hex(8)}"
    payload = interaction_payload(
        world,
        interaction_id=interaction_id,
        token=token,
        kind=kind,
        user=user,
        channel=home,
        data=data,
        message=message,
    )
    if channel is not None:
        payload["channel"] = channel_payload(world, channel)
        payload["channel_id"] = str(channel.id)
    if message is not None:
        component: dict[str, Any] = {"type": data["component_type"], "custom_id": data["custom_id"]}
        if data["component_type"] == 2:
            component |= {"style": 2, "label": "forged"}
        else:
            component |= {
                "options": [{"label": v, "value": v} for v in data["values"]],
                "max_values": len(data["values"]),
            }
        payload["message"]["components"] = [{"type": 1, "components": [component]}]
    interaction = FakeInteraction(
        id=interaction_id,
        token=token,
        type=kind,
        user=user,
        channel_id=(channel or home).id,
        guild_id=home.guild_id,
        payload=payload,
        created_at=time.monotonic(),
        custom_id=data.get("custom_id"),
        message=message,
    )
    world.interactions[interaction.id] = interaction
    await fake.dispatch("INTERACTION_CREATE", payload)
    assert await fake.wait_answered(interaction, 5), f"no answer to {data}"
    return interaction


async def forged_click(
    fake: FakeDiscord,
    user: FakeUser,
    home: FakeChannel,
    message: FakeMessage,
    custom_id: str,
    values: list[str] | None = None,
) -> str:
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
    if values is not None:
        data["values"] = values
    ix = await forge(fake, InteractionType.MESSAGE_COMPONENT, user, home, data, message=message)
    assert ix.ephemeral
    return await answer_text(fake, ix)


async def forged_command(
    fake: FakeDiscord, user: FakeUser, home: FakeChannel, target: FakeChannel, sub: str
) -> str:
    guild = fake.world.guild_of(home)
    assert guild is not None
    command = fake.world.synced_command("lockdown", guild.id)
    assert command is not None
    data = command_data(fake.world, command, [sub], {}, guild)
    ix = await forge(fake, InteractionType.APPLICATION_COMMAND, user, home, data, channel=target)
    assert ix.ephemeral
    return await answer_text(fake, ix)


async def test_forged_payloads_from_another_server_change_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    home = fake.create_guild("Home", members=["ana", "bo", "cy"], channels=("general",))
    away = fake.create_guild("Away", members=["mallory"], channels=("lounge",))
    ana, bo, cy = home.members
    (mallory,) = away.members  # the owner of Away: a moderator there
    fake.world.join(away, bo)  # bo plays in Home and is a member of Away too
    lounge = away.channel("lounge")
    async with start_client(make_bot(tmp_path / "db.sqlite"), fake) as bot:
        # Home's server unlocks a variant, so its lobbies carry the variant menu.
        await fake.slash(
            ana,
            "lockdown",
            subcommand="config variant",
            options={"variant": "hush", "state": "unlock"},
            channel=home.channel("general"),
        )
        # A message of Away's own, for the forged clicks to ride on.
        await fake.slash(mallory, "lockdown", subcommand="new", channel=lounge)
        assert await fake.wait_until(lambda: len(bot.hub.lobbies) == 1, within=5)
        carrier = fake.messages(fake.threads()[-1])[0]

        await fake.slash(ana, "lockdown", subcommand="new", channel=home.channel("general"))
        assert await fake.wait_until(lambda: len(bot.hub.lobbies) == 2, within=5)
        lobby_id = max(bot.hub.lobbies)
        lobby = bot.hub.lobbies[lobby_id]
        assert lobby.guild_id == home.id
        thread = fake.threads()[-1]
        assert await fake.wait_until(lambda: bool(fake.messages(thread)), within=5)

        def seats() -> list[tuple[int | None, str | None]]:
            return [(s.user_id, s.ai_kind) for s in lobby.seats]

        before = seats()
        for sender in (mallory, bo):
            for op in ("join", "ai", "noai", "leave", "start", "fill"):
                text = await forged_click(fake, sender, lounge, carrier, f"ld:l:{lobby_id}:{op}")
                assert REFUSAL in text, (sender.name, op, text)
            text = await forged_click(fake, sender, lounge, carrier, f"ld:v:{lobby_id}", ["hush"])
            assert REFUSAL in text
        assert seats() == before
        assert lobby.variants == []
        assert lobby_id in bot.hub.lobbies
        # Making Home's lobby casual from Away, even as Away's moderator.
        text = await forged_command(fake, mallory, lounge, thread, "casual")
        assert REFUSAL in text
        assert not await SeasonRepository(bot.database).casual(lobby_id)

        # In its own server, a guest may join but not manage AI seats (item 3).
        lobby_message = fake.messages(thread)[0]
        await fake.click(cy, lobby_message, f"ld:l:{lobby_id}:join")
        refused = await fake.click(cy, lobby_message, f"ld:l:{lobby_id}:ai")
        assert t("en", "error.lobby_not_host_ai") in await answer_text(fake, refused)
        assert sum(1 for s in lobby.seats if s.is_ai) == 0
        await fake.click(cy, lobby_message, f"ld:l:{lobby_id}:leave")

        # Ana's lobby is still open (one per person): cy hosts the game.
        game = await open_and_start(fake, bot, cy, [bo], 1, home.channel("general"))
        table = game.table
        game_id = table.game_id
        board_messages = len(fake.messages(game.thread))
        version = table.state.version

        # Buttons of the game: the hand, an action, a narrowed list, the abort confirmation.
        for custom_id in (
            f"ld:h:{game_id}",
            f"ld:a:{game_id}:{table.token}:D",
            f"ld:g:{game_id}:{table.token}:D",
            f"ld:x:{game_id}",
        ):
            for sender in (mallory, bo):
                text = await forged_click(fake, sender, lounge, carrier, custom_id)
                assert REFUSAL in text, (sender.name, custom_id, text)
        # Commands naming the game's thread from the other server.
        for sub in ("abort", "board", "hand", "leave"):
            for sender in (mallory, bo):
                text = await forged_command(fake, sender, lounge, game.thread, sub)
                assert REFUSAL in text, (sender.name, sub, text)
        assert bot.hub.tables.get(game_id) is table
        assert table.state.version == version
        assert len(fake.messages(game.thread)) == board_messages

        # "Play again" of a game that ended in Home (as `close_game` remembers it).
        bot.rooms.campaign.ending.finished[game_id] = FinishedGame(home.id, list(table.seats))
        lobbies = dict(bot.hub.lobbies)
        text = await forged_click(fake, bo, lounge, carrier, f"ld:p:{game_id}")
        assert REFUSAL in text
        assert bot.hub.lobbies == lobbies
