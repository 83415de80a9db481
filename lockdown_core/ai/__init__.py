"""AI seats and the driver that plays whole games with them.

Pure like the rest of the core: an AI sees its seat's `view` and events and
its legal actions, nothing else (see `Player`).
"""

from lockdown_core.ai.autoplay import EndlessGame, GameOutcome, IllegalChoice, play_game
from lockdown_core.ai.cautious import CautiousPlayer
from lockdown_core.ai.kinds import AI_KINDS, make_player
from lockdown_core.ai.player import Player
from lockdown_core.ai.random_player import RandomPlayer

__all__ = [
    "AI_KINDS",
    "CautiousPlayer",
    "EndlessGame",
    "GameOutcome",
    "IllegalChoice",
    "Player",
    "RandomPlayer",
    "make_player",
    "play_game",
]
