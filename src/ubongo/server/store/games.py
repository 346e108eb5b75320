"""Finished games: every one is stored, enough to replay it (settings, seed, action log) and
its result, with a row for each seat played with an account (the profiles' games).

A rated game changes its players' ratings in the same transaction (a game is stored with its
rating changes or not at all); how they change is not the store's business: the caller
gives the arithmetic (:data:`RateGame`, :func:`ubongo.server.online.ratings.rate_game`),
which reads and writes the rating rows through :class:`.ratings.RatingRows`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from .database import Database
from .ratings import RatingRows
from .tables import GameAccountRow, GameRow, HeldResultRow, table_of, to_datetime, to_epoch

#: a finished game's rows, inserted with SQL statements (:func:`add_game`)
_GAMES, _GAME_ACCOUNTS = table_of(GameRow), table_of(GameAccountRow)


@dataclass(frozen=True)
class Held:
    """A result to hold, stored with its game: the seat's account, the kind of result
    (``race``, ``solo``, ``daily``), its plausibility score and the signs seen."""

    account: int
    seat: int
    kind: str
    score: float
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class GameRecord:
    """A finished game to store."""

    room: str
    edition: str
    mode: str
    variant: str
    settings: dict[str, Any]
    seed: int
    events: list[Any]
    result: dict[str, Any]
    #: each seat: ``seat``, ``name``, ``kind``, ``level`` and ``account`` (if it had one)
    players: list[dict[str, Any]]
    started_at: float
    finished_at: float
    #: a rated game: its players' ratings change when it is stored (:data:`RateGame`)
    rated: bool = False
    #: results held for review (docs/fair-play.md), stored with the game
    held: tuple[Held, ...] = ()


#: how a rated game changes its players' ratings, inside the transaction that stores it
RateGame = Callable[[GameRecord, RatingRows], None]


@dataclass(frozen=True)
class StoredGame:
    """A stored game as it was stored, with its id; times in seconds since the epoch."""

    id: int
    room: str
    edition: str
    mode: str
    variant: str
    settings: dict[str, Any]
    seed: int
    #: the rules' actions, in order
    events: list[Any]
    result: dict[str, Any]
    players: list[dict[str, Any]]
    started_at: float
    finished_at: float

    @property
    def winners(self) -> list[int]:
        """The winning seats (none in a game stored without them)."""
        found: list[int] = self.result.get("winners", [])
        return found

    @staticmethod
    def of_row(row: GameRow) -> StoredGame:
        return StoredGame(
            id=row.id,
            room=row.room,
            edition=row.edition,
            mode=row.mode,
            variant=row.variant,
            settings=row.settings,
            seed=row.seed,
            events=row.events,
            result=row.result,
            players=row.players,
            started_at=to_epoch(row.started_at),
            finished_at=to_epoch(row.finished_at),
        )


@dataclass(frozen=True)
class RatedSeat:
    """An account's seat in a stored rated race: the game, when it finished, and whether its
    person left it (a bot played it out: ``left`` in the result)."""

    game_id: int
    finished_at: float
    left: bool


def add_game(session: Session, game: GameRecord, rate: RateGame | None = None) -> int:
    """Add the game's row, a row for each seat played with an account and, if the game is
    rated, its rating changes (``rate``, which a rated game needs) to ``session``'s
    transaction; the game's id."""
    if game.rated and rate is None:
        raise ValueError("a rated game is stored with the rating arithmetic (rate)")
    if game.rated:
        unrated = {str(p) for p in game.result.get("unrated", {})}
        rated = [
            p["account"] for p in game.players if p.get("account") and str(p["seat"]) not in unrated
        ]
        game = held_too(game, under_review(session, rated), "race")
    # SQL statements rather than the ORM's objects, which took a third of this write's CPU
    # (every room's verdicts wait for the lock the database threads hold while it runs)
    connection = session.connection()
    game_id: int = connection.execute(
        insert(_GAMES).returning(_GAMES.c.id),
        {
            "room": game.room,
            "edition": game.edition,
            "mode": game.mode,
            "variant": game.variant,
            "settings": game.settings,
            "seed": game.seed,
            "events": game.events,
            "result": game.result,
            "players": game.players,
            "started_at": to_datetime(game.started_at),
            "finished_at": to_datetime(game.finished_at),
        },
    ).scalar_one()
    seats = [
        {"game_id": game_id, "seat": p["seat"], "account_id": p["account"]}
        for p in game.players
        if p.get("account") is not None
    ]
    if seats:
        connection.execute(insert(_GAME_ACCOUNTS), seats)
    for held in game.held:
        add_held(session, game_id, held, game.finished_at)
    if game.rated and rate is not None:
        rate(game, RatingRows(session, game_id, game.edition, game.finished_at))
    return game_id


#: why a result is held that was judged plausible: its account is under review as a whole
UNDER_REVIEW = "the account has results waiting for review"


def under_review(session: Session, accounts: Iterable[int]) -> set[int]:
    """Of ``accounts``, those with results held and not reviewed yet: an account is reviewed
    as a whole, so each new result of it is held too until then (docs/fair-play.md)."""
    wanted = sorted(set(accounts))
    if not wanted:
        return set()
    return set(
        session.scalars(
            select(HeldResultRow.account_id)
            .where(HeldResultRow.account_id.in_(wanted), HeldResultRow.status == "held")
            .distinct()
        )
    )


def held_too(game: GameRecord, accounts: set[int], kind: str) -> GameRecord:
    """The game with the results of the seats of ``accounts`` held as well (not held already;
    a race's seat is then unrated ``held``)."""
    held_seats = {h.seat for h in game.held}
    seats = [
        p["seat"]
        for p in game.players
        if p.get("account") in accounts and p["seat"] not in held_seats
    ]
    if not seats:
        return game
    extra = tuple(
        Held(int(p["account"]), p["seat"], kind, 0.0, (UNDER_REVIEW,))
        for p in game.players
        if p["seat"] in seats
    )
    result = game.result
    if kind == "race":
        unrated = {**result.get("unrated", {}), **{str(seat): "held" for seat in seats}}
        result = {**result, "unrated": unrated}
    return replace(game, held=game.held + extra, result=result)


def add_held(session: Session, game_id: int, held: Held, at: float) -> None:
    """Hold a result of the game ``game_id`` for review."""
    session.add(
        HeldResultRow(
            game_id=game_id,
            account_id=held.account,
            seat=held.seat,
            kind=held.kind,
            score=held.score,
            reasons=list(held.reasons),
            status="held",
            held_at=to_datetime(at),
        )
    )


class GameRepository:
    """The stored games: storing one, reading one or the latest."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def save(self, game: GameRecord, rate: RateGame | None = None) -> int:
        """Store a finished game (a rated one with its rating changes: ``rate``); its id."""
        with self.database.write("game") as s:
            return add_game(s, game, rate)

    def get(self, game_id: int) -> StoredGame | None:
        """The game with this id, if there is one."""
        with self.database.session() as s:
            row = s.get(GameRow, game_id)
            return None if row is None else StoredGame.of_row(row)

    def rated_seats(self, account: int, since: float) -> list[RatedSeat]:
        """The account's seats in rated races finished since ``since``, newest first (what
        the playban counts). A rated race is known by its result's ``left``, which only
        rated races have; only that part of the result is read, not its events."""
        left = GameRow.result["left"]
        with self.database.session() as s:
            rows = s.execute(
                select(GameRow.id, GameRow.finished_at, GameAccountRow.seat, left)
                .join(GameAccountRow, GameAccountRow.game_id == GameRow.id)
                .where(
                    GameAccountRow.account_id == account,
                    GameRow.finished_at >= to_datetime(since),
                )
                .order_by(GameRow.finished_at.desc(), GameRow.id.desc())
            ).all()
            return [
                RatedSeat(game_id, to_epoch(at), seat in gone)
                for game_id, at, seat, gone in rows
                if isinstance(gone, list)
            ]

    def latest(self, limit: int = 20) -> list[StoredGame]:
        """The latest stored games, newest first."""
        with self.database.session() as s:
            rows = s.scalars(select(GameRow).order_by(GameRow.id.desc()).limit(limit))
            return [StoredGame.of_row(r) for r in rows]
