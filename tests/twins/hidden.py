"""The one hidden thing world B changes, and how the secret's holder acts in both worlds.

- `hand`: one card of a seat's opening hand swapped with a card of another kind near the
  bottom of the deck (world B); the seat never plays a card, so that nothing it does
  tells its hand.
- `destination`: the seat's first secret destination is another location in world B.
- `dice`: the first secret roll of the arrival dice (its first die) in world B: only the
  badge holder who won the badge this turn sees it (not under Blind cameras), or a seat
  that plays a Walkie-talkie, until the Monsters arrive.
- `ai_ballot`: an AI seat's beliefs at its first secret attack ballot are others in
  world B (one grudge more), chosen so that its ballot differs.

`none` changes nothing: the two worlds must then send the same requests from the first
move to the last (the harness's own check that nothing but the hidden thing differs).

Whoever holds the secret's seat plays from the list of its legal actions (without cards),
by a draw that is the same in both worlds, not from the panel, which may differ.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Any
from unittest import mock

from bot.table.seat_players import SeatPlayers
from lockdown_core import GameState, Step, pending_seats
from lockdown_core.actions import Action, Designate
from lockdown_core.ai.belief import removal
from lockdown_core.view import view

# A grudge no game builds: it outweighs every other reason the seat weighs.
GRUDGE = 1000.0

if TYPE_CHECKING:
    from tests.twins.world import World


class Hidden:
    """The hidden thing of one world (`world` A or B) of a twin game."""

    def __init__(self, kind: str, seat: int) -> None:
        self.kind = kind
        self.seat = seat
        self.world = "A"
        self.changed = False  # world B did change the hidden thing
        self.ballot: Action | None = None  # world A's, for world B to differ from
        self._decisions = 0  # the secret's decisions met so far
        self._rolled_in = 0  # the turn of the roll world B changed

    def for_world(self, world: str) -> Hidden:
        """A fresh copy for `world`, keeping what world A noted (its ballot)."""
        twin = copy.copy(self)
        twin.world = world
        twin.changed = False
        twin._decisions = 0
        return twin

    @contextmanager
    def applied(self) -> Iterator[None]:
        name = self.world
        with ExitStack() as stack:
            if self.kind == "hand" and name == "B":
                stack.enter_context(self._hand())
            if self.kind == "ai_ballot":
                stack.enter_context(self._ballots(name))
            if self.kind == "dice" and name == "B":
                stack.enter_context(self._dice())
            yield

    def revealed(self, world: World) -> bool:
        """The rules have shown everyone the hidden thing: the rest of the game cannot
        be compared (a hand stays hidden to the end)."""
        table = world.table
        if table is None:
            return False
        state = table.state
        if self.kind == "dice":
            return bool(self._rolled_in) and state.turn > self._rolled_in
        if not self._decisions:
            return False
        if self.kind == "destination":
            return state.step != Step.DESTINATIONS
        if self.kind == "ai_ballot":
            return state.vote is None or state.vote.revealed
        return False

    def code_for(self, world: World, seat: int) -> str | None:
        """The holder of the secret's seat plays a code; anyone else reads their panel."""
        if self.kind in ("ai_ballot", "dice", "none") or seat != self.seat:
            return None
        codes = world.codes(seat, cards=False)
        if not codes:
            return ""
        pick = world.rng.randrange(len(codes))
        table = world.table
        assert table is not None
        if self.kind == "destination" and table.state.step == Step.DESTINATIONS:
            self._decisions += 1
            if self._decisions == 1 and self.world == "B" and len(codes) > 1:
                pick = (pick + 1) % len(codes)
                self.changed = True
        return codes[pick]

    # World B's deal -------------------------------------------------------------------

    @contextmanager
    def _hand(self) -> Iterator[None]:
        import bot.table.hub as hub

        deal = hub.new_game  # type: ignore[attr-defined]
        hidden = self

        def new_game(rules: Any, players: int, seed: int | str) -> Any:
            state, events = deal(rules, players, seed)
            hidden.changed = _swap(state, hidden.seat)
            for event in events:
                if event.kind == "hand_dealt" and event.to == (hidden.seat,):
                    event.data["cards"] = list(state.hands[hidden.seat])
            return state, events

        with mock.patch.object(hub, "new_game", new_game):
            yield

    # World B's dice -------------------------------------------------------------------

    @contextmanager
    def _dice(self) -> Iterator[None]:
        """The first secret roll of the arrival dice gives another first die in world B;
        whoever is shown the roll (the badge holder who won the badge, a Walkie-talkie)
        is shown world B's dice."""
        from lockdown_core import flow

        roll = flow.roll_arrival_dice
        hidden = self

        def rolled(state: GameState, events: Any) -> None:
            roll(state, events)
            if hidden.changed:
                return
            hidden.changed = True
            hidden._rolled_in = state.turn
            state.dice[0] = state.dice[0] % 6 + 1
            for event in events or []:
                if event.kind == "dice_seen":
                    event.data["dice"] = list(state.dice)

        with mock.patch.object(flow, "roll_arrival_dice", rolled):
            yield

    # AI ballots -------------------------------------------------------------------------

    @contextmanager
    def _ballots(self, name: str) -> Iterator[None]:
        """The AI seat's first attack ballot where it weighs two candidates or more: world A
        notes it; world B gives the seat, for that decision only, one grudge it does not
        hold (its own against a candidate, or one it lends another voter, which changes
        the ballots it expects): the first that makes it vote otherwise. Everything it
        was shown stays the same."""
        choose = SeatPlayers.choose
        hidden = self

        def chosen(
            players: SeatPlayers, index: int, state: GameState, legal: list[Action]
        ) -> Action:
            vote = state.vote
            others = [
                a.candidate for a in legal if isinstance(a, Designate) and a.candidate != index
            ]
            aimed = (
                index == hidden.seat
                and vote is not None
                and vote.kind == "attack"
                and state.step == Step.DESIGNATION
                and len(others) > 1
                and len(pending_seats(state)) > 1  # its ballot is not the last: no reveal yet
            )
            if not aimed:
                return choose(players, index, state, legal)
            hidden._decisions += 1
            if hidden._decisions != 1:
                return choose(players, index, state, legal)
            if name == "A":
                action = choose(players, index, state, legal)
                hidden.ballot = action
                return action
            assert vote is not None
            player: Any = players.player_for(index)
            kept = copy.deepcopy(player.belief.grudges)
            voters = [index, *sorted(v for v in vote.candidates if v != index)]
            for holder, against in itertools.product(voters, sorted(others)):
                if holder == against:
                    continue
                trial = copy.deepcopy(player)
                trial.belief.grudges.setdefault(holder, {})[against] = GRUDGE
                if trial.choose(view(state, index), legal) != hidden.ballot:
                    player.belief.grudges.setdefault(holder, {})[against] = GRUDGE
                    hidden.changed = True
                    break
            try:
                return choose(players, index, state, legal)
            finally:
                player.belief.grudges = kept

        with mock.patch.object(SeatPlayers, "choose", chosen):
            yield


def _swap(state: GameState, seat: int) -> bool:
    """Swap a card of `seat`'s hand with the deck's lowest card of another kind: where it
    can, a weapon for a card that is not one or the other way round (what the hand can
    do against an attack differs, and with it whatever is reckoned from the hand, as an
    AI seat's expected losses are), else the first card for any other kind."""
    hand, deck = state.hands[seat], state.deck
    pairs = [(at, low) for at in range(len(hand)) for low in range(len(deck))]
    for at, low in sorted(pairs, key=lambda p: _removal(hand[p[0]]) == _removal(deck[p[1]])):
        if deck[low] != hand[at]:
            hand[at], deck[low] = deck[low], hand[at]
            return True
    return False


def _removal(card: str) -> int:
    return removal([card])
