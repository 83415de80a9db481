"""Lobbies across a restart: every change is stored before it shows, and comes back.

The people keep clicking the lobby message posted before the restart (its
buttons and its variant menu); the game they start has exactly the seats and
the variant chosen on either side of it.
"""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from bot.storage.models import GameStatus
from bot.storage.repository import GameRepository
from bot.storage.servers import ServerRepository
from bot.storage.stats import StatsRepository
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.lobby import Lobby, LobbyError
from bot.table.persist import StoredGames
from bot.table.server_book import ServerBook
from bot.texts import t
from tests.discord_ui.players import open_and_start
from tests.fakediscord import FakeDiscord
from tests.fakediscord.records import FakeChannel, FakeInteraction, FakeMessage, FakeUser
from tests.resume.helpers import Process
from tests.storage.conftest import DatabaseFactory
from tests.table.fakes import ManualScheduler, RandomSeat, RecordingPresenter

pytestmark = [pytest.mark.resume, pytest.mark.e2e]


async def open_lobby(
    fake: FakeDiscord, host: FakeUser, channel: FakeChannel
) -> tuple[FakeChannel, FakeMessage, int]:
    """/lockdown new: the lobby's thread, its message and its id (read off a button)."""
    before = len(fake.threads())
    assert (await fake.slash(host, "lockdown", subcommand="new", channel=channel)).answered_in_time
    assert await fake.wait_until(
        lambda: len(fake.threads()) > before and bool(fake.messages(fake.threads()[-1])), within=5
    )
    thread = fake.threads()[-1]
    message = fake.messages(thread)[0]
    join = next(b.custom_id for b in message.buttons if b.custom_id.endswith(":join"))
    return thread, message, int(join.split(":")[2])


async def reply(fake: FakeDiscord, ix: FakeInteraction) -> str:
    """The private answer to a click ("" when the lobby message was edited in its place)."""
    assert ix.answered_in_time
    await fake.settle(quiet=0.05)
    answers = [m for m in (ix.original, *ix.followups) if m is not None and m.ephemeral]
    return "\n".join(m.text for m in answers)


def seating(seats: list[object]) -> list[tuple[int | None, str | None]]:
    return [(s.user_id, s.ai_kind) for s in seats]  # type: ignore[attr-defined]


async def test_a_lobby_comes_back_after_a_restart_and_its_old_buttons_start_the_game(
    fake_discord: FakeDiscord, databases: DatabaseFactory
) -> None:
    guild = fake_discord.create_guild(
        "Club", members=["ana", "bo", "cy", "dee"], channels=("general",)
    )
    ana, bo, cy, dee = guild.members
    database = databases()
    await database.migrate()
    await ServerBook(
        ServerRepository(database), StatsRepository(database), GameRepository(database)
    ).set_variant(guild.id, ana.id, "hush", "unlock")
    first = Process(fake_discord, database)
    await first.start()
    thread, message, lobby_id = await open_lobby(fake_discord, bo, guild.channel("general"))
    assert (await fake_discord.click(cy, message, f"ld:l:{lobby_id}:join")).answered_in_time
    assert (await fake_discord.click(bo, message, f"ld:l:{lobby_id}:ai")).answered_in_time
    picked = await fake_discord.select(bo, message, f"ld:v:{lobby_id}", ["hush"])
    assert picked.answered_in_time
    expected = [(bo.id, None), (cy.id, None), (None, "cautious")]
    assert seating(first.bot.hub.lobbies[lobby_id].seats) == expected
    await fake_discord.settle(quiet=0.1)
    await first.kill()

    second = Process(fake_discord, databases(), previous=first)
    bot = await second.start()
    lobby = bot.hub.lobbies[lobby_id]
    assert seating(lobby.seats) == expected
    assert lobby.variants == ["hush"]
    assert bot.service.lobby_langs[lobby_id] == "en"
    assert bot.service.plans[lobby_id].offered == ["hush"]
    # The menu posted before the restart still answers, and so do the buttons.
    again = await fake_discord.select(bo, message, f"ld:v:{lobby_id}", ["hush"])
    assert await reply(fake_discord, again) == ""
    joined = await fake_discord.click(dee, message, f"ld:l:{lobby_id}:join")
    assert await reply(fake_discord, joined) == ""
    # The card is edited once the join is stored: on a loaded machine, after a quiet moment.
    assert await fake_discord.wait_until(lambda: dee.name in message.text, within=5)
    assert message.edited
    assert (await fake_discord.click(bo, message, f"ld:l:{lobby_id}:start")).answered_in_time
    assert await fake_discord.wait_until(lambda: bot.hub.table_in(thread.id) is not None)
    table = bot.hub.table_in(thread.id)
    assert table is not None
    assert table.game_id == lobby_id
    assert seating(table.seats) == [*expected, (dee.id, None)]
    assert table.state.rules.variants == ("hush",)
    board = f"ld:h:{lobby_id}"  # posted once the started game is stored
    assert await fake_discord.wait_until(
        lambda: any(b.custom_id == board for m in fake_discord.messages(thread) for b in m.buttons)
    )
    stored = await GameRepository(databases()).get_game(lobby_id)
    assert stored.status is GameStatus.RUNNING
    assert stored.variants == ("hush",)
    assert [(s.user_id, s.ai_kind) for s in stored.seats] == [*expected, (dee.id, None)]
    await fake_discord.settle(quiet=0.1)
    await second.kill()


async def test_a_lobby_change_that_cannot_be_stored_is_undone_and_said(
    fake_discord: FakeDiscord, databases: DatabaseFactory
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    database = databases()
    await database.migrate()
    await ServerBook(
        ServerRepository(database), StatsRepository(database), GameRepository(database)
    ).set_variant(guild.id, ana.id, "hush", "unlock")
    process = Process(fake_discord, database)
    bot = await process.start()
    _thread, message, lobby_id = await open_lobby(fake_discord, ana, guild.channel("general"))
    assert (await fake_discord.click(bo, message, f"ld:l:{lobby_id}:join")).answered_in_time
    await fake_discord.settle(quiet=0.1)
    shown = message.text
    games = bot.stored_games.games
    stored_before = await games.get_game(lobby_id)
    replace_seats = games.replace_seats

    async def broken(*args: object, **kwargs: object) -> None:
        raise OSError("the disk is gone")

    games.replace_seats = broken  # type: ignore[method-assign]
    lobby = bot.hub.lobbies[lobby_id]
    sorry = t("en", "error.try_again")
    assert (
        await reply(fake_discord, await fake_discord.click(ana, message, f"ld:l:{lobby_id}:leave"))
        == sorry
    )
    assert (
        await reply(fake_discord, await fake_discord.click(cy, message, f"ld:l:{lobby_id}:join"))
        == sorry
    )
    chose = await fake_discord.select(ana, message, f"ld:v:{lobby_id}", ["hush"])
    assert await reply(fake_discord, chose) == sorry
    assert seating(lobby.seats) == [(ana.id, None), (bo.id, None)]
    assert [s.seat for s in lobby.seats] == [0, 1]
    assert lobby.variants == []
    assert await games.get_game(lobby_id) == stored_before
    assert message.text == shown

    games.replace_seats = replace_seats  # type: ignore[method-assign]
    assert (
        await reply(fake_discord, await fake_discord.click(cy, message, f"ld:l:{lobby_id}:join"))
        == ""
    )
    assert [s.user_id for s in (await games.get_game(lobby_id)).seats] == [ana.id, bo.id, cy.id]
    await fake_discord.settle(quiet=0.1)
    await process.kill()


async def test_two_clicks_on_one_lobby_never_interleave_their_stores(
    databases: DatabaseFactory,
) -> None:
    """A failed store puts back the lobby as it was before *its* change: had a second
    click changed it in between, that change (stored) would be wiped from memory."""
    database = databases()
    await database.migrate()
    stored_games = StoredGames(BatchingGameRepository(database))
    hub = GameHub(
        ManualScheduler(),
        lambda kind, seat, _seed: RandomSeat(seat),
        lambda game_id, lobby: RecordingPresenter(),
        stored_games=stored_games,
    )
    lobby = await hub.open_lobby(1, 2, 100, "ana")
    store = stored_games.store_lobby
    calls = 0

    async def slow_then_failing_once(changed: Lobby) -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            await asyncio.sleep(0.05)
            raise OSError("lost the connection")
        await store(changed)

    stored_games.store_lobby = slow_then_failing_once  # type: ignore[method-assign]
    first = asyncio.create_task(hub.change_lobby(lobby, lambda it: it.join(101, "bo")))
    await asyncio.sleep(0)
    second = asyncio.create_task(hub.change_lobby(lobby, lambda it: it.join(102, "cy")))
    with pytest.raises(LobbyError) as failed:
        await first
    assert failed.value.key == "error.try_again"
    await second
    stored = await stored_games.games.get_game(lobby.lobby_id)
    assert seating(lobby.seats) == [(100, None), (102, None)]
    assert [(s.user_id, s.ai_kind) for s in stored.seats] == seating(lobby.seats)
    with pytest.raises(LobbyError, match="lobby_already_seated"):
        await hub.change_lobby(lobby, lambda it: it.join(102, "cy"))
    assert calls == 2, "a refused change is not stored"


async def test_a_broken_lobby_is_closed_and_told_while_another_lobby_and_a_game_resume(
    fake_discord: FakeDiscord, databases: DatabaseFactory
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    general = guild.channel("general")
    first = Process(fake_discord, databases())
    bot = await first.start()
    game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, general)
    _, healthy_message, healthy = await open_lobby(fake_discord, bo, general)
    bad_seat_thread, bad_seat_message, bad_seat = await open_lobby(fake_discord, cy, general)
    bad_json_thread, _, bad_json = await open_lobby(fake_discord, ana, general)
    await fake_discord.settle(quiet=0.1)
    await first.kill()
    database = databases()
    async with database.write() as conn:
        await conn.execute(text("UPDATE seats SET seat = 4 WHERE game_id = :id"), {"id": bad_seat})
        await conn.execute(
            text("UPDATE games SET variants = '{oops', language = 'fr' WHERE id = :id"),
            {"id": bad_json},
        )

    second = Process(fake_discord, databases(), previous=first)
    bot2 = await second.start()
    assert set(bot2.hub.lobbies) == {healthy}
    assert set(bot2.hub.tables) == {game.table.game_id}
    # Each broken lobby's thread is told, in the lobby's language, and the lobby is closed.
    await fake_discord.settle(quiet=0.1)
    told = {
        bad_seat_thread.id: t("en", "notice.lobby_unloadable"),
        bad_json_thread.id: t("fr", "notice.lobby_unloadable"),
    }

    def notices(thread: FakeChannel) -> list[str]:
        return [m.content for m in fake_discord.messages(thread) if m.content in told.values()]

    for thread in (bad_seat_thread, bad_json_thread):
        assert notices(thread) == [told[thread.id]]
    async with databases().read() as conn:
        statuses = await conn.execute(
            text("SELECT status FROM games WHERE id IN (:a, :b)"), {"a": bad_seat, "b": bad_json}
        )
        assert [row.status for row in statuses] == [GameStatus.ABORTED.value] * 2
    gone = await fake_discord.click(ana, bad_seat_message, f"ld:l:{bad_seat}:join")
    assert await reply(fake_discord, gone) == t("en", "error.lobby_gone")
    joined = await fake_discord.click(ana, healthy_message, f"ld:l:{healthy}:join")
    assert await reply(fake_discord, joined) == ""
    assert seating(bot2.hub.lobbies[healthy].seats) == [(bo.id, None), (ana.id, None)]
    newer = await bot2.hub.open_lobby(guild.id, general.id, cy.id, "cy")
    assert newer.lobby_id > max(healthy, bad_seat, bad_json, game.table.game_id)
    await fake_discord.settle(quiet=0.1)
    await second.kill()

    # Closed, they stay quiet at the next start: one notice each, not one per restart.
    third = Process(fake_discord, databases(), previous=second)
    await third.start()
    await fake_discord.settle(quiet=0.1)
    for thread in (bad_seat_thread, bad_json_thread):
        assert notices(thread) == [told[thread.id]]
    await third.kill()


async def test_ids_given_out_stay_clear_of_restored_ones() -> None:
    """Without a stored_games the hub counts ids itself: past every lobby it was given back."""
    hub = GameHub(
        ManualScheduler(),
        lambda kind, seat, _seed: RandomSeat(seat),
        lambda g, lo: RecordingPresenter(),
    )
    hub.restore_lobby(Lobby(41, 1, 2, 100))
    assert (await hub.open_lobby(1, 3, 100, "ana")).lobby_id == 42
