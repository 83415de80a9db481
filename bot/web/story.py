"""A finished game told step by step, from its seed and its stored actions.

The game is played again as the table played it (`bot.table.talk`: its AI
seats' words come back after their actions). A step ends with an action that
the thread told something about: an action whose events are all private (a
vote cast in secret, a destination chosen, a card kept) folds into the next
step, so the steps themselves say no more than the thread did about who did
what when. Each step keeps:

- its public lines (`narrate.story` for the channel) and the public view
  (`view(state, None)`, R12): all the plain page ever shows;
- its secrets, for the director's cut alone: each seat's hand after the step
  and the private lines each seat read (hands dealt, dice seen by the badge
  holder, secret destinations, AI seats' reasons).

The two halves are apart by construction: the public page is built from
`Step.lines` and `Step.board`, never from `Step.secrets`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.storage.web_pages import PageGame
from bot.table.talk import with_talk
from bot.texts import t
from bot.texts.ai_talk import seat_names
from bot.texts.catalog import MissingText
from bot.texts.narrate import story
from lockdown_core import Event, GameState, Ruleset, action_from_dict, apply, load_ruleset, view
from lockdown_core.actions import action_revision
from lockdown_core.engine import new_game


@dataclass(frozen=True, slots=True)
class Secret:
    """One seat's hidden side of a step."""

    name: str
    hand: tuple[str, ...]
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Step:
    number: int
    turn: int
    lines: tuple[str, ...]
    board: dict[str, Any]
    secrets: tuple[Secret, ...]


@dataclass(frozen=True, slots=True)
class Score:
    name: str
    score: int
    winner: bool


@dataclass(frozen=True, slots=True)
class Story:
    """A game as its page shows it; `names` are the seats' names as the game showed them."""

    game_id: int
    finished_at: datetime | None
    lang: str
    rules: Ruleset
    names: tuple[str, ...]
    steps: tuple[Step, ...]
    scores: tuple[Score, ...]

    @property
    def last(self) -> int:
        return len(self.steps) - 1


def tell(game: PageGame) -> Story:
    """The story of a finished game (ValueError if its log does not replay)."""
    lang = game.language
    names = seat_names(lang, [(seat.name, seat.ai_kind) for seat in game.seats])
    seed: int | str = int(game.seed) if game.seed.lstrip("-").isdigit() else game.seed
    state, opening = new_game(load_ruleset(list(game.variants)), len(game.seats), seed)
    steps: list[Step] = []
    pending: list[Event] = list(opening)
    for data in game.actions:
        made = apply(state, action_from_dict(dict(data)), action_revision(data))
        pending += with_talk(data, made)
        if any(event.public for event in pending):
            steps.append(_step(len(steps), state, pending, lang, names))
            pending = []
    if pending or not steps:
        steps.append(_step(len(steps), state, pending, lang, names))
    result = state.result or {"scores": [0] * state.players, "winners": []}
    winners = set(result["winners"])
    scores = tuple(
        Score(names[seat], int(result["scores"][seat]), seat in winners)
        for seat in range(state.players)
    )
    return Story(
        game.game_id, game.finished_at, lang, state.rules, tuple(names), tuple(steps), scores
    )


def _step(
    number: int, state: GameState, events: Sequence[Event], lang: str, names: list[str]
) -> Step:
    secrets = tuple(
        Secret(
            names[seat],
            tuple(t(lang, f"card.{card}") for card in state.hands[seat]),
            _lines([e for e in events if not e.public and e.visible_to(seat)], lang, names, seat),
        )
        for seat in range(state.players)
    )
    public = _lines([e for e in events if e.public], lang, names, None)
    return Step(number, state.turn, public, view(state, None), secrets)


def _lines(
    events: Sequence[Event], lang: str, names: list[str], seat: int | None
) -> tuple[str, ...]:
    """What `seat` (None: the channel) read of `events`; a kind with no words of its own
    is left out, as the thread leaves it out."""
    try:
        return tuple(told.text for told in story(events, lang, names, seat))
    except MissingText:
        lines: list[str] = []
        for event in events:
            try:
                lines.extend(told.text for told in story([event], lang, names, seat))
            except MissingText:
                continue
        return tuple(lines)
