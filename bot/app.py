"""The Discord bot process: wiring settings, storage, the hub and the cog together.

Start-up, in order: the database is opened and migrated (under an advisory
lock on PostgreSQL; a problem is one sentence, `bot.ops.startup`); on SQLite
the database file is locked for this process; the bot logs in; in
`setup_hook` it takes its shards (waiting for another process to let them
go: a deploy's hand-over), resumes the games and lobbies of those shards only,
and the holder of shard 0 syncs the slash commands (`bot.takeover`). On
PostgreSQL the gateway connects meanwhile: a deploy's new process receives the
shards' clicks while the old one still runs them, and the claims decide which
process answers each (`bot.ops.handover`); on SQLite it connects after. SIGTERM stops the
tables, delivers what is queued, closes the gateway and lets the shards go, in
that order.

One piece, past 400 lines: this is where every layer is wired to the others
(the composition root), and the start-up and shutdown orders read top to bottom.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any, cast

import aiohttp
import discord
from discord.ext import commands
from prometheus_client import REGISTRY

from bot.ai_seats import make_ai
from bot.discord_http import install, process_share
from bot.discord_ui.reply import AnsweringTree, handlers_finished
from bot.discord_ui.rooms import Rooms
from bot.discord_ui.server import ServerDesk
from bot.discord_ui.service import GameService
from bot.ops import metrics
from bot.ops.build import running_commit, running_version
from bot.ops.census import census
from bot.ops.database_timing import time_statements
from bot.ops.discord_http import (
    DISCORD_DEADLINE,
    answered_in_flight,
    http_trace,
    tally_line,
    timed_request,
)
from bot.ops.handover import InteractionGate
from bot.ops.health import OpsServer
from bot.ops.shards import ShardLocks, ShardSet
from bot.ops.startup import migrate_only, open_database
from bot.render.pool import drawings
from bot.settings import Settings, StartupError, supported_url
from bot.storage.database import Database
from bot.storage.deliveries import DeliveryRepository
from bot.storage.interaction_claims import InteractionClaims
from bot.storage.people import PeopleRepository
from bot.storage.rating_seasons import SeasonRepository
from bot.storage.seat_changes import SeatChangeRepository
from bot.storage.servers import ServerRepository
from bot.storage.stats import StatsRepository
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.persist import StoredGames
from bot.table.scheduler import AsyncioScheduler, Scheduler
from bot.table.server_book import ServerBook
from bot.table.sweeper import DeadlineSweeper
from bot.table.timers import TableConfig
from bot.takeover import not_ready, take_over
from bot.web.links import game_pages

log = logging.getLogger(__name__)


class LockdownBot(commands.AutoShardedBot):
    """A bot that needs no privileged intent: it reads interactions, not messages (and
    scheduled events, for game nights).

    Sharded: it runs SHARD_IDS out of SHARD_COUNT (default: every shard of
    Discord's recommended count). With `locks`, it runs the games of a shard
    only once it holds that shard's lock; without (tests in one process), it
    runs every game of its database.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        scheduler: Scheduler | None = None,
        config: TableConfig | None = None,
        batch_delay: float = 0.4,
        edit_interval: float = 1.5,
        deliver_within: float = 5.0,
        database: Database | None = None,
        locks: ShardLocks | None = None,
        sync_commands: bool = True,
        **options: Any,
    ) -> None:
        intents = discord.Intents(guilds=True, guild_scheduled_events=True)
        if settings.shard_ids is not None:
            options["shard_ids"] = list(settings.shard_ids)
        # Names are text: nothing the bot posts pings anyone unless a send says so.
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        options.setdefault("tree_cls", AnsweringTree)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            shard_count=settings.shard_count,
            **options,
        )
        self.settings = settings
        self.budget = install(
            self.http,
            share=process_share(settings.shard_ids, settings.shard_count),
            carry_edits=settings.click_tokens_carry_edits,
            timed=timed_request,
        )
        drawings.configure(settings.drawing_workers)
        self.scheduler = scheduler or AsyncioScheduler()
        self.config = config or TableConfig()
        self.database = database or Database(settings.database_url)
        self.stored_games = StoredGames(
            BatchingGameRepository(self.database), seat_book=SeatChangeRepository(self.database)
        )
        # Far deadlines (a slow game's steps) wait in one sweeper, not one task each.
        self.hub = GameHub(
            DeadlineSweeper(self.scheduler),
            make_ai,
            self._presenter_for,
            stored_games=self.stored_games,
        )
        self.deliver_within = deliver_within
        self.service = GameService(
            self,
            self.hub,
            self.config,
            batch_delay=batch_delay,
            edit_interval=edit_interval,
            deliveries=DeliveryRepository(self.database),
            people=PeopleRepository(self.database),
        )
        db = self.database
        book = ServerBook(ServerRepository(db), StatsRepository(db), self.stored_games.games)
        self.desk = ServerDesk(self.service, book, SeasonRepository(db), game_pages(settings, db))
        self.rooms = Rooms.build(self.desk)
        self.locks = locks
        self.sync_on_start = sync_commands
        # The shards this process holds, once `setup_hook` has taken them.
        self.owned: ShardSet | None = None
        self.lost_shards = False
        self.watch: asyncio.Task[None] | None = None
        self._closing: asyncio.Future[None] | None = None
        self.resumed = False
        # Several processes may receive one interaction on PostgreSQL: claims decide.
        shared = locks is not None and not locks.is_sqlite
        self.gate = InteractionGate(InteractionClaims(self.database) if shared else None)
        if shared:  # nothing starts here (a night's lobby) before the shards are ours
            self.hub.accepting = False
        self._taking_over: asyncio.Task[None] | None = None
        self.failed_take_over: asyncio.Future[None] | None = None

    def _presenter_for(self, game_id: int, lobby: Any) -> Any:
        return self.rooms.game.threads.make_presenter(game_id, lobby)

    async def add_commands(self) -> None:
        """Every room: the slash commands, their translations, the cogs and the
        persistent components (`bot.discord_ui.rooms`)."""
        # The tree, the cogs and the dynamic items are alike on a sharded bot.
        await self.rooms.add_to(cast(commands.Bot, self), self.budget.carry_edits, self.gate)

    async def setup_hook(self) -> None:
        await self.add_commands()
        await self.database.migrate()
        if not self.gate.shared:
            await take_over(self)
            return
        # The gateway connects as soon as this returns, and receives the shards' clicks
        # (claimed through the gate) while another process may still run them.
        self._taking_over = asyncio.create_task(take_over(self))
        self._taking_over.add_done_callback(self._took_over)

    def _took_over(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.critical("could not take the shards over: stopping", exc_info=task.exception())
            self.failed_take_over = asyncio.ensure_future(self.close())

    async def lose_shards(self) -> None:
        """The shard locks are gone: stop at once, before another process plays the
        same games; the exit status says so (`run_bot`)."""
        self.lost_shards = True
        await self.shutdown()

    async def sync_command_tree(self) -> None:
        """Register the slash commands with Discord: globally, or with DEV_GUILD_ID only."""
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        log.info("slash commands synced")

    def not_ready(self) -> str | None:
        """Why /readyz says no, or None: shards held, games resumed, gateway connected."""
        return not_ready(self)

    async def close(self) -> None:
        """Once, however many callers (SIGTERM's shutdown, then `async with`'s exit): a
        second close racing the first would dispose the database under it."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close_once())
        await self._closing

    async def _close_once(self) -> None:
        if self.watch is not None and self.watch is not asyncio.current_task():
            self.watch.cancel()
        if self._taking_over is not None and self._taking_over is not asyncio.current_task():
            self._taking_over.cancel()
        # A bot closed without `shutdown` (discord.py's own close, a test's end) must
        # not leave timers playing on against the database it is about to close.
        await self._close_timers()
        for presenter in list(self.service.presenters.values()):
            await presenter.close()
        if self.locks is not None:
            await self._hang_up(self.locks)
        await super().close()
        await self.database.close()

    async def _hang_up(self, locks: ShardLocks) -> None:
        """A process's stop: close the gateway, answer the interactions already in (seen
        by `_serve`'s HTTP trace) and let their handlers finish, let the shards go, then
        (`close`) the HTTP session."""
        for shard in self.shards.values():
            await shard.disconnect()
        await self.gate.close()
        unanswered = await answered_in_flight()
        running = await handlers_finished(DISCORD_DEADLINE)
        log.info("gateway closed: %s", tally_line(unanswered))
        if running:
            log.warning("%d interactions' handlers were still running as the bot stopped", running)
        await locks.release()

    async def shutdown(self) -> None:
        """Refuse new games, let the action in flight finish, then close.

        Each table's lock is taken in turn: an action already applying is stored
        before its table stops, and none starts after. The database closes last.
        """
        self.hub.accepting = False
        if self.locks is not None and await self.locks.standing_by():
            log.info("a new process stands by for our shards: it answers the clicks from now on")
            await self.gate.leave()
        for table in list(self.hub.tables.values()):
            async with table.lock:
                table.stop()
                table.paused = True
        await self._close_timers()
        await self.deliver_queued()
        await self.close()

    async def _close_timers(self) -> None:
        """No timer fires from now on; a callback already running finishes first."""
        closer = getattr(self.hub.scheduler, "close", None)
        if closer is not None:
            await closer()

    async def deliver_queued(self) -> None:
        """Post what every thread is still waiting for, for at most `deliver_within` seconds.

        What does not make it stays behind each game's delivery cursor: the
        next start posts it.
        """
        presenters = list(self.service.presenters.values())
        done = await asyncio.gather(*(p.flush(self.deliver_within) for p in presenters))
        late = sum(1 for ok in done if not ok)
        if late:
            log.warning("%d games still had lines to post; the next start posts them", late)


class SyncOnly(LockdownBot):
    """The bot's commands and nothing else: no database, no games, no gateway."""

    async def setup_hook(self) -> None:
        await self.add_commands()


def run_bot(settings: Settings) -> None:
    """Run until stopped; SIGTERM and Ctrl-C both shut down cleanly."""
    asyncio.run(_serve(settings))


def migrate_database(settings: Settings) -> None:
    """`lockdown-bot migrate`: the schema brought to this version, nothing else."""
    asyncio.run(migrate_only(settings))


def sync_commands(settings: Settings) -> None:
    """`lockdown-bot sync-commands`: log in, register the slash commands, log out."""
    asyncio.run(_sync_only(settings))


async def _login(bot: LockdownBot, settings: Settings) -> None:
    """Log in; a refused token or an unreachable Discord is a `StartupError`."""
    token = settings.discord_token
    assert token is not None
    try:
        await bot.login(token.get_secret_value())
    except discord.LoginFailure as exc:
        raise StartupError(
            "DISCORD_TOKEN: Discord refused this token; copy it again from the Bot page "
            "of the developer portal (Reset Token gives a new one)",
            status=2,
        ) from exc
    except (aiohttp.ClientConnectionError, TimeoutError) as exc:
        raise StartupError(
            f"cannot reach Discord ({exc}); check this machine's network and DNS, then start again"
        ) from exc


async def _sync_only(settings: Settings) -> None:
    bot = SyncOnly(settings, sync_commands=False)
    try:
        await _login(bot, settings)
        await bot.sync_command_tree()
    finally:
        await bot.http.close()
        await bot.database.close()


async def _serve(settings: Settings) -> None:
    locks = ShardLocks(supported_url(settings.database_url))
    locks.lock_file()  # on SQLite, before anything else touches the file
    try:
        database = await open_database(settings)
    except BaseException:
        await locks.release()
        raise
    bot = LockdownBot(
        settings,
        database=database,
        locks=locks,
        deliver_within=settings.shutdown_delivery_seconds,
        http_trace=http_trace(),
    )
    time_statements(database.engine)
    metrics.build_info(running_version(), running_commit())
    hub = bot.hub
    collector = census(
        lambda: [(bot.service.game_server(t.game_id), t.paused) for t in hub.tables.values()],
        lambda: len(hub.lobbies),
        lambda: bot.shard_count,
        lambda: bot.latencies,
        lambda: (bot.budget.counts, bot.budget.budget.waiting),
    )
    REGISTRY.register(collector)
    ops = None
    if settings.ops_port is not None:
        ops = OpsServer(settings.ops_host, settings.ops_port, bot.not_ready)
    main = asyncio.current_task()
    stopped_early = False
    shutting_down: list[asyncio.Future[None]] = []  # kept, so the task is not collected

    def on_signal() -> None:
        """Running games: the orderly shutdown. Still waiting for shards (or resuming):
        nothing runs yet, so the start is simply abandoned."""
        nonlocal stopped_early
        if bot.resumed:
            shutting_down.append(asyncio.ensure_future(bot.shutdown()))
        elif main is not None and not stopped_early:
            stopped_early = True
            main.cancel()

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, on_signal)
    try:
        async with bot:
            if ops is not None:
                await ops.start()
            await _login(bot, settings)
            await bot.connect()
    except asyncio.CancelledError:
        if not stopped_early:
            raise
        log.info("stopped before running any game")
    finally:
        # discord.py's exit skips a close already under way: wait for SIGTERM's to end,
        # or asyncio.run would cancel it mid-way through closing the database.
        await asyncio.gather(*shutting_down, return_exceptions=True)
        await locks.release()
        if ops is not None:
            await ops.close()
        REGISTRY.unregister(collector)
    if bot.lost_shards:
        raise StartupError(
            "DATABASE_URL: the connection holding this process's shard locks was lost, so "
            "another process may run its games; stopped. Start it again once the database "
            "answers"
        )
