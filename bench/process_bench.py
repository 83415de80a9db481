"""`load_bench.py --bot-process`: the same games, with the bot in a process of its own.

The bot is a real `lockdown-bot` process (`bench/pace_bot.py`: the console script's
entry point at the real-pace suite's pace) with its settings, its log file and its
ops port; this process keeps the fake Discord (served on loopback), the people and
the measurements, so the bot's figures are its own interpreter's alone.

What the in-process bench read inside the bot is read from outside, as an
operator or a person could:
- whose move it is, and when a game ended: the database, opened read-only (one
  query every `POLL` s for all the games; a game's snapshot is read again only
  when its version moved);
- when each action was stored (the lines' delays): the same database;
- the bot's CPU and RSS: /proc, for the bot's process and its children (the
  drawing worker), apart from this process's own CPU (fake Discord + people);
- what the bot counts itself (429s, interactions it saw late, store time): /metrics.

At the end the bot gets SIGTERM, as a deploy sends it: it pauses the games and
delivers what the threads still wait for (SHUTDOWN_DELIVERY_SECONDS=30), then exits;
the lines are counted after that.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from sqlalchemy import text

from bench.load_bench import (
    AI_SEATS,
    DELIVER_WITHIN,
    PATIENCE,
    THREAD_MENTION,
    answer_of,
    button,
    fmt_load,
    game_requests,
    line_delays,
    pct,
    print_answers,
    was_board,
)
from bot.storage.database import Database
from lockdown_core import GameState, pending_seats
from tests.discord_ui.test_realtime import unkind
from tests.fakediscord import FakeDiscord
from tests.fakediscord.actions import ImpossibleAction
from tests.fakediscord.protocol import CallbackType
from tests.fakediscord.records import FakeChannel, FakeGuild, FakeMessage, FakeUser
from tests.fakediscord.server import FakeDiscordServer

REPO = Path(__file__).resolve().parents[1]
POLL = 0.1
ENDED = ("finished", "aborted")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Seen:
    """One game as the bench sees it from outside: its thread and, from the database,
    its status and state."""

    game_id: int
    fake: FakeDiscord
    guild: FakeGuild
    thread: FakeChannel
    people: dict[int, FakeUser] = field(default_factory=dict)
    status: str = "lobby"
    version: int = -1
    state: GameState | None = None

    @property
    def finished(self) -> bool:
        return self.status in ENDED or (self.state is not None and self.state.result is not None)

    @property
    def won(self) -> bool:
        return self.state is not None and self.state.result is not None

    def board(self) -> FakeMessage:
        """The newest message with the game's My hand button."""
        for message in reversed(self.fake.messages(self.thread)):
            if any(b.custom_id == f"ld:h:{self.game_id}" for b in message.buttons):
                return message
        raise AssertionError("no board in the thread")


@dataclass
class Outside:
    """What the bench knows of the running games, refreshed from the database."""

    database: Database
    games: dict[int, Seen] = field(default_factory=dict)
    # Each game with the time from its `/lockdown new` to the next one's.
    spans: list[tuple[Seen, float, float]] = field(default_factory=list)
    failed_starts: int = 0
    # Why starts failed, for the report: the exception's name and words, counted.
    start_errors: Counter[str] = field(default_factory=Counter)
    click_failures: int = 0

    async def refresh(self) -> None:
        watched = [g for g in self.games.values() if not g.finished]
        if not watched:
            return
        ids = {g.game_id: g for g in watched}
        marks = ",".join(str(i) for i in ids)
        async with self.database.read() as conn:
            rows = (
                await conn.execute(
                    text(f"SELECT id, status, version FROM games WHERE id IN ({marks})")
                )
            ).all()
            moved = [
                r for r in rows if r.version != ids[r.id].version or r.status != ids[r.id].status
            ]
            for row in moved:
                snapshot = (
                    await conn.execute(
                        text("SELECT snapshot, version FROM games WHERE id = :id"), {"id": row.id}
                    )
                ).one()
                game = ids[row.id]
                game.status = str(row.status)
                game.version = int(snapshot.version)
                if snapshot.snapshot is not None:
                    game.state = GameState.from_dict(json.loads(snapshot.snapshot))

    async def seats(self, game_id: int) -> dict[int, int]:
        async with self.database.read() as conn:
            rows = await conn.execute(
                text("SELECT seat, user_id FROM seats WHERE game_id = :id"), {"id": game_id}
            )
            return {int(r.seat): int(r.user_id) for r in rows if r.user_id is not None}

    async def watch(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            with contextlib.suppress(Exception):  # a busy file: the next poll reads it
                await self.refresh()
            await asyncio.sleep(POLL)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class BotProcess:
    """`python -m bench.pace_bot`: its log file, its /readyz and /metrics, its CPU."""

    def __init__(
        self,
        folder: Path,
        server: FakeDiscordServer,
        fake: FakeDiscord,
        url: str,
        carry: bool = True,
    ) -> None:
        self.folder = folder
        self.log_path = folder / "bot.log"
        self.port = free_port()
        self.server = server
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SHARD_"))},
            "PYTHONPATH": str(REPO),
            "DISCORD_TOKEN": fake.token,
            "DATABASE_URL": url,
            "OPS_PORT": str(self.port),
            "LOG_LEVEL": "INFO",
            "SHUTDOWN_DELIVERY_SECONDS": str(DELIVER_WITHIN),
            "CLICK_TOKENS_CARRY_EDITS": "true" if carry else "false",
        }
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with self.log_path.open("wb") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bench.pace_bot",
                self.server.api_base,
                self.server.gateway_url,
                cwd=self.folder,
                env=self.env,
                stdout=log,
                stderr=log,
            )

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    async def get(self, path: str) -> tuple[int, str]:
        try:
            async with (
                aiohttp.ClientSession() as session,
                session.get(f"http://127.0.0.1:{self.port}{path}") as response,
            ):
                return response.status, await response.text()
        except aiohttp.ClientConnectionError as exc:
            return 0, str(exc)

    async def until_ready(self, within: float = 90.0) -> None:
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.returncode is not None:
                raise RuntimeError(f"the bot exited {self.process.returncode}:\n{self.log()}")
            if (await self.get("/readyz"))[0] == 200:
                return
            await asyncio.sleep(0.2)
        raise RuntimeError(f"the bot was not ready after {within} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]

    def tree(self) -> list[int]:
        """The bot's process and its descendants (the drawing worker)."""
        found, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            with contextlib.suppress(OSError):
                for task in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{task}/children") as children:
                        todo.extend(int(c) for c in children.read().split())
        return found

    def cpu(self) -> dict[int, float]:
        """CPU seconds of each process of the tree (user + system)."""
        seconds = {}
        for pid in self.tree():
            with contextlib.suppress(OSError), open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
                seconds[pid] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        return seconds

    def memory(self) -> tuple[float, float]:
        """RSS and peak RSS of the bot's own process, in MB."""
        values = {}
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                name, _, rest = line.partition(":")
                if name in ("VmRSS", "VmHWM"):
                    values[name] = int(rest.split()[0]) / 1024
        return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)

    async def stop(self, within: float = DELIVER_WITHIN + 60) -> int | None:
        """SIGTERM, as a deploy sends it; the exit status (None: killed after `within`)."""
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(self.process.wait(), within)
        except TimeoutError:
            await self.kill()
            return None

    def problems(self) -> list[str]:
        """The warnings and errors in the bot's log."""
        if not self.log_path.exists():
            return []
        lines = self.log_path.read_text(errors="replace").splitlines()
        return [line for line in lines if " WARNING " in line or " ERROR " in line]

    async def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


async def start_game(fake: FakeDiscord, outside: Outside, guild: FakeGuild) -> Seen:
    """/lockdown new, the guest joins, four AI seats, start; the game running, its board
    posted, its seats read from the database."""
    host, guest = guild.members
    channel = guild.channel("general")
    opened = await fake.slash(host, "lockdown", subcommand="new", channel=channel, within=PATIENCE)
    if not await fake.wait_until(lambda: answer_of(opened) is not None, within=PATIENCE):
        raise TimeoutError("no lobby")
    named = THREAD_MENTION.search(answer_of(opened) or "")
    if named is None:
        raise TimeoutError("no lobby")
    thread = fake.world.channels[int(named.group(1))]
    lobby = fake.messages(thread)[0]
    await fake.click(guest, lobby, button(lobby, ":join"), within=PATIENCE)
    for _ in range(AI_SEATS):
        await fake.click(host, lobby, button(lobby, ":ai"), within=PATIENCE)
    start = button(lobby, ":start")
    await fake.click(host, lobby, start, within=PATIENCE)
    game = Seen(int(start.split(":")[2]), fake, guild, thread)
    outside.games[game.game_id] = game
    deadline = time.monotonic() + PATIENCE
    while game.state is None or not has_board(game):
        if time.monotonic() > deadline:
            game.status = "aborted"  # no longer watched
            raise TimeoutError("the game did not start")
        await asyncio.sleep(POLL)
    members = {m.id: m for m in guild.members}
    game.people = {
        seat: members[user]
        for seat, user in (await outside.seats(game.game_id)).items()
        if user in members
    }
    return game


def has_board(game: Seen) -> bool:
    with contextlib.suppress(AssertionError):
        game.board()
        return True
    return False


async def open_panel(fake: FakeDiscord, game: Seen, user: FakeUser) -> FakeMessage | None:
    """My hand on the board: the person's panel (new, or redrawn in place)."""
    ix = await fake.click(user, game.board(), f"ld:h:{game.game_id}", within=PATIENCE)
    if ix.response_type is not CallbackType.DEFERRED_UPDATE_MESSAGE:
        return ix.original
    await fake.settle(quiet=0.05)
    panels = [m for m in fake.ephemerals(user) if m.buttons and not m.deleted]
    return panels[-1] if panels else None


async def click_a_choice(fake: FakeDiscord, game: Seen, user: FakeUser, rng: random.Random) -> None:
    panel = await open_panel(fake, game, user)
    for _ in range(4):
        if panel is None:
            return
        ids = [b.custom_id for b in panel.buttons if b.custom_id]
        choices = [i for i in ids if i.startswith(("ld:a:", "ld:g:"))]
        if not choices:
            return
        choice = rng.choice(choices)
        ix = await fake.click(user, panel, choice, within=PATIENCE)
        if choice.startswith("ld:a:"):
            return
        panel = ix.original or ix.message


async def person(
    fake: FakeDiscord,
    game: Seen,
    seat: int,
    user: FakeUser,
    rng: random.Random,
    stop: asyncio.Event,
    outside: Outside,
) -> None:
    """When the database says the game waits on them, they think, then click; then they
    wait for the game's next stored version (the state they read is the stored one)."""
    while not game.finished and not stop.is_set():
        if game.state is None or seat not in pending_seats(game.state):
            await asyncio.sleep(0.05)
            continue
        await asyncio.sleep(rng.uniform(0.3, 1.2))
        if game.finished or stop.is_set():
            return
        version = game.version
        try:
            await click_a_choice(fake, game, user, rng)
        except ImpossibleAction:
            pass  # the board moved on under the cursor
        except (AssertionError, TimeoutError):
            outside.click_failures += 1
        deadline = time.monotonic() + 3.0
        while game.version == version and time.monotonic() < deadline and not stop.is_set():  # noqa: ASYNC110 (the database's state)
            await asyncio.sleep(0.05)


async def slot(
    fake: FakeDiscord,
    outside: Outside,
    guild: FakeGuild,
    seed: int,
    stop: asyncio.Event,
    delay: float,
) -> None:
    rng = random.Random(seed)
    await asyncio.sleep(delay)
    while not stop.is_set():
        began = time.monotonic()
        try:
            game = await start_game(fake, outside, guild)
        except (AssertionError, TimeoutError, StopIteration, IndexError) as exc:
            outside.failed_starts += 1
            outside.start_errors[f"{type(exc).__name__}: {exc}"] += 1
            await asyncio.sleep(1.0)
            continue
        people = [
            asyncio.create_task(
                person(fake, game, seat, user, random.Random(rng.random()), stop, outside)
            )
            for seat, user in game.people.items()
        ]
        while not game.finished and not stop.is_set():  # noqa: ASYNC110 (the database's state)
            await asyncio.sleep(0.2)
        for task in people:
            task.cancel()
        await asyncio.gather(*people, return_exceptions=True)
        outside.spans.append((game, began, time.monotonic()))


def metric_sum(body: str, name: str) -> float:
    """The sum of a counter's samples in a /metrics page."""
    from prometheus_client.parser import text_string_to_metric_families

    total = 0.0
    for family in text_string_to_metric_families(body):
        for sample in family.samples:
            if sample.name == name:
                total += sample.value
    return total


def histogram_p99(body: str, name: str) -> str:
    """The bucket edge under which 99% of a histogram's observations fall."""
    from prometheus_client.parser import text_string_to_metric_families

    buckets: list[tuple[float, float]] = []
    for family in text_string_to_metric_families(body):
        for sample in family.samples:
            if sample.name == f"{name}_bucket" and not set(sample.labels) - {"le"}:
                buckets.append((float(sample.labels["le"]), sample.value))
    buckets.sort()
    if not buckets or buckets[-1][1] == 0:
        return "-"
    total = buckets[-1][1]
    edge = next(le for le, count in buckets if count >= 0.99 * total)
    return f"<= {edge:g} s"


async def measure_process(
    games: int,
    seconds: float,
    url: str,
    token_limit: int,
    ramp: float,
    folder: Path,
    carry: bool = True,
) -> None:
    fake = FakeDiscord()
    unkind(fake)
    fake.rate_limits.global_per_second = token_limit
    fake.contract_check = False
    guilds = [
        fake.create_guild(f"Club {n}", members=["ana", "bo"], channels=("general",))
        for n in range(games)
    ]
    load_before = os.getloadavg()
    server = FakeDiscordServer(fake)
    await server.start()
    bot = BotProcess(folder, server, fake, url, carry)
    reader: Database | None = None
    try:
        await bot.start()
        await bot.until_ready()
        reader = Database(url, read_only=True)
        outside = Outside(reader)
        stop = asyncio.Event()
        began, harness_began, bot_began = time.monotonic(), time.process_time(), bot.cpu()
        tasks = [
            asyncio.create_task(slot(fake, outside, guild, n, stop, ramp * n / games))
            for n, guild in enumerate(guilds)
        ]
        watcher = asyncio.create_task(outside.watch(stop))
        rss_samples: list[float] = []
        while time.monotonic() - began < seconds:
            await asyncio.sleep(min(5.0, seconds - (time.monotonic() - began)))
            rss_samples.append(bot.memory()[0])
        stop.set()
        wall = time.monotonic() - began
        harness_cpu = time.process_time() - harness_began
        bot_ended = bot.cpu()
        rss, peak = bot.memory()
        ended = began + wall
        load_during = os.getloadavg()
        _, metrics_body = await bot.get("/metrics")
        await asyncio.wait(tasks, timeout=PATIENCE * 3)
        for task in tasks:
            task.cancel()
        status = await bot.stop()
        await outside.refresh()
        watcher.cancel()
        delays, shown, missing = await line_delays(
            reader,
            fake,
            [(g.game_id, g.thread) for g in outside.games.values() if g.state is not None],
        )
    finally:
        await bot.kill()
        await server.stop()
        if reader is not None:
            await reader.close()
    made = [r for r in fake.bot_requests if began <= r.at <= ended]
    answers = [ix for ix in fake.interactions if ix.created_at <= ended]
    seen = list(outside.games.values())
    store = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
    print(
        f"\n{games} games ({store}, bot in its own process, token limit {token_limit}/s, "
        f"clicks carry edits: {'on' if carry else 'off'}), {wall:.0f} s, first games over "
        f"{ramp:.0f} s"
    )
    print(f"  load before {fmt_load(load_before)}, at the end of the run {fmt_load(load_during)}")
    print(
        f"  games started {len(seen)}, finished {sum(1 for g in seen if g.won)}; "
        f"starts failed {outside.failed_starts}; clicks failed {outside.click_failures}"
    )
    for error, count in outside.start_errors.most_common(3):
        print(f"    start failed {count}x: {error}")
    problems = bot.problems()
    if problems:
        print(f"  the bot logged {len(problems)} warnings and errors; the first:")
        for line in problems[:5]:
            print(f"    {line[:160]}")
    print_answers(answers)
    print(
        f"  429s: {len(fake.rate_limited)} (the bot's /metrics: "
        f"{metric_sum(metrics_body, 'lockdown_discord_rate_limited_total'):.0f})"
    )
    print(
        f"  lines: {shown} shown, stored action -> line p50 {pct(delays, 0.5)}, "
        f"p99 {pct(delays, 0.99)}; missing at the end {missing}"
    )
    routes = Counter(str(r.route) for r in made)
    print(
        f"  bot-token requests: {len(made) / wall:.1f}/s ({len(made) / wall / games:.2f}/s a game)"
    )
    for route, count in routes.most_common(8):
        print(f"    {count / wall:6.2f}/s  {route}")
    wholes = whole_game_requests(fake, outside)
    if wholes:
        boards = [sum(1 for m in fake.messages(g.thread) if was_board(m)) for g in seen if g.won]
        print(
            f"  bot-token requests per finished game (thread, server channel, DMs): "
            f"{sum(wholes) / len(wholes):.0f} (of {len(wholes)} games, "
            f"{sum(boards) / max(len(boards), 1):.0f} boards posted on average)"
        )
    budget = {
        name: metric_sum(metrics_body, f"lockdown_request_budget_{name}_total")
        for name in ("sent", "merged", "carried", "carry_failed")
    }
    print(
        f"  the budget: {budget['sent'] / wall:.1f}/s sent with the bot token, "
        f"{budget['carried'] / wall:.1f}/s edits carried by clicks' tokens "
        f"({budget['carry_failed']:.0f} refused, sent again), "
        f"{budget['merged'] / wall:.1f}/s edits merged"
    )
    print(
        "  the bot's /metrics: actions stored "
        f"{metric_sum(metrics_body, 'lockdown_actions_stored_total') / wall:.1f}/s, store p99 "
        f"{histogram_p99(metrics_body, 'lockdown_store_seconds')}, answer p99 "
        f"{histogram_p99(metrics_body, 'lockdown_interaction_answer_seconds')}, unanswered "
        f"{metric_sum(metrics_body, 'lockdown_interactions_unanswered_total'):.0f}, "
        f"delivery lag p99 {histogram_p99(metrics_body, 'lockdown_delivery_lag_seconds')}"
    )
    own = bot_ended.get(bot.pid, 0.0) - bot_began.get(bot.pid, 0.0)
    children = sum(v - bot_began.get(pid, 0.0) for pid, v in bot_ended.items() if pid != bot.pid)
    print(
        f"  bot process: CPU {100 * own / wall:.0f}% of a core (+ {100 * children / wall:.0f}% "
        f"in its drawing worker), RSS {rss:.0f} MB (peak {peak:.0f} MB, "
        f"{' '.join(f'{r:.0f}' for r in rss_samples)} every 5 s); exit status {status}"
    )
    print(f"  harness (fake Discord + people + this bench): CPU {100 * harness_cpu / wall:.0f}%")


def whole_game_requests(fake: FakeDiscord, outside: Outside) -> list[int]:
    """Bot-token requests of each finished game (`load_bench.game_requests`)."""
    return [
        game_requests(fake, game.guild, game.thread, began, ended)
        for game, began, ended in outside.spans
        if game.won
    ]
