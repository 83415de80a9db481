"""Every text of the pictures inside the box it belongs to, in every language and in the
pseudo-locale: the board, the end of a game (the GIF's last frame, its scores over the
board), every GIF frame, the season's podium and the simulator's chart. `check_boxes`
measures each text with Pillow's `textbbox` where it was drawn; a text too long for its
box may be cut, but only with an ellipsis the reader sees."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.render.board_image import board_picture
from bot.render.chart import chart_picture
from bot.render.examples import NAMES, late_position
from bot.render.labels import board_labels
from bot.render.podium import Finisher, podium_picture
from bot.render.replay_gif import frame_picture, frames, record_start, shown_names
from bot.texts import t
from bot.texts.catalog import LANGUAGES
from bot.texts.pseudo import PSEUDO
from lockdown_core import GameState, view
from lockdown_core.board_facts import board_facts
from tests.render.checks import check_boxes, check_texts
from tests.render.test_chart import _series
from tests.render.test_replay_gif import _golden_record

EVERY = (*LANGUAGES, PSEUDO)
# Six seats' longest names: the legend and the scores give way to them without leaving
# their boxes.
LONG_NAMES = [*NAMES[:5], "Bartholomew-Maximilian Featherstonehaugh"]


def _board(state: GameState, lang: str, names: list[str], **planted: object) -> None:
    data = view(state, None)
    rules = state.rules
    facts = board_facts(data, rules)

    def say(key: str, **params: object) -> str:
        return t(lang, key, **params)

    labels = replace(board_labels(data, rules, names, say, facts), **planted)
    _, drawn = board_picture(
        data,
        labels,
        {loc.id: loc.character_spots for loc in rules.locations},
        {loc.id: loc.monster_spots for loc in rules.locations},
        list(rules.cold_storage_rows),
        facts,
    )
    check_boxes(drawn)
    check_texts(drawn)


@pytest.mark.parametrize("lang", EVERY)
def test_the_board_keeps_each_text_in_its_box(lang: str) -> None:
    _board(late_position(), lang, LONG_NAMES)


@pytest.mark.parametrize("lang", EVERY)
@pytest.mark.parametrize("game", ["game_3p", "game_4p_hoarders"])
def test_every_gif_frame_and_the_end_keep_each_text_in_its_box(lang: str, game: str) -> None:
    state, opening, moves = record_start(_golden_record(game))
    shown = shown_names(state, lang, LONG_NAMES)
    moments = frames(state, opening, moves, lang, shown)
    assert moments[-1].data["result"] is not None, "the last frame is the end, with scores"
    for moment in moments:
        image, drawn = frame_picture(moment, state.rules, lang, shown)
        check_boxes(drawn)
        check_texts(drawn, image.width, image.height)


@pytest.mark.parametrize("lang", EVERY)
@pytest.mark.parametrize("count", [0, 3])
def test_the_podium_keeps_each_text_in_its_box(lang: str, count: int) -> None:
    top = [
        Finisher(LONG_NAMES[place] * 2, 1040 - place, 300, 120 - place) for place in range(count)
    ]
    variant = t(lang, "variant.barricades.name")
    image, drawn = podium_picture(lang, 12, top, variant, 1057)
    check_boxes(drawn)
    check_texts(drawn, image.width, image.height)


def test_a_planted_over_long_token_word_is_caught_outside_its_legend_cell() -> None:
    """The badge's word is drawn whole after a name: one too long for the seat's half of
    the legend leaves its box."""
    state = late_position()
    with pytest.raises(AssertionError, match="outside its box"):
        _board(state, "en", LONG_NAMES, badge="Security badge holder of the whole mall")


def test_a_planted_name_cut_to_nothing_is_caught() -> None:
    """A badge's word that leaves the seat's name less room than a letter and an ellipsis:
    the name is not drawn at all, and nothing shows it was there."""
    state = late_position()
    with pytest.raises(AssertionError, match="cut to nothing"):
        _board(state, "en", LONG_NAMES, badge="Security badge holder")


@pytest.mark.parametrize("lang", EVERY)
@pytest.mark.parametrize("players", [3, 6])
def test_the_chart_keeps_each_text_in_its_panel(lang: str, players: int) -> None:
    """Titles, legend and note in the header; each panel's title, axis, values and key in
    the panel; each group's label under its own slot, however long the language makes it."""
    series = _series(lang, players, [("hush",), ("barricades", "tough_crowd"), ("creche",)])
    image, drawn = chart_picture(series, players, 12, lang)
    check_boxes(drawn)
    check_texts(drawn, image.width, image.height)
