"""The calibration report of the difficulty model: does the model score rank tasks as play does?

Run with ``.venv/bin/python bench/calibrate.py [--db URL] [--out docs/difficulty.md]``.  It
writes the section between the calibration markers of ``docs/difficulty.md`` (the rest of the
file, which derives the model, is left as it is) and prints a summary to stdout.

The model score (:func:`ubongo.puzzles.difficulty.expected_seconds`, stored as each task's
``difficulty``) is compared with three things, per edition and per grade (the sides or levels
the edition's record names):

1. **Bot games**: games of every edition and grade played by the rules' bots
   (:func:`ubongo.rules.bots.play_game`, pure and seeded).  A bot's time *is* the model score
   times its level's speed times log-normal noise, so this checks consistency (the scores
   reach the bots, what the game's clocks do to the times), never the model's truth.
2. **Search effort**: a model-free hardness proxy computed from the task alone: the
   placements tried by a depth-first exact-cover search to its first solution, always
   filling the empty cell with the fewest candidate placements (Knuth's "S heuristic" for
   Algorithm X, *Dancing Links*, 2000), ties and candidate order shuffled, geometric mean
   over ``--runs`` shuffles.  It uses neither the model's weights nor its features.
3. **Stored human games** from the server's database (``--db``; default: the server's own,
   ``$UBONGO_DATABASE_URL`` or the SQLite file in the user's data directory): the seconds from
   a task being dealt to its accepted submission, for person seats only (bots excluded),
   from finished games and solo runs (solo runs flagged implausible are left out).

Rank correlation is Spearman's (Pearson's correlation of the ranks, ties at their mean rank);
grades are compared with the probability of superiority ``P(X_harder > X_easier) +
P(equal) / 2`` (the Mann-Whitney U over n1 x n2).  Both are implemented here.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import platform
import random
import re
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ubongo import editions
from ubongo.board import Area
from ubongo.pieces import Piece
from ubongo.puzzles.deck import Cards, standard_deck
from ubongo.puzzles.difficulty import placements
from ubongo.rules import Settings, new_game, replay
from ubongo.rules.actions import action_from_json
from ubongo.rules.bots import LEVELS, finish_time, play_game
from ubongo.rules.errors import RuleError
from ubongo.rules.state import deck_ref
from ubongo.solver import ExactCover

ROOT = Path(__file__).resolve().parents[1]
BEGIN = "<!-- calibration report: made by bench/calibrate.py, do not edit by hand -->"
END = "<!-- end of calibration report -->"
#: the bots of the games: one of each level at every table
BOT_LEVELS = ("easy", "medium", "hard")
PERSON = "person"

# --- statistics --------------------------------------------------------------------------------


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks of ``values``; tied values share the mean of the ranks they span.

    >>> ranks([10, 20, 20, 5])
    [2.0, 3.5, 3.5, 1.0]
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's correlation; ``None`` for fewer than 3 pairs or a constant side."""
    if len(xs) != len(ys):
        raise ValueError("xs and ys differ in length")
    n = len(xs)
    if n < 3:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rank correlation: Pearson's of the (tie-averaged) ranks.

    >>> spearman([1, 2, 3, 4], [10, 30, 20, 40])
    0.8
    """
    return pearson(ranks(xs), ranks(ys))


def superiority(lower: Sequence[float], higher: Sequence[float]) -> float | None:
    """The probability that a value drawn from ``higher`` exceeds one drawn from ``lower``,
    counting ties as half: the Mann-Whitney U of ``higher`` over ``len(lower) * len(higher)``.
    0.5: the two groups overlap completely; 1.0: every ``higher`` value is above every
    ``lower`` one.  ``None`` if either group is empty.

    >>> superiority([1, 2, 3], [2, 4, 5])  # 7.5 of the 9 pairs
    0.8333333333333334
    """
    if not lower or not higher:
        return None
    r = ranks([*lower, *higher])
    n = len(higher)
    u = sum(r[len(lower) :]) - n * (n + 1) / 2
    return u / (len(lower) * n)


def quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """First quartile, median and third quartile (linear interpolation between values)."""
    if not values:
        raise ValueError("no values")
    if len(values) == 1:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


# --- observations ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Solve:
    """One task dealt to one player in a game: its model score and the seconds from being
    dealt to the accepted submission (``None``: not solved, whether given up, put aside or
    the round's time ran out)."""

    edition: str
    grade: str
    player: str
    who: str  # a bot level's name, or PERSON
    task: tuple[str, int, str, str]  # deck, card, side, key
    score: float
    seconds: float | None


def solves_from_events(
    edition: str,
    deck: Cards,
    events: Iterable[Mapping[str, Any]],
    who: Mapping[str, str],
    deck_id: str,
) -> list[Solve]:
    """Every task dealt to a player of ``who`` (player id -> label) in a game's rule events
    (``{"kind", "at", "data"}``, as :mod:`ubongo.rules` writes and the server stores them).

    A task is dealt by ``round_started`` (each player's card, side and key) or, in a solo run,
    by ``task_drawn``; it ends with the player's ``finished`` (solved), ``gave_up`` or
    ``task_skipped``, or unsolved when the next round starts or the game ends first.  Players
    not in ``who`` (bots, when reading human games) are passed over."""
    out: list[Solve] = []
    dealt: dict[str, tuple[int, str, str, float]] = {}
    sides: dict[str, str] = {}

    def close(player: str, at: float | None) -> None:
        task = dealt.pop(player, None)
        if task is None or player not in who:
            return
        card, side, key, start = task
        score = deck.card(card).side(side).task(key).difficulty
        seconds = None if at is None else at - start
        task_id = (deck_id, card, side, key)
        out.append(Solve(edition, side, player, who[player], task_id, score, seconds))

    for ev in events:
        kind, at, data = str(ev["kind"]), float(ev["at"]), ev["data"]
        if kind == "round_started":
            for player in list(dealt):
                close(player, None)
            for player, t in data["tasks"].items():
                sides[player] = str(t["side"])
                dealt[player] = (int(t["card"]), sides[player], str(t["key"]), at)
        elif kind == "task_drawn":
            player = str(data["player"])
            close(player, None)
            dealt[player] = (int(data["card"]), sides[player], str(data["key"]), at)
        elif kind == "finished":
            close(str(data["player"]), at)
        elif kind in ("gave_up", "task_skipped"):
            close(str(data["player"]), None)
    for player in list(dealt):
        close(player, None)
    return out


# --- 1. bot games ------------------------------------------------------------------------------


def bot_settings(edition: str, grade: str) -> Settings:
    """A race of one bot of each level, everyone on ``grade`` (3D: everyone's level)."""
    rec = editions.record(edition)
    players = tuple(str(i) for i in range(len(BOT_LEVELS)))
    if rec.own_sides:
        return Settings(edition, players, levels=(grade,))
    return Settings(edition, players, side=grade)


def bot_games(edition: str, games: int, seed: object) -> list[Solve]:
    """``games`` races per grade of ``edition`` on its standard deck, played by bots."""
    deck = standard_deck(edition)
    who = {str(i): level for i, level in enumerate(BOT_LEVELS)}
    levels = {str(i): LEVELS[level] for i, level in enumerate(BOT_LEVELS)}
    out: list[Solve] = []
    for grade in editions.record(edition).deck.side_names:
        for n in range(games):
            game_seed = f"calibrate:{seed}:{edition}:{grade}:{n}"
            game = new_game(bot_settings(edition, grade), game_seed, deck)
            final = play_game(game, seed=game_seed, levels=levels)
            events = [{"kind": e.kind, "at": e.at, "data": e.data} for e in final.events]
            out.extend(solves_from_events(edition, deck, events, who, edition))
    return out


def no_clock_times(solves: Sequence[Solve], seed: object) -> list[float]:
    """For each dealt task, a time drawn straight from the bot model (no clock to stop it, never
    stuck): what the bots' ranks would be if every task were played to its end."""
    rng = random.Random(f"calibrate:{seed}:no-clock")
    return [finish_time(s.score, LEVELS[s.who], rng) for s in solves]


# --- 2. search effort (model-free) -------------------------------------------------------------


def search_effort(area: Area, pieces: Sequence[Piece], runs: int, seed: object) -> float:
    """Placements tried by a depth-first exact-cover search before its first solution,
    geometric mean over ``runs`` shuffles (see the module docs).

    At each step the search fills the empty cell that the fewest remaining placements can
    cover (a cell nothing covers ends the branch at once); shuffling the cells and each cell's
    candidates breaks ties differently in each run.  A task whose every step is forced costs
    one placement per piece.

    >>> from ubongo.pieces import edition
    >>> ed = edition("classic")
    >>> search_effort(Area.from_rows(["###.", "..##"]), [ed.piece("A"), ed.piece("B")], 3, 0)
    2.0
    >>> search_effort(Area.from_rows(["####"]), [ed.piece("A"), ed.piece("B")], 3, 0)
    Traceback (most recent call last):
    ...
    ValueError: the pieces cover 5 cells, the area has 4
    """
    sizes = sum(p.size for p in pieces)
    if sizes != area.size:
        raise ValueError(f"the pieces cover {sizes} cells, the area has {area.size}")
    cells = sorted(area.solid)
    index = {c: i for i, c in enumerate(cells)}
    n = len(cells)
    full = (1 << n) - 1
    by_cell: list[list[int]] = [[] for _ in range(n)]
    for number, piece in enumerate(pieces):
        # a placement as one int: its cells' bits, and its piece's bit above them
        tag = 1 << (n + number)
        for cover in placements(area, piece):
            mask = tag | sum(1 << index[c] for c in cover)
            for c in cover:
                by_cell[index[c]].append(mask)
    total = 0.0
    for run in range(runs):
        rng = random.Random(f"{seed}:{run}")
        order = list(range(n))
        rng.shuffle(order)
        options = [rng.sample(ms, len(ms)) for ms in by_cell]
        tried = _first_cover(options, order, full)
        if tried is None:
            raise ValueError("the task has no solution")
        total += math.log(tried)
    return math.exp(total / runs)


def _first_cover(options: list[list[int]], order: list[int], full: int) -> int | None:
    """Placements tried until the first cover (``None``: there is none)."""
    tried = 0

    def fill(state: int) -> bool:
        nonlocal tried
        if state & full == full:
            return True
        best: list[int] = []
        fewest = -1
        for i in order:
            if state >> i & 1:
                continue
            fit = [m for m in options[i] if not state & m]
            if fewest < 0 or len(fit) < fewest:
                best, fewest = fit, len(fit)
                if fewest <= 1:
                    break
        for mask in best:
            tried += 1
            if fill(state | mask):
                return True
        return False

    return tried if fill(0) else None


@dataclass(frozen=True)
class TaskFacts:
    """One task of a standard deck: its grade, model score, search effort and solutions."""

    edition: str
    grade: str
    score: float
    effort: float
    solver_nodes: int
    solutions: int
    pieces: int

    @property
    def forced(self) -> bool:
        """Whether the search never took a wrong turn (one placement per piece, every run)."""
        return self.effort <= self.pieces + 1e-9


def deck_facts(edition: str, sample: int | None, runs: int, seed: object) -> list[TaskFacts]:
    """The search effort of the standard deck's tasks (all, or ``sample`` of them drawn at
    random, in proportion to the grades' sizes)."""
    deck = standard_deck(edition)
    tasks = [
        (c.number, s, t)
        for grade in editions.record(edition).deck.side_names
        for c, s in deck.sides(grade)
        for t in s.tasks
    ]
    if sample is not None and sample < len(tasks):
        tasks = random.Random(f"calibrate:{seed}:{edition}:tasks").sample(tasks, sample)
    return [
        TaskFacts(
            edition,
            side.name,
            task.difficulty,
            search_effort(
                side.area,
                deck.task_pieces(task),
                runs,
                f"{edition}:{number}:{side.name}:{task.keys[0]}",
            ),
            ExactCover.for_area(side.area, deck.task_pieces(task)).stats(1).nodes,
            task.solutions,
            len(task.pieces),
        )
        for number, side, task in tasks
    ]


# --- 3. stored human games ---------------------------------------------------------------------


@dataclass
class HumanGames:
    """What the database gave: solves by people, the games they came from, and what was
    left out (``note``: why nothing could be read, if so)."""

    url: str
    note: str = ""
    games: int = 0
    players: int = 0
    left_out: dict[str, int] = field(default_factory=dict)
    solves: list[Solve] = field(default_factory=list)


def default_db_url() -> str:
    """The database the server uses by default (``ubongo serve`` without ``--database-url``):
    ``$UBONGO_DATABASE_URL``, else the file of
    :func:`ubongo.server.store.database.default_database_url`, found here without creating its
    folder (a report only reads)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("ubongo", appauthor=False))
    return os.environ.get("UBONGO_DATABASE_URL") or f"sqlite:///{folder / 'ubongo.sqlite3'}"


def _missing_sqlite(url: str) -> str | None:
    """The path of a SQLite database file that does not exist (so it is not created)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    path = Path(str(parsed.database))
    return None if path.exists() else str(path)


def human_games(url: str) -> HumanGames:
    """Every solve by a person seat in the finished games stored at ``url``; never raises for
    a missing or empty database (the ``note`` says what was found)."""
    found = HumanGames(url)
    missing = _missing_sqlite(url)
    if missing is not None:
        found.note = f"no database at {missing}"
        return found
    from sqlalchemy import select
    from sqlalchemy.exc import SQLAlchemyError

    from ubongo.server.store.database import Database
    from ubongo.server.store.tables import GameRow, SoloRecordRow

    database = Database(url)
    names: set[str] = set()
    try:
        with database.session() as s:
            implausible = set(
                s.scalars(select(SoloRecordRow.game_id).where(SoloRecordRow.plausible.is_(False)))
            )
            for row in s.scalars(select(GameRow).order_by(GameRow.id)):
                _read_game(row, implausible, found, names)
    except SQLAlchemyError as e:
        found.note = f"cannot read the games: {type(e).__name__}: {str(e).splitlines()[0]}"
    finally:
        database.close()
    found.players = len(names)
    return found


def _read_game(row: Any, implausible: set[int], found: HumanGames, names: set[str]) -> None:
    """Add one stored game's solves by people to ``found`` (or count why it was left out)."""
    people = {
        str(p["seat"]): str(p.get("name", ""))
        for p in row.players
        if isinstance(p, dict) and p.get("kind") == "person"
    }
    why = ""
    if not people:
        why = "bots only"
    elif row.id in implausible:
        why = "solo run flagged implausible (faster than a hand)"
    else:
        try:
            who = dict.fromkeys(people, PERSON)
            solves = stored_game_solves(
                row.edition, row.settings, row.seed, row.events, row.result, who
            )
        except (RuleError, KeyError, ValueError, TypeError) as e:
            why = f"unreadable ({type(e).__name__})"
        else:
            found.solves.extend(solves)
            found.games += 1
            names.update(people.values())
            return
    found.left_out[why] = found.left_out.get(why, 0) + 1


def stored_game_solves(
    edition: str,
    settings: Mapping[str, Any],
    seed: int,
    actions: Sequence[Any],
    result: Mapping[str, Any],
    who: Mapping[str, str],
) -> list[Solve]:
    """Every task dealt to a player of ``who`` (rules player id, i.e. the seat number ->
    label) in one stored game.  The deck is made again from the rules settings and the seed
    (the standard deck, or the game's fresh cards); the events are the stored ones, or the
    replay's for a game stored without them."""
    raw = dict(settings["rules"])
    names = {f.name for f in fields(Settings)}
    kwargs: dict[str, Any] = {
        k: tuple(v) if isinstance(v, list) else v for k, v in raw.items() if k in names
    }
    rules = Settings(**kwargs)
    game = new_game(rules, seed)
    events = result.get("events")
    if events is None:
        final = replay(rules, seed, (action_from_json(a) for a in actions), game.deck)
        events = [{"kind": e.kind, "at": e.at, "data": e.data} for e in final.events]
    ref = deck_ref(game.deck)
    return solves_from_events(edition, game.deck, events, who, f"{ref['name']}:{ref['seed']}")


# --- the report --------------------------------------------------------------------------------


def fmt(value: float | None, digits: int = 2) -> str:
    """A number for the tables ("–" for none)."""
    return "–" if value is None else f"{value:.{digits}f}"


def iqr_text(values: Sequence[float], digits: int = 1) -> str:
    """``median [q1–q3]``, or "–" without values."""
    if not values:
        return "–"
    q1, q2, q3 = quartiles(values)
    return f"{q2:.{digits}f} [{q1:.{digits}f}–{q3:.{digits}f}]"


def censored_spearman(solves: Sequence[Solve]) -> float | None:
    """Spearman of score and time with every unsolved task ranked slower than every solved one
    (tied among themselves): it took longer than the time it was given."""
    if not solves:
        return None
    slowest = max((s.seconds for s in solves if s.seconds is not None), default=0.0) + 1.0
    times = [slowest if s.seconds is None else s.seconds for s in solves]
    return spearman([s.score for s in solves], times)


def solved_spearman(solves: Sequence[Solve]) -> tuple[float | None, int]:
    """Spearman of score and time over the solved tasks, and how many there are."""
    done = [s for s in solves if s.seconds is not None]
    return spearman([s.score for s in done], [float(s.seconds or 0) for s in done]), len(done)


@dataclass
class Results:
    """Everything measured, for the report and the summary."""

    command: str
    seed: str
    games: int
    runs: int
    sample: int | None
    bots: dict[str, list[Solve]]
    no_clock: dict[str, list[float]]
    facts: dict[str, list[TaskFacts]]
    humans: HumanGames
    seconds: dict[str, float]


def grades_of(edition: str) -> tuple[str, ...]:
    """The edition's grades (sides, 3D levels), easiest first, as its record lists them."""
    return editions.record(edition).deck.side_names


def bot_table(res: Results) -> list[str]:
    """Part 1: per edition and bot level."""
    lines = [
        "| edition | bot level | dealt | solved | ρ solved only | ρ unsolved as slowest"
        " | ρ without a clock | ρ within grades (solved) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for ed, solves in res.bots.items():
        clock_free = res.no_clock[ed]
        for level in BOT_LEVELS:
            mine = [i for i, s in enumerate(solves) if s.who == level]
            sub = [solves[i] for i in mine]
            rho, n = solved_spearman(sub)
            free = spearman([solves[i].score for i in mine], [clock_free[i] for i in mine])
            within = " · ".join(
                f"{g} {fmt(solved_spearman([s for s in sub if s.grade == g])[0])}"
                for g in grades_of(ed)
            )
            lines.append(
                f"| {ed} | {level} | {len(sub)} | {n} | {fmt(rho)} | {fmt(censored_spearman(sub))}"
                f" | {fmt(free)} | {within} |"
            )
    return lines


def effort_table(res: Results) -> list[str]:
    """Part 2: model score against the search effort, per edition and grade."""
    lines = [
        "| edition | grade | tasks | ρ(score, effort) | ρ(score, solver nodes)"
        " | ρ(effort, solver nodes) | ρ(score, solutions) | effort median [IQR] | effort p90 |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for ed, facts in res.facts.items():
        groups = [("all grades", facts)] + [
            (g, [f for f in facts if f.grade == g]) for g in grades_of(ed)
        ]
        for name, fs in groups:
            if not fs:
                continue
            scores = [f.score for f in fs]
            efforts = [f.effort for f in fs]
            nodes = [float(f.solver_nodes) for f in fs]
            p90 = statistics.quantiles(efforts, n=10)[-1] if len(efforts) > 1 else efforts[0]
            label = f"**{name}**" if name == "all grades" else name
            lines.append(
                f"| {ed} | {label} | {len(fs)} | {fmt(spearman(scores, efforts))}"
                f" | {fmt(spearman(scores, nodes))} | {fmt(spearman(efforts, nodes))}"
                f" | {fmt(spearman(scores, [float(f.solutions) for f in fs]))}"
                f" | {iqr_text(efforts)} | {p90:.1f} |"
            )
    return lines


def human_table(res: Results) -> list[str]:
    """Part 3: the stored human games, per edition (or the plain statement that there are
    none)."""
    h = res.humans
    if not h.solves:
        why = f" ({h.note})" if h.note else ""
        left = "".join(f"; left out: {n} ({why_})" for why_, n in sorted(h.left_out.items()))
        return [f"**No stored human games**: 0 solves by people in `{h.url}`{why}{left}."]
    lines = [
        f"{h.games} games with people ({h.players} distinct names) in `{h.url}`"
        + "".join(f"; left out: {n} ({why})" for why, n in sorted(h.left_out.items()))
        + ".",
        "",
        "| edition | dealt | solved | distinct tasks | ρ solved only | ρ unsolved as slowest"
        " | ρ within grades (solved) |",
        "|---|---|---|---|---|---|---|",
    ]
    for ed in editions.names():
        sub = [s for s in h.solves if s.edition == ed]
        if not sub:
            continue
        rho, n = solved_spearman(sub)
        within = " · ".join(
            f"{g} {fmt(solved_spearman([s for s in sub if s.grade == g])[0])}"
            for g in grades_of(ed)
            if any(s.grade == g for s in sub)
        )
        lines.append(
            f"| {ed} | {len(sub)} | {n} | {len({s.task for s in sub})} | {fmt(rho)}"
            f" | {fmt(censored_spearman(sub))} | {within} |"
        )
    return lines


def _grade_values(res: Results, ed: str, grade: str) -> dict[str, list[float]]:
    facts = [f for f in res.facts[ed] if f.grade == grade]
    bots = [s for s in res.bots.get(ed, []) if s.grade == grade and s.who == "medium"]
    people = [s for s in res.humans.solves if s.edition == ed and s.grade == grade]
    return {
        "score": [f.score for f in facts],
        "effort": [f.effort for f in facts],
        "bot": [s.seconds for s in bots if s.seconds is not None],
        "human": [s.seconds for s in people if s.seconds is not None],
    }


def _overlap(a: Sequence[float], b: Sequence[float]) -> str:
    """Whether the interquartile ranges of two groups overlap."""
    if not a or not b:
        return "–"
    qa, qb = quartiles(a), quartiles(b)
    return "overlap" if qa[2] >= qb[0] and qb[2] >= qa[0] else "apart"


def grade_tables(res: Results) -> list[str]:
    """Part 4: per grade the spread of each measure, then each pair of adjacent grades."""
    lines = [
        "| edition | grade | tasks | model s median [IQR] | effort median [IQR]"
        " | medium bot s median [IQR] | people s median [IQR] |",
        "|---|---|---|---|---|---|---|",
    ]
    pairs = [
        "| edition | easier → harder | P(harder) model | IQRs (model) | P(harder) effort"
        " | IQRs (effort) | P(harder) bot | P(harder) people |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for ed in res.facts:
        gs = grades_of(ed)
        values = {g: _grade_values(res, ed, g) for g in gs}
        for g in gs:
            v = values[g]
            lines.append(
                f"| {ed} | {g} | {len(v['score'])} | {iqr_text(v['score'])}"
                f" | {iqr_text(v['effort'])} | {iqr_text(v['bot'])} | {iqr_text(v['human'])} |"
            )
        for lo, hi in itertools.pairwise(gs):
            a, b = values[lo], values[hi]
            pairs.append(
                f"| {ed} | {lo} → {hi} | {fmt(superiority(a['score'], b['score']))}"
                f" | {_overlap(a['score'], b['score'])}"
                f" | {fmt(superiority(a['effort'], b['effort']))}"
                f" | {_overlap(a['effort'], b['effort'])}"
                f" | {fmt(superiority(a['bot'], b['bot']))}"
                f" | {fmt(superiority(a['human'], b['human']))} |"
            )
    return [*lines, "", *pairs]


def _rho(facts: Sequence[TaskFacts], measure: Callable[[TaskFacts], float]) -> float | None:
    return spearman([f.score for f in facts], [measure(f) for f in facts])


def _by_grade(res: Results) -> dict[tuple[str, str], list[TaskFacts]]:
    return {
        (ed, g): [f for f in fs if f.grade == g]
        for ed, fs in res.facts.items()
        for g in grades_of(ed)
    }


def _effort_findings(res: Results) -> list[str]:
    """Model score against the search effort: whole editions, then within grades."""
    pooled = {ed: _rho(fs, lambda f: f.effort) for ed, fs in res.facts.items()}
    within = {
        k: r
        for k, fs in _by_grade(res).items()
        if len(fs) >= 3 and (r := _rho(fs, lambda f: f.effort)) is not None
    }
    out = [
        "* **Model against search effort, whole editions**: "
        + ", ".join(f"{ed} {fmt(r)}" for ed, r in pooled.items())
        + " (n in section 2). Part of this is the grades themselves: a harder grade has more"
        " pieces or cells, which raises both the score (3 s a piece) and the search."
    ]
    if within:
        ordered = sorted(within.items(), key=lambda kv: kv[1])
        (lo_ed, lo_g), lo = ordered[0]
        (hi_ed, hi_g), hi = ordered[-1]
        weak = ", ".join(f"{ed} {g} {r:.2f}" for (ed, g), r in ordered if r < 0.4)
        out.append(
            "* **Within one grade** (the same number of pieces: what ranks the tasks a player is"
            f" actually offered) the agreement is weaker, from {lo:.2f} ({lo_ed} {lo_g}) to"
            f" {hi:.2f} ({hi_ed} {hi_g})."
            + (
                f" Weak (below 0.4): {weak}. There the model's order of tasks is barely"
                " the order of how much searching they need: either people do not search"
                " the way this solver does, or the model's `bits` misjudge those tasks; only"
                " human times can say which."
                if weak
                else ""
            )
        )
    forced = [
        (share, f"{ed} {g} {share:.0%}")
        for (ed, g), fs in _by_grade(res).items()
        if fs and (share := sum(f.forced for f in fs) / len(fs)) >= 0.25
    ]
    if forced:
        out.append(
            "* **The effort saturates where tasks are forced**: the search never takes a wrong"
            " turn (effort = the number of pieces) on "
            + ", ".join(t for _, t in sorted(forced, reverse=True))
            + " of the tasks. It cannot rank those tasks against each other, which by itself holds"
            " ρ down there; a person may still find some of them slower than others."
        )
    return out


def _grade_findings(res: Results) -> list[str]:
    """Adjacent grades that the search effort separates, and those it does not."""
    apart: list[str] = []
    mixed: list[str] = []
    for ed, fs in res.facts.items():
        for lo, hi in itertools.pairwise(grades_of(ed)):
            a = [f for f in fs if f.grade == lo]
            b = [f for f in fs if f.grade == hi]
            p = superiority([f.effort for f in a], [f.effort for f in b])
            m = superiority([f.score for f in a], [f.score for f in b])
            if p is None or m is None:
                continue
            sides = editions.record(ed).deck
            same = p < 0.7 and sides.side(lo).pieces == sides.side(hi).pieces
            both = f"; both {sides.side(lo).pieces} pieces" if same else ""
            text = f"{ed} {lo} → {hi} ({p:.2f}; the model {m:.2f}{both})"
            (apart if p >= 0.7 else mixed).append(text)
    out = []
    if apart:
        out.append(
            "* **Grades the search effort confirms** (P(harder) of the effort 0.7 or more): "
            + "; ".join(apart)
            + "."
        )
    if mixed:
        out.append(
            "* **Grades the search effort hardly tells apart** (under 0.7): "
            + "; ".join(mixed)
            + ". Where both grades have as many pieces, the model tells them apart by `bits`"
            " alone (how many places the pieces have, against how many solutions there are),"
            " and the search finds the harder grade little or no extra work. If people agree"
            " with the search, these grades are closer than their scores say."
        )
    return out


def _noise_findings(res: Results) -> list[str]:
    """How narrow a grade's scores are, against the spread of one task's times."""
    spreads = []
    for (ed, g), fs in _by_grade(res).items():
        if len(fs) >= 2:
            q1, q2, q3 = quartiles([f.score for f in fs])
            spreads.append(((q3 - q1) / q2, f"{ed} {g}"))
    within_bot = [
        r
        for ed, solves in res.bots.items()
        for g in grades_of(ed)
        if (r := solved_spearman([s for s in solves if s.grade == g and s.who == "medium"])[0])
        is not None
    ]
    if not spreads or not within_bot:
        return []
    spreads.sort()
    sigma = LEVELS["medium"].sigma
    return [
        "* **Within a grade the scores are close together**: the IQR of the model score is"
        f" {spreads[0][0]:.0%} ({spreads[0][1]}) to {spreads[-1][0]:.0%} ({spreads[-1][1]})"
        " of the grade's median, while one player's times on one task vary far more (the"
        f" medium bot's σ {sigma}: one standard deviation is a factor of"
        f" {math.exp(sigma):.2f}). So within a grade even the bots, whose times follow the"
        " score exactly, rank tasks weakly (medium bots, solved only: ρ"
        f" {min(within_bot):.2f} to {max(within_bot):.2f}); human times, with their own"
        " noise, will need many plays per task before they can confirm or refute the order"
        " within a grade. Between grades the scores differ by much more than the noise."
    ]


def findings(res: Results) -> list[str]:
    """What the numbers show, worked out from them (so a new run says what it found)."""
    return [*_effort_findings(res), *_grade_findings(res), *_noise_findings(res)]


def report(res: Results) -> str:
    """The calibration section of docs/difficulty.md (markdown, between the markers)."""
    total = sum(res.seconds.values())
    sample = "all tasks" if res.sample is None else f"{res.sample} tasks per edition"
    n_bot = sum(len(v) for v in res.bots.values())
    parts = [
        BEGIN,
        "## Calibration report",
        "",
        f"Made with `{res.command}` on {datetime.now(UTC):%Y-%m-%d} in {total:.0f} s"
        f" (bot games {res.seconds['bots']:.0f} s, search effort {res.seconds['effort']:.0f} s,"
        f" stored games {res.seconds['humans']:.1f} s; python {platform.python_version()},"
        f" {os.cpu_count()} cores). Seed `{res.seed}`: the same command gives the same numbers.",
        "",
        "The question: does the model score (`difficulty`, expected seconds for a median player)"
        " put tasks in the order that play does? Every correlation below is **Spearman's ρ**"
        " (rank correlation: 1 = the same order, 0 = unrelated, computed over the `n` pairs"
        " given); every grade comparison is the **probability of superiority** P(harder): the"
        " chance that a task (or a solve) drawn from the harder grade has the larger value than"
        " one from the easier grade, ties counting half (0.5 = the grades are mixed"
        " completely, 1.0 = every task of the harder grade is above every task of the easier"
        " one). *IQR* is the interquartile range (the middle half of the values).",
        "",
        "### 1. Bot games: a consistency check, not evidence",
        "",
        f"{res.games} races per grade and edition on the standard decks, each with one bot of"
        f" each level (easy, medium, hard), played by the rules and `rules.bots.play_game`"
        f" ({n_bot} tasks dealt). **A bot's time is the model score itself** times its level's"
        " speed (1.6, 1.0, 0.6) times log-normal noise (σ 0.45, 0.35, 0.25), so these"
        " correlations are high by construction and say nothing about whether people agree."
        " What they do check: that the decks' scores reach the bots, and what the game's clocks"
        " do to the measured times. A bot that is still searching when the hourglass or the"
        " countdown after the first finisher runs out, or that is stuck on a task, has no time:"
        " *ρ solved only* drops those tasks (it cuts off the slow end, which can move ρ"
        " either way); *ρ unsolved as slowest* ranks them after every solved one. *ρ without"
        " a clock* draws each dealt task's time straight from the bot model: what the noise"
        " alone allows when every task is played to its end. *Within grades* is the same,"
        " solved only, one grade at a time.",
        "",
        "*dealt*: tasks dealt to bots of that level (the n of the two columns that keep"
        " unsolved tasks); *solved*: the n of *ρ solved only*.",
        "",
        *bot_table(res),
        "",
        "### 2. Search effort: a measure the model was not built from",
        "",
        f"For {sample} of the standard decks: the **search effort**, the number of placements"
        " a depth-first exact-cover search tries before it finds the first solution, when it"
        " always fills the empty cell that the fewest remaining placements can cover (Knuth's"
        " S heuristic for Algorithm X), with ties and the order of candidates shuffled;"
        f" geometric mean over {res.runs} shuffles. A task whose every step is forced costs one"
        " placement per piece (3 to 6); each wrong turn adds the placements tried under it."
        " It uses none of the model's features or weights (no `bits`, flips or lattice"
        " factors); it is a different idea of hardness: how much trial and error a systematic"
        " solver needs, which is one part of what makes a person slow.",
        "",
        "*Solver nodes* are a second model-free count: the placements that the project's own"
        " solver (`ubongo.solver`, which fills the first empty cell in a fixed reading order,"
        " remembers dead ends and walls off single-cell holes) tries before its first"
        " solution. Its order is arbitrary where a person's is not, so it is the cruder"
        " proxy; *ρ(effort, solver nodes)* says how far the two proxies agree with each other.",
        "",
        "*ρ(score, solutions)* is shown for reference only: the number of solutions is part of"
        " the model (through `bits`: more solutions, fewer questions), so it is not"
        " independent; it is negative when more solutions mean a lower score.",
        "",
        "*tasks* is the n of each row; *all grades* pools the edition's grades.",
        "",
        *effort_table(res),
        "",
        "### 3. Stored human games",
        "",
        "Read from the database: every finished game and solo run with a person seat; for each"
        " task dealt to a person, the seconds from its deal (the round's start, or in a solo"
        " run the previous task's end) to the accepted submission. Bot seats are left out"
        " (the stored seats say which are bots), and solo runs that the server flagged as"
        " implausibly fast. The model scores are the tasks' own: the standard deck's, or the"
        " game's fresh cards made again from its seed.",
        "",
        *human_table(res),
        "",
        "### 4. Do the grades separate?",
        "",
        "Per grade (the sides or levels as the edition's record lists them, easiest first):"
        " the median and IQR of the model score and the search effort over the deck's tasks,"
        " and of the solve times of the medium bots and of people. Then each pair of adjacent"
        " grades: P(harder) of each measure, and whether the two grades' IQRs overlap.",
        "",
        *grade_tables(res),
        "",
        "### What this shows",
        "",
        *findings(res),
        "* **The bot figures are not evidence about people** (section 1): they only confirm"
        " that the games use the scores as intended and show how much the clocks hide. Only"
        " section 3 tests the model against people"
        + (
            f"; here it has {len(res.humans.solves)} tasks dealt to people, so weigh its ρ"
            " by that n."
            if res.humans.solves
            else ", and there are no stored human games yet: until there are, the search"
            " effort is the one independent check."
        ),
        "* **The effort is not a person either**: a solver with perfect bookkeeping does not"
        " see what people find hard (turning a piece over, 3D pieces in the hand, a ragged"
        " outline that hides where a piece fits), and the model's flip and lattice factors"
        " have nothing to agree with here. The weights (3 s a piece, 1.2 s a bit) remain"
        " guesses until human times refit them.",
        END,
    ]
    return "\n".join(parts) + "\n"


def write_report(path: Path, section: str) -> None:
    """Put ``section`` between the markers of ``path`` (at its end if it has none)."""
    text = path.read_text("utf-8") if path.exists() else ""
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END) + r"\n?", re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _: section, text, count=1)
    else:
        text = (text.rstrip("\n") + "\n\n" if text else "") + section
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")


def summary(res: Results) -> str:
    """The stdout summary: one line per edition."""
    rows = [
        f"{'edition':<8} {'tasks':>6} {'ρ effort':>9} {'ρ effort in grades':>19}"
        f" {'ρ medium bots':>14} {'people':>7} {'ρ people':>9}"
    ]
    rows.append("-" * len(rows[0]))
    for ed, facts in res.facts.items():
        rho = spearman([f.score for f in facts], [f.effort for f in facts])
        within = [
            spearman([f.score for f in sub], [f.effort for f in sub])
            for g in grades_of(ed)
            if (sub := [f for f in facts if f.grade == g])
        ]
        span = [w for w in within if w is not None]
        span_text = f"{min(span):.2f} to {max(span):.2f}" if span else "–"
        bots = [s for s in res.bots.get(ed, []) if s.who == "medium"]
        people = [s for s in res.humans.solves if s.edition == ed]
        rows.append(
            f"{ed:<8} {len(facts):>6} {fmt(rho):>9} {span_text:>19}"
            f" {fmt(solved_spearman(bots)[0]):>14} {len(people):>7}"
            f" {fmt(solved_spearman(people)[0]):>9}"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", default=None, help="database URL (default: the server's)")
    parser.add_argument("--out", default="docs/difficulty.md", help="the report's file")
    parser.add_argument("--games", type=int, default=20, help="bot races per grade and edition")
    parser.add_argument(
        "--tasks", type=int, default=None, help="search effort on N tasks per edition (all)"
    )
    parser.add_argument("--runs", type=int, default=8, help="shuffled searches per task")
    parser.add_argument("--seed", default="1", help="seed of the games and samples")
    parser.add_argument("--edition", action="append", help="only these editions (repeatable)")
    args = parser.parse_args(argv)
    given = sys.argv[1:] if argv is None else argv
    command = " ".join([".venv/bin/python bench/calibrate.py", *map(shlex.quote, given)])
    names = args.edition or list(editions.names())
    url = args.db or default_db_url()
    seconds: dict[str, float] = {}
    bots: dict[str, list[Solve]] = {}
    facts: dict[str, list[TaskFacts]] = {}
    for ed in names:
        start = time.perf_counter()
        bots[ed] = bot_games(ed, args.games, args.seed)
        seconds["bots"] = seconds.get("bots", 0.0) + time.perf_counter() - start
    no_clock = {ed: no_clock_times(s, f"{args.seed}:{ed}") for ed, s in bots.items()}
    for ed in names:
        start = time.perf_counter()
        facts[ed] = deck_facts(ed, args.tasks, args.runs, args.seed)
        seconds["effort"] = seconds.get("effort", 0.0) + time.perf_counter() - start
    start = time.perf_counter()
    humans = human_games(url)
    seconds["humans"] = time.perf_counter() - start
    res = Results(
        command,
        args.seed,
        args.games,
        args.runs,
        args.tasks,
        bots,
        no_clock,
        facts,
        humans,
        seconds,
    )
    out = Path(args.out)
    if not out.is_absolute():
        out = Path.cwd() / out
    write_report(out, report(res))
    print(command)
    print("Spearman's ρ of the model score with: the search effort (all tasks; within each")
    print("grade, lowest to highest), medium bots' solve times, people's solve times")
    print(summary(res))
    people = len(humans.solves)
    print(
        f"stored games: {humans.games} with people, {people} solves by people"
        + (f" ({humans.note})" if humans.note else "")
    )
    print(
        f"took {sum(seconds.values()):.1f} s (bot games {seconds['bots']:.1f} s, search effort"
        f" {seconds['effort']:.1f} s, stored games {seconds['humans']:.2f} s); wrote {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
