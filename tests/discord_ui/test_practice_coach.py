"""The practice coach tells an AI seat's reason only once its choice is public."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.discord_ui.practice.coach import Coach
from bot.table.presenter import Update
from bot.table.seats import Seat
from lockdown_core import Event, load_ruleset, new_game
from lockdown_core.ai import Rationale


class Inner:
    def __init__(self) -> None:
        self.shown: list[Update] = []

    async def show(self, table: Any, update: Update) -> None:
        self.shown.append(update)


def update(*kinds: str) -> Update:
    return Update([Event(kind) for kind in kinds], {}, [], [], None)


async def test_a_destination_reason_waits_for_the_reveal_and_is_told_once() -> None:
    state, _ = new_game(load_ruleset(), 3, 1)
    ai = SimpleNamespace(rationale=None)
    table: Any = SimpleNamespace(
        seats=[Seat(0, "Ana", user_id=1), Seat(1, "AI 1", ai_kind="shrewd")],
        state=state,
        players=SimpleNamespace(player_for=lambda index: ai),
    )
    inner = Inner()
    told: list[str] = []
    coach = Coach(inner, "en", ["Ana", "AI 1"], told)

    ai.rationale = Rationale("destination", 3, 1.0, None, None)
    await coach.show(table, update("destination_chosen"))
    assert told == [], "a secret destination's reason before the reveal"
    await coach.show(table, update("destination_chosen"))
    assert told == []
    await coach.show(table, update("destinations_revealed"))
    assert len(told) == 1
    assert told[0].startswith("AI 1")
    await coach.show(table, update("character_moved"))
    assert len(told) == 1, "the same reason told twice"
    assert len(inner.shown) == 4

    ai.rationale = Rationale("move", 0, 0.5, None, None)
    await coach.show(table, update("character_moved"))
    assert len(told) == 2
