"""The board as text: the same facts as the picture, for screen readers and logs.

Like the picture it reads only the public view. Each open location also says
its defence (the strength of the characters there) and whether its Monsters
would get in, with the rule lines of `lockdown_core.board_facts`; its free spots, a
warning one Monster before it closes, whether it is under attack now, and for
a closed one why it closed (`lockdown_core.board_facts`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from bot.render.labels import end_line, rule_line
from bot.texts import t
from bot.texts.catalog import and_list
from lockdown_core import Ruleset, load_ruleset
from lockdown_core import facts as core_facts
from lockdown_core.board_facts import board_facts, location_facts


@cache
def _rules(variants: tuple[str, ...]) -> Ruleset:
    return load_ruleset(variants)


def board_lines(
    data: dict[str, Any], names: list[str], lang: str, rules: Ruleset | None = None
) -> list[str]:
    """One line per location, then the Cold storage, the holders and the rule lines, in
    `lang`: its words from the catalog, its lists (who is where, the hands) as `lang`
    writes a list.

    `rules` defaults to the base rules with the view's variants, which is what
    every game's ruleset is; pass the game's own when the caller has it.
    """

    def say(key: str, **params: object) -> str:
        return t(lang, key, **params)

    def listed(items: list[str]) -> str:
        return and_list(lang, items) if items else say("board.nobody")

    if data.get("seat") is not None:
        raise ValueError("the board text is written from the public view only")
    rules = rules or _rules(tuple(data["variants"]))
    facts = board_facts(data, rules)
    located = location_facts(data, rules)
    lines = []
    for loc in core_facts.locations(rules):
        title = say(f"location.{loc}")
        if loc in data["closed"]:
            lines.append(
                say(
                    "board.closed_line",
                    number=loc,
                    location=title,
                    close_at=located.close_at,
                    parking_to=say(f"location.{core_facts.overflow(rules)}.to"),
                )
            )
            continue
        here = [
            say(
                "board.character_hidden" if c["hidden"] else "board.character",
                name=names[c["owner"]],
                kind=say(f"kind.{c['kind']}"),
            )
            for c in data["characters"]
            if c["location"] == loc
        ]
        line = say(
            "board.location_line",
            number=loc,
            location=title,
            characters=listed(here),
            monsters=data["monsters"][loc - 1],
        )
        defence = facts.defence.get(loc)
        if defence is not None:
            key = "board.defence_gets_in" if defence.breached else "board.defence_text"
            line = say(key, line=line, strength=defence.strength)
        if loc in located.free:
            line = say("board.free_text", line=line, free=located.free[loc])
        if loc in located.closing:
            monsters = data["monsters"][loc - 1]
            line = say(
                "board.closing_text", line=line, monsters=monsters, close_at=located.close_at
            )
        if located.attacked == loc:
            line = say("board.attacked_text", line=line)
        lines.append(line)
    by_id = {c["id"]: c for c in data["characters"]}
    cold = [
        say("board.character", name=names[by_id[i]["owner"]], kind=say(f"kind.{by_id[i]['kind']}"))
        for i in data["cold_storage"]
    ]
    lines.append(say("board.cold_storage", characters=listed(cold)))
    lines.append(
        say(
            "board.holders",
            badge=names[data["badge"]],
            martyr=names[data["martyr"]],
            deck=data["deck"],
            supply=data["supply"],
        )
    )
    # "Ana: 1", not "Ana 1": a seat named "AI 2" must not run into its number.
    hands = and_list(
        lang,
        [say("board.hand_count", name=names[p], count=n) for p, n in enumerate(data["hand_sizes"])],
    )
    lines.append(say("board.hands", hands=hands))
    lines.append(rule_line(facts, say))
    lines.append(end_line(facts, say))
    return lines
