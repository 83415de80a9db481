"""The file of a terminal game: written by `lockdown play --save` as it is played, read
back by `lockdown play --resume` to go on, and by `lockdown replay` and `lockdown
board` to look at it.

It is a recorded game (`ReplayLog`: the seed and every action) with two things
of the bot's own, which the core's scenario reader does not know and `scenario_data`
drops: what the AI seats said with their actions (`talk.TALK`, so that a resumed
game tells what follows as it would have), and how the terminal game was set up
(`TERMINAL`: the person's seat and the AI seats' level and seed, so that
`--resume` needs nothing else). The file is written again after each action, so
a game quit, interrupted or crashed halfway is kept up to where it stopped. It
holds the seed: it is the person's own game against AI seats, with nobody to hide
the deck from.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.table.store import AcceptedAction
from bot.table.talk import TALK
from lockdown_core import ReplayLog
from lockdown_core.ai import AI_KINDS

# The key of the terminal game's own settings in its file.
TERMINAL = "terminal"


class SavedGameError(Exception):
    """A file `--resume` cannot go on from: the catalog key saying why, and its params."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class TerminalSetup:
    """How a terminal game was set up: the person's seat (from 0), the AI seats' level
    and their own seed."""

    seat: int
    ai: str
    ai_seed: int


class SavedLog:
    """An `ActionStore` for the terminal table: each accepted action goes to `path`."""

    def __init__(self, path: Path, log: ReplayLog, setup: TerminalSetup) -> None:
        self.path = path
        self.log = log
        self.setup = setup
        self.write()

    async def record(self, accepted: AcceptedAction) -> None:
        self.log.actions.append(accepted.action)
        self.write()

    def write(self) -> None:
        title = f"Terminal game, seed {self.log.seed}"
        setup = {"seat": self.setup.seat + 1, "ai": self.setup.ai, "ai_seed": self.setup.ai_seed}
        data = {"title": title, **self.log.model_dump(), TERMINAL: setup}
        self.path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")


def scenario_data(data: Any) -> Any:
    """A saved game's JSON as the core's scenario reader takes it: without the terminal's
    settings and the AI seats' words (any other file is returned as it is)."""
    if not isinstance(data, dict):
        return data
    kept = {key: value for key, value in data.items() if key != TERMINAL}
    actions = kept.get("actions")
    if isinstance(actions, list):
        kept["actions"] = [
            {k: v for k, v in entry.items() if k != TALK} if isinstance(entry, dict) else entry
            for entry in actions
        ]
    return kept


def read_saved(path: Path) -> tuple[ReplayLog, TerminalSetup]:
    """The recorded game of a file `--save` wrote, and how it was set up."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SavedGameError("play.resume.unreadable", file=path, reason=exc.strerror) from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SavedGameError("play.resume.not_saved", file=path) from exc
    if not isinstance(data, dict) or not isinstance(data.get(TERMINAL), dict):
        raise SavedGameError("play.resume.not_saved", file=path)
    setup = data[TERMINAL]
    try:
        log = ReplayLog.model_validate(
            {key: data[key] for key in ("players", "seed", "variants", "actions") if key in data}
        )
        terminal = TerminalSetup(int(setup["seat"]) - 1, str(setup["ai"]), int(setup["ai_seed"]))
    except (ValidationError, KeyError, TypeError, ValueError) as exc:
        raise SavedGameError("play.resume.not_saved", file=path) from exc
    if terminal.ai not in AI_KINDS or not 0 <= terminal.seat < log.players:
        raise SavedGameError("play.resume.not_saved", file=path)
    return log, terminal
