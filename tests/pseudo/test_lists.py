"""Lists and numbers a reader sees, written the reader's way. In the pseudo-locale the
catalogs' words are accented (`and` reads `áñd`), so a plain `and` can only be CLDR's,
written by Babel's list (`and_list`): a list joined with `", "` in code lacks it. A
number written by hand keeps English's decimal point in German and French.

Each screen that composed one is played here: the board's text, the picture's and the
GIF's descriptions, the simulator chart's description and numbers, the game page's
preview sentence, the replay's scores and the moderators' settings listing."""

from __future__ import annotations

import re

from bot.cli.replay import summary
from bot.discord_ui.lobby.message import lobby_message
from bot.discord_ui.moderation.config import config_embed
from bot.discord_ui.stats.history import _line
from bot.render.board_text import board_lines
from bot.render.chart import chart_picture
from bot.render.describe import board_description, chart_description, gif_description
from bot.render.examples import late_position
from bot.render.replay_gif import record_start
from bot.storage.models import RecentGame
from bot.table.lobby import Lobby
from bot.table.server_settings import ServerConfig
from bot.texts import t
from bot.texts.narrate import describe
from bot.texts.panel_text import private_lines
from bot.texts.pseudo import PSEUDO
from bot.web.pages import description
from bot.web.story import Score, Story
from lockdown_core import Step, apply, load_ruleset, new_game, replay, view
from tests.pseudo import leaks
from tests.render.test_chart import _series
from tests.render.test_replay_gif import _golden_record

NAMES = ["ana", "bo", "cy", "dee", "eve", "fay"]


def _lists(text: str, names: list[str] = NAMES) -> int:
    """How many of CLDR's lists `text` holds, once no word in it is unmarked."""
    assert leaks(text, names) == [], text
    return len(re.findall(r"\band\b", text))


def test_the_board_text_lists_characters_and_hands_as_the_language_does() -> None:
    state = late_position()
    lines = board_lines(view(state, None), NAMES, PSEUDO, state.rules)
    # The Clothing store's three characters, the Parking lot's five, the Cold storage's,
    # every seat's hand.
    assert [_lists(line) for line in lines if _lists(line)] == [1, 1, 1, 1], lines


def test_the_pictures_descriptions_list_as_the_language_does() -> None:
    state = late_position()
    # The figures of each location with free spots (characters and Monsters, free spots,
    # an attack) in one list: locations 2 to 5.
    assert _lists(board_description(view(state, None), state.rules, NAMES, PSEUDO)) == 4
    assert _lists(gif_description(_golden_record("game_3p"), PSEUDO, NAMES[:3])) == 1


def test_the_chart_s_description_lists_rulesets_and_writes_numbers_as_the_language_does() -> None:
    series = _series(PSEUDO, 5, [("hush",), ("barricades",)])
    # The rulesets compared, then their turns and their living characters.
    assert _lists(chart_description(series, 5, 12, PSEUDO)) == 3
    german = chart_description(_series("de", 5, [("hush",)]), 5, 12, "de")
    assert not re.search(r"\d\.\d", german), german


def test_the_chart_writes_its_percents_and_averages_as_the_language_does() -> None:
    _, drawn = chart_picture(_series("fr", 5, [("hush",)]), 5, 12, "fr")
    texts = [p.text for p in drawn.texts]
    assert not [x for x in texts if re.search(r"\d\.\d|\d%", x)], texts
    assert any(re.fullmatch(r"\d+\u00a0%", x) for x in texts), texts


def test_the_game_page_s_preview_lists_winners_and_scores_as_the_language_does() -> None:
    scores = (Score("ana", 7, True), Score("bo", 7, True), Score("cy", 2, False))
    story = Story(1, None, PSEUDO, load_ruleset(), ("ana", "bo", "cy"), (), scores)
    assert _lists(description(story)) == 2, "the winners, the scores"


def test_the_replay_s_scores_list_as_the_language_does() -> None:
    state, _ = replay(_golden_record("game_3p"))
    names = [t(PSEUDO, "board.seat", number=seat + 1) for seat in range(state.players)]
    assert _lists(summary(state, PSEUDO)[-1], names) == 1, "the scores (one winner)"


def test_the_settings_listing_lists_as_the_language_does() -> None:
    config = ServerConfig().with_value("variants_offered", ["hush", "armoury", "spare_keys"])
    embed = config_embed(config.with_value("ai_personas", ["loyalist", "gambler"]), PSEUDO)
    # The personas, the variants offered, the settings' names.
    assert _lists(embed.description or "", ["loyalist", "gambler"]) == 3


def test_a_hidden_character_is_one_catalog_text_not_two_glued() -> None:
    """ "Ana: Blocker" and " (hidden)" were two texts put end to end, in English's order:
    in the pseudo-locale, a marker closing right where the next opens."""
    state = late_position()
    placed = next(c for c in state.characters if c.location is not None)
    placed.hidden = True
    lines = board_lines(view(state, None), NAMES, PSEUDO, state.rules)
    assert "(híddéñ)" in "\n".join(lines)
    assert not [line for line in lines if "⟧⟦" in line], lines


def test_a_lobby_s_variants_are_the_language_s_list() -> None:
    lobby = Lobby(1, 2, 3, 4, variants=["hush", "barricades", "spare_keys"])
    embed, _ = lobby_message(lobby, PSEUDO)
    (variants,) = [f.value or "" for f in embed.fields if f.name == t(PSEUDO, "board.variants")]
    assert _lists(variants) == 1, variants


def test_a_server_s_history_lists_each_game_s_scores_as_the_language_does() -> None:
    game = RecentGame(
        game_id=1,
        finished_at=None,
        names=("ana", "bo", "cy"),
        ai_kinds=(None, None, None),
        scores=(7, 2, 7),
        winners=(True, False, True),
    )
    assert _lists(_line(PSEUDO, game, None)) == 1


def test_the_end_of_a_game_lists_every_seat_s_score_as_the_language_does() -> None:
    """The thread's last word on a game: each seat's points, one list."""
    state, _, moves = record_start(_golden_record("game_3p"))
    for action, revision in moves:
        events = apply(state, action, revision)
    (over,) = [e for e in events if e.kind == "game_over"]
    assert _lists(describe(over, PSEUDO, NAMES[:3]).splitlines()[1]) == 1


def test_the_cards_drawn_from_the_truck_are_the_language_s_list() -> None:
    """The searcher's panel names the cards they drew, to keep one and pass the rest."""
    state, _ = new_game(load_ruleset(), 3, 1)
    state.step, state.mover = Step.TRUCK_CHOICE, 0
    state.drawn = ["gun", "tin_can", "chainsaw"]
    lines = private_lines(PSEUDO, state, view(state, 0), 0, NAMES[:3])
    assert [line for line in lines if _lists(line)], lines
