"""The table's `ActionStore` on a `GameStore`: every accepted action kept, in order."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from bot.ops import metrics
from bot.storage.errors import StaleVersion, WrongStatus
from bot.storage.models import ActionWrite, SeatChange, SeatProgress
from bot.table.seats import Seat
from bot.table.store import AcceptedAction, GameStore, SeatBook, StoreConflict
from bot.table.stored_form import deadline_rows, results
from lockdown_core import GameState, Step

log = logging.getLogger(__name__)

# What of a seat changes during play and is stored with the action that changed it:
# missed deadlines, a stand-in AI, the turn it passes on cards.
Progress = tuple[int, bool, int | None]


def progress_of(seat: Seat) -> Progress:
    return (seat.missed_deadlines, seat.away, seat.no_cards_turn)


class StoredActions:
    """One compare-and-swap on the version per accepted action (`GameStore.record_action`).

    Only the seats whose progress changed are written with the action. A game
    that reaches its end is finished (results written) in the same call, so
    no game stays running once its last action is stored.
    """

    def __init__(self, games: GameStore, seat_book: SeatBook | None = None) -> None:
        self.games = games
        self.seat_book = seat_book
        self._progress: dict[int, dict[int, Progress]] = {}

    async def change_seat(self, game_id: int, change: SeatChange) -> None:
        """A seat changed hands (`SeatBook`); kept nowhere without a seat book."""
        if self.seat_book is not None:
            await self.seat_book.change_seat(game_id, change)

    async def seat_changes(self, game_id: int) -> list[SeatChange]:
        return [] if self.seat_book is None else await self.seat_book.seat_changes(game_id)

    async def vote_to_end(self, game_id: int, user_id: int) -> None:
        if self.seat_book is not None:
            await self.seat_book.vote_to_end(game_id, user_id)

    async def end_votes(self, game_id: int) -> set[int]:
        return set() if self.seat_book is None else await self.seat_book.end_votes(game_id)

    async def stored_after(self, game_id: int, version: int) -> list[dict[str, Any]]:
        """The game's stored actions after `version`, in order (`StoredLog`)."""
        return [row.action for row in await self.games.action_log(game_id, after=version)]

    def remember(self, game_id: int, seats: Sequence[Seat]) -> None:
        self._progress[game_id] = {s.seat: progress_of(s) for s in seats}

    async def record(self, accepted: AcceptedAction) -> None:
        game_id, state = accepted.game_id, accepted.state
        known = self._progress.setdefault(game_id, {})
        changed = [
            SeatProgress(
                seat=s.seat,
                missed_deadlines=s.missed_deadlines,
                ai_takeover=s.away,
                no_cards_turn=s.no_cards_turn,
            )
            for s in accepted.seats
            if known.get(s.seat, (0, False, None)) != progress_of(s)
        ]
        try:
            with metrics.timed_store():
                await self.games.record_action(
                    ActionWrite(
                        game_id,
                        accepted.expected_version,
                        accepted.actor,
                        accepted.action,
                        state.to_dict(),
                        state.version,
                        deadline_rows(state, accepted.deadline),
                        changed,
                    )
                )
        except (StaleVersion, WrongStatus) as exc:
            metrics.VERSION_CONFLICTS.inc()
            raise StoreConflict(str(exc)) from exc
        except Exception:
            metrics.STORE_FAILURES.inc()
            raise
        for progress in changed:
            known[progress.seat] = (
                progress.missed_deadlines,
                progress.ai_takeover,
                progress.no_cards_turn,
            )
        if state.step == Step.GAME_OVER:
            self._progress.pop(game_id, None)
            try:
                await self.finish(game_id, state)
            except Exception:
                # The last action is stored; the next start-up finishes the game.
                log.exception("game %s: could not store its results", game_id)

    async def finish(self, game_id: int, state: GameState) -> None:
        log_rows = await self.games.action_log(game_id)
        await self.games.finish_game(game_id, results(state, [r.action for r in log_rows]))
        log.info("game %s ended at turn %s", game_id, state.turn)
