"""Many games at once against the fake Discord, at the real-pace suite's pace.

Each of N slots plays one game after another in its own server: two people who
click (thinking 0.3 to 1.2 s) and four AI seats (deciding in 0.6 s), with
8-second steps; each finished game is replaced by a new one. The fake Discord
takes 50 to 200 ms per request and keeps Discord's rate limits (50 requests a
second for the token, 5 per 5 s per channel). After `--seconds`, no click and
no game starts any more; the games are paused and what they still owe their
threads is delivered (at most 30 s). Then, per N:

- answers: from a click to its answer, p50 and p99; clicks answered after 3 s
  (or never);
- 429s the bot met;
- lines: from an action stored to the message that first showed its line, p50
  and p99, and the lines still missing at the end;
- requests a second made with the bot token, by route (interaction answers are
  outside the token's limit and counted apart); the budget's merged edits and
  longest wait;
- CPU (the bot, the fake Discord and the people run in this one process: the
  figure is all three), RSS, and the event loop's lag at p99;
- the answer times by kind of interaction, each request's wait in the budget by
  priority, and the bot-token requests of a whole finished game (its thread, its
  server's channel and its people's DMs).

`--budget off` measures the same run without the request budget (discord.py's
own rate limiting alone), `--budget both` one after the other. `--token-limit`
lowers the token's global limit (the fake's and the budget's alike) so that a
few games reach it on a machine that cannot run a hundred.

Run: uv run python bench/load_bench.py --games 10 --seconds 60
     uv run python bench/load_bench.py --games 10,30 --budget both
     add --postgres postgresql+asyncpg://user:password@host/db for PostgreSQL,
     --ramp 20 to open the first games over 20 s instead of all in the same second,
     --bot-process to run the bot as a `lockdown-bot` process of its own, apart from the
     fake Discord and the people (bench/process_bench.py; budget on, token limit 50),
     with --carry off|both to measure it without clicks' tokens carrying board edits
     (CLICK_TOKENS_CARRY_EDITS=false), or without and with in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import resource
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app import LockdownBot
from bot.storage.database import Database
from lockdown_core import pending_seats
from tests.discord_ui.players import Game, click_a_choice
from tests.discord_ui.test_realtime import real_pace_bot, unkind
from tests.discord_ui.thread_check import expected_lines, percentile, thread_lines
from tests.fakediscord import FakeDiscord, serve, start_client
from tests.fakediscord.actions import ImpossibleAction
from tests.fakediscord.records import (
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    RequestRecord,
)

AI_SEATS = 4
DELIVER_WITHIN = 30.0
PATIENCE = 15.0  # how long a step of a game's start may take before it counts as failed
LAG_TICK = 0.1
BOARD_POLL = 0.25
THREAD_MENTION = re.compile(r"<#(\d+)>")


@dataclass
class Run:
    """What one measurement saw while it ran."""

    games: list[Game] = field(default_factory=list)
    # Each game with its server and the time from its `/lockdown new` to the next one's.
    spans: list[tuple[Game, FakeGuild, float, float]] = field(default_factory=list)
    failed_starts: int = 0
    click_failures: int = 0
    lags: list[float] = field(default_factory=list)
    # Seconds each request waited in the budget, by its priority and method.
    waits: dict[str, list[float]] = field(default_factory=dict)


def button(message: FakeMessage, suffix: str) -> str:
    return next(str(b.custom_id) for b in message.buttons if str(b.custom_id).endswith(suffix))


async def start_game(fake: FakeDiscord, bot: LockdownBot, guild: FakeGuild) -> Game:
    """/lockdown new in the slot's channel, the guest joins, four AI seats, start.

    The conditions waited on are cheap (the bot's answer names the new thread; the board
    is looked for a few times a second): checked after each of the bot's requests, a
    search of every thread and message of the fake took a third of the CPU at 200 games.
    """
    host, guest = guild.members
    channel = guild.channel("general")
    opened = await fake.slash(host, "lockdown", subcommand="new", channel=channel, within=PATIENCE)
    if not await fake.wait_until(lambda: answer_of(opened) is not None, within=PATIENCE):
        raise TimeoutError("no lobby")
    named = THREAD_MENTION.search(answer_of(opened) or "")
    if named is None:
        raise TimeoutError("no lobby")  # refused: told why instead
    thread = fake.world.channels[int(named.group(1))]
    lobby = fake.messages(thread)[0]
    await fake.click(guest, lobby, button(lobby, ":join"), within=PATIENCE)
    for _ in range(AI_SEATS):
        await fake.click(host, lobby, button(lobby, ":ai"), within=PATIENCE)
    await fake.click(host, lobby, button(lobby, ":start"), within=PATIENCE)
    if not await fake.wait_until(lambda: bot.hub.table_in(thread.id) is not None, PATIENCE):
        raise TimeoutError("the game did not start")
    table = bot.hub.table_in(thread.id)
    assert table is not None
    people = {s.seat: u for s in table.seats for u in (host, guest) if s.user_id == u.id}
    game = Game(fake, bot, thread, table, people)
    deadline = time.monotonic() + PATIENCE
    while not has_board(game):
        if time.monotonic() > deadline:
            raise TimeoutError("no board")
        await asyncio.sleep(BOARD_POLL)
    return game


def answer_of(ix: FakeInteraction) -> str | None:
    """The text of a deferred command's answer, once it came (a follow-up, or the
    original in place of its "thinking")."""
    if ix.followups:
        return ix.followups[0].text
    if ix.original is not None and not ix.original.loading:
        return ix.original.text
    return None


def was_board(message: FakeMessage) -> bool:
    """A board once (a board folded away loses its picture; its first version had it)."""
    return any(a.filename == "board.png" for v in message.versions for a in v.attachments)


def has_board(game: Game) -> bool:
    with contextlib.suppress(AssertionError):
        game.board()
        return True
    return False


async def person(
    game: Game, seat: int, user: FakeUser, rng: random.Random, stop: asyncio.Event, run: Run
) -> None:
    """When the game waits on them, they think, then click, as in the real-pace suite."""
    table = game.table
    while not table.finished and not stop.is_set():
        if seat not in pending_seats(table.state) or table.seats[seat].away:
            await asyncio.sleep(0.05)
            continue
        await asyncio.sleep(rng.uniform(0.3, 1.2))
        if table.finished or stop.is_set():
            return
        try:
            await click_a_choice(game, user, rng)
        except ImpossibleAction:
            pass  # the board moved on under the cursor
        except AssertionError:
            run.click_failures += 1  # not answered in time: counted with the answers too


async def slot(
    fake: FakeDiscord,
    bot: LockdownBot,
    guild: FakeGuild,
    seed: int,
    stop: asyncio.Event,
    run: Run,
    delay: float = 0.0,
) -> None:
    """One game after another in one server until told to stop, the first after `delay`."""
    rng = random.Random(seed)
    await asyncio.sleep(delay)
    while not stop.is_set():
        began = time.monotonic()
        try:
            game = await start_game(fake, bot, guild)
        except (AssertionError, TimeoutError):
            run.failed_starts += 1
            await asyncio.sleep(1.0)
            continue
        run.games.append(game)
        people = [
            asyncio.create_task(person(game, seat, user, random.Random(rng.random()), stop, run))
            for seat, user in game.people.items()
        ]
        while not game.table.finished and not stop.is_set():  # noqa: ASYNC110 (the bot's state)
            await asyncio.sleep(0.2)
        for task in people:
            task.cancel()
        await asyncio.gather(*people, return_exceptions=True)
        run.spans.append((game, guild, began, time.monotonic()))


async def watch_lag(run: Run, stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        began = loop.time()
        await asyncio.sleep(LAG_TICK)
        run.lags.append(loop.time() - began - LAG_TICK)


async def line_delays(
    database: Database, fake: FakeDiscord, threads: list[tuple[int, FakeChannel]]
) -> tuple[list[float], int, int]:
    """Delays from each stored action to its line, the lines shown, the lines missing,
    over the games' threads (a game id and its thread each)."""
    delays: list[float] = []
    shown_count = missing = 0
    for game_id, thread in threads:
        expected = await expected_lines(database, game_id)
        shown = thread_lines(fake, thread)
        texts = [text for text, _ in shown]
        position = 0
        for line in expected:
            try:
                found = texts.index(line.text, position)
            except ValueError:
                missing += 1
                continue
            shown_count += 1
            if line.stored_at is not None:
                delays.append((shown[found][1] - line.stored_at).total_seconds())
            position = found + 1
    return delays, shown_count, missing


def whole_game_requests(fake: FakeDiscord, run: Run) -> list[int]:
    """Bot-token requests of each finished game (`game_requests`)."""
    return [
        game_requests(fake, guild, game.thread, began, ended)
        for game, guild, began, ended in run.spans
        if game.table.state.result is not None
    ]


def game_requests(
    fake: FakeDiscord, guild: FakeGuild, thread: FakeChannel, began: float, ended: float
) -> int:
    """Bot-token requests of one game, from its `/lockdown new` on: in its thread (its end
    included), and while it ran, in its server's channel and in its people's DMs
    (opening the DM channel too)."""
    people = {user.id for user in guild.members}
    dms = {c.id for c in fake.world.channels.values() if c.recipient_id in people}
    around = {guild.channel("general").id, *dms}
    return sum(
        1
        for r in fake.bot_requests
        if r.channel_id == thread.id
        or (began <= r.at <= ended and (r.channel_id in around or opens_dm(r, people)))
    )


def opens_dm(request: RequestRecord, people: set[int]) -> bool:
    """`POST /users/@me/channels` for one of `people`."""
    if request.route != "POST /users/@me/channels" or not isinstance(request.body, dict):
        return False
    return int(request.body.get("recipient_id", 0)) in people


def watch_waits(bot: LockdownBot, run: Run) -> None:
    """Each request's wait in the budget, noted as the budget lets it go."""
    budget = bot.budget.budget
    sent = budget._sent

    def noted(ticket: Any, now: float) -> None:
        key = f"{ticket.priority.name} {ticket.method}"
        run.waits.setdefault(key, []).append(now - ticket.submitted_at)
        sent(ticket, now)

    budget._sent = noted  # type: ignore[method-assign]


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


async def pause_and_deliver(bot: LockdownBot) -> None:
    """Stop every game where it stands, then deliver what the threads still wait for."""
    bot.hub.accepting = False
    for table in list(bot.hub.tables.values()):
        async with table.lock:
            table.stop()
            table.paused = True
    closer = getattr(bot.scheduler, "close", None)
    if closer is not None:
        await closer()
    bot.deliver_within = DELIVER_WITHIN
    await bot.deliver_queued()


async def measure(
    games: int, seconds: float, url: str, budget: bool, token_limit: int, ramp: float = 0.0
) -> None:
    fake = FakeDiscord()
    unkind(fake)
    fake.rate_limits.global_per_second = token_limit
    fake.contract_check = False  # the fake's own checks are not the bot's work
    guilds = [
        fake.create_guild(f"Club {n}", members=["ana", "bo"], channels=("general",))
        for n in range(games)
    ]
    run = Run()
    load_before = os.getloadavg()
    async with serve(fake):
        bot = real_pace_bot(Database(url))
        if not budget:
            del bot.http.request  # back to discord.py's own methods
            del bot.http.get_ratelimit
        else:
            bot.budget.budget.global_window.per_second = token_limit
            watch_waits(bot, run)
        async with start_client(bot, fake, within=60):
            stop = asyncio.Event()
            began, cpu_began = time.monotonic(), time.process_time()
            tasks = [
                asyncio.create_task(slot(fake, bot, guild, n, stop, run, ramp * n / games))
                for n, guild in enumerate(guilds)
            ]
            tasks.append(asyncio.create_task(watch_lag(run, stop)))
            await asyncio.sleep(seconds)
            stop.set()
            wall = time.monotonic() - began
            cpu = time.process_time() - cpu_began
            rss = rss_mb()
            ended = began + wall
            await asyncio.wait(tasks, timeout=PATIENCE * 3)
            for task in tasks:
                task.cancel()
            await pause_and_deliver(bot)
            delays, shown, missing = await line_delays(
                bot.database, fake, [(g.table.game_id, g.thread) for g in run.games]
            )
            counts = bot.budget.counts
    made = [r for r in fake.bot_requests if began <= r.at <= ended]
    answers = [ix for ix in fake.interactions if ix.created_at <= ended]
    finished = sum(1 for g in run.games if g.table.state.result is not None)
    store = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
    print(
        f"\n{games} games ({store}, budget {'on' if budget else 'off'}, "
        f"token limit {token_limit}/s), {wall:.0f} s, first games over {ramp:.0f} s"
    )
    print(f"  load before {fmt_load(load_before)}, after {fmt_load(os.getloadavg())}")
    print(
        f"  games started {len(run.games)}, finished {finished}; starts failed {run.failed_starts}"
    )
    print_answers(answers)
    refused = Counter(
        f"{'global' if isinstance(r.response, dict) and r.response.get('global') else 'bucket'}"
        f" {r.route}"
        for r in fake.rate_limited
    )
    print(f"  429s: {len(fake.rate_limited)} {dict(refused) if refused else ''}")
    print(
        f"  lines: {shown} shown, stored action -> line p50 {pct(delays, 0.5)}, "
        f"p99 {pct(delays, 0.99)}; missing at the end {missing}"
    )
    routes = Counter(str(r.route) for r in made)
    print(
        f"  bot-token requests: {len(made) / wall:.1f}/s ({len(made) / wall / games:.2f}/s a game)"
    )
    for route, count in routes.most_common():
        print(f"    {count / wall:6.2f}/s  {route}")
    whole = [g for g in run.games if g.table.state.result is not None]
    if whole:
        threads = {g.thread.id for g in whole}
        in_threads = sum(1 for r in fake.bot_requests if r.channel_id in threads)
        print(f"  requests in a finished game's thread: {in_threads / len(whole):.0f} a game")
    wholes = whole_game_requests(fake, run)
    if wholes:
        spans = [e - b for g, _, b, e in run.spans if g.table.state.result is not None]
        boards = [sum(1 for m in fake.messages(g.thread) if was_board(m)) for g in whole]
        print(
            f"  bot-token requests per finished game (thread, server channel, DMs): "
            f"{sum(wholes) / len(wholes):.0f} (of {len(wholes)} games, "
            f"{sum(spans) / len(spans):.0f} s and {sum(boards) / len(boards):.0f} boards "
            "posted on average)"
        )
    if budget:
        print(
            f"  budget: {counts.sent} sent, {counts.merged} edits merged, "
            f"longest wait {counts.longest_wait:.2f} s"
        )
        for key, waits in sorted(run.waits.items()):
            print(f"    waited {key}: {len(waits)}, p50 {pct(waits, 0.5)}, p99 {pct(waits, 0.99)}")
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"  CPU {100 * cpu / wall:.0f}% of a core (bot + fake Discord + people), "
        f"RSS {rss:.0f} MB (peak {maxrss:.0f} MB), "
        f"loop lag p99 {1000 * percentile(run.lags, 0.99):.0f} ms"
    )


def print_answers(answers: list[FakeInteraction]) -> None:
    """From each click to its answer, p50 and p99, in all and by kind of interaction;
    clicks answered after 3 s, or never."""
    latencies = [ix.latency for ix in answers if ix.latency is not None]
    late = sum(1 for ix in answers if not ix.answered_in_time)
    print(
        f"  answers: {len(answers)} interactions, p50 {pct(latencies, 0.5)}, "
        f"p99 {pct(latencies, 0.99)}, after 3 s or never {late}"
    )
    kinds: dict[str, list[float]] = {}
    for ix in answers:
        kind = ix.name or ":".join(str(ix.custom_id).split(":")[:2])
        kinds.setdefault(kind, []).append(ix.latency if ix.latency is not None else 99.0)
    for kind, times in sorted(kinds.items()):
        print(f"    {kind}: {len(times)}, p50 {pct(times, 0.5)}, p99 {pct(times, 0.99)}")


def pct(values: list[float], share: float) -> str:
    return f"{percentile(values, share):.2f} s" if values else "-"


def fmt_load(load: tuple[float, float, float]) -> str:
    return " ".join(f"{x:.2f}" for x in load)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="10", help="concurrent games, e.g. 10 or 10,30")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long each N runs")
    parser.add_argument("--postgres", metavar="URL", help="PostgreSQL instead of SQLite")
    parser.add_argument("--budget", choices=("on", "off", "both"), default="on")
    parser.add_argument(
        "--token-limit",
        type=int,
        default=50,
        help="the token's global limit a second (lower it to reach it with fewer games)",
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="spread the first games' /lockdown new over this many seconds (0: all at once)",
    )
    parser.add_argument(
        "--bot-process",
        action="store_true",
        help="run the bot as a lockdown-bot process of its own (bench/process_bench.py)",
    )
    parser.add_argument(
        "--carry",
        choices=("on", "off", "both"),
        default="on",
        help="with --bot-process: clicks' tokens carry board edits (CLICK_TOKENS_CARRY_EDITS)",
    )
    args = parser.parse_args()
    if args.bot_process:
        if args.budget != "on" or args.token_limit != 50:
            parser.error("--bot-process runs the bot as it ships: budget on, token limit 50")
        from bench.process_bench import measure_process

        if args.postgres and args.carry == "both":
            # The second run would resume the first one's games, whose threads are gone.
            parser.error(
                "--carry both needs a new database for each run: with --postgres, "
                "run --carry off and --carry on one at a time, each on an empty one"
            )
        carrying = {"on": [True], "off": [False], "both": [False, True]}[args.carry]
        for games in (int(n) for n in args.games.split(",")):
            for carry in carrying:
                with tempfile.TemporaryDirectory() as folder:
                    url = args.postgres or f"sqlite+aiosqlite:///{Path(folder) / 'lockdown.db'}"
                    asyncio.run(
                        measure_process(
                            games,
                            args.seconds,
                            url,
                            args.token_limit,
                            args.ramp,
                            Path(folder),
                            carry,
                        )
                    )
        return
    modes = {"on": [True], "off": [False], "both": [False, True]}[args.budget]
    for games in (int(n) for n in args.games.split(",")):
        for budget in modes:
            with tempfile.TemporaryDirectory() as folder:
                url = args.postgres or f"sqlite+aiosqlite:///{Path(folder) / 'lockdown.db'}"
                asyncio.run(measure(games, args.seconds, url, budget, args.token_limit, args.ramp))


if __name__ == "__main__":
    main()
