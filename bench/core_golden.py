"""A fingerprint of the engine's behaviour, to check that an optimization changed nothing.

Plays seeded games (random AIs, mixed random and cautious AIs, and a driver
that also fires the table's `Timeout` and revises ballots and destinations)
over every player count and a spread of variants, and hashes every action,
every event (kind, data, audience), the acting seat's view before each AI
decision, and each final state. Run it before and after a change to
lockdown_core: the same hash means the same games, events and views.

Run: uv run python bench/core_golden.py [--games 200]
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from lockdown_core import (
    Action,
    Event,
    GameState,
    Step,
    action_to_dict,
    apply,
    load_ruleset,
    load_variants,
    new_game,
    pending_seats,
    view,
)
from lockdown_core.ai import Player, make_player, play_game
from lockdown_core.ai.autoplay import RandomTable


class Fingerprint:
    def __init__(self) -> None:
        self.digest = hashlib.sha256()
        self.events = 0
        self.actions = 0

    def add(self, item: Any) -> None:
        self.digest.update(json.dumps(item, sort_keys=True, separators=(",", ":")).encode())

    def step(self, action: Action | None, events: list[Event]) -> None:
        self.add(action_to_dict(action) if action is not None else None)
        self.add([e.to_dict() for e in events])
        self.events += len(events)
        self.actions += action is not None

    def final(self, state: GameState) -> None:
        self.add(state.to_dict())
        self.add([view(state, seat) for seat in range(state.players)])


class Watched:
    """Wraps an AI so that the view it is given goes into the fingerprint."""

    def __init__(self, inner: Player, fingerprint: Fingerprint) -> None:
        self.inner = inner
        self.fingerprint = fingerprint
        self.uses_view = True

    def observe(self, events: Sequence[Event]) -> None:
        self.inner.observe(events)

    def choose(self, seen: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        self.fingerprint.add(seen)
        self.fingerprint.add([action_to_dict(a) for a in legal])
        return self.inner.choose(seen, legal)


def timeout_game(fp: Fingerprint, variants: tuple[str, ...], players: int, seed: int) -> None:
    """Random seats that also revise their choices, and a timer that sometimes runs out."""
    state, events = new_game(load_ruleset(variants), players, seed)
    fp.step(None, events)
    table = RandomTable(seed, timeout_rate=0.05, revise_rate=0.1)
    for _ in range(5000):
        if state.step == Step.GAME_OVER:
            break
        action = table.choose(state)
        fp.add(pending_seats(state))
        fp.step(action, apply(state, action))
    fp.final(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    games = parser.parse_args().games
    keys = list(load_variants())
    variant_sets: list[tuple[str, ...]] = [(), *((k,) for k in keys), (keys[1], keys[3], keys[8])]
    fp = Fingerprint()
    for index in range(games):
        players = 3 + index % 4
        variants = variant_sets[index % len(variant_sets)]
        kind = index % 5
        if kind == 4:
            timeout_game(fp, variants, players, index)
            continue
        seats: list[Player] = []
        for seat in range(players):
            level = "cautious" if kind == 3 and seat % 2 == 0 else "random"
            player = make_player(level, seat, f"{index}/{seat}")
            seats.append(Watched(player, fp) if kind >= 2 else player)
        outcome = play_game(load_ruleset(variants), seats, index, observer=fp.step)
        fp.final(outcome.state)
    print(f"{fp.digest.hexdigest()}  ({games} games, {fp.actions} actions, {fp.events} events)")


if __name__ == "__main__":
    main()
