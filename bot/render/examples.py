"""The documentation's pictures, drawn from real games: `uv run python -m bot.render.examples docs`.

With `--every-language FOLDER`, the pictures a translator looks at instead: the board,
the end of the replay GIF (its scores over the board) and a season's podium, in every
language and the pseudo-locale, with the longest names the legend must make room for.

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
from bot.render.podium import Finisher, podium_png
from bot.render.replay_gif import frame_picture, frames, record_start, render_gif, shown_names
from bot.texts import t
from bot.texts.catalog import LANGUAGES
from bot.texts.pseudo import PSEUDO
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
# The longest name a seat may show, for the pictures a translator checks.
LONG_NAME = "Bartholomew-Maximilian Featherstonehaugh"


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


def every_language(folder: Path) -> None:
    """`board-`, `gif-end-` and `podium-` pictures for each language, in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    names = [*NAMES[:5], LONG_NAME]
    state = late_position()
    record = recorded_game()
    for lang in (*LANGUAGES, PSEUDO):
        say = _say(lang)
        _write(folder / f"board-{lang}.png", board_png(view(state, None), state.rules, names, say))
        start, opening, moves = record_start(record)
        shown = shown_names(start, lang, names)
        end = frames(start, opening, moves, lang, shown)[-1]
        image, _ = frame_picture(end, start.rules, lang, shown)
        out = io.BytesIO()
        image.save(out, format="PNG", optimize=True)
        _write(folder / f"gif-end-{lang}.png", out.getvalue())
        top = [
            Finisher(name * 2, 1040 - place, 300, 120 - place)
            for place, name in enumerate(names[3:])
        ]
        podium = podium_png(lang, 12, top, say("variant.barricades.name"), 1057)
        _write(folder / f"podium-{lang}.png", podium)


def _write(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    print(f"{path}: {len(data)} bytes")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--every-language"]:
        every_language(Path(sys.argv[2] if len(sys.argv) > 2 else "pictures"))
    else:
        main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"))
