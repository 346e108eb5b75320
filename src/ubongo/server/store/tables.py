"""The database's tables, declared once (SQLAlchemy 2); the schema they describe is made and
changed only by the Alembic migrations in ``migrations/``, which compare against these.

Times are stored as timezone-aware datetimes and handed out as seconds since the Unix epoch:

>>> to_epoch(to_datetime(1_700_000_000.5))
1700000000.5
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    false,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .namekey import MAX_KEY_CHARS


def to_datetime(epoch_seconds: float) -> datetime:
    """A stored time (UTC) from seconds since the Unix epoch."""
    return datetime.fromtimestamp(epoch_seconds, UTC)


def to_epoch(value: datetime) -> float:
    """Seconds since the Unix epoch of a stored time."""
    if value.tzinfo is None:  # SQLite gives back naive datetimes: they were stored as UTC
        value = value.replace(tzinfo=UTC)
    return value.timestamp()


class Base(DeclarativeBase):
    """Every table of the server's database (its ``metadata`` is what the migrations target)."""


def table_of(row: type[Base]) -> Table:
    """The table of a row class, for SQL statements written without the ORM's objects (the
    writes each race makes, where its bookkeeping cost more than the statements)."""
    return row.metadata.tables[row.__tablename__]


class GameRow(Base):
    """A finished game: enough to replay it (settings, seed, events) and its result."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room: Mapped[str] = mapped_column(String(16))
    edition: Mapped[str] = mapped_column(String(16), index=True)
    mode: Mapped[str] = mapped_column(String(8))
    variant: Mapped[str] = mapped_column(String(32))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    events: Mapped[list[Any]] = mapped_column(JSON)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[list[Any]] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SoloRecordRow(Base):
    """One solo run's result: tasks done in the time (goal ``time``) or time for the tasks."""

    __tablename__ = "solo_records"
    #: a leaderboard: an edition's runs of one goal, amount and side (migration 0001)
    __table_args__ = (Index("ix_solo_records_kind", "edition", "goal", "amount", "side"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    name: Mapped[str] = mapped_column(String(32), index=True)
    edition: Mapped[str] = mapped_column(String(16))
    goal: Mapped[str] = mapped_column(String(8))
    amount: Mapped[int] = mapped_column(Integer)
    side: Mapped[str] = mapped_column(String(16))
    score: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: false: faster than a human hand places the pieces; kept, but not ranked
    plausible: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    #: the run's account (``None``: a run from before accounts, known by its name only)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    #: hints asked for during the run (the leaderboard shows hinted runs)
    hints: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: tasks put aside (skipped or given up): the rulebooks let a stuck player draw another
    #: board, the clock running on; the records show how many
    skipped: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class AccountRow(Base):
    """A player's account: its public name and the hash of its token (never the token: the
    token is the only credential, and a copy of the database must not hand it out)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    #: the name's key (:func:`.namekey.name_key`): unique, so that two accounts never hold
    #: names a reader cannot tell apart, whichever of two racing writes comes first
    name_key: Mapped[str] = mapped_column(String(MAX_KEY_CHARS), unique=True, index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: a moderator marked the account a cheater: off every leaderboard (docs/fair-play.md)
    marked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AccountAddressRow(Base):
    """An address an account used lately (``address``: the client's address key, salted and
    hashed, never the address itself), and when last: quick match does not seat together
    accounts that shared one (docs/fair-play.md). Rows older than the window are deleted."""

    __tablename__ = "account_addresses"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    address: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class ServerSecretRow(Base):
    """A secret the database keeps for itself (``address_salt``: the salt of the hashed
    addresses, made at first use), so that every process on the database hashes alike."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class GameAccountRow(Base):
    """Who played a stored game with an account: one row per seat that had one (the games'
    own ``players`` keep every seat's name as it was)."""

    __tablename__ = "game_accounts"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)


class TaskRatingRow(Base):
    """A task's rating learned from endless runs, by its fingerprint
    (:func:`ubongo.puzzles.ratings.task_fingerprint`): kept for the task with the whole time
    limit of its side (``docs/ratings.md``)."""

    __tablename__ = "task_ratings"

    fingerprint: Mapped[str] = mapped_column(String(32), primary_key=True)
    edition: Mapped[str] = mapped_column(String(16), index=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    plays: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayerRatingRow(Base):
    """An account's endless rating in one edition."""

    __tablename__ = "player_ratings"

    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    edition: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    plays: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyResultRow(Base):
    """One daily challenge run: its day, each task's time, and whether it is rated (on the
    day's leaderboard: the account's first run of the day, played on its day, plausible)."""

    __tablename__ = "daily_results"
    #: a day's leaderboard, and an account's runs of a day (migration 0005)
    __table_args__ = (
        Index("ix_daily_results_day", "edition", "day", "rated"),
        Index("ix_daily_results_account", "account", "edition", "day"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    edition: Mapped[str] = mapped_column(String(16))
    day: Mapped[str] = mapped_column(String(10))
    account: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(32))
    solved: Mapped[int] = mapped_column(Integer)
    skipped: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float)
    times: Mapped[list[Any]] = mapped_column(JSON)
    rated: Mapped[bool] = mapped_column(Boolean)
    unrated: Mapped[str | None] = mapped_column(String(120), nullable=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """One subject's rating of rated games in one edition (OpenSkill's ``mu`` and ``sigma``,
    worked out by :mod:`ubongo.server.online.ratings`): an account (``account:<id>``) or a bot
    level (``bot:<level>``)."""

    __tablename__ = "ratings"

    edition: Mapped[str] = mapped_column(String(16), primary_key=True)
    subject: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class RatingHistoryRow(Base):
    """An account's display rating before and after one rated game (the profile's chart)."""

    __tablename__ = "rating_history"
    #: the pair cap counts an account's games of the last day (migration 0021)
    __table_args__ = (Index("ix_rating_history_account_at", "account_id", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: indexed: each rated game stored reads its moves back by game (migration 0021)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    edition: Mapped[str] = mapped_column(String(16))
    before: Mapped[int] = mapped_column(Integer)
    after: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class OpenRoomRow(Base):
    """A room that was open when last saved: its durable form (:mod:`..rooms.durable`), replaced at
    each save and deleted when the room closes."""

    __tablename__ = "open_rooms"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    room: Mapped[dict[str, Any]] = mapped_column(JSON)
    saved_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class HeldResultRow(Base):
    """A rated or ranked result held for review (docs/fair-play.md): stored and shown to its
    player, but moving no rating and on no leaderboard until a moderator clears it."""

    __tablename__ = "held_results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    #: ``race`` (a seat of a rated game), ``solo`` (a run for the leaderboard) or ``daily``
    kind: Mapped[str] = mapped_column(String(8))
    score: Mapped[float] = mapped_column(Float)
    reasons: Mapped[list[Any]] = mapped_column(JSON)
    #: ``held``, then ``cleared`` or ``marked`` (the account was marked a cheater)
    status: Mapped[str] = mapped_column(String(8), index=True)
    held_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReviewDecisionRow(Base):
    """A moderator's decision, logged: clearing a held result or marking an account, with
    what it changed."""

    __tablename__ = "review_decisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    moderator: Mapped[str] = mapped_column(String(64))
    #: ``clear``, ``mark`` or ``hide`` (a puzzle or its title: docs/editor.md)
    decision: Mapped[str] = mapped_column(String(8))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    held_id: Mapped[int | None] = mapped_column(ForeignKey("held_results.id"), nullable=True)
    note: Mapped[str] = mapped_column(String(500))
    changes: Mapped[dict[str, Any]] = mapped_column(JSON)


class FollowRow(Base):
    """An account follows another (docs/social.md): one-way; two accounts that follow each
    other are friends, who see each other online and where."""

    __tablename__ = "follows"

    follower_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    followed_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id"), primary_key=True, index=True
    )
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChallengeRow(Base):
    """A challenge from one account to another: the game it proposes (edition, rated), until
    it is answered or expires; an accepted one keeps the room made for it and the challenger's
    seat (for the challenger's page to collect, docs/social.md)."""

    __tablename__ = "challenges"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    to_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    edition: Mapped[str] = mapped_column(String(16))
    rated: Mapped[bool] = mapped_column(Boolean)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: open, accepted, declined, cancelled (an expired one stays open past ``expires_at``)
    status: Mapped[str] = mapped_column(String(12))
    room: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: the challenger's seat in the room made for it (code, seat, token, invite)
    seat: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class ChatReportRow(Base):
    """A line of free text a player reported from a room, as the room heard it (docs/social.md):
    for the moderators (``ubongo review reports``)."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room: Mapped[str] = mapped_column(String(16))
    reporter_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    #: the account that said it (null: a guest's seat), and the seat's name then
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id"), nullable=True, index=True
    )
    name: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(String(400))
    said_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class GameChatRow(Base):
    """A line a player said in a game's room (a quick phrase's key, or free text), kept with
    the stored game for its players' replay (docs/social.md); spectators' lines are not kept."""

    __tablename__ = "game_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    phrase: Mapped[str | None] = mapped_column(String(16), nullable=True)
    text: Mapped[str | None] = mapped_column(String(400), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ArenaRow(Base):
    """An arena (docs/arenas.md): what it plays, when, made by whom (null: the schedule, whose
    slot names it once), and when its standings froze."""

    __tablename__ = "arenas"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    edition: Mapped[str] = mapped_column(String(16))
    title: Mapped[str] = mapped_column(String(64))
    side: Mapped[str] = mapped_column(String(16))
    seats: Mapped[int] = mapped_column(Integer)
    minutes: Mapped[int] = mapped_column(Integer)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    seed: Mapped[str] = mapped_column(String(32))
    made_by: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id"), nullable=True, index=True
    )
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    private: Mapped[bool] = mapped_column(Boolean)
    #: the schedule's slot this arena fills (unique: every process may try to make it)
    slot: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    frozen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ArenaPlayerRow(Base):
    """A player of an arena: their sheet (every race's result, in order), whether they pause or
    take the harder side, whether fair play removed them, and their final place."""

    __tablename__ = "arena_players"

    arena_id: Mapped[str] = mapped_column(ForeignKey("arenas.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True, index=True)
    name: Mapped[str] = mapped_column(String(32))
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    paused: Mapped[bool] = mapped_column(Boolean)
    harder: Mapped[bool] = mapped_column(Boolean)
    removed: Mapped[bool] = mapped_column(Boolean)
    #: each race: [race, place or null, harder, points, fire, at, game id or null]
    results: Mapped[list[Any]] = mapped_column(JSON)
    points: Mapped[int] = mapped_column(Integer)
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)


class ArenaRaceRow(Base):
    """A race of an arena: its room, its seats' accounts (null: a bot), when it started and
    ended, and its stored game (for its replay)."""

    __tablename__ = "arena_races"

    arena_id: Mapped[str] = mapped_column(ForeignKey("arenas.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    room: Mapped[str] = mapped_column(String(16))
    accounts: Mapped[list[Any]] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True)


class PuzzleRow(Base):
    """A puzzle saved from the editor (docs/editor.md): its link id (random: a private puzzle
    is read only by whoever has its link), its author, title, puzzle file and the solver's
    figures at saving, whether it is published or hidden by a moderator, and its counters
    (kept with each play, like and report, so that the community list sorts by them)."""

    __tablename__ = "puzzles"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    edition: Mapped[str] = mapped_column(String(16), index=True)
    title: Mapped[str] = mapped_column(String(64))
    puzzle: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: one solution, each piece as ``{"piece", "cells", "transform", "offset"}``
    solution: Mapped[list[Any]] = mapped_column(JSON)
    pieces: Mapped[int] = mapped_column(Integer)
    solutions: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float)
    grade: Mapped[str | None] = mapped_column(String(16), nullable=True)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    #: listed in the community list now
    listed: Mapped[bool] = mapped_column(Boolean)
    #: when it was first listed (kept when taken back and listed again: a puzzle cannot be
    #: moved to the top of the newest, nor the daily limit spent again, by doing so)
    published_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    hidden: Mapped[bool] = mapped_column(Boolean)
    title_hidden: Mapped[bool] = mapped_column(Boolean)
    plays: Mapped[int] = mapped_column(Integer)
    solves: Mapped[int] = mapped_column(Integer)
    likes: Mapped[int] = mapped_column(Integer)
    reports: Mapped[int] = mapped_column(Integer)
    #: its Glicko-2 rating learned from plays (docs/editor.md; null until a play teaches it)
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    rd: Mapped[float | None] = mapped_column(Float, nullable=True)
    volatility: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: the plays that taught the rating (one per address)
    rated_plays: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class PuzzlePlayRow(Base):
    """An account's one counted play of a puzzle: solved alone, solved with help, or given
    up, and its time (seconds)."""

    __tablename__ = "puzzle_plays"

    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    outcome: Mapped[str] = mapped_column(String(8))
    seconds: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: whether it counts in the puzzle's figures and taught its rating (not when an account
    #: of its address, or the author's, had: docs/editor.md, "One address, one count")
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class PuzzleLikeRow(Base):
    """An account likes a puzzle (one like each)."""

    __tablename__ = "puzzle_likes"

    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: whether it counts in the puzzle's likes (not when an account of its address, or the
    #: author's, liked it: docs/editor.md, "One address, one count")
    counted: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())


class PuzzleReportRow(Base):
    """An account reports a puzzle to the moderators (one report each), saying why."""

    __tablename__ = "puzzle_reports"

    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    reason: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class PackRow(Base):
    """A pack (docs/editor.md, "Packs"): an account's ordered set of saved puzzles of one
    edition, with a title, under a random link id like a puzzle's."""

    __tablename__ = "packs"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    edition: Mapped[str] = mapped_column(String(16))
    title: Mapped[str] = mapped_column(String(64))
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    #: listed in the community list now, and when first listed
    listed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    published_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    #: hidden by a moderator: off the list, and its link answers its maker only
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class PackPuzzleRow(Base):
    """A pack's puzzle at its place in the pack's order (a row each: the community list adds
    up the plays and likes of a pack's puzzles in the database, to sort by them)."""

    __tablename__ = "pack_puzzles"

    pack_id: Mapped[str] = mapped_column(ForeignKey("packs.id"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(String(16), index=True)
