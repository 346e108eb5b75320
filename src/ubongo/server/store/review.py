"""Review by a moderator (docs/fair-play.md): the held results and the decisions on them, each
logged with what it changed.

A held result is added with its game (:func:`.games.add_game`, from :attr:`GameRecord.held`).
A moderator then *clears* it (it counts: the held seat's rating moves, the run is ranked) or
*marks* its account a cheater (every result of the account leaves the leaderboards, its rated
games are voided and its opponents' rating losses in them are given back). The arithmetic of
ratings is the caller's, as for storing games (:data:`RerateSeat`, :data:`GiveBack`).

>>> import tempfile, os
>>> from ubongo.server.store.database import Database
>>> from ubongo.server.store.accounts import AccountRepository
>>> db = Database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> db.migrate()
>>> ada = AccountRepository(db).create("Ada", "ab" * 32, at=1.0)
>>> review = ReviewRepository(db)
>>> review.held()
[]
>>> review.mark(ada, "mod", "a script", at=2.0, give_back=lambda rows, account, points: None)
{'marked': 1, 'held': [], 'records': 0, 'daily': 0, 'arenas': 0, 'games': [], 'given_back': []}
>>> [(d.decision, d.moderator, d.account) for d in review.decisions()]
[('mark', 'mod', 1)]
>>> db.close()
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, select, update
from sqlalchemy.orm import Session

from .arenas import remove_from_arenas
from .database import Database
from .games import StoredGame
from .ratings import RatingRows
from .tables import (
    AccountRow,
    DailyResultRow,
    GameRow,
    HeldResultRow,
    RatingHistoryRow,
    ReviewDecisionRow,
    SoloRecordRow,
    to_datetime,
    to_epoch,
)

#: a daily run held for review: not on the leaderboard until cleared
HELD = "held for review"
#: a daily run of an account marked a cheater
MARKED = "the account was marked a cheater"


@dataclass(frozen=True)
class HeldResult:
    """A held result as stored, with its account's name now."""

    id: int
    game_id: int
    account: int
    name: str
    seat: int
    kind: str
    score: float
    reasons: list[str]
    status: str
    held_at: float


@dataclass(frozen=True)
class Decision:
    """A moderator's logged decision."""

    id: int
    at: float
    moderator: str
    decision: str
    account: int
    held: int | None
    note: str
    changes: dict[str, Any]


#: rate a cleared race's held seat (game, seat) now, inside the clearing transaction
RerateSeat = Callable[[StoredGame, int, RatingRows], None]
#: give ``points`` of shown rating back to ``account`` in the rows' edition
GiveBack = Callable[[RatingRows, int, int], None]


def _held_query() -> Select[HeldResultRow, str]:
    """Held results with their account's name now."""
    return select(HeldResultRow, AccountRow.name).join(
        AccountRow, HeldResultRow.account_id == AccountRow.id
    )


def _held_of(row: HeldResultRow, name: str) -> HeldResult:
    return HeldResult(
        row.id,
        row.game_id,
        row.account_id,
        name,
        row.seat,
        row.kind,
        row.score,
        list(row.reasons),
        row.status,
        to_epoch(row.held_at),
    )


class ReviewRepository:
    """The held results and the moderators' decisions."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def held(self, status: str | None = "held", account: int | None = None) -> list[HeldResult]:
        """Held results (``status``: ``held``, ``cleared``, ``marked``, ``None``: all), oldest
        first, of one ``account`` or all."""
        query = _held_query()
        if status is not None:
            query = query.where(HeldResultRow.status == status)
        if account is not None:
            query = query.where(HeldResultRow.account_id == account)
        with self.database.session() as s:
            return [_held_of(r, n) for r, n in s.execute(query.order_by(HeldResultRow.id))]

    def get(self, held_id: int) -> HeldResult | None:
        """One held result, whatever its status."""
        with self.database.session() as s:
            found = s.execute(_held_query().where(HeldResultRow.id == held_id)).first()
            return None if found is None else _held_of(found[0], found[1])

    def clear(
        self, held_id: int, moderator: str, note: str, at: float, rerate: RerateSeat
    ) -> dict[str, Any] | None:
        """The held result counts after all: the race seat is rated now (``rerate``), the
        solo run ranked, the daily run rated. What changed, or ``None`` if there is no such
        held result still held."""
        with self.database.write("review_clear") as s:
            row = s.get(HeldResultRow, held_id)
            if row is None or row.status != "held":
                return None
            row.status = "cleared"
            game = s.get(GameRow, row.game_id)
            assert game is not None
            changes: dict[str, Any] = {"held": held_id, "kind": row.kind, "game": row.game_id}
            if row.kind == "race":
                rerate(StoredGame.of_row(game), row.seat, RatingRows(s, game.id, game.edition, at))
            elif row.kind == "solo":
                s.execute(
                    update(SoloRecordRow)
                    .where(SoloRecordRow.game_id == game.id)
                    .values(plausible=True)
                )
            else:
                s.execute(
                    update(DailyResultRow)
                    .where(DailyResultRow.game_id == game.id)
                    .values(rated=True, unrated=None)
                )
            log_decision(s, at, moderator, "clear", row.account_id, held_id, note, changes)
            return changes

    def mark(
        self, account: int, moderator: str, note: str, at: float, give_back: GiveBack
    ) -> dict[str, Any] | None:
        """The account is a cheater: its held results stay out, its solo runs and daily
        runs leave the leaderboards and it leaves every arena's standings, its rated games are
        voided and each opponent's rating
        loss in them is given back (``give_back``). What changed, or ``None`` if there is no
        such account."""
        with self.database.write("review_mark") as s:
            row = s.get(AccountRow, account)
            if row is None:
                return None
            row.marked_at = to_datetime(at)
            held = s.scalars(
                select(HeldResultRow).where(
                    HeldResultRow.account_id == account, HeldResultRow.status == "held"
                )
            ).all()
            for h in held:
                h.status = "marked"
            records = s.scalars(
                select(SoloRecordRow).where(
                    SoloRecordRow.account_id == account, SoloRecordRow.plausible.is_(True)
                )
            ).all()
            for r in records:
                r.plausible = False
            daily = s.scalars(
                select(DailyResultRow).where(
                    DailyResultRow.account == account, DailyResultRow.rated.is_(True)
                )
            ).all()
            for d in daily:
                d.rated, d.unrated = False, MARKED
            games, given = _give_back(s, account, at, give_back)
            changes: dict[str, Any] = {
                "marked": account,
                "held": [h.id for h in held],
                "records": len(records),
                "daily": len(daily),
                "arenas": remove_from_arenas(s, account),
                "games": games,
                "given_back": given,
            }
            log_decision(s, at, moderator, "mark", account, None, note, changes)
            return changes

    def decisions(self, account: int | None = None) -> list[Decision]:
        """The decisions, oldest first (of one ``account``, or all)."""
        query = select(ReviewDecisionRow).order_by(ReviewDecisionRow.id)
        if account is not None:
            query = query.where(ReviewDecisionRow.account_id == account)
        with self.database.session() as s:
            return [
                Decision(
                    r.id,
                    to_epoch(r.at),
                    r.moderator,
                    r.decision,
                    r.account_id,
                    r.held_id,
                    r.note,
                    dict(r.changes),
                )
                for r in s.scalars(query)
            ]


def _give_back(
    s: Session, account: int, at: float, give_back: GiveBack
) -> tuple[list[int], list[dict[str, Any]]]:
    """Void the account's rated games: give each opponent back what it lost in them. The
    voided games' ids, and what was given back to whom."""
    mine = s.scalars(select(RatingHistoryRow).where(RatingHistoryRow.account_id == account)).all()
    games = sorted({h.game_id for h in mine})
    given: list[dict[str, Any]] = []
    for game_id in games:
        lost = s.scalars(
            select(RatingHistoryRow).where(
                RatingHistoryRow.game_id == game_id,
                RatingHistoryRow.account_id != account,
                RatingHistoryRow.after < RatingHistoryRow.before,
            )
        ).all()
        for h in lost:
            points = h.before - h.after
            give_back(RatingRows(s, game_id, h.edition, at), h.account_id, points)
            given.append({"game": game_id, "account": h.account_id, "points": points})
    return games, given


def log_decision(
    s: Session,
    at: float,
    moderator: str,
    decision: str,
    account: int,
    held: int | None,
    note: str,
    changes: dict[str, Any],
) -> None:
    """Log a moderator's decision in ``s``'s transaction (``ubongo review log``): what was
    decided (``clear``, ``mark``, ``hide``), on whose account, and what it changed."""
    s.add(
        ReviewDecisionRow(
            at=to_datetime(at),
            moderator=moderator[:64],
            decision=decision,
            account_id=account,
            held_id=held,
            note=note[:500],
            changes=changes,
        )
    )
