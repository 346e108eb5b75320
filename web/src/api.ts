// Talking to the server over HTTP (docs/protocol.md): one typed helper over the table of routes
// that `make protocol` writes from the server's own (routes.gen.ts), so a call names its route
// and gets that route's parameters, body and answer types, never a URL paired by hand with a
// type. Every answer is checked against the protocol before it is returned (check.ts). Also
// this browser's account, the credential the routes that read one are sent.

import { read, readAnswer } from "./check";
import { errorText, t } from "./i18n";
import type { AccountTicket, Options } from "./protocol";
import { ROUTES, type Routes } from "./routes.gen";
import { stored } from "./storage";

/** A route, by its method and path as the server declares it: `"GET /api/rooms/{code}"`. */
export type RouteName = keyof Routes;
/** What a call of a route passes (its path parameters, query and body), and a signal to
 * abort it with. */
export type CallOf<R extends RouteName> = Routes[R]["args"] & { signal?: AbortSignal };
/** A route's answer. */
export type AnswerOf<R extends RouteName> = Routes[R]["answer"];
/** The call's arguments: optional when the route needs none (no path parameter, no body). */
type CallArgs<R extends RouteName> = Partial<CallOf<R>> extends CallOf<R> ? [call?: CallOf<R>] : [call: CallOf<R>];

/** Every call as the helper reads it (each route's `CallOf` is one of these). */
interface AnyCall {
  path?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  signal?: AbortSignal;
}

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Call `route`: its answer, checked; an `ApiError` for a refusal, no network, an abort, or an
 * answer that is not the route's (logged by check.ts). */
export function api<R extends RouteName>(route: R, ...[call]: CallArgs<R>): Promise<AnswerOf<R>> {
  return request(route, call ?? {}, false);
}

/** The URL of a call: the path's parameters filled in, the query's values that are given. */
function urlOf(route: RouteName, call: AnyCall): string {
  const path = ROUTES[route].path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String(call.path?.[name] ?? "")),
  );
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(call.query ?? {})) {
    if (value !== undefined && value !== null) query.set(name, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

async function request<R extends RouteName>(route: R, call: AnyCall, retried: boolean): Promise<AnswerOf<R>> {
  const spec = ROUTES[route];
  // a call that carries the account waits for the one being made (the first visit makes it as
  // the page opens): a quick click would otherwise take a seat without it, and the run's
  // records would miss the account's personal bests
  if (spec.account && !account && making) await making;
  const headers: Record<string, string> = call.body === undefined ? {} : { "content-type": "application/json" };
  const token = spec.account ? account?.token : undefined;
  if (token) headers.authorization = `Bearer ${token}`;
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  let r: Response;
  try {
    r = await fetch(urlOf(route, call), { method: spec.method, headers, body, signal: call.signal });
  } catch {
    if (call.signal?.aborted) throw new ApiError("aborted", t("errors:aborted"), 0);
    throw new ApiError("offline", t("errors:offline"), 0);
  }
  const text = await r.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!r.ok) {
    // every refusal is an ApiError body; a proxy's error page may be anything
    const refusal = read("ApiError", data);
    const err = refusal.ok ? refusal.value.error : null;
    if (err?.code === "bad_token" && token && !retried) {
      // the server no longer knows this account (a new database): start a new one, once
      forgetAccount();
      await ensureAccount();
      return request(route, call, true);
    }
    throw new ApiError(
      err?.code ?? "http",
      err ? errorText(err.code, err.message) : t("errors:http", { status: r.status }),
      r.status,
    );
  }
  const answer = readAnswer(route, spec.answer, data);
  if (answer === null) throw new ApiError("unreadable", t("errors:unreadable"), r.status);
  // routes.gen.ts names each route's answer type and the name its check uses together
  return answer as AnswerOf<R>;
}

// --- this browser's account (docs/accounts.md) --------------------------------------------------

/** The account this browser plays as: made on the first visit; its token is the credential. */
let account: AccountTicket | null = stored.account.read();
let making: Promise<AccountTicket | null> | null = null;

export function currentAccount(): AccountTicket | null {
  return account;
}

function forgetAccount(): void {
  account = null;
  stored.account.remove();
}

/** The refusals of a name itself (docs/fair-play.md, "Names"): another account holds it, or
 * one that looks the same; or it is the bots' or the site's. */
const NAME_REFUSALS = new Set(["name_taken", "name_reserved"]);

/** Whether `e` refuses a name itself (not the network, not a limit). */
export function isNameRefusal(e: unknown): e is ApiError {
  return e instanceof ApiError && NAME_REFUSALS.has(e.code);
}

/** A new account, named `name` if the server lets it have that name, else by a drawn one (the
 * name box says why at its next save). */
async function newAccount(name: string): Promise<AccountTicket> {
  try {
    return await api("POST /api/accounts", { body: name ? { name } : {} });
  } catch (e) {
    if (name && isNameRefusal(e)) return api("POST /api/accounts", { body: {} });
    throw e;
  }
}

/** This browser's account, asked for once if it has none (null if the server refuses: the
 * game still plays, its records then kept by name). */
export function ensureAccount(): Promise<AccountTicket | null> {
  if (account) return Promise.resolve(account);
  making ??= newAccount(savedName())
    .then((made) => {
      account = made;
      stored.account.write(made);
      return made;
    })
    .catch(() => null)
    .finally(() => {
      making = null;
    });
  return making;
}

export function savedName(): string {
  return stored.name.read() ?? account?.name ?? "";
}

/** The name typed in: kept here (a seat takes it), and the account takes it too (records
 * show the account's). Resolves to the server's refusal of the name, if it refused it (taken
 * by another account, or the bots'), for the name box to show; the account keeps its name. */
export async function saveName(name: string): Promise<ApiError | null> {
  stored.name.write(name);
  const mine = account;
  if (!mine || !name || name === mine.name) return null;
  try {
    const renamed = await api("PATCH /api/accounts/me", { body: { name } });
    account = { ...mine, name: renamed.name };
    stored.account.write(account);
    return null;
  } catch (e) {
    // a refusal of the name is shown; anything else (no network) is tried again next time
    return isNameRefusal(e) ? e : null;
  }
}

/** The name a seat is played under: the one typed in, which the account takes too if the
 * server lets it (resolves with its refusal, if any: said, not in the way: a room's seat may
 * be "Bob" while another account holds that name); else the account's own. "Player" only when
 * there is neither, and a placeholder is never saved to the account. */
export async function nameToPlay(typed: string): Promise<{ name: string; refused: ApiError | null }> {
  const me = await ensureAccount();
  if (typed) return { name: typed, refused: await saveName(typed) };
  return { name: me?.name ?? t("common:player"), refused: null };
}

let optionsPromise: Promise<Options> | null = null;

/** What the server offers per edition (GET /api/options), fetched once. */
export function loadOptions(): Promise<Options> {
  if (!optionsPromise) {
    optionsPromise = api("GET /api/options");
    optionsPromise.catch(() => (optionsPromise = null));
  }
  return optionsPromise;
}
