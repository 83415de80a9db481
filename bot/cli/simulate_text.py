"""`lockdown simulate`'s text report in the reader's language: the figures of
`lockdown_core.ai.simulation` with their labels, and everything they count named
as the Discord side names it (character kinds, the Keys of the truck, locations,
epilogues by code and title, variants, AI levels and personas), never by raw key.

The catalog is imported here only: `--json` and the games themselves never load it.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from bot.texts import t
from bot.texts.catalog import FALLBACK, Translate, and_list, decimal, or_list, percent
from bot.texts.lang import locale_language
from lockdown_core import load_variants
from lockdown_core.ai.simulation import ai_seed, game_seed

# The points of a Keys of the truck kept to the end are counted beside the kinds'.
KEYS = "keys_of_the_truck"
REASONS = ("safety", "grudge", "leader", "loyalty")


def environment_lang() -> str:
    """The catalog language of the terminal's locale (LC_ALL, LC_MESSAGES, then LANG, as
    the C library reads them: `fr_FR.UTF-8`, `fr_CA`), English when we do not speak it."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value:
            return locale_language(value.split(".")[0].replace("_", "-")) or FALLBACK
    return FALLBACK


def variant_list(lang: str) -> str:
    """`--list-variants`: every variant's key (what `--variant` takes), its name in
    `lang` and what it changes, one line each, so that a moderator can choose one."""
    lines = [t(lang, "simulate.cli.variants")]
    for key in load_variants():
        name, change = t(lang, f"variant.{key}.name"), t(lang, f"variant.{key}.change")
        lines.append(t(lang, "simulate.cli.variant_line", variant=key, name=name, change=change))
    return "\n".join(lines)


def unknown_variants(lang: str, asked: Sequence[str]) -> str | None:
    """What is wrong with the `--variant` names, each with its close matches (a typo, a
    name given in the reader's language), or None if every one exists."""
    known = list(load_variants())
    by_name = {t(lang, f"variant.{key}.name").lower(): key for key in known}
    problems = []
    for name in asked:
        if name in known:
            continue
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
        close += [
            by_name[match]
            for match in difflib.get_close_matches(name.lower(), list(by_name), n=3, cutoff=0.6)
            if by_name[match] not in close
        ]
        key = "simulate.cli.unknown_close" if close else "simulate.cli.unknown"
        problems.append(t(lang, key, name=name, close=or_list(lang, close)))
    return "\n".join(problems) or None


def print_text(
    report: Mapping[str, Any],
    lang: str,
    out: TextIO,
    base: Mapping[str, Any] | None = None,
) -> None:
    """The report as lines of text in `lang`; with `base` (the base rules' figures on the
    same seeds), followed by what the variants change, as the chart compares them."""

    def say(key: str, **params: object) -> str:
        return t(lang, key, **params)

    variants = and_list(lang, [say(f"variant.{v}.name") for v in report["variants"]])
    seats = "  ".join(
        f"{ai_name(say, k)} {decimal(lang, n, 0 if n == int(n) else 1)}"
        for k, n in report["seats_by_ai"].items()
    )
    lines = [
        say(
            "simulate.cli.run",
            games=report["games"],
            players=report["players"],
            ai=say("simulate.ai.mix" if report["ai"] == "mix" else f"ai.level.{report['ai']}"),
            variants=variants or say("simulate.cli.no_variant"),
            seed=report["seed"],
        ),
        say("simulate.cli.errors", errors=report["errors"]),
        say("simulate.cli.stalemates", stalemates=report["stalemates"]),
        say(
            "simulate.cli.speed",
            rate=decimal(lang, report["games_per_second"], 1),
            seconds=decimal(lang, report["elapsed_seconds"], 1),
        ),
        say(
            "simulate.cli.length",
            turns=decimal(lang, report["avg_turns"], 2),
            actions=decimal(lang, report["avg_actions"], 1),
        ),
        say(
            "simulate.cli.survivors",
            players=decimal(lang, report["avg_survivors"], 2),
            characters=decimal(lang, report["avg_living_characters"], 2),
        ),
        say(
            "simulate.cli.win_by_seat",
            rates=_rates(
                lang,
                {
                    say("board.seat", number=int(seat) + 1): rate
                    for seat, rate in report["win_rate_by_seat"].items()
                },
            ),
        ),
        say(
            "simulate.cli.win_by_ai",
            rates=_rates(lang, {ai_name(say, k): r for k, r in report["win_rate_by_ai"].items()}),
            seats=seats,
        ),
        say(
            "simulate.cli.points",
            points="  ".join(
                f"{kind_name(say, k)} {decimal(lang, p, 2)}"
                for k, p in report["points_by_kind"].items()
            ),
        ),
        say(
            "simulate.cli.closed",
            rates=_rates(
                lang,
                {f"{loc} {say(f'location.{loc}')}": r for loc, r in report["closed_rate"].items()},
            ),
        ),
        say(
            "simulate.cli.epilogues",
            rates=_rates(
                lang,
                {
                    say("chart.epilogue", code=code, title=say(f"epilogue.{code}.title")): r
                    for code, r in report["epilogues"].items()
                },
            ),
        ),
    ]
    game = report["first_stalemate_game"]
    if game is not None:
        seeds = {"seed": game_seed(report["seed"], game), "ai_seed": ai_seed(report["seed"], game)}
        lines.insert(3, say("simulate.cli.stalemate_seed", **seeds))
    for kind, deeds in report["behaviour_by_ai"].items():
        lines.append(behaviour(lang, say, ai_name(say, kind), deeds))
    if base is not None:
        lines.extend(comparison(lang, say, report, base))
    out.write("\n".join(lines) + "\n")


def comparison(
    lang: str, say: Translate, report: Mapping[str, Any], base: Mapping[str, Any]
) -> list[str]:
    """The chart's panels as text: each figure under the variants, then the base rules'
    and the difference, so that what a variant changes reads without a picture."""

    def number(key: str, digits: int) -> str:
        now, then = report[key], base[key]
        return say(
            "simulate.cli.versus",
            now=decimal(lang, now, digits),
            base=decimal(lang, then, digits),
            change=decimal(lang, now - then, digits, signed=True),
        )

    def rates(key: str, names: Mapping[str, str], shares: bool = True) -> str:
        parts = []
        for item, name in names.items():
            now, then = report[key].get(item, 0.0), base[key].get(item, 0.0)
            if shares:
                shown = (percent(lang, now, 1), percent(lang, then, 1))
                change = decimal(lang, (now - then) * 100, 1, signed=True)
            else:
                shown = (decimal(lang, now, 2), decimal(lang, then, 2))
                change = decimal(lang, now - then, 2, signed=True)
            figures = say("simulate.cli.versus", now=shown[0], base=shown[1], change=change)
            parts.append(f"{name} {figures}")
        return "  ".join(parts)

    seats = {seat: say("board.seat", number=int(seat) + 1) for seat in report["win_rate_by_seat"]}
    kinds = {k: kind_name(say, k) for k in report["points_by_kind"]}
    places = {loc: f"{loc} {say(f'location.{loc}')}" for loc in report["closed_rate"]}
    return [
        say("simulate.cli.compared"),
        "  " + say("simulate.cli.length_versus", turns=number("avg_turns", 2)),
        "  "
        + say(
            "simulate.cli.survivors_versus",
            players=number("avg_survivors", 2),
            characters=number("avg_living_characters", 2),
        ),
        "  " + say("simulate.cli.win_by_seat", rates=rates("win_rate_by_seat", seats)),
        "  " + say("simulate.cli.points", points=rates("points_by_kind", kinds, shares=False)),
        "  " + say("simulate.cli.closed", rates=rates("closed_rate", places)),
    ]


def kind_name(say: Translate, key: str) -> str:
    """A character kind's name, or the Keys of the truck's, whose points are counted too."""
    return say(f"card.{KEYS}") if key == KEYS else say(f"kind.{key}")


def ai_name(say: Translate, kind: str) -> str:
    """An AI level, with its persona for a shrewd seat: "shrewd (the Avenger)"."""
    level, _, persona = kind.partition(":")
    name = say(f"ai.level.{level}")
    if not persona:
        return name
    return say("simulate.cli.persona", level=name, persona=say(f"ai_personas.{persona}.name"))


def behaviour(lang: str, say: Translate, name: str, deeds: Mapping[str, float]) -> str:
    """A shrewd seat's deeds: how often it lied when announcing, why it cast its attack
    ballots, how many of its gifts went to friends, how often it gave up the best average
    for a smaller spread of its losses."""

    def part_of(part: str, whole: str) -> str:
        return percent(lang, deeds.get(part, 0.0) / deeds[whole]) if deeds.get(whole) else "-"

    return say(
        "simulate.cli.behaviour",
        name=name,
        announcements=decimal(lang, deeds.get("announcements", 0.0), 2),
        lies=part_of("lies", "announcements"),
        ballots=decimal(lang, deeds.get("ballots", 0.0), 2),
        reasons="  ".join(
            f"{say(f'simulate.cli.reason.{r}')} {part_of(f'ballots_{r}', 'ballots')}"
            for r in REASONS
        ),
        gifts=decimal(lang, deeds.get("gifts", 0.0), 2),
        friends=part_of("ally_gifts", "gifts"),
        decisions=decimal(lang, deeds.get("decisions", 0.0), 2),
        hedged=part_of("hedged", "decisions"),
    )


def _rates(lang: str, rates: Mapping[str, float]) -> str:
    return "  ".join(f"{name} {percent(lang, value, 1)}" for name, value in rates.items()) or "-"
