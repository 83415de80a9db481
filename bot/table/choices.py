"""Turning a seat's legal actions into labelled choices, in a few clicks at most.

Discord shows at most 25 buttons at once; when a seat has more choices (an
Energy drink with many targets) they are grouped by the first part of their
code and narrowed one click at a time. The truck (R3.3) always takes two
steps when there is a card to give: first the card to keep, then which card
goes to whom, so even a six-seat table reads as a few short buttons.
"""

from __future__ import annotations

from functools import partial

from bot.table.codes import encode
from bot.texts import t
from bot.texts.catalog import Translate, and_list
from lockdown_core import (
    Action,
    BreakTie,
    ChooseDestination,
    Designate,
    Devour,
    Done,
    GameState,
    MoveCharacter,
    PlaceFamily,
    PlayCard,
    SearchTruck,
    move_target,
)
from lockdown_core.legal import placement_landing

MAX_CHOICES = 20


def character_label(state: GameState, character_id: int, say: Translate) -> str:
    c = state.characters[character_id]
    where = say(f"location.{c.location}") if c.location > 0 else "?"
    return say("ui.character", kind=say(f"kind.{c.kind}"), location=where)


def label(action: Action, state: GameState, names: list[str], lang: str, narrowed: str = "") -> str:
    """A short button label for one action, in the reader's language.

    `narrowed` is the group the reader already picked: once the card to keep
    is chosen, the truck's buttons only say what goes to whom.
    """
    say = partial(t, lang)
    if isinstance(action, Done):
        return say("action.done")
    if isinstance(action, Designate):
        return say("action.designate", name=names[action.candidate])
    if isinstance(action, BreakTie):
        return say("action.break_tie", name=names[action.candidate])
    if isinstance(action, ChooseDestination):
        return say("action.destination", location=say(f"location.{action.location}"))
    if isinstance(action, MoveCharacter):
        return _move_label(action, state, say)
    if isinstance(action, Devour):
        return say("action.devour", character=character_label(state, action.character, say))
    if isinstance(action, PlayCard):
        return _card_label(action, state, say)
    if isinstance(action, SearchTruck):
        return _truck_label(action, state, names, say, kept=bool(narrowed))
    if isinstance(action, PlaceFamily):
        return and_list(lang, _placements(action, state, say))
    raise TypeError(f"no label for {action!r}")


def _placements(action: PlaceFamily, state: GameState, say: Translate) -> list[str]:
    """R1.4: each character and its die, and which one a full location sends to the
    Parking lot: with two dice on a location that has one free spot left, that is
    what tells the options apart."""
    lands = placement_landing(state, action.order)
    parts = []
    for die, cid, to in zip(state.dice, action.order, lands, strict=True):
        kind = say(f"kind.{state.characters[cid].kind}")
        if to == die:
            parts.append(say("action.place_one", kind=kind, die=die))
        else:
            parts.append(
                say("action.place_one_full", kind=kind, die=die, location=say(f"location.{to}"))
            )
    return parts


def _move_label(action: MoveCharacter, state: GameState, say: Translate) -> str:
    """R5.4: a full destination sends the chosen character to the Parking lot instead.

    Saying so on the button keeps "Move Blocker (Restrooms)" from promising a
    trip that will not happen; the core says where the move lands. The mover's
    destination is theirs, and public by now anyway (R5.3), so the label gives
    nothing away.
    """
    character = character_label(state, action.character, say)
    to = move_target(state, action.seat)
    if to == state.destinations[action.seat]:
        return say("action.move", character=character)
    return say("action.move_full", character=character, location_to=say(f"location.{to}.to"))


def _card_label(action: PlayCard, state: GameState, say: Translate) -> str:
    card = say(f"card.{action.card}")
    if action.character is not None and action.location is not None:
        return say(
            "action.play_moving",
            card=card,
            character=character_label(state, action.character, say),
            location=say(f"location.{action.location}"),
        )
    if action.character is not None:
        return say(
            "action.play_on", card=card, character=character_label(state, action.character, say)
        )
    if action.location is not None:
        return say("action.play_to", card=card, location=say(f"location.{action.location}"))
    return say("action.play", card=card)


def _truck_label(
    action: SearchTruck, state: GameState, names: list[str], say: Translate, kept: bool
) -> str:
    drawn = state.drawn
    if action.give is None:
        return say("action.truck_keep", card=say(f"card.{drawn[action.keep or 0]}"))
    given = say(f"card.{drawn[action.give]}")
    receiver = names[action.give_to if action.give_to is not None else 0]
    if action.keep is None or kept:
        return say("action.truck_give", card=given, name=receiver)
    return say(
        "action.truck_keep_give", keep=say(f"card.{drawn[action.keep]}"), give=given, name=receiver
    )


def group_label(
    prefix: str, actions: list[Action], state: GameState, names: list[str], lang: str
) -> str:
    """The label of a button that opens a group of choices.

    A truck group is the card to keep ("Keep Gun", then who gets what), or the
    card to give (with a single card drawn, or once the card kept is chosen:
    then to whom); a placement group the dice its orders share ("Blocker → 4 and
    Weeper → 2, then the rest": a whole order of four characters would not fit a
    button in a language longer than English); any other group its first choice
    followed by "and more".
    """
    say = partial(t, lang)
    first = actions[0]
    if isinstance(first, PlaceFamily):
        orders = [a.order for a in actions if isinstance(a, PlaceFamily)]
        shared = next(
            (i for i in range(len(first.order)) if len({o[i] for o in orders}) > 1),
            len(first.order),
        )
        parts = _placements(first, state, say)[: max(shared, 1)]
        return say("panel.placements_then_rest", choices=and_list(lang, parts))
    if isinstance(first, SearchTruck) and prefix.startswith("S"):
        # The prefix names the card kept, then the card given: "S0", "S0.1".
        giving = len(prefix[1:].split(".")) > 1 or first.keep is None
        if first.keep is not None and not giving:
            return say("action.truck_keep", card=say(f"card.{state.drawn[first.keep]}"))
        if first.give is not None:
            return say("action.truck_give_away", card=say(f"card.{state.drawn[first.give]}"))
    return say("panel.more", choice=label(first, state, names, lang))


def _prefix(code: str, depth: int) -> str:
    fields = code[1:].split(".")
    return code[0] + ".".join(fields[:depth])


def arrange(actions: list[Action], state: GameState, narrowed: str = "") -> dict[str, list[Action]]:
    """Choices to show: `{code: [action]}` when few enough, else `{prefix: [actions…]}`.

    `narrowed` keeps only the actions under a group a person already picked.
    """
    rules = state.rules
    coded = {encode(a, rules): a for a in actions}
    if narrowed:
        coded = {c: a for c, a in coded.items() if c.startswith(narrowed + ".")}
    elif _truck_in_two_steps(coded):
        return _groups(coded, 1)
    if len(coded) <= MAX_CHOICES:
        return {code: [action] for code, action in coded.items()}
    groups: dict[str, list[Action]] = {}
    for depth in range(1, 4):
        groups = _groups(coded, depth)
        if 1 < len(groups) <= MAX_CHOICES:
            break
    return groups


def _groups(coded: dict[str, Action], depth: int) -> dict[str, list[Action]]:
    """Actions grouped by the first `depth` fields of their code; a group of one is
    keyed by its action's own code, so it is played in one click."""
    groups: dict[str, dict[str, Action]] = {}
    for code, action in coded.items():
        groups.setdefault(_prefix(code, depth), {})[code] = action
    return {
        (next(iter(members)) if len(members) == 1 else prefix): list(members.values())
        for prefix, members in groups.items()
    }


def _truck_in_two_steps(coded: dict[str, Action]) -> bool:
    """R3.3 with a gift to make: more than one choice shares the card kept (or given)."""
    actions = list(coded.values())
    if not actions or not all(isinstance(a, SearchTruck) for a in actions):
        return False
    groups = _groups(coded, 1)
    return 1 < len(groups) < len(coded)
