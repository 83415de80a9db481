"""The board picture: drawn from the public view, for any position a game reaches."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.render.board_image import HEIGHT, WIDTH, BoardLabels, render_board
from lockdown_core import (
    GameState,
    Step,
    Timeout,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending_players,
    view,
)

LABELS = BoardLabels(
    title="Lockdown · turn 1",
    locations={
        1: "Restrooms",
        2: "Clothing store",
        3: "Surveillance room",
        4: "Toy store",
        5: "Supermarket",
        6: "Parking lot",
    },
    kind_letters={"blocker": "B", "leader": "L", "weeper": "W", "useless": "U"},
    closed="Closed",
    cold_storage="Cold storage",
    status="Designation",
    names=[f"P{i}" for i in range(6)],
    badge="badge",
    martyr="martyr",
)


def _render(state: GameState) -> bytes:
    rules = state.rules
    return render_board(
        view(state, None),
        LABELS,
        {loc.id: loc.character_spots for loc in rules.locations},
        {loc.id: loc.monster_spots for loc in rules.locations},
        list(rules.cold_storage_rows),
    )


def test_every_position_of_random_games_renders_a_png_of_the_board_size() -> None:
    rules = load_ruleset(["barricades"])
    for seed in range(6):
        state, _ = new_game(rules, 3 + seed % 4, seed)
        rng = random.Random(seed)
        step = 0
        while state.step != Step.GAME_OVER:
            if step % 25 == 0:
                picture = Image.open(io.BytesIO(_render(state)))
                assert picture.format == "PNG"
                assert picture.size == (WIDTH, HEIGHT)
            seat = rng.choice(pending_players(state))
            legal = legal_actions(state, seat)
            apply(state, rng.choice(legal) if legal else Timeout())
            step += 1
        assert _render(state)


def test_monsters_and_closed_locations_change_the_picture() -> None:
    state, _ = new_game(load_ruleset(), 3, 1)
    before = _render(state)
    state.monsters[2] = 4
    with_monsters = _render(state)
    state.closed[2] = True
    closed = _render(state)
    assert len({before, with_monsters, closed}) == 3


def test_a_seat_view_is_refused_so_no_secret_can_reach_the_picture() -> None:
    state, _ = new_game(load_ruleset(), 3, 1)
    rules = state.rules
    with pytest.raises(ValueError, match="public view"):
        render_board(
            view(state, 0),
            LABELS,
            {loc.id: loc.character_spots for loc in rules.locations},
            {loc.id: loc.monster_spots for loc in rules.locations},
            [4, 4, 4],
        )
