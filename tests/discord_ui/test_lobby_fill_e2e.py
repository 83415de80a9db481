"""Tables that fill themselves (issue 23) on the fake Discord: the "looking for players"
ping, one open lobby per person, a full lobby starting by itself, AI seats filling
the rest at the host's word, and a lobby closing itself after the server's time-out.

The clock runs a thousand times fast: a one-minute time-out passes in 60 ms.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.texts import t
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.records import FakeChannel, FakeMessage, FakeUser
from tests.moderation.test_moderation_e2e import answer_text, configure

pytestmark = pytest.mark.e2e

PLAYERS_ROLE = 640000000000000042


async def open_lobby(fake: FakeDiscord, host: FakeUser, channel: FakeChannel) -> FakeMessage:
    """/lockdown new, and the lobby's card once its new thread shows it."""
    before = len(fake.threads())
    ix = await fake.slash(host, "lockdown", subcommand="new", channel=channel)
    assert ix.answered_in_time
    assert await fake.wait_until(
        lambda: len(fake.threads()) > before and bool(fake.messages(fake.threads()[-1])), within=5
    )
    return fake.messages(fake.threads()[-1])[0]


def button(card: FakeMessage, op: str) -> str:
    return next(b.custom_id for b in card.buttons if b.custom_id.endswith(f":{op}"))


async def test_a_new_lobby_pings_the_players_role_once_and_mentions_nothing_else(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        said = await configure(fake_discord, ana, general, "players_role", f"<@&{PLAYERS_ROLE}>")
        assert t("en", "config.saved") in said
        card = await open_lobby(fake_discord, ana, general)
        thread = fake_discord.threads()[-1]
        assert f"<@&{PLAYERS_ROLE}>" in card.content
        await fake_discord.click(bo, card, button(card, "join"))
        await fake_discord.settle()
        pings = [
            r
            for r in fake_discord.bot_requests
            if isinstance(r.body, dict) and "<@&" in str(r.body.get("content") or "")
        ]
        assert len(pings) == 1, "the role is pinged once, when the lobby opens"
        ping = pings[0]
        assert (ping.method, ping.channel_id) == ("POST", thread.id)
        allowed = ping.body["allowed_mentions"]
        assert allowed["parse"] == []
        assert [int(r) for r in allowed["roles"]] == [PLAYERS_ROLE]
        assert not allowed.get("users")
        # The card says how many seats are taken and free, and since when it waits.
        lobby = next(iter(bot.hub.lobbies.values()))
        text = fake_discord.messages(thread)[0].text
        assert t("en", "lobby.seats", taken=2, free=4) in text
        assert f"<t:{int(lobby.opened_at)}:R>" in text
        fake_discord.assert_no_contract_violations()


async def test_a_lobby_without_a_players_role_mentions_nobody(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    async with start_client(make_bot(tmp_path), fake_discord):
        card = await open_lobby(fake_discord, guild.members[0], guild.channel("general"))
        assert "<@&" not in card.content
        assert t("en", "lobby.seats", taken=1, free=5) in card.text


async def test_one_open_lobby_per_person_links_the_open_one(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        await open_lobby(fake_discord, bo, general)
        first = fake_discord.threads()[-1]
        again = await fake_discord.slash(bo, "lockdown", subcommand="new", channel=general)
        assert t("en", "lobby.already_open", thread=first.mention) in await answer_text(
            fake_discord, again
        )
        await fake_discord.settle()
        assert len(fake_discord.threads()) == 1
        assert len(bot.hub.lobbies) == 1
        # Someone else still opens their own; a moderator may lift the limit.
        await open_lobby(fake_discord, ana, general)
        await configure(fake_discord, ana, general, "lobbies_per_person", "0")
        await open_lobby(fake_discord, bo, general)
        assert len(bot.hub.lobbies) == 3


async def test_a_full_lobby_starts_by_itself_when_the_server_says_so(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        await configure(fake_discord, ana, general, "start_when_full", "on")
        card = await open_lobby(fake_discord, ana, general)
        thread = fake_discord.threads()[-1]
        for _ in range(4):
            await fake_discord.click(ana, card, button(card, "ai"))
        assert bot.hub.table_in(thread.id) is None
        last = await fake_discord.click(bo, card, button(card, "join"))
        assert last.answered_in_time
        assert await fake_discord.wait_until(lambda: bot.hub.table_in(thread.id) is not None)
        table = bot.hub.table_in(thread.id)
        assert table is not None
        assert [s.user_id for s in table.seats if not s.is_ai] == [ana.id, bo.id]
        assert await fake_discord.wait_until(
            lambda: t("en", "lobby.started_full") in fake_discord.messages(thread)[0].content
        )


async def test_the_host_fills_the_free_seats_with_ai_as_the_game_starts(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        card = await open_lobby(fake_discord, ana, guild.channel("general"))
        thread = fake_discord.threads()[-1]
        await fake_discord.click(bo, card, button(card, "join"))
        guest = await fake_discord.click(bo, card, button(card, "fill"))
        assert t("en", "error.lobby_not_host_ai") in await answer_text(fake_discord, guest)
        assert bot.hub.table_in(thread.id) is None
        assert (await fake_discord.click(ana, card, button(card, "fill"))).answered_in_time
        assert await fake_discord.wait_until(lambda: bot.hub.table_in(thread.id) is not None)
        table = bot.hub.table_in(thread.id)
        assert table is not None
        assert [s.is_ai for s in table.seats] == [False, False, True, True, True, True]


async def test_a_lobby_closes_itself_after_the_servers_time_out(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        await configure(fake_discord, ana, general, "lobby_timeout", "1")
        card = await open_lobby(fake_discord, bo, general)
        thread = fake_discord.threads()[-1]
        closed = t("en", "lobby.closed_timeout", minutes=1)
        assert await fake_discord.wait_until(
            lambda: any(closed in m.content for m in fake_discord.messages(thread)), within=5
        )
        assert await fake_discord.wait_until(lambda: thread.archived, within=5)
        assert not bot.hub.lobbies
        late = await fake_discord.click(ana, card, button(card, "join"))
        assert t("en", "error.lobby_gone") in await answer_text(fake_discord, late)
        # The host may open another at once: the closed one no longer counts.
        await open_lobby(fake_discord, bo, general)
        assert len(bot.hub.lobbies) == 1
