"""The SQL of `lockdown-bot backup` and `restore` (`bot.ops.backup`): SQLite's online
backup API and its quick check of every page, here because storage is what speaks
SQL. `CopyFailed` carries SQLite's own words for the command's one line.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from bot.settings import StartupError


class CopyFailed(Exception):
    """SQLite refused the copy (disk full, file locked, not a database...)."""


def snapshot(source: Path, target: Path) -> None:
    """A consistent copy of `source` into the new file `target`, checked, standing alone
    (no -wal or -shm file beside it), while a bot may be writing to `source`."""
    try:
        with _connect(source) as src, _connect(target) as dst:
            src.backup(dst)
            _check(dst, target)
            dst.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.Error as exc:
        raise CopyFailed(str(exc)) from exc


def overwrite(backup_file: Path, target: Path) -> None:
    """The checked backup's pages into the database `target`, in one transaction."""
    try:
        with _connect(backup_file, read_only=True) as src:
            _check(src, backup_file)
            with _connect(target) as dst:
                src.backup(dst)
    except sqlite3.Error as exc:
        raise CopyFailed(str(exc)) from exc


@contextlib.contextmanager
def _connect(path: Path, *, read_only: bool = False) -> Iterator[sqlite3.Connection]:
    uri = path.resolve().as_uri() + ("?mode=ro" if read_only else "")
    connection = sqlite3.connect(uri, uri=True, timeout=30)
    try:
        yield connection
    finally:
        connection.close()


def _check(connection: sqlite3.Connection, path: Path) -> None:
    """SQLite's own quick check of every page: a damaged copy is refused, never used."""
    try:
        (result,) = connection.execute("PRAGMA quick_check").fetchone()
    except sqlite3.DatabaseError as exc:
        raise StartupError(f"{path} is not a SQLite database ({exc})", status=2) from exc
    if result != "ok":
        raise StartupError(f"{path} is damaged: {result}", status=2)
