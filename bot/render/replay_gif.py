"""The night told back: a finished game as an animated GIF, made from its stored log.

The game is played again from its seed and actions (the same replay that
proves fair play), and a frame is drawn each time an action changed the board
(a family placed, a move, Monsters arriving, a character devoured, a location
closing), the turn and step written at the top and the public line of what
happened below it. Only public views are drawn, so nothing a player kept
secret shows, and only the public narration is written.

Same log, same bytes: the palette is fixed (`board_image.PALETTE`), the font
is shipped and laid out without libraqm, and nothing reads a clock. Frames
share the palette and Pillow stores each one as the rectangle that changed, so
a long 6-player game stays well under Discord's 8 MiB.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image

from bot.render.board_image import PAD, WIDTH, board_picture
from bot.render.board_labels import BoardLabels
from bot.render.canvas import Drawn, text_width
from bot.render.glyphs import BOLD, drawable
from bot.render.labels import board_labels
from bot.render.palette import PALETTE
from bot.render.pool import drawings
from bot.render.scores import draw_scores
from bot.texts import t
from bot.texts.catalog import MissingText
from bot.texts.narrate import describe
from lockdown_core import (
    Action,
    Event,
    GameState,
    ReplayLog,
    Ruleset,
    action_from_dict,
    apply,
    load_ruleset,
    new_game,
    view,
)
from lockdown_core.actions import action_revision
from lockdown_core.board_facts import board_facts
from lockdown_core.ruleset import RULES_REVISION
from lockdown_core.scenario_format import Played, Scenario
from lockdown_core.scenario_setup import build

log = logging.getLogger(__name__)

FRAME_MS = 700
# Frames where someone is devoured or a location closes stay longer: they are the story.
DRAMA_MS = 1500
LAST_MS = 5000
# Discord's upload limit for a bot without a boosted server.
MAX_GIF_BYTES = 8 * 1024 * 1024
# Frame sizes tried in turn, largest first, until the GIF fits.
SCALES = (1.0, 0.75, 0.5)
# How long the bot waits for a GIF before giving up on it (the reveal never waits).
GIF_TIMEOUT = 120.0
# The events a frame's caption tells, the most telling first.
CAPTION_ORDER = (
    "game_over",
    "location_closed",
    "character_devoured",
    "nobody_found",
    "monsters_arrive",
    "monster_added",
    "character_moved",
    "character_placed",
    "card_played",
    "badge_taken",
)
DRAMA = ("location_closed", "character_devoured")
# The parts of the public view the picture shows as the board: a frame is drawn when
# one of them changes (hand sizes, the deck and the vote in progress do not count).
BOARD_KEYS = ("characters", "monsters", "closed", "cold_storage", "badge", "martyr")


class GifTooLarge(Exception):
    """Even the smallest frames make a GIF over the limit."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One moment of the game worth a frame: the public view and what happened."""

    data: dict[str, Any]
    caption: str
    duration: int


def board_key(data: dict[str, Any]) -> tuple[str, ...]:
    """What a frame depends on; two views with the same key draw the same board."""
    return tuple(repr(data[key]) for key in BOARD_KEYS)


def _caption(events: Sequence[Event], lang: str, names: list[str]) -> tuple[str, bool]:
    """The public line of the most telling event, and whether it deserves a longer pause."""
    public = [e for e in events if e.to is None]
    ranked = sorted(
        (e for e in public if e.kind in CAPTION_ORDER), key=lambda e: CAPTION_ORDER.index(e.kind)
    )
    for event in ranked + public:
        try:
            line = describe(event, lang, names)
        except MissingText:
            continue  # an event with no public line of its own tells nothing here
        if line:
            # One line under the title: the game's end tells its scores on a panel instead.
            return _whole_sentences(line.splitlines()[0]), event.kind in DRAMA
    return "", False


def _whole_sentences(line: str) -> str:
    """The sentences of `line` that fit the caption's width, whole: the opening's
    "A new game begins: ... Seat 1 holds…" was cut in the middle of who holds what
    (the legend shows the badge and the Martyr anyway). A first sentence too long
    for the line is left to the board to cut."""
    space = WIDTH - 2 * PAD
    if text_width(line) <= space:
        return line
    kept = ""
    for sentence in re.findall(r"[^.!?…]+[.!?…]+\s*|[^.!?…]+$", line):
        if kept and text_width(kept + sentence.rstrip()) > space:
            break
        kept += sentence
    return kept.rstrip()


Move = tuple[Action, int]
# Where a told-back game starts: a fresh state, the events that made it, the moves to play.
Start = tuple[GameState, list[Event], list[Move]]


def record_start(record: ReplayLog) -> Start:
    """A stored game: the new game of its seed, and its actions as `replay` plays them."""
    state, events = new_game(load_ruleset(record.variants), record.players, record.seed)
    return state, events, [(action_from_dict(d), action_revision(d)) for d in record.actions]


def scenario_start(scenario: Scenario) -> Start:
    """A scenario file (or an exported game): its start and its played actions, under the
    revision `lockdown replay` plays them with; ScenarioError if it cannot be built."""
    state, events = build(scenario)
    unsaid = RULES_REVISION if scenario.position is not None else 1
    moves = [
        (entry.action, unsaid if entry.revision is None else entry.revision)
        for entry in scenario.actions
        if isinstance(entry, Played)
    ]
    return state, events, moves


def frames(
    state: GameState, opening: list[Event], moves: Sequence[Move], lang: str, names: list[str]
) -> list[Frame]:
    """The moments where the board changed, the first and the last included.

    `state` is played forward: pass a fresh one (`record_start`, `scenario_start`).
    """
    data = view(state, None)
    caption, _ = _caption(opening, lang, names)
    taken = [Frame(data, caption, FRAME_MS)]
    last = board_key(data)
    since: list[Event] = []  # what happened since the last frame
    for action, revision in moves:
        events = apply(state, action, revision)
        since += events
        data = view(state, None)
        key = board_key(data)
        if key == last:
            continue
        last = key
        caption, drama = _caption(events, lang, names)
        taken.append(Frame(data, caption, DRAMA_MS if drama else FRAME_MS))
        since = []
    # The last frame shows the game as it ended (its result too), and says so if the
    # end came with no change to the board.
    caption = _caption(since, lang, names)[0] if since else ""
    taken[-1] = Frame(data, caption or taken[-1].caption, LAST_MS)
    return taken


def render_gif(record: ReplayLog, lang: str = "en", names: Sequence[str] | None = None) -> bytes:
    """The GIF of a recorded game: a pure function of the record, the language and the names."""
    return draw_gif(*record_start(record), lang, names)


def draw_gif(
    state: GameState,
    opening: list[Event],
    moves: Sequence[Move],
    lang: str = "en",
    names: Sequence[str] | None = None,
    limit: int = MAX_GIF_BYTES,
) -> bytes:
    """The GIF of a game played from `state` through `moves` (seats named by number if
    `names` is None), at most `limit` bytes; GifTooLarge if no frame size fits."""
    shown = shown_names(state, lang, names)
    rules = state.rules
    moments = frames(state, opening, moves, lang, shown)
    pictures = [frame_picture(moment, rules, lang, shown)[0] for moment in moments]
    durations = [m.duration for m in moments]
    # Smaller frames only for a game too long for Discord's limit at full size: the text
    # keeps its size relative to the picture, so it reads the same once Discord fits it.
    for scale in SCALES:
        data = _encode([_scaled(p, scale) for p in pictures], durations)
        if len(data) <= limit:
            return data
    raise GifTooLarge(f"{len(moments)} frames make {len(data)} bytes even at {SCALES[-1]:.0%}")


def shown_names(state: GameState, lang: str, names: Sequence[str] | None) -> list[str]:
    """Each seat's name as the frames and their captions show it: only what the font
    draws, else the seat's label ("Seat 3")."""
    seats = [t(lang, "board.seat", number=seat + 1) for seat in range(state.players)]
    given = list(names or ())
    return [
        drawable(given[seat], seats[seat], BOLD) if seat < len(given) else seats[seat]
        for seat in range(state.players)
    ]


def frame_picture(
    moment: Frame, rules: Ruleset, lang: str, names: list[str]
) -> tuple[Image.Image, Drawn]:
    """One frame: the board with its caption, and the scores once the game is over."""

    def say(key: str, **params: object) -> str:
        return t(lang, key, **params)

    facts = board_facts(moment.data, rules)
    labels = _with_caption(board_labels(moment.data, rules, names, say, facts), moment.caption)
    image, drawn = board_picture(
        moment.data,
        labels,
        {loc.id: loc.character_spots for loc in rules.locations},
        {loc.id: loc.monster_spots for loc in rules.locations},
        list(rules.cold_storage_rows),
        facts,
    )
    if moment.data["result"] is not None:
        image = draw_scores(image, moment.data["result"], names, lang, drawn)
    return image, drawn


def _scaled(picture: Image.Image, scale: float) -> Image.Image:
    if scale == 1:
        return picture
    size = (round(picture.width * scale), round(picture.height * scale))
    smaller = picture.convert("RGB").resize(size, Image.Resampling.BOX)
    return smaller.quantize(palette=PALETTE, dither=Image.Dither.NONE)


def _encode(pictures: list[Image.Image], durations: list[int]) -> bytes:
    out = io.BytesIO()
    pictures[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=pictures[1:],
        duration=durations,
        loop=0,
        optimize=False,
    )
    return out.getvalue()


def _with_caption(labels: BoardLabels, caption: str) -> BoardLabels:
    """The frame's line says what just happened, where the board says when the game ends."""
    return replace(labels, end_line=caption or labels.end_line)


async def game_gif(
    record: ReplayLog, lang: str, names: Sequence[str] | None = None
) -> bytes | None:
    """The GIF of a finished game, drawn in the drawing pool's process (`pool`) so that
    the games keep the interpreter; None (and a log line saying why) if it cannot be
    made in time, so that the reveal goes out without it."""
    try:
        return await asyncio.wait_for(
            drawings.run(render_gif, record, lang, list(names) if names else None), GIF_TIMEOUT
        )
    except TimeoutError:
        log.warning("replay GIF not made: longer than %.0f s", GIF_TIMEOUT)
    except Exception:
        log.exception("replay GIF not made")
    return None
