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

import argparse
import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from ubongo import editions
from ubongo.cli import CommandError
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


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "simulate",
        help="play a whole game with simulated players",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--edition", required=True, choices=editions.names())
    p.add_argument("--players", type=int, default=None, help="1-4 (default 4, solo 1)")
    p.add_argument("--seed", default="1", help="the game's seed (default 1)")
    p.add_argument("--side", help="A or B (classic, extreme), easy or hard (trigo)")
    p.add_argument(
        "--level", action="append", default=[], help="3d level; once for all, or once per player"
    )
    p.add_argument("--variant", choices=("standard", "only-first"), default="standard")
    p.add_argument("--hourglass", type=float, help="seconds per turn of the hourglass")
    p.add_argument("--countdown", type=float, help="seconds of countdown after the first finisher")
    p.add_argument("--rounds", type=int)
    p.add_argument("--solo", action="store_true", help="the solo variant (one player)")
    p.add_argument("--solo-goal", choices=("time", "tasks"), default="time")
    p.add_argument("--solo-target", type=int, help="minutes (time goal) or tasks (tasks goal)")
    p.add_argument("--deck", help="a deck file instead of the edition's standard deck")
    p.add_argument(
        "--skill",
        action="append",
        choices=tuple(LEVELS),
        default=[],
        help="a player's bot skill, in seat order, once per player (default medium; docs/bots.md)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    players = args.players if args.players is not None else (1 if args.solo else 4)
    if not 1 <= players <= 4:
        raise CommandError(f"--players must be 1-4, not {players}")
    if len(args.skill) > players:
        raise CommandError(f"{len(args.skill)} --skill for {players} players")
    skills = {name: LEVELS[skill] for name, skill in zip(NAMES, args.skill, strict=False)}
    settings = Settings(
        args.edition,
        NAMES[:players],
        mode="solo" if args.solo else "race",
        side=args.side,
        levels=tuple(args.level),
        rounds=args.rounds,
        hourglass=args.hourglass,
        countdown=args.countdown,
        variant=args.variant,
        solo_goal=args.solo_goal,
        solo_target=args.solo_target,
    )
    deck = None
    if args.deck:
        try:
            deck = Deck.load(args.deck)
        except DeckError as e:
            raise CommandError(str(e)) from None
    try:
        game = new_game(settings, args.seed, deck)
    except RuleError as e:
        raise CommandError(str(e)) from None
    except FileNotFoundError:
        raise CommandError(f"no standard {args.edition} deck is installed; pass --deck") from None
    simulate(game, args.seed, sys.stdout, skills)
    return 0


def simulate(
    game: Game, seed: object, out: TextIO, skills: Mapping[str, Level] | None = None
) -> Game:
    """Play ``game`` with bots (of ``skills``, medium if not named), writing the round-by-round
    log to ``out``; return the end."""
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
    for p in game.players:
        extra = _gems(p.gems) if game.settings.gems else f"{len(p.cards)} cards"
        lines.append(f"  {p.id:5} {d['scores'][p.id]:3}  ({extra})")
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
