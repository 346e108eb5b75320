"""Table mode's game logic (web/src/table/logic.ts, issue 28) as plain functions, run in Node:
the module is bundled with the esbuild that Vite brings (web/node_modules) and driven by a
short script, with each edition's facts as GET /api/options serves them. Checked against the
rulebooks in ../shared/seeds/: Classic 002 and 3D 000 ("Rewards", "End of the Round", "End of
the Game"), Extreme 003 ("Game Play", "Round Sequence", "Increased Difficulty") and Trigo 004
("Gameplay (5)", "Variant for experts"); and against the rules' own choices in docs/rules.md
(the bag drawn in finish order, unclaimed display gems into the bag after the draws)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from node_run import Runner, node_runner

from ubongo import editions
from ubongo.server.routes.editions import options

ROOT = Path(__file__).resolve().parents[1]
LOGIC = ROOT / "web" / "src" / "table" / "logic.ts"


def facts(name: str) -> dict[str, Any]:
    """The EditionFacts table mode reads, from the options the server sends."""
    o = options()[name]
    return {
        "keyKind": o["key_kind"],
        "keyValues": o["key_values"],
        "gems": o["gems"],
        "gemValues": o["gem_values"],
        "gemSupply": o["gem_supply"],
        "placeGems": o["place_gems"],
        "hourglassSeconds": o["hourglass_seconds"],
        "countdownSeconds": o["countdown_seconds"],
        "rounds": o["rounds"],
        "tieBreak": o["tie_break"],
        "tieRoundKey": o["tie_round_key"],
    }


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Runner:
    return node_runner(LOGIC, tmp_path_factory.mktemp("table"))


PLAYERS = [
    {"name": n, "colour": c}
    for n, c in zip("ABCD", ["red", "blue", "green", "yellow"], strict=True)
]


def test_the_rewards_of_a_classic_round(run: Any) -> None:
    got = run(
        """
        const rules = L.tableRules(D.facts, "A", false);
        let g = L.newGame(rules, D.players, "seed-1");
        const start = { bag: g.bag, display: g.display };
        for (const p of [2, 0, 2, 3, 1]) g = L.call(g, p);   // 2 twice: the second is ignored
        const calls = g.calls;
        g = L.endRound(g);
        return { start, calls, result: g.results[0], bag: g.bag, display: g.display, gems: g.gems,
                 rules, next: g.round, key: g.key };
        """,
        facts=facts("classic"),
        players=PLAYERS,
    )
    assert got["rules"]["keys"] == "roll" and got["rules"]["timer"] == {
        "kind": "hourglass",
        "seconds": 60,
    }
    # Setup: 9 sapphires and 9 ambers on the track, the other 40 gems in the bag
    assert got["start"]["display"] == {"sapphire": 9, "amber": 9}
    assert got["start"]["bag"] == {"ruby": 10, "sapphire": 10, "emerald": 10, "amber": 10}
    assert got["calls"] == [2, 0, 3, 1]
    given = got["result"]["gems"]
    # 1st: a sapphire from the track and one from the bag; 2nd: an amber and one; 3rd, 4th: one
    assert [x["player"] for x in given] == [2, 0, 3, 1]
    assert [x["gems"][0] for x in given[:2]] == ["sapphire", "amber"]
    assert [len(x["gems"]) for x in given] == [2, 2, 1, 1]
    assert got["display"] == {"sapphire": 8, "amber": 8}
    assert sum(got["bag"].values()) == 36 and got["result"]["toBag"] == []
    for x in given:
        for gem in set(x["gems"]):
            assert got["gems"][x["player"]][gem] == x["gems"].count(gem)
    assert got["next"] == 2 and got["key"] is None  # the next round's die is not rolled yet


def test_unclaimed_display_gems_go_into_the_bag(run: Any) -> None:
    got = run(
        """
        const rules = L.tableRules(D.facts, "A", false);
        let g = L.newGame(rules, D.players.slice(0, 3), "seed-2");
        g = L.endRound(L.call(g, 1));            // only one finished: the amber into the bag
        const one = { bag: g.bag, display: g.display, toBag: g.results[0].toBag };
        const due = L.secondChanceDue(g);
        g = L.endRound(L.turnAgain(g));          // nobody, even after the second chance
        return { one, due, bag: g.bag, display: g.display, toBag: g.results[1].toBag };
        """,
        facts=facts("classic"),
        players=PLAYERS,
    )
    assert got["one"]["toBag"] == ["amber"]
    assert got["one"]["display"] == {"sapphire": 8, "amber": 8}
    # 40 - 1 drawn + 1 amber tossed in
    assert sum(got["one"]["bag"].values()) == 40
    assert got["due"] is True
    assert got["toBag"] == ["sapphire", "amber"]
    assert got["display"] == {"sapphire": 7, "amber": 7}
    assert sum(got["bag"].values()) == 42


def test_a_whole_game_keeps_every_gem_and_empties_the_display(run: Any) -> None:
    got = run(
        """
        const rules = L.tableRules(D.facts, "yellow", false);
        let g = L.newGame(rules, D.players, "whole");
        const rollers = [], keys = [];
        while (!L.over(g)) {
          rollers.push(L.roller(g));
          g = L.rollDie(g);
          keys.push(g.key);
          const n = g.round % 5;                  // 0..4 players call
          for (let p = 0; p < n; p++) g = L.call(g, (p + g.round) % 4);
          g = L.endRound(g);
        }
        const held = g.gems.map((x) => Object.values(x).reduce((a, b) => a + b, 0));
        return { rollers, keys, display: g.display, bag: g.bag, held,
                 points: g.players.map((_, p) => L.points(g, p)), leaders: L.leaders(g) };
        """,
        facts=facts("3d"),
        players=PLAYERS,
    )
    # 9 rounds; the roller moves to the left every round
    assert got["rollers"] == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    assert set(got["keys"]) <= set(editions.record("3d").deck.keys)
    assert got["display"] == {"sapphire": 0, "amber": 0}
    assert sum(got["held"]) + sum(got["bag"].values()) == 58
    assert max(got["points"]) == got["points"][got["leaders"][0]]


def test_the_same_seed_deals_the_same_gems(run: Any) -> None:
    body = """
        const rules = L.tableRules(D.facts, "A", false);
        return D.seeds.map((s) => {
          let g = L.rollDie(L.newGame(rules, D.players, s));
          for (const p of [0, 1, 2, 3]) g = L.call(g, p);
          g = L.endRound(g);
          return [g.results[0].key, g.results[0].gems];
        });
    """
    a = run(body, facts=facts("classic"), players=PLAYERS, seeds=["x", "y", "x"])
    assert a[0] == a[2]
    many = run(body, facts=facts("classic"), players=PLAYERS, seeds=[str(i) for i in range(40)])
    assert len({json.dumps(x) for x in many}) > 30  # other seeds, other draws


def test_the_bag_draws_each_gem_alike(run: Any) -> None:
    counts = run(
        """
        const seen = { a: 0, b: 0 };
        for (let i = 0; i < 4000; i++) {
          const [gem, rest] = L.drawFromBag({ a: 1, b: 3, c: 0 }, L.seeded("bag", i));
          seen[gem] += 1;
          if (rest[gem] !== (gem === "a" ? 0 : 2)) throw new Error("the bag kept the gem");
        }
        return seen;
        """
    )
    assert 850 < counts["a"] < 1150 and counts["a"] + counts["b"] == 4000


def test_extreme_cards_and_corners(run: Any) -> None:
    got = run(
        """
        const out = {};
        for (const [name, onlyFirst] of [["standard", false], ["onlyFirst", true]]) {
          const rules = L.tableRules(D.facts, "B", onlyFirst);
          let g = L.newGame(rules, D.players, "cards");
          const corners = [];
          g = L.endRound(L.call(L.call(g, 2), 0));  // 2 first, 0 in time; 1 and 3 did not finish
          const r = g.results[0];
          g = L.endRound(g);                        // nobody finished
          while (!L.over(g)) { corners.push(g.key); g = L.endRound(L.call(g, 3)); }
          out[name] = { rules, kept: r.kept, handed: r.handed, discarded: r.discarded,
                        nobody: g.results[1].discarded, cards: g.cards, corners,
                        leaders: L.leaders(g) };
        }
        return out;
        """,
        facts=facts("extreme"),
        players=PLAYERS,
    )
    std = got["standard"]
    assert std["rules"]["keys"] == "schedule"
    assert std["rules"]["timer"] == {"kind": "countdown", "seconds": 30}  # side B
    assert std["rules"]["tie"] == "tie-round" and std["rules"]["tieRoundKey"] == "upper-right"
    assert std["kept"] == [0, 2] and std["handed"] == [1, 3] and std["discarded"] == []
    assert std["nobody"] == [0, 1, 2, 3]
    # rounds 3..8 follow the corners: lower-left, lower-right, then again from upper-left
    corners = ["lower-left", "lower-right", "upper-left", "upper-right"]
    assert std["corners"] == [*corners, *corners[:2]]
    assert std["cards"] == [1, 0, 3, 24]  # round by round 3 keeps theirs and gets three
    only = got["onlyFirst"]
    assert only["kept"] == [2] and only["handed"] == [] and only["discarded"] == [0, 1, 3]
    assert only["cards"] == [0, 0, 1, 6] and only["leaders"] == [3]


def test_trigo_shares_a_tie_and_undo_takes_back_a_call(run: Any) -> None:
    got = run(
        """
        const rules = L.tableRules(D.facts, "hard", false, 3);
        let g = L.newGame(rules, D.players.slice(0, 2), "t");
        g = L.undoCall(L.call(L.call(g, 0), 1));
        const calls = g.calls;
        g = L.endRound(g);                          // 0 keeps theirs, 1 hands theirs over
        g = L.endRound(L.call(L.call(g, 1), 0));   // 1 first, 0 in time
        g = L.endRound(L.call(g, 1));               // 1 first: 0 hands theirs over
        return { rules, calls, cards: g.cards, leaders: L.leaders(g), key: g.key };
        """,
        facts=facts("trigo"),
        players=PLAYERS,
    )
    assert got["rules"]["timer"] == {"kind": "countdown", "seconds": 3}
    assert got["rules"]["tie"] == "shared" and got["key"] == "card"
    assert got["calls"] == [0]
    assert got["cards"] == [3, 3] and got["leaders"] == [0, 1]


def test_the_tie_round_cards(run: Any) -> None:
    got = run(
        """
        const rules = L.tableRules(D.facts, "A", false);
        const g = L.newGame(rules, D.players, "tie");
        const with_ = (cards) => ({ ...g, cards });
        return [
          L.tieCards(with_([2, 0, 2, 1]), [0, 2]),   // to the left: 1 has none, so 2; 3
          L.tieCards(with_([1, 0, 1, 0]), [0, 2]),   // 2 gives its one card, 0 its own
          L.tieCards(with_([0, 0, 0, 0]), [0, 1]),   // nobody has a card: shared
        ];
        """,
        facts=facts("extreme"),
        players=PLAYERS,
    )
    assert got == [[[0, 2], [2, 3]], [[0, 2], [2, 0]], None]
