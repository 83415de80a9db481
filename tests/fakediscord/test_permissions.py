"""What a server owner does to the bot's channels (takes a permission, deletes a thread),
refused afterwards as Discord does."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeDiscord, ImpossibleAction, serve, start_client
from tests.fakediscord.protocol import Permission


def _client(seen: list[discord.Permissions]) -> discord.Client:
    client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)

    @tree.command(name="perms", description="What may the bot do here")
    async def perms(interaction: discord.Interaction) -> None:
        seen.append(interaction.app_permissions)
        await interaction.response.send_message("noted", ephemeral=True)

    return client


async def test_a_denied_permission_is_refused_and_shows_where_the_bot_looks() -> None:
    fake = FakeDiscord()
    guild = fake.create_guild(members=["ana"], channels=["general", "game-night"])
    night = guild.channel("game-night")
    seen: list[discord.Permissions] = []
    async with serve(fake), start_client(_client(seen), fake) as client:
        tree = client._connection._command_tree
        assert tree is not None
        await tree.sync()
        text = client.get_channel(night.id)
        assert isinstance(text, discord.TextChannel)
        thread = await text.create_thread(name="Game 1", type=discord.ChannelType.public_thread)
        await fake.deny_bot(night, Permission.CREATE_PUBLIC_THREADS)
        await fake.deny_bot(night, Permission.SEND_MESSAGES_IN_THREADS)
        assert await fake.wait_until(
            lambda: not text.permissions_for(text.guild.me).create_public_threads
        )
        with pytest.raises(discord.Forbidden) as no_thread:
            await text.create_thread(name="Game 2", type=discord.ChannelType.public_thread)
        assert no_thread.value.code == 50013
        with pytest.raises(discord.Forbidden) as no_post:
            await thread.send("a line")
        assert no_post.value.code == 50013
        await text.send("still allowed in the channel itself")
        await fake.slash(guild.owner, "perms", channel=night)
        await fake.slash(guild.owner, "perms", channel=guild.channel("general"))
        await fake.deny_bot(night, Permission.VIEW_CHANNEL)
        with pytest.raises(discord.Forbidden) as unseen:
            await text.send("unseen")
        assert unseen.value.code == 50001
        await fake.allow_bot(night, Permission.VIEW_CHANNEL | Permission.CREATE_PUBLIC_THREADS)
        await text.create_thread(name="Game 3", type=discord.ChannelType.public_thread)
    in_night, in_general = seen
    assert not in_night.create_public_threads
    assert not in_night.send_messages_in_threads
    assert in_night.send_messages
    assert in_general.create_public_threads
    assert [t.name for t in fake.threads(night)] == ["Game 1", "Game 3"]
    assert [m.content for m in fake.messages(night)] == ["still allowed in the channel itself"]


async def test_a_deleted_thread_is_unknown_to_discord_and_gone_from_the_bot() -> None:
    fake = FakeDiscord()
    guild = fake.create_guild(members=["ana"], channels=["general"])
    general = guild.channel("general")
    async with serve(fake), start_client(_client([]), fake) as client:
        text = client.get_channel(general.id)
        assert isinstance(text, discord.TextChannel)
        thread = await text.create_thread(name="Game 1", type=discord.ChannelType.public_thread)
        await thread.send("first line")
        await fake.delete_channel(fake.thread("Game 1"))
        assert await fake.wait_until(lambda: client.get_channel(thread.id) is None)
        with pytest.raises(discord.NotFound) as gone:
            await thread.send("second line")
        assert gone.value.code == 10003
        await text.send("the channel itself is still there")
        tree = client._connection._command_tree
        assert tree is not None
        await tree.sync()
        with pytest.raises(ImpossibleAction, match="cannot see"):
            await fake.slash(guild.owner, "perms", channel=fake.thread("Game 1"))
    assert fake.thread("Game 1").deleted
    assert [m.content for m in fake.messages(fake.thread("Game 1"))] == ["first line"]


async def test_the_bot_deletes_a_thread_only_with_manage_threads() -> None:
    fake = FakeDiscord()
    guild = fake.create_guild(members=["ana"], channels=["general"])
    general = guild.channel("general")
    async with serve(fake), start_client(_client([]), fake) as client:
        text = client.get_channel(general.id)
        assert isinstance(text, discord.TextChannel)
        kept = await text.create_thread(name="Kept", type=discord.ChannelType.public_thread)
        gone = await text.create_thread(name="Gone", type=discord.ChannelType.public_thread)
        await fake.deny_bot(general, Permission.MANAGE_THREADS)
        with pytest.raises(discord.Forbidden) as refused:
            await kept.delete()
        assert refused.value.code == 50013
        await fake.allow_bot(general, Permission.MANAGE_THREADS)
        await gone.delete()
        assert await fake.wait_until(lambda: client.get_channel(gone.id) is None)
    assert not fake.thread("Kept").deleted
    assert fake.thread("Gone").deleted
