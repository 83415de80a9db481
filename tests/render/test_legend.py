"""The legend: both tokens of a seat always written in full, whatever the names."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from bot.render.board_image import FOOTER, board_picture
from bot.render.canvas import Drawn
from bot.render.labels import board_labels, board_png
from bot.render.legend import GAP, LEGEND_COLS, LEGEND_W, LINE, PAD
from bot.texts import t
from bot.texts.catalog import LANGUAGES
from lockdown_core import load_ruleset, new_game, view
from lockdown_core.board_facts import board_facts
from tests.render.checks import check_texts
from tests.render.test_tokens import _apart, _silhouette

LONG = "Bartholomew-Maximilian Featherstonehaugh"


def _say(lang: str) -> Callable[..., str]:
    return lambda key, **params: t(lang, key, **params)


def _legend(lang: str, badge: int, martyr: int, names: list[str]) -> Drawn:
    state, _ = new_game(load_ruleset(), 6, 4)
    state.badge, state.martyr = badge, martyr
    state.hands[badge] = ["gun"] * 12  # a two-digit hand size
    data = view(state, None)
    rules = state.rules
    facts = board_facts(data, rules)
    _, drawn = board_picture(
        data,
        board_labels(data, rules, names, _say(lang), facts),
        {loc.id: loc.character_spots for loc in rules.locations},
        {loc.id: loc.monster_spots for loc in rules.locations},
        list(rules.cold_storage_rows),
        facts,
    )
    check_texts(drawn)
    return drawn


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seat", [0, 3, 5])
def test_one_seat_holding_badge_and_martyr_shows_both_words_whole(lang: str, seat: int) -> None:
    names = [f"{LONG} {i}" for i in range(6)]
    drawn = _legend(lang, seat, seat, names)
    both = f"{t(lang, 'board.badge')} {t(lang, 'board.martyr')}"
    texts = [p.text for p in drawn.texts]
    assert texts.count(both) == 1
    # Only the names give way, each still beginning as it should.
    cut = [p for p in drawn.texts if p.text.startswith("Bart")]
    assert len(cut) == 6
    assert all(p.text.endswith("…") and len(p.text) > 5 for p in cut)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_two_holders_each_show_their_token_and_a_short_name_is_not_cut(lang: str) -> None:
    drawn = _legend(lang, 1, 4, ["Ana", "Bo", "Chloé", "Dmitri", "Émile", "Fei"])
    texts = [p.text for p in drawn.texts]
    assert texts.count(t(lang, "board.badge")) == 1
    assert texts.count(t(lang, "board.martyr")) == 1
    assert {"Ana", "Bo", "Chloé", "Dmitri", "Émile", "Fei", "12"} <= set(texts)


def test_each_seat_in_the_legend_wears_its_familys_shape_seen_in_grey() -> None:
    """Without colour, the mark beside a name is still its family's token outline."""
    state, _ = new_game(load_ruleset(), 6, 4)
    png = board_png(view(state, None), state.rules, list("ABCDEF"), _say("en"))
    grey = Image.open(io.BytesIO(png)).convert("L")
    shapes = [_silhouette(seat, 11) for seat in range(6)]
    for seat in range(6):
        col, row = seat % LEGEND_COLS, seat // LEGEND_COLS
        cx = PAD + col * (LEGEND_W + GAP) + 12
        cy = FOOTER + 34 + LINE + 6 + row * (LINE + 6) + 13
        # Only the mark: the name starts 18 px to its right, the next row 32 px below.
        mark = Image.new("L", (64, 64), 0)
        mark.paste(grey.crop((cx - 16, cy - 16, cx + 16, cy + 16)), (16, 16))
        mark = mark.point(lambda v: 255 if v > 60 else 0)
        distances = [_apart(mark, shape) for shape in shapes]
        assert distances.index(min(distances)) == seat % 6, (seat, distances)
