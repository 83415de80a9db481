"""`BoardLabels`: every word the board picture shows, in the game's language.

A module of its own because two modules draw with it, the locations
(`board_image`) and the footer under them (`legend`), and the first calls the
second: held in either, it would close a circle between them.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class BoardLabels:
    """Every word the picture shows, in the game's language.

    The fields with defaults came later: a caller that does not give them gets
    the picture without those lines (`bot.render.labels.board_labels` gives all).
    `defence` maps a location to its "defence 4 vs 3" text; `free` to its free
    spots; `warnings` to its "closes at 6" warning; `closed_reason` says why a
    location closed; `rule` says how Monsters get in now; `end_line` says when
    the game ends; `seats` are the labels ("Seat 3") shown for a name the font
    cannot draw at all.
    """

    title: str
    locations: dict[int, str]
    kind_letters: dict[str, str]
    closed: str
    cold_storage: str
    status: str
    names: list[str]
    badge: str
    martyr: str
    defence: dict[int, str] = field(default_factory=dict)
    rule: str = ""
    end_line: str = ""
    seats: list[str] = field(default_factory=list)
    free: dict[int, str] = field(default_factory=dict)
    warnings: dict[int, str] = field(default_factory=dict)
    closed_reason: str = ""
