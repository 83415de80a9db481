"""The budget on the event loop: what reaches discord.py's own `request`, when, and what
each caller gets back. discord.py's request is replaced by a recorder here; the whole
path against the fake Discord is in `test_budget_e2e.py`."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.http import Route

from bot.discord_http import Priority, request_priority
from bot.discord_http.carriers import Carrier
from bot.discord_http.client import HeaderProbe, RequestBudget, install

EDIT = "/channels/{channel_id}/messages/{message_id}"


class Response:
    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = headers


class Recorder:
    """Stands for discord.py's `HTTPClient.request`: records, waits, answers, and files
    rate-limit headers through the probe as discord.py does."""

    def __init__(self, delay: float = 0.01, headers: dict[str, str] | None = None) -> None:
        self.delay = delay
        self.headers = headers or {}
        self.calls: list[tuple[str, str, dict[str, Any]]] = []
        self.fail_with: BaseException | None = None
        self.probe = HeaderProbe()

    async def __call__(self, route: Route, **kwargs: Any) -> Any:
        self.calls.append((route.method, route.url, kwargs))
        await asyncio.sleep(self.delay)
        self.probe.update(Response(self.headers))
        if self.fail_with is not None:
            raise self.fail_with
        return {"id": len(self.calls), "sent": kwargs.get("json")}


def read(channel: int) -> Route:
    return Route("GET", "/channels/{channel_id}", channel_id=channel)


def edit(message: int) -> Route:
    return Route("PATCH", EDIT, channel_id=41, message_id=message)


async def test_edits_waiting_together_are_sent_once_in_their_latest_version() -> None:
    send = Recorder()
    budget = RequestBudget(send, per_second=1, window=0.3)
    first = asyncio.create_task(budget.request(read(9)))
    await asyncio.sleep(0)
    edits = [
        asyncio.create_task(budget.request(edit(7), json={"content": f"{n} votes"}))
        for n in range(1, 4)
    ]
    answers = await asyncio.gather(first, *edits)
    assert [call[0] for call in send.calls] == ["GET", "PATCH"]
    assert send.calls[1][2] == {"json": {"content": "3 votes"}}
    assert answers[1] == answers[2] == answers[3] == {"id": 2, "sent": {"content": "3 votes"}}
    assert budget.budget.counts.merged == 2


async def test_the_global_window_spaces_requests() -> None:
    send = Recorder(delay=0.0)
    budget = RequestBudget(send, per_second=2, window=0.2)
    loop = asyncio.get_running_loop()
    started = loop.time()
    routes = [Route("GET", "/channels/{channel_id}", channel_id=n) for n in range(5)]
    await asyncio.gather(*(budget.request(route) for route in routes))
    assert len(send.calls) == 5
    assert loop.time() - started >= 0.4  # 2 now, 2 after 0.2 s, 1 after 0.4 s


async def test_interaction_answers_never_wait_on_the_budget() -> None:
    send = Recorder(delay=0.0)
    budget = RequestBudget(send, per_second=1, window=30.0)
    await budget.request(Route("GET", "/channels/{channel_id}", channel_id=1))
    callback = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=5,
        webhook_token="tok",
    )
    await asyncio.wait_for(budget.request(callback, json={"type": 6}), 0.5)
    assert len(send.calls) == 2


async def test_urgent_posts_overtake_progress_edits_that_wait() -> None:
    send = Recorder(delay=0.0)
    budget = RequestBudget(send, per_second=1, window=0.1)
    first = asyncio.create_task(budget.request(read(9)))
    await asyncio.sleep(0)
    with request_priority(Priority.PROGRESS):
        progress = asyncio.create_task(budget.request(edit(7), json={"content": "1 vote"}))
    await asyncio.sleep(0)
    post = Route("POST", "/channels/{channel_id}/messages", channel_id=42)
    urgent = asyncio.create_task(budget.request(post, json={"content": "next step"}))
    await asyncio.gather(first, progress, urgent)
    assert [call[0] for call in send.calls] == ["GET", "POST", "PATCH"]


async def test_a_dm_channel_is_opened_once_per_person() -> None:
    send = Recorder()
    budget = RequestBudget(send, per_second=50, window=1.2)
    route = Route("POST", "/users/@me/channels")
    together = await asyncio.gather(
        *(budget.request(route, json={"recipient_id": 5}) for _ in range(3))
    )
    later = await budget.request(route, json={"recipient_id": 5})
    other = await budget.request(route, json={"recipient_id": 6})
    assert [c[2]["json"]["recipient_id"] for c in send.calls] == [5, 6]
    assert together[0] == together[1] == together[2] == later
    assert later is not together[0]  # each caller may change its copy
    assert other["id"] == 2


async def test_a_failed_dm_channel_is_asked_for_again() -> None:
    send = Recorder()
    send.fail_with = ConnectionResetError("dropped")
    budget = RequestBudget(send, per_second=50, window=1.2)
    route = Route("POST", "/users/@me/channels")
    with pytest.raises(ConnectionResetError):
        await budget.request(route, json={"recipient_id": 5})
    send.fail_with = None
    await budget.request(route, json={"recipient_id": 5})
    assert len(send.calls) == 2


async def test_a_failure_reaches_every_caller_of_a_merged_edit() -> None:
    send = Recorder()
    budget = RequestBudget(send, per_second=1, window=0.2)
    first = asyncio.create_task(budget.request(read(9)))
    await asyncio.sleep(0)
    edits = [
        asyncio.create_task(budget.request(edit(7), json={"content": str(n)})) for n in range(2)
    ]
    await first
    send.fail_with = RuntimeError("refused")
    results = await asyncio.gather(*edits, return_exceptions=True)
    assert [type(r) for r in results] == [RuntimeError, RuntimeError]
    assert len(send.calls) == 2


async def test_a_request_given_up_while_it_waits_is_never_sent() -> None:
    send = Recorder()
    budget = RequestBudget(send, per_second=1, window=0.2)
    first = asyncio.create_task(budget.request(read(9)))
    await asyncio.sleep(0)
    waiting = asyncio.create_task(budget.request(edit(7), json={"content": "x"}))
    await asyncio.sleep(0.05)
    waiting.cancel()
    await first
    await asyncio.sleep(0.3)
    assert [call[0] for call in send.calls] == ["GET"]
    assert budget.budget.waiting == 0


async def test_buckets_learned_from_the_probe_hold_requests_back() -> None:
    send = Recorder(
        headers={
            "X-RateLimit-Limit": "2",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": "0.3",
            "X-RateLimit-Bucket": "msgs",
        }
    )
    budget = RequestBudget(send, per_second=50, window=1.2)
    loop = asyncio.get_running_loop()
    post = Route("POST", "/channels/{channel_id}/messages", channel_id=41)
    await budget.request(post, json={"content": "a"})
    started = loop.time()
    await budget.request(post, json={"content": "b"})
    assert loop.time() - started >= 0.25


async def test_install_replaces_the_clients_request_and_buckets() -> None:
    client = discord.Client(intents=discord.Intents.none())
    http = client.http
    budget = install(http, share=0.5)
    assert http.request == budget.request
    assert isinstance(http.get_ratelimit("any"), HeaderProbe)
    assert budget.budget.global_window.per_second == 25
    await client.close()


class Carry:
    """Stands for the webhook adapter's edit of an original response."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.fail_with: BaseException | None = None

    async def __call__(self, carrier: Carrier, kwargs: dict[str, Any]) -> Any:
        self.calls.append((carrier.token, kwargs))
        await asyncio.sleep(0.01)
        if self.fail_with is not None:
            raise self.fail_with
        return {"id": 7, "carried": kwargs.get("json")}


def board_click(message_id: int, *, ephemeral: bool = False, age: float = 0.0) -> Any:
    """What `carry_edits` reads of an interaction: a click on a message, answered."""
    flags = discord.MessageFlags._from_value(64 if ephemeral else 0)
    return SimpleNamespace(
        type=discord.InteractionType.component,
        message=SimpleNamespace(id=message_id, flags=flags),
        application_id=5,
        token=f"click-{message_id}",
        created_at=discord.utils.utcnow() - timedelta(seconds=age),
    )


async def test_an_edit_of_a_clicked_message_goes_with_the_clicks_token() -> None:
    send, carry = Recorder(), Carry()
    budget = RequestBudget(send, per_second=1, window=30.0, carry=carry)
    await budget.request(read(9))  # the global window is full for 30 s
    budget.carry_edits(board_click(7))
    answer = await asyncio.wait_for(budget.request(edit(7), json={"content": "2 votes"}), 0.5)
    assert answer == {"id": 7, "carried": {"content": "2 votes"}}
    assert carry.calls == [("click-7", {"json": {"content": "2 votes"}})]
    assert [call[0] for call in send.calls] == ["GET"]


async def test_no_token_is_lent_by_a_private_message_or_an_expiring_click() -> None:
    send, carry = Recorder(delay=0.0), Carry()
    budget = RequestBudget(send, per_second=50, carry=carry)
    budget.carry_edits(board_click(7, ephemeral=True))
    budget.carry_edits(board_click(8, age=14 * 60 + 1))
    await budget.request(edit(7), json={"content": "a"})
    await budget.request(edit(8), json={"content": "b"})
    assert carry.calls == []
    assert len(send.calls) == 2


async def test_an_edit_its_carrier_fails_is_made_with_the_bot_token() -> None:
    send, carry = Recorder(), Carry()
    expired = SimpleNamespace(status=401, reason="Unauthorized")
    carry.fail_with = discord.HTTPException(
        expired, {"code": 50027, "message": "Invalid Webhook Token"}
    )  # type: ignore[arg-type]
    budget = RequestBudget(send, per_second=50, carry=carry)
    budget.carry_edits(board_click(7))
    answer = await budget.request(edit(7), json={"content": "turn 2"})
    assert answer == {"id": 1, "sent": {"content": "turn 2"}}
    assert len(carry.calls) == 1
    await budget.request(edit(7), json={"content": "turn 2, one more line"})
    assert len(carry.calls) == 1  # the failed carrier is not lent again
    assert budget.counts.carry_failed == 1
    assert budget.counts.sent == 2


async def test_without_a_carry_every_edit_goes_with_the_bot_token() -> None:
    send = Recorder(delay=0.0)
    budget = RequestBudget(send, per_second=50)
    budget.carry_edits(board_click(7))
    await budget.request(edit(7), json={"content": "a"})
    assert len(send.calls) == 1
    assert budget.counts.carried == 0


async def test_an_edit_its_carrier_holds_too_long_is_made_with_the_bot_token(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # discord.py's webhook adapter retries a 5xx for up to 25 s: the bot does not wait.
    monkeypatch.setattr("bot.discord_http.client.CARRY_PATIENCE", 0.05)
    send, carry = Recorder(), Carry()
    slow = asyncio.Event()

    async def stuck(carrier: Carrier, kwargs: dict[str, Any]) -> Any:
        carry.calls.append((carrier.token, kwargs))
        await slow.wait()

    budget = RequestBudget(send, per_second=50, carry=stuck)
    budget.carry_edits(board_click(7))
    answer = await asyncio.wait_for(budget.request(edit(7), json={"content": "turn 3"}), 1.0)
    assert answer == {"id": 1, "sent": {"content": "turn 3"}}
    assert len(carry.calls) == 1
    assert budget.counts.carry_failed == 1
