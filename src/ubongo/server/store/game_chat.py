"""A stored game's chat (table ``game_chat``, docs/social.md): what its players said in its
room, from its lobby to its end screen, shown in the replay to the accounts seated in it only.

>>> import tempfile, os
>>> from ubongo.server.store.database import Database
>>> from ubongo.server.store.games import GameRecord, GameRepository
>>> db = Database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> db.migrate()
>>> game = GameRecord("K7QXB", "classic", "race", "standard", {}, 1, [], {}, [], 1.0, 9.0)
>>> game_id = GameRepository(db).save(game)
>>> chat = GameChatRepository(db)
>>> chat.add(game_id, [ChatLine(1, None, "gg", 8.5), ChatLine(0, "good_luck", None, 0.5)])
>>> [(line.seat, line.phrase, line.text) for line in chat.of_game(game_id)]
[(0, 'good_luck', None), (1, None, 'gg')]
>>> db.close()
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select

from .database import Database
from .tables import GameChatRow, to_datetime, to_epoch


@dataclass(frozen=True)
class ChatLine:
    """A line a player said: their seat, a quick phrase's key or free text, and when (server
    time, seconds since the epoch)."""

    seat: int
    phrase: str | None
    text: str | None
    at: float


class GameChatRepository:
    """The games' chat: add lines to a stored game, read a game's lines."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def add(self, game_id: int, lines: Iterable[ChatLine]) -> None:
        """Keep ``lines`` with stored game ``game_id``."""
        with self.database.write() as s:
            for line in lines:
                s.add(
                    GameChatRow(
                        game_id=game_id,
                        seat=line.seat,
                        phrase=line.phrase,
                        text=line.text,
                        at=to_datetime(line.at),
                    )
                )

    def of_game(self, game_id: int) -> list[ChatLine]:
        """The lines of game ``game_id``, in the order they were said."""
        query = (
            select(GameChatRow)
            .where(GameChatRow.game_id == game_id)
            .order_by(GameChatRow.at, GameChatRow.id)
        )
        with self.database.session() as s:
            return [ChatLine(r.seat, r.phrase, r.text, to_epoch(r.at)) for r in s.scalars(query)]
