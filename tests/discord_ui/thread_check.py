"""What a game's thread must show, read back from the stored game.

The thread is a projection of the stored log: replaying the stored seed and
actions gives every public event in order (an AI seat's line, stored with its
action, right after that action's first public event: `talk.with_talk`), and each
one's line must be in the thread exactly once, in that order (a remark about an AI
seat's own ballot after that ballot's reveal, `talk.Held`). These helpers compute both sides and the
delay from each stored action to the message that first showed its lines.
"""

from __future__ import annotations

import itertools
import statistics
from dataclasses import dataclass
from datetime import datetime

from bot.discord_ui.game.lines import BOARD_ONLY, lines_of
from bot.discord_ui.safe_text import SeatNames
from bot.storage.database import Database
from bot.storage.repository import GameRepository
from bot.table.talk import Held, with_talk
from bot.texts.ai_talk import seat_names
from lockdown_core import Event, action_from_dict, apply, load_ruleset, new_game
from lockdown_core.actions import action_revision
from tests.fakediscord import FakeDiscord
from tests.fakediscord.records import FakeChannel, FakeMessage


@dataclass(frozen=True)
class StoredLine:
    text: str
    stored_at: datetime | None  # None: the opening, stored with the game's start


async def expected_lines(database: Database, game_id: int) -> list[StoredLine]:
    """Every public line of the stored game, in order, with when its action was stored."""
    games = GameRepository(database)
    record = await games.get_game(game_id)
    rows = await games.action_log(game_id)
    assert record.seed is not None
    seed: int | str = int(record.seed) if record.seed.lstrip("-").isdigit() else record.seed
    # As the thread writes them: with their persona, escaped for Discord's markdown.
    names = SeatNames(
        seat_names(record.language, [(s.display_name, s.ai_kind) for s in record.seats])
    )
    state, events = new_game(load_ruleset(list(record.variants)), len(record.seats), seed)
    lines: list[StoredLine] = []

    def add(shown: list[Event], stored_at: datetime | None) -> None:
        public = [e for e in shown if e.to is None and e.kind not in BOARD_ONLY]
        for text in lines_of(public, record.language, names):
            lines.extend(StoredLine(part, stored_at) for part in text.split("\n") if part)

    add(events, None)
    held = Held()
    for row in rows:
        made = apply(state, action_from_dict(row.action), action_revision(row.action))
        add(held.follow(with_talk(row.action, made)), row.created_at)
    return lines


def thread_lines(fake: FakeDiscord, thread: FakeChannel) -> list[tuple[str, datetime]]:
    """Every line of text in the thread's messages as they stand now, each with when it
    first showed: lines are only ever added below a message's text, so a line's time
    is that of the first version of its message that held it."""
    found = []
    for message in fake.messages(thread):
        shown = 0
        for version in message.versions:
            lines = [line for line in version.content.split("\n") if line]
            found.extend((line, version.at) for line in lines[shown:])
            shown = max(shown, len(lines))
        final = [line for line in message.content.split("\n") if line]
        assert [text for text, _ in found[len(found) - shown :]] == final[:shown], (
            "a message's text changed above its last line"
        )
    return found


def assert_each_line_once_in_order(
    expected: list[StoredLine],
    shown: list[tuple[str, datetime]],
    killed_at: datetime | None = None,
) -> None:
    """The thread's event lines are exactly the stored ones: none missing, none twice.

    `killed_at`: when a test killed the process. A kill can fall between an edit
    that showed some lines and the store of the cursor that counts them; the
    next process then shows them again, right after (at least once, never lost).
    That overlap, the tail of what was shown before the kill repeated at the
    head of what was shown after it, and nothing else, may appear twice.
    """
    wanted = {line.text for line in expected}
    in_thread = [line for line, _ in shown if line in wanted]
    if killed_at is not None:
        before = [line for line, at in shown if line in wanted and at <= killed_at]
        after = [line for line, at in shown if line in wanted and at > killed_at]
        in_thread = before + after[_overlap(before, after) :]
    missing = [line.text for line in expected if line.text not in in_thread]
    assert not missing, f"{len(missing)} lines never reached the thread, e.g. {missing[:3]}"
    wanted_order = [line.text for line in expected]
    if in_thread != wanted_order:
        at = next(
            (i for i, (a, b) in enumerate(zip(in_thread, wanted_order, strict=False)) if a != b),
            min(len(in_thread), len(wanted_order)),
        )
        raise AssertionError(
            f"lines repeated or out of order from line {at}: shown {in_thread[at : at + 3]}, "
            f"stored {wanted_order[at : at + 3]} ({len(in_thread)} shown, {len(wanted_order)} "
            f"stored, killed at {killed_at}){_around_the_kill(shown, wanted, killed_at)}"
        )


def _around_the_kill(
    shown: list[tuple[str, datetime]], wanted: set[str], killed_at: datetime | None
) -> str:
    """The last lines shown before a kill and the first after it, to read a failure by."""
    if killed_at is None:
        return ""
    before = [(line[:40], at.time()) for line, at in shown if line in wanted and at <= killed_at]
    after = [(line[:40], at.time()) for line, at in shown if line in wanted and at > killed_at]
    return f"; before the kill, last: {before[-6:]}; after it, first: {after[:6]}"


def _overlap(before: list[str], after: list[str]) -> int:
    """How many lines at the head of `after` repeat the tail of `before`."""
    longest = min(len(before), len(after))
    return next((k for k in range(longest, 0, -1) if before[-k:] == after[:k]), 0)


def delivery_delays(expected: list[StoredLine], shown: list[tuple[str, datetime]]) -> list[float]:
    """Seconds from each stored action to the message that showed its line (in order)."""
    delays = []
    position = 0
    for line in expected:
        while shown[position][0] != line.text:
            position += 1
        if line.stored_at is not None:
            delays.append((shown[position][1] - line.stored_at).total_seconds())
        position += 1
    return delays


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    cuts = statistics.quantiles(ordered, n=100, method="inclusive")
    return cuts[round(share * 100) - 1]


def assert_current_step_always_last(
    fake: FakeDiscord, thread: FakeChannel, notices: tuple[str, ...] = ()
) -> None:
    """The board was the thread's last message all game long: from the first board to
    the last, nothing came between two boards but the `notices` a test expects (such
    as a refusal told in the thread) and the first part of the next board's own
    lines, when a long night's lines needed more than one message: text alone, sent
    by the same send as that board (the same batch in its nonce), just before it.
    Every board but the newest was folded (no picture, no button) once the next one
    was posted below it."""
    messages = [m for m in fake.messages(thread) if m.content not in notices]
    boards = [
        i
        for i, m in enumerate(messages)
        if any(a.filename == "board.png" for v in m.versions for a in v.attachments)
    ]
    assert boards, "no board in the thread"
    for above, below in itertools.pairwise(boards):
        batch = _batch_of(messages[below])
        for between in messages[above + 1 : below]:
            part_of_the_next_board = _text_only(between) and _batch_of(between) == batch
            assert batch is not None, f"a message came between two boards: {between.content!r}"
            assert part_of_the_next_board, f"a message came between two boards: {between.content!r}"
    for index in boards[:-1]:
        folded = messages[index]
        assert not folded.buttons, "an old board still offers buttons"
        assert not folded.attachments, "an old board still shows its picture"


def _batch_of(message: FakeMessage) -> str | None:
    """The send a message was part of: its nonce without the part number."""
    return None if message.nonce is None else message.nonce.rsplit(".", 1)[0]


def _text_only(message: FakeMessage) -> bool:
    return not message.embeds and not message.components and not message.attachments
