"""`lockdown-bot backup FILE` and `lockdown-bot restore FILE`, for a SQLite database.

Every start migrates the schema forward, and an older build refuses a newer
schema: going back to an older release means going back to a backup taken
before the upgrade. A copy of the file with `cp` while the bot runs can catch
a write half done (the WAL file beside it holds the newest pages); SQLite's
online backup API copies a consistent snapshot instead, while the bot goes on
writing (WAL lets a reader and the writer work at once). The copy is written
under a temporary name and renamed when complete, so an interrupted backup
never leaves a file that looks whole.

Restoring writes the backup into the configured database through the same
API, inside one transaction, so the database's own WAL and journal stay
consistent (copying a file over a database whose `-wal` file is still there
would replay stale pages onto it). It refuses while a bot runs on that file:
it takes the same lock a running bot holds.

PostgreSQL has its own tools: `pg_dump` and `pg_restore` (README, "Backups
and upgrades"); these commands say so rather than half-doing it. The SQL
itself (the backup API, the check) is storage's: `bot.storage.sqlite_copy`.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from bot.ops.shards import ShardLocks
from bot.settings import Settings, StartupError, supported_url
from bot.storage.sqlite_copy import CopyFailed, overwrite, snapshot

PG_DUMP_HINT = (
    "on PostgreSQL, back up with pg_dump --format=custom and restore with pg_restore "
    "(README: Backups and upgrades)"
)


@dataclass(frozen=True, slots=True)
class Copied:
    """What a backup or a restore wrote, for the one line the command prints."""

    source: Path
    target: Path
    size: int

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} ({self.size:,} bytes)"


def sqlite_path(settings: Settings, command: str) -> Path:
    """The SQLite file of DATABASE_URL; PostgreSQL or an in-memory database is refused."""
    url = make_url(settings.database_url)
    if url.get_backend_name() != "sqlite":
        raise StartupError(f"{command} copies a SQLite database; {PG_DUMP_HINT}", status=2)
    if not url.database or url.database == ":memory:":
        raise StartupError(
            f"DATABASE_URL: an in-memory database has nothing to {command}", status=2
        )
    return Path(url.database)


def backup(settings: Settings, target: Path) -> Copied:
    """Copy the SQLite database to `target`, a new file, while the bot may be running."""
    source = sqlite_path(settings, "backup")
    if not source.is_file():
        raise StartupError(f"DATABASE_URL: {source} does not exist; nothing to back up", status=2)
    if target.exists():
        raise StartupError(
            f"{target} already exists; choose a new file name (a backup never overwrites)",
            status=2,
        )
    partial = target.with_name(f".{target.name}.partial")
    try:
        snapshot(source, partial)
        partial.replace(target)
    except (OSError, CopyFailed) as exc:
        raise StartupError(f"backup to {target} failed: {exc}") from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return Copied(source, target, target.stat().st_size)


async def restore(settings: Settings, backup_file: Path) -> Copied:
    """Replace the SQLite database with the backup's content; the bot must be stopped."""
    target = sqlite_path(settings, "restore")
    locks = ShardLocks(supported_url(settings.database_url))
    await asyncio.to_thread(_take, backup_file, target, locks)
    try:
        size = await asyncio.to_thread(_restore, backup_file, target)
    finally:
        await locks.release()
    return Copied(backup_file, target, size)


def _take(backup_file: Path, target: Path, locks: ShardLocks) -> None:
    """Check the backup is there and hold the database file as a running bot would."""
    if not backup_file.is_file():
        raise StartupError(f"{backup_file} does not exist; nothing to restore", status=2)
    target.parent.mkdir(parents=True, exist_ok=True)
    # A running bot holds this lock: it is refused with the sentence saying so.
    locks.lock_file()


def _restore(backup_file: Path, target: Path) -> int:
    """The backup's pages into the database in one transaction; the database's size."""
    try:
        overwrite(backup_file, target)
    except CopyFailed as exc:
        raise StartupError(f"restore from {backup_file} failed: {exc}") from exc
    return target.stat().st_size
