"""Who a finished game rates, and at which place.

A game is rated only if its server turned ratings on, its lobby was not
casual, it was not a practice game, it finished (an aborted game, one ended
by the table's vote included, never is), every variant it used is one the
moderators rate, and at least `MIN_PEOPLE` people held a seat at the end.

Among those rated, places come from the final scores of the people's seats,
equal scores tying; AI seats are not rated and count for nobody, so beating
one gives nothing. A person who left is placed last among the people (tied
with any other who left), so leaving never saves a rating. A person who took
a seat over plays on a position somebody else built: they are not rated for
that game, and are told why. A member the moderators excluded is not rated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

MIN_PEOPLE = 3


class NotRated(StrEnum):
    """Why a whole game is not rated (the catalogs say it in words: `rating.why.<value>`)."""

    OFF = "off"
    CASUAL = "casual"
    PRACTICE = "practice"
    NOT_FINISHED = "not_finished"
    VARIANT = "variant"
    FEW_PEOPLE = "few_people"


class Skipped(StrEnum):
    """Why one person of a rated game is not rated (`rating.skipped.<value>`)."""

    TOOK_OVER = "took_over"
    EXCLUDED = "excluded"


@dataclass(frozen=True, slots=True)
class SeatEnd:
    """A seat at the end of a game: who holds it (None: an AI seat or nobody), whether
    that person left it, whether they took it over from someone, and its score."""

    seat: int
    score: int
    user_id: int | None = None
    has_left: bool = False
    took_over: bool = False


@dataclass(frozen=True, slots=True)
class GameEnd:
    """What the rules need of a game that ended. `departed`: people who left a seat that
    someone else then took (with that seat), so who no longer hold any."""

    finished: bool
    practice: bool
    casual: bool
    variants: tuple[str, ...]
    seats: tuple[SeatEnd, ...]
    departed: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Rules:
    """A server's choices: ratings on, the variants it rates (none: the base game
    only), the members it excludes."""

    enabled: bool = False
    variants: frozenset[str] = frozenset()
    excluded: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Placing:
    user_id: int
    seat: int
    rank: int


@dataclass(frozen=True, slots=True)
class Verdict:
    """The people rated, with their places (1 is first), or why the game is not rated;
    and who is left out of a rated game, and why."""

    placings: tuple[Placing, ...] = ()
    not_rated: NotRated | None = None
    skipped: tuple[tuple[int, Skipped], ...] = field(default=())

    @property
    def rated(self) -> bool:
        return self.not_rated is None


def verdict(game: GameEnd, rules: Rules) -> Verdict:
    """Whether `game` is rated under `rules`, and each rated person's place."""
    reason = _not_rated(game, rules)
    if reason is not None:
        return Verdict(not_rated=reason)
    skipped: list[tuple[int, Skipped]] = []
    staying: list[SeatEnd] = []
    leaving: dict[int, int] = {}
    for seat in game.seats:
        if seat.user_id is None:
            continue
        if seat.has_left:
            leaving.setdefault(seat.user_id, seat.seat)
        elif seat.took_over:
            skipped.append((seat.user_id, Skipped.TOOK_OVER))
        else:
            staying.append(seat)
    holders = {seat.user_id for seat in staying}
    for user_id, seat_number in game.departed:
        if user_id not in holders:
            leaving.setdefault(user_id, seat_number)
    excluded = rules.excluded
    skipped.extend((seat.user_id, Skipped.EXCLUDED) for seat in staying if seat.user_id in excluded)
    skipped.extend((user, Skipped.EXCLUDED) for user in leaving if user in excluded)
    staying = [seat for seat in staying if seat.user_id not in excluded]
    leaving = {user: seat for user, seat in leaving.items() if user not in excluded}
    placings = _placings(staying, leaving)
    if len(placings) < 2:
        return Verdict(not_rated=NotRated.FEW_PEOPLE, skipped=tuple(skipped))
    return Verdict(placings=tuple(placings), skipped=tuple(skipped))


def _not_rated(game: GameEnd, rules: Rules) -> NotRated | None:
    if not rules.enabled:
        return NotRated.OFF
    if game.practice:
        return NotRated.PRACTICE
    if not game.finished:
        return NotRated.NOT_FINISHED
    if game.casual:
        return NotRated.CASUAL
    if not set(game.variants) <= rules.variants:
        return NotRated.VARIANT
    at_end = {seat.user_id for seat in game.seats if seat.user_id is not None and not seat.has_left}
    if len(at_end) < MIN_PEOPLE:
        return NotRated.FEW_PEOPLE
    return None


def _placings(staying: Sequence[SeatEnd], leaving: dict[int, int]) -> list[Placing]:
    """Places by score, equal scores sharing the better place (1, 1, 3); those who left
    share the place after everyone who stayed. (A person holds one seat of a game.)"""
    ordered = sorted(staying, key=lambda seat: (-seat.score, seat.seat))
    placings: list[Placing] = []
    for index, seat in enumerate(ordered):
        assert seat.user_id is not None
        tied = index > 0 and ordered[index - 1].score == seat.score
        rank = placings[-1].rank if tied else index + 1
        placings.append(Placing(seat.user_id, seat.seat, rank))
    last = len(placings) + 1
    placings.extend(Placing(user, seat, last) for user, seat in leaving.items())
    return placings
