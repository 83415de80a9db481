"""The pictures in the pseudo-locale: texts 40% longer still stay inside the picture,
overlap nothing and lose no glyph; the chart, which never cuts a name, cuts none."""

from __future__ import annotations

from bot.render.chart import chart_picture
from bot.render.replay_gif import frame_picture, frames, record_start, shown_names
from bot.texts.pseudo import PSEUDO
from tests.pseudo import leaks
from tests.render.checks import check_texts
from tests.render.test_chart import _series
from tests.render.test_replay_gif import _golden_record

NAMES = ["ana", "bo", "cy"]


def test_every_frame_of_a_game_keeps_its_texts_in_place() -> None:
    """The board of each moment, its caption and, at the end, the scores."""
    state, opening, moves = record_start(_golden_record("game_3p"))
    shown = shown_names(state, PSEUDO, NAMES)
    moments = frames(state, opening, moves, PSEUDO, shown)
    assert len(moments) > 10
    for moment in moments:
        image, drawn = frame_picture(moment, state.rules, PSEUDO, shown)
        check_texts(drawn, image.width, image.height)


def test_the_chart_cuts_no_text_and_shows_only_catalog_words() -> None:
    series = _series(PSEUDO, 6, [("hush",), ("barricades", "tough_crowd")])
    image, drawn = chart_picture(series, 6, 12, PSEUDO)
    check_texts(drawn, image.width, image.height)
    assert [p.text for p in drawn.texts if p.text.endswith("…")] == []
    assert leaks("\n".join(p.text for p in drawn.texts)) == []
