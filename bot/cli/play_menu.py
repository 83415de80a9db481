"""The terminal table's menu: which key picks which choice, and what each choice says.

Keys must not move under a typing hand: a location is always its own number
(1 to 6), a vote's candidate and a gift's receiver their seat's number (the
card given is chosen before its receiver), Done is always 0 (the other choices
count from 1), and vote candidates come in seat order whatever order the vote
lists them in. A placement names the locations its dice lead to, not just their
numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from bot.table.choices import arrange, group_label, label
from bot.table.codes import encode
from bot.texts import t
from bot.texts.catalog import and_list, or_list
from bot.texts.rules_text import vote_weights
from lockdown_core import (
    Action,
    BreakTie,
    Designate,
    Done,
    GameState,
    PlaceFamily,
    PlayCard,
    SearchTruck,
    legal_actions,
)
from lockdown_core.legal import placement_landing

# Done's key in every menu that offers it; also "Back" in a narrowed menu, which never does.
DONE_KEY = "0"

Menu = list[tuple[str, str, list[Action]]]


def menu_of(legal: list[Action], state: GameState, narrowed: str) -> Menu:
    """`(key, code, actions)` per choice: locations by their own number, Done by 0,
    anything else counted from 1 in a stable order."""
    shown = _card_before_seat(list(arrange(legal, state, narrowed).items()))
    shown.sort(key=lambda entry: _seat_order(entry[1]))
    places = [getattr(actions[0], "location", None) for _, actions in shown]
    by_place = all(len(a) == 1 for _, a in shown) and all(isinstance(p, int) for p in places)
    if by_place and len(set(places)) == len(places):
        return [(str(p), code, a) for p, (code, a) in zip(places, shown, strict=True)]
    seats = [_seat_key(actions) for _, actions in shown]
    if all(seats) and len(set(seats)) == len(seats):
        # A vote: each candidate by their seat's number, as the board and the names say it.
        return [(str(s), code, a) for s, (code, a) in zip(seats, shown, strict=True)]
    menu: Menu = []
    number = 0
    for code, actions in shown:
        if len(actions) == 1 and isinstance(actions[0], Done):
            menu.append((DONE_KEY, code, actions))
        else:
            number += 1
            menu.append((str(number), code, actions))
    return menu


def _card_before_seat(shown: list[tuple[str, list[Action]]]) -> list[tuple[str, list[Action]]]:
    """R3.3: gifts of more than one card are grouped by the card given, so that the card
    is chosen first and then the player who gets it, by their seat's number."""
    gifts = [
        a[0]
        for _, a in shown
        if len(a) == 1 and isinstance(a[0], SearchTruck) and a[0].give_to is not None
    ]
    if not shown or len(gifts) < len(shown):
        return shown
    by_card: dict[str, list[tuple[str, Action]]] = {}
    for code, actions in shown:
        by_card.setdefault(code.rsplit(".", 1)[0], []).append((code, actions[0]))
    if len(by_card) < 2:
        return shown
    # A card with a single receiver is played at once, keyed by its own code.
    return [
        (members[0][0] if len(members) == 1 else card, [action for _, action in members])
        for card, members in by_card.items()
    ]


def _seat_key(actions: list[Action]) -> int | None:
    """The seat number (from 1) a single choice names: a vote's candidate, a gift's
    receiver; None for any other choice."""
    first = actions[0]
    if len(actions) == 1 and isinstance(first, Designate | BreakTie):
        return first.candidate + 1
    if len(actions) == 1 and isinstance(first, SearchTruck) and first.give_to is not None:
        return first.give_to + 1
    return None


def _seat_order(actions: list[Action]) -> int:
    """Vote candidates by seat (R2.2 lists them as the board finds them); other choices
    keep the order they come in (a stable sort)."""
    first = actions[0]
    if isinstance(first, Designate | BreakTie):
        return first.candidate
    return 0


def single(actions: list[Action], code: str, state: GameState) -> bool:
    """Whether a menu entry plays at once (else it opens a group of choices)."""
    return len(actions) == 1 and encode(actions[0], state.rules) == code


def entry_text(
    code: str,
    actions: list[Action],
    state: GameState,
    names: list[str],
    lang: str,
    narrowed: str,
) -> str:
    """The words of one menu entry, as Discord's button says them, except a placement."""
    if not single(actions, code, state):
        return group_label(code, actions, state, names, lang)
    action = actions[0]
    if isinstance(action, PlaceFamily):
        return placement_text(action, state, lang)
    return label(action, state, names, lang, narrowed)


def placement_text(action: PlaceFamily, state: GameState, lang: str) -> str:
    """R1.4: each character, the location it lands in, and its die; a full location
    says where the character goes instead: one list, as `lang` writes it."""
    say = partial(t, lang)
    parts = []
    lands = placement_landing(state, action.order)
    for die, cid, to in zip(state.dice, action.order, lands, strict=True):
        kind = say(f"kind.{state.characters[cid].kind}")
        if to == die:
            parts.append(say("play.place_one", kind=kind, location=say(f"location.{to}"), die=die))
        else:
            parts.append(
                say(
                    "play.place_one_full",
                    kind=kind,
                    location=say(f"location.{to}"),
                    die=die,
                    full=say(f"location.{die}"),
                )
            )
    return and_list(lang, parts)


def menu_signature(state: GameState, seat: int) -> tuple[object, ...]:
    """What the menu on screen shows: the seat's choices and the vote's weights. When a
    card changes either (Rotten meat hides a voter, a Gun adds a vote), it is redrawn."""
    codes = tuple(encode(a, state.rules) for a in legal_actions(state, seat))
    return codes, tuple(vote_weights(state).items())


def menu_choices(lang: str, menu: Sequence[tuple[str, str, list[Action]]]) -> str:
    """What the prompt accepts, one choice as `lang` writes it: the menu's keys, then
    the first word of each command (board, hand, rules, quit) in `lang`."""
    keys = ("play.keys.board", "play.keys.hand", "play.keys.rules", "play.keys.quit")
    commands = [t(lang, key).split(",")[0] for key in keys]
    return or_list(lang, [*(key for key, _, _ in menu), *commands])


def offered_cards(menu: Menu, state: GameState) -> list[str]:
    """The cards the menu offers, in the order it offers them, each once: the cards of
    the truck to keep or give, the cards of a hand to play. Each is described under the
    menu, so that nobody chooses a card by its name alone."""
    cards: list[str] = []
    for _, _, actions in menu:
        for action in actions:
            if isinstance(action, PlayCard):
                named = [action.card]
            elif isinstance(action, SearchTruck):
                named = [state.drawn[i] for i in (action.keep, action.give) if i is not None]
            else:
                named = []
            cards += [card for card in named if card not in cards]
    return cards
