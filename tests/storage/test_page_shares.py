"""A practice game's page is shared by its player alone, once the game is finished, on
its own server; only then does `WebPages.visible` open it (SQLite and PostgreSQL)."""

from __future__ import annotations

from bot.storage.database import Database
from bot.storage.models import SeatResult
from bot.storage.page_shares import PageShares
from bot.storage.repository import GameRepository
from bot.storage.servers import ServerRepository
from bot.storage.web_pages import WebPages
from tests.storage.conftest import new_game, snapshot

GUILD = 10**17
PLAYER, STRANGER = 1000, 4242


async def _practice(games: GameRepository, *, finish: bool = True) -> int:
    game_id = await games.create_game(new_game(guild_id=GUILD))
    await games.start_game(game_id, seed=1, snapshot=snapshot(0), deadlines={}, practice=True)
    if finish:
        await games.finish_game(
            game_id, [SeatResult(seat=s, score=10, winner=s == 0) for s in range(4)]
        )
    return game_id


async def test_only_the_player_of_a_finished_practice_game_shares_its_page(
    db: Database, games: GameRepository
) -> None:
    shares, pages = PageShares(db), WebPages(db)
    practice = await _practice(games)
    running = await _practice(games, finish=False)
    assert not await pages.visible(practice)

    assert not await shares.share(practice, GUILD, STRANGER)  # never seated there
    assert not await shares.share(practice, GUILD + 1, PLAYER)  # named from another server
    assert not await shares.share(running, GUILD, PLAYER)  # not finished
    assert not await shares.share(10**9, GUILD, PLAYER)  # no such game
    assert not await pages.visible(practice)
    assert not await pages.visible(running)

    assert await shares.share(practice, GUILD, PLAYER)
    assert await pages.visible(practice)
    assert await shares.share(practice, GUILD, PLAYER)  # again: the same answer
    # A shared practice stays out of the server's history: it was one person's game.
    assert practice not in [g.game_id for g in await pages.recent_games(GUILD)]


async def test_a_server_that_turns_pages_off_hides_a_shared_practice_too(
    db: Database, games: GameRepository
) -> None:
    practice = await _practice(games)
    assert await PageShares(db).share(practice, GUILD, PLAYER)
    await ServerRepository(db).update_settings(GUILD, 1, {"web_pages": False})
    assert not await WebPages(db).visible(practice)


async def test_nothing_but_the_mark_changes_a_game_that_is_not_practice(
    db: Database, games: GameRepository
) -> None:
    game_id = await games.create_game(new_game(guild_id=GUILD))
    await games.start_game(game_id, seed=1, snapshot=snapshot(0), deadlines={})
    await games.finish_game(
        game_id, [SeatResult(seat=s, score=10, winner=s == 0) for s in range(4)]
    )
    assert not await PageShares(db).share(game_id, GUILD, PLAYER)
    assert await WebPages(db).visible(game_id)
