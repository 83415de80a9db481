"""Core events as lines of text, for the channel log or for one seat's eyes.

`describe(event, lang, names)` is the public line of a public event;
`describe(event, lang, names, seat=s)` is what seat `s` reads, and the only
way to render a private event. Asking for a private event's public line, or
for a seat it was not sent to, raises `PrivateEvent`: the text of a secret is
never built for somebody who may not read it. Public lines use only the
event's own data, which the core already limited to what the table may see
(R12), so e.g. a truck gift reads "A gives a card to B" in public and names
the card only for A and B.

Each kind has one renderer in a `lines_*` module, keyed by the event kind; the
catalog holds the words (`event.<kind>...`). `story` tells a run of events the
way a reader wants it: a night's Monster arrivals (R6) in one line per
location rather than one line per Monster. `vote_recap` lists every vote of a
game with the turn and the place it happened, for the final reveal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from bot.texts import ai_talk, lines_day, lines_night, lines_setup, lines_votes
from bot.texts.catalog import MissingText
from bot.texts.say import PrivateEvent, Render, Say
from lockdown_core import Event

__all__ = ["Told", "describe", "narrated_kinds", "story", "vote_recap"]

_MODULES = (
    lines_setup.LINES,
    lines_votes.LINES,
    lines_day.LINES,
    lines_night.LINES,
    ai_talk.LINES,
)
_PUBLIC: dict[str, Render] = {k: r for m in _MODULES for k, r in m.public_lines.items()}
_PRIVATE: dict[str, Render] = {k: r for m in _MODULES for k, r in m.private_lines.items()}

# Events of R6's arrivals, told together: one line per location for the whole run.
ARRIVALS = frozenset({"monster_added", "monster_not_placed"})


def describe(event: Event, lang: str, names: Sequence[str], seat: int | None = None) -> str:
    """The line `seat` reads for `event` (the channel's line when `seat` is None)."""
    if event.to is None:
        table = _PUBLIC
    elif seat is None:
        raise PrivateEvent(f"{event.kind!r} is private to seats {event.to}: it has no public line")
    elif seat not in event.to:
        raise PrivateEvent(f"{event.kind!r} is private to seats {event.to}, not seat {seat}")
    else:
        table = _PRIVATE
    render = table.get(event.kind)
    if render is None:
        audience = "public" if event.to is None else "private"
        raise MissingText(f"no {audience} narration for event kind {event.kind!r}")
    return render(Say(lang, names, seat), event.data)


def narrated_kinds() -> tuple[frozenset[str], frozenset[str]]:
    """The kinds this module can say in public and in private (for the tests)."""
    return frozenset(_PUBLIC), frozenset(_PRIVATE)


class Told(NamedTuple):
    """One line of a story, and whether only its reader may see it."""

    text: str
    private: bool


def story(
    events: Iterable[Event], lang: str, names: Sequence[str], seat: int | None = None
) -> list[Told]:
    """What `seat` (None: the channel) reads of `events`, in order.

    Each run of Monster arrivals becomes one line per location that got some,
    where they came from, and one line for those that found no spot: a night
    adds six to nine Monsters, and a line for each buried the story.
    """
    say = Say(lang, names, seat)
    told: list[Told] = []
    run: list[Event] = []
    for event in events:
        if not event.visible_to(seat):
            continue
        if event.kind in ARRIVALS:
            run.append(event)
            continue
        told.extend(Told(line, False) for line in _arrivals(say, run))
        run = []
        told.append(Told(describe(event, lang, names, seat), not event.public))
    told.extend(Told(line, False) for line in _arrivals(say, run))
    return told


def _arrivals(say: Say, run: list[Event]) -> list[str]:
    """R6.1-R6.3 in a line per location: `+3 Monsters in the Restrooms (2 from the dice,
    1 for the crowd)`, runoffs said as such, once per place and cause (R6.1), then the
    Monsters left unplaced."""
    # Per location, a count per cause: a reason (dice, Weepers, crowd) for the Monsters
    # that came where they were meant to, or the place that turned them away and why
    # (closed or full), whatever the reason they were meant for it.
    counts: dict[int, dict[tuple[str, int | None], int]] = {}
    lost = 0
    for event in run:
        if event.kind == "monster_not_placed":
            lost += 1
            continue
        d = event.data
        reasons = counts.setdefault(d["location"], {})
        turned_away = d.get("turned_away")
        key = (turned_away, d["intended"]) if turned_away else (d["reason"], None)
        reasons[key] = reasons.get(key, 0) + 1
    lines = []
    for loc, reasons in counts.items():
        parts = [
            say(f"arrivals.reason.{cause}", count=n)
            if intended is None
            else say(
                f"arrivals.runoff.{cause}",
                count=n,
                intended_from=say.location(intended, "from"),
            )
            for (cause, intended), n in reasons.items()
        ]
        lines.append(
            say(
                "arrivals.location",
                monsters=say.count("monster", sum(reasons.values())),
                location_in=say.location(loc, "in"),
                reasons=say.join(parts),
            )
        )
    if lost:
        lines.append(say("arrivals.lost", monsters=say.count("monster", lost)))
    return lines


def vote_recap(public_log: Iterable[Event], lang: str, names: Sequence[str]) -> list[str]:
    """Every revealed vote of a game, each with its turn and its location (R2.3), for
    the reveal at the end: a list of ballots without them cannot be placed in the story."""
    say = Say(lang, names, None)
    turn = 0
    lines = []
    for event in public_log:
        if event.kind == "turn_started":
            turn = event.data["turn"]
        elif event.kind == "designations_revealed":
            lines.append(lines_votes.recap_line(say, event.data, turn))
    return lines
