// The messages and bodies the client and the server exchange (docs/protocol.md), by the names
// the client uses. Every type here is generated from the server's pydantic models
// (protocol.gen.ts, written by `make protocol`; `make lint` fails when it is stale): the client
// declares no message shape of its own. The room store (room/store.ts) is the only reader of
// server messages.

import type * as gen from "./protocol.gen";

/** A taken seat. */
export type Seat = gen.SeatView;
/** One seat's task: card, side, key, pieces, area. */
export type Task = gen.TaskView;
export type Score = gen.Score;
/** A player's gems by colour. */
export type Gems = gen.Gems;
export type Finish = gen.Finish;
/** A solo run so far. */
export type SoloState = gen.SoloProgress;
/** The public game table (the same for every player and spectator). */
export type GameView = gen.GameTable;
/** The room's settings in force. */
export type Settings = gen.RoomSettingsView;
/** What a host may change: every setting, each optional. */
export type SettingsPatch = gen.SettingsPatch;
/** A room as everybody in it sees it (the welcome's and every event's `room`). */
export type Room = gen.RoomSnapshot;
export type Verdict = gen.Verdict;
/** The answer to `hint` (solo, practice): a piece to put down, or the pieces to move. */
export type HintReply = gen.HintReply;
/** A daily challenge run's result: times, rating and the text to share. */
export type DailyResult = gen.DailyResult;
/** `GET /api/daily/results`: one edition's leaderboard of one day. */
export type DailyResults = gen.DailyResults;
/** A bot's level. */
export type BotLevel = NonNullable<gen.SeatView["level"]>;
/** What a solo run aims at. */
export type SoloGoal = Settings["solo_goal"];
/** A rules variant. */
export type Variant = Settings["variant"];
export type Placement = gen.Placement;
/** One step of a play trace (`submit`'s `trace`): a piece picked, turned, placed or lifted. */
export type TraceStep = gen.TraceStep;

/** Server to client over `/ws`. */
export type ServerMessage = gen.ServerMessage;
/** Client to server over `/ws`. */
export type ClientMessage = gen.ClientMessage;

/** A room event as it arrives: kind, data, and the room's snapshot after it. */
export type RoomEventMessage = gen.RoomEvent;
/** `T` without `K`, member by member of a union (so that `kind` still tells `data`'s type). */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A room event as the store keeps it: the event message without the snapshot it carried. */
export type RoomEvent = OmitEach<gen.RoomEvent, "type" | "room">;
/** The event of one kind. */
export type EventOf<K extends RoomEvent["kind"]> = Extract<RoomEvent, { kind: K }>;

/** `POST /api/rooms`'s body. */
export type CreateRoom = gen.CreateRoom;
/** `POST /api/rooms/{code}/seats`'s body. */
export type TakeSeat = gen.TakeSeat;
/** `POST /api/rooms` and `POST /api/rooms/{code}/seats`: the seat taken and its token. */
export type SeatGrant = gen.SeatTicket;
/** One edition's entry in `GET /api/options`: its record's menus and what the screens show. */
export type EditionOptions = gen.EditionOptions;
export type Options = gen.Options;
export type EditionCatalogue = gen.EditionCatalogue;
export type CataloguePiece = gen.CataloguePiece;
export type Leaderboard = gen.Leaderboard;
export type RankedRecord = gen.RankedRecord;
export type PersonalBest = gen.PersonalBest;
export type PersonalBests = gen.PersonalBests;
export type GameList = gen.GameList;
export type StoredGame = gen.StoredGame;
export type SoloResult = gen.SoloResult;
/** `POST /api/accounts`: the new account and its token. */
export type AccountTicket = gen.AccountTicket;
export type AccountView = gen.AccountView;
export type NewAccount = gen.NewAccount;
export type Rename = gen.Rename;
export type Profile = gen.Profile;
/** `GET /api/games/{id}/replay`: a stored game rebuilt by the rules, round by round. */
export type GameReplay = gen.GameReplay;
export type ReplayRound = gen.ReplayRound;
export type ReplayTask = gen.ReplayTask;
/** `GET /api/live`: the games being played now that anybody may watch. */
export type LiveRoom = gen.LiveRoom;
/** `POST /api/quickmatch`'s body: the edition and the number of players. */
export type QuickMatch = gen.QuickMatch;
export type QuickMatchLeft = gen.QuickMatchLeft;
/** `GET /api/ratings`: an edition's rated accounts and the bot levels' ratings. */
export type RatingsBoard = gen.RatingsBoard;
export type RatingView = gen.RatingView;
export type RatingMove = gen.RatingMove;
export type RatingChange = gen.RatingChange;
/** Every HTTP error's body. */
export type ApiErrorBody = gen.ApiError;
/** `GET /api/daily` and `POST /api/hint`: the rules screen's example task and its solution. */
export type DailyTasks = gen.DailyTasks;
export type PuzzleTask = gen.PuzzleTask;
export type HintRequest = gen.HintRequest;
export type HintAnswer = gen.HintAnswer;
/** `POST /api/puzzles/verdict`'s body: a drawn puzzle as a puzzle file (docs/puzzle-format.md). */
export type VerdictRequest = gen.VerdictRequest;
/** The editor's verdict on a drawn puzzle (docs/editor.md). */
export type PuzzleVerdict = gen.PuzzleVerdict;
/** GET /api/practice-bundle: what the browser keeps to practise offline (offline/bundle.ts). */
export type PracticeBundle = gen.PracticeBundle;
export type PracticeEdition = gen.PracticeEdition;
export type PracticeTask = gen.PracticeTask;
export type VersusCard = gen.VersusCard;
/** Server to client over `/ws/notices` (docs/social.md). */
export type Notice = gen.Notice;
/** A challenge made to or by this player, or answered; the challenger's seat once accepted. */
export type ChallengeNotice = gen.ChallengeNotice;
export type Challenge = gen.ChallengeView;
/** `GET /api/friends`: an account this player follows. */
export type Friend = gen.Friend;
/** A quick phrase of the room's chat (`say`), each reader's words for it in the locales. */
export type Phrase = gen.Say["phrase"];
/** `GET /api/open-games`: a room waiting for players that its host listed. */
export type OpenGame = gen.OpenGame;
/** One of an account's games, with the seat it played (`recent`, `GET /api/accounts/{id}/games`). */
export type ProfileGame = gen.ProfileGame;
/** `GET /api/games/{id}/analysis`: every round's tasks, analysed. */
export type GameAnalysis = gen.GameAnalysis;
export type RoundAnalysis = gen.RoundAnalysis;
export type TaskAnalysis = gen.TaskAnalysis;
/** `POST /api/replays`'s body: a game file (a stored game and its tasks as puzzle files). */
export type GameFile = gen.GameFile;
/** A line a player said in a stored game, in its replay for its players only. */
export type ReplayChatLine = gen.ReplayChatLine;
/** A spectator's quick phrase, heard by the room's other spectators only (docs/social.md). */
export type SpectatorSaid = gen.SpectatorSaid;
/** `GET /api/arenas`: an arena in the list (docs/arenas.md). */
export type ArenaSummary = gen.ArenaSummary;
/** An arena's page: `GET /api/arenas/{id}`, and the arena socket's `arena` (`/ws/arenas/{id}`). */
export type ArenaView = gen.ArenaView;
/** A player's line in an arena's standings. */
export type StandingRow = gen.StandingRow;
/** `GET /api/accounts/{id}/arenas`: an arena the account raced in. */
export type ArenaPlayed = gen.ArenaPlayed;
