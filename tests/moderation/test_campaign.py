"""R10/R11 on a server's table: which variants are open, and what a host may pick."""

from __future__ import annotations

import pytest

from bot.table.campaign import (
    check_variant_choice,
    epilogue_order,
    game_variants,
    offered_variants,
    variant_of,
    variant_statuses,
)
from bot.table.lobby import LobbyError
from bot.table.server_settings import ServerConfig


def test_twenty_one_epilogues_and_twenty_variants_each_tied_to_one() -> None:
    order = epilogue_order()
    assert len(order) == len(set(order)) == 21
    assert order[-1] == "21"
    variants = [variant_of(code) for code in order]
    assert variants[-1] is None
    assert len({v for v in variants if v is not None}) == 20
    assert variant_of("01") == "spare_keys"


def test_an_epilogue_unlocks_its_variant_and_an_override_wins() -> None:
    statuses = {s.key: s for s in variant_statuses(["01", "16"], {"hush": True, "full_lot": False})}
    assert statuses["spare_keys"].unlocked
    assert not statuses["spare_keys"].by_moderator
    assert statuses["hush"].unlocked
    assert statuses["hush"].by_moderator
    assert not statuses["full_lot"].unlocked
    assert not statuses["armoury"].unlocked


def test_hosts_are_offered_the_unlocked_variants_the_server_offers() -> None:
    statuses = variant_statuses(["01", "12", "16"], {})
    assert offered_variants(ServerConfig(), statuses) == ["spare_keys", "hush", "full_lot"]
    config = ServerConfig().with_value("variants_offered", ["hush", "armoury"])
    assert offered_variants(config, statuses) == ["hush"]


def test_one_variant_unless_combining_is_allowed() -> None:
    offered = ["spare_keys", "hush"]
    check_variant_choice([], offered, combine=False)
    check_variant_choice(["hush"], offered, combine=False)
    with pytest.raises(LobbyError) as refused:
        check_variant_choice(["hush", "spare_keys"], offered, combine=False)
    assert refused.value.key == "error.variants_not_combined"
    check_variant_choice(["hush", "spare_keys"], offered, combine=True)
    with pytest.raises(LobbyError) as locked:
        check_variant_choice(["armoury"], offered, combine=True)
    assert locked.value.key == "error.variant_locked"
    with pytest.raises(LobbyError) as unknown:
        check_variant_choice(["moonwalk"], offered, combine=True)
    assert unknown.value.key == "error.variant_unknown"


def test_open_designations_play_the_open_ballots_rule() -> None:
    assert game_variants(["hush"], ServerConfig()) == ["hush"]
    open_config = ServerConfig().with_value("open_designations", True)
    assert game_variants(["hush"], open_config) == ["hush", "open_ballots"]
