"""Local versus (/versus, issue 28): two players race on one screen, each on their own board.

A two-round Classic game played to its end: in the first round two fingers at once (the
DevTools protocol's ``Input.dispatchTouchEvent`` with two touch points) each carry a piece on
its own board in the same gesture, until both boards are covered; in the second round player 1
plays with their keys (arrows, Enter, ``.`` and ``L``) while player 2 plays with the mouse. The
gems are dealt as the Classic rulebook's Rewards (the 1st a sapphire and one from the bag, the
2nd an amber and one), the tally adds them up and the end names the winner (or the playoff is
played first). Then a phone is told its screen is too small; three players on a tablet, German
and dark; axe on each screen."""

from __future__ import annotations

from typing import Any

from axe import assert_accessible
from playwright.sync_api import Browser, CDPSession, Page, expect
from server_harness import ServerProcess
from webharness import shot, watch_errors
from webplay import CENTRE_JS, arrows_to, key, key_presses

from ubongo import editions
from ubongo.board import Area, Placement
from ubongo.catalogue import edition_catalogue
from ubongo.pieces import edition
from ubongo.solver import solve

CLASSIC = edition("classic")
CAT = edition_catalogue("classic")
VALUES = editions.record("classic").scoring.gem_values
#: each player's keys for turning and flipping (web/src/versus/logic.ts, KEY_SETS)
TURN_KEYS = [{"r": ".", "f": "l"}, {"r": "e", "f": "f"}]


def new_page(browser: Browser, errors: list[str], **context: Any) -> Page:
    context.setdefault("viewport", {"width": 1280, "height": 800})
    page = browser.new_context(locale=context.pop("locale", "en-US"), **context).new_page()
    watch_errors(page, errors)
    return page


def seat(p: int) -> str:
    return f"#versus-seat-{p}"


def plan(page: Page, p: int) -> list[Placement]:
    """The solver's arrangement for the task on player ``p``'s board, read from the page."""
    board = page.locator(f"{seat(p)} .board-svg")
    expect(board).to_be_visible()
    cells = board.locator("[data-area-cell]").evaluate_all(
        "els => els.map(e => e.dataset.areaCell)"
    )
    pieces = board.locator("g[data-piece]").evaluate_all("els => els.map(e => e.dataset.piece)")
    area = Area(CLASSIC.area_lattice, frozenset(tuple(int(v) for v in c.split(",")) for c in cells))
    found = solve(area, [CLASSIC.piece(pid) for pid in pieces])
    assert found is not None, (cells, pieces)
    return [Placement.covering(CLASSIC.piece(pid), shape) for pid, shape in found.items()]


def piece(page: Page, p: int, pid: str) -> Any:
    return page.locator(f'{seat(p)} g[data-piece="{pid}"]')


def centre(page: Page, selector: str) -> tuple[float, float]:
    x, y = page.eval_on_selector(selector, CENTRE_JS)
    return float(x), float(y)


def ends(page: Page, p: int, pl: Placement) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where to take hold of the piece (one of its cells) and where that cell must go."""
    entry = next(e for e in CAT["pieces"] if e["id"] == pl.piece)
    grab = entry["shapes"][str(pl.transform)][0]
    target = tuple(c + o for c, o in zip(grab, pl.offset, strict=True))
    start = centre(page, f'{seat(p)} g[data-piece="{pl.piece}"] polygon[data-cell="{key(grab)}"]')
    return start, centre(page, f'{seat(p)} polygon[data-area-cell="{key(target)}"]')


def turn_by_keys(page: Page, p: int, pl: Placement) -> None:
    """The selected piece turned (and flipped) with player ``p``'s own keys."""
    g = piece(page, p, pl.piece)
    expect(g).to_have_class("piece selected")
    now = int(g.get_attribute("data-transform") or 0)
    for k in key_presses(CAT, now, pl.transform):
        page.keyboard.press(TURN_KEYS[p][k])
    expect(g).to_have_attribute("data-transform", str(pl.transform))


def tap_and_turn(page: Page, p: int, pl: Placement) -> None:
    """A finger taps the piece (selected) and the board's Rotate and Flip buttons."""
    page.touchscreen.tap(*centre(page, f'{seat(p)} g[data-piece="{pl.piece}"] polygon'))
    g = piece(page, p, pl.piece)
    expect(g).to_have_class("piece selected")
    now = int(g.get_attribute("data-transform") or 0)
    for k in key_presses(CAT, now, pl.transform):
        page.locator(f"{seat(p)} .tool-{'rotate' if k == 'r' else 'flip'}").tap()
    expect(g).to_have_attribute("data-transform", str(pl.transform))


def two_fingers(cdp: CDPSession, a: tuple[Any, Any], b: tuple[Any, Any], steps: int = 12) -> None:
    """One gesture of two fingers at once: each from its start to its end, moving together."""

    def points(share: float) -> list[dict[str, float]]:
        return [
            {
                "x": s[0] + (e[0] - s[0]) * share,
                "y": s[1] + (e[1] - s[1]) * share,
                "id": i + 1,
                "radiusX": 4,
                "radiusY": 4,
                "force": 1,
            }
            for i, (s, e) in enumerate((a, b))
        ]

    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(0)})
    for i in range(1, steps + 1):
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points(i / steps)}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def mouse_into_place(page: Page, pl: Placement, last: bool) -> None:
    """Player 2 with the mouse: a click selects the piece, their keys turn it, a drag puts it."""
    page.mouse.click(*centre(page, f'{seat(1)} g[data-piece="{pl.piece}"] polygon'))
    turn_by_keys(page, 1, pl)
    (sx, sy), (tx, ty) = ends(page, 1, pl)
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(sx + 12, sy + 8, steps=3)
    page.mouse.move(tx, ty, steps=8)
    page.mouse.up()
    if not last:
        expect(piece(page, 1, pl.piece)).to_have_attribute("data-offset", key(pl.offset))


def keys_into_place(page: Page, pl: Placement, last: bool) -> None:
    """Player 1 with their keys only: M until the piece is in hand, turn, Enter, arrows."""
    g = piece(page, 0, pl.piece)
    for _ in range(6):
        if "selected" in (g.get_attribute("class") or ""):
            break
        page.keyboard.press("m")
    turn_by_keys(page, 0, pl)
    page.keyboard.press("Enter")
    expect(g).to_have_attribute("data-state", "placed")
    arrows_to(page, g, pl.offset)
    if not last:
        expect(g).to_have_attribute("data-offset", key(pl.offset))


def check_round(page: Page, round_: int) -> list[int]:
    """The round's result: both finished, the 1st took a sapphire and a gem from the bag, the
    2nd an amber and one; the order of the finishes is returned."""
    result = page.locator("#table-result")
    expect(result).to_be_visible()
    expect(page.locator("main.versus")).to_have_attribute("data-phase", "scored")
    lines = result.locator("li[data-gems]")
    expect(lines).to_have_count(2)
    order = [int(v) for v in lines.evaluate_all("els => els.map(e => e.dataset.player)")]
    gems = [g.split() for g in lines.evaluate_all("els => els.map(e => e.dataset.gems)")]
    assert sorted(order) == [0, 1] and [g[0] for g in gems] == ["sapphire", "amber"], gems
    assert all(len(g) == 2 and g[1] in VALUES for g in gems), gems
    places = [page.locator(f"{seat(p)} .versus-place").inner_text() for p in order]
    assert places == ["1st", "2nd"], places
    return order


def tally(page: Page) -> list[int]:
    cells = page.locator("#table-tally .table-points")
    return [int(v) for v in cells.evaluate_all("els => els.map(e => e.dataset.points)")]


def test_two_fingers_then_mouse_and_keys_play_a_classic_game_to_its_end(
    server: ServerProcess, browser: Browser
) -> None:
    errors: list[str] = []
    # reduced motion: axe waits for the animations to end, and the sand runs for the round
    page = new_page(browser, errors, has_touch=True, reduced_motion="reduce")
    page.goto(server.url + "/")
    page.click("#versus-link")
    expect(page.locator("main.versus h1")).to_have_text("Local versus")
    page.goto(server.url + "/versus?edition=classic&seed=versus-28&rounds=2&seconds=600")
    page.fill("#versus-name-0", "Ada")
    page.fill("#versus-name-1", "Bob")
    expect(page.locator(".versus-player-row").first.locator("kbd").first).to_have_text("← ↑ → ↓")
    shot(page, "versus-setup-desktop")
    assert_accessible(page, "versus setup")
    page.click("#versus-start")

    # round 1: two fingers at once, a piece on each board in the same gesture
    page.click("#versus-go")
    expect(page.locator("#versus-key")).to_be_visible()
    plans = [plan(page, 0), plan(page, 1)]
    shot(page, "versus-round-desktop")
    assert_accessible(page, "versus round")
    cdp = page.context.new_cdp_session(page)
    for i in range(max(len(x) for x in plans)):
        for p in (0, 1):
            tap_and_turn(page, p, plans[p][i])
        last = i == len(plans[0]) - 1
        two_fingers(cdp, ends(page, 0, plans[0][i]), ends(page, 1, plans[1][i]))
        if not last:
            for p in (0, 1):
                expect(piece(page, p, plans[p][i].piece)).to_have_attribute(
                    "data-offset", key(plans[p][i].offset)
                )
    check_round(page, 1)
    shot(page, "versus-round-result-desktop")
    assert_accessible(page, "versus round result")
    first = tally(page)
    assert sorted(first) != [0, 0]

    # round 2: player 1 with the keys, player 2 with the mouse, taking turns piece by piece
    page.click("#versus-next")
    page.click("#versus-go")
    expect(page.locator("#versus-round")).to_have_attribute("data-round", "2")
    plans = [plan(page, 0), plan(page, 1)]
    for i in range(len(plans[0])):
        last = i == len(plans[0]) - 1
        mouse_into_place(page, plans[1][i], last)
        if last:
            expect(page.locator(f"{seat(1)} .versus-place")).to_have_text("1st")
        keys_into_place(page, plans[0][i], last)
    assert check_round(page, 2) == [1, 0]
    points = tally(page)

    # the end: the most points win; level, the playoff is played first (no clock)
    page.click("#versus-next")
    if points[0] == points[1]:
        expect(page.locator("main.versus")).to_have_attribute("data-phase", "tie")
        for i, pl in enumerate(plan(page, 0)):
            keys_into_place(page, pl, i == len(plan(page, 0)) - 1)
        best = [0]
    else:
        best = [max((0, 1), key=lambda p: points[p])]
    winner = page.locator("#versus-winner")
    expect(winner).to_have_attribute("data-winners", " ".join(map(str, best)))
    expect(winner).to_contain_text(["Ada", "Bob"][best[0]])
    expect(page.locator(f"{seat(best[0])} .versus-place")).to_have_text("Winner")
    expect(page.locator(seat(best[0]))).to_have_attribute("data-winner", "true")
    shot(page, "versus-end-desktop")
    assert_accessible(page, "versus end")
    assert not errors, errors


def test_a_phone_is_told_its_screen_is_too_small(server: ServerProcess, browser: Browser) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, viewport={"width": 390, "height": 844}, has_touch=True)
    page.goto(server.url + "/versus")
    expect(page.locator("#versus-too-small")).to_contain_text("too small")
    expect(page.locator("#versus-start")).to_have_count(0)
    shot(page, "versus-phone")
    page.locator("#language").select_option("de")
    expect(page.locator("#versus-too-small")).to_contain_text("zu klein")
    assert_accessible(page, "versus on a phone")
    assert not errors, errors


def test_three_players_on_a_tablet_in_german_and_dark_play_extreme(
    server: ServerProcess, browser: Browser
) -> None:
    """Extreme: the corner in turn, no clock until the first finish; nobody can finish."""
    errors: list[str] = []
    page = new_page(
        browser,
        errors,
        viewport={"width": 1024, "height": 768},
        has_touch=True,
        locale="de-DE",
        color_scheme="dark",
        reduced_motion="reduce",
    )
    page.goto(server.url + "/versus?edition=extreme&seed=tablet")
    expect(page.locator("main.versus h1")).to_have_text("Duell an einem Bildschirm")
    page.select_option("#versus-count", "3")
    expect(page.locator(".versus-player-row")).to_have_count(3)
    expect(page.locator(".versus-player-row").nth(2)).to_contain_text("Maus oder Finger")
    page.click("#versus-start")
    page.click("#versus-go")
    expect(page.locator("#versus-key")).to_have_attribute("data-key", "upper-left")
    for p in range(3):
        expect(page.locator(f"{seat(p)} .board-svg")).to_be_visible()
    cards = [page.locator(f"{seat(p)} .versus-board").get_attribute("data-card") for p in range(3)]
    assert len(set(cards)) == 3, cards  # each their own card
    # the countdown waits for the first finish
    expect(page.locator(".versus-head .table-clock")).to_be_hidden()
    shot(page, "versus-tablet-german-dark")
    assert_accessible(page, "versus, three players, German, dark")
    # another language in the middle of the round: the same boards, said in English
    page.locator("#language").select_option("en")
    expect(page.locator("main.versus h1")).to_have_text("Local versus · Extreme")
    expect(page.locator(f"{seat(2)} .versus-controls")).to_have_text("Mouse or touch on this board")
    assert [
        page.locator(f"{seat(p)} .versus-board").get_attribute("data-card") for p in range(3)
    ] == cards
    page.click("#versus-nobody")
    expect(page.locator("#table-result li[data-discarded]")).to_have_count(3)
    expect(page.locator(f"{seat(0)}")).to_have_attribute("data-state", "out")
    page.click("#versus-next")
    # the next round's corner is the next in the rulebook's order
    page.click("#versus-go")
    expect(page.locator("#versus-key")).to_have_attribute("data-key", "upper-right")
    assert not errors, errors


def test_versus_plays_offline_after_one_visit(server: ServerProcess, browser: Browser) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(server.url + "/")
    # the service worker controls the page and keeps the bundle (web/src/offline/pwa.ts)
    page.wait_for_selector("html[data-offline-ready='true']", state="attached", timeout=30_000)
    page.context.set_offline(True)
    page.reload()
    page.click("#offline-versus")
    expect(page.locator("#versus-start")).to_be_visible()
    page.goto(server.url + "/versus?edition=trigo&seed=offline")
    page.click("#versus-start")
    page.click("#versus-go")
    for p in range(2):
        expect(page.locator(f"{seat(p)} .board-svg [data-area-cell]").first).to_be_attached()
    shot(page, "versus-offline-trigo")
    page.context.set_offline(False)
    assert not errors, errors


def test_3d_each_player_a_level_and_their_own_keys(server: ServerProcess, browser: Browser) -> None:
    """Ubongo 3D: a level each, two scenes on one page; each player's keys reach their own
    board only (player 2's C takes a piece in hand, C again the next, X puts it back; player
    1's M takes theirs)."""
    errors: list[str] = []
    page = new_page(browser, errors, reduced_motion="reduce")
    page.goto(server.url + "/versus?edition=3d&seed=levels")
    page.select_option("#versus-side-1", "red")
    page.click("#versus-start")
    page.click("#versus-go")
    for p in range(2):
        expect(page.locator(f"{seat(p)} .board3d[data-ready]")).to_be_attached(timeout=30_000)
    sides = [page.locator(f"{seat(p)} .versus-board").get_attribute("data-side") for p in range(2)]
    assert sides == ["green", "red"]
    held = [page.locator(f'{seat(p)} .tray-piece[data-state="held"]') for p in range(2)]
    page.keyboard.press("c")
    expect(held[1]).to_have_count(1)
    expect(held[0]).to_have_count(0)
    first = held[1].get_attribute("data-piece")
    page.keyboard.press("c")  # the next piece in hand instead
    expect(held[1]).not_to_have_attribute("data-piece", first or "")
    page.keyboard.press("m")
    expect(held[0]).to_have_count(1)
    expect(held[1]).to_have_count(1)
    shot(page, "versus-3d-desktop")
    page.keyboard.press("x")  # player 2's back to the tray
    expect(held[1]).to_have_count(0)
    expect(held[0]).to_have_count(1)
    assert not errors, errors


def test_nobody_in_time_the_hourglass_again_then_a_playoff_nobody_finishes(
    server: ServerProcess, browser: Browser
) -> None:
    """A one-round Classic game with a 2 s hourglass that nobody plays: the hourglass is turned
    again on the same boards (the rulebook's second chance), then the round ends with the
    display's gems tossed into the bag; 0 to 0 is a tie, played off on fresh boards with no
    clock, and "share the win" ends it with both named."""
    errors: list[str] = []
    page = new_page(browser, errors, reduced_motion="reduce")
    page.goto(server.url + "/versus?edition=classic&seed=nobody&rounds=1&seconds=2")
    page.click("#versus-start")
    page.click("#versus-go")
    cards = [page.locator(f"{seat(p)} .versus-board").get_attribute("data-card") for p in range(2)]
    expect(page.locator("#versus-note")).to_be_visible()  # the second chance
    expect(page.locator(f"{seat(0)} .board-svg")).to_be_visible()
    assert [
        page.locator(f"{seat(p)} .versus-board").get_attribute("data-card") for p in range(2)
    ] == cards
    expect(page.locator("#table-result .table-to-bag")).to_have_attribute(
        "data-gems", "sapphire amber"
    )
    for p in range(2):
        expect(page.locator(seat(p))).to_have_attribute("data-state", "out")
    page.click("#versus-next")
    expect(page.locator("main.versus")).to_have_attribute("data-phase", "tie")
    expect(page.locator("#versus-round")).to_have_text("Playoff")
    expect(page.locator(".versus-head .table-clock")).to_be_hidden()
    playoff = [
        page.locator(f"{seat(p)} .versus-board").get_attribute("data-card") for p in range(2)
    ]
    assert set(playoff).isdisjoint(cards), (playoff, cards)  # fresh cards from the pile
    page.click("#versus-share")
    expect(page.locator("#versus-winner")).to_have_attribute("data-winners", "0 1")
    expect(page.locator(".versus-seat[data-winner]")).to_have_count(2)  # a shared win
    assert not errors, errors
