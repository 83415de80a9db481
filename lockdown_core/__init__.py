"""The rules of Lockdown as a pure, deterministic engine (see docs/rules.md).

No discord, no database, no asyncio, no clock, no global random: the bot, the
AI seats, the terminal table and the simulator all drive this package.
"""

from lockdown_core.actions import (
    Action,
    BreakTie,
    ChooseDestination,
    Designate,
    Devour,
    Done,
    MoveCharacter,
    PlaceFamily,
    PlayCard,
    SearchTruck,
    Timeout,
    action_from_dict,
    action_to_dict,
    actor,
)
from lockdown_core.defaults import default_action
from lockdown_core.engine import apply, new_game, seed_hash
from lockdown_core.epilogues import epilogue_to_unlock, holding_epilogues
from lockdown_core.errors import DataError, IllegalAction
from lockdown_core.events import Event
from lockdown_core.legal import Decision, legal_actions, pending, pending_seats
from lockdown_core.model import GameState
from lockdown_core.moves import move_target
from lockdown_core.pieces import Step
from lockdown_core.replay import ReplayLog, replay
from lockdown_core.ruleset import Ruleset, load_ruleset, load_variants
from lockdown_core.view import view

__all__ = [
    "Action",
    "BreakTie",
    "ChooseDestination",
    "DataError",
    "Decision",
    "Designate",
    "Devour",
    "Done",
    "Event",
    "GameState",
    "IllegalAction",
    "MoveCharacter",
    "PlaceFamily",
    "PlayCard",
    "ReplayLog",
    "Ruleset",
    "SearchTruck",
    "Step",
    "Timeout",
    "action_from_dict",
    "action_to_dict",
    "actor",
    "apply",
    "default_action",
    "epilogue_to_unlock",
    "holding_epilogues",
    "legal_actions",
    "load_ruleset",
    "load_variants",
    "move_target",
    "new_game",
    "pending",
    "pending_seats",
    "replay",
    "seed_hash",
    "view",
]
