"""What the editions do differently, as small named policies chosen by the edition record.

An edition's record (:mod:`ubongo.editions`) names one policy of each kind as data; this module
maps each name to code, and the engine asks the policy instead of asking which edition it is:

=============  ==================================================================
record field   policies
=============  ==================================================================
deck.keys      ``die`` (a die roll chooses the task; the roller rotates),
               ``corner`` / ``card`` (the keys in order: Extreme's corners,
               Trigo's one task)
deal           ``shared-stack`` (Classic: the whole stack, reshuffled when empty),
               ``counted-stack`` (Extreme, Trigo: players x rounds cards, the rest
               to the box), ``own-stacks`` (3D: each player their own level)
timer          ``hourglass`` (with a second chance), ``countdown`` (after the
               first finish, per side)
scoring        ``gems`` (display and bag), ``cards`` (a won card is a point)
=============  ==================================================================

The helpers at the top (seeded draws, events, playable cards) are shared with the engine.
A new edition that differs in one of these ways adds one class here and its name to
:mod:`ubongo.editions.record`; a new kind of timer also says which times of the settings it
keeps (:data:`ubongo.rules.settings.TIMER_SETTINGS`: the settings are resolved before there is
a game, and this module, which works on games, imports them, not the other way round).
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from ubongo.editions import EditionRecord

from .errors import SettingsError
from .events import Event, EventKind
from .settings import Settings
from .state import Entry, Game, PlayerState, Round

# --- shared helpers --------------------------------------------------------------------------


def rng(game: Game, *what: object) -> random.Random:
    """The random generator for one draw: seeded by the game's seed and what is drawn."""
    return random.Random(":".join([game.seed, *(str(w) for w in what)]))


def shuffle(game: Game, items: list[int], *what: object) -> None:
    items.sort()
    rng(game, *what).shuffle(items)


def event(g: Game, event_kind: EventKind, at: float, /, **data: Any) -> None:
    """Report what happened: an :class:`Event` of ``event_kind`` at ``at`` with ``data``."""
    g.events.append(Event(event_kind, at, data))


def playable(game: Game, side: str) -> list[int]:
    """Numbers of the cards whose ``side`` has a task for every key the edition may choose."""
    return game.deck.playable(side, game.settings.record.deck.keys)


# --- how a task is chosen --------------------------------------------------------------------


class KeyChoice(Protocol):
    #: whether a player rolls a die for it (the roller rotates to the left every round)
    rolls: bool

    def key(self, g: Game, n: int, *draw: object) -> str:
        """The key of the ``n``-th board or card (from 0); ``draw`` names a die roll."""
        ...


class DieRoll:
    """The die chooses the task (Classic, 3D)."""

    rolls = True

    def key(self, g: Game, n: int, *draw: object) -> str:
        return rng(g, "die", *draw).choice(g.settings.record.deck.keys)


class Schedule:
    """The keys in order, one per round (Extreme: the corners; Trigo: the card's only task)."""

    rolls = False

    def key(self, g: Game, n: int, *draw: object) -> str:
        keys = g.settings.record.deck.keys
        return keys[n % len(keys)]


KEY_CHOICES: dict[str, KeyChoice] = {"die": DieRoll(), "corner": Schedule(), "card": Schedule()}


def key_choice(rec: EditionRecord) -> KeyChoice:
    return KEY_CHOICES[rec.deck.key_kind]


# --- how cards reach the players -------------------------------------------------------------


class SharedStack:
    """Everyone draws from one shuffled stack of the table's side; used cards go onto a discard
    pile, which is shuffled into a new stack when the stack runs out (Classic)."""

    def deal(self, game: Game, rounds: int) -> None:
        s = game.settings
        need = len(s.players) * rounds
        # players of different sides (an arena's harder side) draw cards with both sides
        sides = sorted({p.side for p in game.players})
        others = [set(playable(game, o)) for o in sides[1:]]
        pool = [n for n in playable(game, sides[0]) if all(n in o for o in others)]
        if len(pool) < need:
            raise SettingsError(
                f"{len(s.players)} players need {need} cards with a {' and '.join(sides)} side;"
                f" the deck has {len(pool)}"
            )
        shuffle(game, pool, "stack")
        self.keep(game, pool, need)

    def keep(self, game: Game, pool: list[int], need: int) -> None:
        game.stack = pool

    def solo(self, game: Game, pool: list[int]) -> None:
        game.stack = pool

    def draw(self, g: Game, p: PlayerState, why: tuple[object, ...], avoid: set[int]) -> int:
        if not g.stack:
            g.reshuffles += 1
            g.stack = [b for b in g.discard if b not in avoid]
            g.discard = [b for b in g.discard if b in avoid]
            shuffle(g, g.stack, "reshuffle", g.reshuffles)
            if not g.stack:
                raise SettingsError("no card left to draw")
        return g.stack.pop(0)

    def upcoming(self, g: Game) -> list[int]:
        # a round takes one card per player from the top (solo: one per task)
        return g.stack[: max(2, len(g.players))]


class CountedStack(SharedStack):
    """A shared stack of exactly players x rounds cards; the rest go back in the box at random
    (Extreme: 16/24/32 cards for 2/3/4 players; Trigo)."""

    def keep(self, game: Game, pool: list[int], need: int) -> None:
        game.stack, game.box = pool[:need], sorted(pool[need:])


class OwnStacks:
    """Each player plays boards of their own side (3D: level) from a stack of their own; when it
    is empty, an unused board of the level from the box, then a used one."""

    def deal(self, game: Game, rounds: int) -> None:
        """Each player gets ``rounds`` boards of their level; a board goes to one player only.

        Boards carry two levels, so this is a matching: slots (player, level) to boards, found
        with augmenting paths over boards in a seeded random order."""
        order = list(range(1, game.deck.size + 1))
        shuffle(game, order, "boards")
        levels_of = {n: game.deck.side_names(n) for n in order}
        usable = {lv: set(playable(game, lv)) for lv in {p.side for p in game.players}}
        slots = [p for p in game.players for _ in range(rounds)]
        owner: dict[int, int] = {}

        def place(slot: int, seen: set[int]) -> bool:
            level = slots[slot].side
            for b in order:
                if b in seen or b not in usable[level] or level not in levels_of[b]:
                    continue
                seen.add(b)
                if b not in owner or place(owner[b], seen):
                    owner[b] = slot
                    return True
            return False

        for i in range(len(slots)):
            if not place(i, set()):
                p = slots[i]
                raise SettingsError(
                    f"the deck has too few {p.side} boards to give everyone {rounds}"
                )
        position = {b: i for i, b in enumerate(order)}
        for p in game.players:
            p.stack = sorted(
                (b for b, slot in owner.items() if slots[slot] is p), key=position.__getitem__
            )
        game.box = sorted(b for b in order if b not in owner)

    def solo(self, game: Game, pool: list[int]) -> None:
        game.players[0].stack = pool

    def draw(self, g: Game, p: PlayerState, why: tuple[object, ...], avoid: set[int]) -> int:
        if p.stack:
            return p.stack.pop(0)
        usable = set(playable(g, p.side))
        for pile in (g.box, g.discard):
            choices = [b for b in pile if b in usable and b not in avoid]
            if choices:
                b = rng(g, "extra", *why, p.id).choice(sorted(choices))
                pile.remove(b)
                return b
        raise SettingsError(f"no {p.side} board left to draw")

    def upcoming(self, g: Game) -> list[int]:
        return [b for p in g.players for b in p.stack[:2]]


class Deal(Protocol):
    def deal(self, game: Game, rounds: int) -> None: ...
    def solo(self, game: Game, pool: list[int]) -> None: ...
    def draw(self, g: Game, p: PlayerState, why: tuple[object, ...], avoid: set[int]) -> int: ...
    def upcoming(self, g: Game) -> list[int]:
        """The cards the next draws will most likely take (a stack's top; not those a
        reshuffle or a playoff picks): what is worth making ahead for a fresh game."""
        ...


DEALS: dict[str, Deal] = {
    "shared-stack": SharedStack(),
    "counted-stack": CountedStack(),
    "own-stacks": OwnStacks(),
}


def deal_policy(rec: EditionRecord) -> Deal:
    return DEALS[rec.deal]


class PackDeal:
    """A pack's puzzles (``puzzles="pack"``), whatever the edition deals: round ``n`` gives
    puzzle ``n`` (card ``n`` of :func:`ubongo.puzzles.pack.pack_deck`) to every player, so
    friends race the same puzzle; a playoff gives each tied player another of the pack's
    puzzles while there are enough, else the first again."""

    def deal(self, game: Game, rounds: int) -> None:
        game.stack = list(range(1, rounds + 1))

    def solo(self, game: Game, pool: list[int]) -> None:  # (a pack is raced: settings say so)
        raise SettingsError("a pack is raced: its solo run is played on its page")

    def draw(self, g: Game, p: PlayerState, why: tuple[object, ...], avoid: set[int]) -> int:
        if why and why[0] == "round" and isinstance(why[1], int):
            return min(why[1], g.deck.size)
        left = [n for n in range(1, g.deck.size + 1) if n not in avoid]
        return left[0] if left else 1

    def upcoming(self, g: Game) -> list[int]:
        return []  # every card is made with the deck


PACK_DEAL = PackDeal()


def deal_for(settings: Settings) -> Deal:
    """How cards reach the players in a game of ``settings``: the edition's way, or a
    pack's (:class:`PackDeal`)."""
    return PACK_DEAL if settings.puzzles == "pack" else deal_policy(settings.record)


# --- what times a round ----------------------------------------------------------------------


class Hourglass:
    """The hourglass runs from the start; if it runs out and nobody has finished, it is turned
    once more (second chance) with the same task (Classic, 3D)."""

    def start(self, g: Game, r: Round, now: float) -> None:
        assert g.settings.hourglass is not None
        r.deadline = now + g.settings.hourglass
        r.hourglass_turns = 1

    def ran_out(self, g: Game, r: Round, at: float) -> bool:
        """Turn the hourglass again if this is the second chance; False: the round ends."""
        s = g.settings
        if r.finish_order or not s.second_chance or r.hourglass_turns != 1:
            return False
        assert s.hourglass is not None
        r.hourglass_turns = 2
        r.deadline = at + s.hourglass
        event(g, EventKind.SECOND_CHANCE, at, round=r.number, deadline=r.deadline)
        return True

    def first_finish(self, g: Game, r: Round, entry: Entry, now: float) -> None:
        return None

    def task_limit(self, s: Settings, side: str) -> float:
        """Endless solo: a task has one turn of the hourglass (no second chance)."""
        assert s.hourglass is not None
        return s.hourglass


class Countdown:
    """No clock until the first player finishes; then the others have the side's countdown
    (Extreme, Trigo: 20 s on the easy side, 30 s on the hard one)."""

    def start(self, g: Game, r: Round, now: float) -> None:
        limit = g.settings.round_limit
        r.deadline = None if limit is None else now + limit

    def ran_out(self, g: Game, r: Round, at: float) -> bool:
        return False

    def first_finish(self, g: Game, r: Round, entry: Entry, now: float) -> None:
        assert g.settings.countdown is not None
        r.deadline = now + g.settings.countdown
        event(g, EventKind.COUNTDOWN, now, player=entry.player, deadline=r.deadline)

    def task_limit(self, s: Settings, side: str) -> float:
        """Endless solo: nobody finishes first to start a countdown, so a task has three of
        the side's countdowns (20 s: a minute, as an hourglass; 30 s: 90 s, as 3D's)."""
        return ENDLESS_COUNTDOWNS * s.record.timer.countdown_for(side)


class TimerPolicy(Protocol):
    """What times a round in play (which of the settings' times a kind of timer keeps, and
    their defaults, is :data:`~.settings.TIMER_SETTINGS`)."""

    def start(self, g: Game, r: Round, now: float) -> None: ...
    def ran_out(self, g: Game, r: Round, at: float) -> bool: ...
    def first_finish(self, g: Game, r: Round, entry: Entry, now: float) -> None: ...
    def task_limit(self, s: Settings, side: str) -> float:
        """Seconds an endless run gives a task of ``side``."""
        ...


#: an endless run's task limit in an edition timed by a countdown, in countdowns
ENDLESS_COUNTDOWNS = 3

TIMERS: dict[str, TimerPolicy] = {"hourglass": Hourglass(), "countdown": Countdown()}


def timer_policy(rec: EditionRecord) -> TimerPolicy:
    return TIMERS[rec.timer.kind]


# --- what a round is worth -------------------------------------------------------------------


class Gems:
    """Gems from a display (one per place rewarded, per round) and a bag (Classic, 3D)."""

    def setup(self, game: Game, rounds: int, race: bool) -> None:
        """Every player starts with no gems; a race lays out ``rounds`` of each place's gem
        on the display and puts the rest in the bag."""
        scoring = game.settings.record.scoring
        for p in game.players:
            p.gems = {g.name: 0 for g in scoring.gems}
        if race:
            game.display = dict.fromkeys(scoring.place_gems, rounds)
            game.bag = {g.name: g.supply - game.display.get(g.name, 0) for g in scoring.gems}

    def end_round(self, g: Game, r: Round, at: float) -> None:
        """Each finisher in order: their place's display gem, if any, and a gem from the bag.
        Display gems of the round that nobody claimed go into the bag.  The boards are used."""
        place_gems = g.settings.record.scoring.place_gems
        rewards: dict[str, list[str]] = {}
        for place, pid in enumerate(r.finish_order, start=1):
            got = []
            if place <= len(place_gems):
                g.display[place_gems[place - 1]] -= 1
                got.append(place_gems[place - 1])
            got.append(_bag_draw(g, r.number, place))
            p = g.player(pid)
            for gem in got:
                p.gems[gem] += 1
            rewards[pid] = got
        returned = []
        for place, gem in enumerate(place_gems, start=1):
            if len(r.finish_order) < place:
                g.display[gem] -= 1
                g.bag[gem] += 1
                returned.append(gem)
        event(
            g,
            EventKind.GEMS,
            at,
            round=r.number,
            rewards=rewards,
            to_bag=returned,
            display=dict(g.display),
        )
        for e in r.entries:
            # Classic: onto the shared discard pile; 3D: back in the box (kept apart as used)
            g.discard.append(e.card)


def _bag_draw(g: Game, *what: object) -> str:
    names = [gem.name for gem in g.settings.record.scoring.gems]
    gems = [gem for gem in names for _ in range(g.bag.get(gem, 0))]
    assert gems, "the bag cannot run out: 40 gems start in it and at most 36 are drawn"
    gem = rng(g, "bag", *what).choice(gems)
    g.bag[gem] -= 1
    return gem


class Cards:
    """The card played is the prize (Extreme, Trigo)."""

    def setup(self, game: Game, rounds: int, race: bool) -> None:
        return None

    def end_round(self, g: Game, r: Round, at: float) -> None:
        """The first finisher keeps their card; others who finished in time keep theirs; the
        rest hand theirs to the first.  Only-first variant: only the first keeps a card."""
        s = g.settings
        first = r.finish_order[0] if r.finish_order else None
        only_first = s.variant == "only-first"
        kept: dict[str, int] = {}
        handed: dict[str, int] = {}
        discarded: dict[str, int] = {}
        order = sorted(r.entries, key=lambda e: (e.player != first, s.players.index(e.player)))
        for e in order:
            if e.player == first or (e.finished_at is not None and not only_first):
                g.player(e.player).cards.append(e.card)
                kept[e.player] = e.card
            elif first is not None and (not only_first or s.others_cards == "to-first"):
                g.player(first).cards.append(e.card)
                handed[e.player] = e.card
            else:
                g.discard.append(e.card)
                discarded[e.player] = e.card
        event(
            g,
            EventKind.CARDS,
            at,
            round=r.number,
            first=first,
            kept=kept,
            handed=handed,
            discarded=discarded,
        )


class Scoring(Protocol):
    def setup(self, game: Game, rounds: int, race: bool) -> None: ...
    def end_round(self, g: Game, r: Round, at: float) -> None: ...


SCORINGS: dict[str, Scoring] = {"gems": Gems(), "cards": Cards()}


def scoring_policy(rec: EditionRecord) -> Scoring:
    return SCORINGS[rec.scoring.kind]
