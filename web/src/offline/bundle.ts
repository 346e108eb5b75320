// The practice bundle (GET /api/practice-bundle): a few tasks of every edition with one
// solution each, and what it takes to draw them (options, catalogue). The service worker
// keeps the answer (network first), so the same fetch works with no network once it has
// been made online; see vite.config.ts and src/ubongo/server/routes/practice.py.

import { api } from "../api";
import type { PracticeBundle, PracticeEdition, PracticeTask } from "../protocol";

export type { PracticeBundle, PracticeEdition, PracticeTask };

let loaded: Promise<PracticeBundle> | null = null;

/** The bundle: from the network when there is one, else the service worker's copy. */
export function loadBundle(): Promise<PracticeBundle> {
  if (!loaded) {
    loaded = api("GET /api/practice-bundle");
    loaded.catch(() => {
      loaded = null;
    });
  }
  return loaded;
}

/** One edition's part of the bundle, or null when the bundle has none of that name. */
export async function bundleEdition(name: string): Promise<PracticeEdition | null> {
  const bundle = await loadBundle();
  return bundle.editions[name] ?? null;
}

/** The edition shown first: the one asked for when the bundle has it, else the first. */
export function editionName(bundle: PracticeBundle, wanted: string | null): string {
  const names = Object.keys(bundle.editions);
  return wanted && names.includes(wanted) ? wanted : names[0];
}
