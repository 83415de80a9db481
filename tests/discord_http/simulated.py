"""A made-up clock and a simulated Discord, to run the pure `Budget` through many seconds
of traffic in a moment.

`SimDiscord` limits as the fake Discord does (`tests/fakediscord/unkind.py`): fixed
windows opened by their first request, sends and edits of a channel in one bucket of
5 per 5 s, other routes 10 per 1 s, and a sliding second of 50 requests for the
token. Requests travel to it and back with a drawn delay, so they land in another
order and spacing than they were sent, as on the real network.
"""

from __future__ import annotations

import hashlib
import heapq
import itertools
import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from bot.discord_http.buckets import RateHeaders
from bot.discord_http.budget import Budget, Ticket
from bot.discord_http.priority import Priority

POST = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
GET = "GET /channels/{channel_id}"
SHARED = {POST: "messages", EDIT: "messages"}
LIMITS = {"messages": (5, 5.0)}
DEFAULT = (10, 1.0)


@dataclass
class Window:
    count: int
    per: float
    opened: float
    used: int = 0


@dataclass
class SimDiscord:
    """Discord's limits, judged at the moment each request arrives."""

    global_per_second: int = 50
    windows: dict[tuple[str, str], Window] = field(default_factory=dict)
    recent: deque[float] = field(default_factory=deque)
    refused: list[tuple[float, str, bool]] = field(default_factory=list)
    seen: list[tuple[float, Ticket, dict[str, Any]]] = field(default_factory=list)

    def handle(self, ticket: Ticket, at: float) -> RateHeaders | None:
        while self.recent and self.recent[0] <= at - 1.0:
            self.recent.popleft()
        if len(self.recent) >= self.global_per_second:
            self.refused.append((at, ticket.route_key, True))
            return None
        name = SHARED.get(ticket.route_key, ticket.route_key)
        count, per = LIMITS.get(name, DEFAULT)
        window = self.windows.get((name, ticket.major))
        if window is None or at >= window.opened + per:
            window = self.windows[(name, ticket.major)] = Window(count, per, at)
        reset_after = window.opened + per - at
        digest = hashlib.sha1(name.encode()).hexdigest()[:16]
        if window.used >= count:
            self.refused.append((at, ticket.route_key, False))
            return RateHeaders(count, 0, reset_after, digest)
        window.used += 1
        self.recent.append(at)
        self.seen.append((at, ticket, dict(ticket.kwargs)))
        return RateHeaders(count, count - window.used, reset_after, digest)


@dataclass(frozen=True)
class Planned:
    """A request a caller makes at `at`."""

    at: float
    method: str
    route_key: str
    channel: int
    url: str
    body: dict[str, Any]
    priority: Priority = Priority.NORMAL


class Simulation:
    """Runs planned requests through a `Budget` and a `SimDiscord` on a made-up clock."""

    def __init__(
        self,
        budget: Budget,
        discord: SimDiscord,
        *,
        latency: tuple[float, float],
        seed: int,
        stalls: float = 0.0,
    ) -> None:
        self.budget = budget
        self.discord = discord
        self.latency = latency
        self.stalls = stalls  # the share of trips held up to half a second more
        self.random = random.Random(seed)
        self.now = 0.0
        self._events: list[tuple[float, int, str, Any]] = []
        self._seq = itertools.count()
        self.tickets: list[Ticket] = []
        self.answered_at: dict[Ticket, float] = {}
        self._wakes: set[float] = set()

    def plan(self, requests: list[Planned]) -> None:
        for request in requests:
            self._at(request.at, "submit", request)

    def _at(self, when: float, kind: str, data: Any) -> None:
        heapq.heappush(self._events, (when, next(self._seq), kind, data))

    def _half_trip(self) -> float:
        """One way's delay: half a drawn latency, and now and then a stall (a slow
        network, a busy event loop) that bunches requests up."""
        stall = self.random.uniform(0, 0.5) if self.random.random() < self.stalls else 0.0
        return self.random.uniform(*self.latency) / 2 + stall

    def run(self, until: float = 3600.0) -> None:
        while self._events:
            when, _, kind, data = heapq.heappop(self._events)
            assert when <= until, "the simulation did not drain"
            self.now = when
            if kind == "submit":
                request: Planned = data
                ticket = self.budget.submit(
                    method=request.method,
                    route_key=request.route_key,
                    major=str(request.channel),
                    url=request.url,
                    kwargs={"json": request.body},
                    priority=request.priority,
                    now=when,
                )
                if ticket not in self.tickets:
                    self.tickets.append(ticket)
            elif kind == "arrive":
                ticket = data
                ticket.headers = self.discord.handle(ticket, when)
                self._at(when + self._half_trip(), "answer", ticket)
            elif kind == "wake":
                self._wakes.discard(when)
            elif kind == "answer":
                self.budget.answered(data, when)
                self.answered_at[data] = when
            self._pick()

    def _pick(self) -> None:
        chosen, wake = self.budget.pick(self.now)
        for ticket in chosen:
            self._at(self.now + self._half_trip(), "arrive", ticket)
        if wake is not None and max(wake, self.now) not in self._wakes:
            self._wakes.add(max(wake, self.now))
            self._at(max(wake, self.now), "wake", None)
