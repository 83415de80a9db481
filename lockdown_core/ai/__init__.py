"""AI seats and the driver that plays whole games with them.

Pure like the rest of the core: an AI sees its seat's `view` and events and
its legal actions, nothing else (see `Player`).
"""

from lockdown_core.ai.autoplay import EndlessGame, GameOutcome, IllegalChoice, play_game
from lockdown_core.ai.cautious import CautiousPlayer
from lockdown_core.ai.kinds import AI_KINDS, make_player
from lockdown_core.ai.personas import DEFAULT_PERSONA, PERSONAS, Persona
from lockdown_core.ai.player import Player
from lockdown_core.ai.random_player import RandomPlayer
from lockdown_core.ai.shrewd import Budget, ShrewdPlayer
from lockdown_core.ai.talk import REMARK_KINDS, Rationale, Remark

__all__ = [
    "AI_KINDS",
    "DEFAULT_PERSONA",
    "PERSONAS",
    "REMARK_KINDS",
    "Budget",
    "CautiousPlayer",
    "EndlessGame",
    "GameOutcome",
    "IllegalChoice",
    "Persona",
    "Player",
    "RandomPlayer",
    "Rationale",
    "Remark",
    "ShrewdPlayer",
    "make_player",
    "play_game",
]
