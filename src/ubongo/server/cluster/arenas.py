"""Arenas across processes: one process leads them all (docs/arenas.md, "Several processes").

An arena is paired and scored in one place, so that two processes never seat one player twice
or score one race twice. That place is the **leader**: the process holding the lease
``ubongo:arenas:leader`` (renewed every beat, like a room's owner). It runs the one
:class:`~..online.arenas.ArenaDirector` of the cluster, exactly as a single process does: it
makes the schedule's arenas, seats free players in races whose rooms it makes (their codes
unique across the cluster, so any process reaches them), scores them and freezes the
standings. Any other process:

* forwards each route's question to the leader (:data:`~.wire.Command.ARENA_ASK`, JSON, the
  director's :meth:`~..online.arenas.ArenaDirector.answer`) and waits for its answer;
* keeps its own arena pages (:class:`~..online.arena_live.Watcher`) and has each one watched on
  the leader by a stand-in (:class:`RemoteWatcher`) whose views come back on this process's
  channel (:data:`~.wire.Command.ARENA_VIEW`): the leader makes each page's view at most once
  a second, as for its own pages;
* makes the rooms of the races the leader hands it (:meth:`ClusterArenas.make_race`: the
  leader deals the races' rooms to the live processes in turn, so an arena's games are played
  on every process, not only on the leader), and sends a race's end to the leader.

When the leader dies its lease runs out (or, sooner, a process that finds nobody listening on
its channel clears it) and the first process to take the lease starts a director, which loads
the arenas not frozen from the database; every process then has its pages watched there again.
A race whose room outlived the old leader is scored when it ends, as any other.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ubongo.arena import Arena, Format

from ..online.arena_live import MakeRace, RaceOutcome, Seated, Watcher
from ..online.arenas import ArenaDirector
from ..ops import strong_random
from ..ops.ratelimit import RateLimited
from ..protocol.incoming import ProtocolError
from .keys import ARENA_LEADER, HEARTBEAT, LEASE_MS, node_channel
from .node import Node
from .wire import Command, command, parse

log = logging.getLogger("ubongo.server.cluster")

#: how long an ask waits for the leader's answer
ASK_SECONDS = 5.0
#: while no process leads (one died, the next is loading), an ask tries again this often, and
#: at most this many times
RETRY_SECONDS, RETRIES = 0.25, 40


@dataclass(eq=False)
class RemoteWatcher(Watcher):
    """On the leader: an arena page of process ``node`` (its watcher ``wid`` there); its views
    go back on that process's channel."""

    node: str = ""
    wid: str = ""
    send: Callable[[str, str], None] | None = None

    def deliver(self, text: str) -> None:
        if self.send is not None:
            self.send(self.node, command(Command.ARENA_VIEW, self.wid, text))


class ClusterArenas:
    """The :class:`~..online.arenas.Arenas` of a process in a cluster: the director here while
    this process leads, the leader's through Redis otherwise."""

    def __init__(
        self, node: Node, race_here: MakeRace, make_director: Callable[[], ArenaDirector]
    ) -> None:
        self.node = node
        #: makes a race's room in this process (:meth:`~..rooms.quickrooms.QuickRooms.race`)
        self.race_here = race_here
        self.make_director = make_director
        #: on the leader: the live processes (their ids), to deal races' rooms to in turn
        self.processes: list[str] = []
        self._dealt = 0
        #: this process's director, while it leads
        self.director: ArenaDirector | None = None
        #: the leader seen at the last beat (its pages were watched there)
        self.leader: str | None = None
        #: this process's arena pages, by watcher id, and each page's id
        self.pages: dict[str, Watcher] = {}
        self.page_ids: dict[Watcher, str] = {}
        #: on the leader: other processes' pages, by (process, watcher id)
        self.remote: dict[tuple[str, str], RemoteWatcher] = {}
        self.asks: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._task: asyncio.Task[None] | None = None
        self._stepping = asyncio.Lock()
        #: when this process last asked Redis to renew (or take) the lease that it then held
        self._held_since = 0.0
        node.arenas = self

    # --- start and stop ------------------------------------------------------------------------

    async def start(self) -> None:
        self._task = asyncio.create_task(self._beats())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.director is not None:
            await self._step_down()
            with contextlib.suppress(Exception):
                await self.node.scripts.run("release", [ARENA_LEADER], [self.node.node])
        for w in self.pages.values():
            w.queue.put_nowait(None)

    # --- leading -------------------------------------------------------------------------------

    async def _beats(self) -> None:
        while True:
            try:
                await self._beat()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("arenas: a beat failed; going on")
            await asyncio.sleep(HEARTBEAT)

    async def _beat(self) -> None:
        """Keep (or take) the lead; on the leader, forget the pages of processes that died;
        elsewhere, have this process's pages watched by a new leader."""
        me = self.node.node
        if self.director is not None:
            asked = time.monotonic()
            if await self.node.scripts.run("renew", [ARENA_LEADER], [me, LEASE_MS]):
                self._held_since = asked
                await self._forget_dead_processes()
                self.processes = sorted({*await self.node.processes(), me})
            else:
                log.warning("arenas: this process no longer leads them")
                await self._step_down()
        leader = await self._leader()
        if leader is not None and leader != self.leader:
            self.leader = leader
            if leader != me:
                for wid, w in list(self.pages.items()):
                    self.node.spawn(self._watch_on_leader(wid, w))

    async def _leader(self) -> str | None:
        """The leading process: this one if none leads (or the leader has died)."""
        me = self.node.node
        redis = self.node.redis
        found = await redis.get(ARENA_LEADER)
        leader = None if found is None else str(found)
        if leader is not None and leader != me and not await self.node.alive(leader):
            # nobody listens on its channel: it died; its lease goes now, not in seconds
            await self.node.scripts.run("release", [ARENA_LEADER], [leader])
            leader = None
        asked = time.monotonic()
        if leader is None and await redis.set(ARENA_LEADER, me, nx=True, px=LEASE_MS):
            self._held_since = asked
            await self._step_up()
            leader = me
        return leader

    def holds_lease(self) -> bool:
        """Whether this process surely still leads: its lease was renewed less than half a
        lease ago. A process whose event loop stalls stops pairing before another process can
        take its lease (which runs out a whole lease after the last renewal), so two directors
        never pair at once."""
        return time.monotonic() - self._held_since < LEASE_MS / 2000

    async def _step_up(self) -> None:
        async with self._stepping:
            if self.director is not None:
                return
            director = self.make_director()
            await director.start()  # the arenas not frozen, from the database
            self.director = director
            log.info("arenas: led by this process (%s)", self.node.node)
            for w in list(self.pages.values()):
                try:
                    director.add_watcher(w)
                except ProtocolError:
                    w.queue.put_nowait(None)

    async def _step_down(self) -> None:
        async with self._stepping:
            director, self.director = self.director, None
            self.leader = None
            if director is not None:
                await director.stop()  # its pages close; they open again on the new leader
            self.remote.clear()

    async def _forget_dead_processes(self) -> None:
        assert self.director is not None
        for node in {n for n, _ in self.remote}:
            if not await self.node.alive(node):
                for key in [k for k in self.remote if k[0] == node]:
                    self.director.unwatch(self.remote.pop(key))

    # --- asking the leader ---------------------------------------------------------------------

    async def _ask(self, what: str, body: dict[str, Any]) -> Any:
        """The leader's answer to ``what`` (here if this process leads); ``unavailable`` if no
        process leads for a while, or the leader did not answer in time."""
        me = self.node.node
        for _ in range(RETRIES):
            if self.director is not None and self.holds_lease():
                return await self._answer(me, what, body)
            leader = self.leader or await self._leader()
            if leader is not None and leader != me:
                answer = await self._ask_process(leader, what, body)
                if answer is not None:
                    return _result(answer)
                # nobody heard it, or it no longer leads: the next beat finds the new leader
                # and has the pages watched there
                self.leader = None
            await asyncio.sleep(RETRY_SECONDS)
        raise ProtocolError("unavailable", "the arenas are moving to another process; try again")

    async def _ask_process(
        self, leader: str, what: str, body: dict[str, Any]
    ) -> dict[str, Any] | None:
        """``leader``'s answer, or ``None`` if nobody heard it or it no longer leads."""
        aid = strong_random.token_hex(8)
        waiting = self.asks[aid] = asyncio.get_running_loop().create_future()
        ask = {"id": aid, "from": self.node.node, "what": what, "body": body}
        try:
            heard = await self.node.redis.publish(
                node_channel(leader), command(Command.ARENA_ASK, json.dumps(ask))
            )
            if not heard:
                return None
            answer = await asyncio.wait_for(waiting, ASK_SECONDS)
        except TimeoutError:
            # it may have been done: asking again could do it twice (two arenas made)
            raise ProtocolError("unavailable", "the arenas did not answer; try again") from None
        finally:
            self.asks.pop(aid, None)
        if answer.get("error", {}).get("code") == "moved":
            return None
        return dict(answer)

    def heard(self, kind: Command, data: str) -> None:
        """A command of the arenas on this process's channel."""
        if kind is Command.ARENA_ASK:
            ask = json.loads(data[2:])
            self.node.spawn(self._answer_ask(ask))
        elif kind is Command.ARENA_ANSWER:
            answer = json.loads(data[2:])
            waiting = self.asks.pop(answer["id"], None)
            if waiting is not None and not waiting.done():
                waiting.set_result(answer)
        elif kind is Command.ARENA_VIEW:
            _, (wid, text) = parse(data, 2)
            page = self.pages.get(wid)
            if page is not None:
                page.deliver(text)
        elif kind is Command.ARENA_UNWATCH:
            _, (node, wid) = parse(data, 2)
            gone = self.remote.pop((node, wid), None)
            if gone is not None and self.director is not None:
                self.director.unwatch(gone)

    async def _answer_ask(self, ask: dict[str, Any]) -> None:
        out: dict[str, Any] = {"id": ask["id"]}
        try:
            if ask["what"] == "race":  # asked of any process, by the leader
                out["result"] = await self._race_asked(ask["body"])
            elif self.director is None or not self.holds_lease():
                raise ProtocolError("moved", "this process does not lead the arenas")
            else:
                out["result"] = await self._answer(ask["from"], ask["what"], ask["body"])
        except RateLimited as e:
            out["error"] = {"code": e.code, "message": e.message, "retry_after": e.retry_after}
        except ProtocolError as e:
            out["error"] = {"code": e.code, "message": e.message}
        except Exception:
            log.exception("arenas: an ask failed")
            out["error"] = {"code": "unavailable", "message": "the arenas failed; try again"}
        self.node.send(ask["from"], command(Command.ARENA_ANSWER, json.dumps(out)))

    async def _answer(self, node: str, what: str, body: dict[str, Any]) -> Any:
        """An ask of process ``node`` answered by this process's director."""
        director = self.director
        if director is None:
            raise ProtocolError("moved", "this process does not lead the arenas")
        if what != "watch":
            return await director.answer(what, body)
        wid = str(body["wid"])
        if node == self.node.node:
            page = self.pages.get(wid)
            if page is not None:
                director.add_watcher(page)
            return None
        stand_in = RemoteWatcher(
            str(body["arena"]), body["account"], node=node, wid=wid, send=self.node.send
        )
        old = self.remote.pop((node, wid), None)
        if old is not None:
            director.unwatch(old)
        director.add_watcher(stand_in)
        self.remote[(node, wid)] = stand_in
        return None

    async def _watch_on_leader(self, wid: str, w: Watcher) -> None:
        """Have page ``w`` watched by the leader; a page it refuses closes."""
        try:
            await self._ask("watch", {"wid": wid, "arena": w.arena, "account": w.account})
        except ProtocolError:
            self.unwatch(w)
            w.queue.put_nowait(None)

    # --- races' rooms, on every process ----------------------------------------------------------

    async def make_race(
        self, arena: Arena, number: int, people: Sequence[Seated], levels: Sequence[str]
    ) -> list[dict[str, Any]]:
        """On the leader (its director's :data:`~..online.arena_live.MakeRace`): the race's
        room made by the next live process in turn (here if that one does not answer)."""
        me = self.node.node
        processes = self.processes or [me]
        target = processes[self._dealt % len(processes)]
        self._dealt += 1
        if target != me:
            body = {
                "arena": dataclasses.asdict(arena),
                "number": number,
                "people": [dataclasses.asdict(p) for p in people],
                "levels": list(levels),
            }
            try:
                answer = await self._ask_process(target, "race", body)
            except ProtocolError:
                answer = None  # not in time: made here (the other room, if made, goes unused)
            if answer is not None and "error" not in answer:
                return list(answer["result"])
        return await self.race_here(arena, number, people, levels)

    async def _race_asked(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        a = dict(body["arena"])
        arena = Arena(**{**a, "format": Format(**a["format"])})
        people = [Seated(**p) for p in body["people"]]
        return await self.race_here(arena, int(body["number"]), people, list(body["levels"]))

    # --- the arenas, as the routes and rooms ask ------------------------------------------------

    async def listing(self) -> list[dict[str, Any]]:
        return list(await self._ask("listing", {}))

    async def make(
        self, title: str, fmt: Format, starts_at: float, made_by: int | None, private: bool
    ) -> str:
        body = {
            "title": title,
            "format": dataclasses.asdict(fmt),
            "starts_at": starts_at,
            "made_by": made_by,
            "private": private,
        }
        return str(await self._ask("make", body))

    async def page(self, arena_id: str, account: int | None) -> dict[str, Any]:
        return dict(await self._ask("page", {"arena": arena_id, "account": account}))

    async def results(self, arena_id: str) -> dict[str, Any]:
        return dict(await self._ask("results", {"arena": arena_id}))

    async def join(self, arena_id: str, account: int, name: str, addresses: list[str]) -> None:
        body = {"arena": arena_id, "account": account, "name": name, "addresses": addresses}
        await self._ask("join", body)

    async def pause(self, arena_id: str, account: int, paused: bool) -> None:
        await self._ask("pause", {"arena": arena_id, "account": account, "paused": paused})

    async def take_harder(self, arena_id: str, account: int, harder: bool) -> None:
        await self._ask("take_harder", {"arena": arena_id, "account": account, "harder": harder})

    async def withdraw(self, arena_id: str, account: int) -> None:
        await self._ask("withdraw", {"arena": arena_id, "account": account})

    async def watch(self, arena_id: str, account: int | None) -> Watcher:
        wid = strong_random.token_hex(6)
        w = self.pages[wid] = Watcher(arena_id, account)
        self.page_ids[w] = wid
        try:
            await self._ask("watch", {"wid": wid, "arena": arena_id, "account": account})
        except ProtocolError:
            self.unwatch(w)
            raise
        return w

    def unwatch(self, w: Watcher) -> None:
        wid = self.page_ids.pop(w, None)
        if wid is None:
            return
        del self.pages[wid]
        if self.director is not None:
            self.director.unwatch(w)
        elif self.leader is not None:
            self.node.send(self.leader, command(Command.ARENA_UNWATCH, self.node.node, wid))

    async def race_over(self, outcome: RaceOutcome) -> None:
        try:
            await self._ask("race_over", outcome.to_json())
        except ProtocolError as e:
            log.warning("arena %s: race %d not scored: %s", outcome.arena, outcome.race, e)


def _result(answer: dict[str, Any]) -> Any:
    """An answer's result, or its error raised as the leader raised it."""
    error = answer.get("error")
    if error is None:
        return answer.get("result")
    if "retry_after" in error:
        raise RateLimited(error["message"], float(error["retry_after"]), error["code"])
    raise ProtocolError(error["code"], error["message"])
