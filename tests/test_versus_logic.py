"""Local versus' own logic (web/src/versus/logic.ts, issue 28), run in Node as table mode's is
(tests/test_table_logic.py): the module bundled with the esbuild Vite brings and driven by a
short script, on the cards the practice bundle carries (``ubongo.puzzles.practice.versus_cards``).
The game's rules themselves (rounds, gems, cards, ties) are table mode's, tested there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from node_run import Runner, node_runner

from ubongo import editions
from ubongo.puzzles.deck import standard_deck
from ubongo.puzzles.practice import versus_cards

ROOT = Path(__file__).resolve().parents[1]
LOGIC = ROOT / "web" / "src" / "versus" / "logic.ts"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Runner:
    return node_runner(LOGIC, tmp_path_factory.mktemp("versus"))


def test_the_bundle_carries_every_card_of_the_standard_deck() -> None:
    for name in editions.names():
        deck = standard_deck(name)
        cards = versus_cards(name)
        assert list(cards) == list(editions.record(name).deck.side_names)
        for side, sides in cards.items():
            assert [c["card"] for c in sides] == [card.number for card, _ in deck.sides(side)]
            for c, (_, s) in zip(sides, deck.sides(side), strict=True):
                assert sorted(tuple(x) for x in c["area"]) == sorted(s.area.cells)
                assert [t["pieces"] for t in c["tasks"]] == [list(t.pieces) for t in s.tasks]


def test_a_classic_game_deals_every_player_another_card_each_round(run: Any) -> None:
    got = run(
        """
        const deal = (seed) => Array.from({ length: 9 }, (_, r) =>
          L.dealRound(D.cards, ["A", "A", "A", "A"], seed, r + 1, String((r % 6) + 1)));
        const a = deal("s-1");
        const tenth = L.dealRound(D.cards, ["A", "A"], "s-1", 19, "3");
        return { a, again: deal("s-1"), other: deal("s-2"), tenth };
        """,
        cards=versus_cards("classic"),
    )
    a = got["a"]
    # 4 players x 9 rounds = the 36 cards of side A, each once (players take boards from a pile)
    assert sorted(t["card"] for rnd in a for t in rnd) == list(range(1, 37))
    assert all(t["side"] == "A" and len(t["pieces"]) == 3 for rnd in a for t in rnd)
    deck = standard_deck("classic")
    for r, rnd in enumerate(a):
        for t in rnd:
            # the die's face picks the task of that face on the player's card
            side = deck.card(t["card"]).side("A")
            assert t["key"] == str(r % 6 + 1) and t["pieces"] == list(side.task(t["key"]).pieces)
    assert got["again"] == a and got["other"] != a  # the same seed, the same deal
    # past the deck's end the pile goes round again: a card is still dealt
    assert all(1 <= t["card"] <= 36 for t in got["tenth"])


def test_3d_levels_each_and_a_task_two_faces_pick(run: Any) -> None:
    cards = versus_cards("3d")
    # a card side whose one task answers two faces (the boxed game's boards: "3/4")
    card, task = next((c, t) for c in cards["yellow"] for t in c["tasks"] if len(t["keys"]) > 1)
    got = run(
        """
        const task = L.taskOf(D.card, "yellow", D.keys[1]);
        const round = L.dealRound(D.cards, ["green", "red"], "seed", 1, "5");
        return { task, round };
        """,
        card=card,
        keys=task["keys"],
        cards=cards,
    )
    assert got["task"]["pieces"] == task["pieces"] and got["task"]["key"] == task["keys"][1]
    assert [t["side"] for t in got["round"]] == ["green", "red"]
    # the area is the footprint (square cells) filled in the card side's two levels
    assert all(len(t["area"][0]) == 2 for t in got["round"])
    assert {c["layers"] for side in cards.values() for c in side} == {2}


def test_each_player_has_their_own_keys(run: Any) -> None:
    got = run(
        """
        const k = (key, n = 2, mods = {}) => L.keyOf(key, n, mods);
        return {
          arrow: k("ArrowLeft"), enter: k("Enter"), turn: k("."), flip: k("L"),
          wasd: k("a"), space: k(" "), caps: k("E"), next: k("c"),
          alone: k("a", 1), ctrl: k("a", 2, { ctrl: true }), none: k("z"),
          legend: [L.keyLegend(0), L.keyLegend(1), L.keyLegend(2)],
          seats: D.screens.map(([w, h]) => L.seatsFor(w, h)),
        };
        """,
        screens=[[390, 844], [844, 390], [1024, 768], [1280, 800], [1440, 900]],
    )
    assert got["arrow"] == {"player": 0, "command": {"kind": "move", "dx": -1, "dy": 0}}
    assert got["enter"]["player"] == 0 and got["enter"]["command"] == {"kind": "enter"}
    assert got["turn"]["command"] == {"kind": "rotate", "back": False}
    assert got["flip"] == {"player": 0, "command": {"kind": "flip"}}  # Caps Lock: still L
    assert got["wasd"] == {"player": 1, "command": {"kind": "move", "dx": -1, "dy": 0}}
    assert got["space"]["player"] == 1 and got["space"]["command"] == {"kind": "enter"}
    assert got["caps"]["command"] == {"kind": "rotate", "back": False}
    assert got["next"]["command"] == {"kind": "next", "back": False}
    # one player has no second set; Ctrl+A is the browser's; Z is nobody's
    assert got["alone"] is None and got["ctrl"] is None and got["none"] is None
    assert got["legend"][0]["place"] == "Enter" and got["legend"][1]["move"] == "W A S D"
    assert got["legend"][2] is None  # players 3 and 4: the mouse or fingers
    # a phone upright or sideways seats nobody; a tablet two or three; a desktop up to four
    assert got["seats"] == [0, 0, 3, 3, 4]
