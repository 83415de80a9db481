"""Tables that fill themselves (issue 23): free seats counted, AI seats filling the rest
at the host's word, and the server settings that drive it, with their ranges."""

from __future__ import annotations

import pytest

from bot.table.lobby import Lobby, LobbyError
from bot.table.server_settings import ServerConfig, SettingError, parse_setting


def lobby(*people: int) -> Lobby:
    room = Lobby(lobby_id=1, guild_id=10, channel_id=20, host_id=100)
    for person in people:
        room.join(person, f"p{person}")
    return room


def change(config: ServerConfig, key: str, text: str) -> ServerConfig:
    return config.with_value(key, parse_setting(key, text))


def test_free_seats_count_down_to_a_full_table() -> None:
    room = lobby(100, 101)
    assert room.free_seats == room.seat_range[-1] - 2
    assert not room.is_full
    while not room.is_full:
        room.add_ai(100)
    assert room.free_seats == 0


def test_the_host_fills_every_free_seat_with_ai_and_the_people_keep_theirs() -> None:
    room = lobby(100, 101)
    room.fill_with_ai(100)
    assert room.is_full
    assert [s.user_id for s in room.seats[:2]] == [100, 101]
    assert all(s.is_ai for s in room.seats[2:])
    assert [s.seat for s in room.seats] == list(range(room.seat_range[-1]))
    room.check_start(100, is_moderator=False)


def test_only_the_host_or_a_moderator_fills_and_only_where_ai_seats_are_allowed() -> None:
    room = lobby(100, 101)
    with pytest.raises(LobbyError) as guest:
        room.fill_with_ai(101)
    assert guest.value.key == "error.lobby_not_host_ai"
    room.allow_ai = False
    with pytest.raises(LobbyError) as refused:
        room.fill_with_ai(100)
    assert refused.value.key == "error.lobby_no_ai"
    assert len(room.seats) == 2
    room.allow_ai = True
    room.fill_with_ai(101, is_moderator=True)
    assert room.is_full


def test_a_lobby_nobody_sits_in_is_not_filled_with_ai_alone() -> None:
    room = lobby()
    with pytest.raises(LobbyError) as empty:
        room.fill_with_ai(100)
    assert empty.value.key == "error.lobby_no_people"
    assert room.seats == []


def test_the_looking_for_players_role_is_a_mention_an_id_or_none() -> None:
    config = change(ServerConfig(), "players_role", "<@&123456>")
    assert config.players_role_id == 123456
    assert change(config, "players_role", "none").players_role_id is None
    with pytest.raises(SettingError) as bad:
        change(config, "players_role", "gamers")
    assert bad.value.key == "error.setting_id"


@pytest.mark.parametrize(
    ("key", "maximum"), [("lobby_timeout", 7 * 24 * 60), ("lobbies_per_person", 25)]
)
def test_lobby_counts_take_whole_numbers_in_their_range(key: str, maximum: int) -> None:
    config = ServerConfig()
    assert getattr(change(config, key, "0"), key) == 0
    assert getattr(change(config, key, str(maximum)), key) == maximum
    for bad in ("-1", str(maximum + 1), "soon", "1.5", ""):
        with pytest.raises(SettingError) as refused:
            change(config, key, bad)
        assert refused.value.key == "error.setting_count"
        assert refused.value.params == {"minimum": 0, "maximum": maximum}


def test_one_open_lobby_per_person_and_no_ping_no_time_out_by_default() -> None:
    config = ServerConfig()
    assert config.lobbies_per_person == 1
    assert config.players_role_id is None
    assert config.lobby_timeout == 0
    assert not config.start_when_full


def test_lobby_settings_are_stored_and_read_back() -> None:
    config = ServerConfig()
    for key, text in (
        ("players_role", "42"),
        ("start_when_full", "on"),
        ("lobby_timeout", "90"),
        ("lobbies_per_person", "3"),
    ):
        config = change(config, key, text)
    assert ServerConfig.from_stored(config.stored()) == config
    assert (config.players_role_id, config.start_when_full) == (42, True)
    assert (config.lobby_timeout, config.lobbies_per_person) == (90, 3)
