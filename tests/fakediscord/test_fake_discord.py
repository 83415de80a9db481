"""Smoke tests: a throwaway discord.py bot, defined here, played against the fake Discord.

The e2e tests run real discord.py over loopback HTTP and websocket; the wiring tests drive the
same bot with no socket. Both assert what Discord received, through the FakeDiscord API.
"""

from __future__ import annotations

import asyncio
import io
import re
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord import (
    CallbackType,
    FakeDiscord,
    FakeGuild,
    ImpossibleAction,
    InteractionNotAnswered,
    MessageFlag,
    serve,
    start_client,
    wire,
)


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


PNG = _png()


def _file(name: str) -> discord.File:
    return discord.File(io.BytesIO(PNG), filename=name)


class AgainButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ping:again:(?P<n>\d+)"
):
    """A persistent button: its state lives in the custom_id, so it works after a restart."""

    def __init__(self, count: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Again", style=discord.ButtonStyle.primary, custom_id=f"ping:again:{count}"
            )
        )
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AgainButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(AgainButton(self.count + 1))
        await interaction.response.edit_message(content=f"Pinged {self.count + 1} times", view=view)


class RulesModal(discord.ui.Modal, title="House rules"):
    rules: discord.ui.TextInput[RulesModal] = discord.ui.TextInput(label="Rules", custom_id="rules")

    def __init__(self, seen: BotLog) -> None:
        super().__init__()
        self.seen = seen

    async def on_submit(self, interaction: discord.Interaction) -> None:
        self.seen.rules.append(self.rules.value)
        await interaction.response.send_message("Rules saved", ephemeral=True)


class SuspectSelect(discord.ui.Select[discord.ui.View]):
    def __init__(self, seen: BotLog) -> None:
        options = [discord.SelectOption(label=n, value=n) for n in ("red", "blue")]
        super().__init__(custom_id="vote:suspect", options=options)
        self.seen = seen

    async def callback(self, interaction: discord.Interaction) -> None:
        self.seen.picked.append(self.values)
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"Voted {self.values[0]}")


@dataclass
class BotLog:
    """What the throwaway bot observed, for the tests to check from the bot's side."""

    dm_errors: list[int] = field(default_factory=list)
    failures: list[int] = field(default_factory=list)
    picked: list[list[str]] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)


def make_bot(seen: BotLog, *, slow: float = 0.0) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    lockdown = app_commands.Group(name="lockdown", description="Play Lockdown")

    @lockdown.command(name="ping", description="Check the game master answers")
    async def ping(interaction: discord.Interaction) -> None:
        await asyncio.sleep(slow)
        await interaction.response.send_message("pong", ephemeral=True)
        view = discord.ui.View(timeout=None)
        view.add_item(AgainButton(1))
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send("Pinged 1 times", view=view)

    @lockdown.command(name="table", description="Open a game thread with the board")
    async def table(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        thread = await interaction.channel.create_thread(
            name=name, type=discord.ChannelType.public_thread
        )
        await thread.add_user(interaction.user)
        await thread.send("The board", file=_file("board.png"))
        await interaction.followup.send(f"Table ready: {thread.mention}", ephemeral=True)

    @lockdown.command(name="whisper", description="Send a private message")
    async def whisper(interaction: discord.Interaction, player: discord.User) -> None:
        try:
            await player.send("Your secret role")
        except discord.Forbidden as error:
            seen.dm_errors.append(error.code)
            await interaction.response.send_message("Their DMs are closed", ephemeral=True)
        else:
            await interaction.response.send_message("Sent", ephemeral=True)

    @lockdown.command(name="vote", description="Vote for a suspect")
    async def vote(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=30)
        view.add_item(SuspectSelect(seen))
        await interaction.response.send_message("Who is it?", view=view)

    @lockdown.command(name="rules", description="Write the house rules")
    async def rules(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(RulesModal(seen))

    @lockdown.command(name="redraw", description="Redraw the board")
    async def redraw(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Board v1", file=_file("v1.png"))
        board = await interaction.original_response()
        await board.edit(content="Board v2", attachments=[_file("v2.png")])
        assert isinstance(interaction.channel, discord.TextChannel)
        copy = await interaction.channel.send("Copy", file=_file("copy.png"))
        copy = await copy.edit(
            content="Copy, annotated", attachments=[*copy.attachments, _file("notes.png")]
        )
        await copy.edit(content="Copy, final")

    @lockdown.command(name="shout", description="Say too much")
    async def shout(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("A" * 2001)

    bot.tree.add_command(lockdown)

    async def on_tree_error(
        interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CommandInvokeError) and isinstance(
            error.original, discord.HTTPException
        ):
            seen.failures.append(error.original.code)

    bot.tree.error(on_tree_error)
    bot.add_dynamic_items(AgainButton)
    return bot


def _guild(fake: FakeDiscord) -> FakeGuild:
    guild = fake.create_guild("Lockdown Club", members=["ana", "bruno", "chloe"], locale="fr")
    guild.member("chloe").accepts_dms = False
    return guild


@pytest.mark.e2e
async def test_slash_button_thread_png_and_closed_dms_over_the_wire(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    guild = _guild(fake)
    ana, bruno, chloe = guild.members
    general = guild.channel("general")
    seen = BotLog()
    bot = make_bot(seen)
    async with start_client(bot, fake):
        assert [g.id for g in bot.guilds] == [guild.id]
        synced = await bot.tree.sync()
        assert [c.name for c in synced] == ["lockdown"]

        ping = await fake.slash(ana, "lockdown", subcommand="ping", channel=general)
        assert ping.answered_in_time
        assert ping.response_type is CallbackType.CHANNEL_MESSAGE
        assert ping.response_data is not None
        assert ping.response_data["flags"] & MessageFlag.EPHEMERAL
        assert [m.content for m in fake.ephemerals(ana)] == ["pong"]
        assert ping.payload["data"]["id"] == fake.commands()[0]["id"]
        assert ping.payload["locale"] == "fr"

        assert await fake.wait_until(lambda: len(fake.messages(general)) == 1)
        public = fake.last_message(general)
        assert public.content == "Pinged 1 times"
        assert public.id in [m.id for m in bot.cached_messages]  # MESSAGE_CREATE arrived
        assert [(b.custom_id, b.label, b.disabled) for b in public.buttons] == [
            ("ping:again:1", "Again", False)
        ]

        click = await fake.click(bruno, public, "ping:again:1")
        assert click.response_type is CallbackType.UPDATE_MESSAGE
        assert public.content == "Pinged 2 times"
        assert public.button(label="Again").custom_id == "ping:again:2"
        assert [v.content for v in public.versions] == ["Pinged 1 times", "Pinged 2 times"]

        table = await fake.slash(
            ana, "lockdown", subcommand="table", options={"name": "Game 1"}, channel=general
        )
        assert table.response_type is CallbackType.DEFERRED_CHANNEL_MESSAGE
        assert await fake.wait_until(
            lambda: table.original is not None and not table.original.loading
        )
        thread = fake.thread("Game 1")
        assert thread.parent_id == general.id
        assert isinstance(bot.get_channel(thread.id), discord.Thread)  # THREAD_CREATE arrived
        assert ana.id in thread.member_ids
        [board] = fake.messages(thread)
        [image] = board.attachments
        assert (image.filename, image.content_type, image.data) == ("board.png", "image/png", PNG)
        assert image.is_png
        assert table.original is not None
        assert table.original.ephemeral
        assert table.original.content == f"Table ready: <#{thread.id}>"

        closed = await fake.slash(
            ana, "lockdown", subcommand="whisper", options={"player": chloe}, channel=general
        )
        assert seen.dm_errors == [50007]
        assert closed.original is not None
        assert closed.original.content == "Their DMs are closed"
        assert fake.dms(chloe) == []

        await fake.slash(
            ana, "lockdown", subcommand="whisper", options={"player": bruno}, channel=general
        )
        assert [m.content for m in fake.dms(bruno)] == ["Your secret role"]
    assert fake.unknown_requests == []


@pytest.mark.e2e
async def test_a_restarted_bot_still_answers_old_persistent_buttons(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    guild = _guild(fake)
    ana = guild.members[0]
    general = guild.channel("general")
    async with start_client(make_bot(BotLog()), fake) as first:
        await first.tree.sync()
        await fake.slash(ana, "lockdown", subcommand="ping", channel=general)
        assert await fake.wait_until(lambda: len(fake.messages(general)) == 1)
    public = fake.last_message(general)
    async with start_client(make_bot(BotLog()), fake):
        click = await fake.click(ana, public, "ping:again:1")
    assert click.answered_in_time
    assert public.content == "Pinged 2 times"


@pytest.mark.e2e
async def test_edits_keep_their_history_and_attachments(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    guild = _guild(fake)
    general = guild.channel("general")
    async with start_client(make_bot(BotLog()), fake) as bot:
        await bot.tree.sync()
        redraw = await fake.slash(
            guild.members[0], "lockdown", subcommand="redraw", channel=general
        )
        assert await fake.wait_until(lambda: fake.last_message(general).content == "Copy, final")
    board, copy = fake.messages(general)
    assert board is redraw.original
    assert [(v.content, [a.filename for a in v.attachments]) for v in board.versions] == [
        ("Board v1", ["v1.png"]),
        ("Board v2", ["v2.png"]),
    ]
    assert [(v.content, [a.filename for a in v.attachments]) for v in copy.versions] == [
        ("Copy", ["copy.png"]),
        ("Copy, annotated", ["copy.png", "notes.png"]),
        ("Copy, final", ["copy.png", "notes.png"]),
    ]
    assert all(a.data == PNG for a in copy.attachments)


@pytest.mark.e2e
async def test_an_unknown_route_answers_404_and_is_recorded() -> None:
    fake = FakeDiscord()
    general = _guild(fake).channel("general")
    async with serve(fake), start_client(make_bot(BotLog()), fake) as bot:
        channel = bot.get_channel(general.id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.NotFound):
            await channel.webhooks()
    assert [(r.method, r.path) for r in fake.unknown_requests] == [
        ("GET", f"/channels/{general.id}/webhooks")
    ]
    with pytest.raises(AssertionError, match="routes the fake Discord does not know"):
        fake.assert_no_unknown_routes()


@pytest.mark.e2e
async def test_a_dropped_gateway_resumes_and_the_bot_answers_again() -> None:
    fake = FakeDiscord()
    guild = _guild(fake)
    async with serve(fake) as server, start_client(make_bot(BotLog()), fake) as bot:
        await bot.tree.sync()
        session = bot.ws.session_id
        await server.drop_connections()
        assert await fake.wait_until(lambda: fake.connected)
        assert bot.ws.session_id == session  # resumed, not identified again
        ping = await fake.slash(
            guild.members[0], "lockdown", subcommand="ping", channel=guild.channel("general")
        )
        assert ping.answered_in_time


async def test_wiring_without_sockets_drives_the_same_bot() -> None:
    fake = FakeDiscord()
    guild = _guild(fake)
    ana, bruno, _ = guild.members
    general = guild.channel("general")
    seen = BotLog()
    async with wire(make_bot(seen), fake):
        ping = await fake.slash(ana, "lockdown", subcommand="ping", channel=general)
        assert ping.ephemeral
        assert await fake.wait_until(lambda: len(fake.messages(general)) == 1)
        public = fake.last_message(general)
        click = await fake.click(bruno, public, "ping:again:1")
        assert click.response_type is CallbackType.UPDATE_MESSAGE
        assert public.content == "Pinged 2 times"

        vote = await fake.slash(bruno, "lockdown", subcommand="vote", channel=general)
        assert vote.original is not None
        pick = await fake.select(ana, vote.original, "vote:suspect", ["blue"])
        assert pick.response_type is CallbackType.DEFERRED_UPDATE_MESSAGE
        assert await fake.wait_until(lambda: vote.original is not None and vote.original.edited)
        assert vote.original.content == "Voted blue"
        assert seen.picked == [["blue"]]
        with pytest.raises(ImpossibleAction):
            await fake.select(ana, vote.original, "vote:suspect", ["green"])

        opened = await fake.slash(ana, "lockdown", subcommand="rules", channel=general)
        assert opened.response_type is CallbackType.MODAL
        submitted = await fake.submit_modal(ana, opened, {"rules": "No peeking"})
        assert seen.rules == ["No peeking"]
        assert submitted.original is not None
        assert submitted.original.content == "Rules saved"
    fake.assert_no_unknown_routes()
    fake.assert_no_contract_violations()


async def test_wiring_reports_discords_refusals() -> None:
    fake = FakeDiscord()
    guild = _guild(fake)
    ana = guild.members[0]
    general = guild.channel("general")
    seen = BotLog()
    async with wire(make_bot(seen), fake):
        shout = await fake.slash(ana, "lockdown", subcommand="shout", channel=general, wait=False)
        await fake.settle()
        assert not shout.answered
        assert seen.failures == [50035]
        assert [v.field for v in fake.contract_violations] == ["data.content"]
        with pytest.raises(ImpossibleAction):
            await fake.slash(ana, "lockdown", subcommand="dance", channel=general)

    fake.interaction_deadline = 0.05
    slow = BotLog()
    async with wire(make_bot(slow, slow=0.2), fake):
        with pytest.raises(InteractionNotAnswered, match="refused its late answers"):
            await fake.slash(ana, "lockdown", subcommand="ping", channel=general)
        assert await fake.wait_until(lambda: slow.failures == [10062])
