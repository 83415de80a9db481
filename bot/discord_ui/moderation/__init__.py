"""Server moderators and the community's shared history: `/lockdown config ...`,
variants, epilogues, stats and the leaderboard, the campaign at each game's end.

`server.Moderation` puts the features together; `commands.attach` adds their
subcommands to `/lockdown`.
"""

from bot.discord_ui.moderation.commands import attach
from bot.discord_ui.moderation.config import VARIANT_STATES, config_embed
from bot.discord_ui.moderation.server import Moderation
from bot.discord_ui.server_desk import FinishedGame

__all__ = ["VARIANT_STATES", "FinishedGame", "Moderation", "attach", "config_embed"]
