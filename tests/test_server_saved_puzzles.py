"""Saved puzzles and the community list (docs/editor.md) against a real ``ubongo serve`` on an
SQLite file: saving with a title, the link, publishing, plays, likes and reports counted once
per account, the moderators hiding a puzzle or its title; and a scripted cheater trying to
inflate plays and likes, report impossible times, save junk, read a private puzzle without
its link and go past the limits, each refused with a clear code and changing nothing."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import ServerProcess, server_in

from ubongo import puzzlefile
from ubongo.board import Placement, check_cover

#: a puzzle nobody plays, with one solution (3 pieces: the floor is 3 x 0.6 s)
FREE = {"edition": "classic", "area": [".##..", "####.", ".####", ".###."], "pieces": list("DIG")}
#: the same area turned over: another puzzle with one solution
OTHER = {"edition": "classic", "area": ["..##.", ".####", "####.", ".###."], "pieces": list("DIG")}
SAVED_A_DAY, PUBLISHED_A_DAY, KEPT = 4, 2, 5

_addresses = (f"198.51.100.{i}" for i in itertools.count(1))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("saved-puzzles")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[ServerProcess]:
    yield from server_in(
        folder,
        args=(
            "--accounts-per-hour=1000",
            f"--puzzles-saved-per-day={SAVED_A_DAY}",
            f"--puzzles-published-per-day={PUBLISHED_A_DAY}",
            f"--puzzles-per-account={KEPT}",
        ),
    )


class Player:
    """An account and the address it calls from."""

    def __init__(self, server: ServerProcess, name: str) -> None:
        self.server = server
        self.address = next(_addresses)
        status, body = server.post("/api/accounts", {"name": name}, address=self.address)
        assert status == 201, body
        self.id, self.token = body["id"], body["token"]

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        return self.server.request(method, path, body, self.token, self.address)

    def save(self, puzzle: Any = FREE, title: str = "Stairs", **more: Any) -> tuple[int, Any]:
        return self.call("POST", "/api/puzzles", {"puzzle": puzzle, "title": title, **more})

    def play(self, pid: str, outcome: str, seconds: Any) -> tuple[int, Any]:
        return self.call(
            "POST", f"/api/puzzles/{pid}/plays", {"outcome": outcome, "seconds": seconds}
        )


def refused(answer: tuple[int, Any], status: int, code: str) -> str:
    assert (answer[0], answer[1].get("error", {}).get("code")) == (status, code), answer
    return str(answer[1]["error"]["message"])


def listed(server: ServerProcess, sort: str = "newest") -> list[dict[str, Any]]:
    puzzles: list[dict[str, Any]] = server.get(f"/api/puzzles?edition=classic&sort={sort}")[
        "puzzles"
    ]
    return puzzles


def test_a_saved_puzzle_is_played_by_its_link_and_listed_once_published(
    server: ServerProcess,
) -> None:
    ann, bob = Player(server, "Ann"), Player(server, "Bob")
    status, page = ann.save(title="  Ann's   stairs ")
    assert status == 201, page
    pid, summary = page["summary"]["id"], page["summary"]
    assert len(pid) == 12 and summary["title"] == "Ann's stairs" and summary["author"] == ann.id
    assert (summary["pieces"], summary["grade"], summary["published"]) == (3, "A", False)
    assert page["mine"] and page["solutions"] == 1 and page["piece_ids"] == list("DIG")
    assert summary["stats"] == {
        "plays": 0,
        "solves": 0,
        "solve_rate": None,
        "median_seconds": None,
        "likes": 0,
    }
    # private: reached by its link, listed nowhere but in its author's own list
    assert pid not in [p["id"] for p in listed(server)]
    status, seen = bob.call("GET", f"/api/puzzles/{pid}")
    assert status == 200 and not seen["mine"] and seen["played"] is None, seen
    assert [p["id"] for p in ann.call("GET", "/api/puzzles/mine")[1]["puzzles"]] == [pid]
    # the solution covers the area, as a player's board would check it
    status, answer = bob.call("GET", f"/api/puzzles/{pid}/solution")
    assert status == 200, answer
    puzzle = puzzlefile.from_json(FREE)
    placements = [
        Placement(p["piece"], p["transform"], tuple(p["offset"])) for p in answer["solution"]
    ]
    assert check_cover(puzzle.area, list(puzzle.pieces), placements).ok
    # a play, then published: listed with its play count
    status, stats = bob.play(pid, "solved", 21.5)
    assert status == 200 and (stats["plays"], stats["solves"], stats["median_seconds"]) == (
        1,
        1,
        21.5,
    )
    status, page = ann.call("PUT", f"/api/puzzles/{pid}/published", {"published": True})
    assert status == 200 and page["summary"]["published"], page
    shown = next(p for p in listed(server) if p["id"] == pid)
    assert shown["stats"]["plays"] == 1 and shown["author_name"] == "Ann"
    status, liked = bob.call("PUT", f"/api/puzzles/{pid}/like", {"liked": True})
    assert status == 200 and liked["likes"] == 1
    assert bob.call("GET", f"/api/puzzles/{pid}")[1]["liked"] is True


def test_the_list_sorts_by_newest_most_played_and_best_liked(server: ServerProcess) -> None:
    cy, fans = Player(server, "Cy"), [Player(server, f"Fan {i}") for i in range(2)]
    first = cy.save(FREE, "First", published=True)[1]["summary"]["id"]
    second = cy.save(OTHER, "Second", published=True)[1]["summary"]["id"]
    for fan in fans:
        assert fan.play(first, "gave_up", 40)[0] == 200
    assert fans[0].play(second, "helped", 30)[0] == 200
    assert fans[0].call("PUT", f"/api/puzzles/{second}/like", {"liked": True})[0] == 200

    def order(sort: str) -> list[str]:
        return [p["id"] for p in listed(server, sort) if p["id"] in (first, second)]

    assert order("newest") == [second, first]
    assert order("played") == [first, second]
    assert order("liked") == [second, first]
    stats = next(p for p in listed(server) if p["id"] == first)["stats"]
    assert (stats["plays"], stats["solves"], stats["solve_rate"]) == (2, 0, 0.0)
    assert cy.call("GET", "/api/puzzles?edition=chess")[0] == 404


def test_a_scripted_cheater_changes_nothing(server: ServerProcess) -> None:
    """One account's script: plays and likes again and again, impossible times, its own
    puzzle's plays, likes before playing, junk saved, a private puzzle asked for by guesses."""
    ann, eve = Player(server, "Author"), Player(server, "Eve")
    pid = ann.save(FREE, "Target")[1]["summary"]["id"]
    # impossible times: each refused, nothing counted
    for seconds in (0.5, 1.79, 0, -3, 10**9):
        refused(eve.play(pid, "solved", seconds), 422, "bad_play")
    assert "faster than a hand places 3 pieces" in refused(
        eve.play(pid, "solved", 1), 422, "bad_play"
    )
    refused(eve.play(pid, "solved", "fast"), 422, "bad_message")
    refused(eve.play(pid, "won", 20), 422, "bad_message")
    # a like before a play; the author's own play and like
    refused(eve.call("PUT", f"/api/puzzles/{pid}/like", {"liked": True}), 403, "not_played")
    refused(ann.play(pid, "solved", 30), 403, "own_puzzle")
    refused(ann.call("PUT", f"/api/puzzles/{pid}/like", {"liked": True}), 403, "own_puzzle")
    assert ann.call("GET", f"/api/puzzles/{pid}")[1]["summary"]["stats"]["plays"] == 0
    # one play counts; the script's next ones do not, whatever they say
    assert eve.play(pid, "solved", 2.0)[0] == 200
    for outcome in ("solved", "gave_up", "helped"):
        refused(eve.play(pid, outcome, 5.0), 409, "already_played")
    for _ in range(3):
        assert eve.call("PUT", f"/api/puzzles/{pid}/like", {"liked": True})[0] == 200
    stats = ann.call("GET", f"/api/puzzles/{pid}")[1]["summary"]["stats"]
    assert (stats["plays"], stats["solves"], stats["likes"], stats["median_seconds"]) == (
        1,
        1,
        1,
        2.0,
    )
    # reports: once per account
    assert eve.call("POST", f"/api/puzzles/{pid}/report", {"reason": "rude"})[1]["reported"]
    assert not eve.call("POST", f"/api/puzzles/{pid}/report", {"reason": "rude"})[1]["reported"]
    refused(ann.call("POST", f"/api/puzzles/{pid}/report", {"reason": "x"}), 403, "own_puzzle")
    # a private puzzle without its link: not listed, not found by a guess near it
    # (an id with no capital letter is its own lower case, about one in 500: not a guess)
    near = (pid[:-1] + ("A" if pid[-1] != "A" else "B"), pid.lower(), pid.upper())
    for guess in [g for g in near if g != pid] + ["x" * 17, "mine1"]:
        status, answer = eve.call("GET", f"/api/puzzles/{guess}")
        assert status in (404, 422) and answer["error"]["code"] in ("no_puzzle", "bad_message")
    assert pid not in [p["id"] for p in listed(server)]
    assert pid not in [p["id"] for p in eve.call("GET", "/api/puzzles/mine")[1]["puzzles"]]
    # someone else's puzzle cannot be published, nor its solution read without an account
    refused(eve.call("PUT", f"/api/puzzles/{pid}/published", {"published": True}), 404, "no_puzzle")
    refused(server.request("GET", f"/api/puzzles/{pid}/solution"), 401, "bad_token")
    refused(
        server.request("POST", f"/api/puzzles/{pid}/plays", {"outcome": "solved", "seconds": 9}),
        401,
        "bad_token",
    )


#: junk to save, each with the status and code of its refusal
JUNK: list[tuple[dict[str, Any], int, str]] = [
    ({"puzzle": {**FREE, "pieces": list("DIA")}, "title": "Short"}, 422, "unsolvable"),
    ({"puzzle": {**FREE, "area": ["#"], "pieces": ["A"]}, "title": "One"}, 422, "unsolvable"),
    ({"puzzle": {**FREE, "pieces": ["Z"]}, "title": "Zed"}, 422, "bad_puzzle"),
    ({"puzzle": {**FREE, "pieces": [{"id": "a", "cells": [[0, 0], [1, 0]]}]}, "title": "Own"},
     422, "bad_puzzle"),
    ({"puzzle": {**FREE, "area": [[0, 0], [10**9, 0]]}, "title": "Far"}, 422, "bad_puzzle"),
    ({"puzzle": FREE, "title": "Bot 2 (hard)"}, 422, "name_reserved"),
    ({"puzzle": FREE, "title": " \u0000 "}, 422, "bad_message"),
    ({"puzzle": FREE, "title": "x" * 201}, 422, "bad_message"),
    ({"puzzle": FREE, "title": "Fine", "extra": 1}, 422, "bad_message"),
    ({"puzzle": "classic", "title": "Fine"}, 422, "bad_message"),
]  # fmt: skip


def test_junk_is_not_saved(server: ServerProcess) -> None:
    gus = Player(server, "Gus")
    for body, status, code in JUNK:
        refused(gus.call("POST", "/api/puzzles", body), status, code)
    refused(
        server.request("POST", "/api/puzzles", {"puzzle": FREE, "title": "No one"}),
        401,
        "bad_token",
    )
    # a task being played (today's daily) is not saved: its page would give its solution
    today = server.get("/api/daily?edition=classic")["tasks"][0]
    refused(gus.save(today, "Daily"), 403, "no_help")
    assert gus.call("GET", "/api/puzzles/mine")[1]["puzzles"] == []


def test_the_limits_per_account(server: ServerProcess) -> None:
    hal = Player(server, "Hal")
    ids = []
    for i in range(SAVED_A_DAY):
        status, page = hal.save(FREE if i % 2 else OTHER, f"Puzzle {i}")
        assert status == 201, page
        ids.append(page["summary"]["id"])
    message = refused(hal.save(FREE, "One more"), 429, "puzzle_limit")
    assert f"at most {SAVED_A_DAY} puzzles saved a day" in message
    # publishing: at most so many first publications a day; taking one back and listing it
    # again spends nothing and does not move it up the newest
    for pid in ids[:PUBLISHED_A_DAY]:
        assert hal.call("PUT", f"/api/puzzles/{pid}/published", {"published": True})[0] == 200
    third = hal.call("PUT", f"/api/puzzles/{ids[2]}/published", {"published": True})
    assert "puzzles published a day" in refused(third, 429, "puzzle_limit")
    before = [p["id"] for p in listed(server)]
    for published in (False, True):
        assert (
            hal.call("PUT", f"/api/puzzles/{ids[0]}/published", {"published": published})[0] == 200
        )
    assert [p["id"] for p in listed(server)] == before
    assert not hal.call("GET", f"/api/puzzles/{ids[2]}")[1]["summary"]["published"]


RUN = "import sys; from ubongo.cli import main; sys.exit(main())"


def review(server: ServerProcess, *args: str) -> str:
    """``ubongo review`` on the server's database, as a moderator runs it."""
    done = subprocess.run(
        [sys.executable, "-c", RUN, "review", *args, "--database-url", server.database_url],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout


def test_a_moderator_hides_a_reported_puzzle_or_its_title(server: ServerProcess) -> None:
    ivy, jon = Player(server, "Ivy"), Player(server, "Jon")
    pid = ivy.save(OTHER, "Rude words", published=True)[1]["summary"]["id"]
    assert jon.call("POST", f"/api/puzzles/{pid}/report", {"reason": "a rude title"})[0] == 200
    shown = review(server, "puzzles")
    assert pid in shown and "'a rude title'" in shown
    review(server, "hide-puzzle", pid, "--title", "--by", "mod", "--note", "rude")
    page = jon.call("GET", f"/api/puzzles/{pid}")[1]
    assert page["summary"]["title"] is None and not page["hidden"]
    review(server, "hide-puzzle", pid, "--by", "mod")
    refused(jon.call("GET", f"/api/puzzles/{pid}"), 404, "no_puzzle")
    refused(jon.play(pid, "solved", 20), 404, "no_puzzle")
    assert pid not in [p["id"] for p in listed(server)]
    # its author still sees it, hidden
    assert ivy.call("GET", f"/api/puzzles/{pid}")[1]["hidden"] is True
    assert f'"puzzle": "{pid}"' in review(server, "log")


def test_only_its_author_deletes_a_puzzle_and_its_plays_go_with_it(
    server: ServerProcess,
) -> None:
    cleo, dan = Player(server, "Cleo"), Player(server, "Dan")
    status, page = cleo.save(title="Short lived", published=True)
    assert status == 201, page
    pid = page["summary"]["id"]
    keep = cleo.save(OTHER, "Kept")[1]["summary"]["id"]
    assert dan.play(pid, "gave_up", 30.0)[0] == 200
    assert dan.call("PUT", f"/api/puzzles/{pid}/like", {"liked": True})[0] == 200
    assert dan.call("POST", f"/api/puzzles/{pid}/report", {"reason": "meh"})[0] == 200
    status, pack = cleo.call("POST", "/api/packs", {"title": "Both", "puzzles": [pid, keep]})
    assert status == 201, pack
    # anybody else: as if it were not there, and nothing changes
    refused(dan.call("DELETE", f"/api/puzzles/{pid}"), 404, "no_puzzle")
    refused(server.request("DELETE", f"/api/puzzles/{pid}"), 401, "bad_token")
    assert dan.call("GET", f"/api/puzzles/{pid}")[0] == 200
    # its author: gone, with its play, like and report; the pack leaves it out
    assert cleo.call("DELETE", f"/api/puzzles/{pid}") == (200, {"deleted": pid})
    refused(dan.call("GET", f"/api/puzzles/{pid}"), 404, "no_puzzle")
    refused(cleo.call("DELETE", f"/api/puzzles/{pid}"), 404, "no_puzzle")
    refused(dan.play(pid, "gave_up", 30.0), 404, "no_puzzle")
    assert pid not in [p["id"] for p in listed(server)]
    assert [p["id"] for p in cleo.call("GET", "/api/puzzles/mine")[1]["puzzles"]] == [keep]
    status, seen = dan.call("GET", f"/api/packs/{pack['id']}")
    assert status == 200 and [p["id"] for p in seen["puzzles"]] == [keep], seen
    assert seen["left_out"] == 1
    assert pid not in review(server, "puzzles")
