"""The community list's rating, pages and packs, and pack editing (docs/editor.md, "Rated by
play", "The community list", "Packs") against a real ``ubongo serve`` on an SQLite file:

* a saved puzzle's rating is learned from its plays with endless's arithmetic (the same
  numbers as :func:`ubongo.server.online.puzzle_ratings.learn`), shown after 3 plays, and
  ``sort=rating`` puts the hardest first; a scripted cheater with a second account of its
  address (the author's, or a player's whose play or like counted) adds no play, solve, like
  or lesson;
* the list comes in pages of 20 (``more``), and no page shows a hidden puzzle, however far
  one pages;
* listed packs are in the list of their edition with their puzzles' plays and likes;
* a pack's maker renames it, reorders, adds and removes puzzles under the rules of making one,
  and deletes it; anyone else is ``403 not_your_pack``, and nothing changes.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from typing import Any

import pytest
from server_harness import ServerProcess, server_in
from test_server_saved_puzzles import review

from ubongo.puzzles.deck import standard_deck
from ubongo.server.online import puzzle_ratings
from ubongo.server.store import Decided, Store

#: Classic puzzles with one solution each (3 pieces: the fair-play floor is 1.8 s)
EASY = {"edition": "classic", "area": [".##..", "####.", ".####", ".###."], "pieces": list("DIG")}
HARD = {"edition": "classic", "area": ["..##.", ".####", "####.", ".###."], "pieces": list("DIG")}
_addresses = (f"203.0.113.{i}" for i in itertools.count(1))


def deck_puzzle(edition: str) -> dict[str, Any]:
    """A task of ``edition``'s standard deck as a puzzle file (solvable, by the deck)."""
    side = standard_deck(edition).cards[0].sides[0]
    cells = [list(c) for c in sorted(side.area.cells)]
    return {"edition": edition, "area": cells, "pieces": list(side.tasks[0].pieces)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from server_in(
        tmp_path_factory.mktemp("community-lists"),
        args=(
            "--accounts-per-hour=1000",
            "--puzzles-saved-per-day=100",
            "--puzzles-published-per-day=100",
            "--puzzles-per-account=100",
        ),
    )


class Player:
    """An account and the address it calls from (``address``: another account's)."""

    def __init__(self, server: ServerProcess, name: str, address: str | None = None) -> None:
        self.server = server
        self.address = address or next(_addresses)
        status, body = server.post("/api/accounts", {"name": name}, address=self.address)
        assert status == 201, body
        self.id, self.token = body["id"], body["token"]

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        return self.server.request(method, path, body, self.token, self.address)

    def publish(self, puzzle: dict[str, Any], title: str = "Stairs") -> str:
        body = {"puzzle": puzzle, "title": title, "published": True}
        status, page = self.call("POST", "/api/puzzles", body)
        assert status == 201, page
        return str(page["summary"]["id"])

    def play(self, pid: str, outcome: str, seconds: float) -> tuple[int, Any]:
        body = {"outcome": outcome, "seconds": seconds}
        return self.call("POST", f"/api/puzzles/{pid}/plays", body)


def like(player: Player, pid: str, liked: bool = True) -> dict[str, Any]:
    """The puzzle's stats after ``player`` likes it (or takes the like back)."""
    status, stats = player.call("PUT", f"/api/puzzles/{pid}/like", {"liked": liked})
    assert status == 200, stats
    return dict(stats)


def summary(player: Player, pid: str) -> dict[str, Any]:
    status, page = player.call("GET", f"/api/puzzles/{pid}")
    assert status == 200, page
    return dict(page["summary"])


def learned(seconds: float, plays: list[bool]) -> int:
    """The rating endless's arithmetic makes of plays by new players (True: solved in time)."""
    rating = None
    for in_time in plays:
        rating = puzzle_ratings.learn(
            rating, "classic", seconds, None, solved_in_time=in_time, at=0
        )
    assert rating is not None
    return round(rating[0])


def test_a_puzzle_is_rated_by_its_plays_and_the_hardest_come_first(
    server: ServerProcess,
) -> None:
    ann = Player(server, "Ann")
    easy, hard = ann.publish(EASY, "Easy"), ann.publish(HARD, "Hard")
    easy_s, hard_s = (summary(ann, pid)["model_seconds"] for pid in (easy, hard))
    for n in range(3):
        player = Player(server, f"Rater {n}")
        assert player.play(easy, "solved", 5.0)[0] == 200
        assert player.play(hard, "gave_up", 100.0)[0] == 200
        seen = summary(player, hard)
        assert seen["rated_plays"] == n + 1
        # shown from the third play on: fewer say too little
        assert (seen["rating"] is None) == (n < 2), seen
    assert summary(ann, easy)["rating"] == learned(easy_s, [True] * 3)
    assert summary(ann, hard)["rating"] == learned(hard_s, [False] * 3)
    assert learned(easy_s, [True] * 3) < learned(hard_s, [False] * 3)
    listed = server.get("/api/puzzles?edition=classic&sort=rating")["puzzles"]
    assert [p["id"] for p in listed[:2]] == [hard, easy]
    assert all(p["rating"] is None for p in listed[2:])


def test_a_second_account_of_one_address_counts_and_teaches_nothing(
    server: ServerProcess,
) -> None:
    ann = Player(server, "Author")
    pid = ann.publish(EASY, "Mine")
    # the author's second account, made at the author's address: its play is kept (it may
    # like it then), but counts nothing and teaches nothing
    sock = Player(server, "Sock", address=ann.address)
    assert sock.play(pid, "gave_up", 50.0)[0] == 200
    assert like(sock, pid)["likes"] == 0
    seen = summary(ann, pid)
    assert (seen["stats"]["plays"], seen["stats"]["likes"], seen["rated_plays"]) == (0, 0, 0)
    bob = Player(server, "Bob")
    assert bob.play(pid, "gave_up", 50.0)[0] == 200
    assert summary(ann, pid)["rated_plays"] == 1
    # a second account made at Bob's address, and a third made elsewhere that plays from it
    twin = Player(server, "Twin", address=bob.address)
    assert twin.play(pid, "gave_up", 50.0)[0] == 200
    roamer = Player(server, "Roamer")
    roamer.address = bob.address
    assert roamer.play(pid, "solved", 9.0)[0] == 200
    # and Bob's own second report: refused, nothing taught
    assert bob.play(pid, "gave_up", 60.0)[1]["error"]["code"] == "already_played"
    seen = summary(ann, pid)
    assert (seen["stats"]["plays"], seen["rated_plays"]) == (1, 1), seen
    # the roamer's solve at Bob's address is no solve of the puzzle's figures either
    assert (seen["stats"]["solves"], seen["stats"]["median_seconds"]) == (0, None), seen
    # likes the same: the twin's first, then Bob's: one counts. The twin takes it back, and
    # Bob's like stays uncounted (as it was made); liked again, with no counted like at the
    # address left, it counts
    assert like(twin, pid)["likes"] == 1
    assert like(bob, pid)["likes"] == 1
    assert like(twin, pid, False)["likes"] == 0
    assert like(bob, pid, False)["likes"] == 0
    assert like(bob, pid)["likes"] == 1
    # what it learned is Bob's one play (not shown yet: one play says too little)
    assert summary(bob, pid)["rating"] is None
    store = Store(server.database_url)
    try:
        row = store.puzzles.get(pid)
        assert row is not None and row.rating is not None
        once = puzzle_ratings.learn(None, "classic", row.seconds, None, solved_in_time=False, at=0)
        assert row.rating == pytest.approx(once[0])
    finally:
        store.close()


def test_a_script_of_many_accounts_at_one_address_tops_no_list(server: ServerProcess) -> None:
    maker = Player(server, "Maker")
    honest, scripted = (
        maker.publish(deck_puzzle("trigo"), "Honest"),
        maker.publish(deck_puzzle("trigo"), "Scripted"),
    )
    for n in range(2):  # two players at two addresses
        player = Player(server, f"Fan {n}")
        assert player.play(honest, "gave_up", 40.0)[0] == 200
        like(player, honest)
    # a script: eight fresh accounts at one address, each playing and liking
    address = next(_addresses)
    for n in range(8):
        sock = Player(server, f"Script {n}", address=address)
        assert sock.play(scripted, "gave_up", 40.0)[0] == 200
        like(sock, scripted)
    for order, figure in (("played", "plays"), ("liked", "likes")):
        listed = server.get(f"/api/puzzles?edition=trigo&sort={order}")["puzzles"]
        ids = [p["id"] for p in listed]
        assert ids.index(honest) < ids.index(scripted), order
        by_id = {p["id"]: p["stats"][figure] for p in listed}
        assert (by_id[honest], by_id[scripted]) == (2, 1), order


def test_the_list_comes_in_pages_and_no_page_shows_a_hidden_puzzle(
    server: ServerProcess,
) -> None:
    carl = Player(server, "Carl")
    made = [carl.publish(deck_puzzle("extreme"), f"Hex {n}") for n in range(23)]
    hidden = {made[3], made[21]}  # one on each page, newest first
    store = Store(server.database_url)
    try:
        for pid in hidden:
            store.puzzles.hide(pid, True, None, Decided("mod", "test", time.time()))
    finally:
        store.close()
    seen: list[str] = []
    pages = []
    for page in itertools.count():
        found = server.get(f"/api/puzzles?edition=extreme&sort=newest&page={page}")
        pages.append((len(found["puzzles"]), found["more"]))
        seen += [p["id"] for p in found["puzzles"]]
        if not found["more"]:
            break
    assert pages == [(20, True), (1, False)]
    assert seen == [pid for pid in reversed(made) if pid not in hidden]
    # past the end: nothing, and no more; out of bounds: refused
    found = server.get("/api/puzzles?edition=extreme&sort=liked&page=7")
    assert (found["puzzles"], found["more"]) == ([], False)
    for bad in ("-1", "501", "x"):
        status, answer = server.request("GET", f"/api/puzzles?edition=extreme&page={bad}")
        assert (status, answer["error"]["code"]) == (422, "bad_message"), answer


def pack(owner: Player, ids: list[str], title: str = "For Ben", **more: Any) -> dict[str, Any]:
    status, view = owner.call("POST", "/api/packs", {"title": title, "puzzles": ids, **more})
    assert status == 201, view
    return dict(view)


def listed_packs(server: ServerProcess, edition: str) -> dict[str, dict[str, Any]]:
    found = server.get(f"/api/packs?edition={edition}")
    assert found["more"] is False
    return {p["id"]: p for p in found["packs"]}


def test_listed_packs_are_in_their_editions_list_with_plays_and_likes(
    server: ServerProcess,
) -> None:
    dana, eve = Player(server, "Dana"), Player(server, "Eve")
    shared = dana.publish(EASY, "Shared")
    status, page = dana.call("POST", "/api/puzzles", {"puzzle": HARD, "title": "Own"})
    assert status == 201
    own = page["summary"]["id"]
    listed = pack(dana, [shared, own], published=True)
    kept = pack(dana, [shared], "Not listed")
    assert listed["published"] and not kept["published"]
    assert eve.play(shared, "solved", 9.0)[0] == 200
    assert eve.call("PUT", f"/api/puzzles/{shared}/like", {"liked": True})[0] == 200
    found = listed_packs(server, "classic")
    assert kept["id"] not in found and listed["id"] not in listed_packs(server, "trigo")
    entry = found[listed["id"]]
    assert (entry["title"], entry["author_name"], entry["puzzles"]) == ("For Ben", "Dana", 2)
    assert (entry["plays"], entry["likes"]) == (1, 1)
    # someone else cannot list Dana's other pack
    status, answer = eve.call("PATCH", f"/api/packs/{kept['id']}", {"published": True})
    assert (status, answer["error"]["code"]) == (403, "not_your_pack")
    assert kept["id"] not in listed_packs(server, "classic")
    # a listed pack whose puzzles are all hidden is not listed
    fay = Player(server, "Fay")
    alone = pack(fay, [fay.publish(EASY, "Alone")], published=True)
    assert alone["id"] in listed_packs(server, "classic")
    store = Store(server.database_url)
    try:
        store.puzzles.hide(alone["puzzles"][0]["id"], True, None, Decided("m", "", time.time()))
    finally:
        store.close()
    assert alone["id"] not in listed_packs(server, "classic")


def test_packs_sort_by_their_puzzles_figures_and_a_moderator_hides_one(
    server: ServerProcess,
) -> None:
    gil = Player(server, "Gil")
    played, liked = (gil.publish(deck_puzzle("extreme"), t) for t in ("Played", "Liked"))
    most_played = pack(gil, [played], "Most played", published=True)
    most_liked = pack(gil, [liked], "Most liked", published=True)  # the newer
    for n in range(2):
        assert Player(server, f"Player {n}").play(played, "gave_up", 40.0)[0] == 200
    fan = Player(server, "Fan")
    assert fan.play(liked, "gave_up", 40.0)[0] == 200
    like(fan, liked)

    def order(sort: str) -> list[str]:
        found = server.get(f"/api/packs?edition=extreme&sort={sort}")["packs"]
        ids = [p["id"] for p in found]
        return [i for i in ids if i in (most_played["id"], most_liked["id"])]

    assert order("newest") == [most_liked["id"], most_played["id"]]
    assert order("played") == [most_played["id"], most_liked["id"]]
    assert order("liked") == [most_liked["id"], most_played["id"]]
    assert server.request("GET", "/api/packs?edition=extreme&sort=rating")[0] == 422

    # a moderator hides one: off every order, its link and file its maker's only, no room
    # races it; shown again, it is back
    hidden = most_played["id"]
    review(server, "hide-pack", hidden, "--by", "mod", "--note", "rude title")
    assert all(hidden not in order(sort) for sort in ("newest", "played", "liked"))
    for path in (f"/api/packs/{hidden}", f"/api/packs/{hidden}/file"):
        status, answer = fan.call("GET", path)
        assert (status, answer["error"]["code"]) == (404, "no_pack"), path
        assert gil.call("GET", path)[0] == 200, path
    assert gil.call("GET", f"/api/packs/{hidden}")[1]["hidden"] is True
    settings = {"edition": "extreme", "puzzles": "pack", "pack": hidden}
    status, answer = gil.call("POST", "/api/rooms", {"name": "Gil", "settings": settings})
    assert (status, answer["error"]["code"]) == (404, "no_pack"), answer
    assert "hide" in review(server, "log")
    review(server, "hide-pack", hidden, "--by", "mod", "--show")
    assert hidden in order("played")
    status, answer = fan.call("GET", f"/api/packs/{hidden}")
    assert status == 200 and answer["hidden"] is False


def test_a_pack_is_edited_by_its_maker_only_under_the_rules_of_making_one(
    server: ServerProcess,
) -> None:
    gus, hal = Player(server, "Gus"), Player(server, "Hal")
    a, b, c = (gus.publish(EASY, f"Gus {n}") for n in "abc")
    status, page = hal.call("POST", "/api/puzzles", {"puzzle": EASY, "title": "Hal's own"})
    private = page["summary"]["id"]
    trigo = gus.publish(deck_puzzle("trigo"), "Two areas")
    made = pack(gus, [a, b])
    path = f"/api/packs/{made['id']}"

    def ids(view: dict[str, Any]) -> list[str]:
        return [p["id"] for p in view["puzzles"]]

    status, view = gus.call("PATCH", path, {"title": "  Renamed  ", "puzzles": [b, a]})
    assert status == 200 and (view["title"], ids(view)) == ("Renamed", [b, a]), view
    status, view = gus.call("PATCH", path, {"puzzles": [b, c]})  # a out, c in
    assert status == 200 and ids(view) == [b, c] and view["title"] == "Renamed"
    # anybody else: refused, whatever they send
    for body in ({"title": "Mine now"}, {"puzzles": [private]}, {}):
        status, answer = hal.call("PATCH", path, body)
        assert (status, answer["error"]["code"]) == (403, "not_your_pack"), answer
    # the maker: the rules of making one
    for puzzles in ([], [b, b], [b, private], [b, trigo], [b, "nothing12345"]):
        status, answer = gus.call("PATCH", path, {"puzzles": puzzles})
        assert (status, answer["error"]["code"]) == (422, "bad_pack"), (puzzles, answer)
    status, answer = gus.call("PATCH", path, {"title": "Ubongo"})
    assert status == 422, answer
    status, answer = gus.call("PATCH", "/api/packs/nopack123456", {"title": "Gone"})
    assert (status, answer["error"]["code"]) == (404, "no_pack")
    status, view = gus.call("GET", path)
    assert (view["title"], ids(view), view["published"]) == ("Renamed", [b, c], False)
    # deleted: anybody else is refused and nothing changes; its maker deletes it, its puzzles
    # stay, and a second delete finds no pack
    status, answer = hal.call("DELETE", path)
    assert (status, answer["error"]["code"]) == (403, "not_your_pack"), answer
    assert gus.call("DELETE", path) == (200, {"deleted": made["id"]})
    for who in (gus, hal):
        status, answer = who.call("GET", path)
        assert (status, answer["error"]["code"]) == (404, "no_pack")
    status, answer = gus.call("DELETE", path)
    assert (status, answer["error"]["code"]) == (404, "no_pack")
    assert all(gus.call("GET", f"/api/puzzles/{pid}")[0] == 200 for pid in (a, b, c))
