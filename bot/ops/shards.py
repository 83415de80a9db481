"""Which process runs which games: shards, and one owner per shard at a time.

Discord splits a bot's servers into shards by `(guild_id >> 22) % shard_count`;
each gateway connection serves one shard. A process runs some shards
(SHARD_IDS) and must be the only one loading, timing and writing the games
of those shards, or two processes fire the same timers and fight over every
click. The guarantee is a lock per shard held for as long as the process runs
them:

- PostgreSQL: a session-level advisory lock per shard, on a connection kept
  open for that purpose. It is released when the process releases it at
  shutdown, or by the server when the process dies and its connection drops.
  A process that finds a shard taken waits and takes it when it frees: a
  deploy starts the new process, sends SIGTERM to the old one, which delivers
  what is queued, releases its shards, and the new one resumes their games.
- SQLite (one machine, one process): an exclusive `flock` on the database
  file; a second process on the same file refuses to start.

A deploy loses no click in the hand-over (`bot.ops.handover`): the new process's
gateway connects while it still waits, and it says so (`stand_by`, a shared lock
per shard); the old one, seeing a process standing by (`standing_by`), leaves
it the clicks that arrive during its stop, claiming them only if it does not.

Shard 1 of 2 and shard 1 of 4 are different servers: processes must agree on
SHARD_COUNT. Each holds a shared lock keyed by its count, and one with another
count waits until no process of the old count is left (a resharding deploy).
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import URL

from bot.settings import StartupError
from bot.storage.advisory_locks import AdvisoryLocks

log = logging.getLogger(__name__)

__all__ = ["ShardLocks", "ShardSet", "shard_of"]


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's own rule: which shard's gateway connection receives this server."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class ShardSet:
    """The shards a process runs, out of `count`."""

    count: int
    ids: tuple[int, ...]

    @classmethod
    def all_of(cls, count: int) -> ShardSet:
        return cls(count, tuple(range(count)))

    def owns(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    @property
    def everything(self) -> bool:
        """True when these shards cover every server: no filter is needed."""
        return set(self.ids) == set(range(self.count))


class ShardLocks:
    """The locks of a process's shards, on PostgreSQL (advisory) or SQLite (flock).

    `acquire` returns once every shard is held, waiting for each as long as it
    takes (`waiting` tells which one, for /readyz). `release` lets them go.
    """

    def __init__(self, url: URL, *, poll_seconds: float = 0.1) -> None:
        self.url = url
        self.poll_seconds = poll_seconds
        self.is_sqlite = url.get_backend_name() == "sqlite"
        self.held: list[int] = []
        # The shards this process's gateway receives while it waits for them.
        self.standing: list[int] = []
        # The shard this process is waiting for, or the SHARD_COUNT of others it waits out.
        self.waiting: int | None = None
        self.other_count: int | None = None
        # PostgreSQL: the locks' own connection and its SQL (`bot.storage.advisory_locks`).
        self._pg = None if self.is_sqlite else AdvisoryLocks(url)
        self._file: int | None = None

    def lock_file(self) -> None:
        """SQLite: take the database file for this process, or refuse to start.

        Called before anything opens the database, so that a second process
        stops at once with one sentence instead of running every game twice.
        An in-memory database belongs to its process anyway.
        """
        database = self.url.database
        if not self.is_sqlite or not database or database == ":memory:":
            return
        path = Path(database)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StartupError(
                f"DATABASE_URL: {path} cannot be opened for writing ({exc.strerror or exc}); "
                "make it writable by this user, or choose another path"
            ) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise StartupError(
                f"DATABASE_URL: another lockdown-bot is already running on {path}; stop it "
                "first (one process per SQLite file), or use PostgreSQL to run several"
            ) from None
        self._file = fd

    async def acquire(
        self,
        shards: Sequence[int],
        *,
        count: int | None = None,
        on_wait: Callable[[int], object] | None = None,
        connected: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        """Hold every shard of `shards` (out of `count`), waiting for those another
        process holds, and first for processes sharded by another count to be gone.
        Once `connected` returns (the gateway receives the shards), stand by for them."""
        if self._pg is None:
            self.held = list(shards)
            return
        standing = None
        if connected is not None:
            standing = asyncio.create_task(self._stand_by_once(connected, shards))
        try:
            await self._acquire(shards, count, on_wait)
        finally:
            if standing is not None and not standing.done():
                standing.cancel()

    async def _stand_by_once(
        self, connected: Callable[[], Awaitable[object]], shards: Sequence[int]
    ) -> None:
        await connected()
        # Not cut off mid-statement by the end of the wait: the locks' connection is shared.
        await asyncio.shield(self.stand_by(shards))

    async def _acquire(
        self, shards: Sequence[int], count: int | None, on_wait: Callable[[int], object] | None
    ) -> None:
        assert self._pg is not None
        if count is not None:
            await self._agree_on(count)
        for shard in shards:
            announced = False
            while not await self._pg.try_shard(shard):
                if not announced:
                    log.info("shard %s is run by another process; waiting for it", shard)
                    announced = True
                    self.waiting = shard
                    if on_wait is not None:
                        on_wait(shard)
                await asyncio.sleep(self.poll_seconds)
            self.waiting = None
            self.held.append(shard)
            log.info("shard %s is ours", shard)
        for shard in self.standing:
            await self._pg.stand_down(shard)
        self.standing = []

    async def stand_by(self, shards: Sequence[int]) -> None:
        """Say that this process's gateway already receives `shards` while it waits for
        them: their holder leaves the clicks of its stop to this process."""
        if self._pg is None:
            return
        for shard in shards:
            if shard not in self.held and shard not in self.standing:
                await self._pg.stand_by(shard)
                self.standing.append(shard)
                log.info("standing by for shard %s: its clicks are claimed after a grace", shard)

    async def standing_by(self) -> bool:
        """Whether another process's gateway receives every shard this one holds, waiting
        for them: then it answers the clicks this process leaves as it stops."""
        if self._pg is None or not self.held:
            return False
        for shard in self.held:
            if not await self._pg.standing_by(shard):
                return False
        return True

    async def _agree_on(self, count: int) -> None:
        """Hold this count's shared lock, then wait while any other count's is held."""
        assert self._pg is not None
        await self._pg.hold_count(count)
        while True:
            other = await self._pg.other_count(count)
            if other is None:
                self.other_count = None
                return
            if self.other_count is None:
                log.info("processes with SHARD_COUNT %s still run; waiting for them", other)
            self.other_count = other
            await asyncio.sleep(self.poll_seconds)

    async def alive(self) -> bool:
        """Whether the locks are still ours: their connection still answers."""
        if self._pg is None or not self._pg.connected:
            return True
        try:
            await self._pg.ping()
        except Exception:
            log.exception("the connection holding the shard locks is gone")
            return False
        return True

    async def release(self) -> None:
        """Let every shard go (closing the connection would too; this says so first)."""
        if self._pg is not None:
            await self._pg.close()
        if self._file is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
            os.close(self._file)
            self._file = None
        if self.held:
            log.info("released shards %s", ", ".join(map(str, self.held)))
        self.held = []


async def watch_locks(
    locks: ShardLocks, on_lost: Callable[[], Awaitable[object]], interval: float = 5.0
) -> None:
    """Check every `interval` seconds that the locks are still held; if their connection
    is gone (the database restarted, the network dropped it), the server has let them go
    and another process may already run these shards: `on_lost` stops this one."""
    while True:
        if not await locks.alive():
            break
        await asyncio.sleep(interval)
    log.critical("lost the shard locks %s: stopping", ", ".join(map(str, locks.held)))
    await on_lost()


def parse_ids(ids: Iterable[int] | None, count: int) -> ShardSet:
    """The shards of SHARD_IDS, or all of them."""
    return ShardSet(count, tuple(ids)) if ids is not None else ShardSet.all_of(count)
