"""Why an AI seat chose what it did (`lockdown_core.ai.Rationale`), in the reader's words.

Told only once the choice is public: a destination after the reveal, a move
once made. The figures are the points the seat stood to lose as anyone at the
table could reckon them (`ShrewdPlayer.explain`: the public view, not the seat's
hand), rounded to a tenth.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.texts import t
from bot.texts.catalog import decimal
from lockdown_core import GameState
from lockdown_core.ai import Rationale

# The sentence of each kind of decisive choice a rationale explains.
SENTENCES = {"destination": "practice.why.destination", "move": "practice.why.move"}


def points(lang: str, value: float) -> str:
    """A tenth-rounded figure as the language writes it (2.5, 2,5)."""
    return decimal(lang, value, 1)


def why_lines(
    lang: str, state: GameState, seat: int, rationale: Rationale, names: Sequence[str]
) -> list[str]:
    """The choice and its estimated cost, then the option ranked next, if any."""
    kind = rationale.kind
    lines = [
        t(
            lang,
            SENTENCES[kind],
            name=names[seat],
            option=_option(lang, state, kind, rationale.choice),
            points=points(lang, rationale.expected),
        )
    ]
    if rationale.runner_up is not None and rationale.runner_up_expected is not None:
        lines.append(
            t(
                lang,
                "practice.why.next",
                option=_option(lang, state, kind, rationale.runner_up),
                points=points(lang, rationale.runner_up_expected),
            )
        )
    return lines


def _option(lang: str, state: GameState, kind: str, option: int) -> str:
    """A destination's place, or the kind of the character a move took."""
    if kind == "destination":
        return t(lang, f"location.{option}.to")
    return t(lang, f"kind.{state.characters[option].kind}")
