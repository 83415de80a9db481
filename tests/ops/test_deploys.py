"""Rolling deploys under clicks, on PostgreSQL: no click that reaches a process goes
unanswered, whatever moment of the old process's stop it arrives at.

People keep clicking a running game (My hand, then a choice) while the bot is
deployed again and again: each time a new `lockdown-bot` process starts and
waits for the shard, the old one gets SIGTERM, refuses what it cannot take
("paused for a moment"), closes its gateway, answers what it already had,
lets the shard go, and only then closes its HTTP session; the new one takes
the shard and plays on. A click sent while no process holds the shard's
gateway reaches nobody (Discord itself would fail it): those are counted
apart, as the hand-over's cost, and the hand-over is timed.

`test_a_few_rolling_deploys_drop_no_click` runs in CI (3 deploys);
`test_twenty_rolling_deploys_drop_no_click` is the long run (`-m realtime`), its
figures printed (`-s`) for the release notes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.storage.database import Database
from bot.texts import t
from lockdown_core import pending_seats
from tests.fakediscord import FakeDiscord, ImpossibleAction
from tests.fakediscord.records import FakeInteraction
from tests.ops.test_processes import (
    BotProcess,
    Game,
    guilds_on_shards,
    open_game,
    pg_database,
    stored,
)

pytestmark = [pytest.mark.postgres, pytest.mark.e2e]

__all__ = ["pg_database"]

STOPPING = {t("en", "error.game_paused"), t("en", "error.shutting_down")}
CLOSED = re.compile(
    r"gateway closed: (\d+) interactions received, (\d+) answered, "
    r"(\d+) refused as stopping, (\d+) left unanswered"
)


@dataclass
class Tally:
    """What the people clicking saw."""

    sent: list[FakeInteraction] = field(default_factory=list)
    reached_nobody: int = 0  # no process held the shard's gateway at that moment
    handovers: list[float] = field(default_factory=list)  # SIGTERM to the new one ready
    gaps: list[float] = field(default_factory=list)  # no gateway connected for the shard

    def refused(self) -> list[FakeInteraction]:
        return [ix for ix in self.sent if _text_of(ix) in STOPPING]

    def unanswered(self) -> list[FakeInteraction]:
        return [ix for ix in self.sent if not ix.answered]


def _text_of(ix: FakeInteraction) -> str | None:
    data = ix.response_data or {}
    if ix.followups:
        return ix.followups[0].content
    return data.get("content") if isinstance(data, dict) else None


async def click_on(fake: FakeDiscord, database: Database, games: list[Game], tally: Tally) -> None:
    """Whoever's move it is opens My hand and clicks a choice, again and again; when the
    game is over (its board has no button left), the host opens the next one."""
    rng = random.Random(25)
    while True:
        try:
            await click_one_game(fake, database, games[-1], tally, rng)
        except ImpossibleAction:
            await fake.settle(quiet=0.5)
            games.append(await open_game(fake, games[-1].guild))


async def click_one_game(
    fake: FakeDiscord, database: Database, game: Game, tally: Tally, rng: random.Random
) -> None:
    members = {m.id: m for m in game.guild.members}
    async with database.read() as conn:
        rows = await conn.execute(
            text("SELECT seat, user_id FROM seats WHERE game_id = :id"), {"id": game.game_id}
        )
        seats = {r.seat: r.user_id for r in rows}
    while True:
        _, _, _, state = await stored(database, game.game_id)
        waiting = [p for p in pending_seats(state) if seats.get(p) in members]
        user = members[seats[rng.choice(waiting)]] if waiting else game.guild.members[0]
        try:
            board = game.board()
            ix = await fake.click(user, board, f"ld:h:{game.game_id}", wait=False)
        except RuntimeError:  # "no bot is connected": the shard is between processes
            tally.reached_nobody += 1
            await asyncio.sleep(0.05)
            continue
        tally.sent.append(ix)
        if await fake.wait_answered(ix, 5) and ix.original is not None:
            choices = [b for b in ix.original.buttons if b.custom_id.startswith("ld:a:")]
            if choices:
                with contextlib.suppress(RuntimeError, ImpossibleAction):
                    act = await fake.click(
                        user, ix.original, rng.choice(choices).custom_id, wait=False
                    )
                    tally.sent.append(act)
                    await fake.wait_answered(act, 5)
        await asyncio.sleep(rng.uniform(0.02, 0.1))


async def watch_gaps(fake: FakeDiscord, tally: Tally) -> None:
    """Time every stretch with no gateway connected (one shard: one connection)."""
    since: float | None = None
    while True:
        if fake.connections == 0 and since is None:
            since = time.monotonic()
        elif fake.connections > 0 and since is not None:
            tally.gaps.append(time.monotonic() - since)
            since = None
        await asyncio.sleep(0.005)


async def rolling_deploys(
    fake: FakeDiscord, url: str, folder: Path, deploys: int
) -> tuple[Tally, list[BotProcess]]:
    settings = {"DATABASE_URL": url, "SHARD_COUNT": "1"}
    (guild,) = guilds_on_shards(fake, 1)
    processes = [BotProcess("build0", folder, fake, **settings)]
    database = Database(url)
    tally = Tally()
    try:
        await processes[0].start()
        await processes[0].until_ready()
        games = [await open_game(fake, guild)]
        clicks = asyncio.create_task(click_on(fake, database, games, tally))
        gaps = asyncio.create_task(watch_gaps(fake, tally))
        for build in range(1, deploys + 1):
            await asyncio.sleep(1.0)  # clicks on the running process
            old, new = processes[-1], BotProcess(f"build{build}", folder, fake, **settings)
            processes.append(new)
            await new.start()
            deadline = time.monotonic() + 60
            while "waiting for shard" not in (await new.get("/readyz"))[1]:
                assert time.monotonic() < deadline, new.log
                await asyncio.sleep(0.05)
            stopped = time.monotonic()
            stop = asyncio.create_task(old.stop())
            await new.until_ready()
            tally.handovers.append(time.monotonic() - stopped)
            assert await stop == 0, old.log
        await asyncio.sleep(1.0)
        assert not clicks.done(), clicks.exception()  # people clicked to the end
        clicks.cancel()
        gaps.cancel()
        await asyncio.gather(clicks, gaps, return_exceptions=True)
        for ix in tally.sent:
            await fake.wait_answered(ix, 5)
        for game in games:  # running or over, each log is 1..version, no gap, no double
            _, version, seqs, _ = await stored(database, game.game_id)
            assert seqs == list(range(1, version + 1))
        assert await processes[-1].stop() == 0, processes[-1].log
    finally:
        for process in processes:
            await process.kill()
        await database.close()
    return tally, processes


def report(tally: Tally, processes: list[BotProcess]) -> dict[str, int | float]:
    """The figures, from both sides: the people's clicks and each process's own count."""
    lines = [CLOSED.search(p.log) for p in processes]
    assert all(lines), "every process says what it received and answered as it stops"
    counts = [tuple(int(g) for g in m.groups()) for m in lines if m is not None]
    handovers = sorted(tally.handovers)
    figures = {
        "deploys": len(processes) - 1,
        "clicks sent": len(tally.sent),
        "answered": len(tally.sent) - len(tally.unanswered()),
        "unanswered": len(tally.unanswered()),
        "refused as stopping": len(tally.refused()),
        "reached no process": tally.reached_nobody,
        "left unanswered by a process": sum(c[3] for c in counts),
        "received by processes": sum(c[0] for c in counts),
        # SIGTERM to the new process's /readyz: includes discord.py's wait for the
        # servers' GUILD_CREATE (2 s) after it connected, while it already answers clicks.
        "hand-over median s": handovers[len(handovers) // 2],
        "hand-over max s": handovers[-1],
        "gateway gap median s": sorted(tally.gaps)[len(tally.gaps) // 2] if tally.gaps else 0.0,
        "gateway gap max s": max(tally.gaps, default=0.0),
    }
    shown = (f"{k} {v:.3g}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items())
    print("\nrolling deploys:", ", ".join(shown))
    return figures


async def check_deploys(fake: FakeDiscord, url: str, folder: Path, deploys: int) -> None:
    tally, processes = await rolling_deploys(fake, url, folder, deploys)
    figures = report(tally, processes)
    # Sent on a gateway connection while its process was closing it: the socket had it,
    # the process never read it (Discord loses those too, short of a RESUME).
    lost_in_close = len(fake.interactions) - int(figures["received by processes"])
    print(f"dispatched during a gateway's close, never read: {lost_in_close}")
    assert figures["clicks sent"] > 10 * deploys
    # Every interaction a process received, it answered: none left, none lost.
    assert figures["left unanswered by a process"] == 0
    assert figures["unanswered"] == lost_in_close, [ix.custom_id for ix in tally.unanswered()]
    assert lost_in_close <= len(processes) - 1, "at most the one in flight as a gateway closes"
    for process in processes:  # a deploy's stop is clean: an alert on errors stays quiet
        assert " ERROR " not in process.log, process.log
        assert "Traceback" not in process.log, process.log


async def test_a_few_rolling_deploys_drop_no_click(
    fake_discord: FakeDiscord, pg_database: str, tmp_path: Path
) -> None:
    await check_deploys(fake_discord, pg_database, tmp_path, deploys=3)


@pytest.mark.realtime
@pytest.mark.skipif(
    not os.environ.get("LOCKDOWN_DEPLOY_RUNS"),
    reason="twenty deploys take five to nine minutes: LOCKDOWN_DEPLOY_RUNS=1 runs them",
)
async def test_twenty_rolling_deploys_drop_no_click(
    fake_discord: FakeDiscord, pg_database: str, tmp_path: Path
) -> None:
    await check_deploys(fake_discord, pg_database, tmp_path, deploys=20)
