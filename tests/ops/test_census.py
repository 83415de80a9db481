"""The census counts what the application hands it, at each scrape: ops knows no table."""

from __future__ import annotations

from dataclasses import dataclass

from prometheus_client import CollectorRegistry

from bot.ops.census import census
from bot.ops.shards import shard_of


@dataclass
class Totals:
    sent: int = 7
    merged: int = 2
    carried: int = 3
    carry_failed: int = 1
    waited: float = 0.5


def test_games_are_counted_by_shard_and_state_and_the_budget_as_handed_in() -> None:
    one, other = 1 << 22, 2 << 22  # shards 1 and 0 of 2
    games = [(one, False), (other, True), (None, False)]
    registry = CollectorRegistry()
    registry.register(
        census(lambda: games, lambda: 4, lambda: 2, lambda: [(0, 0.25)], lambda: (Totals(), 9))
    )

    def value(name: str, **labels: str) -> float | None:
        return registry.get_sample_value(name, labels)

    assert (shard_of(one, 2), shard_of(other, 2)) == (1, 0)
    assert value("lockdown_games_running", shard="1") == 1
    assert value("lockdown_games_running", shard="0") == 2  # an unknown server counts in 0
    assert value("lockdown_games", state="running") == 2
    assert value("lockdown_games", state="paused") == 1
    assert value("lockdown_games", state="lobby") == 4
    assert value("lockdown_request_budget_sent_total") == 7
    assert value("lockdown_request_budget_waited_seconds_total") == 0.5
    assert value("lockdown_request_budget_waiting") == 9
    games.append((one, False))  # read again at the next scrape
    assert value("lockdown_games_running", shard="1") == 2
