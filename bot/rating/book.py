"""What the Discord side asks of ratings storage: the interface it is given (the
application wires storage's `SeasonRepository` in), so that it knows no SQL."""

from __future__ import annotations

from typing import Protocol

from bot.rating.records import GameRating, Podium, Profile, RatingSettings, Season
from bot.rating.season import Standing
from bot.rating.skill import Skill


class RatingStore(Protocol):
    async def settings(self, guild_id: int) -> RatingSettings: ...

    async def change_settings(
        self,
        guild_id: int,
        *,
        enabled: bool | None = None,
        season_months: int | None = None,
        variants: frozenset[str] | None = None,
        excluded: frozenset[int] | None = None,
    ) -> RatingSettings: ...

    async def set_casual(self, game_id: int, casual: bool) -> bool: ...

    async def casual(self, game_id: int) -> bool: ...

    async def current_season(self, guild_id: int) -> Season | None: ...

    async def season_ladder(self, guild_id: int) -> tuple[Season | None, list[Standing]]: ...

    async def lifetime_ladder(self, guild_id: int) -> list[tuple[int, Skill, int]]: ...

    async def profile(self, guild_id: int, user_id: int) -> Profile: ...

    async def game_rating(self, game_id: int) -> GameRating | None: ...

    async def close_due(self) -> list[Season]: ...

    async def reset(self, guild_id: int) -> Season: ...

    async def pending_podiums(self) -> list[Podium]: ...

    async def podium_posted(self, season_id: int) -> None: ...

    async def recompute(self, guild_id: int) -> int: ...
