"""The shrewd AI's ballot in an attack: stay alive first, then follow its persona.

It predicts each other voter's ballot from what is public: ballots already
shown (open ballots), else the grudges that voter bears (the ballots cast
against it, `belief.py`) and the points on the board, as a careful player
votes. For each candidate it could designate, it works out whether it would
then be the one devoured (alone on top), or tied (the Martyr decides: one
chance in the number tied, none if it holds the token), and keeps the safest.
Among equally safe ballots its persona decides: grudges, the leader, loyalty.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from lockdown_core.ai.belief import Belief
from lockdown_core.ai.board_reading import Board
from lockdown_core.ai.personas import Persona

# How much one point of the leader's lead weighs against one ballot of grudge.
LEAD_WEIGHT = 0.1


def weights(board: Board, vote: Mapping[str, Any]) -> dict[int, int]:
    """R2.1: each candidate's weight, from its exposed characters there and its Guns."""
    out = dict.fromkeys(vote["candidates"], 0)
    for c in board.at(vote["location"]):
        if not c["hidden"] and c["owner"] in out:
            out[c["owner"]] += board.kinds[c["kind"]].votes
    for seat, guns in vote["guns"].items():
        if int(seat) in out:
            out[int(seat)] += guns
    return out


def predicted_ballots(board: Board, vote: Mapping[str, Any], belief: Belief) -> dict[int, int]:
    """Each other voter's ballot: shown, else what a careful player with its grudges casts."""
    shown = {int(v): c for v, c in vote["designations"].items()}
    scores = board.scores()
    out: dict[int, int] = {}
    candidates = vote["candidates"]
    for voter in candidates:
        if voter == board.me:
            continue
        if voter in shown:
            out[voter] = shown[voter]
            continue
        others = [p for p in candidates if p != voter]
        if others:
            out[voter] = max(others, key=_careful(belief, voter, scores))
    return out


def _careful(
    belief: Belief, voter: int, scores: list[int]
) -> Callable[[int], tuple[float, int, int]]:
    """A careful `voter`'s order of preference: the seat it bears the most grudge,
    then the leader in points (as the cautious level votes)."""

    def key(p: int) -> tuple[float, int, int]:
        return (belief.grudge(voter, p), scores[p], -p)

    return key


def danger(
    me: int, choice: int, ballots: Mapping[int, int], weight: Mapping[int, int], martyr: int
) -> float:
    """The chance `me` is devoured if it designates `choice` and the others vote `ballots`."""
    totals = dict.fromkeys(weight, 0)
    for voter, candidate in ballots.items():
        if candidate in totals:
            totals[candidate] += weight.get(voter, 0)
    totals[choice] += weight.get(me, 0)
    top = max(totals.values())
    tied = [p for p, t in totals.items() if t == top]
    if me not in tied:
        return 0.0
    if len(tied) == 1:
        return 1.0
    return 0.0 if martyr == me else 1.0 / len(tied)


def attack_ballot(
    board: Board, vote: Mapping[str, Any], belief: Belief, who: Persona, martyr: int
) -> tuple[int, str]:
    """Its candidate and why: "safety" when its ballot changes whether it is devoured,
    else "loyalty" when sparing a friend changed it, "grudge" when a grudge did, else
    "leader"."""
    me = board.me
    candidates = [p for p in vote["candidates"] if p != me]
    ballots = predicted_ballots(board, vote, belief)
    weight = weights(board, vote)
    scores = board.scores()
    lead = max(scores)
    risks = {c: danger(me, c, ballots, weight, martyr) for c in candidates}
    safest = min(risks.values())
    safe = [c for c in candidates if risks[c] <= safest + 1e-9]

    def appeal(grudge: float, loyalty: float) -> Callable[[int], tuple[float, int]]:
        def key(c: int) -> tuple[float, int]:
            held = grudge * belief.grudge(me, c)
            leader = (1.0 - who.grudge) * LEAD_WEIGHT * (scores[c] - lead + 10)
            return (held + leader - loyalty * belief.help[c], -c)

        return key

    choice = max(safe, key=appeal(who.grudge, who.loyalty))
    if len(safe) < len(candidates):
        return choice, "safety"
    if choice != max(safe, key=appeal(who.grudge, 0.0)):
        return choice, "loyalty"
    if choice != max(safe, key=appeal(0.0, 0.0)):
        return choice, "grudge"
    return choice, "leader"
