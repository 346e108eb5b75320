"""The server's parts on their own: message validation, the event hub, the rate limit, the bot
model and storage on a real SQLite file."""

from __future__ import annotations

import json
import random
import sqlite3
import statistics
from pathlib import Path

import pytest

from ubongo.puzzles.deck import standard_deck
from ubongo.rules import bots
from ubongo.server.online.names import clean_name
from ubongo.server.ops.ratelimit import TokenBucket
from ubongo.server.protocol.incoming import MAX_MESSAGE_BYTES, ProtocolError, parse_client_message
from ubongo.server.rooms.bus import MemoryHub
from ubongo.server.store import GameRecord, SoloRecord, Store

# --- every kind of bad message is refused with its code -------------------------------------

BAD = [
    ("not json at all", "bad_json"),
    ("[1, 2]", "bad_json"),
    ('"hello"', "bad_json"),
    ("{}", "unknown_type"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": 7}', "unknown_type"),
    ('{"type": "hello"}', "bad_message"),  # no room
    ('{"type": "hello", "room": "ABCDE", "tokn": "xxxxxxxxxx"}', "bad_message"),  # typo
    ('{"type": "ping", "id": "one", "t": 1}', "bad_message"),
    ('{"type": "ready", "ready": "yes please"}', "bad_message"),
    ('{"type": "add_bot", "level": "godlike"}', "bad_message"),
    ('{"type": "remove_bot", "seat": 9}', "bad_message"),
    ('{"type": "submit", "round": 1}', "bad_message"),  # no placements
    ('{"type": "submit", "round": 1, "placements": [{"piece": "B"}]}', "bad_message"),
    (
        '{"type": "submit", "round": 1, "placements": '
        '[{"piece": "B", "transform": 0, "offset": [1]}]}',
        "bad_message",
    ),
    ('{"type": "settings", "settings": {"edition": "chess"}}', "bad_message"),
    ('{"type": "settings", "settings": {"hourglass_seconds": -5}}', "bad_message"),
    ('{"type": "start", "now": 5}', "bad_message"),
]


@pytest.mark.parametrize(("raw", "code"), BAD)
def test_bad_messages_are_refused_with_their_code(raw: str, code: str) -> None:
    with pytest.raises(ProtocolError) as e:
        parse_client_message(raw)
    assert e.value.code == code
    assert e.value.message


def test_oversized_and_deeply_nested_messages_are_refused() -> None:
    big = json.dumps({"type": "ping", "id": 1, "t": 1, "pad": "x" * MAX_MESSAGE_BYTES})
    with pytest.raises(ProtocolError) as e:
        parse_client_message(big)
    assert e.value.code == "too_large"
    with pytest.raises(ProtocolError) as e:
        parse_client_message("[" * 5000 + "]" * 5000)
    assert e.value.code in ("bad_json", "too_large")
    with pytest.raises(ProtocolError) as e:
        parse_client_message(b"\xff\xfe\x00garbage")
    assert e.value.code == "bad_json"


def test_good_messages_parse_to_their_models() -> None:
    m = parse_client_message(
        '{"type": "submit", "round": 2, "placements": '
        '[{"piece": "B", "transform": 3, "offset": [1, 2]}]}'
    )
    assert m.type == "submit"
    assert m.placements[0].offset == [1, 2]
    hello = parse_client_message('{"type": "hello", "room": "K7QX", "spectate": true}')
    assert hello.type == "hello" and hello.spectate


def test_names_are_cleaned_and_empty_ones_refused() -> None:
    assert clean_name(" Ada \t Lovelace\u200b ") == "Ada Lovelace"
    assert len(clean_name("x" * 100)) == 32
    with pytest.raises(ProtocolError):
        clean_name(" \u0000\u200b ")


# --- the hub: numbering, fan-out, missed events ---------------------------------------------


def test_hub_numbers_events_per_room_and_replays_what_was_missed() -> None:
    hub: MemoryHub[str] = MemoryHub(log_size=3)
    hub.add("A", "room a")
    got: list[int] = []
    sub = hub.subscribe("A", lambda e: got.append(e.seq))
    for i in range(5):
        hub.publish("A", {"i": i})
    hub.publish("B", {"i": 0})
    assert got == [1, 2, 3, 4, 5]
    assert hub.last_seq("B") == 1
    assert [e.seq for e in hub.since("A", 3) or []] == [4, 5]
    assert hub.since("A", 5) == []
    assert hub.since("A", 1) is None  # events 2.. have left the log: snapshot
    assert hub.since("A", 99) is None  # a number never given out: snapshot
    assert json.loads(hub.since("A", 4)[0].text)["seq"] == 5  # type: ignore[index]
    sub.close()
    hub.publish("A", {})
    assert got == [1, 2, 3, 4, 5]
    with pytest.raises(KeyError):
        hub.add("A", "again")


def test_a_welcome_held_with_later_events_gets_each_event_once() -> None:
    """A hello while the room is held (its save running) is welcomed once the save is done,
    in order among the room's held deliveries: the welcome's missed events are those
    delivered before it, and the later ones come through the subscription it makes, once
    (run 40 of issue 22's loop: a reconnect after a restart heard event 66 twice)."""

    class Kept(MemoryHub[str]):
        durable = True

    hub = Kept()
    hub.add("ROOM", "the room")
    hub.publish("ROOM", {"kind": "a"})
    heard: list[int] = []

    def welcome() -> None:  # as the gateway's: missed events, then the subscription
        missed = hub.since("ROOM", 0)
        assert missed is not None
        heard.extend(e.seq for e in missed)
        hub.subscribe("ROOM", lambda e: heard.append(e.seq))

    hub.hold("ROOM")
    hub.then("ROOM", welcome)
    hub.publish("ROOM", {"kind": "b"})  # after the hello, before the save ends
    hub.stored("ROOM", hub.mark("ROOM"))
    hub.publish("ROOM", {"kind": "c"})
    assert heard == [1, 2, 3]
    assert not hub.held("ROOM") and hub.last_seq("ROOM") == 3


def test_rate_limit_allows_a_burst_then_the_rate() -> None:
    bucket = TokenBucket(rate=20, burst=40, now=0.0)
    assert sum(bucket.allow(0.0) for _ in range(100)) == 40
    assert bucket.refused == 60
    assert sum(bucket.allow(1.0) for _ in range(100)) == 20


# --- bots -----------------------------------------------------------------------------------


def test_bot_times_are_seeded_and_ordered_by_level() -> None:
    def times(level: str) -> list[float]:
        lv = bots.LEVELS[level]
        return [bots.finish_time(30.0, lv, random.Random(f"seed:bot:1:{n}")) for n in range(400)]

    assert times("medium") == times("medium")  # same seed, same times: games replay
    medians = {lv: statistics.median(times(lv)) for lv in ("easy", "medium", "hard")}
    assert medians["hard"] < medians["medium"] < medians["easy"]


def test_a_typical_person_beats_easy_bots_and_loses_to_hard_ones() -> None:
    rng = random.Random(5)
    wins = {"easy": 0, "hard": 0}
    for _ in range(2000):
        difficulty = rng.uniform(10.0, 60.0)
        person = bots.finish_time(difficulty, bots.PERSON, rng)
        for lv in wins:
            if person < bots.finish_time(difficulty, bots.LEVELS[lv], rng):
                wins[lv] += 1
    assert wins["easy"] > 0.65 * 2000
    assert wins["hard"] < 0.25 * 2000
    share = bots.expected_win_share(bots.PERSON, bots.LEVELS["easy"])
    assert abs(share - wins["easy"] / 2000) < 0.05


def test_harder_tasks_take_bots_longer() -> None:
    deck = standard_deck("classic")
    tasks = sorted(
        (t for c in deck.cards for s in c.sides for t in s.tasks), key=lambda t: t.difficulty
    )
    easy, hard = tasks[0], tasks[-1]
    rng = random.Random(1)
    medium = bots.LEVELS["medium"]
    slow = [bots.finish_time(hard.difficulty, medium, rng) for _ in range(300)]
    fast = [bots.finish_time(easy.difficulty, medium, rng) for _ in range(300)]
    assert statistics.median(slow) > 1.5 * statistics.median(fast)


def test_bot_arrangements_cover_their_task() -> None:
    from ubongo.board import check_cover

    for name in ("classic", "3d", "extreme", "trigo"):
        deck = standard_deck(name)
        card = deck.cards[0]
        side = card.sides[-1]
        task = side.tasks[0]
        placements = bots.arrangement(deck, card.number, side.name, task.keys[0])
        assert check_cover(side.area, deck.task_pieces(task), placements).ok


# --- storage on a real SQLite file ----------------------------------------------------------


def _game(room: str = "ROOM1", mode: str = "race") -> GameRecord:
    return GameRecord(
        room=room,
        edition="classic",
        mode=mode,
        variant="standard",
        settings={"rounds": 9},
        seed=2**40 + 3,
        events=[{"type": "start_round", "now": 1.5}],
        result={"winners": [1]},
        players=[{"seat": 0, "name": "Ada"}],
        started_at=1000.0,
        finished_at=1100.0,
    )


def _record(name: str, score: int, seconds: float, goal: str = "time") -> SoloRecord:
    return SoloRecord(0, name, "classic", goal, 5, "A", score, seconds, 1100.0)


def test_storage_round_trips_games_and_ranks_records(tmp_path: Path) -> None:
    path = tmp_path / "data" / "ubongo.sqlite3"
    store = Store(f"sqlite:///{path}")
    store.migrate()
    store.migrate()  # idempotent: a second start-up changes nothing
    gid = store.games.save(_game())
    game = store.games.get(gid)
    assert game is not None
    assert game.seed == 2**40 + 3 and game.events == [{"type": "start_round", "now": 1.5}]
    assert game.finished_at == pytest.approx(1100.0) and game.winners == [1]
    assert [g.id for g in store.games.latest()] == [gid]
    for name, score, secs in [("Ada", 3, 300.0), ("Bob", 5, 300.0), ("Ada", 7, 300.0)]:
        store.records.save(_game(mode="solo"), _record(name, score, secs))
    store.records.save(_game(mode="solo"), _record("Cy", 5, 40.0, goal="tasks"))
    store.records.save(_game(mode="solo"), _record("Ada", 5, 35.5, goal="tasks"))
    board = store.records.leaderboard("classic", "time", 5, "A")
    assert [(r.name, r.score) for r in board] == [("Ada", 7), ("Bob", 5), ("Ada", 3)]
    fastest = store.records.leaderboard("classic", "tasks", 5, "A")
    assert [r.name for r in fastest] == ["Ada", "Cy"]  # least time first
    bests = store.records.personal_bests("Ada")
    assert [(b.run.goal, b.run.score, b.run.seconds, b.runs) for b in bests] == [
        ("tasks", 5, 35.5, 1),
        ("time", 7, 300.0, 2),
    ]
    store.close()
    # the file is a real SQLite database with the newest migration recorded
    with sqlite3.connect(path) as db:
        assert db.execute("select version_num from alembic_version").fetchone() == (
            _newest_migration(),
        )
        assert db.execute("select count(*) from games").fetchone() == (6,)


def _newest_migration() -> str:
    """The head revision of the project's migrations, as Alembic reads them."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", "ubongo.server.store:migrations")
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None and head >= "0001"
    return head


def test_a_failed_write_stores_nothing(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    store.migrate()
    bad = _record("Ada", 1, 1.0)
    bad = SoloRecord(**{**bad.__dict__, "name": None})
    with pytest.raises(Exception, match=r"(?i)null|integrity"):
        store.records.save(_game(mode="solo"), bad)
    assert store.games.latest() == []  # the game row of that transaction was rolled back too
    store.close()
