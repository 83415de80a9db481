"""Core events as lines of text, for the channel log or for one seat's eyes.

`describe(event, lang, names)` is the public line of a public event;
`describe(event, lang, names, seat=s)` is what seat `s` reads, and the only
way to render a private event. Asking for a private event's public line, or
for a seat it was not sent to, raises `PrivateEvent`: the text of a secret is
never built for somebody who may not read it. Public lines use only the
event's own data, which the core already limited to what the table may see
(R12), so e.g. a truck gift reads "A gives a card to B" in public and names
the card only for A and B.

Each kind has one renderer below, keyed by the event kind; the catalog holds
the words (`event.<kind>...`), this module only picks the key and fills in
names, locations, cards and counts in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.texts import catalog
from bot.texts.catalog import MissingText
from lockdown_core import Event

# R0: location 6 is the Parking lot, where attacks are fought one vote per Monster.
PARKING_LOT = 6


class PrivateEvent(ValueError):
    """A private event was asked for an audience that may not read it."""


class Say:
    """The reader's language and the seats' names, with the phrases every line needs."""

    def __init__(self, lang: str, names: Sequence[str], seat: int | None) -> None:
        self.lang = lang
        self.names = names
        self.seat = seat
        self.catalog = catalog()

    def __call__(self, key: str, **params: object) -> str:
        return self.catalog.text(self.lang, key, **params)

    def name(self, seat: int) -> str:
        return self.names[seat]

    def join(self, items: Sequence[str], empty: str = "list.nobody") -> str:
        """`a`, `a and b`, `a, b and c` in the reader's language."""
        if not items:
            return self(empty)
        if len(items) == 1:
            return items[0]
        return self("list.and", head=", ".join(items[:-1]), last=items[-1])

    def seats(self, seats: Sequence[int]) -> str:
        return self.join([self.name(s) for s in seats])

    def location(self, loc: int, form: str = "") -> str:
        """A location's name, or its form after a preposition (`in`, `to`, `from`)."""
        return self(f"location.{loc}.{form}" if form else f"location.{loc}")

    def card(self, card: str) -> str:
        return self(f"card.{card}")

    def cards(self, cards: Sequence[str]) -> str:
        return self.join([self.card(c) for c in cards], empty="list.no_cards")

    def kind(self, kind: str) -> str:
        return self(f"kind.{kind}")

    def count(self, noun: str, count: int) -> str:
        return self.catalog.count(self.lang, noun, count)

    @staticmethod
    def dice(dice: Sequence[int]) -> str:
        return ", ".join(str(d) for d in dice)


Data = dict[str, Any]
Render = Callable[[Say, Data], str]

_PUBLIC: dict[str, Render] = {}
_PRIVATE: dict[str, Render] = {}


def _public(kind: str) -> Callable[[Render], Render]:
    def register(render: Render) -> Render:
        _PUBLIC[kind] = render
        return render

    return register


def _private(kind: str) -> Callable[[Render], Render]:
    def register(render: Render) -> Render:
        _PRIVATE[kind] = render
        return render

    return register


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


# Setup (R1) -------------------------------------------------------------------


@_public("game_started")
def _game_started(say: Say, d: Data) -> str:
    line = say(
        "event.game_started",
        players=d["players"],
        badge=say.name(d["badge"]),
        martyr=say.name(d["martyr"]),
        deck=say.count("card", d["deck"]),
    )
    if d["variants"]:
        variants = say.join([say(f"variant.{v}.name") for v in d["variants"]])
        line += " " + say("event.game_started.variants", variants=variants)
    return line


@_private("hand_dealt")
def _hand_dealt(say: Say, d: Data) -> str:
    if not d["cards"]:
        return say("event.hand_dealt.private.empty")
    return say("event.hand_dealt.private", cards=say.cards(d["cards"]))


@_public("placement_rolled")
def _placement_rolled(say: Say, d: Data) -> str:
    return say("event.placement_rolled", name=say.name(d["player"]), dice=say.dice(d["dice"]))


@_public("character_placed")
def _character_placed(say: Say, d: Data) -> str:
    key = "event.character_placed" if d["location"] == d["die"] else "event.character_placed.full"
    return say(
        key,
        name=say.name(d["player"]),
        kind=say.kind(d["kind"]),
        die=d["die"],
        die_in=say.location(d["die"], "in"),
        location_in=say.location(d["location"], "in"),
        location_to=say.location(d["location"], "to"),
    )


# Monsters (R1.5, R6) ------------------------------------------------------------


@_public("monsters_arrive")
def _monsters_arrive(say: Say, d: Data) -> str:
    return say("event.monsters_arrive", dice=say.dice(d["dice"]))


@_public("monster_added")
def _monster_added(say: Say, d: Data) -> str:
    key = "event.monster_added" if d["location"] == d["intended"] else "event.monster_added.runoff"
    return say(
        key,
        reason=say(f"monster.reason.{d['reason']}"),
        location_in=say.location(d["location"], "in"),
        location_to=say.location(d["location"], "to"),
        intended_to=say.location(d["intended"], "to"),
    )


@_public("monster_not_placed")
def _monster_not_placed(say: Say, d: Data) -> str:
    return say(
        "event.monster_not_placed",
        reason=say(f"monster.reason.{d['reason']}"),
        location_to=say.location(d["location"], "to"),
    )


# Turns --------------------------------------------------------------------------


@_public("turn_started")
def _turn_started(say: Say, d: Data) -> str:
    return say("event.turn_started", turn=d["turn"])


@_public("turn_ended")
def _turn_ended(say: Say, d: Data) -> str:
    return say("event.turn_ended", turn=d["turn"])


@_public("timeout")
def _timeout(say: Say, d: Data) -> str:
    return say("event.timeout", step=say(f"step.{d['step']}.name"), names=say.seats(d["players"]))


# Votes (R2) ---------------------------------------------------------------------


@_public("vote_unopposed")
def _vote_unopposed(say: Say, d: Data) -> str:
    return say(f"event.vote_unopposed.{d['vote']}", name=say.name(d["winner"]))


@_public("discussion_started")
def _discussion_started(say: Say, d: Data) -> str:
    line = say(
        f"event.discussion_started.{d['vote']}", location_in=say.location(d["location"], "in")
    )
    if d["players"]:
        return line + " " + say("event.discussion_started.players", names=say.seats(d["players"]))
    return line + " " + say("event.discussion_started.no_players")


@_public("player_done")
def _player_done(say: Say, d: Data) -> str:
    return say("event.player_done", name=say.name(d["player"]))


@_public("done_cancelled")
def _done_cancelled(say: Say, d: Data) -> str:
    """R2.3: a card was played after these seats said Done; they may answer it."""
    return say("event.done_cancelled", names=say.seats(d["players"]))


@_public("designation_started")
def _designation_started(say: Say, d: Data) -> str:
    return say(
        f"event.designation_started.{d['vote']}",
        location_in=say.location(d["location"], "in"),
        voters=say.seats(d["voters"]),
    )


@_public("designation_cast")
def _designation_cast(say: Say, d: Data) -> str:
    if d["player"] == d["candidate"]:
        return say("event.designation_cast.self", name=say.name(d["player"]))
    return say(
        "event.designation_cast", name=say.name(d["player"]), candidate=say.name(d["candidate"])
    )


@_private("designation_receipt")
def _designation_receipt(say: Say, d: Data) -> str:
    if d["candidate"] == say.seat:
        return say("event.designation_receipt.private.self")
    return say("event.designation_receipt.private", candidate=say.name(d["candidate"]))


@_public("designation_count")
def _designation_count(say: Say, d: Data) -> str:
    return say("event.designation_count", designated=d["designated"], voters=d["voters"])


@_public("designations_revealed")
def _designations_revealed(say: Say, d: Data) -> str:
    ballots = {int(v): c for v, c in d["designations"].items()}
    weights = {int(v): w for v, w in d["weights"].items()}
    choices = []
    for voter in sorted(weights):
        if voter in ballots:
            choices.append(
                say(
                    "designation.choice",
                    voter=say.name(voter),
                    candidate=say.name(ballots[voter]),
                    votes=say.count("vote", weights[voter]),
                )
            )
        else:
            choices.append(
                say(
                    "designation.abstain",
                    voter=say.name(voter),
                    votes=say.count("vote", weights[voter]),
                )
            )
    totals = [
        say("designation.total", name=say.name(int(p)), votes=say.count("vote", total))
        for p, total in sorted(d["totals"].items(), key=lambda item: (-item[1], int(item[0])))
    ]
    return say("event.designations_revealed", choices=", ".join(choices), totals=", ".join(totals))


@_public("tie")
def _tie(say: Say, d: Data) -> str:
    return say("event.tie", tied=say.seats(d["tied"]), martyr=say.name(d["martyr"]))


@_public("tie_broken")
def _tie_broken(say: Say, d: Data) -> str:
    key = "event.tie_broken.random" if d["random"] else "event.tie_broken"
    return say(key, martyr=say.name(d["player"]), winner=say.name(d["winner"]))


@_public("vote_won")
def _vote_won(say: Say, d: Data) -> str:
    return say(
        f"event.vote_won.{d['vote']}",
        name=say.name(d["winner"]),
        location_in=say.location(d["location"], "in"),
    )


# The truck (R3) -----------------------------------------------------------------


@_public("truck_skipped")
def _truck_skipped(say: Say, d: Data) -> str:
    return say(f"event.truck_skipped.{d['reason']}")


@_public("truck_searched")
def _truck_searched(say: Say, d: Data) -> str:
    return say(
        "event.truck_searched",
        name=say.name(d["player"]),
        drawn=say.count("card", d["drawn"]),
        deck=say.count("card", d["deck"]),
    )


@_private("truck_drawn")
def _truck_drawn(say: Say, d: Data) -> str:
    return say("event.truck_drawn.private", cards=say.cards(d["cards"]))


@_private("card_kept")
def _card_kept(say: Say, d: Data) -> str:
    return say("event.card_kept.private", card=say.card(d["card"]))


@_public("card_given")
def _card_given(say: Say, d: Data) -> str:
    return say("event.card_given", name=say.name(d["player"]), receiver=say.name(d["to"]))


@_private("card_gift")
def _card_gift(say: Say, d: Data) -> str:
    key = "event.card_gift.private.giver" if say.seat == d["from"] else "event.card_gift.private"
    return say(key, card=say.card(d["card"]), name=say.name(d["from"]), receiver=say.name(d["to"]))


@_public("truck_done")
def _truck_done(say: Say, d: Data) -> str:
    return say(
        "event.truck_done",
        name=say.name(d["player"]),
        boxed=say.count("card", d["boxed"]),
        deck=say.count("card", d["deck"]),
    )


# The badge and the dice (R4) ------------------------------------------------------


@_public("badge_kept")
def _badge_kept(say: Say, d: Data) -> str:
    return say("event.badge_kept", name=say.name(d["player"]))


@_public("badge_taken")
def _badge_taken(say: Say, d: Data) -> str:
    key = "event.badge_taken.same" if d["player"] == d["from"] else "event.badge_taken"
    return say(key, name=say.name(d["player"]), previous=say.name(d["from"]))


@_public("dice_rolled")
def _dice_rolled(say: Say, d: Data) -> str:
    return say("event.dice_rolled", name=say.name(d["player"]), count=d["count"])


@_private("dice_seen")
def _dice_seen(say: Say, d: Data) -> str:
    return say("event.dice_seen.private", dice=say.dice(d["dice"]))


# Destinations and moves (R5) -------------------------------------------------------


@_public("badge_destination")
def _badge_destination(say: Say, d: Data) -> str:
    return say(
        "event.badge_destination", name=say.name(d["player"]), location=say.location(d["location"])
    )


@_private("destination_receipt")
def _destination_receipt(say: Say, d: Data) -> str:
    return say("event.destination_receipt.private", location=say.location(d["location"]))


@_public("destination_locked")
def _destination_locked(say: Say, d: Data) -> str:
    return say("event.destination_locked", name=say.name(d["player"]))


@_public("destinations_revealed")
def _destinations_revealed(say: Say, d: Data) -> str:
    chosen = [
        say("destination.item", name=say.name(int(p)), location=say.location(loc))
        for p, loc in sorted(d["destinations"].items(), key=lambda item: int(item[0]))
    ]
    return say(
        "event.destinations_revealed", destinations=say.join(chosen), dice=say.dice(d["dice"])
    )


@_public("no_move")
def _no_move(say: Say, d: Data) -> str:
    return say("event.no_move", name=say.name(d["player"]))


@_public("character_moved")
def _character_moved(say: Say, d: Data) -> str:
    key = "event.character_moved.full" if d["reason"] == "full" else "event.character_moved"
    return say(
        key,
        name=say.name(d["player"]),
        kind=say.kind(d["kind"]),
        from_from=say.location(d["from"], "from"),
        to_to=say.location(d["to"], "to"),
    )


# Cards (R2.6, R4.4, R5.4, R7.8) ------------------------------------------------------


@_public("card_played")
def _card_played(say: Say, d: Data) -> str:
    card = d["card"]
    params: dict[str, object] = {"name": say.name(d["player"]), "card": say.card(card)}
    if "kind" in d:
        params["kind"] = say.kind(d["kind"])
    if "location" in d:
        params["location_in"] = say.location(d["location"], "in")
        params["location_to"] = say.location(d["location"], "to")
    if "from" in d:
        params["from_from"] = say.location(d["from"], "from")
    if "to" in d:
        params["to_to"] = say.location(d["to"], "to")
    if "removed" in d:
        params["removed"] = say.count("monster", d["removed"])
    if "monsters" in d:
        # "0 Monsters still there" reads oddly: the last one gone is "none left".
        left = d["monsters"]
        params["left"] = (
            say("event.card_played.left", monsters=say.count("monster", left))
            if left
            else say("event.card_played.left.none")
        )
    return say(f"event.card_played.{card}", **params)


# Attacks (R7) and their consequences (R8) ---------------------------------------------


@_public("attack_started")
def _attack_started(say: Say, d: Data) -> str:
    key = "event.attack_started.parking" if d["location"] == PARKING_LOT else "event.attack_started"
    return say(
        key,
        location_in=say.location(d["location"], "in"),
        monsters=say.count("monster", d["monsters"]),
        strength=d["strength"],
    )


@_public("attack_averted")
def _attack_averted(say: Say, d: Data) -> str:
    return say("event.attack_averted", location=say.location(d["location"]))


@_public("nobody_found")
def _nobody_found(say: Say, d: Data) -> str:
    return say(
        "event.nobody_found",
        location_in=say.location(d["location"], "in"),
        monsters=say.count("monster", d["monsters"]),
    )


@_public("character_devoured")
def _character_devoured(say: Say, d: Data) -> str:
    return say(
        "event.character_devoured",
        name=say.name(d["owner"]),
        kind=say.kind(d["kind"]),
        location_in=say.location(d["location"], "in"),
    )


@_public("martyr_taken")
def _martyr_taken(say: Say, d: Data) -> str:
    return say("event.martyr_taken", name=say.name(d["player"]), previous=say.name(d["from"]))


@_public("badge_passed")
def _badge_passed(say: Say, d: Data) -> str:
    return say("event.badge_passed", previous=say.name(d["from"]), name=say.name(d["to"]))


@_public("cold_row_filled")
def _cold_row_filled(say: Say, d: Data) -> str:
    key = "event.cold_row_filled.first" if d["row"] == 1 else "event.cold_row_filled"
    return say(key, row=d["row"])


@_public("monster_removed")
def _monster_removed(say: Say, d: Data) -> str:
    key = "event.monster_removed" if d["remaining"] else "event.monster_removed.last"
    return say(
        key,
        location_from=say.location(d["location"], "from"),
        remaining=say.count("monster", d["remaining"]),
    )


@_public("monsters_left")
def _monsters_left(say: Say, d: Data) -> str:
    return say(
        "event.monsters_left",
        location_from=say.location(d["location"], "from"),
        monsters=say.count("monster", d["monsters"]),
    )


@_public("location_closed")
def _location_closed(say: Say, d: Data) -> str:
    return say(
        "event.location_closed",
        location=say.location(d["location"]),
        characters=say.count("character", len(d["characters"])),
        monsters=say.count("monster", d["monsters"]),
    )


# End of game (R9) -------------------------------------------------------------------


@_public("game_over")
def _game_over(say: Say, d: Data) -> str:
    seats = range(len(d["scores"]))
    scores = ", ".join(
        say("game_over.score", name=say.name(p), points=say.count("point", d["scores"][p]))
        for p in seats
    )
    winners = d["winners"]
    lines = [
        say("event.game_over"),
        say("game_over.scores", scores=scores),
        say(
            "game_over.winner" if len(winners) == 1 else "game_over.winners",
            names=say.seats(winners),
        ),
        say("game_over.hands"),
        *(say("game_over.hand", name=say.name(p), cards=say.cards(d["hands"][p])) for p in seats),
        say("game_over.box", cards=say.cards(d["box"])),
    ]
    return "\n".join(lines)
