"""Table mode (/table, issue 28): a three-round Classic game played with the real box, the page
rolling the die, running the hourglass (six seconds, `?seconds=6`: time enough for the calls on
a loaded machine; a shorter game: `?rounds=3`) and dealing the gems. Checked against the
Classic rulebook (shared/seeds/002_3e3757d0752a95d9.txt,
"Rewards", "Second-chance Round", "End of the Round", "End of the Game"): the 1st caller takes a
sapphire from the display and a gem from the bag, the 2nd an amber and one from the bag, the
3rd one from the bag; display gems nobody claimed go into the bag; nobody in time: the
hourglass is turned again. The die and the bag are drawn from the seed in the address, so the
test draws them too (the same generator written again below) and expects the very same gems.
Then the phone (390 px, touch, reduced motion) and German; axe on every screen."""

from __future__ import annotations

import re

from axe import assert_accessible
from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from webharness import shot

from ubongo import editions

CLASSIC = editions.record("classic")
VALUES = CLASSIC.scoring.gem_values
SEED = "issue-28"
MASK = 0xFFFFFFFF


def seeded(seed: str, *what: object) -> object:
    """web/src/table/logic.ts's seeded(): FNV-1a over "seed:what:...", then mulberry32."""
    h = 0x811C9DC5
    for ch in ":".join([seed, *(str(w) for w in what)]):
        h = ((h ^ ord(ch)) * 0x01000193) & MASK
    state = [h]

    def imul(a: int, b: int) -> int:
        return (a * b) & MASK

    def random() -> float:
        state[0] = (state[0] + 0x6D2B79F5) & MASK
        x = state[0]
        x = imul(x ^ (x >> 15), x | 1)
        x ^= (x + imul(x ^ (x >> 7), x | 61)) & MASK
        return ((x ^ (x >> 14)) & MASK) / 4294967296

    return random


def die(round_: int) -> str:
    faces = list(CLASSIC.deck.keys)
    return faces[int(seeded(SEED, "die", round_)() * len(faces))]  # type: ignore[operator]


def deal(bag: dict[str, int], round_: int, calls: list[int]) -> list[list[str]]:
    """The rulebook's Rewards for ``calls`` (in order), drawing as the page does; ``bag``
    changes as the real one would, unclaimed display gems tossed in at the end."""
    place_gems = list(CLASSIC.scoring.place_gems)
    out = []
    for i, _ in enumerate(calls):
        got = [place_gems[i]] if i < len(place_gems) else []
        n = int(seeded(SEED, "bag", round_, i + 1)() * sum(bag.values()))  # type: ignore[operator]
        for gem, count in bag.items():
            if n < count:
                bag[gem] -= 1
                got.append(gem)
                break
            n -= count
        out.append(got)
    for gem in place_gems[len(calls) :]:
        bag[gem] += 1
    return out


def tap_call(page: Page, player: int) -> None:
    page.locator(f"#table-call-{player}").click()


def play_round(page: Page, round_: int, roller: str) -> None:
    """Roll the die (the roller named, the face the seed's) and turn the hourglass."""
    expect(page.locator("#table-round")).to_have_attribute("data-round", str(round_))
    expect(page.locator(".table-roller")).to_contain_text(roller)
    page.locator("#table-roll").click()
    expect(page.locator("#table-key")).to_have_attribute("data-key", die(round_))
    page.locator("#table-go").click()
    expect(page.locator(".table-clock")).to_have_attribute("data-state", "running")


def gems_given(page: Page) -> list[list[str]]:
    rows = page.locator("#table-result li[data-player]")
    return [rows.nth(i).get_attribute("data-gems").split() for i in range(rows.count())]  # type: ignore[union-attr]


def test_three_rounds_of_classic(page: Page, server: ServerProcess) -> None:
    page.goto(server.url + "/")
    expect(page.locator("#table-link")).to_have_attribute("href", "/table")
    page.goto(server.url + f"/table?seed={SEED}&seconds=6&rounds=3")
    expect(page.locator("#table-start")).to_be_visible()
    page.locator("input[name=table-edition][value=classic]").check()
    page.locator("#table-count").select_option("3")
    for i, name in enumerate(["Ada", "Ben", "Cy"]):
        page.locator(f"#table-name-{i}").fill(name)
    page.locator("#table-colour-2").select_option("yellow")
    assert_accessible(page, "table setup")
    shot(page, "table-setup")
    page.locator("#table-start").click()

    bag = {g.name: g.supply for g in CLASSIC.scoring.gems}
    for gem in CLASSIC.scoring.place_gems:
        bag[gem] -= 3  # three rounds: three of each on the display
    total: dict[int, dict[str, int]] = {p: {} for p in range(3)}
    expect(page.locator("#table-supplies")).to_have_attribute("data-bag", str(sum(bag.values())))

    # round 1: Ben calls first, then Ada; Ben again is ignored; Ada's call undone and made
    # again; the sand runs out with the sound; 1st and 2nd take their gems
    play_round(page, 1, "Ada")
    wake = page.evaluate("document.querySelector('main').dataset.wakeLock")
    assert wake in ("held", "unsupported")
    tap_call(page, 1)
    tap_call(page, 0)
    tap_call(page, 1)
    expect(page.locator("#table-calls li")).to_have_count(2)
    page.locator("#table-undo").click()
    expect(page.locator("#table-calls li")).to_have_count(1)
    tap_call(page, 0)
    expect(page.locator("#table-calls li")).to_have_text([re.compile("Ben"), re.compile("Ada")])
    shot(page, "table-running")
    # (axe waits for the sand's animation to end: the running screen without it is the phone's)
    assert_accessible(page, "table round")
    expect(page.locator("#main")).to_have_attribute("data-phase", "timeup")
    assert page.evaluate("window.ubongoTableSounds") == ["time-up"]
    expect(page.locator("#table-call-2")).to_be_disabled()  # too late for Cy
    page.locator("#table-score").click()
    want = deal(bag, 1, [1, 0])
    assert gems_given(page) == want
    assert want[0][0] == "sapphire" and want[1][0] == "amber"
    expect(page.locator("#table-supplies")).to_have_attribute("data-bag", str(sum(bag.values())))
    assert_accessible(page, "table round result")
    shot(page, "table-result")
    for p, got in zip([1, 0], want, strict=True):
        for g in got:
            total[p][g] = total[p].get(g, 0) + 1
    page.locator("#table-next").click()

    # another language in the middle of the game: the same game, in German, and back
    page.locator("#language").select_option("de")
    expect(page.locator("h1")).to_have_text("Tischmodus · Classic")
    expect(page.locator("#table-round")).to_have_text("Runde 2 von 3")
    expect(page.locator("#table-tally tr[data-player='1'] .table-points")).not_to_have_text("0")
    page.locator("#language").select_option("en")
    expect(page.locator("#table-roll")).to_have_text("Roll the die")

    # round 2: nobody in time, a second chance (the same task), then only Cy: the amber of the
    # round goes into the bag
    page.locator("#table-sound").uncheck()  # muted: the first run-out is silent
    play_round(page, 2, "Ben")
    expect(page.locator("#table-second")).to_be_visible()
    assert page.evaluate("window.ubongoTableSounds") == ["time-up"]
    page.locator("#table-sound").check()
    page.locator("#table-second").click()
    expect(page.locator("#table-key")).to_have_attribute("data-key", die(2))
    tap_call(page, 2)
    expect(page.locator("#table-score")).to_be_visible()
    page.locator("#table-score").click()
    want = deal(bag, 2, [2])
    assert gems_given(page) == want
    expect(page.locator("#table-result .table-to-bag")).to_have_attribute("data-gems", "amber")
    expect(page.locator("#table-supplies")).to_have_attribute("data-bag", str(sum(bag.values())))
    for g in want[0]:
        total[2][g] = total[2].get(g, 0) + 1
    page.locator("#table-next").click()

    # round 3: everyone calls, so the round ends at once without waiting for the sand
    play_round(page, 3, "Cy")
    for p in (0, 2, 1):
        tap_call(page, p)
    expect(page.locator("#main")).to_have_attribute("data-phase", "timeup")
    page.locator("#table-score").click()
    want = deal(bag, 3, [0, 2, 1])
    assert gems_given(page) == want
    for p, got in zip([0, 2, 1], want, strict=True):
        for g in got:
            total[p][g] = total[p].get(g, 0) + 1
    # the display is empty after the last round; the tally is each player's gems' points
    expect(page.locator("#table-supplies .gem-count")).to_have_text([re.compile("×0$")] * 2)
    pts = [sum(VALUES[g] * n for g, n in total[p].items()) for p in range(3)]
    for p in range(3):
        expect(page.locator(f"#table-tally tr[data-player='{p}'] .table-points")).to_have_text(
            str(pts[p])
        )
    page.locator("#table-next").click()

    # the winner, or the rulebook's playoff for a tie (one die roll, the first to finish wins)
    best = [p for p in range(3) if pts[p] == max(pts)]
    if len(best) > 1:
        expect(page.locator("#table-tie")).to_have_attribute("data-tie", "playoff")
        page.locator(f"#table-call-{best[-1]}").click()
        best = [best[-1]]
    expect(page.locator("#table-winner")).to_have_attribute("data-winners", str(best[0]))
    expect(page.locator("#table-winner h2")).to_contain_text(["Ada", "Ben", "Cy"][best[0]])
    assert page.evaluate("document.querySelector('main').dataset.wakeLock") != "held"
    # every round kept, folded, to settle a doubt: its die face and what each caller took
    page.locator("#table-history summary").click()
    rounds = page.locator("#table-history > ol > li")
    expect(rounds).to_have_count(3)
    expect(rounds.nth(1)).to_contain_text(f"Die: {die(2)}")
    assert_accessible(page, "table winner")
    shot(page, "table-winner")


def test_phone_touch_reduced_motion_german(browser: Browser, server: ServerProcess) -> None:
    """A 390 px phone held by German players, dark, motion reduced: the bar instead of the sand,
    every button a finger's size, the calls tapped; Extreme's countdown starts at the first call
    and the others hand their cards to the first; ties."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        locale="de-DE",
        reduced_motion="reduce",
        color_scheme="dark",
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + f"/table?seed={SEED}&seconds=5")
    expect(page.locator("h1")).to_have_text("Tischmodus")
    page.locator("input[name=table-edition][value=extreme]").check()
    expect(page.locator("#table-side")).to_be_visible()  # the side sets the countdown
    page.locator("#table-start").tap()
    expect(page.locator("#table-key")).to_have_attribute("data-key", "upper-left")
    page.locator("#table-go").tap()
    expect(page.locator(".table-clock")).to_be_hidden()  # no clock before the first call
    page.locator("#table-call-1").tap()
    expect(page.locator(".table-clock")).to_have_attribute("data-state", "running")
    expect(page.locator(".table-bar")).to_be_visible()
    expect(page.locator(".table-glass")).to_be_hidden()
    for sel in ("#table-call-0", "#table-call-1", "#table-undo"):
        box = page.locator(sel).bounding_box()
        assert box and box["height"] >= 44 and box["width"] >= 44, sel
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert_accessible(page, "table countdown (phone, German)")
    shot(page, "table-phone-countdown")
    expect(page.locator("#table-score")).to_be_visible()
    page.locator("#table-score").tap()
    expect(page.locator("#table-result li[data-kept='1']")).to_have_count(1)
    expect(page.locator("#table-result li[data-handed='0']")).to_have_count(1)
    expect(page.locator("#table-tally tr[data-player='1'] .table-points")).to_have_text("2")
    page.locator("#table-next").tap()
    expect(page.locator("#table-key")).to_have_attribute("data-key", "upper-right")
    shot(page, "table-phone-next")

    # a two-round game that ends level, one card each: Extreme's tie round (each plays the top
    # card of the player to their left, the upper-right task); then nobody wins a card in a
    # one-round game: no card to play a tie round with, so the win is shared (the rules'
    # choice); Trigo shares a tie anyway
    page.goto(server.url + "/table?edition=extreme&rounds=2&seconds=5")
    page.locator("#table-start").tap()
    for p in (0, 1):
        page.locator("#table-go").tap()
        page.locator(f"#table-call-{p}").tap()
        page.locator(f"#table-call-{1 - p}").tap()
        page.locator("#table-score").tap()
        page.locator("#table-next").tap()
    expect(page.locator("#table-tie")).to_have_attribute("data-tie", "tie-round")
    expect(page.locator("#table-tie #table-key")).to_have_attribute("data-key", "upper-right")
    expect(page.locator("#table-tie li")).to_have_text(
        ["Spieler 1 spielt die oberste Karte von Spieler 2", re.compile("Spieler 2 .* Spieler 1")]
    )
    assert_accessible(page, "table tie round (phone, German)")
    shot(page, "table-phone-tie-round")
    page.locator("#table-call-1").tap()
    expect(page.locator("#table-winner")).to_have_attribute("data-winners", "1")
    page.goto(server.url + "/table?edition=extreme&rounds=1")
    page.locator("#table-start").tap()
    page.locator("#table-go").tap()
    page.locator("#table-nobody").tap()
    page.locator("#table-score").tap()
    expect(page.locator("#table-result li[data-discarded]")).to_have_count(2)
    page.locator("#table-next").tap()
    expect(page.locator("#table-winner")).to_have_attribute("data-winners", "0 1")
    # Classic's playoff: nobody finishes a one-round game (nor its second chance): 0 to 0; one die
    # roll, no hourglass, the first to finish wins
    page.goto(server.url + f"/table?edition=classic&rounds=1&seconds=1&seed={SEED}")
    page.locator("#table-start").tap()
    page.locator("#table-roll").tap()
    page.locator("#table-go").tap()
    page.locator("#table-second").tap()
    page.locator("#table-score").tap()
    expect(page.locator("#table-result .table-to-bag")).to_have_attribute(
        "data-gems", "sapphire amber"
    )
    page.locator("#table-next").tap()
    expect(page.locator("#table-tie")).to_have_attribute("data-tie", "playoff")
    expect(page.locator("#table-tie #table-key")).to_be_visible()
    expect(page.locator(".table-clock")).to_be_hidden()
    shot(page, "table-phone-playoff")
    page.locator("#table-call-0").tap()
    expect(page.locator("#table-winner")).to_have_attribute("data-winners", "0")
    page.goto(server.url + "/table?edition=trigo&rounds=1")
    page.locator("#table-start").tap()
    page.locator("#table-go").tap()
    page.locator("#table-nobody").tap()
    page.locator("#table-score").tap()
    page.locator("#table-next").tap()
    expect(page.locator("#table-winner")).to_have_attribute("data-winners", "0 1")
    expect(page.locator("#table-winner h2")).to_have_text(
        "Spieler 1 und Spieler 2 teilen sich den Sieg!"
    )
    context.close()
    assert not errors, errors
