"""What a seat was told survives a restart: its recent private lines and its AI's memory.

The log replays every event of a game; the resumed table hands each seat the
same private lines and each AI-played seat the same observations as play did.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any
from unittest.mock import MagicMock

import discord
import pytest
from sqlalchemy import text

from bot.discord_ui.game.threads import GameThreads
from bot.discord_ui.service import GameService
from bot.storage.database import Database
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.persist import ResumableGame, StoredGames
from bot.table.seat_players import SeatPlayer
from bot.table.table import Table
from bot.table.timers import TableConfig
from bot.texts import t
from lockdown_core import Action, Designate, legal_actions, pending_seats, view
from lockdown_core.ai import make_player
from tests.discord_ui.players import Game, click_a_choice, open_and_start
from tests.fakediscord import FakeDiscord
from tests.fakediscord.records import FakeUser
from tests.resume.helpers import Process
from tests.storage.conftest import DatabaseFactory
from tests.table.fakes import ManualScheduler, RandomSeat, RecordingPresenter

pytestmark = [pytest.mark.resume]

PEOPLE = (100, 101, 102)
AI = 3  # the cautious AI's seat; the people sit at 0, 1 and 2
GRUDGE = 2  # the one person who sends the Monsters to the AI whenever they can
AI_SEED = 5


def seeded_ai(kind: str, seat: int, _seed: str = "") -> SeatPlayer:
    """The same AI in every process: any difference in its choices comes from its memory."""
    return make_player(kind, seat, AI_SEED)


async def recent_lines(fake: FakeDiscord, game: Game, user: FakeUser) -> str | None:
    """The "Recently" field of the seat's My hand panel, as the person reads it."""
    ix = await fake.click(user, game.board(), f"ld:h:{game.table.game_id}")
    assert ix.answered_in_time
    # A new panel, or the one already open for this step redrawn in place.
    await fake.settle(quiet=0.05)
    panel = [m for m in fake.ephemerals(user) if m.embeds][-1]
    title = t("en", "panel.recent")
    fields = [f for e in panel.embeds for f in e.get("fields", []) if f["name"] == title]
    return fields[0]["value"] if fields else None


@pytest.mark.e2e
async def test_my_hand_shows_the_same_recent_lines_after_a_restart(
    fake_discord: FakeDiscord, databases: DatabaseFactory
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    first = Process(fake_discord, databases())
    bot = await first.start()
    game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
    rng = random.Random(31)
    for _ in range(12):
        waiting = [p for p in pending_seats(game.table.state) if p in game.people]
        if waiting:
            await click_a_choice(game, game.people[rng.choice(waiting)], rng)
    await fake_discord.settle(quiet=0.1)
    table = game.table
    table.stop()
    async with table.lock:  # an action in flight is stored and shown; nothing moves after
        table.stop()
    await fake_discord.settle(quiet=0.05)
    shown = {
        seat: await recent_lines(fake_discord, game, user) for seat, user in game.people.items()
    }
    inbox = {
        seat: list(lines) for seat, lines in bot.service.presenters[table.game_id].inbox.items()
    }
    assert any(shown.values()), "the game told somebody something in private"
    await first.kill()

    second = Process(fake_discord, databases(), previous=first)
    bot2 = await second.start()
    resumed = Game(fake_discord, bot2, game.thread, bot2.hub.tables[table.game_id], game.people)
    assert bot2.service.presenters[table.game_id].inbox == inbox
    again = {
        seat: await recent_lines(fake_discord, resumed, user) for seat, user in game.people.items()
    }
    assert again == shown
    await fake_discord.settle(quiet=0.05)
    await second.kill()


def always(action: Action) -> Callable[[int], Action]:
    return lambda seat: action


def person_choice(table: Table, seat: int, rng: random.Random) -> Action:
    """A person's click: at random, except in attacks, where only GRUDGE aims at the AI."""
    legal = legal_actions(table.state, seat)
    if isinstance(legal[0], Designate) and view(table.state, seat)["vote"]["kind"] == "attack":
        aimed = [
            a for a in legal if isinstance(a, Designate) and (a.candidate == AI) == (seat == GRUDGE)
        ]
        if aimed:
            return rng.choice(aimed)
    return rng.choice(legal)


async def start_table(database: Database, seed: int) -> tuple[ManualScheduler, Table]:
    stored_games = StoredGames(BatchingGameRepository(database))
    scheduler = ManualScheduler()
    hub = GameHub(
        scheduler, seeded_ai, lambda g, lobby: RecordingPresenter(), stored_games=stored_games
    )
    lobby = await hub.open_lobby(1, 2, PEOPLE[0], "ana")
    await hub.change_lobby(lobby, lambda it: it.join(PEOPLE[1], "bo"))
    await hub.change_lobby(lobby, lambda it: it.join(PEOPLE[2], "cy"))
    await hub.change_lobby(lobby, lambda it: it.add_ai(PEOPLE[0], "cautious"))
    table = await hub.start(lobby, PEOPLE[0], False, TableConfig(ai_delay=1.0), seed=seed)
    return scheduler, table


async def play_until_memory_matters(database: Database, seed: int) -> Table | None:
    """Play until the AI must aim an attack and what it remembers changes its aim.

    None if the game ends first. The AI's choice is read, not played, at that point.
    """
    scheduler, table = await start_table(database, seed)
    rng = random.Random(seed)
    while not table.finished:
        pending = pending_seats(table.state)
        if AI in pending:
            seen = view(table.state, AI)
            legal = legal_actions(table.state, AI)
            if isinstance(legal[0], Designate) and seen["vote"]["kind"] == "attack":
                forgetful = seeded_ai("cautious", AI).choose(seen, legal)
                if table.players.player_for(AI).choose(seen, legal) != forgetful:
                    table.stop()
                    return table
        people = [p for p in pending if p != AI]
        if people:
            action = person_choice(table, people[0], rng)
            reply = await table.act(PEOPLE[people[0]], table.token, always(action))
            assert reply.ok, reply.key
        else:
            due = scheduler.next_due()
            assert due is not None
            await scheduler.advance(max(0.0, due - scheduler.now()))
    return None


def restarted(stored_games: StoredGames, game: ResumableGame, ai: Any = seeded_ai) -> Table:
    """The resumed table as the bot builds it at start-up, on a Discord nobody calls."""
    scheduler = ManualScheduler()
    hub = GameHub(
        scheduler, ai, lambda g, lobby: threads.make_presenter(g, lobby), stored_games=stored_games
    )
    threads = GameThreads(GameService(MagicMock(spec_set=discord.Client), hub, TableConfig()))
    return threads.restore(game)


async def test_a_cautious_ai_resumed_mid_game_aims_as_if_it_had_never_stopped(
    databases: DatabaseFactory,
) -> None:
    database = databases()
    await database.migrate()
    live = None
    for seed in range(1, 200):
        live = await play_until_memory_matters(database, seed)
        if live is not None:
            break
    assert live is not None, "no game where the AI's memory changes its aim"
    stored_games = StoredGames(BatchingGameRepository(databases()))
    loaded = await stored_games.load()
    game = next(g for g in loaded.games if g.record.id == live.game_id)
    resumed = restarted(stored_games, game)
    assert resumed.state.to_dict() == live.state.to_dict()
    assert resumed.public_log == live.public_log
    seen = view(resumed.state, AI)
    legal = legal_actions(resumed.state, AI)
    aim = resumed.players.player_for(AI).choose(seen, legal)
    assert aim == live.players.player_for(AI).choose(seen, legal)
    assert aim != seeded_ai("cautious", AI).choose(seen, legal), "its memory is what counts"


async def test_a_stand_in_for_an_away_seat_remembers_that_seats_game(
    databases: DatabaseFactory,
) -> None:
    database = databases()
    await database.migrate()
    scheduler, table = await start_table(database, seed=3)
    rng = random.Random(3)
    while table.state.version < 12 and not table.finished:
        people = [p for p in pending_seats(table.state) if p != AI]
        if people:
            action = person_choice(table, people[0], rng)
            assert (await table.act(PEOPLE[people[0]], table.token, always(action))).ok
        else:
            due = scheduler.next_due()
            assert due is not None
            await scheduler.advance(max(0.0, due - scheduler.now()))
    table.stop()
    async with database.write() as conn:
        await conn.execute(
            text("UPDATE seats SET ai_takeover = :away WHERE game_id = :id AND seat = 1"),
            {"away": True, "id": table.game_id},
        )
    stored_games = StoredGames(BatchingGameRepository(databases()))
    game = next(g for g in (await stored_games.load()).games if g.record.id == table.game_id)
    made: dict[int, RandomSeat] = {}

    def recording(kind: str, seat: int, _seed: str) -> RandomSeat:
        made[seat] = RandomSeat(seat)
        return made[seat]

    restarted(stored_games, game, recording)
    assert set(made) == {1, AI}, "people who are here get no stand-in"
    assert made[1].seen == [e for e in game.events if e.visible_to(1)]
    assert made[AI].seen == [e for e in game.events if e.visible_to(AI)]
    assert any(e.to == (1,) for e in made[1].seen)
