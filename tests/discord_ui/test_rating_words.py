"""Ratings in words: a rated game's reveal, why a game was not rated, a profile."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.discord_ui.ratings.words import explanation, profile_lines, reveal_lines
from bot.rating.records import GameChange, GameRating, Profile, Season
from bot.rating.season import PROVISIONAL_GAMES, Standing
from bot.rating.skill import Skill
from bot.texts import t

AT = datetime(2026, 5, 1, tzinfo=UTC)


def test_the_reveal_gives_each_person_their_change_and_says_who_was_left_out() -> None:
    rating = GameRating("rated", {1: 14, 2: -3, 3: -11}, ((4, "took_over"),))
    text = reveal_lines("en", rating, {1: "Ana", 2: "Bo", 3: "Cy", 4: "Dan"})
    assert text.splitlines()[:3] == ["Ana: +14 points", "Bo: -3 points", "Cy: -11 points"]
    assert t("en", "rating.skipped.took_over", name="Dan") in text


def test_a_game_not_rated_says_why_in_the_reader_s_language() -> None:
    text = reveal_lines("fr", GameRating("casual"), {})
    assert text == t("fr", "rating.reveal.not_rated", why=t("fr", "rating.why.casual"))


def test_a_provisional_profile_says_how_many_games_are_left() -> None:
    season = Season(1, 10, 2, AT, AT)
    profile = Profile(
        skill=Skill(),
        rated_games=3,
        season=season,
        standing=Standing(7, 1012, 3, 1, 3, AT),
        ladder_rank=None,
        last_changes=(GameChange(41, 1, 12, AT),),
    )
    text = profile_lines("en", profile)
    assert t("en", "rating.stats.provisional", left=PROVISIONAL_GAMES - 3) in text
    assert t("en", "rating.stats.season_unranked", season=2, points=1012) in text
    assert "+12" in text


def test_the_explanation_uses_the_server_s_season_length() -> None:
    assert "6 months" in explanation("en", 6)
    assert "6 mois" in explanation("fr", 6)
