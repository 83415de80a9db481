"""bot/ops/shards.py: which shard a server is on, and one process per shard at a time."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from bot.ops.shards import ShardLocks, ShardSet, parse_ids, shard_of
from bot.settings import StartupError
from tests.storage.conftest import PG_URL, _pg_admin


def test_a_server_is_on_discords_shard() -> None:
    # Ids built to land on a known shard: (id >> 22) % count, the low 22 bits ignored.
    for count in (1, 2, 16):
        for shard in range(count):
            guild = ((1000 * count + shard) << 22) | 12345
            assert shard_of(guild, count) == shard
            assert ShardSet(count, (shard,)).owns(guild)
            assert not ShardSet(count, ()).owns(guild)


def test_shard_sets() -> None:
    assert parse_ids(None, 3) == ShardSet(3, (0, 1, 2))
    assert parse_ids((2,), 3) == ShardSet(3, (2,))
    assert ShardSet.all_of(2).everything
    assert not ShardSet(2, (1,)).everything


@pytest.mark.postgres
async def test_a_second_process_waits_for_a_shard_and_takes_it_when_it_frees() -> None:
    async with _pg_admin():
        pass  # skips when PostgreSQL is not there
    url = make_url(PG_URL)
    old, new = ShardLocks(url, poll_seconds=0.05), ShardLocks(url, poll_seconds=0.05)
    # Shards far from 0 and 1: the keys of real bots running on the same server are left alone.
    first, second = 9000 + uuid.uuid4().int % 1000, 8000 + uuid.uuid4().int % 1000
    waited: list[int] = []
    try:
        await old.acquire([first, second])
        taking = asyncio.create_task(new.acquire([second, first], on_wait=waited.append))
        await asyncio.sleep(0.3)
        assert not taking.done(), "a held shard is not taken"
        assert new.waiting == second
        assert waited == [second]
        assert new.held == []
        await old.release()
        await asyncio.wait_for(taking, 5)
        assert new.held == [second, first]
        assert new.waiting is None
        assert await new.alive()
    finally:
        await old.release()
        await new.release()


@pytest.mark.postgres
async def test_a_process_that_dies_lets_its_shards_go() -> None:
    """kill -9: the server drops the connection and its locks with it."""
    async with _pg_admin():
        pass
    shard = 7000 + uuid.uuid4().int % 1000
    holder = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        textwrap.dedent(
            f"""
            import asyncio
            from sqlalchemy.engine import make_url
            from bot.ops.shards import ShardLocks
            async def main():
                locks = ShardLocks(make_url({PG_URL!r}))
                await locks.acquire([{shard}])
                print("held", flush=True)
                await asyncio.sleep(60)
            asyncio.run(main())
            """
        ),
        stdout=asyncio.subprocess.PIPE,
    )
    locks = ShardLocks(make_url(PG_URL), poll_seconds=0.05)
    try:
        assert holder.stdout is not None
        assert await holder.stdout.readline() == b"held\n"
        taking = asyncio.create_task(locks.acquire([shard]))
        await asyncio.sleep(0.3)
        assert not taking.done()
        holder.kill()
        await asyncio.wait_for(taking, 10)
        assert locks.held == [shard]
    finally:
        if holder.returncode is None:
            holder.kill()
        await holder.wait()
        await locks.release()


def test_a_second_process_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    url = make_url(f"sqlite+aiosqlite:///{tmp_path / 'lockdown.db'}")
    first, second = ShardLocks(url), ShardLocks(url)
    first.lock_file()
    try:
        with pytest.raises(StartupError) as refused:
            second.lock_file()
        assert "another lockdown-bot is already running on" in refused.value.sentence
        assert "PostgreSQL" in refused.value.sentence
    finally:
        asyncio.run(first.release())
    second.lock_file()  # free again once the first let go
    asyncio.run(second.release())


def test_lockdown_bot_refuses_to_start_on_a_sqlite_file_in_use(tmp_path: Path) -> None:
    """A real second `lockdown-bot` on the file of a running one: one sentence, exit 1."""
    database = tmp_path / "lockdown.db"
    url = f"sqlite+aiosqlite:///{database}"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import sys, time
                from sqlalchemy.engine import make_url
                from bot.ops.shards import ShardLocks
                ShardLocks(make_url({url!r})).lock_file()
                print("running", flush=True)
                time.sleep(60)
                """
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline() == "running\n"
        env = {**os.environ, "DISCORD_TOKEN": "not.a.real.token", "DATABASE_URL": url}
        script = Path(sys.executable).parent / "lockdown-bot"
        result = subprocess.run(
            [str(script)], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60
        )
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()
    assert result.returncode == 1, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("lockdown-bot: DATABASE_URL: another lockdown-bot is already running")
    assert "Traceback" not in result.stderr


@pytest.mark.postgres
async def test_a_process_whose_lock_connection_drops_is_stopped() -> None:
    """The database drops the connection (a restart, a network cut): the locks are gone
    with it, so the process must stop before another one runs the same games."""
    from sqlalchemy import text

    from bot.ops.shards import watch_locks
    from bot.storage.advisory_locks import SHARD_LOCK_CLASS

    shard = 6000 + uuid.uuid4().int % 1000
    locks = ShardLocks(make_url(PG_URL), poll_seconds=0.05)
    other = ShardLocks(make_url(PG_URL), poll_seconds=0.05)
    stopped = asyncio.Event()

    async def stop() -> None:
        stopped.set()

    try:
        await locks.acquire([shard])
        watching = asyncio.create_task(watch_locks(locks, stop, interval=0.05))
        await asyncio.sleep(0.2)
        assert not stopped.is_set(), "nothing happens while the locks are held"
        async with _pg_admin() as admin:
            await admin.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' "
                    "AND classid = :cls AND objid = :shard"
                ),
                {"cls": SHARD_LOCK_CLASS, "shard": shard},
            )
        await asyncio.wait_for(stopped.wait(), 5)
        await asyncio.wait_for(watching, 1)
        await asyncio.wait_for(other.acquire([shard]), 5)  # free for a healthy process
    finally:
        await locks.release()
        await other.release()


@pytest.mark.postgres
async def test_a_process_with_another_shard_count_waits_for_the_old_ones_to_stop() -> None:
    """Shard 1 of 2 and shard 1 of 4 hold different servers: a resharding deploy's new
    processes wait until no process of the old count runs, then take their shards."""
    async with _pg_admin():
        pass
    old, new = (
        ShardLocks(make_url(PG_URL), poll_seconds=0.05),
        ShardLocks(make_url(PG_URL), poll_seconds=0.05),
    )
    same = ShardLocks(make_url(PG_URL), poll_seconds=0.05)
    base = 5000 + uuid.uuid4().int % 1000
    try:
        await old.acquire([base], count=2)
        await asyncio.wait_for(same.acquire([base + 1], count=2), 5)  # same count: no wait
        taking = asyncio.create_task(new.acquire([base + 2], count=4))
        await asyncio.sleep(0.3)
        assert not taking.done()
        assert new.other_count == 2
        assert new.held == []
        await old.release()
        await asyncio.sleep(0.3)
        assert not taking.done(), "one process of the old count still runs"
        await same.release()
        await asyncio.wait_for(taking, 5)
        assert new.held == [base + 2]
        assert new.other_count is None
    finally:
        for locks in (old, new, same):
            await locks.release()
