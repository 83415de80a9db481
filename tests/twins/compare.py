"""Play a plan in both worlds and compare what each person who must not know received.

Who may know what is the rules' business, read from the core after every move: the
public view and public events, and each seat's own view and private events. A person
may know a seat's secrets only if it is the one seat they held in the whole game (a
person is one seat per game: who held a seat and then another knows the first one's
secrets in the second). Each person's stream is compared up to the first move after
which what the rules let them know differs between the worlds; from that move on the
worlds may rightly differ for them (a reveal, or the secret's own seat).
"""

from __future__ import annotations

import difflib
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.twins.hidden import Hidden
from tests.twins.observe import Seen
from tests.twins.plan import Plan
from tests.twins.world import Record, World


@dataclass
class Leak:
    """A person saw something differ before the rules let them know it."""

    person: str
    tick: int
    mover: str
    held: list[int]
    a: str
    b: str

    def __str__(self) -> str:
        diff = "".join(
            difflib.unified_diff(
                [self.a[:3000] + "\n"], [self.b[:3000] + "\n"], "world A", "world B", n=0
            )
        )
        why = (
            f"held seats {self.held}: one seat per game, so no seat's secrets are theirs"
            if len(self.held) > 1
            else f"seats held: {self.held}"
        )
        return (
            f"{self.person} ({why}) saw the worlds differ at move {self.tick} "
            f"({self.mover}):\n"
            f"{_shown_diff(self.a, self.b)}\n{diff if len(diff) < 600 else ''}"
        )


def _shown_diff(a: str, b: str) -> str:
    """Where the two requests part, with some context."""
    at = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    start = max(0, at - 160)
    return f"  A: …{a[start : at + 200]}…\n  B: …{b[start : at + 200]}…"


@dataclass
class Outcome:
    plan: Plan
    changed: bool
    comparisons: int
    moves: int
    leaks: list[Leak]
    cuts: dict[str, int]
    finished: bool
    coalesced: int = 0

    def report(self) -> str:
        lines = [
            f"{self.plan.replay()}",
            f"  world B changed it: {self.changed}; {self.moves} moves, game over: "
            f"{self.finished}; compared until move {self.cuts}; {self.comparisons} requests; "
            f"{self.coalesced} stream(s) differing only in in-between board drawings",
            f"  {len(self.leaks)} leak(s)",
        ]
        lines += [str(leak) for leak in self.leaks]
        return "\n".join(lines)


def _seats_held(a: Record, b: Record, person: str) -> list[int]:
    seats: set[int] = set()
    for record in (a, b):
        for held in record.holders:
            if person in held:
                seats.add(held[person])
    return sorted(seats)


def _cut(a: Record, b: Record, person: str, legit: int | None) -> int:
    """The first move after which the rules let `person` know something that differs."""
    moves = min(len(a.knowledge), len(b.knowledge))
    for tick in range(moves):
        ka, kb = a.knowledge[tick], b.knowledge[tick]
        if ka.public != kb.public:
            return tick
        holding = legit is not None and a.holders[tick].get(person) == legit
        if holding and ka.seats[legit] != kb.seats[legit]:  # type: ignore[index]
            return tick
    return moves


def _collapsed(seen: list[Seen]) -> list[Seen]:
    """`seen` with each message's edits within one move cut to the message as it stood
    once the move was over.

    The bot draws the board from the latest moment when it gets to it: where one move
    sets off others within it (a "No cards this turn" answered at once), whether an
    in-between moment is drawn as well, and in one edit or two, hangs on the threads'
    pace, not on anything hidden. Only such differences are forgiven, and counted apart."""
    last: dict[tuple[int, str], int] = {}
    for at, item in enumerate(seen):
        if item.after:
            last[(item.tick, item.what.split(" ", 2)[1])] = at
    return [
        Seen(item.tick, f"edited: {item.after}") if item.after else item
        for at, item in enumerate(seen)
        if not item.after or last[(item.tick, item.what.split(" ", 2)[1])] == at
    ]


def compare(a: Record, b: Record) -> tuple[int, list[Leak], dict[str, int], int]:
    """Requests compared, leaks, each person's cut, and the people whose streams differed
    only in edits drawn or not within one move (`_collapsed`)."""
    leaks: list[Leak] = []
    comparisons = 0
    coalesced = 0
    cuts: dict[str, int] = {}
    for person in a.streams:
        name = person
        held = _seats_held(a, b, person)
        legit = held[0] if len(held) == 1 else None
        cut = _cut(a, b, person, legit)
        cuts[person] = cut
        seen_a = [s for s in a.streams[person] if s.tick < cut]
        seen_b = [s for s in b.streams[person] if s.tick < cut]
        comparisons += min(len(seen_a), len(seen_b))
        leak = _first_difference(seen_a, seen_b)
        if leak is not None:
            leak = _first_difference(_collapsed(seen_a), _collapsed(seen_b))
            coalesced += leak is None
        if leak is not None:
            tick, what_a, what_b = leak
            mover = a.movers[tick] if tick < len(a.movers) else "?"
            leaks.append(Leak(name, tick, mover, held, what_a, what_b))
    ai = _ai_that_knew_nothing(a, b)
    if ai is not None:
        leaks.append(ai)
    return comparisons, leaks, cuts, coalesced


def _ai_that_knew_nothing(a: Record, b: Record) -> Leak | None:
    """An AI seat that chose otherwise in the two worlds while the rules had shown it,
    and everyone, the same things: its choice hung on something it must not know.
    (World B's AI ballot is the hidden thing itself: that seat's choice may differ.)"""
    moves = min(len(a.knowledge), len(b.knowledge))
    for tick in range(1, moves):
        before_a, before_b = a.knowledge[tick - 1], b.knowledge[tick - 1]
        if before_a.public != before_b.public:
            return None  # from here on the AI seats rightly see different things
        made_a, made_b = a.ai_moves.get(tick, []), b.ai_moves.get(tick, [])
        for move_a, move_b in zip(made_a, made_b, strict=False):
            seat = int(move_a.split(":")[0])
            if move_a == move_b or move_b.split(":")[0] != str(seat):
                continue
            if a.plan.hidden == "ai_ballot" and seat == a.plan.secret:
                continue
            if before_a.seats and before_a.seats[seat] == before_b.seats[seat]:
                return Leak(f"AI seat {seat}", tick, a.movers[tick], [seat], move_a, move_b)
    return None


def _first_difference(a: list[Seen], b: list[Seen]) -> tuple[int, str, str] | None:
    for x, y in zip(a, b, strict=False):
        if x != y:
            return min(x.tick, y.tick), f"[move {x.tick}] {x.what}", f"[move {y.tick}] {y.what}"
    if len(a) != len(b):
        longer, tick = (a, "A") if len(a) > len(b) else (b, "B")
        extra = longer[min(len(a), len(b))]
        missing = "(nothing)"
        pair = (extra.what, missing) if tick == "A" else (missing, extra.what)
        return extra.tick, f"[move {extra.tick}] {pair[0]}", f"[move {extra.tick}] {pair[1]}"
    return None


async def play_twins(plan: Plan, folder: Path | None = None) -> Outcome:
    """Both worlds of `plan`, and what differed for whom."""
    with tempfile.TemporaryDirectory() as spare:
        root = folder or Path(spare)
        hidden = Hidden(plan.hidden, plan.secret).for_world("A")
        (root / "A").mkdir()
        (root / "B").mkdir()
        a = await World(plan, "A", root / "A", hidden).run()
        twin = hidden.for_world("B")
        b = await World(plan, "B", root / "B", twin, twin_of=a).run()
    comparisons, leaks, cuts, coalesced = compare(a, b)
    return Outcome(
        plan, twin.changed, comparisons, len(a.movers), leaks, cuts, a.finished, coalesced
    )
