"""The database: stored games, records, accounts, ratings, daily results and open rooms.

SQLAlchemy 2 over SQLite (the default: a file) or PostgreSQL (by URL), its schema changed only
by the Alembic migrations in ``migrations/``, run at every start.

* :mod:`.database` - engines, sessions, one write (one transaction), migrations, the
  retry delay of failed writes (:class:`~.database.Backoff`); :mod:`.tables` - the tables;
* one repository per aggregate, each returning typed records (frozen dataclasses), never
  the HTTP answers' JSON (the routes shape that): :mod:`.games` (finished games),
  :mod:`.records` (solo records), :mod:`.daily` (daily challenge runs), :mod:`.accounts`
  (accounts and profiles; names unique by their key, :mod:`.namekey`), :mod:`.addresses` (the
  addresses accounts used lately, hashed), :mod:`.ratings` (rating rows of rated games and of
  endless runs' tasks and players), :mod:`.open_rooms` (rooms that outlive a restart),
  :mod:`.review` (results held for fair play, and the moderators' logged decisions),
  :mod:`.follows` (who follows whom), :mod:`.challenges` (games proposed to an account),
  :mod:`.reports` (reported lines of chat), :mod:`.game_chat` (what a stored game's players
  said), :mod:`.arenas` (arenas, their players' sheets and their races), :mod:`.puzzles`
  (puzzles saved from the editor, their plays, likes and reports), :mod:`.packs` (ordered
  sets of them).

Callers hold one :class:`Store` (the app makes it and hands it on) and reach each
repository as its attribute: ``store.games.save(game)``, ``store.accounts.by_token(hash)``.
A game and the rows that go with it (its solo or daily record, a rated game's rating
changes) are stored in one transaction by the repository of what is stored with the game.
The arithmetic of ratings is not here: the caller gives it
(:data:`~.games.RateGame`, :data:`~.ratings.RateTask`, from :mod:`..online`).

>>> import tempfile, os
>>> store = Store("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> store.migrate()
>>> game_id = store.games.save(GameRecord(room="ABCD", edition="classic", mode="race",
...     variant="standard", settings={}, seed=7, events=[], result={"winners": [0]},
...     players=[{"seat": 0, "name": "Ada"}], started_at=1.0, finished_at=2.0))
>>> [(g.id == game_id, g.room, g.winners) for g in store.games.latest()]
[(True, 'ABCD', [0])]
>>> store.close()

May import: :mod:`..protocol`, :mod:`..config`, :mod:`..ops`.
"""

from __future__ import annotations

from .accounts import (
    AccountRepository,
    NameTaken,
    Profile,
    SeatedGame,
    SharedGame,
    StoredAccount,
)
from .addresses import AddressRepository
from .arenas import ArenaRepository, Race, TakenPart
from .challenges import Challenge, ChallengeRepository
from .daily import DailyRecord, DailyRepository, DailyRun
from .database import Backoff, Database, default_database_url
from .follows import Followed, FollowRepository
from .game_chat import ChatLine, GameChatRepository
from .games import GameRecord, GameRepository, Held, RatedSeat, RateGame, StoredGame
from .open_rooms import OpenRoomRepository
from .packs import ListedPack, NewPack, PackRepository, SavedPack
from .puzzles import Decided, NewPuzzle, PuzzleRepository, SavedPuzzle
from .ratings import (
    AccountRatings,
    Glicko,
    RatedAccount,
    RateTask,
    RatingChange,
    RatingRepository,
    RatingRows,
    SkillRating,
    TaskRating,
    TaskRatingRepository,
    TaskResult,
)
from .records import PersonalBest, RecordRepository, SoloRecord, SoloRun
from .reports import ChatReport, ReportRepository
from .review import Decision, GiveBack, HeldResult, RerateSeat, ReviewRepository


class Store:
    """The server's database and its repositories (``url``: see :class:`~.database.Database`;
    ``timeout``: how long a write waits for SQLite's lock)."""

    def __init__(self, url: str | None = None, timeout: float = 30.0) -> None:
        self.database = Database(url, timeout)
        self.games = GameRepository(self.database)
        self.records = RecordRepository(self.database)
        self.daily = DailyRepository(self.database)
        self.accounts = AccountRepository(self.database)
        self.addresses = AddressRepository(self.database)
        self.ratings = RatingRepository(self.database)
        self.task_ratings = TaskRatingRepository(self.database)
        self.open_rooms = OpenRoomRepository(self.database)
        self.review = ReviewRepository(self.database)
        self.follows = FollowRepository(self.database)
        self.challenges = ChallengeRepository(self.database)
        self.reports = ReportRepository(self.database)
        self.chat = GameChatRepository(self.database)
        self.arenas = ArenaRepository(self.database)
        self.puzzles = PuzzleRepository(self.database)
        self.packs = PackRepository(self.database)

    @property
    def url(self) -> str:
        return self.database.url

    def migrate(self) -> None:
        """Bring the schema up to date (at every start)."""
        self.database.migrate()

    def close(self) -> None:
        self.database.close()


__all__ = [
    "AccountRatings",
    "AccountRepository",
    "AddressRepository",
    "ArenaRepository",
    "Backoff",
    "Challenge",
    "ChallengeRepository",
    "ChatLine",
    "ChatReport",
    "DailyRecord",
    "DailyRepository",
    "DailyRun",
    "Database",
    "Decided",
    "Decision",
    "FollowRepository",
    "Followed",
    "GameChatRepository",
    "GameRecord",
    "GameRepository",
    "GiveBack",
    "Glicko",
    "Held",
    "HeldResult",
    "ListedPack",
    "NameTaken",
    "NewPack",
    "NewPuzzle",
    "OpenRoomRepository",
    "PackRepository",
    "PersonalBest",
    "Profile",
    "PuzzleRepository",
    "Race",
    "RateGame",
    "RateTask",
    "RatedAccount",
    "RatedSeat",
    "RatingChange",
    "RatingRepository",
    "RatingRows",
    "RecordRepository",
    "ReportRepository",
    "RerateSeat",
    "ReviewRepository",
    "SavedPack",
    "SavedPuzzle",
    "SeatedGame",
    "SharedGame",
    "SkillRating",
    "SoloRecord",
    "SoloRun",
    "Store",
    "StoredAccount",
    "StoredGame",
    "TakenPart",
    "TaskRating",
    "TaskRatingRepository",
    "TaskResult",
    "default_database_url",
]
