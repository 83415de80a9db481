"""Each process's share of the token's global limit follows the shard layout."""

from __future__ import annotations

import pytest

from bot.discord_http.share import process_share, requests_per_second


@pytest.mark.parametrize(
    ("shard_ids", "shard_count", "share"),
    [
        (None, None, 1.0),
        (None, 4, 1.0),
        ((0, 1), 4, 0.5),
        ((2,), 4, 0.25),
        ((0, 1, 2, 3), 4, 1.0),
        ((3, 3), 4, 0.25),
    ],
)
def test_a_process_takes_its_shards_part(
    shard_ids: tuple[int, ...] | None, shard_count: int | None, share: float
) -> None:
    assert process_share(shard_ids, shard_count) == share


def test_the_shares_of_processes_covering_every_shard_add_up_to_the_limit() -> None:
    layout = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (9,)]
    total = sum(requests_per_second(process_share(ids, 10)) for ids in layout)
    assert total <= 50
    assert total >= 45  # rounding down loses at most a request per process


def test_a_tiny_share_still_sends() -> None:
    assert requests_per_second(process_share((0,), 1000)) == 1
