"""The rules said on screen, with this game's numbers: kinds, votes, dice, the mall's dangers.

A newcomer learns the game from what the table shows, so every sentence here
is built from the game's own `Ruleset` (a variant changes a Blocker's
strength, a Weeper's points, when locations close) and from what the reader
may see: nothing here reads a secret that is not the reader's own (R12).
The Discord panel, `/lockdown rules` and the terminal table all use these.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.texts import catalog, t
from bot.texts.catalog import and_list, or_list
from lockdown_core import GameState, Ruleset, Step, facts, view
from lockdown_core.board import attack_uses_equal
from lockdown_core.board_facts import board_facts
from lockdown_core.ruleset import EndRule
from lockdown_core.votes import weights_of

# Steps after the badge holder's secret roll and before the reveal (R4.3-R5.3).
SECRET_DICE_STEPS = frozenset({Step.WALKIE_WINDOW, Step.BADGE_DESTINATION, Step.DESTINATIONS})

# R9.1 in words, for each way a ruleset may end the game.
END_RULES: dict[EndRule, str] = {
    "players": "rules.guide.end.players",
    "half_players": "rules.guide.end.half_players",
    "one_family": "rules.guide.end.one_family",
}


def kind_help(lang: str, kind: str, rules: Ruleset) -> str:
    """One character kind in a line: its role, strength, votes, points, a Weeper's pull (R6.2)."""
    spec = next(k for k in rules.kinds if k.key == kind)
    count = catalog().count
    line = t(lang, f"kind.{kind}.help") + " "
    line += t(
        lang,
        "kind.stats",
        strength=spec.strength,
        votes=count(lang, "vote", spec.votes),
        points=count(lang, "point", spec.points),
    )
    if spec.attracts_monsters and rules.weeper_monsters:
        line += " " + t(
            lang, "kind.attracts", monsters=count(lang, "monster", rules.weeper_monsters)
        )
    return line


def kind_lines(lang: str, rules: Ruleset, kinds: Sequence[str], note_useless: bool) -> list[str]:
    """`**Blocker** (B): Strength 2, …` for each kind; `note_useless` says when the Useless
    plays, for a reader who is not at a table (R1.1; every count under Big families)."""
    lines = []
    for kind in kinds:
        line = t(
            lang,
            "kind.line",
            name=t(lang, f"kind.{kind}"),
            letter=t(lang, f"kind.{kind}.letter"),
            help=kind_help(lang, kind, rules),
        )
        if note_useless and kind == "useless":
            counts = rules.useless_at_player_counts
            if set(facts.player_range(rules)) <= set(counts):
                line += " " + t(lang, "kind.useless.always")
            else:
                line += " " + t(
                    lang, "kind.useless.only", players=or_list(lang, [str(n) for n in counts])
                )
        lines.append(line)
    return lines


def kinds_in_play(state: GameState) -> list[str]:
    """The kinds dealt in this game, in the ruleset's order."""
    dealt = {c.kind for c in state.characters}
    return [k.key for k in state.rules.kinds if k.key in dealt]


def vote_weights(state: GameState) -> dict[int, int]:
    """Each voter's weight in the open vote (R2.1: Leaders 2, Guns +1), or {} without one."""
    if state.vote is None:
        return {}
    return weights_of(state, state.vote)


def voters_text(lang: str, weights: Mapping[int, int], names: Sequence[str]) -> str:
    """`Ana (2 votes) and Bruno (1 vote)`: voters beside their weight (`vote_weights`); the
    board can keep the weights of the moment it draws and write them in any language."""
    count = catalog().count
    return and_list(
        lang,
        [
            t(lang, "vote.voter", name=names[seat], votes=count(lang, "vote", weight))
            for seat, weight in weights.items()
        ],
    )


def unseen_dice(lang: str, state: GameState, seat: int) -> str | None:
    """Why the badge holder rolled without seeing, while that still matters (R4.3).

    Only the holder is told, and only from the roll to the reveal; the reason
    is public anyway (everyone saw whether the badge was won in a vote).
    """
    if (
        seat != state.badge
        or state.step not in SECRET_DICE_STEPS
        or state.dice_revealed
        or seat in state.dice_seen
    ):
        return None
    if not facts.badge_sees_dice(state.rules, won_in_vote=True):
        return t(lang, "dice.unseen.blind")
    return t(lang, "dice.unseen.kept")


def living_line(lang: str, state: GameState) -> str:
    """R9.1 with this game's numbers: when the game ends, and where it stands now."""
    board = board_facts(view(state, None), state.rules)
    if board.end_at is None:
        return t(lang, "rules.end.one_family", families=board.families)
    return t(lang, "rules.end.living", limit=board.end_at, living=board.living)


def _per_kind(lang: str, numbers: Mapping[str, int]) -> str:
    """`Weeper 7, Blocker 5, … and Kid 1`: one number per kind, in the data's order."""
    return and_list(
        lang,
        [
            t(lang, "rules.kind_number", kind=t(lang, f"kind.{kind}"), number=number)
            for kind, number in numbers.items()
        ],
    )


def truck_text(lang: str, rules: Ruleset) -> str:
    """R3.2/R3.3 with this game's counts: `draws 3 cards, keeps 1, gives 1 …`."""
    counts = facts.truck_counts(rules)
    count = catalog().count
    return t(
        lang,
        "rules.truck.gift" if counts.gives else "rules.truck.no_gift",
        drawn=count(lang, "card", counts.draws),
        keeps=counts.keeps,
        gives=counts.gives,
        boxed=count(lang, "card", counts.boxes),
    )


def guide(lang: str, rules: Ruleset, kinds: Sequence[str] | None = None) -> str:
    """The whole game in one message, every number asked of `lockdown_core.facts`; in a
    game, only its `kinds` (no Useless in a 4-player game that deals none)."""

    def dealt(numbers: Mapping[str, int]) -> str:
        return _per_kind(lang, {k: n for k, n in numbers.items() if kinds is None or k in kinds})

    arrivals = facts.arrivals(rules)
    sees = facts.badge_sees_dice(rules, won_in_vote=True)
    equal = facts.equal_from_start(rules)
    return t(
        lang,
        "rules.guide",
        points=dealt(facts.points(rules)),
        keys=rules.keys_points,
        truck=truck_text(lang, rules),
        badge=t(
            lang,
            "rules.guide.badge.sees" if sees else "rules.guide.badge.blind",
            dice=arrivals.start_dice,
        ),
        arrivals=t(
            lang,
            "rules.arrivals" if arrivals.weeper_monsters else "rules.arrivals.no_weepers",
            weepers=arrivals.weeper_monsters,
            crowd=arrivals.crowd_monsters,
        ),
        attack=t(
            lang,
            "rules.guide.attack.equal" if equal else "rules.guide.attack.above",
            strengths=dealt(facts.strengths(rules)),
        ),
        ballots=t(
            lang,
            "rules.guide.ballots.open"
            if facts.ballots_open(rules)
            else "rules.guide.ballots.secret",
            votes=dealt(facts.votes(rules)),
        ),
        martyr=t(
            lang,
            "rules.guide.martyr.owner"
            if facts.martyr_to_owner(rules)
            else "rules.guide.martyr.voter",
        ),
        end=t(lang, END_RULES[rules.end_rule]),
    )


def step_help(lang: str, step: str, rules: Ruleset) -> str:
    """What a step asks, with this game's numbers where it has some (the truck's counts)."""
    if step == Step.DESIGNATION and facts.ballots_open(rules):
        return t(lang, "step.designation.help.open")
    text = t(lang, f"step.{step}.help")
    if step == Step.TRUCK_CHOICE:
        text += " " + t(lang, "step.truck_choice.counts", truck=truck_text(lang, rules))
    return text


def _rows(lang: str, rows: Sequence[int]) -> str:
    """`row 2` or `rows 2 and 3`."""
    form = "one" if len(rows) == 1 else "other"
    return t(lang, f"rules.cold.rows.{form}", rows=and_list(lang, [str(row) for row in rows]))


def cold_storage_lines(lang: str, rules: Ruleset) -> list[str]:
    """R8.4 row by row: the row that lets Monsters in at equal strength, the rows that add
    a die (with the most dice there can be), and those that add none once every die is
    rolled (Overrun)."""
    arrivals = facts.arrivals(rules)
    first_row = (
        "rules.cold.row1" if facts.row_effect(rules, 1) == "equal" else "rules.cold.row1_from_start"
    )
    lines = [
        t(lang, "rules.cold.intro", rows=len(rules.cold_storage_rows)),
        t(lang, first_row, row=1),
    ]
    if arrivals.dice_rows:
        key = "rules.cold.dice.one" if len(arrivals.dice_rows) == 1 else "rules.cold.dice"
        named = _rows(lang, arrivals.dice_rows)
        lines.append(t(lang, key, rows=named, maximum=arrivals.max_dice))
    if arrivals.idle_rows:
        named = _rows(lang, arrivals.idle_rows)
        lines.append(t(lang, "rules.cold.idle", rows=named, maximum=arrivals.max_dice))
    return lines


def rules_sections(
    lang: str, rules: Ruleset, state: GameState | None = None
) -> list[tuple[str, str]]:
    """`/lockdown rules` as (title, text) parts: the guide, the characters, the mall's
    dangers (closing locations, the Cold storage rows) and, in a game, where it stands."""
    kinds = kinds_in_play(state) if state is not None else [k.key for k in rules.kinds]
    dangers = [
        t(lang, "rules.closing", monsters=catalog().count(lang, "monster", facts.closes_at(rules))),
        *cold_storage_lines(lang, rules),
    ]
    sections = [
        (t(lang, "rules.title"), guide(lang, rules, kinds if state is not None else None)),
        (
            t(lang, "rules.kinds_title"),
            "\n".join(kind_lines(lang, rules, kinds, note_useless=state is None)),
        ),
        (t(lang, "rules.dangers_title"), "\n".join(dangers)),
    ]
    if state is not None:
        now = [
            t(
                lang,
                "rules.current",
                step=t(lang, f"step.{state.step}.name"),
                help=step_help(lang, state.step, state.rules),
            ),
            t(lang, "rules.attack_at_equal" if attack_uses_equal(state) else "rules.attack_above"),
            living_line(lang, state),
        ]
        sections.append((t(lang, "rules.now_title"), "\n".join(now)))
    return sections
