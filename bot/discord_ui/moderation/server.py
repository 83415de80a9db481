"""Server moderators and the community's shared history on Discord, put together.

`Moderation` combines the feature mixins: settings (`moderation.config`,
`moderation.lobbies`), the campaign (`campaign.variants`, `campaign.ending`,
`campaign.history`) and `stats`; the bot keeps it as `client.moderation` and
the service sees it as `service.ServerRules`.
"""

from __future__ import annotations

from bot.discord_ui.campaign.ending import CampaignEnding
from bot.discord_ui.campaign.history import CampaignHistory
from bot.discord_ui.campaign.variants import CampaignVariants
from bot.discord_ui.moderation.config import ConfigCommands
from bot.discord_ui.moderation.lobbies import LobbyRules
from bot.discord_ui.service import GameService
from bot.discord_ui.simulate import SimulationDesk
from bot.discord_ui.stats import StatsCommands
from bot.table.server_book import ServerBook


class Moderation(
    ConfigCommands, LobbyRules, CampaignVariants, CampaignEnding, CampaignHistory, StatsCommands
):
    """Every server-wide feature on one object: `client.moderation`."""

    def __init__(self, service: GameService, book: ServerBook) -> None:
        super().__init__(service, book)
        self.simulations = SimulationDesk(service, book)
