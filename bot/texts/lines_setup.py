"""Lines of the setup (R1), the Monsters' arrivals (R1.5, R6) and the turns."""

from __future__ import annotations

from bot.texts.say import Data, Lines, Say

LINES = Lines()


# Setup (R1) -------------------------------------------------------------------


@LINES.public("game_started")
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


@LINES.private("hand_dealt")
def _hand_dealt(say: Say, d: Data) -> str:
    if not d["cards"]:
        return say("event.hand_dealt.private.empty")
    return say("event.hand_dealt.private", cards=say.cards(d["cards"]))


@LINES.public("placement_rolled")
def _placement_rolled(say: Say, d: Data) -> str:
    return say("event.placement_rolled", name=say.name(d["player"]), dice=say.dice(d["dice"]))


@LINES.public("character_placed")
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


@LINES.public("monsters_arrive")
def _monsters_arrive(say: Say, d: Data) -> str:
    return say("event.monsters_arrive", dice=say.dice(d["dice"]))


@LINES.public("monster_added")
def _monster_added(say: Say, d: Data) -> str:
    key = "event.monster_added" if d["location"] == d["intended"] else "event.monster_added.runoff"
    return say(
        key,
        reason=say(f"monster.reason.{d['reason']}"),
        location_in=say.location(d["location"], "in"),
        location_to=say.location(d["location"], "to"),
        intended_to=say.location(d["intended"], "to"),
    )


@LINES.public("monster_not_placed")
def _monster_not_placed(say: Say, d: Data) -> str:
    return say(
        "event.monster_not_placed",
        reason=say(f"monster.reason.{d['reason']}"),
        location_to=say.location(d["location"], "to"),
    )


# Turns --------------------------------------------------------------------------


@LINES.public("turn_started")
def _turn_started(say: Say, d: Data) -> str:
    return say("event.turn_started", turn=d["turn"])


@LINES.public("turn_ended")
def _turn_ended(say: Say, d: Data) -> str:
    return say("event.turn_ended", turn=d["turn"])


@LINES.public("stalemate")
def _stalemate(say: Say, d: Data) -> str:
    return say("event.stalemate", turns=say.count("turn", d["turns"]))


@LINES.public("timeout")
def _timeout(say: Say, d: Data) -> str:
    return say("event.timeout", step=say(f"step.{d['step']}.name"), names=say.seats(d["players"]))
