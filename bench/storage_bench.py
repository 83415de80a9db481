"""Storage benchmark on SQLite: what one accepted action costs, and what a busy bot sustains.

Figures:
- latency of one `record_action` (p50/p99), one game, one writer at a time;
- sustained stored actions per second with many games in one process (one
  asyncio task per game, all writing as fast as they can: the saturation
  point, where latency is mostly the queue for SQLite's single writer);
- the latency at a steadier load: every game acts on average once per
  `--interval` seconds (random gaps), as players at many tables would;
- peak RSS of the process;
- cold start: `migrate()` + `load_running_games()` with every game running,
  on a new handle in this process and in a new process (imports included).

Snapshots are synthetic JSON of about `--snapshot-kb` KB (the engine's own
states are smaller today), shaped like a game state: characters, hands, a
deck, a public log.

The machine's load average is printed with the figures: on a shared machine
each driver round trip (SQLAlchemy's aiosqlite adapter makes about 17 per
action, a thread hand-off each) gets slower when other processes want the CPU.

Run: uv run python bench/storage_bench.py [--games 1000] [--actions 10] [--interval 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.storage.database import Database
from bot.storage.models import ActionWrite, NewGame, SeatRecord
from bot.storage.repository import GameRepository

CARDS = ["gun", "tin_can", "rotten_meat", "baseball_bat", "chainsaw", "molotov", "walkie_talkie"]
KINDS = ["blocker", "leader", "weeper", "useless"]


def make_snapshot(version: int, target_bytes: int, rng: random.Random) -> dict[str, Any]:
    """A state-like dict whose compact JSON is about `target_bytes` long."""
    state: dict[str, Any] = {
        "schema": 1,
        "version": version,
        "step": "discussion",
        "round": 3,
        "characters": [[i, i % 6, KINDS[i % 4], rng.randint(1, 6), bool(i % 2)] for i in range(24)],
        "hands": [[rng.choice(CARDS) for _ in range(4)] for _ in range(6)],
        "deck": [rng.choice(CARDS) for _ in range(40)],
        "monsters": {str(location): rng.randint(0, 6) for location in range(1, 7)},
        "rng": [rng.getrandbits(32) for _ in range(20)],
        "log": [],
    }
    while len(json.dumps(state, separators=(",", ":"))) < target_bytes:
        state["log"].append(
            {"event": "vote_cast", "seat": rng.randint(0, 5), "target": rng.randint(0, 5)}
        )
    return state


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def new_game(index: int) -> NewGame:
    first_user = 10**17 + index * 10
    return NewGame(
        guild_id=10**17 + index % 50,
        channel_id=2 * 10**17 + index,
        thread_id=3 * 10**17 + index,
        host_user_id=first_user,
        timers={"discussion": 120, "vote": 60},
        variants=("spare_keys",),
        seats=(
            *(
                SeatRecord(seat=seat, display_name=f"Player {seat}", user_id=first_user + seat)
                for seat in range(4)
            ),
            SeatRecord(seat=4, display_name="AI", ai_kind="cautious"),
        ),
    )


def deadline(version: int) -> dict[str, datetime]:
    return {f"step-{version}": datetime.now(UTC) + timedelta(minutes=2)}


async def start_games(games: GameRepository, count: int, snapshot: dict[str, Any]) -> list[int]:
    ids = []
    for index in range(count):
        game_id = await games.create_game(new_game(index))
        await games.start_game(
            game_id, seed=index, snapshot={**snapshot, "version": 0}, deadlines=deadline(0)
        )
        ids.append(game_id)
    return ids


async def play_one(
    games: GameRepository, game_id: int, start: int, count: int, snapshot: dict[str, Any]
) -> list[float]:
    """`count` actions on one game, each timed (the queue for the write lock included)."""
    times = []
    for version in range(start, start + count):
        began = time.perf_counter()
        await games.record_action(
            ActionWrite(
                game_id,
                version,
                version % 5,
                {"type": "vote", "seat": version % 5, "target": (version + 1) % 5},
                {**snapshot, "version": version + 1},
                version + 1,
                deadline(version + 1),
            )
        )
        times.append(time.perf_counter() - began)
    return times


async def play_at_random(
    games: GameRepository,
    game_id: int,
    start: int,
    snapshot: dict[str, Any],
    interval: float,
    until: float,
    rng: random.Random,
) -> list[float]:
    """Actions on one game at random gaps (mean `interval` s) until `until`, each timed."""
    times: list[float] = []
    version = start
    while True:
        await asyncio.sleep(rng.expovariate(1 / interval))
        if time.perf_counter() >= until:
            return times
        times += await play_one(games, game_id, version, 1, snapshot)
        version += 1


async def measure(path: Path, args: argparse.Namespace) -> dict[str, float]:
    rng = random.Random(7)
    snapshot = make_snapshot(0, args.snapshot_kb * 1024, rng)
    figures: dict[str, float] = {"snapshot_bytes": len(json.dumps(snapshot, separators=(",", ":")))}
    url = f"sqlite+aiosqlite:///{path}"
    async with Database(url) as database:
        await database.migrate()
        games = GameRepository(database)

        (solo,) = await start_games(games, 1, snapshot)
        await play_one(games, solo, 0, 50, snapshot)  # warm-up: pool, statement cache
        times = await play_one(games, solo, 50, args.latency_samples, snapshot)
        figures["single_p50_ms"] = statistics.median(times) * 1000
        figures["single_p99_ms"] = percentile(times, 0.99) * 1000

        began = time.perf_counter()
        ids = await start_games(games, args.games, snapshot)
        figures["setup_s"] = time.perf_counter() - began

        began = time.perf_counter()
        per_game = await asyncio.gather(
            *(play_one(games, game_id, 0, args.actions, snapshot) for game_id in ids)
        )
        elapsed = time.perf_counter() - began
        loaded_times = [t for times in per_game for t in times]
        figures["load_actions"] = len(loaded_times)
        figures["load_seconds"] = elapsed
        figures["actions_per_s"] = len(loaded_times) / elapsed
        figures["load_p50_ms"] = statistics.median(loaded_times) * 1000
        figures["load_p99_ms"] = percentile(loaded_times, 0.99) * 1000

        until = time.perf_counter() + args.duration
        per_game = await asyncio.gather(
            *(
                play_at_random(
                    games, game_id, args.actions, snapshot, args.interval, until, random.Random(i)
                )
                for i, game_id in enumerate(ids)
            )
        )
        steady_times = [t for times in per_game for t in times]
        figures["steady_actions_per_s"] = len(steady_times) / args.duration
        figures["steady_p50_ms"] = statistics.median(steady_times) * 1000
        figures["steady_p99_ms"] = percentile(steady_times, 0.99) * 1000

    async with Database(url) as database:
        began = time.perf_counter()
        await database.migrate()
        loaded = await GameRepository(database).load_running_games()
        figures["cold_load_s"] = time.perf_counter() - began
        figures["cold_games"] = len(loaded.games)
        figures["cold_broken"] = len(loaded.broken)
    figures["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    figures["db_mb"] = sum(p.stat().st_size for p in path.parent.glob(path.name + "*")) / 2**20
    return figures


async def cold_start_here(path: Path) -> None:
    """The child process: what a restarted bot does first, timed from its own start."""
    async with Database(f"sqlite+aiosqlite:///{path}") as database:
        await database.migrate()
        loaded = await GameRepository(database).load_running_games()
    print(json.dumps({"games": len(loaded.games)}))


def cold_start_in_new_process(path: Path) -> tuple[float, int]:
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, __file__, "--cold-start", str(path)],
        check=True,
        capture_output=True,
        text=True,
    )
    return time.perf_counter() - began, json.loads(done.stdout)["games"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=10, help="actions per game, saturation")
    parser.add_argument(
        "--interval", type=float, default=10.0, help="mean seconds between a game's actions"
    )
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of steady load")
    parser.add_argument("--latency-samples", type=int, default=2000)
    parser.add_argument("--snapshot-kb", type=int, default=10)
    parser.add_argument("--cold-start", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_start is not None:
        asyncio.run(cold_start_here(args.cold_start))
        return

    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        figures = asyncio.run(measure(path, args))
        process_s, process_games = cold_start_in_new_process(path)

    load_after = os.getloadavg()
    print(
        f"SQLite {sqlite3.sqlite_version}, {os.cpu_count()} CPUs, load average "
        f"{load_before[0]:.1f} before and {load_after[0]:.1f} after; "
        f"snapshot {figures['snapshot_bytes']:.0f} B of JSON"
    )
    print(
        f"record_action, one game, one writer: p50 {figures['single_p50_ms']:.2f} ms, "
        f"p99 {figures['single_p99_ms']:.2f} ms ({args.latency_samples} actions)"
    )
    print(
        f"{args.games} games at once, {args.actions} actions each: "
        f"{figures['actions_per_s']:.0f} stored actions/s "
        f"({figures['load_actions']:.0f} in {figures['load_seconds']:.1f} s); "
        f"per action p50 {figures['load_p50_ms']:.1f} ms, p99 {figures['load_p99_ms']:.1f} ms "
        "(queueing included)"
    )
    print(
        f"{args.games} games, one action per game every {args.interval:g} s on average: "
        f"{figures['steady_actions_per_s']:.0f} actions/s stored over {args.duration:g} s; "
        f"per action p50 {figures['steady_p50_ms']:.1f} ms, p99 {figures['steady_p99_ms']:.1f} ms"
    )
    print(f"setting up {args.games} games (create + start): {figures['setup_s']:.1f} s")
    print(
        f"cold start, new handle: migrate + load_running_games() of "
        f"{figures['cold_games']:.0f} games ({figures['cold_broken']:.0f} broken) "
        f"in {figures['cold_load_s'] * 1000:.0f} ms"
    )
    print(
        f"cold start, new process (interpreter and imports included): "
        f"{process_games} games in {process_s * 1000:.0f} ms"
    )
    print(f"peak RSS {figures['peak_rss_mb']:.0f} MB; database on disk {figures['db_mb']:.0f} MB")


if __name__ == "__main__":
    main()
