"""Who a finished game rates, and at which place."""

from __future__ import annotations

from bot.rating.who import GameEnd, NotRated, Placing, Rules, SeatEnd, Skipped, verdict

ON = Rules(enabled=True)


def game(*seats: SeatEnd, **facts: object) -> GameEnd:
    values: dict[str, object] = {
        "finished": True,
        "practice": False,
        "casual": False,
        "variants": (),
        "seats": seats,
    }
    values.update(facts)
    return GameEnd(**values)  # type: ignore[arg-type]


THREE = (SeatEnd(0, 40, 1), SeatEnd(1, 30, 2), SeatEnd(2, 20, 3))


def places(result_game: GameEnd, rules: Rules = ON) -> dict[int, int]:
    return {p.user_id: p.rank for p in verdict(result_game, rules).placings}


def test_places_follow_the_scores_and_equal_scores_tie() -> None:
    tied = game(SeatEnd(0, 30, 1), SeatEnd(1, 30, 2), SeatEnd(2, 10, 3), SeatEnd(3, 5, 4))
    assert places(tied) == {1: 1, 2: 1, 3: 3, 4: 4}


def test_ratings_are_off_unless_the_server_turns_them_on() -> None:
    assert verdict(game(*THREE), Rules()).not_rated is NotRated.OFF
    assert verdict(game(*THREE), ON).rated


def test_casual_practice_and_unfinished_games_are_never_rated() -> None:
    assert verdict(game(*THREE, casual=True), ON).not_rated is NotRated.CASUAL
    assert verdict(game(*THREE, practice=True), ON).not_rated is NotRated.PRACTICE
    # Aborted by a host or a moderator, or ended by the table's vote.
    assert verdict(game(*THREE, finished=False), ON).not_rated is NotRated.NOT_FINISHED


def test_only_the_variants_the_moderators_chose_are_rated() -> None:
    with_variant = game(*THREE, variants=("blackout",))
    assert verdict(with_variant, ON).not_rated is NotRated.VARIANT
    chosen = Rules(enabled=True, variants=frozenset({"blackout"}))
    assert verdict(with_variant, chosen).rated
    assert verdict(game(*THREE), chosen).rated


def test_ai_seats_are_not_rated_and_do_not_make_the_three_people() -> None:
    two_and_ai = game(SeatEnd(0, 50), SeatEnd(1, 30, 2), SeatEnd(2, 20, 3))
    assert verdict(two_and_ai, ON).not_rated is NotRated.FEW_PEOPLE
    with_ai = game(SeatEnd(0, 50), *(SeatEnd(s.seat + 1, s.score, s.user_id) for s in THREE))
    # The AI seat beat everyone, yet the people's places start at 1: it counts for nobody.
    assert places(with_ai) == {1: 1, 2: 2, 3: 3}


def test_a_person_who_left_is_placed_last_among_the_people() -> None:
    left = game(
        SeatEnd(0, 90, 1, has_left=True),
        *(SeatEnd(s.seat + 1, s.score, s.user_id + 1) for s in THREE),
    )
    assert places(left) == {2: 1, 3: 2, 4: 3, 1: 4}


def test_a_leaver_whose_seat_someone_took_is_placed_last_and_the_newcomer_not_rated() -> None:
    taken = game(
        SeatEnd(0, 90, 5, took_over=True),
        *(SeatEnd(s.seat + 1, s.score, s.user_id + 1) for s in THREE),
        departed=((1, 0),),
    )
    result = verdict(taken, ON)
    assert {p.user_id: p.rank for p in result.placings} == {2: 1, 3: 2, 4: 3, 1: 4}
    assert result.skipped == ((5, Skipped.TOOK_OVER),)


def test_a_person_who_left_and_came_back_is_placed_by_their_score() -> None:
    # They hold their seat at the end again: `departed` lists them, the seat is theirs.
    back = game(*THREE, departed=((1, 0),))
    assert places(back) == {1: 1, 2: 2, 3: 3}


def test_leavers_do_not_make_the_three_people_at_the_end() -> None:
    gone = game(SeatEnd(0, 40, 1), SeatEnd(1, 30, 2), SeatEnd(2, 20, 3, has_left=True))
    assert verdict(gone, ON).not_rated is NotRated.FEW_PEOPLE


def test_two_leavers_share_the_last_place() -> None:
    two_gone = game(*THREE, SeatEnd(3, 99, 4, has_left=True), SeatEnd(4, 1, 5, has_left=True))
    assert places(two_gone) == {1: 1, 2: 2, 3: 3, 4: 4, 5: 4}


def test_an_excluded_member_is_not_rated_and_the_others_are() -> None:
    rules = Rules(enabled=True, excluded=frozenset({1}))
    result = verdict(game(*THREE, SeatEnd(3, 5, 4)), rules)
    assert [(p.user_id, p.rank) for p in result.placings] == [(2, 1), (3, 2), (4, 3)]
    assert result.skipped == ((1, Skipped.EXCLUDED),)


def test_a_table_left_with_one_rated_person_is_not_rated() -> None:
    rules = Rules(enabled=True, excluded=frozenset({1, 2}))
    assert verdict(game(*THREE), rules).not_rated is NotRated.FEW_PEOPLE


def test_placings_name_their_seats() -> None:
    assert verdict(game(*THREE), ON).placings[0] == Placing(1, 0, 1)
