"""Many AI games in a row, and what they add up to: the work behind `lockdown simulate`.

Pure like the rest of the core: no clock here (the caller times the run) and
every seed derives from the one given, so the same arguments give the same
figures; a game's AI seats have a seed of their own (`ai_seed`), never its
game's. A game that raises (an engine bug, an AI's illegal choice, a game
that does not end) is counted in `errors` with its traceback kept, never
skipped silently. A stalled game (R9.4: the rules give it no end, and a table
would give it up) is no error: it is counted in `stalemates`, with its number
to replay it. The other figures cover the games that finished.
"""

from __future__ import annotations

import random
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lockdown_core.ai.autoplay import play_game
from lockdown_core.ai.kinds import AI_KINDS, make_player
from lockdown_core.ai.personas import persona
from lockdown_core.epilogues import epilogue_to_unlock
from lockdown_core.model import GameState
from lockdown_core.ruleset import Ruleset

# The line-ups `simulate` offers: every seat the same level, or both levels alternating.
AI_CHOICES: tuple[str, ...] = (*AI_KINDS, "mix")


def seat_kinds(ai: str, players: int, game: int, personas: tuple[str, ...] = ()) -> list[str]:
    """The AI level of each seat in one game.

    `mix` alternates cautious and random seats and swaps them every other
    game, so that with an odd number of players neither level always has the
    extra seat, and each level sits at each seat equally often. Shrewd seats
    take the `personas` in turn, shifted by one seat each game for the same reason.
    """
    if personas:
        if ai != "shrewd":
            raise ValueError("personas are for shrewd seats: use them with the shrewd level")
        for key in personas:
            persona(key)
        return [f"shrewd:{personas[(seat + game) % len(personas)]}" for seat in range(players)]
    if ai in AI_KINDS:
        return [ai] * players
    if ai != "mix":
        raise ValueError(f"unknown AI line-up {ai!r}; expected one of {', '.join(AI_CHOICES)}")
    return ["cautious" if (seat + game) % 2 == 0 else "random" for seat in range(players)]


def game_seed(seed: int, game: int) -> str:
    """One game's seed (its deal, deck and dice): the run's seed and the game's number,
    as `lockdown play --seed` takes it to replay the game."""
    return f"{seed}/{game}"


def ai_seed(seed: int, game: int) -> int:
    """The seed of one game's AI seats (seat `s` plays from `{ai_seed}/{s}`, as at a table
    with `lockdown play --ai-seed`). Drawn, like the bot's `games.ai_seed`, apart from the
    game's seed: from a generator of its own, seeded by a hash of the run's seed and the
    game's number, so that a run replays exactly and yet nothing an AI draws, nor its
    seed, follows the deck or the dice."""
    return random.Random(f"ai/{seed}/{game}").getrandbits(63)


@dataclass
class Tally:
    """Running totals over the games of one simulation."""

    players: int
    games: int = 0
    errors: int = 0
    first_error: str | None = None
    first_error_game: int | None = None
    stalemates: int = 0
    first_stalemate_game: int | None = None
    actions: int = 0
    turns: int = 0
    survivors: int = 0
    living: int = 0
    wins_by_seat: list[float] = field(default_factory=list)
    wins_by_kind: dict[str, float] = field(default_factory=dict)
    seats_by_kind: Counter[str] = field(default_factory=Counter)
    points_by_kind: Counter[str] = field(default_factory=Counter)
    closed: Counter[int] = field(default_factory=Counter)
    epilogues: Counter[str] = field(default_factory=Counter)
    # What the seats of each kind did (a shrewd seat's `tally`), summed.
    behaviour_by_kind: dict[str, Counter[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.wins_by_seat:
            self.wins_by_seat = [0.0] * self.players

    @property
    def finished(self) -> int:
        return self.games - self.errors - self.stalemates

    def add_game(
        self,
        state: GameState,
        kinds: list[str],
        actions: int,
        deeds: Sequence[Counter[str] | None] = (),
    ) -> None:
        """Count a finished game; a win is shared equally among co-winners. `deeds`:
        what each seat did, for the seats that count it."""
        self.games += 1
        for kind, done in zip(kinds, deeds, strict=False):
            if done:
                self.behaviour_by_kind.setdefault(kind, Counter()).update(done)
        result = state.result
        assert result is not None
        self.actions += actions
        self.turns += state.turn
        self.survivors += sum(1 for ids in result["survivors"] if ids)
        winners: list[int] = result["winners"]
        for seat in winners:
            self.wins_by_seat[seat] += 1 / len(winners)
            kind = kinds[seat]
            self.wins_by_kind[kind] = self.wins_by_kind.get(kind, 0.0) + 1 / len(winners)
        self.seats_by_kind.update(kinds)
        specs = state.kind_specs
        for c in state.characters:
            if c.location:
                self.living += 1
                self.points_by_kind[c.kind] += specs[c.kind].points
        keys = sum(result["scores"]) - sum(
            specs[c.kind].points for c in state.characters if c.location
        )
        self.points_by_kind["keys_of_the_truck"] += keys
        self.closed.update(loc for loc in range(1, 7) if state.closed[loc])
        code = epilogue_to_unlock(state, ())
        if code is not None:
            self.epilogues[code] += 1

    def add_error(self, game: int) -> None:
        """Count a game that raised; call from inside the `except` block."""
        self.games += 1
        self.errors += 1
        if self.first_error is None:
            self.first_error = traceback.format_exc()
            self.first_error_game = game

    def add_stalemate(self, game: int) -> None:
        """Count a game stopped once stalled (R9.4): neither finished nor an error."""
        self.games += 1
        self.stalemates += 1
        if self.first_stalemate_game is None:
            self.first_stalemate_game = game

    def merge(self, other: Tally) -> None:
        """Add the totals of another run of the same kind (other games of one simulation,
        played elsewhere); the first error stays the one of the lowest game number."""
        if other.players != self.players:
            raise ValueError("cannot merge simulations with different player counts")
        self.games += other.games
        self.errors += other.errors
        if other.first_error_game is not None and (
            self.first_error_game is None or other.first_error_game < self.first_error_game
        ):
            self.first_error, self.first_error_game = other.first_error, other.first_error_game
        self.stalemates += other.stalemates
        if other.first_stalemate_game is not None and (
            self.first_stalemate_game is None
            or other.first_stalemate_game < self.first_stalemate_game
        ):
            self.first_stalemate_game = other.first_stalemate_game
        self.actions += other.actions
        self.turns += other.turns
        self.survivors += other.survivors
        self.living += other.living
        self.wins_by_seat = [
            a + b for a, b in zip(self.wins_by_seat, other.wins_by_seat, strict=True)
        ]
        for kind, wins in other.wins_by_kind.items():
            self.wins_by_kind[kind] = self.wins_by_kind.get(kind, 0.0) + wins
        self.seats_by_kind.update(other.seats_by_kind)
        self.points_by_kind.update(other.points_by_kind)
        self.closed.update(other.closed)
        self.epilogues.update(other.epilogues)
        for kind, done in other.behaviour_by_kind.items():
            self.behaviour_by_kind.setdefault(kind, Counter()).update(done)

    def summary(self) -> dict[str, Any]:
        """The figures, as rates and averages over finished games (JSON-ready)."""
        done = self.finished or 1
        return {
            "games": self.games,
            "errors": self.errors,
            "stalemates": self.stalemates,
            "finished": self.finished,
            "players": self.players,
            "avg_actions": self.actions / done,
            "avg_turns": self.turns / done,
            "avg_survivors": self.survivors / done,
            "avg_living_characters": self.living / done,
            "win_rate_by_seat": {str(s): w / done for s, w in enumerate(self.wins_by_seat)},
            "win_rate_by_ai": {
                k: self.wins_by_kind.get(k, 0.0) / done for k in sorted(self.seats_by_kind)
            },
            "seats_by_ai": {k: n / done for k, n in sorted(self.seats_by_kind.items())},
            "points_by_kind": {k: p / done for k, p in sorted(self.points_by_kind.items())},
            "closed_rate": {str(loc): self.closed[loc] / done for loc in range(1, 6)},
            "epilogues": {code: n / done for code, n in sorted(self.epilogues.items())},
            "behaviour_by_ai": {
                kind: {key: n / (self.seats_by_kind[kind] or 1) for key, n in sorted(c.items())}
                for kind, c in sorted(self.behaviour_by_kind.items())
            },
            "first_error_game": self.first_error_game,
            "first_error": self.first_error,
            "first_stalemate_game": self.first_stalemate_game,
        }


def simulate(
    rules: Ruleset,
    players: int,
    ai: str,
    games: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
    first: int = 0,
    personas: tuple[str, ...] = (),
) -> Tally:
    """Play `games` games, numbered from `first` (each game's seed comes from its number,
    so a run can be split into parts played apart and merged); `progress` is called with
    the number played so far after each one. Shrewd seats take `personas` in turn."""
    tally = Tally(players)
    for game in range(first, first + games):
        kinds = seat_kinds(ai, players, game, personas)
        seats_seed = ai_seed(seed, game)
        try:
            seats = [make_player(k, s, f"{seats_seed}/{s}") for s, k in enumerate(kinds)]
            outcome = play_game(rules, seats, game_seed(seed, game))
        except Exception:
            tally.add_error(game)
        else:
            if outcome.stalled:
                tally.add_stalemate(game)
            else:
                deeds = [getattr(seat, "tally", None) for seat in seats]
                tally.add_game(outcome.state, kinds, outcome.actions, deeds)
        if progress is not None:
            progress(game + 1 - first)
    return tally
