// An example task for the rules page: the first (easiest) task of the first daily challenge, and a
// solution of it found one hint at a time (POST /api/hint, which needs an account). The client
// draws both itself. Not today's: the server gives no hints for a task in play (docs/fair-play.md).

import { api, ensureAccount } from "../api";
import type { Placement } from "../catalogue";
import { offsetOf } from "../catalogue";
import type { HintRequest, PuzzleTask } from "../protocol";

export interface Example {
  task: PuzzleTask;
  placements: Placement[];
}

/** The first daily challenge's day: its tasks are never in play again. */
const EXAMPLE_DAY = "2026-01-01";

/** The easiest task of `edition`'s first daily and a solution (as many placements as it has pieces). */
export async function loadExample(edition: string): Promise<Example> {
  await ensureAccount();
  const daily = await api("GET /api/daily", { query: { edition, date: EXAMPLE_DAY } });
  const task = daily.tasks[0];
  const placed: HintRequest["placements"] = [];
  const placements: Placement[] = [];
  for (let i = 0; i < task.pieces.length; i++) {
    const body: HintRequest = { puzzle: { ...task }, placements: placed };
    const answer = await api("POST /api/hint", { body });
    const p = answer.placement;
    if (!p) break;
    const cells = p.cells as [number[], ...number[][]];
    placed.push({ piece: p.piece, cells });
    placements.push({ piece: String(p.piece), transform: p.transform, offset: offsetOf(p.offset) });
  }
  return { task, placements };
}
