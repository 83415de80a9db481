"""Discord's documented limits and refusals on the routes the bot uses, as the fake keeps
them (the fidelity table of this folder's README names each row's test here or elsewhere).

Time first: idle threads archive, an archived thread refuses edits and joins and is
unarchived by a message, and edits of messages older than an hour are limited (30046).
Time is moved by ageing the records, not by waiting."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import timedelta

import discord
import pytest

from tests.fakediscord import FakeChannel, FakeDiscord, ImpossibleAction, serve, start_client
from tests.fakediscord.aging import ARCHIVED_THREAD, OLD_MESSAGE_EDITS
from tests.fakediscord.protocol import ErrorCode
from tests.fakediscord.rest import ApiRequest

pytestmark = pytest.mark.e2e

HOUR = 3600.0


@asynccontextmanager
async def _thread(
    duration: int = 60,
) -> AsyncIterator[tuple[FakeDiscord, discord.Thread, FakeChannel]]:
    """A client connected to a fake with one thread the bot started."""
    fake = FakeDiscord()
    guild = fake.create_guild(members=["ana"], channels=("general",))
    client = discord.Client(intents=discord.Intents.default())
    async with serve(fake), start_client(client, fake):
        general = client.get_channel(guild.channel("general").id)
        assert isinstance(general, discord.TextChannel)
        thread = await general.create_thread(name="game", auto_archive_duration=duration)
        yield fake, thread, fake.world.channels[thread.id]


def _idle(channel: FakeChannel, seconds: float) -> None:
    channel.active_at -= seconds


async def test_a_thread_idle_past_its_period_archives_and_refuses_edits() -> None:
    async with _thread(duration=60) as (fake, thread, record):
        message = await thread.send("board")
        _idle(record, 59 * 60)
        await message.edit(content="still active")  # 59 minutes: not yet
        _idle(record, 2 * 60)
        with pytest.raises(discord.HTTPException) as refused:
            await message.edit(content="too late")
        assert refused.value.code == ARCHIVED_THREAD
        assert record.archived
        assert message.content == "board"
        assert fake.world.messages[message.id].content == "still active"


async def test_an_edit_is_not_activity_but_a_message_is_and_unarchives() -> None:
    async with _thread(duration=60) as (_fake, thread, record):
        message = await thread.send("board")
        _idle(record, 50 * 60)
        await message.edit(content="edited")  # an edit does not count as activity
        _idle(record, 20 * 60)
        sent = await thread.send("a new board")  # unarchives, and counts
        assert not record.archived
        await sent.edit(content="edited again")
        await message.delete()  # deleting works in any thread


async def test_an_archived_thread_refuses_joins_and_commands_and_a_locked_one_messages() -> None:
    async with _thread(duration=60) as (fake, thread, record):
        _idle(record, 2 * HOUR)
        ana = fake.guilds[0].members[0]
        with pytest.raises(discord.HTTPException) as refused:
            await thread.add_user(discord.Object(ana.id))
        assert refused.value.code == ARCHIVED_THREAD
        with pytest.raises(ImpossibleAction):
            await fake.slash(ana, "lockdown", subcommand="new", channel=record)
        record.locked = True
        with pytest.raises(discord.HTTPException) as locked:
            await thread.send("hello")
        assert locked.value.code == ARCHIVED_THREAD
        await thread.edit(archived=False, locked=False)  # the thread's creator may
        assert not record.archived
        await thread.send("hello again")


async def test_only_discords_four_periods_are_accepted() -> None:
    async with _thread(duration=10080) as (_fake, thread, record):
        assert record.auto_archive_duration == 10080
        with pytest.raises(discord.HTTPException) as refused:
            await thread.edit(auto_archive_duration=120)  # type: ignore[arg-type]
        assert refused.value.code == ErrorCode.INVALID_FORM_BODY


async def test_edits_of_messages_older_than_an_hour_are_refused_with_30046() -> None:
    async with _thread(duration=10080) as (fake, thread, _record):
        old = await thread.send("an hour-old board")
        fresh = await thread.send("a new board")
        first = fake.world.messages[old.id].versions[0]
        aged = replace(first, at=first.at - timedelta(seconds=HOUR + 1))
        fake.world.messages[old.id].versions[0] = aged
        with pytest.raises(discord.HTTPException) as refused:
            await old.edit(content="edited")
        assert (refused.value.status, refused.value.code) == (400, OLD_MESSAGE_EDITS)
        await fresh.edit(content="a message under an hour old is edited")
        # A test may allow some, as Discord does (it publishes no number).
        fake.aging.old_edits = 1
        await old.edit(content="one allowed")
        with pytest.raises(discord.HTTPException):
            await old.edit(content="and no more this hour")


async def test_speed_makes_discords_hours_pass_in_seconds() -> None:
    async with _thread(duration=60) as (fake, thread, record):
        message = await thread.send("board")
        fake.aging.speed = 2 * HOUR  # two hours a second
        record.active_at -= 1.0
        with pytest.raises(discord.HTTPException) as refused:
            await message.edit(content="late")
        assert refused.value.code == ARCHIVED_THREAD


# Discord's other refusals on the routes the bot uses, asked of the fake directly. ------


def _request(fake: FakeDiscord, method: str, path: str, body: object = None) -> ApiRequest:
    return ApiRequest(method, path, {}, body, [], token=fake.token)


async def test_a_second_answer_to_an_interaction_is_refused_with_40060() -> None:
    async with _thread() as (fake, _thread_channel, _record):
        ana = fake.guilds[0].members[0]
        command = {"name": "hello", "description": "Say hello", "type": 1}
        path = f"/applications/{fake.application_id}/commands"
        assert (await fake.rest.handle(_request(fake, "PUT", path, [command]))).status == 200
        ix = await fake.slash(ana, "hello", channel=fake.guilds[0].channel("general"), wait=False)
        callback = f"/interactions/{ix.id}/{ix.token}/callback"
        first = await fake.rest.handle(_request(fake, "POST", callback, {"type": 5}))
        again = await fake.rest.handle(_request(fake, "POST", callback, {"type": 5}))
        assert first.status == 204
        assert (again.status, again.body["code"]) == (400, ErrorCode.ALREADY_ACKNOWLEDGED)


async def test_a_message_of_someone_else_cannot_be_edited_50005() -> None:
    async with _thread() as (fake, thread, _record):
        sent = await thread.send("mine")
        fake.world.messages[sent.id].author_id = fake.guilds[0].members[0].id
        reply = await fake.rest.handle(
            _request(fake, "PATCH", f"/channels/{thread.id}/messages/{sent.id}", {"content": "x"})
        )
        assert (reply.status, reply.body["code"]) == (403, ErrorCode.CANNOT_EDIT_OTHERS_MESSAGE)


async def test_a_thread_name_must_be_one_to_a_hundred_characters() -> None:
    async with _thread() as (fake, thread, _record):
        parent = thread.parent_id
        for name in ("", "x" * 101):
            reply = await fake.rest.handle(
                _request(fake, "POST", f"/channels/{parent}/threads", {"name": name, "type": 11})
            )
            assert (reply.status, reply.body["code"]) == (400, ErrorCode.INVALID_FORM_BODY)
