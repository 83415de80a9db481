"""Card windows: who may still play a card or say Done (R2.3, R2.6, R4.4, R5.4, R7.8).

Asked by the flow when a window opens, by the engine after every card and
Done, and by `legal` for every seat: the answers read public facts only, so
how long a window lasts tells nobody what is in a hand.
"""

from __future__ import annotations

from lockdown_core.model import GameState
from lockdown_core.pieces import Step

# Cards that can matter in each kind of discussion (R2.6, R7.8).
VOTE_CARDS = ("gun",)


ATTACK_CARDS = ("gun", "tin_can", "baseball_bat", "chainsaw", "molotov_cocktail", "rotten_meat")


# The card sets whose exhaustion closes a window, by index into `_CARD_SETS`.
_ATTACK, _VOTE, _WALKIE, _ENERGY = range(4)


_CARD_SETS = (ATTACK_CARDS, VOTE_CARDS, ("walkie_talkie",), ("energy_drink",))


def _all_played(state: GameState, which: int) -> bool:
    """Public knowledge: every copy of the cards of `_CARD_SETS[which]` is face up.

    Asked several times per action and changed only when a card is played, so the
    answers are kept with the `played` list (and its length) they were read from.
    """
    played = state.played
    cache = state.exhausted_cache
    if cache[0] is not played or cache[1] != len(played):
        cache[:] = [played, len(played), None, None, None, None]
    known: bool | None = cache[2 + which]
    if known is None:
        known = True
        copies = state.card_copies
        for card in _CARD_SETS[which]:
            if played.count(card) < copies.get(card, 0):
                known = False
                break
        cache[2 + which] = known
    return known


def window_players(state: GameState) -> list[int]:
    """Who may still act in a discussion or a card window, from public facts only.

    The set depends on seats, positions and hand sizes, never on which cards
    are held, so how long a step lasts tells nobody what is in a hand.
    It is empty once every copy of the cards the step allows is face up: then
    nobody could act (R2.3), also in the middle of a window.
    """
    step = state.step
    hands = state.hands
    acted = state.acted
    if step == Step.DISCUSSION:
        vote = state.vote
        if vote is None:
            return []
        # Seats clockwise from the badge holder, each with a card and not yet done.
        order = state.orders[state.badge]
        if vote.kind == "attack":
            if _all_played(state, _ATTACK):
                return []
            loc = vote.location
            families = state.families()
            players = []
            # Seats with a card and not done, then only their own families looked at.
            for p in order:
                if hands[p] and p not in acted:
                    for c in families[p]:
                        if c.location == loc:
                            players.append(p)
                            break
            return players
        if _all_played(state, _VOTE):
            return []
        candidates = vote.candidates
        return [p for p in order if p in candidates and hands[p] and p not in acted]
    if step == Step.WALKIE_WINDOW:
        if _all_played(state, _WALKIE):
            return []
        return [p for p in range(state.players) if hands[p] and p not in acted]
    if step == Step.AFTER_MOVE:
        mover = state.mover
        if not hands[mover] or mover in acted or _all_played(state, _ENERGY):
            return []
        return [mover]
    return []


def in_window(state: GameState, seat: int) -> bool:
    """`player in window_players(state)`, checked for that one seat (a hot path)."""
    if not 0 <= seat < state.players or not state.hands[seat] or seat in state.acted:
        return False
    step = state.step
    if step == Step.DISCUSSION:
        vote = state.vote
        if vote is None:
            return False
        if vote.kind == "attack":
            loc = vote.location
            here = loc in [c.location for c in state.family(seat)]
            return here and not _all_played(state, _ATTACK)
        return seat in vote.candidates and not _all_played(state, _VOTE)
    if step == Step.WALKIE_WINDOW:
        return not _all_played(state, _WALKIE)
    if step == Step.AFTER_MOVE:
        return seat == state.mover and not _all_played(state, _ENERGY)
    return False


def mover_may_drink(state: GameState) -> bool:
    """`window_players` of the step after a move, before anyone has acted (R5.4): the
    mover, if they hold a card while an Energy drink is still unplayed. Asked after
    every move, so without the general path's checks."""
    return bool(state.hands[state.mover]) and not _all_played(state, _ENERGY)
