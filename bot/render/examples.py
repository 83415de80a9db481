"""The README's pictures, drawn from real games: `uv run python -m bot.render.examples docs`.

A late 6-player position with accented and non-Latin names (one the font
cannot draw, shown as its seat), in French; one frame of that game's GIF; the
simulator's chart of the base rules against Hush. The games are played by
seeded random seats, so the pictures are the same at every run.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from bot.render.chart import Series, chart_png
from bot.render.labels import board_png
from bot.render.replay_gif import render_gif
from bot.texts import t
from lockdown_core import (
    GameRecord,
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
from lockdown_core.actions import action_to_dict
from lockdown_core.ai.simulation import simulate

NAMES = ["Chloé", "Émile", "Σοφία", "Дмитрий", "花子", "Łukasz Wiśniewski-Kowalczyk"]


def late_position(players: int = 6, seed: int = 15) -> GameState:
    """The last attack inside a shop of a random game, once a location has closed."""
    state, _ = new_game(load_ruleset(), players, seed)
    rng = random.Random(seed)
    chosen = GameState.from_dict(state.to_dict())
    while state.step != Step.GAME_OVER:
        vote = state.vote
        inside = vote is not None and vote.kind == "attack" and vote.location != 6
        if any(state.closed) and state.step == Step.DISCUSSION and inside:
            chosen = GameState.from_dict(state.to_dict())
        seat = rng.choice(pending_players(state))
        legal = legal_actions(state, seat)
        apply(state, rng.choice(legal) if legal else Timeout())
    return chosen


def recorded_game(players: int = 6, seed: int = 15) -> GameRecord:
    """The whole random game `late_position` looks into, as a stored record."""
    state, _ = new_game(load_ruleset(), players, seed)
    rng = random.Random(seed)
    record = GameRecord(players=players, seed=seed)
    while state.step != Step.GAME_OVER:
        seat = rng.choice(pending_players(state))
        legal = legal_actions(state, seat)
        action = rng.choice(legal) if legal else Timeout()
        apply(state, action)
        record.actions.append(action_to_dict(action))
    return record


def _say(lang: str) -> Callable[..., str]:
    return lambda key, **params: t(lang, key, **params)


def main(folder: Path) -> None:
    state = late_position()
    png = board_png(view(state, None), state.rules, NAMES, _say("fr"))
    _write(folder / "board-example.png", png)
    gif = render_gif(recorded_game(), "en", NAMES)
    frames = Image.open(io.BytesIO(gif))
    frame = getattr(frames, "n_frames", 1) * 2 // 3
    frames.seek(frame)
    out = io.BytesIO()
    frames.convert("RGB").save(out, format="PNG", optimize=True)
    _write(folder / "replay-frame.png", out.getvalue())
    print(f"  (frame {frame} of a {len(gif)}-byte GIF)")
    say = _say("en")
    series = [
        Series(say(key), simulate(load_ruleset(variants), 5, "random", 500, 0).summary())
        for key, variants in (("chart.base", []), ("variant.hush.name", ["hush"]))
    ]
    _write(folder / "simulate-chart.png", chart_png(series, 5, 500, say))


def _write(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    print(f"{path}: {len(data)} bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"))
