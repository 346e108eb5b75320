"""``ubongo simulate``: play a whole game with simulated players and print what happens.

::

    ubongo simulate --edition classic --players 3 --seed 7
    ubongo simulate --edition 3d --players 2 --level red --level green
    ubongo simulate --edition extreme --players 4 --side B --variant only-first
    ubongo simulate --edition trigo --solo --solo-goal tasks --solo-target 10
    ubongo simulate --edition classic --players 2 --skill hard --skill easy

The players solve each task with the solver and take a time drawn from the seed and the
task's difficulty; sometimes they say "Ubongo!" with a wrong arrangement, sometimes they give
up.  Times are game seconds from the first round's start.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Annotated, Any, TextIO

import typer

from ubongo import editions
from ubongo.cli import SUMMARY, CommandError
from ubongo.cli.console import Report, choice, progress, results, text_lines
from ubongo.puzzles.deck import Deck, DeckError
from ubongo.rules import (
    Action,
    Event,
    Game,
    RuleError,
    Settings,
    Submit,
    WrongArrangement,
    card,
    new_game,
    solo_record,
)
from ubongo.rules.bots import LEVELS, Level, play_game

NAMES = ("Ann", "Ben", "Cleo", "Dev")
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


#: the command's help
_HELP = (
    "Play a whole game with simulated players and print what happens.\n\n"
    "The players solve each task with the solver and take a time drawn from the seed and the "
    'task\'s difficulty; sometimes they say "Ubongo!" with a wrong arrangement, sometimes they '
    "give up. Times are game seconds from the first round's start.\n\n"
    "Examples:\n\n"
    "  ubongo simulate --edition classic --players 3 --seed 7\n"
    "  ubongo simulate --edition 3d --players 2 --level red --level green\n"
    "  ubongo simulate --edition extreme --players 4 --side B --variant only-first\n"
    "  ubongo simulate --edition trigo --solo --solo-goal tasks --solo-target 10\n"
    "  ubongo simulate --edition classic --players 2 --skill hard --skill easy"
)


def register(app: typer.Typer) -> None:
    app.command(
        "simulate",
        help=_HELP,
        short_help=SUMMARY["simulate"],
    )(run)


def _repeat(help_text: str, *, choices: tuple[str, ...] | None = None) -> Any:
    return typer.Option(
        help=help_text,
        show_default=False,
        parser=choice(choices) if choices else None,
        metavar=f"[{'|'.join(choices)}]" if choices else "LEVEL",
    )


#: ``simulate``'s options (but ``--edition``: its choices are read when the command is built,
#: which is after an edition a test registers)
PlayerCount = Annotated[
    int | None, typer.Option(help="1-4 (default 4, solo 1)", show_default=False)
]
GameSeed = Annotated[str, typer.Option(help="the game's seed")]
SideName = Annotated[
    str | None,
    typer.Option(help="A or B (classic, extreme), easy or hard (trigo)", show_default=False),
]
Levels = Annotated[list[str] | None, _repeat("3d level; once for all, or once per player")]
VariantName = Annotated[
    str, typer.Option(parser=choice(("standard", "only-first")), metavar="[standard|only-first]")
]
HourglassSeconds = Annotated[
    float | None, typer.Option(help="seconds per turn of the hourglass", show_default=False)
]
CountdownSeconds = Annotated[
    float | None,
    typer.Option(help="seconds of countdown after the first finisher", show_default=False),
]
Rounds = Annotated[int | None, typer.Option(help="rounds to play", show_default=False)]
SoloFlag = Annotated[bool, typer.Option("--solo", help="the solo variant (one player)")]
SoloGoalName = Annotated[
    str, typer.Option(parser=choice(("time", "tasks")), metavar="[time|tasks]")
]
SoloTarget = Annotated[
    int | None, typer.Option(help="minutes (time goal) or tasks (tasks goal)", show_default=False)
]
DeckFile = Annotated[
    str | None,
    typer.Option(help="a deck file instead of the edition's standard deck", show_default=False),
]
Skills = Annotated[
    list[str] | None,
    _repeat(
        "a player's bot skill, in seat order, once per player (default medium; docs/bots.md)",
        choices=tuple(LEVELS),
    ),
]


def run(
    edition: Annotated[
        str,
        typer.Option(
            parser=choice(editions.names()),
            metavar=f"[{'|'.join(editions.names())}]",
            show_default=False,
            help="the edition",
        ),
    ],
    players: PlayerCount = None,
    seed: GameSeed = "1",
    side: SideName = None,
    level: Levels = None,
    variant: VariantName = "standard",
    hourglass: HourglassSeconds = None,
    countdown: CountdownSeconds = None,
    rounds: Rounds = None,
    solo: SoloFlag = False,
    solo_goal: SoloGoalName = "time",
    solo_target: SoloTarget = None,
    deck: DeckFile = None,
    skill: Skills = None,
) -> int:
    skills_given = skill or []
    count = players if players is not None else (1 if solo else 4)
    if not 1 <= count <= 4:
        raise CommandError(f"--players must be 1-4, not {count}")
    if len(skills_given) > count:
        raise CommandError(f"{len(skills_given)} --skill for {count} players")
    skills = {name: LEVELS[s] for name, s in zip(NAMES, skills_given, strict=False)}
    settings = Settings(
        edition,
        NAMES[:count],
        mode="solo" if solo else "race",
        side=side,
        levels=tuple(level or ()),
        rounds=rounds,
        hourglass=hourglass,
        countdown=countdown,
        variant=variant,  # type: ignore[arg-type]  # checked by its parser
        solo_goal=solo_goal,  # type: ignore[arg-type]  # checked by its parser
        solo_target=solo_target,
    )
    game = _new_game(settings, seed, deck)
    with progress(edition, _unit(game)) as report:
        # sys.stdout looked up inside: on a terminal the bar moves it above itself
        simulate(game, seed, sys.stdout, skills, report)
    return 0


def _new_game(settings: Settings, seed: str, deck: str | None) -> Game:
    """The game to simulate, on the deck in the file ``deck`` or the edition's standard one."""
    cards = None
    if deck:
        try:
            cards = Deck.load(deck)
        except DeckError as e:
            raise CommandError(str(e)) from None
    try:
        return new_game(settings, seed, cards)
    except RuleError as e:
        raise CommandError(str(e)) from None
    except FileNotFoundError:
        raise CommandError(
            f"no standard {settings.edition} deck is installed; pass --deck"
        ) from None


def _unit(game: Game) -> str:
    """What :func:`advance` counts for ``game``."""
    s = game.settings
    if s.solo:
        return "tasks" if s.solo_goal == "tasks" else "game seconds"
    return "rounds"


def advance(game: Game) -> tuple[int, int]:
    """How far ``game`` is, as (done, total): rounds of a race (the total grows with tie
    rounds), tasks of a solo tasks run, game seconds of a solo time run."""
    s = game.settings
    if game.solo is not None:
        target = s.solo_target or 1
        if s.solo_goal == "tasks":
            done, total = game.solo.solved, target
        else:
            start = game.solo.started_at or 0.0
            done, total = int((game.now or start) - start), target * 60
    else:
        done, total = game.rounds_played, max(s.rounds or 1, game.rounds_played)
    if game.phase == "over":
        done = total
    return min(done, total), total


def simulate(
    game: Game,
    seed: object,
    out: TextIO,
    skills: Mapping[str, Level] | None = None,
    report: Report | None = None,
) -> Game:
    """Play ``game`` with bots (of ``skills``, medium if not named), writing the round-by-round
    log to ``out`` and telling ``report`` how far the game is (:func:`advance`); return the
    end."""
    s = game.settings
    what = f"solo ({s.solo_goal} goal, target {s.solo_target})" if s.solo else "race"
    sides = ", ".join(f"{p.id} {p.side}" for p in game.players)
    print(f"Ubongo {s.edition} {what}, seed {seed}: {sides}", file=out)
    printed = 0

    def observe(g: Game, action: Action | None, error: RuleError | None) -> None:
        nonlocal printed
        if error is not None and isinstance(action, Submit):
            reason = error.verdict.reason if isinstance(error, WrongArrangement) else str(error)
            print(f"  {_t(action.now)} {action.player}: Ubongo? no - {reason}", file=out)
            return
        for event in g.events[printed:]:
            for line in describe(g, event):
                print(line, file=out)
        printed = len(g.events)
        if report is not None:
            report(*advance(g))

    final = play_game(game, seed, observe, levels=skills)
    return final


def _t(seconds: float) -> str:
    return f"[{seconds:7.1f}s]"


def _gems(gems: list[str] | dict[str, int]) -> str:
    if isinstance(gems, dict):
        return ", ".join(f"{n} {g}" for g, n in gems.items() if n) or "no gems"
    return " + ".join(gems)


# What each kind of event says: (the game, the event's data, its time as text) -> lines.
_Describer = Callable[[Game, dict[str, Any], str], list[str]]

_ROUND_TITLES = {"round": "Round", "playoff": "Playoff", "tie-round": "Tie round", "solo": "Solo"}


def _round_started(game: Game, d: dict[str, Any], at: str) -> list[str]:
    title = _ROUND_TITLES[d["kind"]] + (f" {d['round']}" if d["kind"] == "round" else "")
    how = []
    if d["die"] is not None:
        how.append(f"{d['roller']} rolls {d['die']}")
    if d["deadline"] is not None:
        how.append(f"clock runs until {d['deadline']:.0f}s")
    lines = [f"{title} {at}" + (": " + ", ".join(how) if how else "")]
    for player, t in d["tasks"].items():
        side = card(game, t["card"]).side(t["side"])
        task = side.task(t["key"])
        lines.append(
            f"  {player}: card {t['card']} {t['side']} {t['key']}, pieces "
            f"{' '.join(task.pieces)} ({side.area.size} cells, ~{task.difficulty:.0f}s)"
        )
    return lines


def _finished(game: Game, d: dict[str, Any], at: str) -> list[str]:
    if game.settings.solo:
        return [f"  {at} {d['player']}: Ubongo!"]
    place = ORDINAL.get(d["place"], f"{d['place']}th")
    return [f"  {at} {d['player']}: Ubongo! ({place})"]


def _gems_shared(game: Game, d: dict[str, Any], at: str) -> list[str]:
    parts = [f"{p} {_gems(g)}" for p, g in d["rewards"].items()] or ["nobody"]
    back = f"; to the bag: {_gems(d['to_bag'])}" if d["to_bag"] else ""
    disp = f"display {d['display']['sapphire']} sapphires, {d['display']['amber']} ambers"
    return [f"  gems: {'; '.join(parts)}{back}; {disp}"]


def _cards_shared(game: Game, d: dict[str, Any], at: str) -> list[str]:
    parts = [f"{p} keeps {c}" for p, c in d["kept"].items()]
    parts += [f"{p} hands {c} to {d['first']}" for p, c in d["handed"].items()]
    parts += [f"{p}'s {c} out of play" for p, c in d["discarded"].items()]
    return [f"  cards: {'; '.join(parts)}"]


def _tie(game: Game, d: dict[str, Any], at: str) -> list[str]:
    then = d.get("next") or d.get("resolved")
    return [f"Tie at {max(d['scores'].values())} between {', '.join(d['players'])}: {then}"]


def _decider_ended(what: str) -> _Describer:
    def lines(game: Game, d: dict[str, Any], at: str) -> list[str]:
        return [f"  {at} {d['winner'] or 'nobody'} wins the {what}"]

    return lines


def _game_over(game: Game, d: dict[str, Any], at: str) -> list[str]:
    lines = ["Final scores:"]
    won = "gems" if game.settings.gems else "cards"
    rows = [
        (p.id, d["scores"][p.id], _gems(p.gems) if game.settings.gems else len(p.cards))
        for p in sorted(game.players, key=lambda p: -d["scores"][p.id])
    ]
    lines += text_lines(results(None, ("player", "points", won), rows), indent=2)
    label = "Winner: " if len(d["winners"]) == 1 else "Winners (shared): "
    lines.append(label + ", ".join(d["winners"]))
    return lines


def _solo_over(game: Game, d: dict[str, Any], at: str) -> list[str]:
    r = solo_record(game)
    return [
        f"Solo over {at} ({d['why']}): {r['solved']} solved, {r['skipped']} put aside, "
        f"{r['seconds']:.1f}s" + ("" if r["complete"] else " (goal not reached)")
    ]


def _one_line(template: str) -> _Describer:
    """An event told in one indented line: ``template`` formatted with its data and time."""

    def lines(game: Game, d: dict[str, Any], at: str) -> list[str]:
        return ["  " + template.format_map({**d, "at": at})]

    return lines


_DESCRIBERS: dict[str, _Describer] = {
    "round_started": _round_started,
    "task_drawn": _one_line("{at} {player} draws card {card} task {key}"),
    "second_chance": _one_line(
        "{at} the hourglass ran out, nobody finished: second chance until {deadline:.0f}s"
    ),
    "finished": _finished,
    "countdown": _one_line("{at} {player} counts down until {deadline:.0f}s"),
    "gave_up": _one_line("{at} {player} gives up"),
    "task_skipped": _one_line("{at} {player} puts card {card} aside"),
    "hinted": _one_line("{at} {player} asks for a hint (it costs {penalty:.0f}s)"),
    "gems": _gems_shared,
    "cards": _cards_shared,
    "tie": _tie,
    "playoff_ended": _decider_ended("playoff"),
    "tie-round_ended": _decider_ended("tie-round"),
    "game_over": _game_over,
    "solo_over": _solo_over,
}


def describe(game: Game, event: Event) -> list[str]:
    """Readable lines for one event."""
    at = _t(event.at)
    describer = _DESCRIBERS.get(event.kind)
    if describer is None:
        return [f"  {at} {event.kind} {event.data}"]
    return describer(game, event.data, at)
