"""Ratings of players and tasks: Glicko-2, with the task as the player's opponent.

The rating system is Glicko-2 as Mark Glickman describes it in "Example of the Glicko-2
system" (Boston University, 2013; http://www.glicko.net/glicko/glicko2.pdf): a rating
``r``, a rating deviation ``RD`` (how unsure the rating is) and a volatility ``sigma`` (how
erratic the player is), updated once per *rating period* from the games played in it. The
steps below follow the paper's numbering; the code is our own.

In the endless solo mode (``docs/ratings.md``) a task is an opponent: solving it in time is a
win for the player (score 1), running out of time or putting it aside a loss (score 0), and
the task gets the opposite result. A task's first rating comes from the difficulty model
(:mod:`.difficulty`, expected seconds for a median player) and the task's time limit
(:func:`seconds_rating`); a median player is rated 1500.

>>> player = Rating(1500.0, 200.0, 0.06)
>>> games = [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0),
...          (Rating(1700.0, 300.0), 0.0)]
>>> new = update(player, games)
>>> round(new.rating, 1), round(new.rd, 2), round(new.volatility, 6)
(1464.1, 151.52, 0.059996)
>>> round(expected_score(Rating(1500.0, 50.0), Rating(1500.0, 50.0)), 3)
0.5
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ubongo.board import Area
from ubongo.geometry import Cell, Lattice
from ubongo.pieces import Piece
from ubongo.puzzles.shapes import canonical

#: the Glicko-2 scale factor between the Glicko scale (r, RD) and the internal one (mu, phi)
SCALE = 173.7178
#: the rating, deviation and volatility of a player nobody knows yet (the paper's suggestion)
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
#: the system constant tau: how much the volatility may change in one period (the paper
#: suggests 0.3 to 1.2; its example uses 0.5)
TAU = 0.5
#: convergence tolerance of the volatility iteration (the paper's epsilon)
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the usual (Glicko) scale: ``rating`` ~1500, ``rd`` up to 350."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def mu(self) -> float:
        """Step 2: the rating on the Glicko-2 scale."""
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        """Step 2: the deviation on the Glicko-2 scale."""
        return self.rd / SCALE

    def as_tuple(self) -> tuple[float, float, float]:
        """(rating, RD, volatility): how a game's state and events keep a rating."""
        return (self.rating, self.rd, self.volatility)


def _g(phi: float) -> float:
    """Step 3's g: how much an opponent's uncertainty flattens the expected score."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    """Step 3's E: the expected score against opponent ``j``."""
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent`` (0..1), as Glicko-2's
    step 3 computes it: the opponent's deviation pulls it towards 0.5.

    >>> round(expected_score(Rating(1700.0, 60.0), Rating(1500.0, 60.0)), 3)
    0.756
    """
    return _e(player.mu, opponent.mu, opponent.phi)


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the paper's Illinois-algorithm iteration."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        d = phi * phi + v + ex
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    player: Rating,
    games: Iterable[tuple[Rating, float]],
    *,
    tau: float = TAU,
    rd_bounds: tuple[float, float] = (0.0, math.inf),
) -> Rating:
    """``player``'s rating after one rating period with ``games`` (opponent, score 0..1),
    every opponent rated as at the period's start (Glicko-2, steps 2-8).

    No games: only the deviation grows (step 6). ``rd_bounds`` clamps the new deviation (the
    paper has none; endless play keeps it between 45 and 350, ``docs/ratings.md``).

    >>> update(Rating(1500.0, 200.0, 0.06), []).rd > 200.0
    True
    """
    games = list(games)
    mu, phi, sigma = player.mu, player.phi, player.volatility
    lo, hi = rd_bounds
    if not games:
        rd = math.sqrt(phi * phi + sigma * sigma) * SCALE
        return Rating(player.rating, min(max(rd, lo), hi), sigma)
    for _, score in games:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is between 0 and 1, not {score}")
    # step 3: the estimated variance of the rating from the game outcomes alone
    v_inv = 0.0
    gain = 0.0
    for opp, score in games:
        g = _g(opp.phi)
        e = _e(mu, opp.mu, opp.phi)
        v_inv += g * g * e * (1.0 - e)
        gain += g * (score - e)
    v = 1.0 / v_inv
    # step 4: the estimated improvement
    delta = v * gain
    # steps 5-7
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * gain
    # step 8: back to the Glicko scale
    rd = min(max(phi_new * SCALE, lo), hi)
    return Rating(mu_new * SCALE + DEFAULT_RATING, rd, sigma_new)


# --- tasks as opponents ----------------------------------------------------------------------

#: the spread of solve times around the model's expected seconds (log-normal sigma; the bots'
#: spread, ``docs/rules.md``, "Simulated players")
TIME_SPREAD = 0.45
#: a logistic curve with slope 1.702/s is within 0.01 of the normal one with deviation s
_LOGISTIC = 1.702
#: the deviation of a task's first rating: the model is a model, play will correct it
TASK_RD = 250.0


def seconds_rating(seconds: float, limit: float) -> float:
    """The rating of a task that a median player (1500) solves in ``seconds`` on average,
    with ``limit`` seconds to do it.

    If solve times spread log-normally around ``seconds`` (:data:`TIME_SPREAD`), the median
    player finishes in time with probability ``Phi(ln(limit/seconds) / spread)``; this is the
    rating that gives the same expected score under the logistic curve of Elo and Glicko
    (``docs/ratings.md``). A task that takes as long as its limit is rated 1500; each halving
    of the time takes ~450 points off.

    >>> seconds_rating(60.0, 60.0)
    1500.0
    >>> seconds_rating(20.0, 60.0) < seconds_rating(40.0, 60.0) < 1500.0
    True
    """
    if seconds <= 0 or limit <= 0:
        raise ValueError("seconds and limit are positive")
    slope = _LOGISTIC / TIME_SPREAD
    return DEFAULT_RATING + 400.0 * slope * math.log10(seconds / limit)


def limit_shift(base: float, limit: float) -> float:
    """How much harder (in rating points) the same task is with ``limit`` seconds instead of
    ``base``: ``seconds_rating(s, limit) - seconds_rating(s, base)`` for every ``s``.

    >>> round(limit_shift(60.0, 30.0))
    455
    """
    return seconds_rating(base, limit) - DEFAULT_RATING


def task_rating(seconds: float, limit: float) -> Rating:
    """A task's first rating: from the model (:func:`seconds_rating`), unsure (:data:`TASK_RD`)."""
    return Rating(seconds_rating(seconds, limit), TASK_RD, DEFAULT_VOLATILITY)


def closest(player: Rating, tasks: Sequence[Rating], target: float) -> int:
    """The index of the task against which ``player``'s expected score is nearest ``target``
    (the first of equals).

    >>> me = Rating(1600.0, 100.0)
    >>> closest(me, [Rating(1000.0, 250.0), Rating(1450.0, 250.0), Rating(1900.0, 250.0)], 0.7)
    1
    """
    if not tasks:
        raise ValueError("no task to choose from")
    gaps = [abs(expected_score(player, t) - target) for t in tasks]
    return gaps.index(min(gaps))


def task_fingerprint(edition: str, area: Area, pieces: Iterable[str]) -> str:
    """What identifies a task wherever it was made: the edition, the area up to moving, turning
    and flipping it (as its lattice allows), and the pieces (a multiset): 32 hex digits.

    >>> a = Area.from_rows(["##.", "###"])
    >>> b = Area.from_rows(["###", ".##"])
    >>> task_fingerprint("classic", a, "BA") == task_fingerprint("classic", b, "AB")
    True
    >>> task_fingerprint("classic", a, "AB") == task_fingerprint("classic", a, "AC")
    False
    """
    lat = area.lattice
    regions = sorted(lat.canonical(r) for r in area.regions)
    text = repr((edition, area.layers, regions, sorted(pieces)))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def shape_fingerprint(area: Area, pieces: Iterable[Piece]) -> str:
    """What identifies a task by its shapes alone, whatever its pieces are called: the
    lattice, the area and each piece up to moving, turning and flipping (all of the lattice's
    transforms, mirror images included). A task asked about as a custom puzzle, with the
    edition's pieces given as cells under other names, has the fingerprint of the task itself
    (the hint route refuses the tasks in rated play by it: docs/fair-play.md).

    >>> from ubongo.pieces import edition
    >>> classic = edition("classic")
    >>> a, b = Area.from_rows(["##.", "###"]), Area.from_rows(["###", ".##"])
    >>> renamed = Piece("x", classic.piece("A").cells, classic.piece("A").lattice)
    >>> shape_fingerprint(a, [classic.piece("A"), classic.piece("B")]) == shape_fingerprint(
    ...     b, [classic.piece("B"), renamed]
    ... )
    True
    >>> shape_fingerprint(a, [classic.piece("A")]) == shape_fingerprint(a, [classic.piece("C")])
    False
    """
    lat = area.lattice
    # the card maker's canonical forms (the same as the lattice's, made faster): every task
    # dealt is fingerprinted on the server's loop as its round starts (7 ms a game before)
    regions = sorted(canonical(lat, r) for r in area.regions)
    shapes = sorted(_piece_shape(pc.lattice, pc.cells) for pc in pieces)
    text = repr((lat.name, area.layers, regions, shapes))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@lru_cache(maxsize=1024)
def _piece_shape(lat: Lattice, cells: frozenset[Cell]) -> tuple[Cell, ...]:
    """A piece's canonical form, kept: an edition's pieces are few and asked about often."""
    return canonical(lat, cells)
