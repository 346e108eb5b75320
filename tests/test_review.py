"""Held results and their review (docs/fair-play.md): a paced script with a made-up trace is
held, a moderator clears or marks it with ``ubongo review``, and marking an account gives its
opponents back what they lost to it. Real server, real SQLite file, the real CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, ServerProcess, race_to_the_end, server_in
from server_harness import made_up_trace as traced
from test_fair_play import EDITION, WAIT, new_account, quick_match_against_a_bot

from ubongo.server.online.ratings import give_back, rate_cleared, rate_game
from ubongo.server.store import GameRecord, Held, Store
from ubongo.server.store.games import UNDER_REVIEW

RUN = "import sys; from ubongo.cli import main; sys.exit(main())"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("review")
    args = (
        f"--quickmatch-wait={WAIT}",
        '--quickmatch-settings={"rounds": 1, "hourglass_seconds": 4}',
        "--accounts-per-hour=1000",
        # the script answers at once: judged by its trace and its speed, not by the floor
        "--record-seconds-per-piece=0",
    )
    yield from server_in(folder, args=args)


def review(server: ServerProcess, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RUN, "review", *args, "--database-url", server.database_url],
        capture_output=True,
        text=True,
        timeout=60,
    )


def won_by_script(server: ServerProcess, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A quick match against a bot won by the solver at once, with a trace made up to hold
    together (each piece picked and placed once, 0.2 s apart): the account and the game."""
    account = new_account(server, name)
    seat = quick_match_against_a_bot(server, account)
    c = Client(server)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    over = race_to_the_end(c, c.event("round_started")["room"]["game"], EDITION, traced)
    c.close()
    return account, server.get(f"/api/games/{over['data']['game_id']}")


def test_a_scripted_win_with_a_made_up_trace_is_held_then_cleared(server: ServerProcess) -> None:
    account, game = won_by_script(server, "Quin")
    seat = str(next(p["seat"] for p in game["players"] if p.get("account") == account["id"]))
    assert game["result"]["unrated"] == {seat: "held"}
    assert EDITION not in server.get(f"/api/accounts/{account['id']}")["ratings"]

    held = review(server, "held")
    assert held.returncode == 0, held.stderr
    line = next(x for x in held.stdout.splitlines() if f"account {account['id']} " in x)
    assert "each piece moved once" in line and f"game {game['id']}" in line
    held_id = line.split()[0].lstrip("#")

    shown = review(server, "show", held_id)
    assert shown.returncode == 0, shown.stderr
    assert "trace consistent" in shown.stdout and " place " in shown.stdout
    # the board after each placement: the last one is the whole answer, drawn
    assert shown.stdout.count("\n        ") > 4, shown.stdout

    # clearing it rates it: the win counts now
    cleared = review(server, "clear", held_id, "--by", "mod", "--note", "a fast friend")
    assert cleared.returncode == 0, cleared.stderr
    rating = server.get(f"/api/accounts/{account['id']}")["ratings"][EDITION]
    assert rating["games"] == 1
    again = review(server, "clear", held_id, "--by", "mod")
    assert again.returncode == 2 and "no held result" in again.stderr
    log = review(server, "log")
    assert f"clear  account {account['id']}  by mod  'a fast friend'" in log.stdout


def test_marking_an_account_takes_it_off_and_gives_back_the_losses(tmp_path: Path) -> None:
    """Two accounts play a rated game, the cheater wins; marking the cheater gives the loser
    its points back and takes the cheater off the leaderboard, logged."""
    store = Store(f"sqlite:///{tmp_path / 'review.sqlite3'}")
    store.migrate()
    cheat = store.accounts.create("Cheat", "aa" * 32, at=1.0)
    honest = store.accounts.create("Honest", "bb" * 32, at=1.0)
    players = [
        {"seat": 0, "name": "Cheat", "kind": "person", "level": None, "account": cheat},
        {"seat": 1, "name": "Honest", "kind": "person", "level": None, "account": honest},
    ]
    for n in range(5):
        store.games.save(
            GameRecord(
                room="RATED",
                edition=EDITION,
                mode="race",
                variant="standard",
                settings={},
                seed=n,
                events=[],
                result={"winners": [0], "scores": {"0": 3, "1": 1}},
                players=players,
                started_at=1.0 + n,
                finished_at=2.0 + n,
                rated=True,
            ),
            rate_game,
        )
    board = [a.name for a in store.ratings.accounts(EDITION, min_games=1)]
    assert sorted(board) == ["Cheat", "Honest"]
    lost = store.ratings.of_account(honest).history[EDITION]
    assert lost[-1].after < lost[0].before

    changes = store.review.mark(cheat, "mod", "a script", at=10.0, give_back=give_back)
    assert changes is not None and len(changes["games"]) == 5
    assert [a.name for a in store.ratings.accounts(EDITION, min_games=1)] == ["Honest"]
    back = store.ratings.of_account(honest).history[EDITION][-1].after
    assert abs(back - lost[0].before) <= 5  # each game's loss back, to a point's rounding
    [decision] = store.review.decisions(cheat)
    assert (decision.decision, decision.moderator, decision.note) == ("mark", "mod", "a script")
    assert json.loads(json.dumps(decision.changes))["given_back"][0]["account"] == honest
    store.close()


def test_an_account_with_results_held_has_its_next_results_held_too(tmp_path: Path) -> None:
    """An account is reviewed as a whole: while a result of it waits for review, its next
    rated result is held as well, however plausible it looks, and counts once cleared."""
    store = Store(f"sqlite:///{tmp_path / 'whole.sqlite3'}")
    store.migrate()
    ada = store.accounts.create("Ada", "aa" * 32, at=1.0)
    players = [
        {"seat": 0, "name": "Ada", "kind": "person", "level": None, "account": ada},
        {"seat": 1, "name": "Bot", "kind": "bot", "level": "easy"},
    ]

    def won(n: int, held: tuple[Held, ...], unrated: dict[str, str]) -> int:
        result = {"winners": [0], "scores": {"0": 3, "1": 1}, "unrated": unrated}
        game = GameRecord(
            room="RATED", edition=EDITION, mode="race", variant="standard", settings={},
            seed=n, events=[], result=result, players=players, started_at=1.0 + n,
            finished_at=2.0 + n, rated=True, held=held,
        )  # fmt: skip
        return store.games.save(game, rate_game)

    won(1, (Held(ada, 0, "race", 1.7, ("each piece moved once",)),), {"0": "held"})
    second = won(2, (), {})
    stored = store.games.get(second)
    assert stored is not None and stored.result["unrated"] == {"0": "held"}
    assert store.ratings.of(EDITION, f"account:{ada}") is None, "no rating moved yet"
    waiting = store.review.held("held", ada)
    assert [h.reasons for h in waiting][1] == [UNDER_REVIEW]
    for h in waiting:
        assert store.review.clear(h.id, "mod", "", at=10.0, rerate=rate_cleared) is not None
    rating = store.ratings.of(EDITION, f"account:{ada}")
    assert rating is not None and rating.games == 2
    third = store.games.get(won(3, (), {}))
    assert third is not None and third.result["unrated"] == {}, "reviewed: counts again"
    store.close()
