"""Buckets learned from Discord's headers, always on the safe side."""

from __future__ import annotations

from bot.discord_http.buckets import Bucket, Buckets, RateHeaders

POST = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


def test_headers_are_read_whatever_their_case_and_missing_ones_say_none() -> None:
    headers = {
        "X-RateLimit-Limit": "5",
        "x-ratelimit-remaining": "3",
        "X-RATELIMIT-RESET-AFTER": "4.5",
        "X-RateLimit-Bucket": "abc",
    }
    assert RateHeaders.parse(headers) == RateHeaders(5, 3, 4.5, "abc")
    assert RateHeaders.parse({"X-RateLimit-Limit": "5"}) is None


def test_an_answer_counts_the_requests_still_on_their_way() -> None:
    bucket = Bucket(limit=5, remaining=5, learned=True)
    for _ in range(3):
        bucket.take()
    bucket.answered(10.0, RateHeaders(5, 4, 5.0, "h"))  # the first landed; two more flying
    assert bucket.remaining == 2
    assert bucket.reset_at == 15.0


def test_a_refilled_bucket_keeps_room_for_what_may_land_in_its_new_window() -> None:
    bucket = Bucket(limit=5, remaining=0, reset_at=5.0, in_flight=2, learned=True)
    assert bucket.has_space(5.0)
    assert bucket.remaining == 3


def test_a_late_answer_from_an_old_window_changes_nothing() -> None:
    bucket = Bucket(limit=5, remaining=4, reset_at=12.0, in_flight=1, learned=True)
    bucket.period, bucket.window_end = 5.0, 12.0
    bucket.answered(8.0, RateHeaders(5, 0, 0.5, "h"))
    assert (bucket.remaining, bucket.reset_at) == (4, 12.0)


def test_answers_of_one_window_only_ever_lower_the_room_left() -> None:
    """The answer of a request that landed earlier may come back last: its larger
    `Remaining` must not give back room that a later one used."""
    bucket = Bucket(limit=5, remaining=5)
    for _ in range(3):
        bucket.take()
    bucket.answered(1.0, RateHeaders(5, 2, 4.0, "h"))  # the third to land, back first
    assert bucket.remaining == 0  # 2 left, less the 2 still on their way
    bucket.answered(1.2, RateHeaders(5, 4, 4.1, "h"))  # the first to land, back late
    assert bucket.remaining == 0
    assert bucket.reset_at == 5.3


def test_routes_sharing_a_hash_share_one_counter_per_channel() -> None:
    buckets = Buckets()
    key = buckets.take(POST, "41")
    buckets.answered(key, POST, "41", RateHeaders(5, 4, 5.0, "msgs"), 0.1)
    key = buckets.take(EDIT, "41")
    buckets.answered(key, EDIT, "41", RateHeaders(5, 3, 4.9, "msgs"), 0.2)
    assert buckets.key(POST, "41") == buckets.key(EDIT, "41") == "msgs:41"
    assert buckets.key(POST, "42") == "msgs:42"
    # A new channel starts with the limit its route's bucket is known to have.
    assert buckets.state("msgs:42").remaining == 5


def test_idle_buckets_are_forgotten_once_their_window_is_over() -> None:
    buckets = Buckets()
    key = buckets.take(POST, "41")
    buckets.answered(key, POST, "41", RateHeaders(5, 4, 5.0, "msgs"), 0.0)
    buckets.forget_idle(4.0)
    assert "msgs:41" in buckets._states
    buckets.forget_idle(6.0)
    assert "msgs:41" not in buckets._states
    assert buckets.has_space(EDIT, "41", 6.0)


def test_a_bucket_emptied_by_an_unlearned_routes_requests_frees_up_again() -> None:
    """Requests of a route not learned yet count in the buckets it might share, which
    hear no answer of theirs: once such a bucket is empty with none of its own requests
    on their way, it waits as for a lost window, never for good (a practice game's
    reveal once waited forever behind the thread's emptied message bucket)."""
    buckets = Buckets()
    key = buckets.take(POST, "41")
    buckets.answered(key, POST, "41", RateHeaders(2, 1, 1.0, "msgs"), 0.0)
    assert buckets.has_space(POST, "41", 2.0)  # the window is over: the full limit again
    for at in (2.1, 2.2):
        key = buckets.take(EDIT, "41")  # unlearned: counted in msgs:41 as well
        buckets.answered(key, EDIT, "41", None, at)
    assert not buckets.has_space(POST, "41", 2.3)
    assert buckets.free_at(POST, "41", 2.3) is not None
    assert buckets.has_space(POST, "41", 2.3 + 1.0)
