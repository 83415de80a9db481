"""What this process holds, counted at each scrape of `/metrics` (`metrics.BotCollector`).

The counting is ops': games by shard and by state, what the request budget
did. What is counted comes in as callables from the application (`bot.app`),
which knows the games and the budget: ops knows neither Discord nor the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Protocol

from bot.ops import metrics
from bot.ops.shards import shard_of

# One running game as counted: its server (None until it is known) and whether it is paused.
HeldGame = tuple[int | None, bool]


class BudgetTotals(Protocol):
    """The request budget's running totals (`bot.discord_http.budget.Counts`)."""

    @property
    def sent(self) -> int: ...
    @property
    def merged(self) -> int: ...
    @property
    def carried(self) -> int: ...
    @property
    def carry_failed(self) -> int: ...
    @property
    def waited(self) -> float: ...


def census(
    games: Callable[[], Iterable[HeldGame]],
    lobbies: Callable[[], int],
    shard_count: Callable[[], int | None],
    latencies: Callable[[], Iterable[tuple[int, float]]],
    budget: Callable[[], tuple[BudgetTotals, int]] | None = None,
) -> metrics.BotCollector:
    """The collector that counts this process's games, and what its request budget
    did (its totals and how many requests wait), at each scrape (register it once)."""
    return metrics.BotCollector(
        lambda: games_by_shard(games(), shard_count()),
        latencies,
        lambda: games_by_state(games(), lobbies()),
        (lambda: budget_figures(*budget())) if budget is not None else dict,
    )


def budget_figures(counts: BudgetTotals, waiting: int) -> dict[str, float]:
    """The budget's running totals and its line, as `metrics.BUDGET_COUNTERS` names them."""
    return {
        "sent": counts.sent,
        "merged": counts.merged,
        "carried": counts.carried,
        "carry_failed": counts.carry_failed,
        "waited_seconds": counts.waited,
        "waiting": waiting,
    }


def games_by_shard(games: Iterable[HeldGame], shard_count: int | None) -> dict[int, int]:
    """How many games this process runs, by shard."""
    count = shard_count or 1
    by_shard: Counter[int] = Counter()
    for guild_id, _ in games:
        by_shard[shard_of(guild_id, count) if guild_id is not None else 0] += 1
    return dict(by_shard)


def games_by_state(games: Iterable[HeldGame], lobbies: int) -> dict[str, int]:
    """How many lobbies, running and paused games this process holds."""
    held = list(games)
    paused = sum(1 for _, is_paused in held if is_paused)
    return {"lobby": lobbies, "running": len(held) - paused, "paused": paused}
