"""Each step of a game explained to someone who never played, from one seat's chair.

`lesson(lang, state, seat, names)` says what is being decided now and by whom,
what each of the seat's options does with this game's numbers (a variant's
Blocker strength, truck draw or closing threshold), and which rules of
docs/rules.md apply, by id. The terminal's `lockdown play --teach` prints it at
every step, and a practice game on Discord can show it beside the board.

It reads the game through `view(state, seat)` (R12) and the public board
only, so it never says what the seat does not know: another hand, the truck's
cards while someone else searches, the dice before the reveal unless the seat
has seen them, a secret destination or ballot that is not the seat's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.texts import card_help, catalog, t
from bot.texts.catalog import and_list
from bot.texts.rules_text import kind_lines, vote_weights, voters_text
from bot.texts.teach_board import mall_facts
from lockdown_core import GameState, PlayCard, Step, facts, legal_actions, pending_seats, view
from lockdown_core.board import attack_uses_equal, strength_at
from lockdown_core.pieces import Character
from lockdown_core.votes import martyr_for

# The rules each step is played under (docs/rules.md ids), what the lesson cites.
STEP_RULES: dict[str, tuple[str, ...]] = {
    Step.PLACEMENT: ("R1.4",),
    Step.DISCUSSION: ("R2.1", "R2.3", "R2.6"),
    Step.DESIGNATION: ("R2.1", "R2.3", "R2.4"),
    Step.TIEBREAK: ("R2.4",),
    Step.TRUCK_CHOICE: ("R3.2", "R3.3", "R3.4"),
    Step.WALKIE_WINDOW: ("R4.3", "R4.4", "R4.5"),
    Step.BADGE_DESTINATION: ("R5.1", "R5.2"),
    Step.DESTINATIONS: ("R5.1", "R5.2", "R5.3"),
    Step.MOVE: ("R5.4",),
    Step.AFTER_MOVE: ("R5.4",),
    Step.DEVOUR: ("R7.4", "R7.5", "R8.1", "R8.2"),
    Step.GAME_OVER: ("R9.1", "R9.2"),
}
# What a vote is for: the rules of its purpose, added to the vote's own.
VOTE_RULES = {"truck": ("R3.2",), "badge": ("R4.1", "R4.3"), "attack": ("R7.2", "R7.3", "R7.4")}
PARKING_ATTACK_RULES = ("R7.7",)


@dataclass(frozen=True)
class Lesson:
    """One step explained: what is decided, what the seat may do, the rules that apply."""

    decided: list[str]
    yours: list[str]
    rules: tuple[str, ...]

    def lines(self, lang: str) -> list[str]:
        return [
            *self.decided,
            *self.yours,
            t(lang, "teach.rules", rules=and_list(lang, self.rules)),
        ]


def teach_lines(lang: str, state: GameState, seat: int, names: Sequence[str]) -> list[str]:
    """`lesson(...).lines(lang)`: the explanation of the current step, line by line."""
    return lesson(lang, state, seat, names).lines(lang)


def lesson(lang: str, state: GameState, seat: int, names: Sequence[str]) -> Lesson:
    """The current step explained to `seat`, in `lang`, from what that seat may know."""
    return _Teacher(lang, state, seat, names).lesson()


class _Teacher:
    """The reader, what they may see (their view), and what they may do now."""

    def __init__(self, lang: str, state: GameState, seat: int, names: Sequence[str]) -> None:
        self.lang = lang
        self.state = state
        self.seat = seat
        self.names = names
        self.data: dict[str, Any] = view(state, seat)
        self.legal = legal_actions(state, seat)
        self.mine = seat in pending_seats(state) and bool(self.legal)

    def say(self, key: str, **params: object) -> str:
        return t(self.lang, key, **params)

    def count(self, noun: str, n: int) -> str:
        return catalog().count(self.lang, noun, n)

    def dice(self, dice: Sequence[int]) -> str:
        return and_list(self.lang, [str(d) for d in dice])

    def name(self, seat: int) -> str:
        return self.names[seat]

    def location(self, loc: int, form: str = "") -> str:
        return self.say(f"location.{loc}.{form}" if form else f"location.{loc}")

    def lesson(self) -> Lesson:
        step = self.state.step
        rules = STEP_RULES[step]
        vote = self.state.vote
        if vote is not None and step in (Step.DISCUSSION, Step.DESIGNATION, Step.TIEBREAK):
            rules = (*rules, *VOTE_RULES[vote.kind])
            if facts.parking_attack(self.state.rules, vote.kind, vote.location):
                rules = (*rules, *PARKING_ATTACK_RULES)
        explain = {
            Step.PLACEMENT: self._placement,
            Step.DISCUSSION: self._discussion,
            Step.DESIGNATION: self._designation,
            Step.TIEBREAK: self._tiebreak,
            Step.TRUCK_CHOICE: self._truck_choice,
            Step.WALKIE_WINDOW: self._walkie_window,
            Step.BADGE_DESTINATION: self._badge_destination,
            Step.DESTINATIONS: self._destinations,
            Step.MOVE: self._move,
            Step.AFTER_MOVE: self._after_move,
            Step.DEVOUR: self._devour,
            Step.GAME_OVER: self._game_over,
        }
        decided, yours = explain[step]()
        return Lesson(decided, yours, rules)

    # Shared phrases -------------------------------------------------------------

    def _cards(self, cards: Sequence[str]) -> list[str]:
        """Each card with what it does, with this game's numbers."""
        rules = self.state.rules
        return [
            self.say("teach.card", card=self.say(f"card.{c}"), help=card_help(self.lang, c, rules))
            for c in dict.fromkeys(cards)
        ]

    def _playable(self) -> list[str]:
        return [a.card for a in self.legal if isinstance(a, PlayCard)]

    def _dice_known(self) -> list[str]:
        """The arrival dice, if this seat may know them (R4.3, R4.4, R12.2)."""
        dice = self.data.get("dice")
        if not dice or self.state.step == Step.PLACEMENT:
            return []
        return [self.say("teach.dice_known", dice=self.dice(dice))]

    def _purpose(self) -> list[str]:
        """What the open vote decides (R3.2, R4.1, R7.2-R7.7), with this game's numbers."""
        vote = self.state.vote
        assert vote is not None
        rules = self.state.rules
        if vote.kind == "truck":
            key = "teach.vote.truck.gift" if rules.truck_gift else "teach.vote.truck"
            drawn = min(rules.truck_draw, self.data["deck"])
            return [self.say(key, cards=self.count("card", drawn))]
        if vote.kind == "badge":
            sees = facts.badge_sees_dice(rules, won_in_vote=True)
            key = "teach.vote.badge.sees" if sees else "teach.vote.badge.blind"
            return [self.say(key)]
        loc = vote.location
        if loc == facts.overflow(rules):
            monsters = self.count("monster", self.state.monsters[loc])
            return [self.say("teach.vote.parking", monsters=monsters)]
        key = "teach.vote.attack.equal" if attack_uses_equal(self.state) else "teach.vote.attack"
        return [
            self.say(
                key,
                location_in=self.location(loc, "in"),
                monsters=self.count("monster", self.state.monsters[loc]),
                defence=strength_at(self.state, loc),
            )
        ]

    def _voters(self) -> str:
        return self.say(
            "teach.voters", voters=voters_text(self.lang, vote_weights(self.state), self.names)
        )

    # One method per step ---------------------------------------------------------

    def _placement(self) -> tuple[list[str], list[str]]:
        mover = self.state.mover
        decided = [self.say("teach.placement", name=self.name(mover))]
        if not self.mine:
            return decided, [self.say("teach.watch")]
        yours = [self.say("teach.placement.yours", dice=self.dice(self.data["dice"]))]
        yours += mall_facts(self.lang, self.state, [c.location for c in self._family()])
        return decided, yours + self._kinds(self._family())

    def _family(self) -> list[Character]:
        return [c for c in self.state.family(self.seat) if c.location]

    def _kinds(self, characters: list[Character]) -> list[str]:
        """Each kind among `characters`, with its strength, votes and points in this game."""
        kinds = list(dict.fromkeys(c.kind for c in characters))
        return kind_lines(self.lang, self.state.rules, kinds, note_useless=False)

    def _discussion(self) -> tuple[list[str], list[str]]:
        decided = [*self._purpose(), self._voters(), self.say("teach.discussion")]
        if not self.mine:
            return decided, [self.say("teach.discussion.idle")]
        playable = self._playable()
        if not playable:
            return decided, [self.say("teach.discussion.no_card")]
        return decided, [self.say("teach.discussion.cards"), *self._cards(playable)]

    def _designation(self) -> tuple[list[str], list[str]]:
        vote = self.state.vote
        assert vote is not None
        open_ballots = facts.ballots_open(self.state.rules)
        decided = [
            *self._purpose(),
            self._voters(),
            self.say(
                "teach.designation.open" if open_ballots else "teach.designation",
                martyr=self.name(self.state.martyr),
            ),
        ]
        if self.mine:
            weight = vote_weights(self.state)[self.seat]
            key = "teach.designation.attack" if vote.kind == "attack" else "teach.designation.yours"
            return decided, [self.say(key, votes=self.count("vote", weight))]
        ballots = self.data["vote"]
        # Secret ballots: only the seat's own; Open ballots (R11): everyone's, its own too.
        mine = ballots.get("my_designation", ballots["designations"].get(str(self.seat)))
        if mine is not None:
            key = "teach.designation.cast.open" if open_ballots else "teach.designation.cast"
            return decided, [self.say(key, name=self.name(mine))]
        if self.seat in vote.candidates:
            return decided, [self.say("teach.designation.waiting")]
        where = self.location(vote.location, "in")
        return decided, [self.say("teach.designation.no_vote", location_in=where)]

    def _tiebreak(self) -> tuple[list[str], list[str]]:
        vote = self.state.vote
        assert vote is not None
        tied = [self.name(p) for p in vote.tied]
        together = and_list(self.lang, tied)
        decided = [
            *self._purpose(),
            self.say("teach.tiebreak", tied=together, martyr=self.name(self.state.martyr)),
        ]
        return decided, [self.say("teach.tiebreak.yours" if self.mine else "teach.watch")]

    def _truck_choice(self) -> tuple[list[str], list[str]]:
        rules = self.state.rules
        key = "teach.truck.gift" if rules.truck_gift else "teach.truck"
        decided = [self.say(key, name=self.name(self.state.mover))]
        if not self.mine:
            return decided, [self.say("teach.truck.secret")]
        drawn = self.data["drawn"]
        yours_key = "teach.truck.yours.gift" if rules.truck_gift else "teach.truck.yours"
        return decided, [self.say(yours_key), *self._cards(drawn)]

    def _walkie_window(self) -> tuple[list[str], list[str]]:
        decided = [
            self.say(
                "teach.walkie",
                name=self.name(self.state.badge),
                dice=self.data["dice_count"],
            )
        ]
        known = self._dice_known()
        if known:
            return decided, [*known, self.say("teach.walkie.known")]
        if self.mine and self._playable():
            return decided, [self.say("teach.walkie.yours"), *self._cards(["walkie_talkie"])]
        return decided, [self.say("teach.walkie.unknown")]

    def _badge_destination(self) -> tuple[list[str], list[str]]:
        decided = [self.say("teach.badge_destination", name=self.name(self.state.badge))]
        if not self.mine:
            return decided, [*self._dice_known(), self.say("teach.watch")]
        yours = [self.say("teach.badge_destination.yours"), *self._dice_known()]
        return decided, yours + self._where_to()

    def _destinations(self) -> tuple[list[str], list[str]]:
        announced = self.data.get("badge_destination")
        decided = [self.say("teach.destinations")]
        if announced is not None:
            decided.append(
                self.say(
                    "teach.destinations.badge",
                    name=self.name(self.state.badge),
                    location=self.location(announced),
                )
            )
        mine = self.data.get("my_destination")
        if self.mine:
            yours = [self.say("teach.destinations.yours"), *self._dice_known()]
            return decided, yours + self._where_to()
        if mine is not None:
            return decided, [self.say("teach.destinations.chosen", location=self.location(mine))]
        return decided, [*self._dice_known(), self.say("teach.watch")]

    def _where_to(self) -> list[str]:
        """Room left at each place offered, and where a character would land (R5.2, R5.4)."""
        return [
            self.say("teach.destination.rule"),
            *mall_facts(self.lang, self.state, [getattr(a, "location", 0) for a in self.legal]),
        ]

    def _move(self) -> tuple[list[str], list[str]]:
        mover = self.state.mover
        # Every destination is public by now (R5.3).
        goal = self.location(self.state.destinations[mover], "to")
        decided = [self.say("teach.move", name=self.name(mover), location_to=goal)]
        if not self.mine:
            return decided, [self.say("teach.watch")]
        return decided, [self.say("teach.move.yours")]

    def _after_move(self) -> tuple[list[str], list[str]]:
        decided = [self.say("teach.after_move", name=self.name(self.state.mover))]
        if self.mine and self._playable():
            return decided, [self.say("teach.after_move.yours"), *self._cards(["energy_drink"])]
        return decided, [self.say("teach.watch")]

    def _devour(self) -> tuple[list[str], list[str]]:
        mover = self.state.mover
        vote = self.state.vote
        assert vote is not None
        loc = vote.location
        where = self.location(loc, "in")
        if facts.martyr_to_owner(self.state.rules):
            decided = [self.say("teach.devour", name=self.name(mover), location_in=where)]
        else:
            # Vendetta: the designations are public by now, and so is who takes the token.
            martyr = self.name(martyr_for(self.state, mover))
            decided = [
                self.say(
                    "teach.devour.vendetta",
                    name=self.name(mover),
                    location_in=where,
                    martyr=martyr,
                )
            ]
        if not self.mine:
            return decided, [self.say("teach.watch")]
        here = [c for c in self._family() if c.location == loc and not c.hidden]
        return decided, [self.say("teach.devour.yours"), *self._kinds(here)]

    def _game_over(self) -> tuple[list[str], list[str]]:
        points = self.count("point", self.state.rules.keys_points)
        return [self.say("teach.game_over", points=points)], []
