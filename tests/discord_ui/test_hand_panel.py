"""The My hand panel: the truck in two steps at every table size and language, the kinds
explained, the voters' weights, the badge holder told why the dice stayed hidden.

Built on real positions of the core (`tests.core.builders`) and real `Table`s, and
checked against Discord's limits: at most 25 components, 5 per row, labels of at
most 80 characters (never cut), custom ids of at most 100.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.discord_ui.game.panel import hand_panel
from bot.table.choices import arrange
from bot.table.codes import decode
from bot.table.presenter import Update
from bot.table.seats import Seat
from bot.table.table import Table
from bot.texts import t
from bot.texts.catalog import LANGUAGES, and_list
from lockdown_core import GameState, SearchTruck, Step, apply, legal_actions
from tests.core.builders import PARKING, SURVEILLANCE, at_badge, at_destinations, at_turn, position

# Discord's longest display names are 32 characters.
LONG_NAMES = [f"{letter * 28}-{i:03}" for i, letter in enumerate("ABCDEF")]
DECK = ["molotov_cocktail", "keys_of_the_truck", "baseball_bat", "gun", "tin_can"]


class Silent:
    async def show(self, table: Table, update: Update) -> None:
        """Nothing to show: these tests read the panel only."""


class NoTimers:
    def call_later(self, delay: float, callback: Any) -> Any:
        raise AssertionError("no timer in a panel test")


def table_of(state: GameState, names: list[str]) -> Table:
    seats = [Seat(i, names[i], user_id=100 + i) for i in range(state.players)]
    return Table(7, state, seats, Silent(), NoTimers(), lambda kind, seat, _seed: None)  # type: ignore[arg-type]


def truck_table(
    players: int, deck: list[str] | None = None, variants: tuple[str, ...] = ()
) -> Table:
    """Seat 0 alone in the Parking lot searches the truck (R3.2: no vote needed)."""
    families: list[dict[str, Any]] = [{"blocker": PARKING, "leader": 1, "weeper": 2}]
    families += [{"blocker": 4, "leader": 5, "weeper": 2 + i % 2} for i in range(players - 1)]
    state = position(
        *families, deck=DECK if deck is None else deck, badge=1, martyr=2, variants=variants
    )
    at_turn(state)
    assert state.step == Step.TRUCK_CHOICE
    assert state.mover == 0
    return table_of(state, LONG_NAMES[:players])


def buttons(view: discord.ui.View) -> list[discord.ui.Button[Any]]:
    found = []
    for item in view.children:
        inner = getattr(item, "item", item)
        assert isinstance(inner, discord.ui.Button)
        found.append(inner)
    return found


def check_limits(view: discord.ui.View) -> list[discord.ui.Button[Any]]:
    """The panel's choices (its seat buttons, Leave and End, are counted in the limits
    but not returned: `test_seats_panel` checks them)."""
    found = buttons(view)
    assert len(found) <= 25
    rows = view.to_components()
    assert len(rows) <= 5
    assert all(len(row["components"]) <= 5 for row in rows)
    for button in found:
        assert button.label is not None
        assert 1 <= len(button.label) < 80, button.label
        assert button.custom_id is not None
        assert len(button.custom_id) <= 100
    return [b for b in found if not (b.custom_id or "").startswith("ld:s:")]


def group_prefix(custom_id: str) -> str:
    return custom_id.rsplit(":", 1)[1]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_truck_asks_the_card_to_keep_then_what_goes_to_whom(players: int, lang: str) -> None:
    table = truck_table(players)
    state = table.state
    _, view = hand_panel(table, 0, lang, LONG_NAMES[:players], [])
    first = check_limits(view)
    kept = [t(lang, "action.truck_keep", card=t(lang, f"card.{c}")) for c in state.drawn]
    assert [b.label for b in first] == kept
    assert all(b.custom_id and b.custom_id.startswith("ld:g:7:") for b in first)
    more = t(lang, "panel.more", choice="").strip()
    every = set()
    for keep, button in enumerate(first):
        assert button.custom_id is not None
        prefix = group_prefix(button.custom_id)
        _, second = hand_panel(table, 0, lang, LONG_NAMES[:players], [], narrowed=prefix)
        found = check_limits(second)
        acts, back = found[:-1], found[-1]
        assert back.label == t(lang, "panel.back")
        assert back.custom_id == "ld:h:7"
        # Two cards to give, to each other seat: nothing left out, nothing "and more".
        assert len(acts) == 2 * (players - 1)
        for act in acts:
            assert act.label is not None
            assert more not in act.label
            assert act.custom_id is not None
            assert act.custom_id.startswith("ld:a:7:")
            action = decode(group_prefix(act.custom_id), 0, state.rules)
            assert isinstance(action, SearchTruck)
            assert action.keep == keep
            assert action.give is not None
            assert action.give_to is not None
            card = t(lang, f"card.{state.drawn[action.give]}")
            assert act.label == t(
                lang, "action.truck_give", card=card, name=LONG_NAMES[action.give_to]
            )
            every.add(action)
    assert every == set(legal_actions(state, 0))


def test_a_single_card_is_kept_in_one_click_or_given_in_two() -> None:
    table = truck_table(4, deck=["gun"])
    _, view = hand_panel(table, 0, "en", LONG_NAMES[:4], [])
    keep, give = check_limits(view)
    assert keep.label == "Keep Gun"
    assert keep.custom_id is not None
    assert keep.custom_id.startswith("ld:a:")
    assert give.label == "Give Gun away"
    assert give.custom_id is not None
    assert give.custom_id.startswith("ld:g:")
    _, second = hand_panel(table, 0, "en", LONG_NAMES[:4], [], group_prefix(give.custom_id))
    labels = [b.label for b in check_limits(second)]
    assert labels == [f"Give Gun to {n}" for n in LONG_NAMES[1:4]] + ["Back"]


def test_rationing_keeps_in_one_click_since_there_is_nothing_to_give() -> None:
    state = truck_table(6, variants=("rationing",)).state
    choices = arrange(legal_actions(state, 0), state)
    assert all(len(actions) == 1 for actions in choices.values())
    assert len(choices) == 2


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_panel_explains_the_kinds_dealt_with_this_games_numbers(lang: str) -> None:
    table = truck_table(4)
    embed, _ = hand_panel(table, 1, lang, LONG_NAMES[:4], [])
    field = next(f for f in embed.fields if f.name == t(lang, "panel.kinds"))
    assert field.value is not None
    lines = field.value.splitlines()
    assert [line.split("**")[1] for line in lines] == [
        t(lang, f"kind.{k}") for k in ("weeper", "blocker", "leader")
    ]
    assert t(lang, "kind.useless") not in field.value
    blocker = lines[1]
    assert (
        t(
            lang,
            "kind.stats",
            strength=2,
            votes=t(lang, "count.vote_one", count=1),
            points=t(lang, "count.point_other", count=5),
        )
        in blocker
    )


def test_tough_crowd_blockers_read_strength_three() -> None:
    table = truck_table(4, variants=("tough_crowd",))
    embed, _ = hand_panel(table, 0, "en", LONG_NAMES[:4], [])
    field = next(f for f in embed.fields if f.name == "Characters")
    assert field.value is not None
    assert "Strength 3, 1 vote, 5 points" in field.value


def surveillance_vote() -> Table:
    """Seats 0 and 1 in the Surveillance room: the badge vote; seat 1 has two Leaders' worth."""
    families: list[dict[str, Any]] = [
        {"blocker": SURVEILLANCE, "leader": 1, "weeper": 2},
        {"blocker": 4, "leader": SURVEILLANCE, "weeper": 2},
        {"blocker": 4, "leader": 5, "weeper": 2},
    ]
    state = position(*families, deck=DECK, badge=2, martyr=1)
    at_badge(state)
    assert state.step == Step.DESIGNATION
    assert state.vote is not None
    return table_of(state, ["Ana", "Émile", "Zoë"])


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "Voters and their weight: Ana (1 vote) and Émile (2 votes)"),
        ("fr", "Votants et leur poids\u00a0: Ana (1 voix) et Émile (2 voix)"),
    ],
)
def test_the_voters_are_shown_beside_their_weight(lang: str, expected: str) -> None:
    table = surveillance_vote()
    embed, _ = hand_panel(table, 0, lang, ["Ana", "Émile", "Zoë"], [])
    now = next(f for f in embed.fields if f.name == t(lang, "panel.now"))
    assert now.value is not None
    assert expected in now.value.splitlines()


def destinations(seen: tuple[int, ...], variants: tuple[str, ...] = ()) -> Table:
    families: list[dict[str, Any]] = [{"blocker": 1, "leader": 1, "weeper": 2}] * 3
    state = position(*families, deck=DECK, badge=0, martyr=1, variants=variants)
    at_destinations(state, [1, 2, 3, 4], seen=seen)
    return table_of(state, ["Ana", "Bob", "Cy"])


def private_field(table: Table, seat: int, lang: str = "en") -> str:
    embed, _ = hand_panel(table, seat, lang, ["Ana", "Bob", "Cy"], [])
    fields = [f.value for f in embed.fields if f.name == t(lang, "panel.private")]
    return fields[0] or "" if fields else ""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_badge_kept_without_a_vote_tells_its_holder_why_the_dice_stayed_hidden(
    lang: str,
) -> None:
    table = destinations(seen=())
    assert t(lang, "dice.unseen.kept") in private_field(table, 0, lang)
    # Only the holder is told, and a holder who saw the dice is not.
    assert t(lang, "dice.unseen.kept") not in private_field(table, 1, lang)
    seen = destinations(seen=(0,))
    assert t(lang, "dice.unseen.kept") not in private_field(seen, 0, lang)
    assert t(lang, "panel.dice", dice=and_list(lang, ["1", "2", "3", "4"])) in private_field(
        seen, 0, lang
    )


def test_blind_cameras_give_their_own_reason() -> None:
    table = destinations(seen=(), variants=("blind_cameras",))
    assert t("en", "dice.unseen.blind") in private_field(table, 0)


def test_a_secret_choice_says_it_can_change_only_while_it_can() -> None:
    table = destinations(seen=(0,))
    state = table.state
    action = next(a for a in legal_actions(state, 0))
    apply(state, action)
    assert state.step == Step.DESTINATIONS
    choice = next(a for a in legal_actions(state, 1))
    apply(state, choice)
    assert t("en", "panel.change_until_reveal") in private_field(table, 1)
    assert t("en", "panel.change_until_reveal") not in private_field(table, 2)
