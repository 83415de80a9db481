"""Lines of the night: cards (R2.6, R4.4, R5.4, R7.8), attacks (R7), what follows (R8),
the end of the game (R9)."""

from __future__ import annotations

from bot.texts.say import BOARD, Data, Lines, Say
from lockdown_core import facts
from lockdown_core.facts import RowEffect

LINES = Lines()

# R8.4: what a full Cold storage row changed, as the core's event says (`facts.row_effect`).
ROW_EFFECTS: dict[RowEffect, str] = {
    "equal": "event.cold_row_filled.first",
    "die": "event.cold_row_filled",
    "nothing": "event.cold_row_filled.nothing",
}


# Cards (R2.6, R4.4, R5.4, R7.8) ------------------------------------------------------


@LINES.public("card_played")
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
    if card == "gun" and d["lasts"] == "attack":
        # R2.6/R7.7: the core says the Gun counts in every vote of this attack.
        return say("event.card_played.gun.attack", **params)
    return say(f"event.card_played.{card}", **params)


# Attacks (R7) and their consequences (R8) ---------------------------------------------


@LINES.public("attack_started")
def _attack_started(say: Say, d: Data) -> str:
    # R7.7: the Parking lot's attack is fought one vote per Monster, strength ignored.
    parking = facts.parking_attack(BOARD, "attack", d["location"])
    key = "event.attack_started.parking" if parking else "event.attack_started"
    return say(
        key,
        location_in=say.location(d["location"], "in"),
        monsters=say.count("monster", d["monsters"]),
        strength=d["strength"],
    )


@LINES.public("attack_averted")
def _attack_averted(say: Say, d: Data) -> str:
    return say("event.attack_averted", location=say.location(d["location"]))


@LINES.public("nobody_found")
def _nobody_found(say: Say, d: Data) -> str:
    return say(
        "event.nobody_found",
        location_in=say.location(d["location"], "in"),
        monsters=say.count("monster", d["monsters"]),
    )


@LINES.public("character_devoured")
def _character_devoured(say: Say, d: Data) -> str:
    return say(
        "event.character_devoured",
        name=say.name(d["owner"]),
        kind=say.kind(d["kind"]),
        location_in=say.location(d["location"], "in"),
    )


@LINES.public("martyr_taken")
def _martyr_taken(say: Say, d: Data) -> str:
    return say("event.martyr_taken", name=say.name(d["player"]), previous=say.name(d["from"]))


@LINES.public("badge_passed")
def _badge_passed(say: Say, d: Data) -> str:
    return say("event.badge_passed", previous=say.name(d["from"]), name=say.name(d["to"]))


@LINES.public("cold_row_filled")
def _cold_row_filled(say: Say, d: Data) -> str:
    return say(ROW_EFFECTS[d["effect"]], row=d["row"])


@LINES.public("monster_removed")
def _monster_removed(say: Say, d: Data) -> str:
    key = "event.monster_removed" if d["remaining"] else "event.monster_removed.last"
    return say(
        key,
        location_from=say.location(d["location"], "from"),
        remaining=say.count("monster", d["remaining"]),
    )


@LINES.public("monsters_left")
def _monsters_left(say: Say, d: Data) -> str:
    return say(
        "event.monsters_left",
        location_from=say.location(d["location"], "from"),
        monsters=say.count("monster", d["monsters"]),
    )


@LINES.public("location_closed")
def _location_closed(say: Say, d: Data) -> str:
    return say(
        "event.location_closed",
        location=say.location(d["location"]),
        characters=say.count("character", len(d["characters"])),
        monsters=say.count("monster", d["monsters"]),
    )


# End of game (R9) -------------------------------------------------------------------


@LINES.public("game_over")
def _game_over(say: Say, d: Data) -> str:
    seats = range(len(d["scores"]))
    scores = say.join(
        [
            say("game_over.score", name=say.name(p), points=say.count("point", d["scores"][p]))
            for p in seats
        ]
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
