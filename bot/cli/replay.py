"""`lockdown replay FILE`: play a scenario or a recorded game and print its public log.

A recorded game (seed + actions, the `GameRecord` JSON) is a scenario without a
position, so the same command checks fair play (the seed and the public log
reproduce every shuffle and die) and runs the rule scenarios of tests/scenarios.
Exit codes: 0 all expectations hold, 1 one failed, 2 the file is malformed.

The English lines here are a developer's view of the events; players read the
catalog's texts in their own language.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from bot.cli.stored import StoredGameError, read_game
from lockdown_core import Event, GameState, IllegalAction, replay
from lockdown_core.scenario import Scenario, ScenarioError, parse_scenario
from lockdown_core.scenario import run as run_scenario

NAME = "replay"
HELP = "replay a scenario file or a recorded game and print its public log"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, nargs="?", help="scenario or recorded game (JSON)")
    parser.add_argument(
        "--game",
        type=int,
        help="a game from the bot's database (DATABASE_URL) instead of a file: its public log",
    )
    parser.add_argument(
        "--quiet", action="store_true", help="print only failures and the final summary"
    )


def run(args: argparse.Namespace) -> int:
    if (args.file is None) == (args.game is None):
        print("lockdown replay: give a FILE or --game ID (one of them)", file=sys.stderr)
        return 2
    if args.game is not None:
        return replay_stored(args.game, quiet=args.quiet, out=sys.stdout, err=sys.stderr)
    return replay_file(args.file, quiet=args.quiet, out=sys.stdout, err=sys.stderr)


def replay_stored(game_id: int, *, quiet: bool, out: TextIO, err: TextIO) -> int:
    """A stored game (finished or running) played again from its seed and log: public lines only.

    The seed stays in the database; only what the thread showed is printed.
    """
    try:
        stored = read_game(game_id)
        state, events = replay(stored.record)
    except (StoredGameError, IllegalAction) as exc:
        print(f"cannot replay game {game_id}: {exc}", file=err)
        return 2
    print(f"Game {game_id} ({stored.status}), {len(stored.record.actions)} actions", file=out)
    if not quiet:
        for event in events:
            if event.to is None:
                print(describe(event, state), file=out)
        print(file=out)
    for line in summary(state):
        print(line, file=out)
    return 0


def load(path: Path) -> Scenario:
    """Read and validate a file; ScenarioError names the file and the bad field."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot be read: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{path}: not JSON: {exc}") from exc
    try:
        return parse_scenario(data)
    except ScenarioError as exc:
        raise ScenarioError(f"{path}: {exc}") from exc


def replay_file(path: Path, *, quiet: bool, out: TextIO, err: TextIO) -> int:
    """Print the public log, the final position and any failure; returns the exit status."""
    try:
        scenario = load(path)
        result = run_scenario(scenario)
    except ScenarioError as exc:
        print(f"malformed: {exc}", file=err)
        return 2
    if not quiet:
        for event in result.public_log:
            print(describe(event, result.state), file=out)
        print(file=out)
    for line in summary(result.state):
        print(line, file=out)
    if not result.ok:
        print(file=out)
        for failure in result.failures:
            print(f"FAILED {failure}", file=out)
        return 1
    return 0


# English lines for the public log -------------------------------------------------


def _loc(state: GameState, loc: Any) -> str:
    if not isinstance(loc, int) or not 1 <= loc <= 6:
        return "the Cold storage" if loc == 0 else f"location {loc}"
    key = state.rules.location(loc).key
    return f"{key.replace('_', ' ').capitalize()} ({loc})"


def _who(c: Any) -> str:
    return f"seat {c}"


def _char(state: GameState, cid: Any) -> str:
    c = state.characters[int(cid)]
    return f"seat {c.owner}'s {c.kind.capitalize()} (#{c.id})"


def _card(key: Any) -> str:
    return str(key).replace("_", " ").capitalize()


def _seats(seats: Any) -> str:
    return ", ".join(_who(s) for s in seats) or "nobody"


def _card_played(s: GameState, d: dict[str, Any]) -> str:
    text = f"{_who(d['player'])} plays {_card(d['card'])}"
    card = d["card"]
    if card == "energy_drink":
        return f"{text}: {_char(s, d['character'])} runs to {_loc(s, d['location'])}"
    if card == "rotten_meat":
        return f"{text}: {_char(s, d['character'])} hides"
    if card == "tin_can":
        return f"{text}: a Monster leaves for {_loc(s, d['to'])} ({d['monsters']} left)"
    if "removed" in d:
        return f"{text}: {d['removed']} Monster(s) killed at {_loc(s, d['location'])}"
    if card == "gun":
        return f"{text} at {_loc(s, d['location'])}"
    return text


def _designations(s: GameState, d: dict[str, Any]) -> str:
    ballots = ", ".join(f"seat {v} -> seat {c}" for v, c in d["designations"].items())
    totals = ", ".join(f"seat {p}: {t}" for p, t in d["totals"].items())
    return f"Designations ({d['vote']}): {ballots or 'none'}; totals {totals}"


def _moved(s: GameState, d: dict[str, Any]) -> str:
    text = f"{_char(s, d['character'])} moves from {_loc(s, d['from'])} to {_loc(s, d['to'])}"
    return text + (" (destination full)" if d["reason"] == "full" else "")


def _destinations(s: GameState, d: dict[str, Any]) -> str:
    picks = ", ".join(f"seat {p} -> {_loc(s, loc)}" for p, loc in d["destinations"].items())
    return f"Over here! {picks or 'no destinations'}; dice {d['dice']}"


_LINES: dict[str, Callable[[GameState, dict[str, Any]], str]] = {
    "game_started": lambda s, d: (
        f"Game of {d['players']} starts: badge to seat {d['badge']}, Martyr to seat "
        f"{d['martyr']}, seed hash {d['seed_hash']}"
    ),
    "placement_rolled": lambda s, d: f"{_who(d['player'])} rolls {d['dice']} for placement",
    "character_placed": lambda s, d: (
        f"{_char(s, d['character'])} takes die {d['die']}: {_loc(s, d['location'])}"
    ),
    "turn_started": lambda s, d: f"--- Turn {d['turn']} ---",
    "truck_skipped": lambda s, d: f"No truck search ({d['reason'].replace('_', ' ')})",
    "truck_searched": lambda s, d: (
        f"{_who(d['player'])} searches the truck: {d['drawn']} card(s), {d['deck']} left"
    ),
    "card_given": lambda s, d: f"{_who(d['player'])} gives a card to {_who(d['to'])}",
    "truck_done": lambda s, d: f"{d['boxed']} card(s) go to the box",
    "badge_kept": lambda s, d: (
        f"Nobody in the Surveillance room: seat {d['player']} keeps the badge"
    ),
    "badge_taken": lambda s, d: f"{_who(d['player'])} takes the Security badge",
    "dice_rolled": lambda s, d: f"{_who(d['player'])} rolls {d['count']} arrival dice in secret",
    "badge_destination": lambda s, d: f"{_who(d['player'])} heads for {_loc(s, d['location'])}",
    "destination_locked": lambda s, d: f"{_who(d['player'])} has chosen a destination",
    "destinations_revealed": _destinations,
    "character_moved": _moved,
    "no_move": lambda s, d: f"{_who(d['player'])} cannot move anybody",
    "monsters_arrive": lambda s, d: f"Monsters arrive: dice {d['dice']}",
    "monster_added": lambda s, d: (
        f"A Monster ({d['reason']}) arrives at {_loc(s, d['location'])}"
        + ("" if d["location"] == d["intended"] else f" instead of {_loc(s, d['intended'])}")
    ),
    "monster_not_placed": lambda s, d: (
        f"A Monster ({d['reason']}) for {_loc(s, d['location'])} finds no room"
    ),
    "attack_started": lambda s, d: (
        f"Attack on {_loc(s, d['location'])}: {d['monsters']} Monster(s) "
        f"against strength {d['strength']}"
    ),
    "attack_averted": lambda s, d: f"The attack on {_loc(s, d['location'])} is averted",
    "nobody_found": lambda s, d: (
        f"The Monsters find nobody at {_loc(s, d['location'])}; {d['monsters']} go back"
    ),
    "monsters_left": lambda s, d: (
        f"{d['monsters']} Monster(s) leave {_loc(s, d['location'])} for the supply"
    ),
    "monster_removed": lambda s, d: (
        f"One Monster leaves {_loc(s, d['location'])} ({d['remaining']} left)"
    ),
    "vote_unopposed": lambda s, d: (
        f"Only seat {d['winner']} can win the {d['vote']} vote at {_loc(s, d['location'])}"
    ),
    "discussion_started": lambda s, d: (
        f"Discussion ({d['vote']}) at {_loc(s, d['location'])}; may play: {_seats(d['players'])}"
    ),
    "player_done": lambda s, d: f"{_who(d['player'])} is done",
    "card_played": _card_played,
    "designation_started": lambda s, d: (
        f"Designation ({d['vote']}): voters {_seats(d['voters'])}; "
        f"candidates {_seats(d['candidates'])}"
    ),
    "designation_cast": lambda s, d: f"{_who(d['player'])} designates seat {d['candidate']}",
    "designation_count": lambda s, d: f"{d['designated']} of {d['voters']} have designated",
    "designations_revealed": _designations,
    "tie": lambda s, d: f"Tie between {_seats(d['tied'])}: the Martyr (seat {d['martyr']}) picks",
    "tie_broken": lambda s, d: (
        f"Tie broken for seat {d['winner']}" + (" at random" if d["random"] else "")
    ),
    "vote_won": lambda s, d: f"Seat {d['winner']} wins the {d['vote']} vote",
    "character_devoured": lambda s, d: (
        f"{_char(s, d['character'])} is devoured at {_loc(s, d['location'])}"
    ),
    "martyr_taken": lambda s, d: f"{_who(d['player'])} takes the Martyr token",
    "badge_passed": lambda s, d: f"The Security badge passes to seat {d['to']}",
    "cold_row_filled": lambda s, d: f"Cold storage row {d['row']} is full",
    "location_closed": lambda s, d: f"{_loc(s, d['location'])} is closed for good",
    "turn_ended": lambda s, d: f"End of turn {d['turn']}",
    "timeout": lambda s, d: f"Time is up ({d['step']}) for {_seats(d['players'])}",
    "game_over": lambda s, d: f"Game over: scores {d['scores']}, winners {_seats(d['winners'])}",
}


def describe(event: Event, state: GameState) -> str:
    """One English line for a public event (the raw event if its kind is new to us)."""
    line = _LINES.get(event.kind)
    return line(state, event.data) if line else f"{event.kind} {event.data}"


def summary(state: GameState) -> list[str]:
    """The final position, one fact per line."""
    lines = [f"Turn {state.turn}, step {state.step}"]
    for loc in range(1, 7):
        here = ", ".join(_char(state, c.id) for c in state.at(loc)) or "nobody"
        closed = " [closed]" if state.closed[loc] else ""
        lines.append(f"  {_loc(state, loc)}{closed}: {state.monsters[loc]} Monster(s); {here}")
    cold = ", ".join(_char(state, cid) for cid in state.cold_storage) or "empty"
    lines.append(f"  Cold storage: {cold}")
    lines.append(
        f"  Supply {state.supply}; deck {len(state.deck)}; box {len(state.box)}; "
        f"badge seat {state.badge}; Martyr seat {state.martyr}"
    )
    lines.append("  Hands: " + ", ".join(f"seat {p}: {len(h)}" for p, h in enumerate(state.hands)))
    if state.result is not None:
        lines.append(
            f"  Scores {state.result['scores']}; winners {_seats(state.result['winners'])}"
        )
    return lines
