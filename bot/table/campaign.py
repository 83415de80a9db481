"""A server's campaign (R10) and the variants it opens (R11), without discord or SQL.

A variant is unlocked on a server when its epilogue is, unless a moderator
locked it by hand; a moderator may also unlock one by hand. Hosts are offered
the unlocked variants the server's settings offer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from bot.table.lobby import LobbyError
from bot.table.server_settings import ServerConfig
from bot.texts import t
from lockdown_core import load_ruleset, load_variants
from lockdown_core.variant_clashes import clashes

OPEN_BALLOTS = "open_ballots"


@cache
def variant_epilogues() -> dict[str, str]:
    """Variant key -> the epilogue that unlocks it, in the data's order."""
    return {key: spec.epilogue for key, spec in load_variants().items()}


@cache
def epilogue_order() -> tuple[str, ...]:
    """The epilogues in R10's order, the fallback (21) last."""
    rules = load_ruleset()
    return (*rules.epilogue_order, rules.epilogue_fallback)


def variant_of(epilogue: str) -> str | None:
    """The variant an epilogue unlocks (R10.4); None for 21, which has none."""
    return next((v for v, e in variant_epilogues().items() if e == epilogue), None)


@dataclass(frozen=True, slots=True)
class VariantStatus:
    key: str
    epilogue: str
    unlocked: bool
    by_moderator: bool


def variant_statuses(
    epilogues: Iterable[str], overrides: Mapping[str, bool]
) -> list[VariantStatus]:
    """Each variant, unlocked by its epilogue or by a moderator's override (which wins)."""
    unlocked_epilogues = set(epilogues)
    statuses = []
    for key, epilogue in variant_epilogues().items():
        by_campaign = epilogue in unlocked_epilogues
        override = overrides.get(key)
        statuses.append(
            VariantStatus(
                key,
                epilogue,
                by_campaign if override is None else override,
                override is not None,
            )
        )
    return statuses


def offered_variants(config: ServerConfig, statuses: Sequence[VariantStatus]) -> list[str]:
    """The variants a host may pick: unlocked, and offered by the server's settings."""
    offered = config.offered_variants
    return [s.key for s in statuses if s.unlocked and (offered is None or s.key in offered)]


def check_variant_choice(chosen: Sequence[str], offered: Sequence[str], combine: bool) -> None:
    """R11.2: none or one variant, several only if the server allows combining, and
    never two that change the same rule each its own way (R11.4)."""
    for key in chosen:
        if key not in variant_epilogues():
            raise LobbyError("error.variant_unknown")
        if key not in offered:
            raise LobbyError("error.variant_locked", name=key)
    if len(chosen) > 1 and not combine:
        raise LobbyError("error.variants_not_combined")
    found = clashes(chosen)
    if found:
        raise LobbyError("error.variants_clash", first=found[0].first, second=found[0].second)


def shown_params(lang: str, params: Mapping[str, object]) -> dict[str, object]:
    """A variant refusal's parameters as its reader reads them: the variants by name, and
    for a clash (R11.4) what each of the two changes."""
    shown = dict(params)
    for role in ("name", "first", "second"):
        if role in params:
            shown[role] = t(lang, f"variant.{params[role]}.name")
    for role in ("first", "second"):
        if role in params:
            shown[f"{role}_change"] = t(lang, f"variant.{params[role]}.change")
    return shown


def never_together(variants: Iterable[str]) -> list[tuple[str, str]]:
    """The pairs among `variants` a game may never combine (R11.4)."""
    return [(clash.first, clash.second) for clash in clashes(variants)]


def game_variants(chosen: Sequence[str], config: ServerConfig) -> list[str]:
    """The variants a game is dealt with: the host's pick, plus Open ballots when the
    server plays designations in the open: the server's own rule (R11.5), whether or not
    its campaign unlocked Open ballots, which clashes with no variant."""
    variants = list(dict.fromkeys(chosen))
    if config.open_designations and OPEN_BALLOTS not in variants:
        variants.append(OPEN_BALLOTS)
    return variants
