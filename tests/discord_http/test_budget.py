"""The budget's decisions on a made-up clock: the global window, buckets, priorities and
merged edits, and whole minutes of many games' traffic against a simulated Discord."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord_http.buckets import RateHeaders
from bot.discord_http.budget import Budget, GlobalWindow, Ticket
from bot.discord_http.priority import Priority
from tests.discord_http.simulated import EDIT, GET, POST, Planned, SimDiscord, Simulation

CHANNEL = "41"


def submit(
    budget: Budget,
    method: str,
    route_key: str,
    url: str,
    body: dict[str, Any],
    *,
    major: str = CHANNEL,
    priority: Priority = Priority.NORMAL,
    now: float = 0.0,
) -> Ticket:
    return budget.submit(
        method=method,
        route_key=route_key,
        major=major,
        url=url,
        kwargs={"json": body},
        priority=priority,
        now=now,
    )


def test_a_request_counts_from_leaving_until_a_second_after_its_answer() -> None:
    window = GlobalWindow(2)
    window.take()
    window.take()
    assert not window.has_space(0.0)
    assert window.free_at() is None  # nothing frees before an answer
    window.release(0.5)
    assert not window.has_space(1.49)
    assert window.free_at() == 1.5
    assert window.has_space(1.5)


def test_requests_beyond_the_global_limit_wait_until_one_stops_counting() -> None:
    budget = Budget(per_second=2)
    for channel in range(3):
        submit(budget, "GET", GET, f"/channels/{channel}", {}, major=str(channel))
    chosen, wake = budget.pick(0.0)
    assert len(chosen) == 2
    assert wake is None
    budget.answered(chosen[0], 0.2)
    assert budget.pick(0.2) == ([], 1.2)
    assert len(budget.pick(1.2)[0]) == 1


def test_an_unlearned_route_goes_one_request_at_a_time() -> None:
    budget = Budget(per_second=50)
    first = submit(budget, "POST", POST, "/channels/41/messages", {"content": "a"})
    submit(budget, "POST", POST, "/channels/41/messages", {"content": "b"})
    chosen, wake = budget.pick(0.0)
    assert chosen == [first]
    assert wake is None  # nothing to wait for but the answer
    first.headers = RateHeaders(5, 4, 5.0, "hash")
    budget.answered(first, 0.2)
    assert len(budget.pick(0.2)[0]) == 1


def test_a_learned_bucket_is_not_emptied_past_what_discord_said() -> None:
    budget = Budget(per_second=50)
    first = submit(budget, "POST", POST, "/channels/41/messages", {"content": "0"})
    budget.pick(0.0)
    first.headers = RateHeaders(5, 4, 5.0, "hash")
    budget.answered(first, 0.1)
    for n in range(1, 8):
        submit(budget, "POST", POST, "/channels/41/messages", {"content": str(n)})
    chosen, wake = budget.pick(0.1)
    assert len(chosen) == 4
    assert wake == 5.1  # the answer's reset, counted from its arrival


def test_an_unlearned_route_waits_for_the_buckets_it_might_share() -> None:
    """Sends emptied the channel's bucket; the first edit ever must not assume its own."""
    budget = Budget(per_second=50)
    post = submit(budget, "POST", POST, "/channels/41/messages", {"content": "0"})
    budget.pick(0.0)
    post.headers = RateHeaders(5, 0, 5.0, "messages")
    budget.answered(post, 0.1)
    submit(budget, "PATCH", EDIT, "/channels/41/messages/7", {"content": "x"})
    chosen, wake = budget.pick(0.2)
    assert chosen == []
    assert wake == 5.1
    assert len(budget.pick(5.1)[0]) == 1


def test_urgent_requests_overtake_progress_edits() -> None:
    budget = Budget(per_second=1)
    progress = submit(
        budget, "PATCH", EDIT, "/c/1/m/1", {"content": "1 vote"}, priority=Priority.PROGRESS
    )
    urgent = submit(
        budget, "POST", POST, "/c/2", {"content": "new step"}, major="2", priority=Priority.URGENT
    )
    assert budget.pick(0.0)[0] == [urgent]
    budget.answered(urgent, 0.1)
    assert budget.pick(1.1)[0] == [progress]


def test_a_waiting_edit_absorbs_the_next_edit_of_its_message() -> None:
    budget = Budget(per_second=1)
    blocker = submit(budget, "GET", GET, "/channels/9", {}, major="9")
    budget.pick(0.0)
    url = "/channels/41/messages/7"
    first = submit(budget, "PATCH", EDIT, url, {"content": "1 vote", "embeds": [{"t": 1}]})
    second = submit(
        budget, "PATCH", EDIT, url, {"content": "2 votes"}, priority=Priority.URGENT, now=0.5
    )
    assert second is first
    assert first.callers == 2
    assert first.priority is Priority.URGENT
    assert first.kwargs == {"json": {"content": "2 votes", "embeds": [{"t": 1}]}}
    assert budget.waiting == 1
    assert budget.counts.merged == 1
    assert blocker is not first


def test_an_edit_already_sent_is_not_merged_into() -> None:
    budget = Budget(per_second=5)
    url = "/channels/41/messages/7"
    first = submit(budget, "PATCH", EDIT, url, {"content": "a"})
    assert budget.pick(0.0)[0] == [first]
    second = submit(budget, "PATCH", EDIT, url, {"content": "b"})
    assert second is not first
    assert budget.waiting == 1


def test_an_abandoned_request_leaves_the_line_but_a_sent_one_cannot() -> None:
    budget = Budget(per_second=1)
    sent = submit(budget, "GET", GET, "/channels/1", {}, major="1")
    waiting = submit(budget, "GET", GET, "/channels/2", {}, major="2")
    budget.pick(0.0)
    assert not budget.abandon(sent)
    assert budget.abandon(waiting)
    assert budget.waiting == 0


def many_games(seed: int, games: int, seconds: float) -> list[Planned]:
    """Each game: a post every few seconds, edits of its board between them (progress
    counts, some close together), the odd read."""
    rng = random.Random(seed)
    planned: list[Planned] = []
    for game in range(games):
        board = 0
        at = rng.uniform(0, 2)
        while at < seconds:
            roll = rng.random()
            if roll < 0.25:
                board += 1
                planned.append(
                    Planned(at, "POST", POST, game, f"/c/{game}", {"n": at}, Priority.URGENT)
                )
            elif roll < 0.95:
                planned.append(
                    Planned(
                        at,
                        "PATCH",
                        EDIT,
                        game,
                        f"/c/{game}/m/{board}",
                        {"content": f"{at:.3f}"} if rng.random() < 0.5 else {"embeds": [at]},
                        Priority.PROGRESS if rng.random() < 0.7 else Priority.NORMAL,
                    )
                )
            else:
                planned.append(Planned(at, "GET", GET, game, f"/c/{game}", {}))
            at += rng.expovariate(0.9)
    return planned


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    games=st.integers(1, 120),
    stalls=st.sampled_from([0.0, 0.05, 0.3]),
)
def test_many_games_never_meet_a_429_and_nothing_is_lost(
    seed: int, games: int, stalls: float
) -> None:
    """Whatever the delays, stalls included: no 429, every request sent or merged."""
    planned = many_games(seed, games, seconds=30)
    budget = Budget(per_second=50)
    discord = SimDiscord()
    simulation = Simulation(budget, discord, latency=(0.05, 0.2), seed=seed, stalls=stalls)
    simulation.plan(planned)
    simulation.run()
    assert discord.refused == []
    counts = budget.counts
    assert counts.submitted == len(planned)
    assert counts.sent + counts.merged == counts.submitted
    assert budget.waiting == 0
    # Each game's posts went out in the order they were made.
    for game in range(games):
        posts = [t for t in simulation.tickets if t.method == "POST" and t.major == str(game)]
        sent = [t.sent_at for t in posts]
        assert None not in sent
        assert sent == sorted(sent)  # type: ignore[type-var]
    # Each message shows what all its edits, applied in order, would have left.
    wanted: dict[str, dict[str, Any]] = {}
    for p in planned:
        if p.method == "PATCH":
            wanted.setdefault(p.url, {}).update(p.body)
    shown: dict[str, dict[str, Any]] = {}
    for _, ticket, kwargs in discord.seen:
        if ticket.method == "PATCH":
            shown.setdefault(ticket.url, {}).update(kwargs["json"])
    assert shown == wanted


def test_under_pressure_steps_wait_less_than_progress() -> None:
    """120 games ask for more than the token may send: the edits are merged and wait,
    the new messages go first."""
    planned = many_games(seed=5, games=120, seconds=40)
    budget = Budget(per_second=50)
    discord = SimDiscord()
    simulation = Simulation(budget, discord, latency=(0.05, 0.2), seed=5)
    simulation.plan(planned)
    simulation.run()
    assert discord.refused == []
    assert budget.counts.merged > 0
    waits: dict[Priority, list[float]] = {Priority.URGENT: [], Priority.PROGRESS: []}
    for ticket in simulation.tickets:
        if ticket.priority in waits and ticket.sent_at is not None:
            waits[ticket.priority].append(ticket.sent_at - ticket.submitted_at)
    urgent, progress = sorted(waits[Priority.URGENT]), sorted(waits[Priority.PROGRESS])
    assert urgent[len(urgent) * 99 // 100] < 1.0
    assert progress[len(progress) // 2] > 5 * urgent[len(urgent) // 2]
