"""Golden playthroughs: whole seeded games written out action by action.

Modelled on OpenSpiel's playthrough files: each file holds one complete game
(the random driver of tests/core/random_games.py, seeded), and after every
action the events it caused, the public view and what each seat sees on top
of it. tests/core/test_golden.py plays the games again and compares; when the
engine changes on purpose, regenerate with

    uv run python -m tests.core.golden.make_golden

and read the diff before committing it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lockdown_core import Action, Event, GameState, Timeout, action_to_dict, actor, view
from lockdown_core.actions import REVISION_KEY
from tests.core.random_games import Game

GOLDEN_DIR = Path(__file__).resolve().parent
REGENERATE = "uv run python -m tests.core.golden.make_golden"

KIND_LETTERS = {"blocker": "B", "leader": "L", "weeper": "W", "useless": "U"}
# The view keys each line below is made of; a new key must be given a place here.
STATUS_KEYS = ("version", "turn", "step", "waiting_for", "mover", "vote")
BOARD_KEYS = (
    "characters",
    "cold_storage",
    "monsters",
    "supply",
    "closed",
    "badge",
    "martyr",
    "hand_sizes",
    "deck",
    "box",
    "played",
    "dice_count",
    "dice",
    "destinations_chosen",
    "badge_destination",
    "destinations",
)
FIXED_KEYS = ("players", "variants", "seat", "result")


@dataclass(frozen=True)
class GoldenGame:
    name: str
    players: int
    variants: tuple[str, ...]
    seed: int

    @property
    def path(self) -> Path:
        return GOLDEN_DIR / f"{self.name}.txt"


# Seeds picked for coverage: truck searches and gifts, the dice seen by a badge
# winner and through a Walkie-talkie, Energy drinks, Rotten meat, Tin cans,
# tie-breaks, timeouts, devoured characters, a filled Cold storage row, and in
# the 6-player game a closed location.
GAMES = (
    GoldenGame("game_3p", 3, (), 4),
    GoldenGame("game_4p_hoarders", 4, ("hoarders",), 52),
    GoldenGame("game_6p", 6, (), 38),
)


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def fields(data: dict[str, Any]) -> str:
    return " ".join(f"{key}={compact(value)}" for key, value in data.items())


def action_line(index: int, action: Action) -> str:
    seat = actor(action)
    data = action_to_dict(action)
    kind = data.pop("type")
    data.pop("player", None)
    data.pop(REVISION_KEY)
    data = {key: value for key, value in data.items() if value is not None}
    who = "table" if seat is None else f"P{seat}"
    return f"#{index} {who} {kind} {fields(data)}".rstrip()


def event_line(event: Event) -> str:
    to = "*" if event.to is None else ">" + ",".join(map(str, event.to))
    return f"  {to} {event.kind} {fields(event.data)}".rstrip()


def status_line(public: dict[str, Any]) -> str:
    vote = public["vote"]
    text = (
        f"  public: v{public['version']} t{public['turn']} {public['step']}"
        f" wait={compact(public['waiting_for'])} mover={public['mover']}"
    )
    if vote is not None:
        text += f" | vote {vote['kind']}@{vote['location']} " + fields(
            {k: v for k, v in vote.items() if k not in ("kind", "location")}
        )
    return text


def board_line(public: dict[str, Any]) -> str:
    where: dict[int, list[str]] = {}
    for c in public["characters"]:
        where.setdefault(c["location"], []).append(f"{c['id']}{'h' if c['hidden'] else ''}")
    mall = " ".join(f"{loc}[{' '.join(where.get(loc, []))}]" for loc in range(1, 7))
    if -1 in where:
        mall += f" unplaced[{' '.join(where[-1])}]"
    dice = public["dice"]
    shown = compact(dice) if dice is not None else f"?x{public['dice_count']}"
    return (
        f"  board: {mall} cold={compact(public['cold_storage'])}"
        f" | monsters={compact(public['monsters'])} supply={public['supply']}"
        f" closed={compact(public['closed'])}"
        f" | badge={public['badge']} martyr={public['martyr']}"
        f" | hands={compact(public['hand_sizes'])} deck={public['deck']} box={public['box']}"
        f" played={compact(public['played'])}"
        f" | dice={shown} chosen={compact(public['destinations_chosen'])}"
        f" badge_dest={compact(public['badge_destination'])}"
        f" dests={compact(public['destinations'])}"
    )


def seat_part(seat: int, public: dict[str, Any], mine: dict[str, Any]) -> str:
    """A seat's view as what it adds to the public one."""
    extra: dict[str, Any] = {"hand": mine["hand"]}
    for key, value in mine.items():
        if key in ("seat", "hand"):
            continue
        if key == "vote" and value is not None:
            rest = {k: v for k, v in value.items() if k != "my_designation"}
            if rest != public["vote"]:
                extra["vote"] = value
            elif "my_designation" in value:
                extra["my_designation"] = value["my_designation"]
        elif public.get(key) != value:
            extra[key] = value
    return f"p{seat} {fields(extra)}"


def check_keys(public: dict[str, Any]) -> None:
    known = {*STATUS_KEYS, *BOARD_KEYS, *FIXED_KEYS}
    unknown = set(public) - known
    if unknown:
        raise ValueError(f"view keys {sorted(unknown)} have no place in the golden files yet")


def character_table(state: GameState) -> str:
    return " ".join(f"{c.id}={KIND_LETTERS.get(c.kind, c.kind)}{c.seat}" for c in state.characters)


def render(spec: GoldenGame) -> str:
    game = Game.start(spec.players, spec.variants, spec.seed)
    state = game.state
    lines = [
        f"# Lockdown golden playthrough {spec.name}: regenerate with `{REGENERATE}`.",
        "# Random legal actions from tests/core/random_games.py, seeded like the game.",
        "# After each action: its events (* public, >n private to seats n), the public",
        "# status, the board (left out when it did not change), and each seat's view as",
        "# what it adds to the public one.",
        f"players: {spec.players}",
        f"variants: {compact(list(spec.variants))}",
        f"seed: {spec.seed}",
        f"characters: {character_table(state)}",
        "",
        "== setup",
    ]
    last_board = [""]

    def snapshot() -> None:
        public = view(state, None)
        check_keys(public)
        lines.append(status_line(public))
        board = board_line(public)
        if board != last_board[0]:
            lines.append(board)
            last_board[0] = board
        seats = [seat_part(p, public, view(state, p)) for p in range(state.players)]
        lines.append("  seats: " + " | ".join(seats))

    lines.extend(event_line(e) for e in game.opening)
    snapshot()
    for index, (action, events) in enumerate(game.steps(), start=1):
        lines.append(action_line(index, action) if action != Timeout() else f"#{index} timeout")
        lines.extend(event_line(e) for e in events)
        snapshot()
    lines.append("== result")
    lines.append(f"  {fields(state.result or {})}")
    return "\n".join(lines) + "\n"


def main() -> None:
    for spec in GAMES:
        spec.path.write_text(render(spec), encoding="utf-8")
        print(f"wrote {spec.path.relative_to(GOLDEN_DIR.parents[2])}")


if __name__ == "__main__":
    main()
