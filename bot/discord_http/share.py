"""Each process's share of the token's global limit, derived from the shard layout.

Discord grants one bot token 50 requests a second in all, whatever the number
of shards and processes. The processes of one bot do not talk to each other,
but they all know the layout: `SHARD_COUNT` is the same everywhere and each
runs `SHARD_IDS`. A process therefore takes `len(SHARD_IDS) / SHARD_COUNT` of
the 50, the part of the servers (and so of the games) it runs. The shares add
up to the whole budget when the processes cover every shard once, which the
shard locks guarantee; during a deploy's hand-over the new process waits for
its shards before it runs a game, so two processes never spend one share for
long. Servers spread evenly over shards (`(guild_id >> 22) % SHARD_COUNT`), so
a share in proportion to shards is a share in proportion to demand.
"""

from __future__ import annotations

from collections.abc import Sequence

# Discord's global limit for one bot token, requests per second.
GLOBAL_PER_SECOND = 50


def process_share(shard_ids: Sequence[int] | None, shard_count: int | None) -> float:
    """The fraction of the token's budget this process may spend: its shards over all.

    Without `shard_ids` the process runs every shard, so it has the whole budget.
    """
    if shard_ids is None or not shard_count:
        return 1.0
    return min(1.0, len(set(shard_ids)) / shard_count)


def requests_per_second(share: float, global_per_second: int = GLOBAL_PER_SECOND) -> int:
    """Whole requests a second for a share; at least one, so a tiny share still moves."""
    return max(1, int(global_per_second * share))
