"""Take-over requests waiting for approval live only as long as their game and step."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.discord_ui.seats.takeovers import Takeover, Takeovers


def test_requests_of_games_that_ended_or_of_steps_that_are_over_are_dropped() -> None:
    running = SimpleNamespace(token="t2")
    service: Any = SimpleNamespace(hub=SimpleNamespace(tables={1: running}))
    requests = Takeovers(service)
    requests.pending = {
        (1, 0): Takeover(10, "ana", "t2"),  # its game runs, its step too: kept
        (1, 1): Takeover(11, "bo", "t1"),  # its step is over
        (2, 0): Takeover(12, "cy", "t9"),  # its game ended by itself
    }
    requests._prune()
    assert list(requests.pending) == [(1, 0)]
