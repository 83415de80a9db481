"""Every word of the board picture, taken from the catalog through the caller's `say`.

One place builds `BoardLabels`, so that every caller (the Discord board, the
replay GIF, the documentation's pictures) shows the same words, including the rule lines
(defence, equal strength, when the game ends) that need the game's ruleset.
"""

from __future__ import annotations

from typing import Any

from bot.render.board_image import render_board
from bot.render.board_labels import BoardLabels
from bot.texts.catalog import Translate
from lockdown_core import Ruleset
from lockdown_core import facts as core_facts
from lockdown_core.board_facts import BoardFacts, LocationFacts, board_facts, location_facts


def board_labels(
    data: dict[str, Any], rules: Ruleset, names: list[str], say: Translate, facts: BoardFacts
) -> BoardLabels:
    """The picture's words for this public view, in the language of `say`."""
    return BoardLabels(
        title=say("board.title", turn=data["turn"]),
        locations={loc: say(f"location.{loc}") for loc in core_facts.locations(rules)},
        kind_letters={k.key: say(f"kind.{k.key}.letter") for k in rules.kinds},
        closed=say("board.closed"),
        cold_storage=say("board.cold_storage_title"),
        status=say(
            "board.picture_status", step=say(f"step.{data['step']}.name"), deck=data["deck"]
        ),
        names=names,
        badge=say("board.badge"),
        martyr=say("board.martyr"),
        defence={
            loc: say("board.defence", strength=d.strength, monsters=d.monsters)
            for loc, d in facts.defence.items()
        },
        rule=rule_line(facts, say),
        end_line=end_line(facts, say),
        seats=[say("board.seat", number=seat + 1) for seat in range(data["players"])],
        **location_labels(location_facts(data, rules), say),
    )


def location_labels(located: LocationFacts, say: Translate) -> dict[str, Any]:
    """The free spots of each location, the warning of those about to close, and why a
    closed location closed: the `free`, `warnings` and `closed_reason` of `BoardLabels`."""
    return {
        "free": {
            loc: say("board.free", free=free) if free else say("board.full")
            for loc, free in located.free.items()
        },
        "warnings": {
            loc: say("board.closes_at", close_at=located.close_at) for loc in located.closing
        },
        "closed_reason": say("board.closed_reason", close_at=located.close_at),
    }


def rule_line(facts: BoardFacts, say: Translate) -> str:
    """How Monsters get in now: outnumbering the defence, or at equal strength (R8.4)."""
    return say("board.rule_equal" if facts.equal else "board.rule_greater")


def end_line(facts: BoardFacts, say: Translate) -> str:
    """When the game ends (R9.1 and its variants), and where it stands now."""
    if facts.end_at is None:
        return say("board.end_one_family", families=facts.families)
    return say("board.end_at", end=facts.end_at, living=facts.living)


def board_png(data: dict[str, Any], rules: Ruleset, names: list[str], say: Translate) -> bytes:
    """The PNG of a public view with every label and rule line: what a board message shows.

    CPU work (tens of milliseconds): call it off the event loop.
    """
    facts = board_facts(data, rules)
    return render_board(
        data,
        board_labels(data, rules, names, say, facts),
        {loc.id: loc.character_spots for loc in rules.locations},
        {loc.id: loc.monster_spots for loc in rules.locations},
        list(rules.cold_storage_rows),
        facts,
    )
