"""The board as text: the same facts as the picture, for screen readers and logs.

Like the picture it reads only the public view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Translate = Callable[..., str]


def board_lines(data: dict[str, Any], names: list[str], say: Translate) -> list[str]:
    """One line per location, then the Cold storage and the holders."""
    if data.get("seat") is not None:
        raise ValueError("the board text is written from the public view only")
    lines = []
    for loc in range(1, 7):
        title = say(f"location.{loc}")
        if loc in data["closed"]:
            lines.append(say("board.closed_line", number=loc, location=title))
            continue
        here = [
            say("board.character", name=names[c["owner"]], kind=say(f"kind.{c['kind']}"))
            + (say("board.hidden") if c["hidden"] else "")
            for c in data["characters"]
            if c["location"] == loc
        ]
        lines.append(
            say(
                "board.location_line",
                number=loc,
                location=title,
                characters=", ".join(here) or say("board.nobody"),
                monsters=data["monsters"][loc - 1],
            )
        )
    by_id = {c["id"]: c for c in data["characters"]}
    cold = [
        say("board.character", name=names[by_id[i]["owner"]], kind=say(f"kind.{by_id[i]['kind']}"))
        for i in data["cold_storage"]
    ]
    lines.append(say("board.cold_storage", characters=", ".join(cold) or say("board.nobody")))
    lines.append(
        say(
            "board.holders",
            badge=names[data["badge"]],
            martyr=names[data["martyr"]],
            deck=data["deck"],
            supply=data["supply"],
        )
    )
    hands = ", ".join(f"{names[p]} {n}" for p, n in enumerate(data["hand_sizes"]))
    lines.append(say("board.hands", hands=hands))
    return lines
