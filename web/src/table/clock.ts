// Table mode's clock: the hourglass or the countdown on screen (sand running, or under
// prefers-reduced-motion a plain bar), the sound at its end (Web Audio, no sound file), and the
// screen kept awake while a round runs (the Wake Lock API where the browser has it).

import { h, svg } from "../dom";
import { t } from "../i18n";

/** The sounds played on this page, the latest last (a browser test reads it: a page has no ears). */
const played: string[] = [];
Object.assign(window, { ubongoTableSounds: played });

let audio: AudioContext | null = null;

/** The hourglass's end: three falling tones, loud enough across a table. */
export function timeUpSound(muted: boolean): void {
  if (muted) return;
  played.push("time-up");
  if (typeof AudioContext === "undefined") return;
  try {
    audio ??= new AudioContext();
    if (audio.state === "suspended") void audio.resume().catch(() => undefined);
    const start = audio.currentTime + 0.01;
    [880, 660, 440].forEach((hz, i) => {
      if (!audio) return;
      const osc = audio.createOscillator();
      const amp = audio.createGain();
      const at = start + i * 0.22;
      osc.type = "triangle";
      osc.frequency.setValueAtTime(hz, at);
      amp.gain.setValueAtTime(0.0001, at);
      amp.gain.exponentialRampToValueAtTime(0.3, at + 0.01);
      amp.gain.exponentialRampToValueAtTime(0.0001, at + 0.4);
      osc.connect(amp).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.45);
    });
  } catch {
    // no sound on this device: the screen still says it
  }
}

/** A tap wakes the audio context (browsers start it suspended until the page is touched). */
export function wakeAudio(): void {
  if (typeof AudioContext === "undefined") return;
  try {
    audio ??= new AudioContext();
    if (audio.state === "suspended") void audio.resume().catch(() => undefined);
  } catch {
    // nothing to wake
  }
}

// --- the screen kept awake -----------------------------------------------------------------

interface Sentinel {
  release(): Promise<void>;
}
type WakeLockApi = { request(kind: "screen"): Promise<Sentinel> };

let sentinel: Sentinel | null = null;
let wanted = false;
/** "held", "released" or "unsupported" (data-wake-lock on the page: what a test reads) */
let wakeState = "released";
const wakeListeners: ((state: string) => void)[] = [];

function setWake(state: string): void {
  wakeState = state;
  for (const f of wakeListeners) f(state);
}

export function onWakeLock(f: (state: string) => void): void {
  wakeListeners.push(f);
  f(wakeState);
}

/** Keep the screen awake (a round runs); nothing happens where the browser cannot. */
export async function keepAwake(): Promise<void> {
  wanted = true;
  const api = (navigator as Navigator & { wakeLock?: WakeLockApi }).wakeLock;
  if (!api) return setWake("unsupported");
  if (sentinel || document.visibilityState !== "visible") return;
  try {
    sentinel = await api.request("screen");
    if (!wanted) return letSleep();
    setWake("held");
  } catch {
    setWake("unsupported"); // refused (a page without focus, a battery saver): the round runs on
  }
}

/** The round is over: the screen may sleep again. */
export function letSleep(): void {
  wanted = false;
  const s = sentinel;
  sentinel = null;
  if (s) void s.release().catch(() => undefined);
  if (wakeState === "held") setWake("released");
}

// the browser drops the lock when the page is hidden: take it again when it comes back
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && wanted) {
    sentinel = null;
    void keepAwake();
  }
});

// --- the clock on screen -------------------------------------------------------------------

export interface Clock {
  element: HTMLElement;
  /** run for `seconds` (the hourglass turned, or the countdown begun); `done` when it runs out */
  start(seconds: number, done: () => void): void;
  stop(): void;
  running(): boolean;
  /** the seconds said again (another language) */
  refresh(): void;
}

/** The sand (or under reduced motion the bar) and the seconds left. */
export function clockView(kind: "hourglass" | "countdown"): Clock {
  const glass = svg("svg", { viewBox: "0 0 40 56", class: "table-glass", "aria-hidden": "true" });
  glass.appendChild(svg("path", { d: "M4 2h32M4 54h32", class: "tg-frame" }));
  glass.appendChild(
    svg("path", { d: "M8 4c0 16 11 18 11 24S8 36 8 52h24c0-16-11-18-11-24s11-8 11-24z", class: "tg-glass" }),
  );
  glass.appendChild(svg("path", { d: "M10 6h20c-1 10-8 14-10 20c-2-6-9-10-10-20z", class: "tg-top" }));
  glass.appendChild(svg("path", { d: "M9 51h22c-1-9-6-14-11-14s-10 5-11 14z", class: "tg-bottom" }));
  glass.appendChild(svg("path", { d: "M20 27v24", class: "tg-stream" }));
  const bar = h("div.table-bar-fill");
  const progress = h(
    "div.table-bar",
    { role: "progressbar", "aria-valuemin": 0, "aria-valuemax": 100, "aria-label": t("table:timeLeft") },
    bar,
  );
  const number = h("output.table-seconds", { "aria-live": "off" });
  const element = h("div.table-clock", { "data-kind": kind, "data-state": "idle" }, glass, number, progress);
  let timer: number | null = null;
  let deadline = 0;
  let total = 0;

  const draw = () => {
    const left = Math.max(0, deadline - performance.now()) / 1000;
    const share = total ? left / total : 0;
    number.textContent = t("table:seconds", { count: Math.ceil(left) });
    progress.setAttribute("aria-valuenow", String(Math.round(share * 100)));
    bar.style.width = `${share * 100}%`;
    return left;
  };

  const stop = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
    element.dataset.state = "idle";
    element.style.removeProperty("--sand-seconds");
  };

  return {
    element,
    start(seconds, done) {
      stop();
      total = seconds;
      deadline = performance.now() + seconds * 1000;
      // the sand's animation runs as long as the clock (styles/table.css); restarted by a reflow
      element.style.setProperty("--sand-seconds", `${seconds}s`);
      element.dataset.state = "idle";
      void element.offsetWidth;
      element.dataset.state = "running";
      draw();
      timer = window.setInterval(() => {
        if (draw() > 0) return;
        stop();
        element.dataset.state = "out";
        done();
      }, 100);
    },
    stop,
    running: () => timer !== null,
    refresh: () => {
      if (total) draw();
    },
  };
}
