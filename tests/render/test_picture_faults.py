"""The pictures' small faults, each pinned: the GIF's first caption whole, its last frame
showing every location beside the scores, the hand size drawn as cards, and alt texts
whose plurals and winners read as words."""

from __future__ import annotations

import re

import pytest

from bot.render.board_image import PAD, WIDTH
from bot.render.canvas import TITLE_SIZE, text_width
from bot.render.describe import board_description, gif_description
from bot.render.examples import late_position
from bot.render.palette import DIM
from bot.render.replay_gif import Frame, frame_picture, frames, record_start, shown_names
from bot.texts import catalog, t
from bot.texts.catalog import LANGUAGES
from lockdown_core import Step, load_ruleset, new_game, view
from lockdown_core.board_facts import location_facts
from tests.render.checks import check_texts
from tests.render.test_replay_gif import _golden_record

LONG = [f"Bartholomew Featherstonehaugh {i}" for i in range(6)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_first_caption_ends_on_a_whole_sentence(lang: str) -> None:
    state, opening, moves = record_start(_golden_record("game_4p_hoarders"))
    names = shown_names(state, lang, None)
    first = frames(state, opening, moves, lang, names)[0].caption
    assert text_width(first) <= WIDTH - 2 * PAD, "drawn whole, not cut by the board"
    assert first.endswith("."), first
    assert "…" not in first


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_last_frame_shows_every_location_beside_the_scores(lang: str) -> None:
    state, opening, moves = record_start(_golden_record("game_4p_hoarders"))
    names = shown_names(state, lang, None)
    last = frames(state, opening, moves, lang, names)[-1]
    _, drawn = frame_picture(last, state.rules, lang, names)
    check_texts(drawn)
    texts = [p.text for p in drawn.texts]
    assert t(lang, "event.game_over") in texts
    for loc in range(1, 7):
        first_word = t(lang, f"location.{loc}").split()[0]
        assert any(text.startswith(first_word) for text in texts), (loc, texts)


def test_each_seats_hand_size_is_drawn_beside_a_card_not_as_a_bare_number() -> None:
    state, _ = new_game(load_ruleset(), 4, 3)
    data = view(state, None)
    picture, drawn = frame_picture(Frame(data, "", 0), state.rules, "en", ["A", "B", "C", "D"])
    assert not any(re.fullmatch(r"\(\d+\)", p.text) for p in drawn.texts), "no bare (1)"
    counts = [p for p in drawn.texts if not p.bold and p.text == str(data["hand_sizes"][0])]
    assert len(counts) == 4, "each seat's hand size is written"
    rgb = picture.convert("RGB")
    for count in counts:
        x0, y0, _, y1 = count.box
        # The card's outline, in the dim colour of the count, just left of it.
        row = {rgb.getpixel((x0 - dx, (y0 + y1) // 2)) for dx in range(1, 26)}
        assert DIM in row, count


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_short_board_description_counts_free_spots_in_the_languages_plural(lang: str) -> None:
    state = late_position()
    data = view(state, None)
    text = board_description(data, state.rules, LONG, lang)
    free = location_facts(data, state.rules).free
    assert 1 in free.values(), "the position has a location with a single free spot"
    for spots in free.values():
        assert catalog().count(lang, "free_spot", spots) in text
    assert "1 free spots" not in text
    assert "1 cases libres" not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_gif_description_names_the_winner_in_words(lang: str) -> None:
    record = _golden_record("game_3p")
    names = ["Ana", "Bo", "Chloé"]
    text = gif_description(record, lang, names)
    assert "★" not in text
    state, opening, moves = record_start(record)
    result = frames(state, opening, moves, lang, names)[-1].data["result"]
    for seat in result["winners"]:
        points = catalog().count(lang, "point", result["scores"][seat])
        assert t(lang, "board.final_score_winner", name=names[seat], points=points) in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_step_s_name_fits_beside_a_two_digit_turn(lang: str) -> None:
    """The header gives the step and the deck what the title leaves (`render_board`): a
    long step name there would be cut ("El destino de quien tiene la placa · maz…")."""
    title = text_width(t(lang, "board.title", turn=19), TITLE_SIZE, bold=True)
    room = WIDTH - 2 * PAD - title - 20
    for step in (value for name, value in vars(Step).items() if name.isupper()):
        status = t(lang, "board.picture_status", step=t(lang, f"step.{step}.name"), deck=25)
        assert text_width(status) <= room, status
