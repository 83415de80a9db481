"""Rolling deploys under clicks, on PostgreSQL: no click is lost, none is answered
twice, whatever moment of the hand-over it is sent at.

People keep clicking a running game (My hand, then a choice) while the bot is
deployed again and again: each time a new `lockdown-bot` process starts, its
gateway session joins the old one's on the shard and it stands by; the old one
claims and answers every click, gets SIGTERM, leaves the clicks from then on to
the new one (claiming one only if the new one did not), answers what it had
claimed, delivers what is queued and lets the shard go; the new one claims the
clicks it received since, defers them, takes the shard, resumes the game and
answers them (`bot.ops.handover`). The clicks sent between the SIGTERM and the
new process's readiness are counted, and every interaction the fake received
is accounted for (`account`): each must be answered once, by one process, and
one that is not says where it fell.

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
from tests.discord_ui.thread_check import (
    assert_each_line_once_in_order,
    expected_lines,
    thread_lines,
)
from tests.fakediscord import FakeDiscord, ImpossibleAction
from tests.fakediscord.protocol import ErrorCode
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
GATE = re.compile(
    r"interactions: (\d+) answered by another process, (\d+) won standing by, "
    r"(\d+) won while leaving, the longest held before its claim here ([\d.]+)s"
)
CLOSED = re.compile(
    r"gateway closed: (\d+) interactions received, (\d+) answered, "
    r"(\d+) refused as stopping, (\d+) left unanswered"
)


@dataclass
class Tally:
    """What the people clicking saw."""

    sent: list[FakeInteraction] = field(default_factory=list)
    reached_nobody: int = 0  # no process held the shard's gateway at that moment
    handovers: list[tuple[float, float]] = field(default_factory=list)  # SIGTERM, new ready
    exits: list[float] = field(default_factory=list)  # each old process's exit
    games: list[Game] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)  # no gateway connected for the shard
    # The people stop clicking (a flag, not a cancellation: a cancel landing inside a
    # database read can be swallowed, and the clicks would never end).
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    def during_handovers(self) -> list[FakeInteraction]:
        return [ix for ix in self.sent if any(a <= ix.created_at <= b for a, b in self.handovers)]

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
    while not tally.stop.is_set():
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
    boardless_since: float | None = None
    while not tally.stop.is_set():
        status, _, _, state = await stored(database, game.game_id)
        if status not in ("running", "paused"):
            raise ImpossibleAction(f"game {game.game_id} is {status}")
        waiting = [p for p in pending_seats(state) if seats.get(p) in members]
        user = members[seats[rng.choice(waiting)]] if waiting else game.guild.members[0]
        try:
            board = game.board()
        except AssertionError:  # the game just ended: its last board has no button left
            boardless_since = boardless_since or time.monotonic()
            assert time.monotonic() - boardless_since < 15, "a running game lost its board"
            await asyncio.sleep(0.1)
            continue
        boardless_since = None
        try:
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
    fake: FakeDiscord, database: Database, url: str, folder: Path, deploys: int
) -> tuple[Tally, list[BotProcess]]:
    settings = {"DATABASE_URL": url, "SHARD_COUNT": "1"}
    (guild,) = guilds_on_shards(fake, 1)
    processes = [BotProcess("build0", folder, fake, **settings)]
    tally = Tally()
    try:
        await processes[0].start()
        await processes[0].until_ready()
        games = tally.games
        games.append(await open_game(fake, guild))
        clicks = asyncio.create_task(click_on(fake, database, games, tally))
        gaps = asyncio.create_task(watch_gaps(fake, tally))
        for build in range(1, deploys + 1):
            await asyncio.sleep(1.0)  # clicks on the running process
            old, new = processes[-1], BotProcess(f"build{build}", folder, fake, **settings)
            processes.append(new)
            await new.start()
            deadline = time.monotonic() + 60
            while "standing by" not in (await new.get("/readyz"))[1]:  # its gateway is on
                assert time.monotonic() < deadline, new.log
                await asyncio.sleep(0.05)
            stopped = time.monotonic()
            stop = asyncio.create_task(old.stop())
            await new.until_ready()
            tally.handovers.append((stopped, time.monotonic()))
            assert await stop == 0, old.log
            tally.exits.append(time.monotonic())
        await asyncio.sleep(1.0)
        assert not clicks.done(), clicks.exception()  # people clicked to the end
        tally.stop.set()
        await asyncio.wait_for(clicks, 30)
        gaps.cancel()
        await asyncio.gather(gaps, return_exceptions=True)
        for ix in tally.sent:
            await fake.wait_answered(ix, 5)
        await fake.settle(quiet=1.0)
        assert await processes[-1].stop() == 0, processes[-1].log
    finally:
        for process in processes:
            await process.kill()
    return tally, processes


async def account(
    fake: FakeDiscord, database: Database, tally: Tally, processes: list[BotProcess]
) -> dict[str, list[str]]:
    """Every interaction sent (clicks and commands alike), accounted for: answered once,
    answered twice (a second answer refused, 40060), answered too late (10062), or
    lost (no answer at all). Each one not answered once says where it fell: its time
    from the nearest hand-over's SIGTERM, the new process's readiness and the old
    one's exit; the gateway sessions it was written to, with when each came and went;
    and its claim row, if any, with the process that made it."""
    async with database.read() as conn:
        rows = await conn.execute(
            text("SELECT interaction_id, claimed_at, claimed_by FROM interaction_claims")
        )
        claims = {int(r.interaction_id): (r.claimed_at, r.claimed_by) for r in rows}
    by_pid = {str(p.process.pid): p.name for p in processes if p.process is not None}
    outcome: dict[str, list[str]] = {"answered twice": [], "late": [], "lost": []}
    for ix in fake.interactions:
        if ix.second_answers:
            kind = "answered twice"
        elif not ix.answered and ix.late_callbacks:
            kind = "late"
        elif not ix.answered:
            kind = "lost"
        else:
            continue
        outcome[kind].append(_where(fake, tally, ix, claims.get(ix.id), by_pid))
    print(
        f"\naccounted for {len(fake.interactions)} interactions: "
        + ", ".join(f"{len(found)} {kind}" for kind, found in outcome.items())
        + f", the {len(fake.interactions) - sum(map(len, outcome.values()))} others answered once"
    )
    for kind, found in outcome.items():
        for line in found:
            print(f"{kind}: {line}")
    return outcome


def _where(
    fake: FakeDiscord,
    tally: Tally,
    ix: FakeInteraction,
    claim: tuple[object, str] | None,
    by_pid: dict[str, str],
) -> str:
    at = ix.created_at
    index = min(range(len(tally.handovers)), key=lambda i: abs(tally.handovers[i][0] - at))
    sigterm, ready = tally.handovers[index]
    exited = tally.exits[index] if index < len(tally.exits) else float("nan")
    sessions = []
    for number in ix.delivered_to:
        session = fake.sessions[number]
        left = "" if session.detached_at is None else f", left {session.detached_at - at:+.3f}s"
        sessions.append(f"session {number} (came {session.attached_at - at:+.3f}s{left})")
    claimed = "no claim row"
    if claim is not None:
        claimed = f"claimed by {by_pid.get(claim[1].rsplit(':', 1)[-1], claim[1])} at {claim[0]}"
    return (
        f"{ix.custom_id or ix.name} id {ix.id}: deploy {index + 1}, SIGTERM {sigterm - at:+.3f}s, "
        f"new ready {ready - at:+.3f}s, old exited {exited - at:+.3f}s from the click; "
        f"written to {', '.join(sessions) or 'no session'}; {claimed}; "
        f"late answers refused at {ix.late_callbacks}"
    )


def answered_twice(fake: FakeDiscord) -> int:
    """Interaction callbacks Discord refused as answered already (40060)."""
    return sum(
        1
        for r in fake.requests
        if r.path.endswith("/callback")
        and r.status == 400
        and isinstance(r.response, dict)
        and r.response.get("code") == ErrorCode.ALREADY_ACKNOWLEDGED
    )


def report(fake: FakeDiscord, tally: Tally, processes: list[BotProcess]) -> dict[str, int | float]:
    """The figures, from both sides: the people's clicks and each process's own count."""
    all_logs = "\n".join(p.log for p in processes)
    lines = [CLOSED.search(p.log) for p in processes]
    assert all(lines), "every process says what it received and answered as it stops"
    counts = [tuple(int(g) for g in m.groups()) for m in lines if m is not None]
    handovers = sorted(b - a for a, b in tally.handovers)
    figures = {
        "deploys": len(processes) - 1,
        "clicks sent": len(tally.sent),
        "sent during hand-overs": len(tally.during_handovers()),
        "answered": len(tally.sent) - len(tally.unanswered()),
        "unanswered": len(tally.unanswered()),
        "answered twice": answered_twice(fake),
        "refused as stopping": len(tally.refused()),
        "reached no process": tally.reached_nobody,
        "left unanswered by a process": sum(c[3] for c in counts),
        "received by processes": sum(c[0] for c in counts),
        # Each process's gate: clicks another process answered, clicks won by a process
        # standing by (deferred, answered once the shard was its own), clicks won by a
        # stopping one that the new one had not claimed ("paused"), the longest wait
        # from a click's arrival to its claim.
        "let go": sum(int(g[0]) for g in GATE.findall(all_logs)),
        "won standing by": sum(int(g[1]) for g in GATE.findall(all_logs)),
        "won while leaving": sum(int(g[2]) for g in GATE.findall(all_logs)),
        "held longest s": max((float(g[3]) for g in GATE.findall(all_logs)), default=0.0),
        # SIGTERM to the new process's /readyz: the old one's stop (its deliveries
        # included), then the new one's resume; it answers the held clicks at its end.
        "hand-over median s": handovers[len(handovers) // 2],
        "hand-over max s": handovers[-1],
        "gateway gap median s": sorted(tally.gaps)[len(tally.gaps) // 2] if tally.gaps else 0.0,
        "gateway gap max s": max(tally.gaps, default=0.0),
    }
    shown = (f"{k} {v:.3g}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items())
    print("\nrolling deploys:", ", ".join(shown))
    return figures


async def check_deploys(fake: FakeDiscord, url: str, folder: Path, deploys: int) -> None:
    database = Database(url)
    try:
        tally, processes = await rolling_deploys(fake, database, url, folder, deploys)
        outcome = await account(fake, database, tally, processes)
        figures = report(fake, tally, processes)
        assert outcome == {"answered twice": [], "late": [], "lost": []}
        await check_games(fake, database, tally.games)
    finally:
        await database.close()
    check_figures(figures, processes, fake, deploys)


async def check_games(fake: FakeDiscord, database: Database, games: list[Game]) -> None:
    for game in games:  # running or over, each log is 1..version, no gap, no double
        _, version, seqs, _ = await stored(database, game.game_id)
        assert seqs == list(range(1, version + 1))
    for game in games:  # and its thread shows each stored line once, in order
        shown = thread_lines(fake, game.thread)
        assert_each_line_once_in_order(await expected_lines(database, game.game_id), shown)


def check_figures(
    figures: dict[str, int | float], processes: list[BotProcess], fake: FakeDiscord, deploys: int
) -> None:
    assert figures["clicks sent"] > 10 * deploys
    assert figures["sent during hand-overs"] > 0, "people clicked through the hand-overs"
    # The new process's gateway was on before the old one's went: every click reached one.
    assert figures["reached no process"] == 0
    assert figures["gateway gap max s"] == 0.0
    # Each interaction was claimed (received) by exactly one process, which answered it.
    assert figures["unanswered"] == 0  # each one said where it fell (`account`)
    assert figures["received by processes"] == len(fake.interactions)
    assert figures["left unanswered by a process"] == 0
    assert figures["answered twice"] == 0
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
