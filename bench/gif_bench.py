"""What a replay GIF being drawn costs the games of its process (issue 27).

Games are kept busy in one process as in `stored_click_bench` (real tables,
SQLite through the stored_games, one stored click every `--interval` seconds), while
an event-loop ticker measures how late the loop wakes up. Each mode runs for
`--seconds`:

- `none`: no GIF, the floor;
- `thread`: replay GIFs of a six-seat game drawn back to back in a thread of
  this process (`DRAWING_WORKERS=0`, the way they were drawn before the pool);
- `process`: the same GIFs in the drawing pool's one worker process.

Figures per mode: the event loop's lag p50/p99, the stored click's wall time
p50/p99 (`Table.act`), clicks stored, GIFs drawn.

Run: uv run python bench/gif_bench.py [--seconds 20] [--modes none,thread,process]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from stored_click_bench import NoAi, Silent, StillClock, always, new_table

from bot.render.pool import drawings
from bot.render.replay_gif import game_gif
from bot.storage.database import Database
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.persist import StoredGames
from lockdown_core import ReplayLog, action_to_dict, legal_actions, pending_seats
from tests.core.random_games import Game

GAMES = 50
TICK = 0.02


def six_seat_log(seed: int = 6) -> ReplayLog:
    """A whole random six-seat game, the longest GIF the bot draws."""
    game = Game.start(6, (), seed)
    for _ in game.steps():
        pass
    return ReplayLog(players=6, seed=seed, actions=[action_to_dict(a) for a in game.actions])


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


async def clicks(hub: GameHub, stop: asyncio.Event, interval: float) -> list[float]:
    """Stored clicks round the games; a finished game is replaced."""
    tables = [await new_table(hub, index) for index in range(GAMES)]
    started, turn, rng = GAMES, 0, random.Random(27)
    walls: list[float] = []
    while not stop.is_set():
        slot = turn % GAMES
        turn += 1
        table = tables[slot]
        waiting = pending_seats(table.state)
        if table.finished or not waiting:
            tables[slot] = await new_table(hub, started)
            started += 1
            continue
        seat = rng.choice(waiting)
        choice = rng.choice(legal_actions(table.state, seat))
        began = time.perf_counter()
        await table.act(table.seats[seat].user_id or 0, table.token, always(choice))
        walls.append(time.perf_counter() - began)
        await asyncio.sleep(interval)
    return walls


async def lag(stop: asyncio.Event) -> list[float]:
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    while not stop.is_set():
        began = loop.time()
        await asyncio.sleep(TICK)
        lags.append(loop.time() - began - TICK)
    return lags


async def gifs(record: ReplayLog, stop: asyncio.Event) -> int:
    drawn = 0
    while not stop.is_set():
        if await game_gif(record, "en", [f"P{n}" for n in range(6)]) is not None:
            drawn += 1
    return drawn


async def measure(mode: str, seconds: float, interval: float, record: ReplayLog) -> None:
    drawings.configure(1 if mode == "process" else 0)
    if mode == "process":  # the worker's start (imports) is paid once, before measuring
        await game_gif(record, "en")
    with tempfile.TemporaryDirectory() as folder:
        async with Database(f"sqlite+aiosqlite:///{Path(folder) / 'gif.db'}") as database:
            await database.migrate()
            hub = GameHub(
                StillClock(),
                lambda kind, i, _seed: NoAi(),
                lambda gid, lobby: Silent(),
                stored_games=StoredGames(BatchingGameRepository(database)),
            )
            stop = asyncio.Event()
            clicking = asyncio.create_task(clicks(hub, stop, interval))
            ticking = asyncio.create_task(lag(stop))
            drawing = asyncio.create_task(gifs(record, stop)) if mode != "none" else None
            await asyncio.sleep(seconds)
            stop.set()
            walls, lags = await clicking, await ticking
            drawn = await drawing if drawing is not None else 0
    drawings.close()
    print(
        f"{mode:8} loop lag p50 {1000 * pct(lags, 0.5):6.1f} ms  "
        f"p99 {1000 * pct(lags, 0.99):6.1f} ms | "
        f"stored click p50 {1000 * pct(walls, 0.5):6.1f} ms  "
        f"p99 {1000 * pct(walls, 0.99):6.1f} ms | {len(walls)} clicks, {drawn} GIFs"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--interval", type=float, default=0.01, help="pause between clicks")
    parser.add_argument("--modes", default="none,thread,process")
    args = parser.parse_args()
    record = six_seat_log()
    for mode in args.modes.split(","):
        asyncio.run(measure(mode, args.seconds, args.interval, record))


if __name__ == "__main__":
    main()
