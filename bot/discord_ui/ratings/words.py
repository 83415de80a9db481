"""Ratings in words: the explanation, the ladder, a profile's lines and a game's reveal.

Plain functions of the stored records and the reader's language, so the stats
room, the reveal and the podium say things the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.rating.records import GameRating, Profile, Season
from bot.rating.season import (
    ACTIVE_WINDOW,
    DEFAULT_SEASON_MONTHS,
    PLACE_STEP,
    PROVISIONAL_GAMES,
    START_POINTS,
    SURPRISE_STEP,
    Standing,
    provisional,
)
from bot.rating.skill import IDLE_GRACE, Skill
from bot.rating.who import MIN_PEOPLE
from bot.texts import t

# Why a game was not rated, and why someone was left out of one: their texts.
WHY = {
    "off": "rating.why.off",
    "casual": "rating.why.casual",
    "practice": "rating.why.practice",
    "not_finished": "rating.why.not_finished",
    "variant": "rating.why.variant",
    "few_people": "rating.why.few_people",
}
SKIPPED = {"took_over": "rating.skipped.took_over", "excluded": "rating.skipped.excluded"}


def shown_rating(skill: Skill) -> int:
    """The rating people see: the cautious estimate, in round numbers from 0 up."""
    return max(0, round(skill.shown * 40))


def signed(change: int) -> str:
    return f"+{change}" if change > 0 else str(change)


def explanation(lang: str, months: int = DEFAULT_SEASON_MONTHS) -> str:
    return t(
        lang,
        "rating.explain.body",
        start=START_POINTS,
        most=PLACE_STEP + SURPRISE_STEP,
        step=PLACE_STEP,
        surprise=SURPRISE_STEP,
        weeks=IDLE_GRACE.days // 7,
        people=MIN_PEOPLE,
        games=PROVISIONAL_GAMES,
        days=ACTIVE_WINDOW.days,
        months=months,
    )


def ladder_lines(lang: str, ladder: list[Standing], name: Callable[[int], str]) -> str:
    return "\n".join(
        t(
            lang,
            "rating.ladder.line",
            rank=rank,
            name=name(s.user_id),
            points=s.points,
            wins=s.wins,
            games=s.games,
        )
        for rank, s in enumerate(ladder, start=1)
    ) or t(lang, "rating.ladder.empty", games=PROVISIONAL_GAMES, days=ACTIVE_WINDOW.days)


def season_end_line(lang: str, season: Season) -> str:
    return t(lang, "rating.ladder.ends", when=f"<t:{int(season.end.timestamp())}:R>")


def profile_lines(lang: str, profile: Profile) -> str:
    """A person's rating, provisional status, season and last changes."""
    lines = [
        t(
            lang,
            "rating.stats.rating",
            rating=shown_rating(profile.skill),
            games=profile.rated_games,
        )
    ]
    if provisional(profile.rated_games):
        lines.append(
            t(lang, "rating.stats.provisional", left=PROVISIONAL_GAMES - profile.rated_games)
        )
    if profile.season is not None and profile.standing is not None:
        number, points = profile.season.number, profile.standing.points
        if profile.ladder_rank is None:
            lines.append(t(lang, "rating.stats.season_unranked", season=number, points=points))
        else:
            lines.append(
                t(
                    lang,
                    "rating.stats.season",
                    season=number,
                    points=points,
                    rank=profile.ladder_rank,
                )
            )
    lines.extend(
        t(lang, "rating.stats.change", game=c.game_id, rank=c.rank, change=signed(c.points))
        for c in profile.last_changes
    )
    if profile.skipped_games:
        lines.append(t(lang, "rating.stats.skipped", count=profile.skipped_games))
    return "\n".join(lines)


def past_lines(lang: str, profile: Profile) -> str:
    return "\n".join(
        t(
            lang,
            "rating.stats.past" if p.rank is not None else "rating.stats.past_unranked",
            season=p.number,
            points=p.points,
            wins=p.wins,
            games=p.games,
            rank=p.rank,
        )
        for p in profile.past
    )


def reveal_lines(lang: str, rating: GameRating, names: Mapping[int, str]) -> str:
    """Each rated person's season change, who was left out and why; or why the game
    was not rated."""
    if not rating.rated:
        return t(
            lang, "rating.reveal.not_rated", why=t(lang, WHY[rating.outcome], people=MIN_PEOPLE)
        )
    lines = [
        t(lang, "rating.reveal.line", name=names.get(user, f"<@{user}>"), change=signed(change))
        for user, change in sorted(rating.points.items(), key=lambda item: -item[1])
    ]
    lines.extend(
        t(lang, SKIPPED[why], name=names.get(user, f"<@{user}>")) for user, why in rating.skipped
    )
    return "\n".join(lines)
