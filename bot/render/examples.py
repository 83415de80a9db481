"""The documentation's pictures, drawn from real games: `uv run python -m bot.render.examples docs`.

A late 6-player position with accented and non-Latin names (one the font
cannot draw, shown as its seat), in French and in German; one frame of that game's GIF; the
simulator's chart of the base rules against Hush. The games are played by
seeded random seats, so the pictures are the same at every run.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from bot.render.chart import Series, chart_png
from bot.render.labels import board_png
from bot.render.replay_gif import render_gif
from bot.texts import t
from lockdown_core import (
    GameState,
    ReplayLog,
    Step,
    facts,
    load_ruleset,
    new_game,
    view,
)
from lockdown_core.ai.autoplay import RandomTable
from lockdown_core.ai.simulation import simulate

NAMES = ["Chloé", "Émile", "Σοφία", "Дмитрий", "花子", "Łukasz Wiśniewski-Kowalczyk"]


def late_position(players: int = 6, seed: int = 15) -> GameState:
    """The last attack inside a shop of a random game, once a location has closed."""
    state, _ = new_game(load_ruleset(), players, seed)
    chosen = GameState.from_dict(state.to_dict())
    for _ in RandomTable(seed).play(state):
        vote = state.vote
        parking = facts.overflow(state.rules)
        inside = vote is not None and vote.kind == "attack" and vote.location != parking
        if any(state.closed) and state.step == Step.DISCUSSION and inside:
            chosen = GameState.from_dict(state.to_dict())
    return chosen


def recorded_game(players: int = 6, seed: int = 15) -> ReplayLog:
    """The whole random game `late_position` looks into, as a replayable log."""
    state, _ = new_game(load_ruleset(), players, seed)
    record = ReplayLog(players=players, seed=seed)
    for action, _ in RandomTable(seed).play(state):
        record.add(action)
    return record


def _say(lang: str) -> Callable[..., str]:
    return lambda key, **params: t(lang, key, **params)


def main(folder: Path) -> None:
    state = late_position()
    png = board_png(view(state, None), state.rules, NAMES, _say("fr"))
    _write(folder / "board-example.png", png)
    # German's long compounds cannot wrap: its picture is the one to look at for cut words.
    german = board_png(view(state, None), state.rules, NAMES, _say("de"))
    _write(folder / "board-example-de.png", german)
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
    _write(folder / "simulate-chart.png", chart_png(series, 5, 500, "en"))


def _write(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    print(f"{path}: {len(data)} bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"))
