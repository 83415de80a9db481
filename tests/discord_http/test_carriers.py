"""Edits carried by clicks' tokens, on a made-up clock: which carrier is kept, and how the
budget sends a carried edit (outside the global window and the channel's bucket, yet
never beside another edit of the same message) or gives it back to the bot token."""

from __future__ import annotations

from typing import Any

from bot.discord_http.budget import CARRIED_ROUTE, Budget, Ticket
from bot.discord_http.carriers import Carrier, Carriers
from bot.discord_http.priority import Priority
from tests.discord_http.simulated import EDIT, GET, POST

BOARD = 7


def carrier(token: str, expires_at: float = 600.0) -> Carrier:
    return Carrier(application_id=1, token=token, expires_at=expires_at)


def edit(budget: Budget, body: dict[str, Any], *, now: float = 0.0, **extra: Any) -> Ticket:
    return budget.submit(
        method="PATCH",
        route_key=EDIT,
        major="41",
        url=f"/channels/41/messages/{BOARD}",
        kwargs={"json": body, **extra},
        priority=Priority.PROGRESS,
        now=now,
        message_id=BOARD,
    )


def fill_the_window(budget: Budget, now: float = 0.0) -> None:
    """Every request the global window allows, on its way."""
    for channel in range(budget.global_window.per_second):
        budget.submit(
            method="GET",
            route_key=GET,
            major=str(channel),
            url=f"/channels/{channel}",
            kwargs={},
            priority=Priority.URGENT,
            now=now,
        )
    chosen, _ = budget.pick(now)
    assert len(chosen) == budget.global_window.per_second
    assert not budget.global_window.has_space(now)


def test_the_longest_lived_carrier_of_a_message_is_kept() -> None:
    carriers = Carriers()
    carriers.keep(BOARD, carrier("late", expires_at=900.0), now=0.0)
    carriers.keep(BOARD, carrier("early", expires_at=300.0), now=1.0)
    found = carriers.get(BOARD, now=2.0)
    assert found is not None
    assert found.token == "late"
    assert carriers.get(8, now=2.0) is None


def test_a_carrier_is_not_lent_once_it_expires() -> None:
    carriers = Carriers()
    carriers.keep(BOARD, carrier("a", expires_at=10.0), now=0.0)
    assert carriers.get(BOARD, now=9.9) is not None
    assert carriers.get(BOARD, now=10.0) is None
    assert len(carriers) == 0


def test_dropping_a_failed_carrier_keeps_a_newer_one() -> None:
    carriers = Carriers()
    old = carrier("old", expires_at=100.0)
    carriers.keep(BOARD, old, now=0.0)
    carriers.keep(BOARD, carrier("new", expires_at=200.0), now=1.0)
    carriers.drop(BOARD, old)
    found = carriers.get(BOARD, now=2.0)
    assert found is not None
    assert found.token == "new"


def test_expired_carriers_of_messages_never_edited_again_are_forgotten() -> None:
    carriers = Carriers()
    for message in range(100):
        carriers.keep(message, carrier(str(message), expires_at=30.0), now=0.0)
    carriers.keep(1000, carrier("fresh", expires_at=500.0), now=120.0)
    assert len(carriers) == 1


def test_a_carried_edit_goes_while_the_global_window_is_full() -> None:
    budget = Budget(per_second=3)
    fill_the_window(budget)
    held = budget.submit(
        method="POST",
        route_key=POST,
        major="41",
        url="/channels/41/messages",
        kwargs={"json": {"content": "line"}},
        priority=Priority.URGENT,
        now=0.0,
    )
    edited = edit(budget, {"content": "2 votes"})
    assert budget.pick(0.0)[0] == []  # nothing can carry it yet
    budget.carriers.keep(BOARD, carrier("click"), now=0.1)
    chosen, _ = budget.pick(0.1)
    assert chosen == [edited]
    assert edited.carrier is not None
    assert edited.carrier.token == "click"
    assert held.sent_at is None  # the bot token's post still waits for the window
    budget.answered(edited, 0.3)
    assert not budget.global_window.has_space(0.3)  # the carried edit took no room
    assert budget.counts.carried == 1
    assert budget.counts.by_route[CARRIED_ROUTE] == 1
    assert budget.counts.sent == 3


def test_a_carried_edit_never_travels_beside_another_edit_of_its_message() -> None:
    budget = Budget(per_second=50)
    budget.carriers.keep(BOARD, carrier("click"), now=0.0)
    first = edit(budget, {"content": "1 vote"})
    assert budget.pick(0.0)[0] == [first]
    second = edit(budget, {"content": "2 votes"})
    third = edit(budget, {"content": "3 votes"})
    assert third is second  # merged while it waits
    assert budget.pick(0.05)[0] == []
    budget.answered(first, 0.1)
    assert budget.pick(0.1)[0] == [second]
    assert second.kwargs == {"json": {"content": "3 votes"}}


def test_a_failed_carried_edit_goes_back_before_a_newer_edit_with_the_bot_token() -> None:
    budget = Budget(per_second=50)
    lent = carrier("expired")
    budget.carriers.keep(BOARD, lent, now=0.0)
    first = edit(budget, {"content": "turn 1"})
    assert budget.pick(0.0)[0] == [first]
    newer = edit(budget, {"content": "turn 1, and a line"})
    budget.answered(first, 0.1)
    budget.uncarry(first)
    budget.carriers.keep(BOARD, carrier("another"), now=0.1)
    chosen, _ = budget.pick(0.1)
    assert chosen == [first]  # in its old place, before the newer edit
    assert first.carrier is None  # and with the bot token, whatever carrier came since
    assert budget.counts.carry_failed == 1
    budget.answered(first, 0.2)
    assert budget.pick(0.2)[0] == [newer]
    assert newer.carrier is not None


def test_only_a_plain_message_edit_can_be_carried() -> None:
    budget = Budget(per_second=50)
    budget.carriers.keep(BOARD, carrier("click"), now=0.0)
    with_reason = edit(budget, {"content": "x"}, reason="audit")
    assert with_reason.message_id is None
    chosen, _ = budget.pick(0.0)
    assert chosen == [with_reason]
    assert with_reason.carrier is None


def test_a_newer_edit_never_overtakes_an_older_one_given_back_by_its_carrier() -> None:
    budget = Budget(per_second=3)
    budget.carriers.keep(BOARD, carrier("click"), now=0.0)
    older = edit(budget, {"content": "turn 1"})
    assert budget.pick(0.0)[0] == [older]
    budget.answered(older, 0.1)
    budget.uncarry(older)  # refused: it must now go with the bot token
    fill_the_window(budget, now=0.1)
    newer = edit(budget, {"content": "turn 1, and a line"}, now=0.2)
    budget.carriers.keep(BOARD, carrier("another"), now=0.2)
    assert budget.pick(0.2)[0] == []  # the newer one could be carried, but waits
    assert newer.sent_at is None
