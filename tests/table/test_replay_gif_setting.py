"""The server setting that turns the end-of-game GIF off."""

from __future__ import annotations

from bot.table.server_settings import SETTING_KEYS, ServerConfig, parse_setting
from bot.texts import catalog


def test_the_replay_gif_is_on_by_default_and_a_moderator_turns_it_off_and_back() -> None:
    config = ServerConfig()
    assert config.replay_gif
    off = config.with_value("replay_gif", parse_setting("replay_gif", "non"))
    assert not off.replay_gif
    assert not ServerConfig.from_stored(off.stored()).replay_gif
    assert off.with_value("replay_gif", "on").replay_gif


def test_the_setting_is_in_the_menu_in_both_languages() -> None:
    assert "replay_gif" in SETTING_KEYS
    assert catalog().has("setting.replay_gif")
