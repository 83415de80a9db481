"""`Say`: the reader's language and the seats' names, and the registry of event lines.

Every narration module registers its renderers in a `Lines` of its own, keyed
by event kind and audience; `narrate` gathers them. A renderer gets a `Say`
for its reader and the event's data, and returns the line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.texts import catalog
from bot.texts.catalog import and_list
from lockdown_core import load_ruleset

# R0: the board, which no variant moves (an event line has no ruleset to ask, and
# needs none for which location is which).
BOARD = load_ruleset()


class PrivateEvent(ValueError):
    """A private event was asked for an audience that may not read it."""


class Say:
    """The reader's language and the seats' names, with the phrases every line needs."""

    def __init__(self, lang: str, names: Sequence[str], seat: int | None) -> None:
        self.lang = lang
        self.names = names
        self.seat = seat
        self.catalog = catalog()

    def __call__(self, key: str, **params: object) -> str:
        return self.catalog.text(self.lang, key, **params)

    def name(self, seat: int) -> str:
        return self.names[seat]

    def join(self, items: Sequence[str], empty: str = "list.nobody") -> str:
        """`a`, `a and b`, `a, b and c` in the reader's language; `empty` says none."""
        return and_list(self.lang, items) if items else self(empty)

    def seats(self, seats: Sequence[int]) -> str:
        return self.join([self.name(s) for s in seats])

    def location(self, loc: int, form: str = "") -> str:
        """A location's name, or its form after a preposition (`in`, `to`, `from`)."""
        return self(f"location.{loc}.{form}" if form else f"location.{loc}")

    def card(self, card: str) -> str:
        return self(f"card.{card}")

    def cards(self, cards: Sequence[str]) -> str:
        return self.join([self.card(c) for c in cards], empty="list.no_cards")

    def kind(self, kind: str) -> str:
        return self(f"kind.{kind}")

    def count(self, noun: str, count: int) -> str:
        return self.catalog.count(self.lang, noun, count)

    def dice(self, dice: Sequence[int]) -> str:
        return and_list(self.lang, [str(d) for d in dice])


Data = dict[str, Any]
Render = Callable[[Say, Data], str]


class Lines:
    """Renderers of one narration module: `public[kind]` and `private[kind]`."""

    def __init__(self) -> None:
        self.public_lines: dict[str, Render] = {}
        self.private_lines: dict[str, Render] = {}

    def public(self, kind: str) -> Callable[[Render], Render]:
        def register(render: Render) -> Render:
            self.public_lines[kind] = render
            return render

        return register

    def private(self, kind: str) -> Callable[[Render], Render]:
        def register(render: Render) -> Render:
            self.private_lines[kind] = render
            return render

        return register
