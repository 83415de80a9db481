"""What this process holds, counted at each scrape of `/metrics` (`bot.ops.metrics`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from bot.discord_http import RequestBudget
from bot.discord_ui.service import GameService
from bot.ops import metrics
from bot.ops.shards import shard_of


def census(
    service: GameService,
    shard_count: Callable[[], int | None],
    latencies: Callable[[], Iterable[tuple[int, float]]],
    budget: RequestBudget | None = None,
) -> metrics.BotCollector:
    """The collector that counts this process's games, and what its request budget
    did, at each scrape (register it once)."""
    return metrics.BotCollector(
        lambda: games_by_shard(service, shard_count()),
        latencies,
        lambda: games_by_state(service),
        (lambda: budget_figures(budget)) if budget is not None else dict,
    )


def budget_figures(budget: RequestBudget) -> dict[str, float]:
    """The budget's running totals and its line, as `metrics.BUDGET_COUNTERS` names them."""
    counts = budget.counts
    return {
        "sent": counts.sent,
        "merged": counts.merged,
        "carried": counts.carried,
        "carry_failed": counts.carry_failed,
        "waited_seconds": counts.waited,
        "waiting": budget.budget.waiting,
    }


def games_by_shard(service: GameService, shard_count: int | None) -> dict[int, int]:
    """How many games this process runs, by shard."""
    count = shard_count or 1
    by_shard: Counter[int] = Counter()
    for table in service.hub.tables.values():
        meta = service.meta.get(table.game_id)
        by_shard[shard_of(meta.guild_id, count) if meta is not None else 0] += 1
    return dict(by_shard)


def games_by_state(service: GameService) -> dict[str, int]:
    """How many lobbies, running and paused games this process holds."""
    hub = service.hub
    paused = sum(1 for table in hub.tables.values() if table.paused)
    return {"lobby": len(hub.lobbies), "running": len(hub.tables) - paused, "paused": paused}
