"""An arena's rules: points with the streak and the harder side, the standings' tie-break, and
pairing that never seats a player twice nor two accounts of one address together."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ubongo import editions
from ubongo.arena import Format, Free, Sheet, Standings, pairings, standings


def test_the_streak_doubles_from_the_third_win_until_a_race_is_not_won() -> None:
    sheet = Sheet(1, "Ada", 0.0)
    places = [1, 1, 1, 1, 2, 1, 1, 1, None, 1]
    for race, place in enumerate(places, start=1):
        sheet = sheet.scored(race, place, harder=False, at=float(race))
    assert [r.points for r in sheet.results] == [2, 2, 4, 4, 2, 2, 2, 4, 0, 2]
    assert [r.fire for r in sheet.results] == [False] * 2 + [True] * 3 + [False] * 2 + [True] + [
        False
    ] * 2
    assert sheet.points == 24 and sheet.wins == 8 and sheet.streak == 1


def test_a_win_on_the_harder_side_gives_one_point_more_which_is_not_doubled() -> None:
    sheet = Sheet(1, "Ada", 0.0)
    for race in (1, 2, 3):
        sheet = sheet.scored(race, 1, harder=True, at=float(race))
    sheet = sheet.scored(4, 2, harder=True, at=4.0)
    assert [r.points for r in sheet.results] == [3, 3, 5, 2]


def test_standings_break_ties_by_wins_then_by_who_got_there_first() -> None:
    # all three on 4 points
    two_wins = Sheet(1, "A", 0.0).scored(1, 1, False, 50.0).scored(2, 1, False, 60.0)
    early = Sheet(2, "B", 0.0)
    for race, at in ((1, 10.0), (2, 20.0), (3, 30.0), (4, 40.0)):
        early = early.scored(race, 2, False, at)
    late = Sheet(3, "C", 0.0)
    for race, at in ((1, 11.0), (2, 21.0), (3, 31.0), (4, 41.0)):
        late = late.scored(race, 3, False, at)
    gone = replace(Sheet(4, "D", 0.0).scored(1, 1, True, 1.0), removed=True)
    order = standings([late, gone, early, two_wins])
    assert [s.name for s in order] == ["A", "B", "C"]
    assert {s.points for s in order} == {4}


def test_without_points_the_earlier_joiner_ranks_higher() -> None:
    late, early = Sheet(1, "L", 5.0), Sheet(2, "E", 1.0).scored(1, None, False, 9.0)
    assert [s.name for s in standings([late, early])] == ["E", "L"]


#: a change to one account's sheet: a race scored (its place, and when: few times, so that
#: players tie), removed by fair play or put back, or gone (withdrawn before its first race)
_change = st.tuples(
    st.integers(1, 6),
    st.sampled_from(["scored", "removed", "back", "gone"]),
    st.sampled_from([1, 2, 3, None]),
    st.sampled_from([10.0, 20.0]),
)


@given(st.lists(_change, max_size=40))
def test_the_standings_kept_in_order_are_those_sorted_anew_after_every_change(
    changes: list[tuple[int, str, int | None, float]],
) -> None:
    """Standings moves a changed sheet to its place: after each change its order and every
    place are what sorting all the sheets again gives."""
    sheets = {a: Sheet(a, f"P{a}", float(a % 2)) for a in range(1, 7)}
    kept = Standings(sheets.values())
    for race, (account, what, place, at) in enumerate(changes, start=1):
        sheet = sheets.get(account, Sheet(account, f"P{account}", 0.0))
        if what == "gone":
            if account in sheets:
                del sheets[account], kept[account]
            continue
        if what == "scored":
            sheet = sheet.scored(race, place, False, at)
        sheets[account] = kept[account] = replace(sheet, removed=what == "removed")
        order = standings(sheets.values())
        assert list(kept.order) == order
        assert {a: kept.place(a) for a in sheets} == {
            a: next((i for i, s in enumerate(order, 1) if s.account == a), None) for a in sheets
        }
    assert dict(kept) == sheets


def test_a_sheet_is_kept_under_its_own_account_only() -> None:
    kept = Standings([Sheet(1, "A", 0.0)])
    with pytest.raises(ValueError, match="account 2"):
        kept[1] = Sheet(2, "B", 0.0)
    assert [s.name for s in kept.order] == ["A"]


@pytest.mark.parametrize("name", editions.names())
def test_every_edition_has_a_harder_side_but_on_its_hardest(name: str) -> None:
    sides = editions.record(name).deck.side_names
    assert Format(name, 30, 2, sides[0], "s").harder_side == sides[1]
    assert Format(name, 30, 2, sides[-1], "s").harder_side is None


def test_a_format_that_does_not_suit_its_edition_is_refused() -> None:
    Format("trigo", 30, 4, "hard", "s").check()
    with pytest.raises(ValueError, match="2-4 seats"):
        Format("classic", 30, 1, "A", "s").check()
    with pytest.raises(ValueError, match="no side"):
        Format("trigo", 30, 2, "A", "s").check()


free_players = st.lists(
    st.builds(
        Free,
        account=st.integers(1, 40),
        rank=st.integers(1, 40),
        mu=st.floats(0, 50),
        since=st.floats(0, 20),
        addresses=st.lists(st.sampled_from("abcdef"), max_size=2).map(tuple),
        last=st.frozensets(st.integers(1, 40), max_size=3),
    ),
    unique_by=lambda f: f.account,
    max_size=30,
)


@given(free_players, st.floats(0, 30), st.integers(2, 4))
def test_pairings_seat_each_player_once_apart_from_their_address_mates(
    free: list[Free], now: float, seats: int
) -> None:
    groups = pairings(free, now, seats, gather=2.0, alone=10.0)
    seated = [f.account for group, _ in groups for f in group]
    assert len(seated) == len(set(seated))
    for group, bots in groups:
        assert 1 <= len(group) <= seats and bots == seats - len(group)
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                assert not set(a.addresses) & set(b.addresses)
        waited = now - group[0].since
        if bots:
            assert waited >= 2.0 if len(group) > 1 else waited >= 10.0
        if waited < 2.0:
            # someone just back from the anchor's last race is not seated with them yet
            assert not any(f.account in group[0].last for f in group[1:])


def test_a_lone_player_waits_for_bots_no_less_than_for_someone_of_their_last_race() -> None:
    last = frozenset({1, 2})
    again = [Free(1, 1, 25.0, 0.0, last=last), Free(2, 2, 25.0, 0.0, last=last)]
    assert pairings(again, 1.0, 2, gather=2.0, alone=0.5) == []
    assert [len(g) for g, _ in pairings(again, 2.0, 2, gather=2.0, alone=0.5)] == [2]


def test_a_crowd_is_seated_at_once_in_full_races_neighbours_in_the_standings_together() -> None:
    free = [Free(i, rank=i, mu=25.0, since=100.0) for i in range(1, 1001)]
    groups = pairings(free, 100.0, 4, gather=2.0, alone=10.0)
    assert len(groups) == 250 and all(bots == 0 for _, bots in groups)
    assert all(max(f.rank for f in g) - min(f.rank for f in g) == 3 for g, _ in groups)
