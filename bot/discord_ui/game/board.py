"""The board message: one moment of the game, drawn whole.

A `BoardMoment` is taken from the table while its lock is held, right after an
action was stored, and holds copies of everything the board shows: the public
view, who is awaited, the step's token and deadline, the vote's candidates.
The picture, the text, the "Now" field and the buttons are all drawn from the
same moment, so a board never mixes two versions of the game.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
from dataclasses import dataclass
from functools import partial
from typing import Any

import discord

from bot.discord_ui.game.buttons import ActButton, HandButton
from bot.discord_ui.limits import ATTACHMENT_DESCRIPTION, EMBED_DESCRIPTION, FIELD_VALUE, fit
from bot.discord_ui.safe_text import plain_names
from bot.discord_ui.seats.buttons import TakeButton
from bot.render.board_text import board_lines
from bot.render.describe import board_description
from bot.render.labels import board_png
from bot.table.codes import encode
from bot.table.handover import open_seats
from bot.table.table import Table
from bot.texts import t
from bot.texts.catalog import Translate, and_list
from bot.texts.rules_text import vote_weights, voters_text
from lockdown_core import Designate, Done, Ruleset, Step

# Steps whose Done button sits on the board itself: everyone may answer them.
PUBLIC_DONE_STEPS = (Step.DISCUSSION, Step.WALKIE_WINDOW, Step.AFTER_MOVE)


@dataclass(frozen=True, slots=True)
class BoardMoment:
    """What the board shows, copied at one state version."""

    game_id: int
    version: int
    token: str
    step: str
    data: dict[str, Any]
    rules: Ruleset
    deadline: float | None
    finished: bool
    seed: int | str | None
    seed_hash: str
    candidates: tuple[int, ...]
    designated: int
    public_count: int
    # Each voter's weight in the open vote (R2.1), shown beside their name.
    weights: tuple[tuple[int, int], ...] = ()
    # Seats an AI stands in for that a person may take over (`handover.open_seats`).
    open_seats: tuple[int, ...] = ()

    @classmethod
    def capture(cls, table: Table) -> BoardMoment:
        """Copy the board's facts now; call only while the table's lock is held."""
        state = table.state
        vote = state.vote
        return cls(
            game_id=table.game_id,
            version=state.version,
            token=table.token,
            step=str(state.step),
            data=copy.deepcopy(table.view_for(None)),
            rules=state.rules,
            deadline=table.deadline,
            finished=table.finished,
            seed=table.seed,
            seed_hash=state.seed_hash,
            candidates=tuple(vote.candidates) if vote is not None else (),
            designated=len(vote.designations) if vote is not None else 0,
            public_count=len(table.public_log),
            weights=tuple(vote_weights(state).items()),
            open_seats=tuple(open_seats(table.seats)),
        )


@dataclass(frozen=True, slots=True)
class BoardDrawing:
    """A board ready to send; `fingerprint` tells two drawings that look the same apart."""

    embed: discord.Embed
    view: discord.ui.View
    png: bytes
    fingerprint: str
    # The picture in words, for screen readers (Discord's attachment description).
    description: str

    def file(self) -> discord.File:
        return discord.File(
            io.BytesIO(self.png), filename="board.png", description=self.description
        )


# The parts of the public view the picture draws (`bot.render.labels.board_png`): a
# count, a Done mark, a vote's ballots or who chose change the text, not the picture.
PICTURE_KEYS = (
    "players",
    "turn",
    "step",
    "characters",
    "monsters",
    "closed",
    "cold_storage",
    "badge",
    "martyr",
    "deck",
    "hand_sizes",
    "seat",
)


def picture_key(moment: BoardMoment) -> str:
    """What the picture depends on: the parts of the view it draws, and where the
    Monsters attack (the only part of a vote it shows)."""
    data = moment.data
    vote = data.get("vote")
    shown = {key: data.get(key) for key in PICTURE_KEYS}
    shown["attack"] = [vote["kind"], vote["location"]] if vote is not None else None
    return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()


def render_picture(moment: BoardMoment, say: Translate, names: list[str]) -> bytes:
    """The PNG of the mall at this moment (CPU work: call it off the event loop)."""
    return board_png(moment.data, moment.rules, names, say)


def draw(
    moment: BoardMoment,
    png: bytes,
    lang: str,
    names: list[str],
    *,
    notes: tuple[str, ...] = (),
) -> BoardDrawing:
    """The board message for `moment` in `lang`, its picture already rendered as `png`."""
    say = partial(t, lang)
    data = moment.data
    embed = discord.Embed(
        title=say("board.title", turn=data["turn"]),
        description=fit(
            "\n".join(board_lines(data, names, lang, rules=moment.rules)), EMBED_DESCRIPTION
        ),
    )
    embed.add_field(name=say("board.step"), value=step_text(moment, lang, names), inline=False)
    if data["variants"]:
        embed.add_field(
            name=say("board.variants"),
            value=fit(
                and_list(lang, [say(f"variant.{v}.name") for v in data["variants"]]), FIELD_VALUE
            ),
            inline=False,
        )
    for note in notes:
        embed.add_field(name="\u200b", value=fit(note, FIELD_VALUE), inline=False)
    if moment.finished and moment.seed is not None:
        embed.set_footer(text=say("board.seed_revealed", seed=moment.seed, hash=moment.seed_hash))
    else:
        embed.set_footer(text=say("board.seed_hash", hash=moment.seed_hash))
    embed.set_image(url="attachment://board.png")
    view = buttons(moment, say, names)
    shown = {
        "embed": embed.to_dict(),
        "buttons": view.to_components(),
        "picture": hashlib.sha256(png).hexdigest(),
    }
    description = fit(board_description(data, moment.rules, names, lang), ATTACHMENT_DESCRIPTION)
    shown["description"] = description
    fingerprint = hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()
    return BoardDrawing(embed, view, png, fingerprint, description)


def step_text(moment: BoardMoment, lang: str, names: list[str]) -> str:
    """The "Now" field: the step, who votes with what weight, who the game waits for,
    and when the step ends."""
    say = partial(t, lang)
    parts = [say(f"step.{moment.step}.name")]
    if moment.weights and not moment.finished:
        weights = dict(moment.weights)
        parts.append(say("panel.voters", voters=voters_text(lang, weights, names)))
    if moment.step == Step.DESIGNATION and moment.candidates:
        parts.append(say("board.designated", done=moment.designated, total=len(moment.candidates)))
    elif moment.data["waiting_for"] and not moment.finished:
        waiting = and_list(lang, [names[p] for p in moment.data["waiting_for"]])
        parts.append(say("board.waiting_for", names=waiting))
    if moment.deadline is not None and not moment.finished:
        parts.append(say("board.deadline", when=f"<t:{int(moment.deadline)}:R>"))
    return fit("\n".join(parts), FIELD_VALUE)


def buttons(moment: BoardMoment, say: Translate, names: list[str]) -> discord.ui.View:
    """ "My hand" while the game runs; candidates during a vote; "Done" in discussions.

    A finished game's board has no button: nothing on it can be answered any more.
    """
    view = discord.ui.View(timeout=None)
    if moment.finished:
        return view
    view.add_item(HandButton(moment.game_id, say("ui.button.my_hand")))
    if moment.step == Step.DESIGNATION and moment.candidates:
        for candidate in moment.candidates:
            view.add_item(
                ActButton(
                    moment.game_id,
                    moment.token,
                    encode(Designate(0, candidate), moment.rules),
                    say("action.designate", name=plain_names(names)[candidate]),
                    style=discord.ButtonStyle.danger,
                )
            )
    elif moment.step in PUBLIC_DONE_STEPS:
        view.add_item(
            ActButton(
                moment.game_id,
                moment.token,
                encode(Done(0), moment.rules),
                say("action.done"),
                style=discord.ButtonStyle.secondary,
            )
        )
    for seat in moment.open_seats:
        view.add_item(
            TakeButton(
                moment.game_id, seat, say("handover.button.take", name=plain_names(names)[seat])
            )
        )
    return view


def folded(moment: BoardMoment, say: Translate) -> discord.Embed:
    """What a board becomes once a newer one is posted below it: one line of history."""
    return discord.Embed(
        description=say(
            "board.folded", turn=moment.data["turn"], step=say(f"step.{moment.step}.name")
        )
    )
