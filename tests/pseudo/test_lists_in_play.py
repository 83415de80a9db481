"""The lists a seat reads while it plays, as the language writes them: the dice, the
votes' choices and totals, the lesson's rules and voters, the arrivals' reasons, the
placement buttons and the terminal's menu, and the refusals that name what is allowed.

As in `test_lists`, the pseudo-locale's catalog words are accented, so a plain `and`
(or `or`) can only come from CLDR through Babel; a list joined with `", "` in code has
none. Each test counts the lists a screen must hold."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

import pytest

from bot.cli.main import dispatch
from bot.cli.play_menu import menu_choices, menu_of, placement_text
from bot.discord_ui.moderation.config import _shown, persona_name
from bot.table.choices import group_label, label
from bot.table.lobby import Lobby, LobbyError
from bot.table.server_settings import ServerConfig, SettingError
from bot.texts import t
from bot.texts.narrate import describe, story
from bot.texts.panel_text import private_lines
from bot.texts.pseudo import CLOSE, OPEN, PSEUDO
from bot.texts.rules_text import guide, kind_lines, voters_text
from bot.texts.teach import teach_lines
from bot.texts.teach_board import mall_facts
from lockdown_core import Event, GameState, PlaceFamily, Timeout, legal_actions, load_ruleset, view
from tests.core.builders import act, at_destinations, at_placement, new_setup, position
from tests.pseudo import leaks

NAMES = ["ana", "bo", "cy", "dee"]


def _lists(text: str, names: list[str] = NAMES) -> int:
    """How many of CLDR's `and` lists `text` holds, once no word in it is unmarked."""
    assert leaks(text, names) == [], text
    return len(re.findall(r"\band\b", text))


def _choices(text: str, names: list[str] = NAMES) -> int:
    """How many of CLDR's `or` lists `text` holds."""
    assert leaks(text, names) == [], text
    return len(re.findall(r"\bor\b", text))


def _dice_known() -> GameState:
    """The badge holder, who has seen tonight's dice (1, 2, 3, 4), at its destination."""
    families: list[dict[str, int | str]] = [{"blocker": 1, "leader": 1, "weeper": 2}] * 3
    state = position(*families, badge=0, martyr=1)
    at_destinations(state, [1, 2, 3, 4], seen=(0,))
    return state


def test_the_dice_are_the_language_s_list_in_the_story_the_panel_and_the_lesson() -> None:
    told = story([Event("monsters_arrive", {"dice": [1, 1, 4, 5, 2]})], PSEUDO, NAMES[:3])
    assert [_lists(line.text) for line in told] == [1]
    state = _dice_known()
    panel = private_lines(PSEUDO, state, view(state, 0), 0, NAMES[:3])
    assert [line for line in panel if _lists(line) == 1], panel
    lesson = teach_lines(PSEUDO, state, 0, NAMES[:3])
    # The dice the holder knows, the rules that apply (R5.1 and R5.2).
    assert sum(_lists(line) for line in lesson) == 2, lesson


def test_a_vote_s_choices_and_totals_are_two_lists() -> None:
    data = {
        "vote": "badge",
        "location": 3,
        "designations": {"0": 2, "2": 2},
        "weights": {"0": 1, "1": 2, "2": 1},
        "totals": {"0": 0, "1": 0, "2": 2},
    }
    line = describe(Event("designations_revealed", data), PSEUDO, NAMES[:3])
    assert _lists(line) == 2, line


def test_the_arrivals_reasons_at_a_location_are_one_list() -> None:
    events = [Event("monsters_arrive", {"dice": [1]})]
    events += [
        Event("monster_added", {"location": 1, "intended": 1, "reason": why})
        for why in ("die", "weepers", "crowd")
    ]
    told = [line.text for line in story(events, PSEUDO, NAMES[:3])]
    assert [_lists(line) for line in told] == [0, 1], told


def test_the_voters_the_kinds_numbers_and_the_closing_locations_are_lists() -> None:
    assert _lists(voters_text(PSEUDO, {0: 1, 1: 2, 2: 1}, NAMES)) == 1
    # The points, the strengths and the votes of each kind, one list each.
    assert _lists(guide(PSEUDO, load_ruleset())) == 3
    # Where the Useless plays, when not at every table size: one of them.
    rules = load_ruleset().model_copy(update={"useless_at_player_counts": (3, 4)})
    (useless,) = kind_lines(PSEUDO, rules, ["useless"], note_useless=True)
    assert _choices(useless) == 1, useless
    state = _dice_known()
    for loc in (1, 2):
        state.monsters[loc] = state.rules.close_at - 1
    facts_lines = mall_facts(PSEUDO, state, [1, 2, 3])
    assert _lists(facts_lines[-1]) == 1, facts_lines


def _placing() -> tuple[GameState, list[PlaceFamily]]:
    """Seat 0 places three characters (dice 1, 1, 5), one free spot left in the Restrooms."""
    state = new_setup(4, badge=2, martyr=0, dice=[1, 1, 2, 2, 3, 4, 1, 1, 5])
    at_placement(state)
    act(state, Timeout(), Timeout())
    options = [o for o in legal_actions(state, 0) if isinstance(o, PlaceFamily)]
    return state, options


def test_a_placement_is_the_language_s_list_on_a_button_and_at_the_terminal() -> None:
    state, options = _placing()
    assert _lists(label(options[0], state, NAMES, PSEUDO)) == 1
    assert _lists(placement_text(options[0], state, PSEUDO)) == 1
    # A group of orders names the placements they share: here the first one only.
    grouped = group_label("P", [*options], state, NAMES, PSEUDO)
    assert leaks(grouped, NAMES) == [], grouped


def test_the_terminal_s_prompt_offers_its_keys_as_one_choice() -> None:
    state, _ = _placing()
    menu = menu_of(legal_actions(state, 0), state, "")
    text = t(PSEUDO, "play.bad_choice", choices=menu_choices(PSEUDO, menu))
    assert _choices(text) == 1, text


@pytest.mark.parametrize(
    ("key", "value"),
    [("language", "pt"), ("ai_level", "genius"), ("allow_ai", "perhaps"), ("nonsense", 1)],
)
def test_a_refused_setting_names_what_is_allowed_as_the_language_lists(
    key: str, value: object
) -> None:
    with pytest.raises(SettingError) as refused:
        ServerConfig().with_value(key, value)
    text = t(PSEUDO, refused.value.key, **refused.value.params)
    names = ["en", "fr", "de", "es", "random", "cautious", "shrewd", "on", "off"]
    assert _choices(text, names) + _lists(text, names) == 1, text


def test_a_refused_ai_level_in_a_lobby_offers_the_levels_as_one_choice() -> None:
    lobby = Lobby(1, 2, 3, 4)
    with pytest.raises(LobbyError) as refused:
        lobby.add_ai(4, kind="genius")
    assert refused.value.key == "error.lobby_bad_ai"
    text = t(PSEUDO, refused.value.key, **refused.value.params)
    assert _choices(text, ["random", "cautious", "shrewd"]) == 1, text


def test_a_setting_s_list_value_and_a_persona_s_name_are_written_by_the_catalog() -> None:
    shown = _shown("variants_offered", ["hush", "armoury"], PSEUDO)
    assert _lists(shown, ["hush", "armoury"]) == 1, shown
    named = persona_name(partial(t, PSEUDO), "loyalist")
    assert named.startswith(OPEN), named
    assert named.endswith(CLOSE), named


def test_a_resumed_game_names_the_options_to_leave_out_as_one_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "scenario.json"
    saved.write_text('{"players": 3, "seed": 1}', "utf-8")
    given = ["--seed", "2", "--players", "4", "--lang", PSEUDO]
    assert dispatch(["play", "--resume", str(saved), *given]) == 2
    refused = capsys.readouterr().err
    assert _lists(refused.replace("--resume", ""), ["seed", "players", "FILE"]) == 1, refused


def test_a_group_of_placements_says_and_once_then_the_rest() -> None:
    """Orders of four characters that share their first two placements: the button
    lists those two, then says the rest follows ("A and B, then the rest"), never
    "A and B and more" with two "and"s."""
    state = new_setup(3, badge=2, martyr=0, dice=[1, 2, 3, 4, 1, 2, 3, 4, 2, 3, 4, 5])
    at_placement(state)
    act(state, Timeout())
    options = [o for o in legal_actions(state, 0) if isinstance(o, PlaceFamily)]
    group = [o for o in options if o.order[:2] == options[0].order[:2]]
    assert len(group) == 2, options
    grouped = group_label("P", group, state, NAMES, "en")
    assert grouped.count(" and ") == 1, grouped
    assert grouped.endswith(", then the rest…"), grouped
