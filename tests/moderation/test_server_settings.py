"""Server settings: every bound refused with its range, and stored values read back."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.table.server_settings import (
    FLAGS,
    SETTING_KEYS,
    TIMER_KEYS,
    TIMER_MAXIMUM,
    ServerConfig,
    SettingError,
    parse_setting,
)
from bot.table.timers import MAX_SECONDS, MIN_SECONDS
from bot.texts import catalog
from bot.texts.catalog import LANGUAGES, Listed


def change(config: ServerConfig, key: str, text: str) -> ServerConfig:
    return config.with_value(key, parse_setting(key, text))


@pytest.mark.parametrize("key", list(TIMER_KEYS))
def test_each_timer_takes_15_seconds_to_its_maximum_and_nothing_else(key: str) -> None:
    """30 minutes for every step; 2 minutes for the card windows, which nobody waits on."""
    config = ServerConfig()
    field = TIMER_KEYS[key]
    maximum = TIMER_MAXIMUM.get(key, MAX_SECONDS)
    assert getattr(change(config, key, str(MIN_SECONDS)).timers, field) == MIN_SECONDS
    assert getattr(change(config, key, f"{maximum}s").timers, field) == maximum
    for bad in (str(MIN_SECONDS - 1), str(maximum + 1), "0", "-20", "soon", ""):
        with pytest.raises(SettingError) as refused:
            change(config, key, bad)
        assert refused.value.key == "error.timer_range"
        assert refused.value.params == {"minimum": MIN_SECONDS, "maximum": maximum}


def test_the_card_window_timer_is_a_setting_of_its_own() -> None:
    config = change(ServerConfig(), "timer_card_window", "30")
    assert config.timers.card_window == 30
    assert config.timers.other == ServerConfig().timers.other
    assert ServerConfig.from_stored(config.stored()).timers.card_window == 30


def test_a_timer_change_leaves_the_other_timers_alone() -> None:
    config = change(ServerConfig(), "timer_discussion", "300")
    assert config.timers.discussion == 300
    assert config.timers.designation == ServerConfig().timers.designation


def test_language_is_one_the_catalog_speaks() -> None:
    assert change(ServerConfig(), "language", "FR").language == "fr"
    assert change(ServerConfig(), "language", "de").language == "de"
    assert change(ServerConfig(), "language", "es").language == "es"
    with pytest.raises(SettingError) as refused:
        change(ServerConfig(), "language", "pt")
    assert refused.value.key == "error.setting_language"
    assert refused.value.params == {"allowed": Listed(LANGUAGES, choice=True)}
    with pytest.raises(ValidationError):
        ServerConfig(language="pt")


def test_spanish_words_switch_settings_too() -> None:
    assert change(ServerConfig(), "allow_ai", "sí").allow_ai is True
    assert change(ServerConfig(), "allow_ai", "no").allow_ai is False
    assert change(ServerConfig(), "dm_reminders", "nunca").dm_reminders == "off"
    assert change(ServerConfig(), "dm_reminders", "cada").dm_reminders == "every"


@pytest.mark.parametrize("key", FLAGS)
def test_switches_take_on_or_off(key: str) -> None:
    default = getattr(ServerConfig(), key)
    flipped = change(ServerConfig(), key, "off" if default else "on")
    assert getattr(flipped, key) is not default
    with pytest.raises(SettingError) as refused:
        change(ServerConfig(), key, "maybe")
    assert refused.value.key == "error.setting_flag"


def test_host_role_is_a_role_or_everyone() -> None:
    config = change(ServerConfig(), "host_role", "<@&1234>")
    assert config.host_role_id == 1234
    assert not config.may_host({1}, is_moderator=False)
    assert config.may_host({1234}, is_moderator=False)
    assert config.may_host(set(), is_moderator=True)
    assert change(config, "host_role", "everyone").host_role_id is None
    with pytest.raises(SettingError):
        change(config, "host_role", "the cool ones")


def test_channels_are_ids_and_none_means_any() -> None:
    config = change(ServerConfig(), "channels", "<#10>, 20")
    assert config.channel_ids == (10, 20)
    assert config.allows_channel(10)
    assert not config.allows_channel(30)
    assert change(config, "channels", "").allows_channel(30)
    with pytest.raises(SettingError):
        change(config, "channels", "general")
    with pytest.raises(SettingError):
        change(config, "channels", " ".join(str(n) for n in range(1, 40)))


def test_offered_variants_are_a_list_or_all() -> None:
    config = change(ServerConfig(), "variants_offered", "spare_keys hush")
    assert config.offered_variants == ("spare_keys", "hush")
    assert change(config, "variants_offered", "all").offered_variants is None


def test_an_unknown_setting_is_refused_with_the_list() -> None:
    with pytest.raises(SettingError) as refused:
        ServerConfig().with_value("colour", "red")
    assert refused.value.key == "error.setting_unknown"


def test_stored_values_round_trip_and_a_bad_stored_value_is_dropped() -> None:
    config = ServerConfig().with_value("language", "fr").with_value("timer_other", 600)
    config = config.with_value("host_role", 5).with_value("channels", [7, 8])
    assert ServerConfig.from_stored(config.stored()) == config
    damaged = {**config.stored(), "timer_other": 5, "language": "xx", "mystery": 1}
    back = ServerConfig.from_stored(damaged)
    assert back.timers.other == ServerConfig().timers.other
    assert back.language == "en"
    assert back.channel_ids == (7, 8)
    assert set(config.stored()) == set(SETTING_KEYS)


def test_every_refusal_is_a_catalog_text_in_both_languages() -> None:
    keys = {
        "error.timer_range",
        "error.setting_language",
        "error.setting_flag",
        "error.setting_id",
        "error.setting_unknown",
        "error.variant_unknown",
    }
    for key in keys:
        assert catalog().has(key)


def test_moderators_choose_the_ai_level_and_the_personas_of_shrewd_seats() -> None:
    """Issue 26: the level "Add AI seat" seats, and which personas a server's shrewd
    seats take; both stored flat and read back, a bad value refused with the choices."""
    config = change(change(ServerConfig(), "ai_level", "Shrewd"), "ai_personas", "gambler, avenger")
    assert (config.ai_level, config.ai_personas) == ("shrewd", ("gambler", "avenger"))
    assert ServerConfig.from_stored(config.stored()) == config
    assert change(config, "ai_personas", "all").ai_personas == ()
    with pytest.raises(SettingError) as level:
        change(config, "ai_level", "genius")
    assert level.value.params == {"allowed": Listed(("random", "cautious", "shrewd"), choice=True)}
    with pytest.raises(SettingError) as persona:
        change(config, "ai_personas", "gambler nobody")
    assert persona.value.key == "error.setting_ai_personas"
    assert ServerConfig.from_stored({"ai_level": "genius"}).ai_level == "cautious"
