"""Finished games in a fresh database, played by the table as the bot plays them.

Seats are named with the hostile names the other tests use: a mention, a
heading, HTML that closes the title, 200 characters, right-to-left text.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from sqlalchemy import update

from bot.ai_seats import make_ai
from bot.storage import tables as t
from bot.storage.database import Database
from bot.storage.servers import ServerRepository
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.persist import StoredGames
from bot.table.table import TableConfig
from tests.table.fakes import ManualScheduler, RandomSeat, RecordingPresenter

GUILD, PAGES_OFF_GUILD = 10**17, 10**17 + 1
SECRET = "s" * 40
HOSTILE = (
    "<@123456789012345678>",
    "# heading",
    "<script>alert(1)</script>",
    "</title><b>x",
    "N" * 200,
    "مرحبا بالعالم",
)


@dataclass(frozen=True)
class Games:
    """The ids of the games in the database, by what the page must do with them."""

    url: str
    finished: int
    french: int
    running: int
    practice: int
    pages_off: int
    # Shrewd AI seats with personas: they give reasons (`ai_why`), kept with their actions.
    talking: int


async def _play(
    hub: GameHub,
    scheduler: ManualScheduler,
    guild: int,
    names: tuple[str, ...],
    *,
    seed: int,
    finish: bool = True,
    language: str = "en",
    practice: bool = False,
    ai_kinds: tuple[str, ...] = ("random",),
) -> int:
    lobby = await hub.open_lobby(guild, 2, 100, names[0], language=language)
    for user, name in enumerate(names[1:], start=101):
        lobby.join(user, name)
    for kind in ai_kinds:
        lobby.add_ai(100, kind)
    lobby.practice = practice
    table = await hub.start(lobby, 100, False, TableConfig(ai_delay=1.0), seed=seed)
    for _ in range(20000 if finish else 20):
        due = scheduler.next_due()
        if table.finished or due is None:
            break
        await scheduler.advance(due - scheduler.now())
    assert table.finished == finish
    return table.game_id


async def store_games(url: str) -> Games:
    async with Database(url) as database:
        await database.migrate()
        scheduler = ManualScheduler()
        stored_games = StoredGames(BatchingGameRepository(database))
        hub = GameHub(
            scheduler,
            lambda kind, index, _seed: RandomSeat(index),
            lambda game_id, lobby: RecordingPresenter(),
            stored_games=stored_games,
        )
        finished = await _play(hub, scheduler, GUILD, HOSTILE[:4], seed=7)
        french = await _play(hub, scheduler, GUILD, HOSTILE[4:], seed=8, language="fr")
        practice = await _play(
            hub, scheduler, GUILD, ("cy",), seed=10, practice=True, ai_kinds=("random",) * 2
        )
        off = await _play(hub, scheduler, PAGES_OFF_GUILD, ("di", "ed"), seed=11)
        talkers = ManualScheduler()
        talking = await _play(
            GameHub(
                talkers,
                make_ai,
                lambda game_id, lobby: RecordingPresenter(),
                stored_games=stored_games,
            ),
            talkers,
            GUILD,
            ("fy",),
            seed=12,
            ai_kinds=("shrewd:gambler", "shrewd:trickster", "shrewd:gambler"),
        )
        # Last: the scheduler runs every game's timers, and this one must stay unfinished.
        running = await _play(hub, scheduler, GUILD, ("ana", "bo"), seed=9, finish=False)
        await ServerRepository(database).update_settings(PAGES_OFF_GUILD, 1, {"web_pages": False})
        # Every seat's name as the hostile list has it, AI seats' too.
        async with database.write() as conn:
            await conn.execute(
                update(t.seats)
                .where(t.seats.c.game_id == finished, t.seats.c.seat == 4)
                .values(display_name=HOSTILE[5])
            )
    return Games(url, finished, french, running, practice, off, talking)


def make_games(url: str) -> Games:
    return asyncio.run(store_games(url))
