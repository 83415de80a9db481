"""What one seat's panel says, for Discord's My hand and the terminal alike.

Built from the seat's own view (`lockdown_core.view`, R12) and the public
state, in the reader's language at the moment it is shown: nothing here is
stored, so a French reader of an English game reads French.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.texts import card_help, choose_lang, t
from bot.texts.catalog import and_list
from bot.texts.lang import locale_language
from bot.texts.rules_text import (
    kind_lines,
    kinds_in_play,
    step_help,
    unseen_dice,
    vote_weights,
    voters_text,
)
from lockdown_core import GameState, Step

# Steps whose secret choice may still be changed (R2.3, R5.2).
REVISABLE = {Step.DESIGNATION: "my_designation", Step.DESTINATIONS: "my_destination"}


def hand_lines(lang: str, hand: Sequence[str], state: GameState) -> list[str]:
    """`**Gun**: what it does`, one line per card in hand; the catalog places the colon,
    since French puts a non-breaking space before it."""
    return [
        t(lang, "panel.card", card=t(lang, f"card.{c}"), help=card_help(lang, c, state.rules))
        for c in hand
    ]


def reminder_lang(user_locale: str | None, server_lang: str | None) -> str:
    """The language of a reminder DM: a DM has one reader, so their own Discord locale
    comes first when we speak it (the server's choice is for its shared channels), then
    the server's language, then English."""
    return locale_language(user_locale) or choose_lang(server_lang, None)


def reminder_text(user_locale: str | None, server_lang: str | None, channel: str) -> str:
    """The reminder DM that a game waits on its reader in `channel`, in their language."""
    return t(reminder_lang(user_locale, server_lang), "dm.your_turn", channel=channel)


def private_lines(
    lang: str, state: GameState, data: Mapping[str, Any], seat: int, names: Sequence[str]
) -> list[str]:
    """What only this seat knows now, and why the badge holder may not know the dice."""
    lines = []
    if data.get("dice") and not state.dice_revealed:
        lines.append(t(lang, "panel.dice", dice=and_list(lang, [str(d) for d in data["dice"]])))
    unseen = unseen_dice(lang, state, seat)
    if unseen is not None:
        lines.append(unseen)
    if "drawn" in data:
        drawn = and_list(lang, [t(lang, f"card.{c}") for c in data["drawn"]])
        lines.append(t(lang, "panel.drawn", cards=drawn))
    if "my_destination" in data:
        location = t(lang, f"location.{data['my_destination']}")
        lines.append(t(lang, "panel.my_destination", location=location))
    vote = data.get("vote") or {}
    if "my_designation" in vote:
        lines.append(t(lang, "panel.my_designation", name=names[vote["my_designation"]]))
    revisable = REVISABLE.get(state.step)
    if revisable is not None and (revisable in data or revisable in vote):
        lines.append(t(lang, "panel.change_until_reveal"))
    return lines


def now_lines(lang: str, state: GameState, names: Sequence[str]) -> list[str]:
    """The step's help and, while a vote is open, who votes with what weight (R2.1)."""
    lines = [step_help(lang, state.step, state.rules)]
    if state.vote is not None and state.step in (Step.DISCUSSION, Step.DESIGNATION):
        voters = voters_text(lang, vote_weights(state), names)
        lines.append(t(lang, "panel.voters", voters=voters))
    return lines


def family_lines(lang: str, state: GameState) -> list[str]:
    """Each kind dealt in this game, with this game's strength, votes and points."""
    return kind_lines(lang, state.rules, kinds_in_play(state), note_useless=False)
