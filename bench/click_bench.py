"""Cost of one click with 200 games running in the process (persistence excluded).

A click here is what the bot does for a person's button: the table checks the
seat and the step, the core applies the action, the presenter queues its lines
(every event narrated in the game's language), and the reply text and the
refreshed private panel are built. Timers and AI seats are off so that only
clicks are measured; the games are real, played from start to end.

Run: uv run python bench/click_bench.py
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time

import discord

from bot.discord_ui.game import panel
from bot.table.codes import decode, encode
from bot.table.presenter import Update
from bot.table.seats import Seat
from bot.table.table import Table
from bot.table.timers import TableConfig
from bot.texts import t
from bot.texts.narrate import describe
from lockdown_core import Step, legal_actions, load_ruleset, new_game, pending_seats

GAMES = 200


class NarratingPresenter:
    """Does the per-click work of the Discord presenter, without a network."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.lines: list[str] = []

    async def show(self, table: Table, update: Update) -> None:
        self.lines.extend(describe(e, "en", self.names) for e in update.public)
        for seat, events in update.private.items():
            self.lines.extend(describe(e, "en", self.names, seat=seat) for e in events)
        del self.lines[:-50]


class NoTimers:
    def now(self) -> float:
        return 0.0

    def call_at(self, when: float, callback: object) -> asyncio.Handle:
        return asyncio.get_running_loop().call_later(10**9, lambda: None)


async def main() -> None:
    rules = load_ruleset()
    rng = random.Random(1)
    tables = []
    for game_id in range(GAMES):
        players = 3 + game_id % 4
        state, events = new_game(rules, players, game_id)
        names = [f"Player {i}" for i in range(players)]
        seats = [Seat(i, names[i], user_id=1000 + i) for i in range(players)]
        table = Table(
            game_id,
            state,
            seats,
            NarratingPresenter(names),
            NoTimers(),  # type: ignore[arg-type]
            lambda kind, seat, _seed: None,  # type: ignore[arg-type,return-value]
            TableConfig(),
        )
        await table.begin(events, deadline=10**9)
        tables.append(table)
    say = lambda key, **params: t("en", key, **params)  # noqa: E731
    timings: list[float] = []
    clicks = 0
    while clicks < 20_000 and any(not tb.finished for tb in tables):
        table = rng.choice([tb for tb in tables if not tb.finished])
        seat = rng.choice(pending_seats(table.state))
        legal = legal_actions(table.state, seat)
        if not legal:
            continue
        code = encode(rng.choice(legal), rules)
        start = time.perf_counter()
        reply = await table.act(
            1000 + seat, table.token, lambda s, code=code: decode(code, s, rules)
        )
        text = t("en", reply.key, **reply.params)
        if not table.finished:
            panel.hand_panel(table, seat, say, table.presenter.names, [], receipt=text)  # type: ignore[attr-defined]
        timings.append(time.perf_counter() - start)
        clicks += 1
    timings.sort()
    finished = sum(1 for tb in tables if tb.state.step == Step.GAME_OVER)
    print(f"games in the process: {GAMES} ({finished} played to the end)")
    print(f"clicks measured:      {len(timings)}")
    print(f"mean click:           {statistics.mean(timings) * 1000:.2f} ms")
    print(f"p50 click:            {timings[len(timings) // 2] * 1000:.2f} ms")
    print(f"p99 click:            {timings[int(len(timings) * 0.99)] * 1000:.2f} ms")
    print(f"discord.py {discord.__version__}")


if __name__ == "__main__":
    asyncio.run(main())
