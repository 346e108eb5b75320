// Solo: the board just solved stays in view a moment before the next task is drawn; any key
// on the game (or with nothing focused) or a click on the board goes on at once. A key meant
// for something outside the game (the top bar's settings or help, the language) is left to it.

/** How long a solved solo board stays in view (skippable). */
export const SOLVED_HOLD_MS = 1500;

/** Hold `main` (marked `data-holding="solved"`) until the time is up or a key or click says
 * go; then `release` runs. The function returned ends the hold without releasing. */
export function holdSolved(main: HTMLElement, release: () => void): () => void {
  main.dataset.holding = "solved";
  const stop = () => {
    window.clearTimeout(timer);
    document.removeEventListener("keydown", go, true);
    main.removeEventListener("pointerdown", go, true);
    delete main.dataset.holding;
  };
  const go = (e: Event) => {
    if (e instanceof KeyboardEvent && !forTheGame(e, main)) return;
    e.preventDefault();
    stop();
    release();
  };
  const timer = window.setTimeout(() => {
    stop();
    release();
  }, SOLVED_HOLD_MS);
  document.addEventListener("keydown", go, true);
  main.addEventListener("pointerdown", go, true);
  return stop;
}

/** Whether a key goes to the game: not a lone modifier, and aimed at `main` or at nothing in
 * particular (the page itself, as after the solved board took the focus with it). */
function forTheGame(e: KeyboardEvent, main: HTMLElement): boolean {
  if (["Shift", "Control", "Alt", "Meta"].includes(e.key)) return false;
  const target = e.target;
  if (!(target instanceof Node)) return true;
  return target === document.body || target === document.documentElement || main.contains(target);
}
