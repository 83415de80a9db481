"""How the shrewd AI expects the other seats to choose their destinations and moves.

Its model of a seat is a careful player that reads the same public board: the
destination that lowers that seat's own forecast loss is the likeliest, the
others less so the more they cost it (a softmax over the cautious forecast,
`forecast.py`, seen from that seat's chair). It reads only the public board,
so it is the same whatever the seat holds.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lockdown_core.ai.forecast import Forecast
from lockdown_core.ai.tables import Tables

# How sharply the model favours a seat's best destination (points of forecast loss).
TEMPERATURE = 0.3


@dataclass(frozen=True, slots=True)
class Plan:
    """One destination a seat may pick, how likely, and the move it then makes: the
    character (by id) and where it goes, (None if nothing can move, R5.5)."""

    destination: int
    chance: float
    character: int | None
    target: int


def options_of(view: Mapping[str, Any], seat: int) -> list[int]:
    """R5.2: the open locations where `seat` has a character not already there."""
    closed = set(view["closed"])
    at = {c["location"] for c in view["characters"] if c["owner"] == seat and c["location"] > 0}
    if not at:
        return []
    return [loc for loc in range(1, 7) if loc not in closed and (at - {loc})]


def seat_forecast(
    view: Mapping[str, Any], tables: Tables, seat: int, dice: Sequence[int] | None
) -> Forecast:
    """The cautious forecast of the public board from `seat`'s chair."""
    return Forecast({**view, "seat": seat}, tables, dice, view["dice_count"])


def best_move(forecast: Forecast, dest: int) -> tuple[int | None, int]:
    """R5.4: the character a careful seat moves for `dest` and where it lands."""
    target = dest if forecast.has_room(dest) else forecast.parking
    best: tuple[float, int] | None = None
    for cid, at, _ in forecast.mine:
        if at in (dest, target):
            continue
        loss = forecast.loss_one(cid, target)
        if best is None or loss < best[0]:
            best = (loss, cid)
    return (None if best is None else best[1]), target


def plans(view: Mapping[str, Any], tables: Tables, seat: int, fixed: int | None) -> list[Plan]:
    """The destinations `seat` may pick with their chances (`fixed`: the one it showed)."""
    forecast = seat_forecast(view, tables, seat, None)
    options = [fixed] if fixed is not None else options_of(view, seat)
    if not options:
        return []
    losses = [forecast.after_move_to(d) for d in options]
    low = min(losses)
    weights = [math.exp((low - loss) / TEMPERATURE) for loss in losses]
    total = sum(weights)
    out = []
    for dest, weight in zip(options, weights, strict=True):
        cid, target = best_move(forecast, dest)
        out.append(Plan(dest, weight / total, cid, target))
    return out


def pick(options: Sequence[Plan], draw: float) -> Plan:
    """The plan that a uniform `draw` in [0, 1) falls on."""
    for plan in options:
        draw -= plan.chance
        if draw < 0:
            return plan
    return options[-1]
