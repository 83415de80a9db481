"""Credit for the part each person played of a seat that changed hands (issue 23): the
parts read from the seat's changes, and their words at a game's end and in a profile."""

from __future__ import annotations

from bot.discord_ui.seats.credit import credit_line
from bot.storage.models import SeatChange
from bot.table.credit import Part, first_holder, seat_parts
from bot.texts import t

ANA, BO, DAN = 1, 2, 3


def change(user: int, kind: str, turn: int | None, **more: object) -> SeatChange:
    return SeatChange(seat=1, user_id=user, change=kind, version=0, turn=turn, **more)  # type: ignore[arg-type]


def test_a_seat_left_then_taken_has_two_parts_and_the_newcomer_holds_it() -> None:
    changes = [change(ANA, "left", 3), change(DAN, "took", 3, name="dan", previous_user_id=ANA)]
    assert first_holder(changes) == ANA
    assert seat_parts(changes) == [Part(ANA, None, None, 3), Part(DAN, "dan", 3, None)]
    line = credit_line("en", "ana", changes, 12)
    parts = ", then ".join(
        [
            t("en", "credit.part_until", name="ana", last=3),
            t("en", "credit.part_from", name="dan", first=3),
        ]
    )
    assert line == t("en", "credit.seat", name="ana", parts=parts, score=12, holder="dan")


def test_a_stand_in_between_two_people_and_a_seat_nobody_holds_at_the_end() -> None:
    changes = [
        change(ANA, "left", 2),
        change(DAN, "took", 4, name="dan", previous_user_id=ANA),
        change(DAN, "left", 6),
    ]
    assert seat_parts(changes) == [
        Part(ANA, None, None, 2),
        Part(None, None, 2, 4),
        Part(DAN, "dan", 4, 6),
        Part(None, None, 6, None),
    ]
    line = credit_line("fr", "ana", changes, 5)
    assert line.startswith(t("fr", "credit.seat_nobody", name="ana", parts="", score=5)[:10])
    assert t("fr", "credit.ai") in line
    assert "dan" in line


def test_a_seat_taken_while_its_person_was_away_then_reclaimed_by_them() -> None:
    changes = [
        change(DAN, "took", 1, name="dan", previous_user_id=BO),
        change(DAN, "left", 2),
        change(DAN, "reclaimed", 3),
    ]
    assert first_holder(changes) == BO
    assert seat_parts(changes) == [
        Part(BO, None, None, 1),
        Part(DAN, "dan", 1, 2),
        Part(None, None, 2, 3),
        Part(DAN, "dan", 3, None),
    ]


def test_changes_kept_before_turns_were_give_parts_without_turns() -> None:
    changes = [change(ANA, "left", None), change(DAN, "took", None, name="dan")]
    line = credit_line("en", "ana", changes, 0)
    assert "turn" not in line
    assert "ana" in line
    assert "dan" in line
