"""The practice bundle (``GET /api/practice-bundle``): what the web client keeps to practise
offline. Every task's solution covers its area by the rules' own check, the options and
catalogues are those the other routes serve, and the answer is the same on every request."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from server_harness import ServerProcess, server_in

from ubongo.board import Area, Placement, check_cover
from ubongo.pieces import edition


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from server_in(tmp_path_factory.mktemp("practice"))


@pytest.fixture(scope="module")
def bundle(server: ServerProcess) -> Any:
    return server.get("/api/practice-bundle")  # checked against bodies.PracticeBundle


def test_every_task_is_solved_by_its_solution(bundle: Any) -> None:
    assert list(bundle["editions"]) == ["classic", "3d", "extreme", "trigo"]
    for name, entry in bundle["editions"].items():
        ed = edition(name)
        sides = entry["options"]["sides"]
        # three per side, easiest first
        assert [t["side"] for t in entry["tasks"]] == [s for s in sides for _ in range(3)]
        assert [t["level"] for t in entry["tasks"][:3]] == ["easy", "medium", "hard"]
        for task in entry["tasks"]:
            area = Area(ed.area_lattice, frozenset(tuple(c) for c in task["area"]), task["layers"])
            pieces = [ed.piece(p) for p in task["pieces"]]
            shown = [
                Placement(p["piece"], p["transform"], tuple(p["offset"])) for p in task["solution"]
            ]
            verdict = check_cover(area, pieces, shown)
            assert verdict.ok, (task["id"], verdict)
            # a wrong answer is not a cover: the check above could fail
            assert not check_cover(area, pieces, shown[1:]).ok


def test_the_bundle_carries_the_servers_options_and_catalogues(
    server: ServerProcess, bundle: Any
) -> None:
    options = server.get("/api/options")
    for name, entry in bundle["editions"].items():
        assert entry["options"] == options[name]
        assert entry["catalogue"] == server.get(f"/api/editions/{name}")
    with urllib.request.urlopen(server.url + "/api/practice-bundle", timeout=10) as r:
        assert r.headers["Cache-Control"] == "no-cache"
        assert r.headers["Content-Type"] == "application/json"
        again = r.read()
    assert server.get("/api/practice-bundle")["version"] == bundle["version"]
    assert len(again) < 200_000, "small enough to keep in every browser"
