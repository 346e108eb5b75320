"""Fair play against a real ``ubongo serve``: each test is a scripted client trying one way to
top rated play or its leaderboards as a cheater would (the project's solver is public), and
the server's answer to it (docs/fair-play.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, ServerProcess, server_in, solution
from waiting import eventually

from ubongo import editions
from ubongo.server.online import ratings

EDITION = editions.names()[0]
WAIT = 1.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("fairplay")
    yield from server_in(
        folder,
        args=(
            f"--quickmatch-wait={WAIT}",
            # one short round: a game against a bot is over a few seconds after its start; a
            # closed tab's seat is held 5 s (the least) before a bot takes it
            '--quickmatch-settings={"rounds": 1, "hourglass_seconds": 4, "seat_hold_seconds": 5}',
            "--accounts-per-hour=1000",
        ),
    )


def new_account(server: ServerProcess, name: str) -> dict[str, Any]:
    status, body = server.post("/api/accounts", {"name": name})
    assert status == 201, body
    return dict(body)


def quick_match_against_a_bot(server: ServerProcess, account: dict[str, Any]) -> dict[str, Any]:
    status, seat = server.post(
        "/api/quickmatch", {"edition": EDITION, "players": 2}, account["token"]
    )
    assert status == 201, seat
    return dict(seat)


def rated_games(server: ServerProcess, account: dict[str, Any]) -> list[dict[str, Any]]:
    profile = server.get(f"/api/accounts/{account['id']}")
    return list(profile["history"].get(EDITION, []))


def test_leaving_a_rated_game_is_a_loss_and_the_game_is_stored(server: ServerProcess) -> None:
    """The dodge: leave a quick match before the bot finishes, so that the loss never counts.
    The bots play the game out; it is stored and rated, the leaver placed last."""
    ada = new_account(server, "Ada")
    seat = quick_match_against_a_bot(server, ada)
    c = Client(server)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    c.event("round_started")
    c.send({"type": "leave"})
    c.close()
    history = eventually(lambda: rated_games(server, ada), "the game rated", timeout=30)
    assert history[0]["after"] < history[0]["before"]
    game = server.get(f"/api/games/{history[0]['game_id']}")
    assert game["result"]["left"] == [seat["seat"]]
    rating = server.get(f"/api/accounts/{ada['id']}")["ratings"][EDITION]
    assert rating["games"] == 1 and rating["mu"] < ratings.MU


def test_closing_the_tab_is_leaving_too(server: ServerProcess) -> None:
    """The same dodge without a word: the socket closes and never comes back. The seat is
    held a while, then a bot takes it and the game is played out, stored and rated."""
    bo = new_account(server, "Bo")
    seat = quick_match_against_a_bot(server, bo)
    c = Client(server)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    c.event("round_started")
    c.close()
    history = eventually(lambda: rated_games(server, bo), "the game rated", timeout=30)
    assert history[0]["after"] <= history[0]["before"]


def test_a_rated_win_faster_than_a_hand_is_not_rated(server: ServerProcess) -> None:
    """The instant solver: the answer submitted as soon as the task is dealt. The game counts
    (the seat finished first) but the seat's rating does not move."""
    cy = new_account(server, "Cy")
    seat = quick_match_against_a_bot(server, cy)
    c = Client(server)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    game = c.event("round_started")["room"]["game"]
    placements = solution(game["tasks"][str(seat["seat"])], EDITION)
    verdict = c.reply(
        {"type": "submit", "round": game["round"], "placements": placements}, "verdict"
    )
    assert verdict["ok"]
    over = c.event("game_over")
    c.close()
    stored = server.get(f"/api/games/{over['data']['game_id']}")
    assert stored["result"]["unrated"] == {str(seat["seat"]): "too_fast"}
    profile = server.get(f"/api/accounts/{cy['id']}")
    assert EDITION not in profile["ratings"] or profile["ratings"][EDITION]["games"] == 0
    board = server.get(f"/api/ratings?edition={EDITION}&min_games=1")
    assert cy["id"] not in [p["account"] for p in board["players"]]
