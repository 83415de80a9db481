"""Game pages under load: one 100-step game's pages served to 100 concurrent clients.

Run: uv run python bench/web_bench.py [--clients 100] [--requests 20000] [--seconds 60]
     [--pictures]

A finished game is played into a fresh SQLite database (the tests' game with hostile
names, 143 steps), then `lockdown-web` is started as its own process on loopback, as
an operator runs it. Every step's page is asked for once first (the cold pass: the
game is played again and each page drawn); then `--clients` clients, each on its own
connection, ask for pages of the game's first 100 steps at random, one request after
another, until `--requests` requests are answered or `--seconds` have passed. No client
sends If-None-Match: every answer is a whole page. `--pictures` asks for each step's
board PNG as well, as a browser does on its first visit. Before the load, one client
times `--refusals` 404s of each kind (no such game, pages off, practice, running,
forged), in turn, to compare their times.

Printed: requests, throughput, latency p50/p90/p99/max, non-200 answers, and the
server process's CPU (user + system, from /proc) over the run, per request and as a
share of one core. The clients run in this process on the same machine, so they take
CPU from the server: the figures are a floor on a dedicated machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from bot.web.addresses import game_token
from tests.web.games import SECRET, make_games
from tests.web.live import free_port

STEPS = 100


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def wait_up(base: str, within: float = 20.0) -> None:
    deadline = time.monotonic() + within
    async with aiohttp.ClientSession() as session:
        while True:
            try:
                async with session.get(f"{base}/healthz") as answer:
                    if answer.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("lockdown-web did not answer /healthz")
            await asyncio.sleep(0.1)


async def load(
    base: str, paths: list[str], clients: int, requests: int, seconds: float, seed: int
) -> tuple[list[float], int, float]:
    """Latencies of the answered requests, how many were not 200, the wall time."""
    latencies: list[float] = []
    failures = 0
    left = requests
    stop = time.monotonic() + seconds
    rng = random.Random(seed)

    async def client(session: aiohttp.ClientSession) -> None:
        nonlocal left, failures
        while left > 0 and time.monotonic() < stop:
            left -= 1
            path = rng.choice(paths)
            began = time.perf_counter()
            async with session.get(base + path) as answer:
                await answer.read()
                if answer.status != 200:
                    failures += 1
            latencies.append(time.perf_counter() - began)

    connector = aiohttp.TCPConnector(limit=clients, force_close=False)
    async with aiohttp.ClientSession(connector=connector) as session:
        began = time.perf_counter()
        await asyncio.gather(*(client(session) for _ in range(clients)))
        wall = time.perf_counter() - began
    return latencies, failures, wall


async def refusals(base: str, kinds: dict[str, str], rounds: int) -> dict[str, list[float]]:
    """The time of each kind of 404, asked in a shuffled turn each round, so that the
    machine's noise and the order hit every kind alike."""
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    order = list(kinds.items())
    rng = random.Random(0)
    async with aiohttp.ClientSession() as session:
        for _ in range(rounds):
            rng.shuffle(order)
            for kind, path in order:
                began = time.perf_counter()
                async with session.get(base + path) as answer:
                    await answer.read()
                    assert answer.status == 404, (kind, answer.status)
                times[kind].append(time.perf_counter() - began)
    return times


async def cold_pass(base: str, paths: list[str]) -> list[float]:
    times = []
    async with aiohttp.ClientSession() as session:
        for path in paths:
            began = time.perf_counter()
            async with session.get(base + path) as answer:
                await answer.read()
                answer.raise_for_status()
            times.append(time.perf_counter() - began)
    return times


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pictures", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--refusals", type=int, default=300, help="404s of each kind timed")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="web-bench-"))
    url = f"sqlite+aiosqlite:///{folder / 'games.db'}"
    games = make_games(url)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "WEB_SECRET": SECRET,
        "WEB_PUBLIC_URL": base,
        "WEB_PORT": str(port),
        "WEB_REQUESTS_PER_MINUTE": "0",
        "LOG_LEVEL": "WARNING",
    }
    server = subprocess.Popen([sys.executable, "-m", "bot.web.main"], env=env, cwd=folder)
    try:
        asyncio.run(wait_up(base))
        page = f"/g/{game_token(SECRET.encode(), games.finished)}"
        paths = [f"{page}?step={n}" for n in range(STEPS)]
        if args.pictures:
            paths += [f"{page}/board/{n}.png" for n in range(STEPS)]
        cold = asyncio.run(cold_pass(base, paths))
        missing = asyncio.run(
            refusals(
                base,
                {
                    "no such game": f"/g/{game_token(SECRET.encode(), 10**9)}",
                    "pages off": f"/g/{game_token(SECRET.encode(), games.pages_off)}",
                    "practice": f"/g/{game_token(SECRET.encode(), games.practice)}",
                    "running": f"/g/{game_token(SECRET.encode(), games.running)}",
                    "forged": "/g/" + "A" * 32,
                },
                args.refusals,
            )
        )
        before = cpu_seconds(server.pid)
        client_before = time.process_time()
        latencies, failures, wall = asyncio.run(
            load(base, paths, args.clients, args.requests, args.seconds, args.seed)
        )
        server_cpu = cpu_seconds(server.pid) - before
        client_cpu = time.process_time() - client_before
    finally:
        server.terminate()
        server.wait(10)
    ms = [latency * 1000 for latency in latencies]
    load1, _, _ = os.getloadavg()
    print(f"game: {STEPS} steps of game {games.finished}; pictures: {args.pictures}")
    print(
        f"cold pass: {len(cold)} requests, median {statistics.median(cold) * 1000:.1f} ms, "
        f"max {max(cold) * 1000:.1f} ms (the game played again, each page drawn once)"
    )
    print(
        f"clients: {args.clients}, requests: {len(ms)} in {wall:.2f} s, "
        f"throughput {len(ms) / wall:.0f} requests/s, non-200: {failures}"
    )
    print(
        f"latency ms: p50 {quantile(ms, 0.5):.1f}, p90 {quantile(ms, 0.9):.1f}, "
        f"p99 {quantile(ms, 0.99):.1f}, max {max(ms):.1f}"
    )
    print(
        f"server CPU: {server_cpu:.2f} s ({server_cpu / wall:.0%} of one core), "
        f"{server_cpu / len(ms) * 1e6:.0f} µs a request; clients' CPU: {client_cpu:.2f} s"
    )
    print(
        "404 median (p90) ms, one client: "
        + "; ".join(
            f"{kind} {statistics.median(t) * 1000:.2f} ({quantile(t, 0.9) * 1000:.2f})"
            for kind, t in missing.items()
        )
    )
    # Other work on the machine delays every wake-up of the server and the clients.
    print(f"machine: {os.cpu_count()} cores, load average {load1:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
