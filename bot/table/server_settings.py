"""A server's defaults for new games, as moderators set them with `/lockdown config`.

Stored flat (one audited key per setting) through `ServerRepository`; read back
leniently, so a value stored by an older version that no longer fits is
dropped (and logged) rather than breaking every new lobby of the server.
Every refusal is a catalog key with the allowed range, for the Discord layer to say.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from bot.table.timers import MAX_SECONDS, MAX_STEP_HOURS, MIN_SECONDS, Timers
from bot.texts.catalog import FALLBACK, LANGUAGES, Listed
from lockdown_core.ai import AI_KINDS, PERSONAS

log = logging.getLogger(__name__)

TIMER_KEYS = {
    "timer_discussion": "discussion",
    "timer_designation": "designation",
    "timer_destination": "destination",
    "timer_other": "other",
    "timer_card_window": "card_window",
}
# A card window (the Walkie-talkie, the Energy drink after a move) waits on every seat
# holding any card and most have nothing to play there: two minutes is plenty.
TIMER_MAXIMUM = {"timer_card_window": 120}
FLAGS = (
    "allow_ai",
    "open_designations",
    "combine_variants",
    "show_conditions",
    "replay_gif",
    "start_when_full",
    "takeover_approval",
    "web_pages",
)
TRUE_WORDS = ("on", "yes", "true", "1", "oui", "sí", "si")
FALSE_WORDS = ("off", "no", "false", "0", "non")
EVERYONE = ("everyone", "all", "none", "tous", "todos", "ninguno", "")
MAX_IDS = 25
# How often a player waited on is reminded by DM: never, once a turn, or at every choice.
DM_REMINDERS = {"off": "off", "turn": "turn", "every": "every"}
# The words the French and Spanish menus offer for them.
DM_REMINDER_WORDS = {
    "non": "off",
    "aucun": "off",
    "tour": "turn",
    "chaque": "every",
    "nunca": "off",
    "turno": "turn",
    "cada": "every",
}
# Whole-number settings in their allowed range: a lobby's time-out in minutes (0: it
# waits as long as any lobby is kept) and how many open lobbies one person may host in
# a server (0: no limit; one by default, as one person once opened hundreds in a minute).
# The bounds of a slow game's steps, in hours, are counts too (a week at most).
COUNTS = {
    "lobby_timeout": (0, 7 * 24 * 60),
    "lobbies_per_person": (0, 25),
    "slow_min_hours": (1, MAX_STEP_HOURS),
    "slow_max_hours": (1, MAX_STEP_HOURS),
}


class SettingError(Exception):
    """A value a moderator may not set; `key` names the catalog text explaining the range."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class ServerConfig(BaseModel):
    """What a new lobby of this server starts with.

    `host_role_id` None: anyone may host. `channel_ids` empty: any channel.
    `offered_variants` None: every unlocked variant is offered to hosts.
    `open_designations`: designations are shown as they are cast (the Open
    ballots rule) instead of kept secret until the reveal. `replay_gif`: the
    reveal carries the game told back as a GIF (a server may find it too heavy).
    `dm_reminders`: a DM to a player the game waits on, at most once a turn
    ("turn"), at every choice ("every") or never ("off"). `ai_level`: the level of
    the seats "Add AI seat" seats; `ai_personas`: the personas shrewd seats take in
    turn (empty: every one).
    `players_role_id`: the "looking for players" role a new lobby pings (None: no ping).
    `start_when_full`: a lobby whose every seat is taken starts by itself.
    `takeover_approval`: a click on Take this seat asks the host (or, the host gone,
    a moderator) first; off, the first person to click takes the seat.
    `web_pages`: each finished game has a page (`lockdown-web`) its reveal links to;
    off, no link is posted and the pages answer 404.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    language: str = FALLBACK
    timers: Timers = Timers()
    allow_ai: bool = True
    host_role_id: int | None = None
    channel_ids: tuple[int, ...] = ()
    open_designations: bool = False
    offered_variants: tuple[str, ...] | None = None
    combine_variants: bool = False
    show_conditions: bool = False
    replay_gif: bool = True
    dm_reminders: Literal["off", "turn", "every"] = "turn"
    ai_level: Literal["random", "cautious", "shrewd"] = "cautious"
    ai_personas: tuple[str, ...] = ()
    players_role_id: int | None = None
    start_when_full: bool = False
    takeover_approval: bool = False
    web_pages: bool = True
    lobby_timeout: int = 0
    lobbies_per_person: int = 1
    slow_min_hours: int = 1
    slow_max_hours: int = 48

    @field_validator("language")
    @classmethod
    def _spoken(cls, language: str) -> str:
        """Any catalog language: a new language needs no change here."""
        if language not in LANGUAGES:
            raise ValueError(f"{language!r} is not one of {', '.join(LANGUAGES)}")
        return language

    @classmethod
    def from_stored(cls, values: Mapping[str, Any], language: str = "en") -> ServerConfig:
        """The config of stored flat values; a value that no longer fits is left out.

        `language` is what the server gets until a moderator sets one: the
        server's own preferred locale, so a French server plays in French from
        its first command. It is the language `choose_lang` found, not a
        moderator's choice, so it is taken as it is: the pseudo-locale of the tests
        among them, which `with_value` offers to no server.
        """
        config = cls().model_copy(update={"language": language})
        for key, value in values.items():
            try:
                config = config.with_value(key, value)
            except (SettingError, ValidationError, TypeError, ValueError):
                log.warning("stored setting %s=%r ignored: out of range", key, value)
        return config

    def stored(self) -> dict[str, Any]:
        """The flat values to store: the inverse of `from_stored`."""
        values: dict[str, Any] = {
            "language": self.language,
            "host_role": self.host_role_id,
            "channels": list(self.channel_ids),
            "variants_offered": (
                None if self.offered_variants is None else list(self.offered_variants)
            ),
        }
        for key, field in TIMER_KEYS.items():
            values[key] = getattr(self.timers, field)
        for flag in FLAGS:
            values[flag] = getattr(self, flag)
        values["dm_reminders"] = self.dm_reminders
        values["ai_level"] = self.ai_level
        values["ai_personas"] = list(self.ai_personas)
        values["players_role"] = self.players_role_id
        for key in COUNTS:
            values[key] = getattr(self, key)
        return values

    def with_value(self, key: str, value: Any) -> ServerConfig:
        """A copy with one flat setting changed, checked; `SettingError` if refused."""
        if key == "language":
            if value not in LANGUAGES:
                raise SettingError("error.setting_language", allowed=Listed(LANGUAGES, choice=True))
            return self.model_copy(update={"language": value})
        if key in TIMER_KEYS:
            seconds = _timer_seconds(value, TIMER_MAXIMUM.get(key, MAX_SECONDS))
            timers = Timers(**{**self.timers.model_dump(), TIMER_KEYS[key]: seconds})
            return self.model_copy(update={"timers": timers})
        if key in FLAGS:
            return self.model_copy(update={key: _flag(value)})
        if key == "dm_reminders":
            word = str(value).strip().lower()
            mode = DM_REMINDERS.get(word) or DM_REMINDER_WORDS.get(word)
            if mode is None:
                raise SettingError("error.setting_dm_reminders")
            return self.model_copy(update={"dm_reminders": mode})
        if key == "ai_level":
            if value not in AI_KINDS:
                raise SettingError("error.setting_ai_level", allowed=Listed(AI_KINDS, choice=True))
            return self.model_copy(update={"ai_level": value})
        if key == "ai_personas":
            return self.model_copy(update={"ai_personas": _personas(value)})
        if key == "host_role":
            return self.model_copy(update={"host_role_id": _optional_id(value)})
        if key == "players_role":
            return self.model_copy(update={"players_role_id": _optional_id(value)})
        if key in COUNTS:
            changed = self.model_copy(update={key: _count(value, *COUNTS[key])})
            if changed.slow_min_hours > changed.slow_max_hours:
                raise SettingError(
                    "error.setting_slow_bounds",
                    minimum=changed.slow_min_hours,
                    maximum=changed.slow_max_hours,
                )
            return changed
        if key == "channels":
            return self.model_copy(update={"channel_ids": _ids(value)})
        if key == "variants_offered":
            offered = None if value is None else tuple(dict.fromkeys(_strings(value)))
            return self.model_copy(update={"offered_variants": offered})
        raise SettingError("error.setting_unknown", keys=Listed(SETTING_KEYS))

    def may_host(self, role_ids: set[int], is_moderator: bool) -> bool:
        return is_moderator or self.host_role_id is None or self.host_role_id in role_ids

    def allows_channel(self, channel_id: int) -> bool:
        return not self.channel_ids or channel_id in self.channel_ids


SETTING_KEYS = (
    "language",
    *TIMER_KEYS,
    "allow_ai",
    "host_role",
    "channels",
    "open_designations",
    "variants_offered",
    "combine_variants",
    "show_conditions",
    "replay_gif",
    "dm_reminders",
    "ai_level",
    "ai_personas",
    "players_role",
    "start_when_full",
    "takeover_approval",
    "web_pages",
    "lobby_timeout",
    "lobbies_per_person",
    "slow_min_hours",
    "slow_max_hours",
)


def parse_setting(key: str, text: str) -> Any:
    """A moderator's typed value turned into the stored form of `key` (unchecked yet)."""
    text = text.strip()
    if key in TIMER_KEYS:
        return text
    if key == "ai_personas":
        words = [w.lower() for w in text.replace(",", " ").split() if w]
        return [] if words in ([], ["all"]) else words
    if key in ("channels", "variants_offered"):
        words = [w for w in text.replace(",", " ").split() if w]
        if key == "variants_offered" and (not words or words == ["all"]):
            return None
        return [_digits(w) for w in words] if key == "channels" else words
    if key in ("host_role", "players_role"):
        return None if text.lower() in EVERYONE else _digits(text)
    return text.lower() if key in ("language", "ai_level") else text


def _timer_seconds(value: Any, maximum: int) -> int:
    try:
        seconds = int(str(value).strip().removesuffix("s"))
    except ValueError:
        seconds = -1
    if not MIN_SECONDS <= seconds <= maximum:
        raise SettingError("error.timer_range", minimum=MIN_SECONDS, maximum=maximum)
    return seconds


def _count(value: Any, minimum: int, maximum: int) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        number = -1
    if not minimum <= number <= maximum:
        raise SettingError("error.setting_count", minimum=minimum, maximum=maximum)
    return number


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise SettingError("error.setting_flag", allowed=Listed(("on", "off"), choice=True))


def _digits(word: str) -> int | str:
    """A mention (`<#123>`, `<@&123>`) or a bare id as an int; anything else as given."""
    stripped = word.strip("<>#@&!")
    return int(stripped) if stripped.isdigit() else word


def _an_id(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise SettingError("error.setting_id")
    return value


def _optional_id(value: Any) -> int | None:
    return None if value is None else _an_id(value)


def _ids(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or len(value) > MAX_IDS:
        raise SettingError("error.setting_id")
    return tuple(dict.fromkeys(_an_id(v) for v in value))


def _strings(value: Any) -> list[str]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise SettingError("error.variant_unknown")
    return list(value)


def _personas(value: Any) -> tuple[str, ...]:
    """Persona keys of the core, each once; none means every persona."""
    if not isinstance(value, list | tuple) or not all(v in PERSONAS for v in value):
        raise SettingError("error.setting_ai_personas", allowed=Listed(tuple(PERSONAS)))
    return tuple(dict.fromkeys(value))
