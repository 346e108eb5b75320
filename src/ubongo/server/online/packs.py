"""Packs (docs/editor.md, "Packs"): an account's ordered set of saved puzzles, with a title,
under a link; played as a solo run in the browser or as a room's tasks.

What a pack may hold, against a script with an account:

* saved puzzles of one edition, each once, at least one and at most ``pack_puzzles``
  (``422 bad_pack``), each the account's own or published and not hidden by a moderator
  (``422 bad_pack`` too: another account's private puzzle stays its author's, even to one who
  has its link: a pack is shown to whoever has the pack's);
* ``packs_per_day`` and ``packs_per_account`` bound what one account makes (``429
  puzzle_limit``); the title follows the rules of display names;
* when a pack is read, a puzzle since hidden by a moderator, or taken back to its link by an
  author who is not the pack's, is left out (``left_out`` counts them): a pack is never a way
  round a moderator or round an author's choice;
* a pack a moderator hid (``ubongo review hide-pack``) is off the community list, and its
  link answers ``404 no_pack`` to everyone but its maker, who sees it marked hidden; no room
  races it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ubongo import puzzlefile
from ubongo.puzzles.pack import PackTask

from ..config import ServerConfig
from ..ops.clock import Clock
from ..protocol.community import LIST_PAGE
from ..protocol.incoming import ProtocolError
from ..protocol.packs import PackOrder
from ..store import ListedPack, NewPack, SavedPack, SavedPuzzle, Store
from .names import check_name
from .puzzles import DAY, limited, new_id


def bad_pack(why: str) -> ProtocolError:
    return ProtocolError("bad_pack", why)


def no_pack() -> ProtocolError:
    return ProtocolError("no_pack", "no such pack")


class PackDesk:
    """Makes and reads packs, within their limits."""

    def __init__(self, store: Store, clock: Clock, config: ServerConfig) -> None:
        self.store, self.clock, self.config = store, clock, config

    async def make(
        self, account: int, title: str, ids: list[str], published: bool = False
    ) -> SavedPack:
        """Keep ``account``'s pack of the saved puzzles ``ids``, in that order, titled, listed
        in the community list if ``published``."""
        name = check_name(title)
        self._check_count(ids)
        await self._within_limits(account)
        edition = await self._edition_of(account, ids)
        new = NewPack(new_id(), account, edition, name, list(ids))
        now = self.clock.now()
        await asyncio.to_thread(self.store.packs.save, new, now)
        if published:
            await asyncio.to_thread(self.store.packs.change, new.id, now, None, None, True)
        return await self.get(new.id, account)

    async def edit(
        self,
        pack_id: str,
        account: int,
        title: str | None,
        ids: list[str] | None,
        published: bool | None,
    ) -> SavedPack:
        """``account`` changes its pack: the title, the puzzles (the whole list, in order:
        held to the rules of making one, its edition kept) or its listing; another account's
        is ``403 not_your_pack``."""
        pack = await self.get(pack_id, account)
        if pack.account != account:
            raise ProtocolError("not_your_pack", "only the pack's maker may change it")
        name = check_name(title) if title is not None else None
        if ids is not None:
            self._check_count(ids)
            if await self._edition_of(account, ids) != pack.edition:
                raise bad_pack("a pack's puzzles are all of one edition")
        now = self.clock.now()
        await asyncio.to_thread(self.store.packs.change, pack.id, now, name, ids, published)
        return await self.get(pack.id, account)

    async def delete(self, pack_id: str, account: int) -> None:
        """``account`` deletes its pack (its puzzles stay); another account's is ``403
        not_your_pack``, as a change is. A room racing it goes on: it has its tasks."""
        pack = await self.get(pack_id, account)
        if pack.account != account:
            raise ProtocolError("not_your_pack", "only the pack's maker may delete it")
        if not await asyncio.to_thread(self.store.packs.delete, pack.id, account):
            raise no_pack()  # (deleted by its maker's other request at the same moment)

    def _check_count(self, ids: list[str]) -> None:
        most = self.config.pack_puzzles
        if not ids or len(ids) > most:
            raise bad_pack(f"a pack holds from 1 to {most} puzzles")
        if len(set(ids)) != len(ids):
            raise bad_pack("a puzzle is in a pack once")

    async def _edition_of(self, account: int, ids: list[str]) -> str:
        """The one edition of the saved puzzles ``ids``, each ``account``'s own or published
        and not hidden (``422 bad_pack``)."""
        editions = set()
        for pid in ids:
            found = await asyncio.to_thread(self.store.puzzles.get, pid[:16])
            if found is None or found.hidden:
                raise bad_pack(f"no puzzle {pid[:16]!r}")
            if found.account != account and not found.published:
                raise bad_pack(f"puzzle {pid[:16]!r} is neither yours nor published")
            editions.add(found.edition)
        if len(editions) > 1:
            raise bad_pack("a pack's puzzles are all of one edition")
        return editions.pop()

    async def listed(
        self, edition: str, order: PackOrder, page: int
    ) -> tuple[list[dict[str, Any]], bool]:
        """Page ``page`` of ``edition``'s listed packs (``ListedPack``s) that have a puzzle
        left to show, in ``order``, and whether a next page has some."""
        found = await asyncio.to_thread(
            self.store.packs.listed, edition, order, LIST_PAGE + 1, page * LIST_PAGE
        )
        return [_listed_view(listed) for listed in found[:LIST_PAGE]], len(found) > LIST_PAGE

    async def _within_limits(self, account: int) -> None:
        packs, config = self.store.packs, self.config
        made = await asyncio.to_thread(packs.made_since, account, self.clock.now() - DAY)
        if made >= config.packs_per_day:
            raise limited(f"at most {config.packs_per_day} packs made a day")
        if await asyncio.to_thread(packs.kept, account) >= config.packs_per_account:
            raise limited(f"at most {config.packs_per_account} packs kept")

    async def get(self, pack_id: str, viewer: int | None) -> SavedPack:
        """The pack of the link ``pack_id`` as ``viewer`` (an account, or None) may see it:
        ``404 no_pack`` when there is none, or a moderator hid it from all but its maker."""
        found = await asyncio.to_thread(self.store.packs.get, pack_id[:16])
        if found is None or (found.hidden and found.account != viewer):
            raise no_pack()
        return found

    async def puzzles(self, pack: SavedPack) -> tuple[list[SavedPuzzle], int]:
        """The pack's puzzles that may still be shown (:func:`shown_puzzles`)."""
        return await shown_puzzles(self.store, pack)

    async def view(self, pack: SavedPack, account: int | None) -> dict[str, Any]:
        """``PackView`` of ``pack`` as ``account`` sees it."""
        shown, left_out = await self.puzzles(pack)
        return {
            **_who_and_what(pack),
            "made_at": pack.made_at,
            "mine": pack.account == account,
            "published": pack.published,
            "hidden": pack.hidden,
            "puzzles": [_puzzle_view(p) for p in shown],
            "left_out": left_out,
        }

    async def file(self, pack: SavedPack) -> dict[str, Any]:
        """``PackFile``: the pack as a pack file (docs/puzzle-format.md, "Packs")."""
        shown, _ = await self.puzzles(pack)
        return {"name": pack.title, "puzzles": [_file_of(p) for p in shown]}


def _who_and_what(pack: SavedPack) -> dict[str, Any]:
    """What a pack's page and its row in the community list both say of it: which pack, of
    which edition, called what, made by whom."""
    return {
        "id": pack.id,
        "edition": pack.edition,
        "title": pack.title,
        "author": pack.account,
        "author_name": pack.author_name,
    }


def _listed_view(listed: ListedPack) -> dict[str, Any]:
    """``ListedPack``: a pack in the community list, its shown puzzles' plays and likes (added
    up by the database with the list: no puzzle is read one by one)."""
    pack = listed.pack
    return {
        **_who_and_what(pack),
        "puzzles": listed.puzzles,
        "plays": listed.plays,
        "likes": listed.likes,
        "published_at": pack.published_at if pack.published_at is not None else pack.made_at,
    }


def _file_of(p: SavedPuzzle) -> dict[str, Any]:
    """A saved puzzle as a puzzle file, its title as the file's name (none if hidden)."""
    area = puzzlefile.from_json(p.puzzle).area
    return {
        "name": "" if p.title_hidden else p.title,
        "edition": p.edition,
        "area": [list(c) for c in sorted(area.cells)],
        "pieces": list(p.puzzle["pieces"]),
    }


def _puzzle_view(p: SavedPuzzle) -> dict[str, Any]:
    area = puzzlefile.from_json(p.puzzle).area
    return {
        "id": p.id,
        "title": None if p.title_hidden else p.title,
        "author_name": p.author_name,
        "area": [list(c) for c in sorted(area.cells)],
        "layers": area.layers,
        "piece_ids": [str(i) for i in p.puzzle["pieces"]],
        "grade": p.grade,
        "model_seconds": p.seconds,
    }


async def pack_tasks(store: Store, pack_id: str) -> tuple[str, str, tuple[PackTask, ...]]:
    """A pack's edition, title and puzzles as a room races them (each its area's cells and
    piece ids), those that may still be shown (:func:`shown_puzzles`); ``404 no_pack``,
    or ``422 bad_pack`` when none is left."""
    found = await asyncio.to_thread(store.packs.get, pack_id[:16])
    if found is None or found.hidden:
        raise no_pack()
    shown, _ = await shown_puzzles(store, found)
    if not shown:
        raise bad_pack("none of the pack's puzzles may be played now")
    tasks = []
    for p in shown:
        puzzle = puzzlefile.from_json(p.puzzle)
        cells = tuple(tuple(c) for c in sorted(puzzle.area.cells))
        tasks.append((cells, tuple(piece.id for piece in puzzle.pieces)))
    return found.edition, found.title, tuple(tasks)


async def shown_puzzles(store: Store, pack: SavedPack) -> tuple[list[SavedPuzzle], int]:
    """The pack's puzzles that may still be shown, in order, and how many were left out
    (hidden, or taken back to its link by an author who is not the pack's)."""
    shown: list[SavedPuzzle] = []
    for pid in pack.puzzle_ids:
        found = await asyncio.to_thread(store.puzzles.get, pid)
        if found is None or found.hidden:
            continue
        if found.account != pack.account and not found.published:
            continue
        shown.append(found)
    return shown, len(pack.puzzle_ids) - len(shown)
