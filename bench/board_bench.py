"""Board picture benchmark: median and p99 render time over positions of real games.

Run: uv run python bench/board_bench.py
"""

from __future__ import annotations

import random
import statistics
import time

from bot.render.board_image import BoardLabels, render_board
from lockdown_core import (
    Step,
    Timeout,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending_players,
    view,
)


def main() -> None:
    rules = load_ruleset()
    labels = BoardLabels(
        "Lockdown · turn 3",
        {
            1: "Restrooms",
            2: "Clothing store",
            3: "Surveillance room",
            4: "Toy store",
            5: "Supermarket",
            6: "Parking lot",
        },
        {"blocker": "B", "leader": "L", "weeper": "W", "useless": "U"},
        "Closed",
        "Cold storage",
        "Designation · 3/5",
        [f"Player {i}" for i in range(6)],
        "badge",
        "martyr",
    )
    spots = {loc.id: loc.character_spots for loc in rules.locations}
    monster_spots = {loc.id: loc.monster_spots for loc in rules.locations}
    views = []
    for seed in range(20):
        state, _ = new_game(rules, 6, seed)
        rng = random.Random(seed)
        while state.step != Step.GAME_OVER:
            if rng.random() < 0.05:
                views.append(view(state, None))
            seat = rng.choice(pending_players(state))
            legal = legal_actions(state, seat)
            apply(state, rng.choice(legal) if legal else Timeout())
    times, sizes = [], []
    for data in views:
        start = time.perf_counter()
        png = render_board(data, labels, spots, monster_spots, list(rules.cold_storage_rows))
        times.append(time.perf_counter() - start)
        sizes.append(len(png))
    times.sort()
    print(f"board renders: {len(times)}")
    print(f"median render: {statistics.median(times) * 1000:.1f} ms")
    print(f"p99 render:    {times[int(len(times) * 0.99) - 1] * 1000:.1f} ms")
    print(f"median PNG size: {statistics.median(sizes) / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
