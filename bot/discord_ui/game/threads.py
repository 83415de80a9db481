"""Each game's thread on Discord opened: its presenter made, or restored at start-up.

The game's room owns this, not the shared `service.GameService`: opening a
thread builds the game feature's presenter (`presenter.DiscordPresenter`), and
the service, which every room uses, sits below the features. The service
keeps the open threads by what the rooms ask of them (`service.GameThread`).
"""

from __future__ import annotations

import dataclasses

from bot.discord_ui.game.end import GameEnding
from bot.discord_ui.game.presenter import DiscordPresenter
from bot.discord_ui.safe_text import SeatNames
from bot.discord_ui.service import GameMeta, GameService
from bot.table.lobby import Lobby
from bot.table.persist import ResumableGame, stored_timers
from bot.table.store import Cursor
from bot.table.table import Table
from bot.texts.ai_talk import seat_names


class GameThreads:
    """Opens the thread of each game this process runs (the hub's presenter factory)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.ending: GameEnding | None = None

    def use_ending(self, ending: GameEnding) -> None:
        """What every game does at its end from now on (the campaign's, `campaign.ending`)."""
        self.ending = ending

    def make_presenter(self, game_id: int, lobby: Lobby) -> DiscordPresenter:
        """A game's presenter, kept by the service with its `GameMeta`."""
        service = self.service
        lang = service.lobby_lang(lobby.lobby_id)
        plan = service.plans.get(lobby.lobby_id)
        presenter = DiscordPresenter(
            service.client,
            game_id,
            lobby.channel_id,
            lang,
            SeatNames(seat_names(lang, [(s.name, s.ai_kind) for s in lobby.seats])),
            [s.user_id for s in lobby.seats],
            host_id=lobby.host_id,
            batch_delay=service.batch_delay,
            edit_interval=service.edit_interval,
            refused_retry=service.refused_retry,
            # The server's DM reminders setting as the lobby was opened ("turn" by default).
            nudges=plan.config.dm_reminders if plan is not None else "turn",
            reader=service.people.reader if service.people is not None else None,
            store=service.deliveries,
            ending=self.ending,
            on_finished=service.hub.close,
            on_board_message=service.hub.board_posted,
        )
        service.presenters[game_id] = presenter
        service.meta[game_id] = GameMeta(lobby.guild_id, lobby.host_id, lang)
        return presenter

    def restore(
        self, game: ResumableGame, cursor: Cursor | None = None, *, ended: bool = False
    ) -> Table:
        """A stored game back on Discord at start-up, its thread where it stood.

        A running game joins the hub; an `ended` one, whose end never reached its
        thread, stays outside it (no click or timer reaches it), only to post its
        end. The replayed events refill what a restart would otherwise forget:
        the public log, what each AI-played seat has observed, and each seat's
        recent private lines in the My hand panel, exactly as play had filled them.
        """
        service = self.service
        record = game.record
        channel_id = record.thread_id or record.channel_id
        seated = Lobby(record.id, record.guild_id, channel_id, record.host_user_id, game.seats)
        seated.variants = list(record.variants)
        service.remember_lobby(record.id, record.language)
        # A slow game keeps its pace across a restart (its timers are stored with it).
        slow = stored_timers(record.timers)
        config = (
            dataclasses.replace(service.config, timers=slow) if slow.step_hours else service.config
        )
        if ended:
            hub = service.hub
            table = Table(
                record.id,
                game.state,
                game.seats,
                self.make_presenter(record.id, seated),
                hub.scheduler,
                hub.ai_factory,
                config,
                ai_seed=record.ai_seed,
            )
        else:
            table = service.hub.add_table(record.id, game.state, seated, config, record.ai_seed)
            table.paused = record.status == "paused"
        table.seed = record.seed
        table.recall(game.events)
        if cursor is None:
            # Stored before threads had cursors: a game whose board is up showed everything.
            shown = len(table.public_log) if record.board_message_id is not None else 0
            cursor = Cursor(public_events=shown)
        presenter = service.presenters[record.id]
        presenter.restore(record.board_message_id, cursor)
        if not ended:
            presenter.recall(table.private_events(game.events))
        return table
