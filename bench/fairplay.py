"""Red-team bench of fair play (docs/fair-play.md): cheaters' scripts and honest players against
a real ``ubongo serve``, each a rated quick match against a bot, and what became of them.

Kinds of play, ``--runs`` of each, all at once (each in its own thread and room):

* ``instant``: the solver's answer as soon as the task is dealt, no trace;
* ``paced``: the answer after 0.3-1 s per piece, no trace (the probe's daily script);
* ``paced+trace``: the same with a made-up trace: each piece picked and placed once, evenly;
* ``paced+jitter+trace``: 0.3-1 s per piece with jitter, and a made-up trace with random
  extra moves (turns, a wrong try taken back) and a pause before the first piece;
* ``patient+trace``: the answer at a fast person's time (30-60 % of the median player's), with
  a made-up trace with a hand's habits: the cheat that waits;
* ``leaver``: leaves as soon as the task is dealt (the dodge): is the loss counted?
* ``hint``: asks ``POST /api/hint`` for its task (then plays paced with a trace);
* ``honest``: a person as the bots' timing model has one (``ubongo.rules.bots.PERSON``: the
  task's median time, log-normal with sigma 0.4, players' speeds spread from 0.5 to 1.5 of
  the median), and a hand's trace: a look at the task first, turns before placing, one wrong
  try in four pieces taken back, pauses of varying length. The web tests drive the real page
  with a pointer and prove its traces consistent; this is what the server sees of a person.

For each kind it prints how many runs were rated, held (for review), unrated (and why) and,
for the leaver, whether the loss counted; with the time each took against the task's median
player. Goal (issue #23): every server hole closed (0 rated), paced and made-up scripts at
least 95 % held or unrated, honest runs at most 1 % held.

    .venv/bin/python bench/fairplay.py                # 20 runs of each kind (about 5 minutes)
    .venv/bin/python bench/fairplay.py --runs 5       # a quick look
    .venv/bin/python bench/fairplay.py --offline 10000  # many more, judged without a server

``--offline N`` plays N runs of each kind that plays a task on the shipped Classic deck's tasks
(random ones) through the server's own checks (``online/traces.check``, the floor per piece,
``online/plausibility.judge``) without a server or the waiting: the same scripts and the same
honest model, in numbers large enough for the 1 % and 95 % goals. The server runs above show
the same checks at work end to end.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server_harness import Client, ServerProcess, solution

from ubongo import editions

EDITION = editions.names()[0]
Step = dict[str, Any]


def made_up(placements: list[dict[str, Any]], seconds: float, rng: random.Random) -> list[Step]:
    """A script's trace: each piece picked and placed once, evenly over ``seconds``."""
    gap = seconds / max(len(placements), 1)
    steps: list[Step] = []
    for i, p in enumerate(placements):
        steps.append({"t": round(i * gap + gap * 0.3, 3), "op": "pick", "piece": p["piece"]})
        steps.append({"t": round((i + 1) * gap - 0.01, 3), "op": "place", **p})
    return steps


def human_like(placements: list[dict[str, Any]], seconds: float, rng: random.Random) -> list[Step]:
    """A trace with a hand's habits over ``seconds``: a look first, turns, a wrong try taken
    back now and then, uneven pauses (what the jittered script adds, and what people do)."""
    events: list[tuple[str, dict[str, Any]]] = []
    for p in placements:
        events.append(("pick", {"piece": p["piece"]}))
        for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
            events.append(("turn", {"piece": p["piece"], "transform": rng.randrange(8)}))
        if rng.random() < 0.25:
            wrong = {**p, "offset": [v + 1 for v in p["offset"]]}
            events.append(("place", wrong))
            events.append(("lift", {"piece": p["piece"]}))
            events.append(("pick", {"piece": p["piece"]}))
        events.append(("place", dict(p)))
    look = rng.uniform(0.15, 0.3) * seconds
    weights = [rng.expovariate(1.0) + 0.2 for _ in events]
    scale = (seconds - look) * 0.97 / sum(weights)
    t, steps = look, []
    for (op, data), w in zip(events, weights, strict=True):
        t += w * scale
        steps.append({"t": round(t, 3), "op": op, **data})
    return steps


class Run:
    """One run of a kind: its account, quick match and game, and what became of it."""

    def __init__(self, server: ServerProcess, kind: str, n: int, rng: random.Random) -> None:
        self.server, self.kind, self.n, self.rng = server, kind, n, rng
        self.outcome = "?"
        self.share: float | None = None
        self.hint_status: int | None = None

    def play(self, pace: Callable[[dict[str, Any]], tuple[float, Any]] | None) -> None:
        """Play the task: ``pace`` says when to submit (seconds after the deal) and with what
        trace; ``None``: leave at once."""
        try:
            self._play(pace)
        except Exception as e:  # a run that broke is reported as such, not lost
            self.outcome = f"broke: {type(e).__name__}"

    def _play(self, pace: Callable[[dict[str, Any]], tuple[float, Any]] | None) -> None:
        name = f"{self.kind[:12]} {self.n}"
        status, self.account = self.server.post("/api/accounts", {"name": name})
        assert status == 201, self.account
        status, self.seat = self.server.post(
            "/api/quickmatch", {"edition": EDITION, "players": 2}, self.account["token"]
        )
        assert status == 201, self.seat
        c = Client(self.server)
        welcome = c.hello(self.seat["code"], self.seat["token"])
        dealt = time.monotonic()
        game = (welcome["room"] or {}).get("game")
        if not game or not game.get("tasks"):  # not dealt yet: wait for the deal
            game = c.event("round_started", timeout=60)["room"]["game"]
            dealt = time.monotonic()
        task = game["tasks"][str(self.seat["seat"])]
        if pace is None:
            c.send({"type": "leave"})
            c.close()
            self.outcome = self._left()
            return
        if self.kind == "hint":
            puzzle = {"edition": EDITION, "area": task["area"], "pieces": task["pieces"]}
            status, _ = self.server.post("/api/hint", {"puzzle": puzzle}, self.account["token"])
            self.hint_status = status
        placements = solution(task, EDITION)
        seconds, trace = pace({"task": task, "placements": placements})
        time.sleep(max(0.0, seconds - (time.monotonic() - dealt)))
        message: dict[str, Any] = {"type": "submit", "round": game["round"]}
        message["placements"] = placements
        if trace is not None:
            message["trace"] = trace
        c.reply(message, "verdict")
        self.share = (time.monotonic() - dealt) / task["difficulty"]
        over = c.wait(lambda m: m.get("kind") in ("playoff", "game_over"), 300)
        while over["kind"] == "playoff":  # a tie on points: the playoff's task, the same way
            game, dealt = over["room"]["game"], time.monotonic()
            task = game["tasks"][str(self.seat["seat"])]
            placements = solution(task, EDITION)
            seconds, trace = pace({"task": task, "placements": placements})
            time.sleep(max(0.0, seconds - (time.monotonic() - dealt)))
            message = {"type": "submit", "round": game["round"], "placements": placements}
            if trace is not None:
                message["trace"] = trace
            c.reply(message, "verdict")
            over = c.wait(lambda m: m.get("kind") in ("playoff", "game_over"), 300)
        c.close()
        stored = self.server.get(f"/api/games/{over['data']['game_id']}")
        why = stored["result"].get("unrated", {}).get(str(self.seat["seat"]))
        self.outcome = "rated" if why is None else "held" if why == "held" else f"unrated: {why}"

    def _left(self) -> str:
        """Wait for the game's end (the bot plays the seat out): was the loss counted?"""
        end = time.monotonic() + 400
        while time.monotonic() < end:
            profile = self.server.get(f"/api/accounts/{self.account['id']}")
            history = profile["history"].get(EDITION, [])
            if history:
                return "loss counted" if history[0]["after"] < history[0]["before"] else "no loss"
            time.sleep(0.5)
        return "never stored"


def paced(rng: random.Random, trace: Callable[..., list[Step]] | None, jitter: bool) -> Any:
    def pace(play: dict[str, Any]) -> tuple[float, Any]:
        pieces = len(play["placements"])
        per = rng.uniform(0.3, 1.0)
        seconds = sum(per * (rng.uniform(0.6, 1.4) if jitter else 1.0) for _ in range(pieces))
        return seconds, None if trace is None else trace(play["placements"], seconds, rng)

    return pace


def patient(rng: random.Random) -> Any:
    """The cheat that waits: the solver's answer at a fast person's time (30-60 % of the
    median player's), with a hand's trace made up."""

    def pace(play: dict[str, Any]) -> tuple[float, Any]:
        seconds = play["task"]["difficulty"] * rng.uniform(0.3, 0.6)
        return seconds, human_like(play["placements"], seconds, rng)

    return pace


def honest(rng: random.Random) -> Any:
    def pace(play: dict[str, Any]) -> tuple[float, Any]:
        speed = math.exp(rng.uniform(math.log(0.5), math.log(1.5)))
        seconds = play["task"]["difficulty"] * speed * math.exp(rng.gauss(0.0, 0.4))
        return seconds, human_like(play["placements"], seconds, rng)

    return pace


KINDS: dict[str, Callable[[random.Random], Any]] = {
    "instant": lambda rng: lambda play: (0.0, None),
    "paced": lambda rng: paced(rng, None, jitter=False),
    "paced+trace": lambda rng: paced(rng, made_up, jitter=False),
    "paced+jitter+trace": lambda rng: paced(rng, human_like, jitter=True),
    "patient+trace": patient,
    "leaver": lambda rng: None,
    "hint": lambda rng: paced(rng, made_up, jitter=True),
    "honest": honest,
}


def offline(runs: int, seed: int) -> None:
    """``runs`` of each playing kind judged by the server's own functions, without a server."""
    from ubongo.board import Placement
    from ubongo.puzzles.deck import standard_deck
    from ubongo.server.config import ServerConfig
    from ubongo.server.online.plausibility import judge
    from ubongo.server.online.traces import Step as TraceStep
    from ubongo.server.online.traces import TraceNote, check

    config = ServerConfig()
    tasks = [t for c in standard_deck(EDITION).cards for s in c.sides for t in s.tasks]
    print(f"offline: {runs} runs of each kind on the shipped {EDITION} deck's {len(tasks)} tasks")
    print("| kind | runs | rated | held | unrated (too fast / no or bad trace) |")
    print("|---|---|---|---|---|")
    for kind in (
        "instant",
        "paced",
        "paced+trace",
        "paced+jitter+trace",
        "patient+trace",
        "honest",
    ):
        counts: Counter[str] = Counter()
        for n in range(runs):
            rng = random.Random(f"{seed}/{kind}/{n}")
            task = rng.choice(tasks)
            placed: list[dict[str, Any]] = [
                {"piece": p, "transform": rng.randrange(8), "offset": [i, rng.randrange(3)]}
                for i, p in enumerate(task.pieces)
            ]
            seconds, trace = KINDS[kind](rng)(
                {"task": {"difficulty": task.difficulty}, "placements": placed}
            )
            if seconds < len(task.pieces) * config.record_seconds_per_piece:
                counts["too fast"] += 1
                continue
            steps = None if trace is None else [TraceStep.from_json(x) for x in trace]
            answer = [Placement(p["piece"], p["transform"], tuple(p["offset"])) for p in placed]
            fault = check(steps, answer, seconds, config.trace_seconds_per_move)
            if fault is not None:
                counts["no or bad trace"] += 1
                continue
            note = TraceNote(
                "0", 1, 0, "A", len(task.pieces), task.difficulty, seconds, None, tuple(steps or ())
            )
            counts["held" if judge([note]).held else "rated"] += 1
        unrated = counts["too fast"] + counts["no or bad trace"]
        print(
            f"| {kind} | {runs} | {_share(counts['rated'], runs)} | {_share(counts['held'], runs)}"
            f" | {_share(unrated, runs)} ({counts['too fast']} / {counts['no or bad trace']}) |"
        )


def _share(n: int, runs: int) -> str:
    return f"{n} ({100 * n / max(runs, 1):.1f} %)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--offline",
        type=int,
        default=0,
        metavar="N",
        help="N runs of each kind judged without a server",
    )
    args = parser.parse_args()
    if args.offline:
        offline(args.offline, args.seed)
        return 0
    folder = Path(tempfile.mkdtemp(prefix="fairplay-"))
    server = ServerProcess(
        f"sqlite:///{folder / 'fairplay.sqlite3'}",
        log=folder / "server.log",
        args=(
            "--quickmatch-wait=0.5",
            '--quickmatch-settings={"rounds": 1, "hourglass_seconds": 240}',
            "--accounts-per-hour=100000",
            "--rooms-per-minute=100000",
            "--hints-per-minute-per-address=100000",
            "--connections-per-address=100000",
        ),
    ).start()
    started = time.monotonic()
    try:
        runs: list[Run] = []
        threads: list[threading.Thread] = []
        for kind, make in KINDS.items():
            for n in range(args.runs):
                rng = random.Random(f"{args.seed}/{kind}/{n}")
                run = Run(server, kind, n, rng)
                runs.append(run)
                threads.append(threading.Thread(target=run.play, args=(make(rng),)))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        server.stop()
    print(f"fair-play red team: {args.runs} runs of each kind, rated quick matches against a bot")
    print(f"({time.monotonic() - started:.0f} s, one server, {EDITION})\n")
    print("| kind | runs | outcome | time / median player's (median) |")
    print("|---|---|---|---|")
    for kind in KINDS:
        mine = [r for r in runs if r.kind == kind]
        outcomes = Counter(r.outcome for r in mine)
        shares = [r.share for r in mine if r.share is not None]
        told = ", ".join(f"{n} {what}" for what, n in sorted(outcomes.items()))
        if kind == "hint":
            refused = sum(1 for r in mine if r.hint_status == 403)
            told += f"; hint refused {refused} of {len(mine)}"
        share = f"{statistics.median(shares):.2f}" if shares else "-"
        print(f"| {kind} | {len(mine)} | {told} | {share} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
