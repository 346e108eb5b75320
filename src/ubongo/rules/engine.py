"""The engine: one set of rules for every edition, the editions' differences as small policies.

=============  =========================  ==========================  ===================
edition        task chosen by             round timed by              scored with
=============  =========================  ==========================  ===================
Classic, 3D    die roll                   hourglass, second chance    gems; playoff on a tie
Extreme        corner schedule            countdown after 1st finish  cards; tie round
Trigo          the card's only task       countdown after 1st finish  cards; tie shared
=============  =========================  ==========================  ===================

Each column is a policy the edition's record names (:mod:`.policies`); the engine asks the
policy and never which edition it plays.

Every function here is pure: it takes a game and returns a new one, never reading a clock or
a global random generator.  Random draws come from ``random.Random(f"{seed}:{what}:{n}")``, so
the same seed and the same actions always give the same game.
"""

from __future__ import annotations

import copy
import datetime
from collections.abc import Iterable, Sequence
from typing import Any

from ubongo.board import check_cover
from ubongo.puzzles.daily import daily_deck
from ubongo.puzzles.deck import Card, Cards, Side, Task, standard_deck
from ubongo.puzzles.fresh import endless_deck, fresh_deck, shared_fresh_deck
from ubongo.puzzles.pack import pack_deck

from . import endless
from .actions import Action, Advance, GiveUp, Hint, SkipTask, StartRound, StopRun, Submit
from .errors import (
    AlreadyFinished,
    AlreadyGaveUp,
    GameOver,
    NoRound,
    NotInRound,
    NotSolo,
    RoundRunning,
    SettingsError,
    TimeWentBackwards,
    TooLate,
    UnknownPiece,
    UnknownPlayer,
    WrongArrangement,
)
from .events import EventKind
from .policies import (
    deal_for,
    event,
    key_choice,
    playable,
    rng,
    scoring_policy,
    shuffle,
    timer_policy,
)
from .settings import Settings
from .state import Entry, Game, PlayerState, Round, RoundKind, Solo

# --- set-up ----------------------------------------------------------------------------------


def new_game(settings: Settings, seed: int | str = 0, deck: Cards | None = None) -> Game:
    """A game ready for its first :class:`StartRound`: boards dealt into stacks, gems laid out.

    ``deck`` defaults to the deck the settings name: with ``puzzles="fresh"`` the game's own
    cards, made from ``seed`` (:mod:`ubongo.puzzles.fresh`); else ``settings.deck``, or the
    edition's standard deck.  Raises :class:`SettingsError` for settings that do not make a
    game."""
    s = settings.resolved()
    if deck is None:
        deck = _deck(s, seed)
    if deck.edition != s.edition:
        raise SettingsError(f"a {deck.edition} deck cannot be used to play {s.edition}")
    game = Game(s, str(seed), deck, players=[PlayerState(p, s.level_of(p)) for p in s.players])
    rounds = _rounds(s)
    deal = deal_for(s)
    scoring_policy(s.record).setup(game, rounds, race=not s.solo)
    if s.solo:
        game.next_kind = "solo"
        game.solo = Solo(rating=s.rating)
        if s.endless:
            return game  # no stack: the rules choose every task (.endless)
        side = s.level_of(s.players[0])
        pool = playable(game, side)
        if not pool:
            raise SettingsError(f"the deck has no card with a playable {side} side")
        if s.puzzles != "daily":  # the day's tasks come in their order, easiest first
            shuffle(game, pool, "stack")
        deal.solo(game, pool)
        return game
    deal.deal(game, rounds)
    return game


def _deck(s: Settings, seed: int | str) -> Cards:
    if s.endless:
        return endless_deck(s.edition, seed)
    if s.puzzles == "daily":
        return daily_deck(s.edition, datetime.date.fromisoformat(s.day))
    if s.puzzles == "pack":
        try:
            return pack_deck(s.edition, s.pack)
        except (KeyError, ValueError) as e:
            raise SettingsError(f"the pack cannot be played: {e}") from None
    if s.puzzles == "fresh":
        sides = {s.level_of(p) for p in s.players} | set(s.deck_sides)
        if s.deck_seed is not None:
            return shared_fresh_deck(s.edition, s.deck_seed, frozenset(sides))
        return fresh_deck(s.edition, seed, sides)
    name = s.deck or s.edition
    try:
        return standard_deck(name)
    except (FileNotFoundError, OSError, ValueError) as e:
        raise SettingsError(f"cannot load deck {name!r}: {e}") from None


def _rounds(s: Settings) -> int:
    assert s.rounds is not None
    return s.rounds


# --- applying actions ------------------------------------------------------------------------


def apply(game: Game, action: Action) -> Game:
    """The game after ``action``; ``game`` itself is never changed.

    Raises a :class:`RuleError` subclass when the action is not allowed.  An ``Advance`` with
    no deadline due returns ``game`` itself (nothing happened, nothing is logged)."""
    if action.now != action.now or action.now in (float("inf"), float("-inf")):
        raise TimeWentBackwards(f"{action.now} is not a time")
    if game.now is not None and action.now < game.now:
        raise TimeWentBackwards(f"time {action.now} is before the game's last time {game.now}")
    if isinstance(action, Advance):
        if game.phase != "playing" or game.deadline is None or game.deadline > action.now:
            return game
    elif game.phase == "over":
        raise GameOver("the game is over")
    g = _copy(game)
    was_playing = g.phase == "playing"
    _run_clock(g, action.now, inclusive=isinstance(action, Advance))
    if isinstance(action, StartRound):
        _start_round(g, action.now)
    elif isinstance(action, Submit | GiveUp | SkipTask | Hint | StopRun):
        entry = _entry_for(g, action.player, was_playing)
        if isinstance(action, Submit):
            _submit(g, entry, action)
        elif isinstance(action, GiveUp):
            _give_up(g, entry, action.now)
        elif isinstance(action, Hint):
            _hint(g, entry, action.now)
        elif isinstance(action, StopRun):
            _stop(g, action.now)
        else:
            _skip(g, entry, action.now)
    g.now = action.now
    g.log = (*game.log, action)
    return g


def replay(
    settings: Settings, seed: int | str, actions: Iterable[Action], deck: Cards | None = None
) -> Game:
    """The game that ``actions`` make from a new game: the same every time."""
    game = new_game(settings, seed, deck)
    for a in actions:
        game = apply(game, a)
    return game


def _copy(game: Game) -> Game:
    # what never changes is shared, everything else copied: the deck, the log, the settings and
    # every event told (a game's events grow with it: copied too, an action late in a long solo
    # run cost milliseconds, 4 ms after 300 events; bench/rules_apply.py)
    keep: dict[int, Any] = {id(e): e for e in game.events}
    for shared in (game.deck, game.log, game.settings):
        keep[id(shared)] = shared
    return copy.deepcopy(game, keep)


def _entry_for(g: Game, player: str, was_playing: bool) -> Entry:
    if player not in g.settings.players:
        raise UnknownPlayer(f"{player!r} is not playing in this game")
    if g.phase != "playing" or g.round is None:
        if was_playing:
            raise TooLate("time ran out before this action")
        if g.phase == "over":
            raise GameOver("the game is over")
        raise NoRound("no round is running")
    entry = g.round.entry(player)
    if entry is None:
        raise NotInRound(f"{player} is not in this {g.round.kind}")
    if entry.finished_at is not None:
        raise AlreadyFinished(f"{player} has already finished this {g.round.kind}")
    if entry.gave_up:
        raise AlreadyGaveUp(f"{player} gave up this {g.round.kind}")
    return entry


def _run_clock(g: Game, now: float, inclusive: bool) -> None:
    """Handle every deadline before ``now`` (``inclusive``: also one exactly at ``now``)."""
    while g.phase == "playing" and g.round is not None and g.round.deadline is not None:
        at = g.round.deadline
        if at > now or (at == now and not inclusive):
            return
        r = g.round
        if r.kind == "solo" and g.settings.endless:
            # the task's time ran out: a loss, and the next task
            assert g.solo is not None
            entry = r.entries[0]
            endless.rate(g, entry, 0.0, at, "time")
            g.solo.timed_out += 1
            _next_solo_task(g, entry, at)
        elif r.kind == "solo":
            _end_solo(g, at, "time")
        elif r.kind != "round" or not timer_policy(g.settings.record).ran_out(g, r, at):
            _end_round(g, at)


# --- rounds ----------------------------------------------------------------------------------


def card(game: Game, number: int) -> Card:
    """The deck's card (board) with this number."""
    return game.deck.card(number)


def entry_task(game: Game, entry: Entry) -> tuple[Side, Task]:
    """The side and task a round entry plays."""
    side = card(game, entry.card).side(entry.side)
    return side, side.task(entry.key)


def _start_round(g: Game, now: float) -> None:
    """Start what comes next (``g.next_kind``): a round, a tie-break or the solo run."""
    if g.phase == "playing":
        assert g.round is not None
        raise RoundRunning(f"{g.round.kind} {g.round.number} is still running")
    kind: RoundKind = g.next_kind
    if kind == "round":
        r = _race_round(g, now)
    elif kind == "playoff":
        r = _playoff(g, now)
    elif kind == "tie-round":
        r = _tie_round(g, now)
    else:
        r = _solo_run(g, now)
    g.round = r
    g.phase = "playing"
    event(
        g,
        EventKind.ROUND_STARTED,
        now,
        kind=r.kind,
        round=r.number,
        roller=r.roller,
        die=r.die,
        deadline=r.deadline,
        tasks={e.player: {"card": e.card, "side": e.side, "key": e.key} for e in r.entries},
    )


def _race_round(g: Game, now: float) -> Round:
    """The next round of a race: one key for everybody (a die roll, or the schedule's next),
    a card each, the timer started."""
    s = g.settings
    n = len(g.players)
    number = g.rounds_played + 1
    choice = key_choice(s.record)
    # the die roller rotates to the left every round
    starter = (number - 1) % n if choice.rolls else 0
    seats = [g.players[(starter + i) % n] for i in range(n)]
    r = Round("round", number, now, [])
    key = choice.key(g, number - 1, number)
    if choice.rolls:
        r.roller = seats[0].id
        r.die = key
    timer_policy(s.record).start(g, r, now)
    for p in seats:
        r.entries.append(Entry(p.id, _draw(g, p, ("round", number)), p.side, key))
    r.entries.sort(key=lambda e: s.players.index(e.player))
    return r


def _playoff(g: Game, now: float) -> Round:
    """The playoff of the tied players: a die roll, a card each (no two the same)."""
    s = g.settings
    tied = [g.player(pid) for pid in g.tied]
    r = Round("playoff", 1, now, [])
    r.roller = tied[0].id
    r.die = rng(g, "die", "playoff").choice(s.record.deck.keys)
    taken: set[int] = set()
    for p in tied:
        b = _draw(g, p, ("playoff",), avoid=taken)
        taken.add(b)
        r.entries.append(Entry(p.id, b, p.side, r.die))
    r.deadline = None if s.playoff_limit is None else now + s.playoff_limit
    return r


def _tie_round(g: Game, now: float) -> Round:
    """The tie round: each tied player plays a won card of the player to their left."""
    s = g.settings
    r = Round("tie-round", 1, now, [])
    tie_key = s.record.tie_round_key
    assert tie_key is not None, "the record names a tie round's key when it allows one"
    for pid, number in _tie_round_cards(g):
        r.entries.append(Entry(pid, number, g.player(pid).side, tie_key))
    r.deadline = None if s.playoff_limit is None else now + s.playoff_limit
    return r


def _solo_run(g: Game, now: float) -> Round:
    """The solo run, as one round: its clock (a time run) and its first task."""
    s = g.settings
    assert g.solo is not None
    g.solo.started_at = now
    r = Round("solo", 1, now, [])
    p = g.players[0]
    r.entries.append(Entry(p.id, 0, p.side, ""))
    target = s.solo_target or 0
    r.deadline = now + 60.0 * target if s.solo_goal == "time" else None
    _next_solo_task(g, r.entries[0], now, r)
    return r


def upcoming_cards(game: Game) -> list[int]:
    """The cards the game will most likely show next: a fresh game's server makes them
    ahead, off its event loop (:class:`ubongo.puzzles.fresh.FreshDeck`), so that nobody waits.

    >>> from ubongo.rules import Settings
    >>> game = new_game(Settings("classic", ("a", "b")), seed=1)
    >>> len(upcoming_cards(game))
    2
    """
    if game.settings.endless:
        return endless.upcoming(game)
    return deal_for(game.settings).upcoming(game)


def _draw(g: Game, p: PlayerState, why: tuple[object, ...], avoid: set[int] | None = None) -> int:
    """The next board or card for ``p``, as the edition deals them (:mod:`.policies`)."""
    return deal_for(g.settings).draw(g, p, why, avoid or set())


def _tie_round_cards(g: Game) -> list[tuple[str, int]]:
    """For each tied player, the top card of the pile of the player to their left.

    A player to the left with no card left to take is passed over for the next one to the left."""
    n = len(g.players)
    taken: dict[str, int] = {}
    out = []
    for pid in g.tied:
        i = g.settings.players.index(pid)
        for step in range(1, n + 1):
            left = g.players[(i + step) % n]
            used = taken.get(left.id, 0)
            if used < len(left.cards):
                out.append((pid, left.cards[-1 - used]))
                taken[left.id] = used + 1
                break
    return out


def _submit(g: Game, entry: Entry, action: Submit) -> None:
    ed = g.deck.pieces
    for pl in action.placements:
        if not ed.has_piece(pl.piece):
            raise UnknownPiece(f"{ed.name} has no piece {pl.piece!r}")
    side, task = entry_task(g, entry)
    verdict = check_cover(side.area, g.deck.task_pieces(task), action.placements)
    if not verdict:
        raise WrongArrangement(verdict)
    r = g.round
    assert r is not None
    now = action.now
    entry.finished_at = now
    r.finish_order.append(entry.player)
    entry.place = len(r.finish_order)
    event(
        g,
        EventKind.FINISHED,
        now,
        player=entry.player,
        place=entry.place,
        card=entry.card,
        side=entry.side,
        key=entry.key,
    )
    s = g.settings
    if r.kind == "solo":
        assert g.solo is not None
        g.solo.solved += 1
        g.discard.append(entry.card)
        if s.endless:
            endless.rate(g, entry, 1.0, now, "solved")
        if s.solo_goal == "tasks" and g.solo.solved >= (s.solo_target or 0):
            _end_solo(g, now, "target")
        else:
            _solo_next(g, entry, now)
        return
    if r.kind in ("playoff", "tie-round"):
        _end_round(g, now)
        return
    if entry.place == 1:
        if s.variant == "only-first":
            # only the first finisher scores: nothing is left to play for
            _end_round(g, now)
            return
        timer_policy(s.record).first_finish(g, r, entry, now)
    if not any(e.active for e in r.entries):
        _end_round(g, now)


def _give_up(g: Game, entry: Entry, now: float) -> None:
    r = g.round
    assert r is not None
    if r.kind == "solo":
        # solo: this task is given up (not solved; its solution may be shown), the run goes on
        assert g.solo is not None
        g.solo.gave_up += 1
        g.discard.append(entry.card)
        if g.settings.endless:
            endless.rate(g, entry, 0.0, now, "gave_up")  # a task given up is lost
        event(
            g,
            EventKind.GAVE_UP,
            now,
            player=entry.player,
            card=entry.card,
            side=entry.side,  # an endless run's sides change from task to task
            key=entry.key,
        )
        _solo_next(g, entry, now)
        return
    entry.gave_up = True
    event(g, EventKind.GAVE_UP, now, player=entry.player)
    if not any(e.active for e in r.entries):
        _end_round(g, now)


def _stop(g: Game, now: float) -> None:
    """A solo run ends when its player says so: an endless or practice run only so (the task
    in hand is not rated); a time or tasks run before its goal, and then it is no record (it
    would rank by a clock it did not play out). A daily run is played to its last task: each
    task put aside costs the time it ran."""
    r = g.round
    assert r is not None
    if r.kind != "solo" or g.solo is None or g.settings.puzzles == "daily":
        raise NotSolo("only a solo run that is not the daily challenge is stopped")
    g.solo.stopped = True
    _end_solo(g, now, "stopped")


def _skip(g: Game, entry: Entry, now: float) -> None:
    r = g.round
    assert r is not None
    if r.kind != "solo" or g.solo is None:
        raise NotSolo("only a solo player puts a task aside")
    g.solo.skipped += 1
    g.discard.append(entry.card)
    if g.settings.endless:
        # putting an endless task aside is a loss: else a hard task would cost nothing
        endless.rate(g, entry, 0.0, now, "skipped")
    event(g, EventKind.TASK_SKIPPED, now, player=entry.player, card=entry.card, key=entry.key)
    _solo_next(g, entry, now)


def _hint(g: Game, entry: Entry, now: float) -> None:
    """A hint costs time: a time run's clock runs out ``hint_penalty`` seconds sooner (at
    once if less is left), a tasks run's time grows by it; practice is free."""
    r = g.round
    assert r is not None
    if r.kind != "solo" or g.solo is None:
        raise NotSolo("hints are for solo runs")
    s = g.settings
    g.solo.hints += 1
    penalty = s.hint_penalty if s.solo_goal in ("time", "tasks") else 0.0
    if s.solo_goal == "tasks":
        g.solo.penalty += penalty
    elif r.deadline is not None:
        r.deadline = max(now, r.deadline - penalty)
    event(
        g,
        EventKind.HINTED,
        now,
        player=entry.player,
        card=entry.card,
        key=entry.key,
        penalty=penalty,
        deadline=r.deadline,
    )
    if r.deadline is not None and r.deadline <= now:
        _end_solo(g, now, "time")


def _solo_next(g: Game, entry: Entry, now: float) -> None:
    """The next solo task; a daily run is over once each of the day's tasks was played."""
    assert g.solo is not None
    if g.settings.puzzles == "daily" and g.solo.drawn >= g.deck.size:
        _end_solo(g, now, "done")
    else:
        _next_solo_task(g, entry, now)


def _next_solo_task(g: Game, entry: Entry, at: float, starting: Round | None = None) -> None:
    """Deal the next solo task to ``entry`` (``starting``: the run's round, not yet begun)."""
    assert g.solo is not None
    n = g.solo.drawn
    g.solo.drawn += 1
    p = g.players[0]
    if g.settings.endless:
        r = starting or g.round
        assert r is not None
        endless.deal(g, r, entry, n, at)
    else:
        entry.card = _draw(g, p, ("solo", n))
        entry.key = key_choice(g.settings.record).key(g, n, "solo", n)
    entry.finished_at = None
    entry.place = None
    if g.round is not None and g.round.kind == "solo":
        g.round.finish_order.clear()
        event(g, EventKind.TASK_DRAWN, at, player=p.id, card=entry.card, key=entry.key)


def _end_solo(g: Game, at: float, why: str) -> None:
    assert g.solo is not None and g.round is not None
    g.solo.ended_at = at
    g.round.ended_at = at
    g.round.deadline = None
    g.phase = "over"
    g.winners = [g.players[0].id]
    event(g, EventKind.SOLO_OVER, at, why=why, **solo_record(g))


def solo_record(game: Game) -> dict[str, Any]:
    """The solo result: tasks solved, put aside and given up, hints asked for, seconds played
    (a tasks run: with the hints' penalty), and whether the goal was met (practice has none)."""
    solo = game.solo
    assert solo is not None
    s = game.settings
    end = solo.ended_at if solo.ended_at is not None else game.now
    elapsed = 0.0 if solo.started_at is None or end is None else end - solo.started_at
    target = s.solo_target or 0
    if s.solo_goal == "tasks":
        done = solo.solved >= target
    elif s.solo_goal == "time":  # when its time is up, not when its player stopped it
        done = solo.ended_at is not None and not solo.stopped
    else:  # an endless run once stopped; practice never
        done = s.solo_goal == "endless" and solo.ended_at is not None
    rating = solo.rating if s.endless else None
    return {
        "goal": s.solo_goal,
        "target": target,
        "solved": solo.solved,
        "skipped": solo.skipped,
        "gave_up": solo.gave_up,
        "hints": solo.hints,
        "seconds": elapsed + solo.penalty,
        "complete": done,
        # endless runs: the player's rating and RD at the end, and the tasks rated
        "rating": None if rating is None else rating[0],
        "rd": None if rating is None else rating[1],
        "rated": solo.rated if s.endless else None,
    }


def _end_round(g: Game, at: float) -> None:
    r = g.round
    assert r is not None
    r.ended_at = at
    r.deadline = None
    g.phase = "waiting"
    s = g.settings
    if r.kind in ("playoff", "tie-round"):
        winners = r.finish_order[:1] or list(g.tied)
        for e in r.entries:
            if r.kind == "playoff":
                g.discard.append(e.card)
        ended = EventKind.PLAYOFF_ENDED if r.kind == "playoff" else EventKind.TIE_ROUND_ENDED
        event(g, ended, at, winner=r.finish_order[0] if r.finish_order else None)
        _game_over(g, at, winners)
        return
    scoring_policy(s.record).end_round(g, r, at)
    g.rounds_played += 1
    if g.rounds_played < _rounds(s):
        g.next_kind = "round"
        return
    scores = g.scores()
    best = max(scores.values())
    tied = [pid for pid in s.players if scores[pid] == best]
    if len(tied) == 1 or s.tie_break == "shared":
        _game_over(g, at, tied)
        return
    g.tied = tied
    if s.tie_break == "tie-round":
        cards = _tie_round_cards(g)
        if len(cards) < len(tied):
            event(
                g,
                EventKind.TIE,
                at,
                players=tied,
                scores=scores,
                resolved="shared (no cards to play)",
            )
            _game_over(g, at, tied)
            return
    g.next_kind = "playoff" if s.tie_break == "playoff" else "tie-round"
    event(g, EventKind.TIE, at, players=tied, scores=scores, next=g.next_kind)


def _game_over(g: Game, at: float, winners: Sequence[str]) -> None:
    g.phase = "over"
    g.winners = list(winners)
    event(g, EventKind.GAME_OVER, at, winners=list(winners), scores=g.scores())
