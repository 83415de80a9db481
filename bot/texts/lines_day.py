"""Lines of the day: the truck (R3), the badge and the dice (R4), destinations and moves (R5)."""

from __future__ import annotations

from bot.texts.say import Data, Lines, Say

LINES = Lines()


# The truck (R3) -----------------------------------------------------------------


@LINES.public("truck_skipped")
def _truck_skipped(say: Say, d: Data) -> str:
    return say(f"event.truck_skipped.{d['reason']}")


@LINES.public("truck_searched")
def _truck_searched(say: Say, d: Data) -> str:
    return say(
        "event.truck_searched",
        name=say.name(d["player"]),
        drawn=say.count("card", d["drawn"]),
        deck=say.count("card", d["deck"]),
    )


@LINES.private("truck_drawn")
def _truck_drawn(say: Say, d: Data) -> str:
    return say("event.truck_drawn.private", cards=say.cards(d["cards"]))


@LINES.private("card_kept")
def _card_kept(say: Say, d: Data) -> str:
    return say("event.card_kept.private", card=say.card(d["card"]))


@LINES.public("card_given")
def _card_given(say: Say, d: Data) -> str:
    return say("event.card_given", name=say.name(d["player"]), receiver=say.name(d["to"]))


@LINES.private("card_gift")
def _card_gift(say: Say, d: Data) -> str:
    key = "event.card_gift.private.giver" if say.seat == d["from"] else "event.card_gift.private"
    return say(key, card=say.card(d["card"]), name=say.name(d["from"]), receiver=say.name(d["to"]))


@LINES.public("truck_done")
def _truck_done(say: Say, d: Data) -> str:
    return say(
        "event.truck_done",
        name=say.name(d["player"]),
        boxed=say.count("card", d["boxed"]),
        deck=say.count("card", d["deck"]),
    )


# The badge and the dice (R4) ------------------------------------------------------


@LINES.public("badge_kept")
def _badge_kept(say: Say, d: Data) -> str:
    return say("event.badge_kept", name=say.name(d["player"]))


@LINES.public("badge_taken")
def _badge_taken(say: Say, d: Data) -> str:
    key = "event.badge_taken.same" if d["player"] == d["from"] else "event.badge_taken"
    return say(key, name=say.name(d["player"]), previous=say.name(d["from"]))


@LINES.public("dice_rolled")
def _dice_rolled(say: Say, d: Data) -> str:
    return say("event.dice_rolled", name=say.name(d["player"]), count=d["count"])


@LINES.private("dice_seen")
def _dice_seen(say: Say, d: Data) -> str:
    return say("event.dice_seen.private", dice=say.dice(d["dice"]))


# Destinations and moves (R5) -------------------------------------------------------


@LINES.public("badge_destination")
def _badge_destination(say: Say, d: Data) -> str:
    return say(
        "event.badge_destination", name=say.name(d["player"]), location=say.location(d["location"])
    )


@LINES.private("destination_receipt")
def _destination_receipt(say: Say, d: Data) -> str:
    return say("event.destination_receipt.private", location=say.location(d["location"]))


@LINES.public("destination_locked")
def _destination_locked(say: Say, d: Data) -> str:
    return say("event.destination_locked", name=say.name(d["player"]))


@LINES.public("destinations_revealed")
def _destinations_revealed(say: Say, d: Data) -> str:
    chosen = [
        say("destination.item", name=say.name(int(p)), location=say.location(loc))
        for p, loc in sorted(d["destinations"].items(), key=lambda item: int(item[0]))
    ]
    return say(
        "event.destinations_revealed", destinations=say.join(chosen), dice=say.dice(d["dice"])
    )


@LINES.public("no_move")
def _no_move(say: Say, d: Data) -> str:
    return say("event.no_move", name=say.name(d["player"]))


@LINES.public("character_moved")
def _character_moved(say: Say, d: Data) -> str:
    key = "event.character_moved.full" if d["reason"] == "full" else "event.character_moved"
    return say(
        key,
        name=say.name(d["player"]),
        kind=say.kind(d["kind"]),
        from_from=say.location(d["from"], "from"),
        to_to=say.location(d["to"], "to"),
    )
