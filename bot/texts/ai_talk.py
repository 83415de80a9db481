"""What AI seats say, in the game's language: who they are, their lines at the table,
and why they chose as they did, told after the reveal.

The core decides what a seat says (`lockdown_core.ai.talk.Remark`) and why it chose
(`Rationale`); the table stores both with the action (`bot.table.talk`) and shows
them as two events: `ai_remark`, public (or its seat's alone until the reveal, when
it tells that seat's ballot), and `ai_why`, for the seat alone until the game is
over. Here they become words. A line uses only its own parameters, which
the core limited to what its seat may show, and the seats' public names: two
games that differ only in the other seats' secrets read the same.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.texts import t
from bot.texts.catalog import Translate, decimal
from bot.texts.say import Data, Lines, Say

LINES = Lines()
# How a lobby names its AI seats when it seats them, stored so in every language.
AI_NAME = re.compile(r"AI (\d+)")


def persona_name(lang: str, persona: str) -> str:
    """A persona's name in `lang` (`ai_personas.<key>.name`)."""
    return t(lang, f"ai_personas.{persona}.name")


def ai_kind_text(say: Translate, kind: str) -> str:
    """An AI seat's level and persona as the lobby shows them: `shrewd:gambler` reads
    "shrewd AI, the Gambler: bets on ...", a level alone its level."""
    level, _, persona = kind.partition(":")
    if not persona:
        return say("ai.seat", level=say(f"ai.level.{level}"))
    return say(
        "ai.seat.persona",
        level=say(f"ai.level.{level}"),
        persona=say(f"ai_personas.{persona}.name"),
        traits=say(f"ai_personas.{persona}.traits"),
    )


def seat_name(say: Translate, name: str, kind: str | None) -> str:
    """An AI seat's stored name ("AI 2") in the reader's language ("IA 2" in French); a
    person's name as they wrote it, even if it reads "AI 2" (only AI seats have a kind)."""
    found = AI_NAME.fullmatch(name) if kind else None
    return say("ai.name", number=found.group(1)) if found else name


def seat_names(lang: str, seats: Sequence[tuple[str, str | None]]) -> list[str]:
    """The names a game shows (board, picture, lines, reveal, replay), from each seat's
    name and AI kind: an AI seat named in `lang`, with its persona if it has one,
    "AI 2 (Gambler)", so the table knows who talks."""
    names = []
    for name, kind in seats:
        name = seat_name(lambda key, **p: t(lang, key, **p), name, kind)
        persona = (kind or "").partition(":")[2]
        if persona:
            name = t(lang, "ai.seat_name", name=name, persona=persona_name(lang, persona))
        names.append(name)
    return names


def _remark_words(say: Say, kind: str, p: Mapping[str, Any]) -> str:
    if kind in ("announce", "announce_blind"):
        places = say.join([say.location(int(loc), "to") for loc in p["locations"]])
        key = "ai.remark.announce" if kind == "announce" else "ai.remark.announce_blind"
        return say(key, locations=places)
    if kind == "intent":
        return say(
            "ai.remark.intent",
            candidate=say.name(int(p["candidate"])),
            location_in=say.location(int(p["location"]), "in"),
        )
    if kind == "vote":
        return say(
            f"ai.remark.vote.{p['reason']}",
            candidate=say.name(int(p["candidate"])),
            location_in=say.location(int(p["location"]), "in"),
        )
    if kind == "gift":
        return say(f"ai.remark.gift.{p['reason']}", to=say.name(int(p["to"])))
    return say("ai.remark.no_announcement")


@LINES.public("ai_remark")
@LINES.private("ai_remark")
def remark_line(say: Say, d: Data) -> str:
    """One AI seat's line in the thread: its name, then what it says (read by its own
    seat alone while it waits for the reveal of the ballot it tells)."""
    words = _remark_words(say, str(d["remark"]), d["params"])
    return say("ai.remark", name=say.name(int(d["seat"])), words=words)


def _number(lang: str, value: float) -> str:
    """A tenth of a point as the language writes it: 0.8, 0,8."""
    return decimal(lang, value, 1)


def _option(say: Say, kind: str, option: int, character_kind: str | None) -> str:
    if kind == "destination":
        return say.location(option, "to")
    return say("ai.why.character", kind=say.kind(str(character_kind)))


# A rationale's kind (lockdown_core.ai.talk): its line with a runner-up, and without one.
_WHY_KEYS = {
    "destination": ("ai.why.destination", "ai.why.destination.only"),
    "move": ("ai.why.move", "ai.why.move.only"),
}


@LINES.private("ai_why")
def why_line(say: Say, d: Data) -> str:
    """Why an AI seat made one of its choices: what it expected to lose with it, and
    with the option it ranked next."""
    kind = str(d["kind"])
    keys = _WHY_KEYS[kind]
    params = {
        "name": say.name(int(d["seat"])),
        "turn": d["turn"],
        "choice": _option(say, kind, int(d["choice"]), d.get("choice_kind")),
        "expected": _number(say.lang, float(d["expected"])),
    }
    if d.get("runner_up") is None:
        return say(keys[1], **params)
    other = _option(say, kind, int(d["runner_up"]), d.get("runner_up_kind"))
    other_expected = _number(say.lang, float(d["runner_up_expected"]))
    return say(keys[0], other=other, other_expected=other_expected, **params)


def why_lines(lang: str, names: Sequence[str], reasons: Sequence[Data]) -> list[str]:
    """The reveal's "why" lines, one per reason given (each seat's decisive one)."""
    return [why_line(Say(lang, names, int(d["seat"])), d) for d in reasons]
