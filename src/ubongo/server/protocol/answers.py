"""The HTTP answers of ``docs/protocol.md`` as pydantic models (the requests are in
:mod:`.incoming`, the WebSocket's messages in :mod:`.outgoing`).

Each route's answer has one model here (:data:`RESPONSES` maps the routes to them), and so
does every HTTP error. Like the WebSocket's models they refuse unknown fields; a field that
may be missing (not ``null``) is marked so in the schema and is optional in TypeScript.

>>> ApiError.model_validate({"error": {"code": "no_room", "message": "no room 'X'"}}).error.code
'no_room'
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, RootModel
from pydantic.json_schema import SkipJsonSchema

from ubongo.editions.record import KeyKind
from ubongo.rules.settings import Mode, Puzzles, SoloGoal, TieBreak, Variant
from ubongo.rules.state import RoundKind

from . import arenas, community, editor, social, versus
from .events import CardAwards, GemAwards, NoAwards
from .incoming import CellCoords, Level, PieceId, Placement
from .outgoing import ProtocolCode
from .puzzles import PrintedTask, PuzzleTask
from .snapshot import Ms, RoomSettingsView, RoomSnapshot, Sent, SoloResult, TaskView
from .snapshot import SeatTicket as SeatTicket
from .stored import Action, RuleEvent, RulesSettings

#: what ``GET /api/health`` and the stored games count in (seconds since the Unix epoch)
EpochSeconds = float

#: the WebSocket's codes, and those only HTTP answers use
HttpErrorCode = Literal[
    ProtocolCode,
    community.PuzzleCode,
    "game_running",
    "already_seated",
    "already_waiting",
    "left_queue",
    "no_edition",
    "no_game",
    "not_found",
    "bad_method",
    "bad_puzzle",
    "playban",
    "name_taken",
    "name_reserved",
    "follow_limit",
    "already_challenged",
    "no_challenge",
    "challenge_gone",
    "bad_game",
    "no_task",
]


class ErrorDetail(Sent):
    code: HttpErrorCode
    message: str


class ApiError(Sent):
    """Every HTTP error (4xx, 503): ``404 no_room``, ``409 room_full``, ``422 bad_message`` ..."""

    error: ErrorDetail


class Health(Sent):
    """``GET /api/health``."""

    ok: bool
    server_time: Ms
    version: str
    redis: bool | SkipJsonSchema[None] = Field(
        default=None,
        description="only with --redis-url: whether this process hears Redis now",
    )
    leads_arenas: bool | SkipJsonSchema[None] = Field(
        default=None,
        description="only with --redis-url: whether this process pairs and scores the arenas",
    )


class EditionNames(RootModel[list[str]]):
    """``GET /api/editions``: the editions' names."""


LatticeName = Literal["square", "hexagon", "triangle", "cube"]


class CataloguePiece(Sent):
    """A piece: its names and colour, and its cells under each allowed transform."""

    id: str
    number: int
    name: str
    colour: str = Field(description="#rrggbb")
    colour_name: str
    size: int
    transforms: list[int]
    shapes: dict[str, list[list[int]]] = Field(description="cells by transform index")


class EditionCatalogue(Sent):
    """``GET /api/editions/{name}``: how to draw an edition and turn its pieces
    (``ubongo.catalogue``)."""

    format: Literal["ubongo-catalogue"]
    version: int
    edition: str
    lattice: LatticeName
    area_lattice: LatticeName
    layers: int
    reflections: bool
    group_size: int
    rotate: list[int] = Field(description="rotate[t]: t turned by the smallest clockwise step")
    flip: list[int] | None = Field(description="flip[t]: t mirrored; null without mirroring")
    pieces: list[CataloguePiece]


class EditionOptions(Sent):
    """What a client offers in its menus for one edition."""

    sides: list[str]
    default_side: str
    per_player_side: bool
    players: list[int] = Field(min_length=2, max_length=2, description="[fewest, most]")
    variants: list[Variant]
    rounds: int
    hourglass_seconds: float | None
    countdown_seconds: dict[str, float] | None = Field(description="by side")
    solo_goals: list[SoloGoal]
    solo_amounts: list[int]
    # what the screens show of the edition: its record's display facts (EditionRecord.web_json)
    title: str
    blurb: str
    side_labels: dict[str, str] = Field(description="each side's label, by side")
    side_word: str = Field(description="what a side is called: 'side', 'level' ...")
    key_kind: KeyKind = Field(description="what picks a card's task: a die, the corners, the card")
    gems: bool = Field(description="whether rounds are scored with gems (else with cards)")
    gem_values: dict[str, int] = Field(
        description="points per gem, by gem name, most valuable first (empty: no gems)"
    )
    place_gems: list[str] = Field(
        description="the display gem for each place (1st, 2nd ...), besides one from the bag"
    )
    gem_supply: dict[str, int] = Field(
        description="how many of each gem the box holds, by gem name, in the bag's order"
    )
    key_values: list[str] = Field(description="the task keys: die faces, corners or 'card'")
    tie_break: TieBreak = Field(description="what settles a tie for the most points by default")
    tie_round_key: str | None = Field(description="the key a tie round is played with")
    layers: int = Field(description="how many levels an area has (2 in 3D)")
    how_to: list[str]
    playable: bool = Field(description="whether the web client plays it")
    variant_labels: dict[str, str] = Field(description="each variant's label, by variant")
    solo_default: dict[SoloGoal, int] = Field(description="the default amount, by solo goal")


class Options(RootModel[dict[str, EditionOptions]]):
    """``GET /api/options``: the options of every edition, by name."""


class StoredPlayer(Sent):
    seat: int
    name: str
    kind: Literal["person", "bot"]
    level: Level | None
    account: int | None = Field(
        default=None, description="the seat's account, if it had one (missing before accounts)"
    )


class LiveRoom(Sent):
    """A game being played now that anybody may watch: ``hello`` with the ``code`` and
    ``spectate: true``."""

    code: str
    edition: str
    mode: Mode
    variant: Variant
    puzzles: Puzzles
    players: list[StoredPlayer]
    round: int = Field(description="the round being played (0: the first is being dealt)")
    rounds: int | None
    kind: RoundKind | None = Field(description="round, playoff, tie-round or solo")
    scores: dict[str, int] = Field(description="points (gems) or cards, by seat")
    spectators: int
    started_at: Ms | None


class LiveRooms(RootModel[list[LiveRoom]]):
    """``GET /api/live``: the public games being played now, the newest first (at most 50)."""


class OpenGame(Sent):
    """A room waiting for players that its host listed: anybody may take a free seat
    (``POST /api/rooms/{code}/seats``)."""

    code: str
    edition: str
    variant: Variant
    side: str
    rated: bool
    host: str | None
    players: list[StoredPlayer]
    free: int = Field(description="free seats")


class OpenGames(RootModel[list[OpenGame]]):
    """``GET /api/open-games``: the listed rooms waiting for players, the fullest first (at
    most 50)."""


class GameSummary(Sent):
    """A finished game in ``GET /api/games``."""

    id: int
    room: str
    edition: str
    mode: Mode
    variant: Variant
    players: list[StoredPlayer]
    winners: list[int]
    started_at: EpochSeconds
    finished_at: EpochSeconds


class GameList(RootModel[list[GameSummary]]):
    """``GET /api/games``: finished games, newest first."""


class StoredSettings(Sent):
    room: RoomSettingsView
    rules: RulesSettings


class DeckRef(Sent):
    """The deck a game was played with."""

    name: str
    seed: int
    cards: int


#: why a seat of a rated game was not rated (docs/fair-play.md): it finished a task faster
#: than a hand places its pieces, a finish of it came without a consistent play trace, its
#: result is held for review until a moderator clears it, or its account played the account of
#: another seat in as many rated games of the last 24 hours as count (``rated_games_per_pair``)
Unrated = Literal["too_fast", "no_trace", "bad_trace", "held", "pair_cap"]


class GameResult(Sent):
    winners: list[int]
    scores: dict[str, int] = Field(description="by player")
    names: dict[str, str] = Field(description="by player")
    record: SoloResult | SkipJsonSchema[None] = Field(default=None, description="solo only")
    deck: DeckRef
    events: list[RuleEvent]
    left: list[int] = Field(
        default_factory=list,
        description="rated games: the seats whose person left (a bot played on); they lose",
    )
    unrated: dict[str, Unrated] = Field(
        default_factory=dict,
        description="rated games: the players (seat ids) not rated, and why (docs/fair-play.md)",
    )


class StoredGame(GameSummary):
    """``GET /api/games/{id}``: one stored game, enough to replay it."""

    settings: StoredSettings
    seed: int
    events: list[Action] = Field(description="the actions, in order")
    result: GameResult


class ReplayTask(Sent):
    """A task a seat was dealt in a round (solo: each task drawn), and what became of it."""

    seat: int
    task: TaskView
    shown: float = Field(description="seconds since the round started (0 but in solo)")
    outcome: Literal["finished", "gave_up", "skipped", "unfinished"] = Field(
        description="solved, given up, put aside (solo), or open when the round ended"
    )
    at: float | None = Field(
        description="seconds since the round started when it was solved, given up or put aside"
    )
    place: int | None = Field(description="the finishing place (1 = first); null if unsolved")
    placements: list[Placement] | None = Field(
        description="the pieces as the finishing submit placed them; null if unsolved"
    )


class ReplayRound(Sent):
    """One round (or the playoff, the tie round, the solo run) of a replay."""

    number: int = Field(description="from 1, as round_started numbers it (tie-breaks count)")
    kind: RoundKind
    at: float = Field(description="seconds since the first round started")
    seconds: float | None = Field(description="how long it lasted; null if it never ended")
    key: str | None = Field(description="the die face, corner or card key of the round")
    roller: int | None
    tasks: list[ReplayTask] = Field(description="by seat (solo: in the order drawn)")
    finish_order: list[int]
    awards: GemAwards | CardAwards | NoAwards = Field(description="as round_ended gives them")
    scores: dict[str, int] | None = Field(
        description="points (gems) or cards by seat after the round; null if it never ended"
    )


class TaskAnalysis(Sent):
    """One task a seat was dealt, analysed: its solutions, one of them, the median player's
    time (the difficulty model), and the seat's own time."""

    seat: int
    solutions: int = Field(description="counted up to 200 (more: see more)")
    more: bool = Field(description="it has more solutions than counted")
    solution: list[Placement] = Field(description="one solution, as the solver found it")
    median_seconds: float = Field(description="the difficulty model's time of a median player")
    seconds: float | None = Field(description="the seat's own time; null if unsolved")
    own_differs: bool = Field(description="the seat solved it another way than the one shown")
    hinted_seconds: float = Field(description="the median's time with a hint at once, its cost in")
    hint_saves: float | None = Field(description="a hint at once would have saved (<0: cost)")


class RoundAnalysis(Sent):
    number: int
    kind: RoundKind
    tasks: list[TaskAnalysis]


class GameAnalysis(Sent):
    """``GET /api/games/{id}/analysis``: every round's tasks, analysed."""

    id: int
    edition: str
    rounds: list[RoundAnalysis]


class ReplayTie(Sent):
    seats: list[int]
    next: Literal["playoff", "tie-round"] | None = Field(description="the tie-break that followed")
    resolved: str | None = Field(description="why the win was shared, without a tie-break")


class ReplayResult(Sent):
    winners: list[int]
    scores: dict[str, int] = Field(description="by seat")
    tie: ReplayTie | None = Field(description="the last round left a tie")
    record: SoloResult | None = Field(description="solo only")


class GameReplay(Sent):
    """``GET /api/games/{id}/replay``: a stored game rebuilt by the rules from its seed and
    actions, round by round."""

    id: int
    room: str
    edition: str
    mode: Mode
    variant: Variant
    puzzles: Puzzles
    players: list[StoredPlayer]
    started_at: EpochSeconds
    finished_at: EpochSeconds
    seconds: float = Field(description="from the first round's start to the last round's end")
    origin: EpochSeconds = Field(description="when the first round started (what at counts from)")
    rounds: list[ReplayRound]
    result: ReplayResult
    chat: list[social.ReplayChatLine] | None = Field(
        description="what the players said: for an account seated in the game only, else null"
    )


class SoloRecordRow(Sent):
    id: int
    game_id: int
    name: str = Field(description="the account's name now; a run without an account: its name")
    account: int | None = Field(description="null: a run from before accounts")
    edition: str
    goal: SoloGoal
    amount: int
    side: str
    score: int = Field(description="tasks solved")
    seconds: float
    finished_at: EpochSeconds
    hints: int = Field(description="hints asked for during the run (0: none)")
    skipped: int = Field(description="tasks put aside (skipped or given up) during the run")


class RankedRecord(SoloRecordRow):
    rank: int


class Leaderboard(RootModel[list[RankedRecord]]):
    """``GET /api/leaderboard``: the best solo runs of one kind, best first."""


class PersonalBest(SoloRecordRow):
    runs: int


class PersonalBests(RootModel[list[PersonalBest]]):
    """``GET /api/records?name=`` or ``?account=``: one player's best run of each kind."""


class AccountTicket(Sent):
    """``POST /api/accounts``: a new account and its token, told only this once."""

    id: int
    name: str
    token: str = Field(description="keep it: send it as Authorization: Bearer <token>")


class AccountView(Sent):
    """``GET``/``PATCH /api/accounts/me``: the account a token belongs to."""

    id: int
    name: str


class ProfileGame(GameSummary):
    """One of an account's recent games, and the seat it played."""

    seat: int


class ProfileGames(RootModel[list[ProfileGame]]):
    """``GET /api/accounts/{id}/games``: an account's games, newest first, as filtered."""


class HeadToHead(Sent):
    """``GET /api/accounts/{id}/versus/{other}``: the games two accounts played together, and
    how the first finished against the other (a winner the other is not, or more points)."""

    games: int
    ahead: int
    behind: int
    level: int


class RatingView(Sent):
    """A rating in one edition (``docs/online-ratings.md``)."""

    rating: int = Field(description="shown: 1000 + 40 * (mu - 3 sigma), rounded")
    mu: float
    sigma: float
    games: int = Field(description="rated games played")
    provisional: bool = Field(description="fewer rated games than the provisional limit")


class RatingChange(Sent):
    """One rated game's change of an account's shown rating."""

    game_id: int
    at: EpochSeconds
    before: int
    after: int


class Profile(Sent):
    """``GET /api/accounts/{id}``: an account's public profile."""

    id: int
    name: str
    joined: EpochSeconds
    games: dict[str, int] = Field(description="games played, by edition")
    bests: list[PersonalBest] = Field(description="its best solo run of each kind")
    recent: list[ProfileGame] = Field(description="its latest games, newest first")
    ratings: dict[str, RatingView] = Field(description="its rating by edition (rated games)")
    history: dict[str, list[RatingChange]] = Field(
        description="by edition: its latest rated games' changes, oldest first (a chart)"
    )


class RatedPlayer(RatingView):
    """An account on the ratings leaderboard."""

    rank: int
    account: int
    name: str


class BotRating(RatingView):
    """A bot level's rating (bots are rated players: they anchor everyone's ratings)."""

    level: Level


class RatingsBoard(Sent):
    """``GET /api/ratings?edition=``: the edition's rated accounts, best first."""

    edition: str
    min_games: int = Field(description="rated games an account needs to appear")
    players: list[RatedPlayer]
    bots: list[BotRating] = Field(description="the bot levels' ratings, lowest first")


class QuickMatchLeft(Sent):
    """``DELETE /api/quickmatch``: whether the account was waiting (and is not any more)."""

    left: bool


#: (method, route) -> the model of its answer
class DailyTasks(Sent):
    """``GET /api/daily``: one edition's tasks of one day, the same for everyone, easiest first."""

    date: str = Field(description="YYYY-MM-DD (UTC)")
    edition: str
    tasks: list[PuzzleTask]
    seconds: list[float] = Field(description="each task's expected seconds for a median player")


class DailyEntry(Sent):
    """A rated daily run on its day's leaderboard."""

    rank: int
    game_id: int
    name: str = Field(description="the account's name now")
    account: int | None = Field(description="the player's account (its profile); null: none")
    solved: int
    skipped: int = Field(description="tasks put aside or given up")
    seconds: float = Field(description="the whole run")
    times: list[float | None] = Field(description="each task's seconds; null: not solved")
    finished_at: EpochSeconds


class DailyResults(Sent):
    """``GET /api/daily/results``: one edition's leaderboard of one day: rated runs (an
    account's first run of the day), most solved first, then the fastest."""

    date: str = Field(description="YYYY-MM-DD (UTC)")
    edition: str
    results: list[DailyEntry]


class HintPlacement(Sent):
    """Where a piece goes: its cells, and the same as a transform and offset (a ``submit``'s)."""

    piece: PieceId
    cells: list[CellCoords]
    transform: int
    offset: CellCoords


class HintAnswer(Sent):
    """``POST /api/hint``: a piece to put down, or the pieces to move, or nothing to do."""

    placement: HintPlacement | None = Field(
        description="the piece to put down next; null when stuck or solved"
    )
    move: list[PieceId] = Field(description="when stuck: the fewest placed pieces to take away")
    solved: bool
    message: str = Field(description="a sentence for the player")


class PracticeTask(Sent):
    """A task to practise on without the server (``ubongo.puzzles.practice``): where it is in
    the edition's shipped deck, what to cover, and one solution."""

    id: str = Field(description="edition-card-side-key: the same task keeps its id")
    card: int
    side: str
    key: str
    level: Literal["easy", "medium", "hard"] = Field(description="its rank among its side's")
    pieces: list[str]
    area: list[list[int]] = Field(description="area cells in the edition's lattice coordinates")
    layers: int = Field(description="2 for Ubongo 3D, else 1")
    difficulty: float = Field(description="expected seconds for a median player")
    solution: list[Placement] = Field(description="one arrangement that covers the area")


class PracticeEdition(Sent):
    """One edition in the practice bundle: all a client needs to show and play its tasks."""

    options: EditionOptions
    catalogue: EditionCatalogue
    tasks: list[PracticeTask]
    cards: dict[str, list[versus.VersusCard]] = Field(description="by side: local versus' deck")


class PracticeBundle(Sent):
    """``GET /api/practice-bundle``: practice tasks of every playable edition, kept by the web
    client's service worker for playing offline."""

    version: str = Field(description="changes whenever anything in the bundle does")
    editions: dict[str, PracticeEdition] = Field(description="by name, in the editions' order")


RESPONSES: dict[tuple[str, str], type[BaseModel]] = {
    ("GET", "/api/health"): Health,
    ("GET", "/api/editions"): EditionNames,
    ("GET", "/api/editions/{name}"): EditionCatalogue,
    ("GET", "/api/options"): Options,
    ("POST", "/api/rooms"): SeatTicket,
    ("GET", "/api/rooms/{code}"): RoomSnapshot,
    ("GET", "/api/live"): LiveRooms,
    ("GET", "/api/open-games"): OpenGames,
    ("POST", "/api/rooms/{code}/seats"): SeatTicket,
    ("GET", "/api/games"): GameList,
    ("GET", "/api/games/{game_id}"): StoredGame,
    ("GET", "/api/games/{game_id}/replay"): GameReplay,
    ("GET", "/api/games/{game_id}/analysis"): GameAnalysis,
    ("POST", "/api/replays"): GameReplay,
    ("GET", "/api/leaderboard"): Leaderboard,
    ("GET", "/api/records"): PersonalBests,
    ("POST", "/api/accounts"): AccountTicket,
    ("GET", "/api/accounts/me"): AccountView,
    ("PATCH", "/api/accounts/me"): AccountView,
    ("GET", "/api/accounts/{account_id}"): Profile,
    ("GET", "/api/accounts/{account_id}/games"): ProfileGames,
    ("GET", "/api/accounts/{account_id}/versus/{other_id}"): HeadToHead,
    ("GET", "/api/ratings"): RatingsBoard,
    ("POST", "/api/quickmatch"): SeatTicket,
    ("DELETE", "/api/quickmatch"): QuickMatchLeft,
    ("GET", "/api/daily"): DailyTasks,
    ("GET", "/api/daily/results"): DailyResults,
    ("POST", "/api/hint"): HintAnswer,
    ("GET", "/api/printed/{code}"): PrintedTask,
    ("POST", "/api/puzzles/verdict"): editor.PuzzleVerdict,
    ("GET", "/api/practice-bundle"): PracticeBundle,
    ("PUT", "/api/accounts/{account_id}/follow"): social.FollowState,
    ("DELETE", "/api/accounts/{account_id}/follow"): social.FollowState,
    ("GET", "/api/friends"): social.Friends,
    ("POST", "/api/challenges"): social.ChallengeView,
    ("GET", "/api/challenges"): social.Challenges,
    ("POST", "/api/challenges/{challenge_id}/accept"): SeatTicket,
    ("POST", "/api/challenges/{challenge_id}/decline"): social.ChallengeView,
    ("DELETE", "/api/challenges/{challenge_id}"): social.ChallengeView,
    ("GET", "/api/arenas"): arenas.ArenaList,
    ("POST", "/api/arenas"): arenas.ArenaView,
    ("GET", "/api/arenas/{arena_id}"): arenas.ArenaView,
    ("GET", "/api/arenas/{arena_id}/results"): arenas.ArenaResults,
    ("POST", "/api/arenas/{arena_id}/join"): arenas.ArenaView,
    ("DELETE", "/api/arenas/{arena_id}/join"): arenas.ArenaView,
    ("PATCH", "/api/arenas/{arena_id}/me"): arenas.ArenaView,
    ("GET", "/api/accounts/{account_id}/arenas"): arenas.ArenasPlayed,
    **community.RESPONSES,
}
