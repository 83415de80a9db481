"""Faults of the store on demand, for tests (issue 13).

`StoreFaults` sits at the database driver's door (SQLAlchemy's cursor and
commit events), so a failure goes through every layer above it as a real one
would: the write-behind batch, its one-by-one retry, the repository, the
table. It fails write statements (INSERT, UPDATE, DELETE) or commits with the
errors a full disk, a read-only database, a lock timeout or a lost PostgreSQL
connection raise, either the next N of them or every one during an outage.
`at="after_commit"` commits for real and then raises: a connection lost
while the COMMIT's answer was on its way, so the caller believes nothing was
stored when everything was.
`after` lets the first statements of a transaction through, so a transaction
fails half-way and must be rolled back whole.

`SmallDisk` is the real thing where the tests run as root: a tiny tmpfs that
can be filled up, or an ext4 file marked immutable (`chattr +i`), so the
kernel itself refuses the writes. Where that is not possible its fixture
skips, saying why.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import sqlite3
import subprocess
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.exc import InterfaceError, OperationalError

from bot.storage.database import Database
from bot.storage.driver import DriverWrite

Fault = Callable[[str], BaseException]
WRITES = ("INSERT", "UPDATE", "DELETE")


def disk_full(statement: str) -> BaseException:
    """SQLite's answer when the file system has no room left (SQLITE_FULL)."""
    return OperationalError(statement, None, sqlite3.OperationalError("database or disk is full"))


def read_only(statement: str) -> BaseException:
    """SQLite's answer on a database it may no longer write (SQLITE_READONLY)."""
    return OperationalError(
        statement, None, sqlite3.OperationalError("attempt to write a readonly database")
    )


def locked(statement: str) -> BaseException:
    """SQLite's lock timeout: another writer held the database past the busy timeout."""
    return OperationalError(statement, None, sqlite3.OperationalError("database is locked"))


def connection_lost(statement: str) -> BaseException:
    """What asyncpg raises when the PostgreSQL server goes away mid-transaction."""
    return InterfaceError(
        statement, None, ConnectionResetError("connection was closed in the middle of operation")
    )


def no_space(statement: str) -> BaseException:
    """The operating system's own ENOSPC, not wrapped by the driver."""
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


FAULTS: dict[str, Fault] = {
    "disk_full": disk_full,
    "read_only": read_only,
    "locked": locked,
    "connection_lost": connection_lost,
    "no_space": no_space,
}


class StoreFaults:
    """Fails a database's writes on demand; `detach` puts it back as it was.

    The write path that goes to the driver directly, aiosqlite or asyncpg
    (`Database.driver_write`), passes no SQLAlchemy event, so its door is
    watched too: the database's `driver_write` is replaced by one that hands
    out a `_FaultyDriver`.
    """

    def __init__(self, database: Database) -> None:
        self._database = database
        self._engine = database.engine.sync_engine
        self._pending: list[tuple[Fault, str, int]] = []
        self._down: tuple[Fault, str, int] | None = None
        # Write statements seen in each open transaction, by connection.
        self._seen: dict[int, int] = {}
        self.injected = 0
        event.listen(self._engine, "begin", self._on_begin)
        event.listen(self._engine, "before_cursor_execute", self._on_statement)
        event.listen(self._engine, "commit", self._on_commit)
        self._driver_write = database.driver_write
        database.driver_write = self._faulty_driver_write  # type: ignore[method-assign]

    def detach(self) -> None:
        event.remove(self._engine, "begin", self._on_begin)
        event.remove(self._engine, "before_cursor_execute", self._on_statement)
        event.remove(self._engine, "commit", self._on_commit)
        del self._database.driver_write

    def fail_next(
        self, count: int = 1, fault: Fault = disk_full, *, at: str = "statement", after: int = 0
    ) -> None:
        """The next `count` write transactions fail: at a write statement (the first
        one past `after` in the transaction), at their commit (`at="commit"`), or
        just after it, once committed (`at="after_commit"`)."""
        if at not in ("statement", "commit", "after_commit"):
            raise ValueError(at)
        self._pending.extend([(fault, at, after)] * count)

    @contextlib.contextmanager
    def outage(
        self, fault: Fault = disk_full, *, at: str = "statement", after: int = 0
    ) -> Iterator[None]:
        """Every write transaction fails while the block runs."""
        self._down = (fault, at, after)
        try:
            yield
        finally:
            self._down = None

    def heal(self) -> None:
        self._pending.clear()
        self._down = None

    @property
    def armed(self) -> int:
        """Failures still waiting for a transaction."""
        return len(self._pending)

    def _next(self, at: str, written: int) -> Fault | None:
        plan = self._down or (self._pending[0] if self._pending else None)
        if plan is None:
            return None
        fault, where, after = plan
        if where != at and not (at == "commit" and where == "after_commit"):
            return None
        if at == "statement" and written <= after:
            return None
        if self._down is None:
            self._pending.pop(0)
        self.injected += 1
        return fault

    def _on_begin(self, conn: Connection) -> None:
        self._seen[id(conn)] = 0

    def _on_statement(
        self,
        conn: Connection,
        cursor: Any,
        statement: str,
        parameters: Any,
        context: Any,
        executemany: bool,
    ) -> None:
        if not statement.lstrip().upper().startswith(WRITES):
            return
        written = self._seen.get(id(conn), 0) + 1
        self._seen[id(conn)] = written
        fault = self._next("statement", written)
        if fault is not None:
            raise fault(statement)

    def _on_commit(self, conn: Connection) -> None:
        fault, after_commit = self._at_commit(self._seen.pop(id(conn), 0))
        if fault is None:
            return
        if after_commit:
            conn.connection.dbapi_connection.commit()  # type: ignore[union-attr]
        raise fault("COMMIT")

    def _at_commit(self, written: int) -> tuple[Fault | None, bool]:
        """The fault for a commit after `written` write statements, and whether it
        strikes once the commit is done."""
        if written == 0:
            return None, False
        plan = self._down or (self._pending[0] if self._pending else None)
        fault = self._next("commit", written)
        return fault, fault is not None and plan is not None and plan[1] == "after_commit"

    @contextlib.asynccontextmanager
    async def _faulty_driver_write(self) -> AsyncIterator[_FaultyDriver]:
        async with self._driver_write() as driver:
            faulty = _FaultyDriver(driver, self)
            yield faulty
            fault, after_commit = self._at_commit(faulty.written)
            if fault is not None and not after_commit:
                raise fault("COMMIT")  # inside the transaction: rolled back
        if fault is not None:
            raise fault("COMMIT")  # committed, and the answer lost


class _FaultyDriver:
    """The driver's connection as `Database.driver_write` yields it (`DriverWrite`),
    failing the writes `StoreFaults` plans, as `_on_statement` does on the
    SQLAlchemy path."""

    def __init__(self, driver: DriverWrite, faults: StoreFaults) -> None:
        self._driver = driver
        self._faults = faults
        self.written = 0

    def _check(self, statement: str) -> None:
        if not statement.lstrip().upper().startswith(WRITES):
            return
        self.written += 1
        fault = self._faults._next("statement", self.written)
        if fault is not None:
            raise fault(statement)

    async def execute(self, statement: str, parameters: Sequence[Any]) -> int:
        self._check(statement)
        return await self._driver.execute(statement, parameters)

    async def executemany(self, statement: str, rows: Iterable[Sequence[Any]]) -> None:
        self._check(statement)
        await self._driver.executemany(statement, rows)

    async def fetchone(self, statement: str, parameters: Sequence[Any]) -> Sequence[Any] | None:
        self._check(statement)
        return await self._driver.fetchone(statement, parameters)


class SmallDisk:
    """A real file system that runs out of room, or a file the kernel will not let
    anyone write (root only; see `small_disk` in tests/table/test_failed_save.py)."""

    def __init__(self, root: Path, size_kib: int = 2048) -> None:
        self.root = root
        self.size_kib = size_kib
        self._filler = root / "filler"

    @classmethod
    def why_not(cls) -> str | None:
        """None where a tmpfs can be mounted here, else why not."""
        if os.geteuid() != 0:
            return "mounting a small tmpfs needs root"
        if shutil.which("mount") is None or shutil.which("umount") is None:
            return "no mount/umount on this machine"
        return None

    def mount(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={self.size_kib}k", "tmpfs", str(self.root)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise OSError(f"cannot mount a tmpfs: {done.stderr.strip()}")

    def unmount(self) -> None:
        subprocess.run(["umount", "-l", str(self.root)], capture_output=True, check=False)

    def fill(self) -> int:
        """Write until the kernel says ENOSPC; returns the bytes written."""
        written = 0
        chunk = b"\0" * 4096
        fd = os.open(self._filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            while True:
                try:
                    written += os.write(fd, chunk)
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise
                    return written
        finally:
            os.close(fd)

    def free(self) -> None:
        self._filler.unlink(missing_ok=True)


def immutable(paths: list[Path]) -> contextlib.AbstractContextManager[None]:
    """`chattr +i` on `paths` for the block (ext4 and root): every write to them,
    through descriptors already open too, fails with EPERM, as on a file system
    that turned read-only under the bot."""

    @contextlib.contextmanager
    def block() -> Iterator[None]:
        marked: list[Path] = []
        try:
            for path in paths:
                if path.exists():
                    subprocess.run(["chattr", "+i", str(path)], check=True, capture_output=True)
                    marked.append(path)
            yield
        finally:
            for path in marked:
                subprocess.run(["chattr", "-i", str(path)], check=False, capture_output=True)

    return block()
