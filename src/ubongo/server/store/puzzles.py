"""Saved puzzles (tables ``puzzles``, ``puzzle_plays``, ``puzzle_likes``, ``puzzle_reports``;
docs/editor.md): a player's puzzle with its title and link, its plays and likes (one each per
account, counted once per address: docs/editor.md, "One address, one count") and reports, and
the community list of published ones.

The counters on the puzzle's row change in the transaction that adds the play, like or report,
and the rows of those are unique per puzzle and account: two requests of one account racing
add one row, and the other is told so (False), changing nothing.

>>> import tempfile, os
>>> from ubongo.server.store.database import Database
>>> from ubongo.server.store.accounts import AccountRepository
>>> db = Database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> db.migrate()
>>> ada, bob = (AccountRepository(db).create(n, n * 64, at=0.0) for n in "ab")
>>> puzzles = PuzzleRepository(db)
>>> new = NewPuzzle("p1", ada, "classic", "Stairs", {"edition": "classic"}, [], 3, 1, 20.0, "A")
>>> puzzles.save(new, at=10.0)
>>> puzzles.play("p1", bob, "solved", 12.5, at=11.0), puzzles.play("p1", bob, "gave_up", 1, at=12)
(True, False)
>>> puzzles.like("p1", bob, at=13.0), puzzles.like("p1", bob, at=14.0)
(True, False)
>>> found = puzzles.get("p1")
>>> (found.plays, found.solves, found.likes, found.author_name, found.published)
(1, 1, 1, 'a', False)
>>> puzzles.publish("p1", True, at=15.0), [p.id for p in puzzles.listed("classic", "newest")]
(True, ['p1'])
>>> puzzles.times("p1")
[12.5]
>>> db.close()
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..protocol.community import RATING_SHOWN_AFTER, Order, Outcome
from .database import Database
from .review import log_decision
from .tables import (
    AccountAddressRow,
    AccountRow,
    PuzzleLikeRow,
    PuzzlePlayRow,
    PuzzleReportRow,
    PuzzleRow,
    to_datetime,
    to_epoch,
)


@dataclass(frozen=True)
class Decided:
    """Who decided, why and when (a moderator's decision on a puzzle)."""

    moderator: str
    note: str
    at: float


@dataclass(frozen=True)
class NewPuzzle:
    """A puzzle to save: its link id, author, edition, title, puzzle file, one solution, its
    pieces, solutions (counted to the verdict's bound), median player's seconds and grade."""

    id: str
    account: int
    edition: str
    title: str
    puzzle: dict[str, Any]
    solution: list[Any]
    pieces: int
    solutions: int
    seconds: float
    grade: str | None


@dataclass(frozen=True)
class SavedPuzzle:
    """A stored puzzle with its author's name now and its counters."""

    id: str
    account: int
    author_name: str
    edition: str
    title: str
    puzzle: dict[str, Any]
    solution: list[Any]
    pieces: int
    solutions: int
    seconds: float
    grade: str | None
    made_at: float
    published: bool
    published_at: float | None
    hidden: bool
    title_hidden: bool
    plays: int
    solves: int
    likes: int
    reports: int
    #: learned from plays (docs/editor.md, "Rated by play"): None until a play taught it
    rating: float | None = None
    rd: float | None = None
    rated_plays: int = 0


#: what a play teaches a puzzle: its new rating (rating, RD, volatility) from its rating
#: before (None: never taught yet)
RatePlay = Callable[[tuple[float, float, float] | None], tuple[float, float, float]]


def _saved(row: PuzzleRow, name: str) -> SavedPuzzle:
    published = to_epoch(row.published_at) if row.published_at is not None else None
    return SavedPuzzle(
        row.id,
        row.account_id,
        name,
        row.edition,
        row.title,
        row.puzzle,
        row.solution,
        row.pieces,
        row.solutions,
        row.seconds,
        row.grade,
        to_epoch(row.made_at),
        row.listed,
        published,
        row.hidden,
        row.title_hidden,
        row.plays,
        row.solves,
        row.likes,
        row.reports,
        row.rating,
        row.rd,
        row.rated_plays,
    )


_WITH_AUTHOR = select(PuzzleRow, AccountRow.name).join(
    AccountRow, AccountRow.id == PuzzleRow.account_id
)
_ORDERS = {
    "newest": (PuzzleRow.published_at.desc(), PuzzleRow.id),
    "played": (PuzzleRow.plays.desc(), PuzzleRow.published_at.desc(), PuzzleRow.id),
    "liked": (PuzzleRow.likes.desc(), PuzzleRow.published_at.desc(), PuzzleRow.id),
    # hardest first, among those whose rating is shown; then the others, newest first
    "rating": (
        case((PuzzleRow.rated_plays >= RATING_SHOWN_AFTER, 0), else_=1),
        case((PuzzleRow.rated_plays >= RATING_SHOWN_AFTER, PuzzleRow.rating), else_=None).desc(),
        PuzzleRow.published_at.desc(),
        PuzzleRow.id,
    ),
}


class PuzzleRepository:
    """Saved puzzles: save, read, publish, count a play, a like, a report; the lists."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def save(self, new: NewPuzzle, at: float) -> None:
        """Keep ``new``, private (not listed) until published."""
        with self.database.write() as s:
            s.add(
                PuzzleRow(
                    id=new.id,
                    account_id=new.account,
                    edition=new.edition,
                    title=new.title,
                    puzzle=new.puzzle,
                    solution=new.solution,
                    pieces=new.pieces,
                    solutions=new.solutions,
                    seconds=new.seconds,
                    grade=new.grade,
                    made_at=to_datetime(at),
                    listed=False,
                    published_at=None,
                    hidden=False,
                    title_hidden=False,
                    plays=0,
                    solves=0,
                    likes=0,
                    reports=0,
                )
            )

    def get(self, puzzle: str) -> SavedPuzzle | None:
        """The puzzle of link id ``puzzle`` (hidden ones too: the caller decides)."""
        with self.database.session() as s:
            found = s.execute(_WITH_AUTHOR.where(PuzzleRow.id == puzzle)).first()
        return _saved(found[0], found[1]) if found is not None else None

    def made_since(self, account: int, since: float) -> int:
        """How many puzzles ``account`` saved since ``since``."""
        return self._count(PuzzleRow.account_id == account, PuzzleRow.made_at >= to_datetime(since))

    def published_since(self, account: int, since: float) -> int:
        """How many of ``account``'s puzzles were first published since ``since``."""
        when = to_datetime(since)
        return self._count(PuzzleRow.account_id == account, PuzzleRow.published_at >= when)

    def kept(self, account: int) -> int:
        """How many puzzles ``account`` keeps."""
        return self._count(PuzzleRow.account_id == account)

    def _count(self, *where: Any) -> int:
        with self.database.session() as s:
            found = s.scalar(select(func.count()).select_from(PuzzleRow).where(*where))
        return int(found or 0)

    def publish(self, puzzle: str, published: bool, at: float) -> bool:
        """List ``puzzle`` (first published at ``at``, if never before) or take it back to
        its link only (False: no change: it was so already)."""
        with self.database.write() as s:
            row = s.get(PuzzleRow, puzzle)
            if row is None or row.listed == published:
                return False
            row.listed = published
            if published and row.published_at is None:
                row.published_at = to_datetime(at)
        return True

    def delete(self, puzzle: str, account: int) -> bool:
        """``account``'s puzzle gone, with its plays, likes and reports, in one transaction
        (False: there is no such puzzle of ``account``'s). Packs keep its id and leave it
        out, as a hidden one."""
        with self.database.write() as s:
            row = s.get(PuzzleRow, puzzle)
            if row is None or row.account_id != account:
                return False
            for kind in (PuzzlePlayRow, PuzzleLikeRow, PuzzleReportRow):
                s.execute(delete(kind).where(kind.puzzle_id == puzzle))
            s.delete(row)
        return True

    def hide(
        self, puzzle: str, hidden: bool | None, title_hidden: bool | None, by: Decided
    ) -> dict[str, Any] | None:
        """A moderator's decision, logged with the review's (``hide``, under the author's
        account): hide (or show again) the puzzle, or only its title (None: unchanged).
        What it changed; None when there is no such puzzle."""
        with self.database.write() as s:
            row = s.get(PuzzleRow, puzzle)
            if row is None:
                return None
            if hidden is not None:
                row.hidden = hidden
            if title_hidden is not None:
                row.title_hidden = title_hidden
            changes = {"puzzle": puzzle, "hidden": row.hidden, "title_hidden": row.title_hidden}
            log_decision(s, by.at, by.moderator, "hide", row.account_id, None, by.note, changes)
        return changes

    def play(
        self,
        puzzle: str,
        account: int,
        outcome: Outcome,
        seconds: float,
        at: float,
        rate: RatePlay | None = None,
        since: float | None = None,
    ) -> bool:
        """Keep ``account``'s play of ``puzzle`` (False: one was kept before: nothing changes).
        It counts in the puzzle's plays, solves and times, and with ``rate`` teaches its rating,
        in the same transaction, unless the account was seen (since ``since``; None: never
        asked) at an address of the author's or of an account whose play counted: one
        address, one count."""
        row = PuzzlePlayRow(
            puzzle_id=puzzle,
            account_id=account,
            outcome=outcome,
            seconds=seconds,
            at=to_datetime(at),
            rated=False,
        )
        solved = 1 if outcome == "solved" else 0
        counters = {"plays": PuzzleRow.plays + 1, "solves": PuzzleRow.solves + solved}

        def count(s: Session) -> None:
            counted = select(PuzzlePlayRow.account_id).where(
                PuzzlePlayRow.puzzle_id == puzzle, PuzzlePlayRow.rated.is_(True)
            )
            if since is not None and _shares_address(s, puzzle, account, since, counted):
                return
            s.execute(update(PuzzleRow).where(PuzzleRow.id == puzzle).values(**counters))
            row.rated = True
            if rate is None:
                return
            found = s.get(PuzzleRow, puzzle, with_for_update=True)
            assert found is not None
            r, rd, vol = found.rating, found.rd, found.volatility
            old = (r, rd, vol) if r is not None and rd is not None and vol is not None else None
            found.rating, found.rd, found.volatility = rate(old)
            found.rated_plays += 1

        return self._add_once(row, PuzzlePlayRow, puzzle, account, {}, count)

    def like(self, puzzle: str, account: int, at: float, since: float | None = None) -> bool:
        """``account`` likes ``puzzle`` (False: it did already). The like counts in the
        puzzle's likes unless the account was seen (since ``since``; None: never asked) at an
        address of the author's or of an account whose like counts."""
        row = PuzzleLikeRow(puzzle_id=puzzle, account_id=account, at=to_datetime(at), counted=False)

        def count(s: Session) -> None:
            counted = select(PuzzleLikeRow.account_id).where(
                PuzzleLikeRow.puzzle_id == puzzle, PuzzleLikeRow.counted.is_(True)
            )
            if since is not None and _shares_address(s, puzzle, account, since, counted):
                return
            s.execute(
                update(PuzzleRow).where(PuzzleRow.id == puzzle).values(likes=PuzzleRow.likes + 1)
            )
            row.counted = True

        return self._add_once(row, PuzzleLikeRow, puzzle, account, {}, count)

    def unlike(self, puzzle: str, account: int) -> bool:
        """``account`` no longer likes ``puzzle`` (False: it did not)."""
        with self.database.write() as s:
            row = s.get(PuzzleLikeRow, (puzzle, account))
            if row is None:
                return False
            s.delete(row)
            if row.counted:
                less = PuzzleRow.likes - 1
                s.execute(update(PuzzleRow).where(PuzzleRow.id == puzzle).values(likes=less))
        return True

    def report(self, puzzle: str, account: int, reason: str, at: float) -> bool:
        """``account`` reports ``puzzle`` to the moderators (False: it did already)."""
        row = PuzzleReportRow(
            puzzle_id=puzzle, account_id=account, reason=reason, at=to_datetime(at)
        )
        counters = {"reports": PuzzleRow.reports + 1}
        return self._add_once(row, PuzzleReportRow, puzzle, account, counters)

    def _add_once(
        self,
        row: Any,
        kind: Any,
        puzzle: str,
        account: int,
        counters: dict[str, Any],
        then: Callable[[Session], None] | None = None,
    ) -> bool:
        try:
            with self.database.write() as s:
                if s.get(kind, (puzzle, account)) is not None:
                    return False
                s.add(row)
                s.flush()
                if counters:
                    s.execute(update(PuzzleRow).where(PuzzleRow.id == puzzle).values(**counters))
                if then is not None:
                    then(s)
        except IntegrityError:
            return False  # the same account's other request, at the same moment, came first
        return True

    def played(self, puzzle: str, account: int) -> Outcome | None:
        """How ``account``'s counted play of ``puzzle`` ended (None: not played)."""
        with self.database.session() as s:
            row = s.get(PuzzlePlayRow, (puzzle, account))
            return row.outcome if row is not None else None  # type: ignore[return-value]

    def likes(self, puzzle: str, account: int) -> bool:
        """Whether ``account`` likes ``puzzle``."""
        with self.database.session() as s:
            return s.get(PuzzleLikeRow, (puzzle, account)) is not None

    def times(self, puzzle: str) -> list[float]:
        """The seconds of the counted plays of ``puzzle`` solved alone, fastest first."""
        query = (
            select(PuzzlePlayRow.seconds)
            .where(
                PuzzlePlayRow.puzzle_id == puzzle,
                PuzzlePlayRow.outcome == "solved",
                PuzzlePlayRow.rated.is_(True),
            )
            .order_by(PuzzlePlayRow.seconds)
        )
        with self.database.session() as s:
            return [float(v) for v in s.scalars(query)]

    def listed(
        self, edition: str, order: Order, limit: int = 50, offset: int = 0
    ) -> list[SavedPuzzle]:
        """The community list: ``edition``'s published puzzles nobody hid, in ``order``, the
        ``limit`` after the first ``offset``."""
        query = (
            _WITH_AUTHOR.where(
                PuzzleRow.edition == edition,
                PuzzleRow.listed.is_(True),
                PuzzleRow.hidden.is_(False),
            )
            .order_by(*_ORDERS[order])
            .offset(offset)
            .limit(limit)
        )
        with self.database.session() as s:
            return [_saved(row, name) for row, name in s.execute(query)]

    def of_account(self, account: int, limit: int = 200) -> list[SavedPuzzle]:
        """``account``'s own puzzles, newest first."""
        query = (
            _WITH_AUTHOR.where(PuzzleRow.account_id == account)
            .order_by(PuzzleRow.made_at.desc(), PuzzleRow.id)
            .limit(limit)
        )
        with self.database.session() as s:
            return [_saved(row, name) for row, name in s.execute(query)]

    def reported(self, limit: int = 50) -> list[tuple[SavedPuzzle, list[str]]]:
        """The reported puzzles, most reported first, each with its reports' reasons."""
        query = (
            _WITH_AUTHOR.where(PuzzleRow.reports > 0)
            .order_by(PuzzleRow.reports.desc(), PuzzleRow.id)
            .limit(limit)
        )
        with self.database.session() as s:
            found = [_saved(row, name) for row, name in s.execute(query)]
            reasons = {
                p.id: [
                    str(r)
                    for r in s.scalars(
                        select(PuzzleReportRow.reason)
                        .where(PuzzleReportRow.puzzle_id == p.id)
                        .order_by(PuzzleReportRow.at)
                    )
                ]
                for p in found
            }
        return [(p, reasons[p.id]) for p in found]


def _shares_address(s: Session, puzzle: str, account: int, since: float, counted: Any) -> bool:
    """Whether ``account`` was seen since ``since`` at an address where the puzzle's author, or
    an account among ``counted`` (a select of account ids), was seen since then too."""
    when = to_datetime(since)
    seen = AccountAddressRow.last_seen >= when
    mine = select(AccountAddressRow.address).where(AccountAddressRow.account_id == account, seen)
    near = select(AccountAddressRow.account_id).where(
        AccountAddressRow.address.in_(mine), AccountAddressRow.account_id != account, seen
    )
    author = s.scalar(
        select(PuzzleRow.id).where(PuzzleRow.id == puzzle, PuzzleRow.account_id.in_(near))
    )
    if author is not None:
        return True
    return (
        s.scalar(
            select(AccountAddressRow.account_id)
            .where(
                AccountAddressRow.account_id.in_(near), AccountAddressRow.account_id.in_(counted)
            )
            .limit(1)
        )
        is not None
    )
