"""The replay's last frame gives every score in full, inside the picture."""

from __future__ import annotations

import pytest

from bot.render.board_image import HEIGHT, WIDTH
from bot.render.replay_gif import frame_picture, frames, record_start, shown_names
from bot.render.scores import score_lines
from bot.texts import catalog, t
from bot.texts.catalog import LANGUAGES
from tests.render.checks import check_texts
from tests.render.test_replay_gif import _golden_record

# Discord display names are at most 32 characters.
LONG = [
    "Chloé-Élisabeth de La Tour-Dupin",
    "Bartholomew Featherstonehaugh Jr",
    "Σοφία Παπαδοπούλου-Καραγιάννη",
    "Дмитрий Александрович Соколов",
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
    "Łukasz Wiśniewski-Kowalczyk",
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_last_frame_of_a_six_player_game_shows_every_score_inside_the_picture(
    lang: str,
) -> None:
    state, opening, moves = record_start(_golden_record("game_6p"))
    names = shown_names(state, lang, LONG)
    moments = frames(state, opening, moves, lang, names)
    last = moments[-1]
    result = last.data["result"]
    assert result is not None
    picture, drawn = frame_picture(last, state.rules, lang, names)
    assert picture.size == (WIDTH, HEIGHT)
    check_texts(drawn)
    texts = [p.text for p in drawn.texts]
    assert t(lang, "event.game_over") in texts
    for seat, name, points in score_lines(result, names, lang):
        star = "★ " if seat in result["winners"] else ""
        assert star + points in texts
        assert catalog().count(lang, "point", result["scores"][seat]) == points
        # A name of up to 32 characters is written whole, except "W" * 32, the widest.
        assert name in texts or (name.startswith("WWW") and any(x.startswith("WWW") for x in texts))
    # No caption runs over the locations: every frame's caption is one line.
    assert all("\n" not in m.caption for m in moments)


def test_scores_are_listed_highest_first_and_ties_keep_seat_order() -> None:
    result = {"scores": [3, 7, 3, 0], "winners": [1]}
    lines = score_lines(result, ["A", "B", "C", "D"], "en")
    assert [seat for seat, _, _ in lines] == [1, 0, 2, 3]
    assert lines[0][2] == "7 points"
    assert lines[-1][2] == "0 points"
    assert score_lines(result, ["A", "B", "C", "D"], "fr")[-1][2] == "0 point"
