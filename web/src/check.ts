// The client's edge: what the server sends is checked against the protocol's schema before any
// module reads it, so a malformed message is one clear error where it arrives, never a crash
// later in a screen. The schema is the server's (checks.gen.ts, written with the types by
// `make protocol`); this is the small checker for the keywords it uses (docs/web.md, "Checked
// at the edge", says why not a library).
//
// A field the schema does not name is let through and never read: an installed client keeps
// working against a newer server that sends one more (the generator drops
// `additionalProperties: false` for that reason). Everything else is checked: types, required
// fields, constants and enums (so a message or event of a kind this client does not know is
// refused), bounds, lengths and patterns.

import { type Checked, DEFS } from "./checks.gen";
import type { Schema } from "./schema";

/** What is wrong with a value: where (`room.seats[1].name`, "" for the whole) and what. */
export interface Problem {
  path: string;
  message: string;
  /** what was expected there, when the value was not it ("a string") */
  expected?: string;
}

/** A value as its protocol type, or what is wrong with it. */
export type Reading<T> = { ok: true; value: T } | { ok: false; problem: Problem };

/** `value` checked as the protocol's `name` (a server message, an HTTP answer). */
export function read<K extends keyof Checked>(name: K, value: unknown): Reading<Checked[K]> {
  const problem = check({ $ref: name }, value, "");
  // the check has just shown `value` has the shape the generated type describes
  return problem ? { ok: false, problem } : { ok: true, value: value as Checked[K] };
}

/** What the logs of the unreadable start with (the browser tests look for it). */
export const UNREADABLE = "ubongo: an unreadable";

/** A WebSocket frame read as a server message, or null when it is not one: then logged with
 * its type (and an event's kind) and what was wrong, for the caller to drop. */
export function readMessage(text: string): Checked["ServerMessage"] | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    console.error(`${UNREADABLE} message from the server (not JSON): ${shown(text)}`);
    return null;
  }
  const reading = read("ServerMessage", data);
  if (reading.ok) return reading.value;
  console.error(`${UNREADABLE} message from the server (${messageKind(data)}): ${problemText(reading.problem)}`);
  return null;
}

/** An HTTP answer's body read as `name`, or null when it is not one: then logged with the
 * route and what was wrong. */
export function readAnswer<K extends keyof Checked>(route: string, name: K, body: unknown): Checked[K] | null {
  const reading = read(name, body);
  if (reading.ok) return reading.value;
  console.error(`${UNREADABLE} answer to ${route}: ${problemText(reading.problem)}`);
  return null;
}

/** "room.seats[1].name: expected a string, got 7" */
export function problemText(p: Problem): string {
  return p.path ? `${p.path}: ${p.message}` : p.message;
}

/** What a message says it is: its type, and an event's kind ("event round_ended"). */
function messageKind(data: unknown): string {
  if (!isObject(data)) return `not an object: ${shown(data)}`;
  const said = [data.type, data.kind].filter((x) => x !== undefined).map((x) => shown(x));
  return said.join(" ").replaceAll('"', "") || "no type";
}

const patterns = new Map<string, RegExp>();

function check(s: Schema, v: unknown, path: string): Problem | null {
  if (s.$ref !== undefined) {
    const def = DEFS[s.$ref];
    if (!def) return { path, message: `the schema has no ${s.$ref}` };
    return check(def, v, path);
  }
  if (s.tag !== undefined && s.cases) return checkTagged(s.tag, s.cases, v, path);
  if (s.anyOf) return checkAny(s.anyOf, v, path);
  if (s.const !== undefined && v !== s.const) return wrong(path, JSON.stringify(s.const), v);
  if (s.enum && !s.enum.some((e) => e === v)) return wrong(path, `one of ${list(s.enum)}`, v);
  switch (s.type) {
    case undefined:
      return null;
    case "string":
      return typeof v === "string" ? checkString(s, v, path) : wrong(path, "a string", v);
    case "integer":
    case "number": {
      const fits = typeof v === "number" && (s.type === "integer" ? Number.isInteger(v) : Number.isFinite(v));
      if (!fits) return wrong(path, s.type === "integer" ? "an integer" : "a number", v);
      if (s.minimum !== undefined && v < s.minimum) return wrong(path, `at least ${s.minimum}`, v);
      if (s.maximum !== undefined && v > s.maximum) return wrong(path, `at most ${s.maximum}`, v);
      return null;
    }
    case "boolean":
      return typeof v === "boolean" ? null : wrong(path, "true or false", v);
    case "null":
      return v === null ? null : wrong(path, "null", v);
    case "array":
      return Array.isArray(v) ? checkArray(s, v, path) : wrong(path, "a list", v);
    case "object":
      return isObject(v) ? checkObject(s, v, path) : wrong(path, "an object", v);
  }
}

function checkString(s: Schema, v: string, path: string): Problem | null {
  // lengths in characters, as the server (Python) counts them, not UTF-16 units
  const length = s.minLength !== undefined || s.maxLength !== undefined ? [...v].length : 0;
  if (s.minLength !== undefined && length < s.minLength) return wrong(path, `at least ${s.minLength} characters`, v);
  if (s.maxLength !== undefined && length > s.maxLength) return wrong(path, `at most ${s.maxLength} characters`, v);
  if (s.pattern !== undefined) {
    let re = patterns.get(s.pattern);
    if (!re) {
      re = new RegExp(s.pattern, "u");
      patterns.set(s.pattern, re);
    }
    if (!re.test(v)) return wrong(path, `text matching ${s.pattern}`, v);
  }
  return null;
}

function checkArray(s: Schema, v: unknown[], path: string): Problem | null {
  if (s.minItems !== undefined && v.length < s.minItems) return wrong(path, `at least ${s.minItems} items`, v);
  if (s.maxItems !== undefined && v.length > s.maxItems) return wrong(path, `at most ${s.maxItems} items`, v);
  if (s.items) {
    for (let i = 0; i < v.length; i++) {
      const p = check(s.items, v[i], `${path}[${i}]`);
      if (p) return p;
    }
  }
  return null;
}

function checkObject(s: Schema, v: Record<string, unknown>, path: string): Problem | null {
  for (const key of s.required ?? []) {
    if (!Object.hasOwn(v, key)) return { path: join(path, key), message: "missing" };
  }
  for (const [key, value] of Object.entries(v)) {
    if (s.properties && Object.hasOwn(s.properties, key)) {
      const p = check(s.properties[key], value, join(path, key));
      if (p) return p;
      continue;
    }
    if (s.propertyNames) {
      const p = check(s.propertyNames, key, path);
      if (p) return { path, message: `the key ${JSON.stringify(key)}: ${p.message}` };
    }
    if (s.additionalProperties) {
      const p = check(s.additionalProperties, value, join(path, key));
      if (p) return p;
    }
  }
  return null;
}

/** A discriminated union: the tag's value picks the one case to check. */
function checkTagged(tag: string, cases: Record<string, Schema>, v: unknown, path: string): Problem | null {
  if (!isObject(v)) return wrong(path, "an object", v);
  const which = v[tag];
  if (typeof which !== "string" || !Object.hasOwn(cases, which)) {
    return wrong(join(path, tag), `one of ${list(Object.keys(cases))}`, which);
  }
  return check(cases[which], v, path);
}

/** Any one of the schemas: the problem told is the one found deepest in the value (the
 * branch that came closest), or, when every branch fails at the value itself, all of them. */
function checkAny(options: Schema[], v: unknown, path: string): Problem | null {
  const problems: Problem[] = [];
  for (const option of options) {
    const p = check(option, v, path);
    if (!p) return null;
    problems.push(p);
  }
  const deepest = problems.reduce((a, b) => (b.path.length > a.path.length ? b : a));
  if (deepest.path !== path) return deepest;
  const expected = problems.map((p) => p.expected ?? p.message);
  return wrong(path, [...new Set(expected)].join(" or "), v);
}

function wrong(path: string, expected: string, got: unknown): Problem {
  return { path, message: `expected ${expected}, got ${shown(got)}`, expected };
}

/** A value as a problem quotes it: short, never the whole of a large one. */
function shown(v: unknown): string {
  if (v === undefined) return "nothing";
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (isObject(v)) return "an object";
  const text = JSON.stringify(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function list(values: readonly unknown[]): string {
  const shownValues = values.slice(0, 8).map((x) => JSON.stringify(x));
  return values.length > 8 ? `${shownValues.join(", ")} ... (${values.length})` : shownValues.join(", ");
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
