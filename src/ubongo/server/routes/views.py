"""The store's records as the HTTP answers' JSON (``docs/protocol.md``; the models are in
:mod:`..protocol.answers`): the one place where stored things take their public shape.

>>> run = SoloRun(id=3, game_id=9, name="Ada", account=None, edition="classic", goal="time",
...     amount=5, side="A", score=4, seconds=300.0, finished_at=2.0, hints=0, skipped=1)
>>> ranked_runs([run])[0]["rank"], solo_run(run)["skipped"]
(1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..online.ratings import Rating
from ..store import (
    AccountRatings,
    DailyRun,
    PersonalBest,
    Profile,
    RatedAccount,
    SkillRating,
    SoloRun,
    StoredGame,
)


def game_summary(game: StoredGame) -> dict[str, Any]:
    """A finished game in a list (``GameSummary``)."""
    return {
        "id": game.id,
        "room": game.room,
        "edition": game.edition,
        "mode": game.mode,
        "variant": game.variant,
        "players": game.players,
        "winners": game.winners,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
    }


#: what a stored game's result keeps for the moderators only (docs/fair-play.md): the play
#: traces (how each finish was played)
PRIVATE_RESULT = frozenset({"traces"})


def stored_game(game: StoredGame) -> dict[str, Any]:
    """One stored game, enough to replay it (``StoredGame``), without what its result keeps
    for the moderators."""
    return {
        **game_summary(game),
        "settings": game.settings,
        "seed": game.seed,
        "events": game.events,
        "result": {k: v for k, v in game.result.items() if k not in PRIVATE_RESULT},
    }


def solo_run(run: SoloRun) -> dict[str, Any]:
    """A solo run on a leaderboard or among personal bests (``SoloRecordRow``)."""
    return {
        "id": run.id,
        "game_id": run.game_id,
        "name": run.name,
        "account": run.account,
        "edition": run.edition,
        "goal": run.goal,
        "amount": run.amount,
        "side": run.side,
        "score": run.score,
        "seconds": run.seconds,
        "finished_at": run.finished_at,
        "hints": run.hints,
        "skipped": run.skipped,
    }


def ranked_runs(runs: Sequence[SoloRun]) -> list[dict[str, Any]]:
    """A leaderboard of solo runs, numbered from 1 (``Leaderboard``)."""
    return [{"rank": i, **solo_run(run)} for i, run in enumerate(runs, 1)]


def personal_bests(bests: Sequence[PersonalBest]) -> list[dict[str, Any]]:
    """A player's best run of each kind (``PersonalBests``)."""
    return [{**solo_run(best.run), "runs": best.runs} for best in bests]


def daily_runs(runs: Sequence[DailyRun]) -> list[dict[str, Any]]:
    """A day's leaderboard, numbered from 1 (``DailyEntry``)."""
    return [
        {
            "rank": i,
            "game_id": r.game_id,
            "name": r.name,
            "account": r.account,
            "solved": r.solved,
            "skipped": r.skipped,
            "seconds": r.seconds,
            "times": r.times,
            "finished_at": r.finished_at,
        }
        for i, r in enumerate(runs, 1)
    ]


def rating(stored: SkillRating, bot: bool = False) -> dict[str, Any]:
    """A rating as shown (``RatingView``): a bot's is never provisional."""
    return Rating.of(stored).to_json(bot=bot)


def rated_players(ranked: Sequence[RatedAccount]) -> list[dict[str, Any]]:
    """The accounts of a ratings leaderboard, in their order, numbered from 1 (``RatedPlayer``)."""
    return [
        {"rank": i, "account": a.rating.account, "name": a.name, **rating(a.rating)}
        for i, a in enumerate(ranked, 1)
    ]


def rated_bots(bots: Sequence[SkillRating]) -> list[dict[str, Any]]:
    """The bot levels' ratings, lowest shown rating first (``BotRating``)."""
    shown = [{"level": b.subject.removeprefix("bot:"), **rating(b, bot=True)} for b in bots]
    shown.sort(key=lambda b: b["rating"])
    return shown


def profile(found: Profile, bests: Sequence[PersonalBest], rated: AccountRatings) -> dict[str, Any]:
    """An account's public profile (``Profile``)."""
    return {
        "id": found.id,
        "name": found.name,
        "joined": found.joined,
        "games": found.games,
        "recent": [{**game_summary(g.game), "seat": g.seat} for g in found.recent],
        "bests": personal_bests(bests),
        "ratings": {edition: rating(r) for edition, r in rated.ratings.items()},
        "history": {
            edition: [
                {"game_id": c.game_id, "at": c.at, "before": c.before, "after": c.after}
                for c in changes
            ]
            for edition, changes in rated.history.items()
        },
    }
