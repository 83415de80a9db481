"""Every room of the Discord layer put into a bot: the `/lockdown` group, each feature's
cog, their persistent components, the answer to a click none of them handles and the
one error handler.

The order of the rooms is the order of `/lockdown`'s subcommands. The lobby
comes first: the campaign opens lobbies (Play again) and game nights open
them at their start.
"""

from __future__ import annotations

from dataclasses import dataclass

from discord import app_commands
from discord.ext import commands

from bot.discord_ui.campaign.cog import CampaignRoom
from bot.discord_ui.campaign.items import CAMPAIGN_ITEMS
from bot.discord_ui.components import inactive
from bot.discord_ui.errors import command_failed
from bot.discord_ui.game.buttons import GAME_ITEMS
from bot.discord_ui.game.cog import GameRoom
from bot.discord_ui.lobby.buttons import LOBBY_ITEMS
from bot.discord_ui.lobby.cog import LobbyRoom
from bot.discord_ui.moderation.cog import ModerationRoom
from bot.discord_ui.nights.cog import NightsRoom
from bot.discord_ui.practice.cog import PracticeRoom
from bot.discord_ui.ratings.cog import RatingsRoom
from bot.discord_ui.reply import AnsweringTree, Carry, Gate
from bot.discord_ui.seats.buttons import SEATS_ITEMS
from bot.discord_ui.seats.cog import SeatsRoom
from bot.discord_ui.server import ServerDesk
from bot.discord_ui.simulate.cog import SimulateRoom
from bot.discord_ui.slash import CatalogTranslator, lockdown_group
from bot.discord_ui.stats.cog import StatsRoom

DYNAMIC_ITEMS = (*LOBBY_ITEMS, *GAME_ITEMS, *SEATS_ITEMS, *CAMPAIGN_ITEMS)


@dataclass(frozen=True, slots=True)
class Rooms:
    """The rooms of one bot, under one `/lockdown` group."""

    group: app_commands.Group
    lobby: LobbyRoom
    game: GameRoom
    seats: SeatsRoom
    moderation: ModerationRoom
    nights: NightsRoom
    campaign: CampaignRoom
    stats: StatsRoom
    ratings: RatingsRoom
    simulate: SimulateRoom
    practice: PracticeRoom

    @classmethod
    def build(cls, desk: ServerDesk) -> Rooms:
        """Every room, on the service and the server desk they share."""
        group = lockdown_group()
        lobby = LobbyRoom(group, desk)
        game = GameRoom(group, desk.service)
        return cls(
            group=group,
            lobby=lobby,
            game=game,
            seats=SeatsRoom(group, desk),
            moderation=ModerationRoom(group, desk),
            nights=NightsRoom(group, desk, lobby.lobbies),
            campaign=CampaignRoom(group, desk, lobby.lobbies, game.threads),
            stats=StatsRoom(group, desk),
            ratings=RatingsRoom(group, desk, lobby.lobbies),
            simulate=SimulateRoom(group, desk),
            practice=PracticeRoom(group, desk.service),
        )

    async def add_to(
        self, bot: commands.Bot, carry: Carry | None = None, gate: Gate | None = None
    ) -> None:
        """The slash commands (with their translations), the cogs behind them and the
        persistent components: everything `sync-commands` registers. On a bot made
        with `tree_cls=AnsweringTree`, every interaction they receive is answered
        first (`reply`), the clicks that update their message lending `carry` their
        token, and only those `gate` lets this process answer."""
        if isinstance(bot.tree, AnsweringTree):
            bot.tree.carry = carry
            bot.tree.gate = gate
        await bot.tree.set_translator(CatalogTranslator())
        bot.tree.error(command_failed)
        rooms = (
            self.lobby,
            self.game,
            self.seats,
            self.moderation,
            self.nights,
            self.campaign,
            self.stats,
            self.ratings,
            self.simulate,
            self.practice,
        )
        for room in rooms:
            await bot.add_cog(room)
        bot.tree.add_command(self.group)
        bot.add_dynamic_items(*DYNAMIC_ITEMS)
        bot.add_listener(inactive, "on_interaction")
