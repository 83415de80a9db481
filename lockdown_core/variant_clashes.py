"""R11.4: variants that change the same rule, each its own way, are never combined.

Variants are applied in order (R11.2), so two that set the same number (Crèche's
2 Monsters for the Weepers and Hush's none) would give a game that depends on the
order a host clicked them in, and that plays at least one of them other than its
line says. Which pairs clash is read from the data, not listed by hand: each
variant alone is compared with the base rules, every value it changes is noted
(the arrival dice of the first arrival counted as they are played, R1.5), and two
variants clash when a value both change does not come out, combined, as each of
them says. Every other combination plays the same in any order.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from lockdown_core import facts
from lockdown_core.ruleset import Ruleset, load_ruleset, load_variants

# Fields that name the variants rather than say a rule.
_NOT_RULES = frozenset({"variants", "revision"})


@dataclass(frozen=True, slots=True)
class Clash:
    """Two variants (in the data's order) and the values both change."""

    first: str
    second: str
    values: tuple[str, ...]


def clashes(variants: Iterable[str]) -> list[Clash]:
    """Every pair among `variants` that may not be combined, in the data's order."""
    order = list(load_variants())
    chosen = sorted(dict.fromkeys(variants), key=order.index)
    found = []
    for first, second in itertools.combinations(chosen, 2):
        values = _clash(first, second)
        if values:
            found.append(Clash(first, second, values))
    return found


@cache
def _clash(first: str, second: str) -> tuple[str, ...]:
    base = _values(load_ruleset())
    one, other = _values(load_ruleset((first,))), _values(load_ruleset((second,)))
    both = _values(load_ruleset((first, second)))
    return tuple(
        key
        for key in sorted(one.keys() & other.keys())
        if one[key] != base.get(key) != other[key] and not one[key] == both.get(key) == other[key]
    )


@cache
def _values(rules: Ruleset) -> dict[str, Any]:
    """Every value of the rules by a dotted path (kinds, cards and locations by key),
    with the first arrival's dice as they are rolled."""
    flat: dict[str, Any] = {"first_arrival_dice": facts.first_dice(rules)}
    for field, value in rules.model_dump().items():
        if field in _NOT_RULES or field == "first_arrival_dice":
            continue
        if isinstance(value, tuple | list) and value and isinstance(value[0], dict):
            for item in value:
                name = item.get("key", item.get("id"))
                for key, part in item.items():
                    flat[f"{field}.{name}.{key}"] = part
        else:
            flat[field] = value
    return flat
