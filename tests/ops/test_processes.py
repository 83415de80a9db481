"""Real `lockdown-bot` processes on one PostgreSQL database and a sharded fake Discord.

- Two processes, each running one of two shards: every slash command and click
  of a server reaches (and is answered by) the process of that server's shard,
  each process runs its own shard's games only, nothing is stored twice.
- Nobody clicks: each game's timer fires once, by the process of its shard (the
  other never loads the game, so never arms it).
- A rolling deploy: a new process starts while the old one runs the games; it
  waits for their shards; the old one gets SIGTERM, delivers, lets them go; the
  games go on in the new one with no action lost, doubled, or game paused.

The processes are the console script's entry point (`bot.run.main`), started
through `tests/ops/bot_process.py` only to point discord.py at the fake.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import sys
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import aiohttp
import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route
from sqlalchemy import text

from bot.ops.shards import shard_of
from bot.storage.database import Database
from bot.storage.servers import ServerRepository
from bot.table.server_settings import TIMER_KEYS
from lockdown_core import GameState, pending_seats
from tests.fakediscord import FakeDiscord
from tests.fakediscord.records import FakeChannel, FakeGuild, FakeMessage, FakeUser
from tests.storage.conftest import PG_URL, _pg_admin

pytestmark = [pytest.mark.postgres, pytest.mark.e2e]

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
async def pg_database() -> AsyncIterator[str]:
    """A new, empty PostgreSQL database for the processes, dropped afterwards."""
    name = f"lockdown_{uuid.uuid4().hex[:12]}"
    async with _pg_admin() as admin:
        await admin.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield PG_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        async with _pg_admin() as admin:
            await admin.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


class BotProcess:
    """One `lockdown-bot` process: its settings, its log file, its /readyz and /metrics."""

    def __init__(self, name: str, folder: Path, fake: FakeDiscord, **settings: str) -> None:
        self.name = name
        self.folder = folder / name
        self.folder.mkdir()
        self.log_path = self.folder / "stderr.log"
        self.port = free_port()
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SHARD_"))},
            "PYTHONPATH": str(REPO),
            "DISCORD_TOKEN": fake.token,
            "OPS_PORT": str(self.port),
            "LOG_LEVEL": "INFO",
            **settings,
        }
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        """Start the process, once its operators' endpoint listens (or it has exited).

        `free_port` finds a port free, but another test's server may bind it before
        this process does (four workers once did): the process then exits saying so,
        and is started again on another port.
        """
        for _attempt in range(3):
            await self._launch()
            if not await self._port_was_taken():
                return
            self.port = free_port()
            self.env["OPS_PORT"] = str(self.port)
        raise AssertionError(f"{self.name}: no free operators' port in 3 tries:\n{self.log}")

    async def _port_was_taken(self, within: float = 30.0) -> bool:
        deadline = time.monotonic() + within
        assert self.process is not None
        while time.monotonic() < deadline:
            if "operators' endpoint on" in self.log:
                return False
            if self.process.returncode is not None:
                return "OPS_PORT: cannot listen on" in self.log
            await asyncio.sleep(0.05)
        return False

    async def _launch(self) -> None:
        with self.log_path.open("wb") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.ops.bot_process",
                Route.BASE,
                str(DiscordWebSocket.DEFAULT_GATEWAY),
                cwd=self.folder,
                env=self.env,
                stdout=log,
                stderr=log,
            )

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    async def get(self, path: str) -> tuple[int, str]:
        try:
            async with (
                aiohttp.ClientSession() as session,
                session.get(f"http://127.0.0.1:{self.port}{path}") as response,
            ):
                return response.status, await response.text()
        except aiohttp.ClientConnectionError as exc:
            return 0, str(exc)

    async def until_ready(self, within: float = 60.0) -> None:
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.returncode is not None:
                raise AssertionError(f"{self.name} exited {self.process.returncode}:\n{self.log}")
            status, _ = await self.get("/readyz")
            if status == 200:
                return
            await asyncio.sleep(0.2)
        raise AssertionError(f"{self.name} not ready after {within} s:\n{self.log}")

    async def games_running(self) -> dict[str, float]:
        """`lockdown_games_running` by shard, as Prometheus would scrape it."""
        from prometheus_client.parser import text_string_to_metric_families

        status, body = await self.get("/metrics")
        assert status == 200, body
        for family in text_string_to_metric_families(body):
            if family.name == "lockdown_games_running":
                return {s.labels["shard"]: s.value for s in family.samples}
        return {}

    async def stop(self, within: float = 30.0) -> int:
        """SIGTERM, as a deploy sends it; the exit status."""
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.process.wait(), within)

    async def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


def guilds_on_shards(fake: FakeDiscord, count: int) -> list[FakeGuild]:
    """One server on each shard (ids are snowflakes: the shard follows the millisecond)."""
    found: dict[int, FakeGuild] = {}
    while len(found) < count:
        guild = fake.create_guild(f"Club {len(found)}", members=3, channels=("general",))
        found.setdefault(shard_of(guild.id, count), guild)
        time.sleep(0.002)
    return [found[shard] for shard in range(count)]


@dataclass
class Game:
    fake: FakeDiscord
    guild: FakeGuild
    thread: FakeChannel
    game_id: int

    def board(self) -> FakeMessage:
        for message in reversed(self.fake.messages(self.thread)):
            if any(b.custom_id == f"ld:h:{self.game_id}" for b in message.buttons):
                return message
        raise AssertionError("no board in the thread")


async def open_game(fake: FakeDiscord, guild: FakeGuild) -> Game:
    """/lockdown new, the two others join, the host starts: every step answered in time."""
    host, *guests = guild.members
    general = guild.channel("general")
    before = {t.id for t in fake.threads(parent=general)}  # an earlier game's, if any

    def lobby_posted() -> bool:
        return any(
            fake.messages(t) and fake.messages(t)[0].buttons
            for t in fake.threads(parent=general)
            if t.id not in before
        )

    ix = await fake.slash(host, "lockdown", subcommand="new", channel=general, within=15)
    assert ix.answered_in_time
    assert await fake.wait_until(lobby_posted, within=15)
    thread = next(t for t in fake.threads(parent=general) if t.id not in before)
    lobby = fake.messages(thread)[0]
    join = next(b.custom_id for b in lobby.buttons if b.custom_id.endswith(":join"))
    for guest in guests:
        assert (await fake.click(guest, lobby, join, within=15)).answered_in_time
    start = next(b.custom_id for b in lobby.buttons if b.custom_id.endswith(":start"))
    assert (await fake.click(host, lobby, start, within=15)).answered_in_time
    game_id = int(start.split(":")[2])
    game = Game(fake, guild, thread, game_id)

    def has_board() -> bool:
        try:
            game.board()
        except AssertionError:
            return False
        return True

    assert await fake.wait_until(has_board, within=15)
    return game


async def stored(database: Database, game_id: int) -> tuple[str, int, list[int], GameState]:
    """The game's status, version, the seq of every stored action, and its state."""
    async with database.read() as conn:
        row = (
            await conn.execute(
                text("SELECT status, version, snapshot FROM games WHERE id = :id"),
                {"id": game_id},
            )
        ).one()
        seqs = [
            r.seq
            for r in await conn.execute(
                text("SELECT seq FROM actions WHERE game_id = :id ORDER BY seq"), {"id": game_id}
            )
        ]
    return str(row.status), int(row.version), seqs, GameState.from_dict(json.loads(row.snapshot))


async def click_moves(database: Database, game: Game, count: int, rng: random.Random) -> int:
    """People whose move it is open My hand and click a choice on their panel, `count`
    times; every click is answered in time, and each is waited for until its panel shows
    the answer. Returns how many actions the game stored meanwhile."""
    _, before, _, _ = await stored(database, game.game_id)
    members = {m.id: m for m in game.guild.members}
    async with database.read() as conn:
        seat_users = {
            r.seat: r.user_id
            for r in await conn.execute(
                text("SELECT seat, user_id FROM seats WHERE game_id = :id"), {"id": game.game_id}
            )
        }
    for _ in range(count):
        _, _, _, state = await stored(database, game.game_id)
        waiting = [p for p in pending_seats(state) if seat_users.get(p) in members]
        if not waiting:
            break
        user: FakeUser = members[seat_users[rng.choice(waiting)]]
        opened_at = datetime.now(UTC)
        panel_ix = await game.fake.click(user, game.board(), f"ld:h:{game.game_id}", within=15)
        assert panel_ix.answered_in_time
        panel = await shown_panel(game, user, since=opened_at)
        for _step in range(4):
            choices = [b for b in panel.buttons if b.custom_id.startswith(("ld:a:", "ld:g:"))]
            if not choices:
                break
            button = rng.choice(choices)
            seen = len(panel.versions)
            ix = await game.fake.click(user, panel, button.custom_id, within=15)
            assert ix.answered_in_time
            # Answered by a deferral on a busy machine, the choice is stored after the
            # answer and before the panel shows it: wait for the panel, not for a quiet
            # moment (a rolling deploy once saw such an action stored during its hand-over).
            assert await game.fake.wait_until(
                lambda panel=panel, seen=seen: panel.deleted or len(panel.versions) > seen,
                within=15,
            ), f"game {game.game_id}: the panel never showed the answer to {button.custom_id}"
            if button.custom_id.startswith("ld:a:") or panel.deleted:
                break
    _, after, _, _ = await stored(database, game.game_id)
    return after - before


async def shown_panel(game: Game, user: FakeUser, since: datetime) -> FakeMessage:
    """The seat's panel that My hand clicked at `since` showed: a new one, a follow-up
    after a deferral, or the panel already open for this step, drawn again."""
    prefix = (f"ld:a:{game.game_id}:", f"ld:g:{game.game_id}:", f"ld:h:{game.game_id}")

    def drawn() -> FakeMessage | None:
        panels = [
            m
            for m in game.fake.ephemerals(user)
            if m.current.at >= since and any(b.custom_id.startswith(prefix) for b in m.buttons)
        ]
        return panels[-1] if panels else None

    assert await game.fake.wait_until(lambda: drawn() is not None, within=15), (
        f"game {game.game_id}: My hand showed no panel"
    )
    panel = drawn()
    assert panel is not None
    return panel


async def assert_whole(database: Database, game: Game) -> int:
    """Running, never paused; its log is 1..version with no gap and no double."""
    status, version, seqs, _ = await stored(database, game.game_id)
    assert status == "running"
    assert seqs == list(range(1, version + 1))
    return version


async def test_two_processes_each_run_the_games_of_their_own_shard(
    fake_discord: FakeDiscord, pg_database: str, tmp_path: Path
) -> None:
    guilds = guilds_on_shards(fake_discord, 2)
    common = {"DATABASE_URL": pg_database, "SHARD_COUNT": "2"}
    processes = [
        BotProcess(f"shard{shard}", tmp_path, fake_discord, SHARD_IDS=str(shard), **common)
        for shard in (0, 1)
    ]
    database = Database(pg_database)
    try:
        for process in processes:
            await process.start()
        for process in processes:
            await process.until_ready()
        games = [await open_game(fake_discord, guild) for guild in guilds]
        rng = random.Random(4)
        moved = [await click_moves(database, game, 6, rng) for game in games]
        assert all(m > 0 for m in moved), moved
        for game in games:
            await assert_whole(database, game)
        # Each process runs the one game of its shard, and no other.
        assert await processes[0].games_running() == {"0": 1.0}
        assert await processes[1].games_running() == {"1": 1.0}
        for shard, process in enumerate(processes):
            assert f"shard {shard} is ours" in process.log
            assert f"shard {1 - shard} is ours" not in process.log
        # Commands were synced once, by the process holding shard 0.
        assert "slash commands synced" in processes[0].log
        assert "slash commands synced" not in processes[1].log
        for process in processes:
            assert await process.stop() == 0
    finally:
        for process in processes:
            await process.kill()
        await database.close()


async def timeouts(database: Database, game: Game) -> int:
    """How many of the game's stored actions are the table's Timeout."""
    async with database.read() as conn:
        rows = await conn.execute(
            text("SELECT action FROM actions WHERE game_id = :id"), {"id": game.game_id}
        )
        return sum(json.loads(row.action)["type"] == "Timeout" for row in rows)


async def test_each_timer_fires_once_with_two_processes(
    fake_discord: FakeDiscord, pg_database: str, tmp_path: Path
) -> None:
    """Steps of 15 s (the shortest a server may set) and nobody clicks. Had both
    processes armed a game's timer, the second firing would be stored moments after
    the first (it reloads the game on the version conflict and times out the next
    step); instead each game has exactly one Timeout until its next step runs out."""
    guilds = guilds_on_shards(fake_discord, 2)
    common = {"DATABASE_URL": pg_database, "SHARD_COUNT": "2"}
    processes = [
        BotProcess(f"shard{shard}", tmp_path, fake_discord, SHARD_IDS=str(shard), **common)
        for shard in (0, 1)
    ]
    database = Database(pg_database)
    try:
        for process in processes:
            await process.start()
        for process in processes:
            await process.until_ready()
        servers = ServerRepository(database)
        for guild in guilds:
            await servers.update_settings(
                guild.id, guild.members[0].id, dict.fromkeys(TIMER_KEYS, 15)
            )
        games = [await open_game(fake_discord, guild) for guild in guilds]
        deadline = time.monotonic() + 40
        for game in games:
            while await timeouts(database, game) == 0:
                assert time.monotonic() < deadline, "the first step never ran out"
                await asyncio.sleep(0.2)
        await asyncio.sleep(5)  # a second firing would be stored within moments
        for game in games:
            assert await timeouts(database, game) == 1
            await assert_whole(database, game)
        for process in processes:
            assert await process.stop() == 0
    finally:
        for process in processes:
            await process.kill()
        await database.close()


async def test_a_rolling_deploy_hands_the_games_over_with_nothing_lost(
    fake_discord: FakeDiscord, pg_database: str, tmp_path: Path
) -> None:
    guilds = guilds_on_shards(fake_discord, 2)
    settings = {"DATABASE_URL": pg_database, "SHARD_COUNT": "2"}
    old = BotProcess("old", tmp_path, fake_discord, **settings)
    new = BotProcess("new", tmp_path, fake_discord, **settings)
    database = Database(pg_database)
    try:
        await old.start()
        await old.until_ready()
        games = [await open_game(fake_discord, guild) for guild in guilds]
        rng = random.Random(9)
        for game in games:
            assert await click_moves(database, game, 4, rng) > 0
        # The new process starts while the old one runs the games: it waits for them.
        await new.start()
        deadline = time.monotonic() + 60
        while "waiting for shard" not in (await new.get("/readyz"))[1]:
            assert time.monotonic() < deadline, new.log
            await asyncio.sleep(0.2)
        # A third one, stopped while it still waits: it leaves at once, having run nothing.
        impatient = BotProcess("impatient", tmp_path, fake_discord, **settings)
        await impatient.start()
        while "waiting for shard" not in (await impatient.get("/readyz"))[1]:
            assert time.monotonic() < deadline + 60, impatient.log
            await asyncio.sleep(0.2)
        assert await impatient.stop(within=10) == 0, impatient.log
        assert "stopped before running any game" in impatient.log
        assert "is ours" not in impatient.log
        for game in games:  # still played, by the old one
            await click_moves(database, game, 2, rng)
        before = [await assert_whole(database, game) for game in games]
        assert await old.stop() == 0, old.log
        await new.until_ready()
        after_handover = [await assert_whole(database, game) for game in games]
        assert after_handover == before, "nothing stored or lost in the hand-over"
        for game in games:
            assert await click_moves(database, game, 4, rng) > 0, "the new process plays on"
        for game in games:
            await assert_whole(database, game)
        assert await new.games_running() == {"0": 1.0, "1": 1.0}
        assert "resumed 2 games (paused 0)" in new.log, new.log
        assert "released shards 0, 1" in old.log, old.log
        assert await new.stop() == 0
    finally:
        await old.kill()
        await new.kill()
        await database.close()
