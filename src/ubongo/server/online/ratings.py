"""Ratings of rated games: OpenSkill's Plackett-Luce model, one rating per edition.

A rated game (a quick match, or a private room whose host asked for it; never solo) moves the
rating of every account that played it and of every bot level in it: the bots are rated
players too, so a new player's rating is anchored to theirs (``docs/online-ratings.md``).

A rating is ``mu`` (the skill estimate) and ``sigma`` (its uncertainty), from OpenSkill's
defaults (25, 25/3). What players see is the conservative ``mu - 3 sigma``, scaled:
``display = round(1000 + 40 * (mu - 3 sigma))``, so a new account shows 1000, and marked
provisional for its first :data:`PROVISIONAL_GAMES` games.

>>> display(25.0, 25 / 3)
1000
>>> places({"0": 12, "1": 20, "2": 12}, ["1"])
{'0': 2, '1': 1, '2': 2}
>>> new = update([(Subject.of_bot("easy"), Rating()), (Subject.of_account(7), Rating())],
...     [2, 1])
>>> new["account:7"].mu > 25 > new["bot:easy"].mu
True

A rated game's ratings change in the transaction that stores it: the store calls
:func:`rate_game` with the rating rows of that transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from ..store import GameRecord, RatedAccount, RatingRows, SkillRating, StoredGame

#: display = BASE + SCALE * (mu - 3 sigma)
BASE = 1000
SCALE = 40
#: an account's rating is provisional for its first games
PROVISIONAL_GAMES = 10
#: games an account needs to appear on the leaderboard
LEADERBOARD_GAMES = 5

_MODEL = PlackettLuce()
MU: float = float(_MODEL.mu)
SIGMA: float = float(_MODEL.sigma)


def display(mu: float, sigma: float) -> int:
    """The rating players see: conservative (``mu - 3 sigma``) and scaled."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class Rating:
    """One subject's rating in one edition."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @staticmethod
    def of(stored: SkillRating | None) -> Rating:
        """A stored rating (a new one for a subject that has played no rated game)."""
        return Rating() if stored is None else Rating(stored.mu, stored.sigma, stored.games)

    @property
    def display(self) -> int:
        return display(self.mu, self.sigma)

    def to_json(self, bot: bool = False) -> dict[str, float | int | bool]:
        return {
            "rating": self.display,
            "mu": self.mu,
            "sigma": self.sigma,
            "games": self.games,
            "provisional": not bot and provisional(self.games),
        }


@dataclass(frozen=True)
class Subject:
    """Who a rating belongs to: an account, or a bot level (``key``: ``account:7``,
    ``bot:hard``; ``account``: the account id, ``None`` for a bot)."""

    key: str
    account: int | None = None

    @staticmethod
    def of_account(account: int) -> Subject:
        return Subject(f"account:{account}", account)

    @staticmethod
    def of_bot(level: str) -> Subject:
        return Subject(f"bot:{level}")


def places(scores: Mapping[str, int | None], winners: Sequence[str]) -> dict[str, int]:
    """Each player's place (1 = best) in a finished game: the winners first, then by score;
    equal players share a place (ties as ties)."""
    keys = {p: (p in winners, s or 0) for p, s in scores.items()}
    return {p: 1 + sum(1 for other in keys.values() if other > k) for p, k in keys.items()}


def update(
    players: Sequence[tuple[Subject, Rating]], seat_places: Sequence[int]
) -> dict[str, Rating]:
    """The new ratings after a game, by subject key: ``players`` are the seats with their
    ratings before, ``seat_places[i]`` the place of ``players[i]``.

    A subject seated more than once (two bots of one level) gets the mean of its seats'
    changes, and counts one game."""
    if len(players) < 2:
        return {s.key: r for s, r in players}
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for _, r in players]
    rated = _MODEL.rate(teams, ranks=[float(p) for p in seat_places])
    changes: dict[str, list[tuple[float, float]]] = {}
    before: dict[str, Rating] = {}
    for (subject, old), team in zip(players, rated, strict=True):
        changes.setdefault(subject.key, []).append((team[0].mu - old.mu, team[0].sigma))
        before[subject.key] = old
    out: dict[str, Rating] = {}
    for key, seen in changes.items():
        old = before[key]
        mu = old.mu + sum(d for d, _ in seen) / len(seen)
        sigma = sum(s for _, s in seen) / len(seen)
        out[key] = Rating(mu, sigma, old.games + 1)
    return out


def _seats(game: GameRecord | StoredGame, place: Mapping[str, int]) -> list[tuple[Subject, str]]:
    """The rated subject of each placed seat, with its player id: its account, its bot
    level, or for a person without an account a guest whose rating is not kept."""
    seats: list[tuple[Subject, str]] = []
    for p in game.players:
        player = str(p["seat"])
        if player not in place:
            continue
        if p.get("account") is not None:
            seats.append((Subject.of_account(int(p["account"])), player))
        elif p.get("kind") == "bot" and p.get("level"):
            seats.append((Subject.of_bot(str(p["level"])), player))
        else:
            seats.append((Subject(f"guest:{player}"), player))
    return seats


def _ranking(result: Mapping[str, Any]) -> dict[str, int]:
    """Each player's place in a stored result; a seat whose person left is placed last,
    after everyone who stayed, whatever the bot that took over did."""
    scores = {str(k): v for k, v in result.get("scores", {}).items()}
    place = places(scores, [str(w) for w in result.get("winners", [])])
    for seat in result.get("left", []):
        place[str(seat)] = len(scores) + 1
    return place


def rate_game(game: GameRecord, rows: RatingRows) -> None:
    """Update the ratings of a rated game's accounts and bot levels from its final ranking,
    and note each account's change. A seat whose person left is placed last, the seats the
    result calls ``unrated`` are left out (:mod:`.fairplay`; a held seat among them, until it
    is cleared: :func:`rate_cleared`), and a person without an account plays with a new
    rating that is not kept. ``rows``: the rating rows of the transaction that stores the
    game, so that a game is stored with its ratings or not at all."""
    place = _ranking(game.result)
    unrated = {str(p) for p in game.result.get("unrated", {})}
    seats = [(subject, player) for subject, player in _seats(game, place) if player not in unrated]
    _rate(seats, place, rows, lambda _subject: True)


def rate_cleared(game: StoredGame, seat: int, rows: RatingRows) -> None:
    """A held seat of a rated game cleared by a moderator: its rating moves now, as if it
    had played the game against its opponents' ratings of today (theirs moved when the game
    was stored, and do not move again)."""
    place = _ranking(game.result)
    unrated = {str(p) for p, why in game.result.get("unrated", {}).items() if why != "held"}
    seats = [(subject, player) for subject, player in _seats(game, place) if player not in unrated]
    _rate(seats, place, rows, lambda subject: subject.key == f"account:{_account(game, seat)}")


def _account(game: StoredGame, seat: int) -> int | None:
    return next((p.get("account") for p in game.players if p["seat"] == seat), None)


def _rate(
    seats: Sequence[tuple[Subject, str]],
    place: Mapping[str, int],
    rows: RatingRows,
    moves: Callable[[Subject], bool],
) -> None:
    """Rate ``seats`` by their places; store the new ratings of the subjects that ``moves``
    and note each account's change."""
    if len(seats) < 2:
        return
    stored = rows.locked({subject.key for subject, _ in seats})
    before = {key: Rating.of(found) for key, found in stored.items()}
    new = update(
        [(subject, before.get(subject.key, Rating())) for subject, _ in seats],
        [place[player] for _, player in seats],
    )
    for subject, _ in seats:
        if subject.key not in new or subject.key.startswith("guest:") or not moves(subject):
            continue
        rating = new.pop(subject.key)
        rows.put(SkillRating(subject.key, rating.mu, rating.sigma, rating.games, subject.account))
        if subject.account is not None:
            old = before.get(subject.key, Rating())
            rows.changed(subject.account, old.display, rating.display)


def give_back(rows: RatingRows, account: int, points: int) -> None:
    """Give an account back ``points`` of shown rating it lost to a cheater (its uncertainty
    unchanged), and note the change."""
    key = Subject.of_account(account).key
    found = rows.locked({key}).get(key)
    if found is None:
        return
    old = Rating.of(found)
    mu = old.mu + points / SCALE
    rows.put(SkillRating(key, mu, old.sigma, old.games, account))
    rows.changed(account, old.display, display(mu, old.sigma))


def ranked(accounts: Sequence[RatedAccount], limit: int) -> list[RatedAccount]:
    """The first ``limit`` accounts of a leaderboard: the best shown rating first (equal ones
    in the order of their subjects)."""
    best = sorted(accounts, key=lambda a: (-display(a.rating.mu, a.rating.sigma), a.rating.subject))
    return best[:limit]
