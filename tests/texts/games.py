"""A hundred and twenty small random games and a stalled one, played once per test session,
for the narration tests.

The core's random-game driver (`RandomTable`): any pending seat, any of its
legal actions, and the table's `Timeout` now and then (so defaults, random
tie-breaks and timeouts are narrated too). Each game draws its seat count and up
to three variants from its own `random.Random(seed)`, so the whole set is the
same on every run.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from lockdown_core import Event, load_ruleset, load_variants, new_game
from lockdown_core.ai.autoplay import RandomTable
from lockdown_core.scenario_format import parse_scenario
from lockdown_core.scenario_setup import build
from lockdown_core.stall import stalled

# Enough to reach every event kind: since issue 15 the first game where a Monster
# finds no spot (`monster_not_placed`) is game 110.
GAMES = 120
TIMEOUT_RATE = 0.05
MAX_ACTIONS = 2000


@dataclass(frozen=True)
class PlayedGame:
    seed: int
    players: int
    variants: tuple[str, ...]
    events: tuple[Event, ...]


def play(seed: int) -> PlayedGame:
    rnd = random.Random(seed)
    variants = tuple(rnd.sample(sorted(load_variants()), rnd.randint(0, 3)))
    players = rnd.randint(3, 6)
    state, events = new_game(load_ruleset(variants), players, seed)
    table = RandomTable(seed, timeout_rate=TIMEOUT_RATE)
    for _, shown in table.play(state, MAX_ACTIONS):
        events += shown
    return PlayedGame(seed, players, variants, tuple(events))


def play_stalled(seed: int) -> PlayedGame:
    """A game that can no longer change, played until its stall is told (R9.4): random
    games end long before one could stall, so it starts with the supply empty, no Monster
    on the board and no card left, where nothing any seat does can change that."""
    players = 3
    families = [{"blocker": 1 + seat, "leader": 6, "weeper": 5, "useless": 4} for seat in range(3)]
    scenario = parse_scenario(
        {
            "players": players,
            "seed": seed,
            "position": {"characters": families, "supply": 0, "deck": []},
        }
    )
    state, events = build(scenario)
    table = RandomTable(seed, timeout_rate=TIMEOUT_RATE)
    for _, shown in table.play(state, MAX_ACTIONS):
        events += shown
        if stalled(state):
            break
    return PlayedGame(seed, players, (), tuple(events))


@cache
def played_games() -> tuple[PlayedGame, ...]:
    return (*(play(seed) for seed in range(GAMES)), play_stalled(GAMES))
