"""Lines of the votes (R2): discussions, designations, reveals, ties."""

from __future__ import annotations

from bot.texts.say import Data, Lines, Say

LINES = Lines()


# Votes (R2) ---------------------------------------------------------------------


@LINES.public("vote_unopposed")
def _vote_unopposed(say: Say, d: Data) -> str:
    return say(f"event.vote_unopposed.{d['vote']}", name=say.name(d["winner"]))


@LINES.public("discussion_started")
def _discussion_started(say: Say, d: Data) -> str:
    line = say(
        f"event.discussion_started.{d['vote']}", location_in=say.location(d["location"], "in")
    )
    if d["players"]:
        return line + " " + say("event.discussion_started.players", names=say.seats(d["players"]))
    return line + " " + say("event.discussion_started.no_players")


@LINES.public("player_done")
def _player_done(say: Say, d: Data) -> str:
    return say("event.player_done", name=say.name(d["player"]))


@LINES.public("done_cancelled")
def _done_cancelled(say: Say, d: Data) -> str:
    """R2.3: a card was played after these seats said Done; they may answer it. Told
    about them, not to them: the channel reads it, and some of them are AI seats."""
    key = "event.done_cancelled" if len(d["players"]) == 1 else "event.done_cancelled.many"
    return say(key, names=say.seats(d["players"]))


@LINES.public("designation_started")
def _designation_started(say: Say, d: Data) -> str:
    return say(
        f"event.designation_started.{d['vote']}",
        location_in=say.location(d["location"], "in"),
        voters=say.seats(d["voters"]),
    )


@LINES.public("designation_cast")
def _designation_cast(say: Say, d: Data) -> str:
    if d["player"] == d["candidate"]:
        return say("event.designation_cast.self", name=say.name(d["player"]))
    return say(
        "event.designation_cast", name=say.name(d["player"]), candidate=say.name(d["candidate"])
    )


@LINES.private("designation_receipt")
def _designation_receipt(say: Say, d: Data) -> str:
    if d["candidate"] == say.seat:
        return say("event.designation_receipt.private.self")
    return say("event.designation_receipt.private", candidate=say.name(d["candidate"]))


@LINES.public("designation_count")
def _designation_count(say: Say, d: Data) -> str:
    return say("event.designation_count", designated=d["designated"], voters=d["voters"])


@LINES.public("designations_revealed")
def _designations_revealed(say: Say, d: Data) -> str:
    choices, totals = _ballots(say, d)
    return say("event.designations_revealed", choices=choices, totals=totals)


def recap_line(say: Say, d: Data, turn: int) -> str:
    """A revealed vote in the final reveal: when, where, what for, and every ballot."""
    choices, totals = _ballots(say, d)
    return say(
        f"recap.vote.{d['vote']}",
        turn=turn,
        location=say.location(d["location"]),
        choices=choices,
        totals=totals,
    )


def _ballots(say: Say, d: Data) -> tuple[str, str]:
    """Who chose whom with what weight, and each candidate's total, highest first."""
    ballots = {int(v): c for v, c in d["designations"].items()}
    weights = {int(v): w for v, w in d["weights"].items()}
    choices = []
    for voter in sorted(weights):
        votes = say.count("vote", weights[voter])
        if voter in ballots:
            choices.append(
                say(
                    "designation.choice",
                    voter=say.name(voter),
                    candidate=say.name(ballots[voter]),
                    votes=votes,
                )
            )
        else:
            choices.append(say("designation.abstain", voter=say.name(voter), votes=votes))
    totals = [
        say("designation.total", name=say.name(int(p)), votes=say.count("vote", total))
        for p, total in sorted(d["totals"].items(), key=lambda item: (-item[1], int(item[0])))
    ]
    return say.join(choices), say.join(totals)


@LINES.public("tie")
def _tie(say: Say, d: Data) -> str:
    return say("event.tie", tied=say.seats(d["tied"]), martyr=say.name(d["martyr"]))


@LINES.public("tie_broken")
def _tie_broken(say: Say, d: Data) -> str:
    key = "event.tie_broken.random" if d["random"] else "event.tie_broken"
    return say(key, martyr=say.name(d["player"]), winner=say.name(d["winner"]))


@LINES.public("vote_won")
def _vote_won(say: Say, d: Data) -> str:
    return say(
        f"event.vote_won.{d['vote']}",
        name=say.name(d["winner"]),
        location_in=say.location(d["location"], "in"),
    )
