"""Share of a human-paced game spent in card windows, with the old and the new timers.

A card window (the Walkie-talkie step, the Energy drink after a move) waits on
every seat holding any card, so that how long it lasts tells nobody who holds
which card. People with nothing to play there often do not click Done: the
window then lasts its whole timer. This bench plays whole games with the core
and cautious AIs choosing for every seat, and times each step with the pacing
of a game at a real table:

- a person answers a step after 4-15 s (uniform), an AI seat after the table's
  AI delay (1.5 s);
- in a card window, a person with nothing to play clicks Done only half the
  time; otherwise the window runs to its timer;
- a step lasts until its last answer, or its timer if someone never answers.

Each game is timed three times on the same draws: before (windows on the 45 s
"other" timer), with the 20 s `card_window` timer, and with that timer plus
"No cards this turn": a person who would let a window run out clicks it
instead (after their think time), and the bot answers their later windows of
that turn at once.
The figures are a model's, not a stopwatch's: the issue's real-pace game
measured 121 of 441 s (27%) in windows.

Run: uv run python bench/card_window_bench.py [games]
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence

from bot.table.timers import Timers
from bot.table.tokens import step_token
from lockdown_core import (
    Done,
    Step,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending_seats,
    view,
)
from lockdown_core.ai import make_player

SEATS = 5
PEOPLE = (0, 1, 2)
AI_DELAY = 1.5
THINK = (4.0, 15.0)
IDLE_IN_WINDOW = 0.5
WINDOWS = (Step.WALKIE_WINDOW, Step.AFTER_MOVE)
BEFORE = Timers.model_construct(card_window=Timers().other)
NOW = Timers()


Times = list[float | None]


def play(seed: int) -> list[tuple[str, Times, Times]]:
    """One game: each round of answers of a step, with each asked seat's answer time
    (None: a person who lets the timer run), without and with the pass."""
    rng = random.Random(seed)
    players = [make_player("cautious", s, seed * 10 + s) for s in range(SEATS)]
    state, _ = new_game(load_ruleset(), SEATS, seed)
    rounds: list[tuple[str, Times, Times]] = []
    passed: dict[int, int] = {}
    while state.step != Step.GAME_OVER:
        token, step = step_token(state), state.step
        times: Times = []
        passing: Times = []
        for seat in list(pending_seats(state)):
            if step_token(state) != token or seat not in pending_seats(state):
                continue
            legal = legal_actions(state, seat)
            action = players[seat].choose(view(state, seat), legal)
            think = rng.uniform(*THINK)
            if seat not in PEOPLE:
                times.append(AI_DELAY)
                passing.append(AI_DELAY)
            elif step in WINDOWS and isinstance(action, Done) and rng.random() < IDLE_IN_WINDOW:
                times.append(None)
                passing.append(0.0 if passed.get(seat) == state.turn else think)
                passed[seat] = state.turn
            else:
                times.append(think)
                passing.append(think)
            events = apply(state, action)
            for index, other in enumerate(players):
                other.observe([e for e in events if e.to is None or index in e.to])
        rounds.append((step, times, passing))
    return rounds


def share(
    games: Sequence[list[tuple[str, Times, Times]]], timers: Timers, with_pass: bool = False
) -> float:
    """Seconds in card windows over all seconds, every round timed under `timers`."""
    window = total = 0.0
    for rounds in games:
        for step, plain, passing in rounds:
            times = passing if with_pass else plain
            limit = float(timers.seconds_for(step))
            answered = [t for t in times if t is not None]
            seconds = limit if len(answered) < len(times) else min(limit, max(answered, default=0))
            total += seconds
            if step in WINDOWS:
                window += seconds
    return window / total


def main(count: int) -> None:
    games = [play(seed) for seed in range(count)]
    before, now, passing = share(games, BEFORE), share(games, NOW), share(games, NOW, True)
    print(
        f"{count} games, {SEATS} seats ({len(PEOPLE)} people): time in card windows "
        f"{before:.0%} with {BEFORE.card_window} s windows, {now:.0%} with {NOW.card_window} s, "
        f"{passing:.0%} with {NOW.card_window} s and No cards this turn"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
