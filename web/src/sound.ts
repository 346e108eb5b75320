// Sound effects made with the Web Audio API (no sound files): a piece picked, placed and
// turned, "Ubongo!", the last seconds' ticks and the round's end; and a short vibration on
// phones that offer it. Both follow the player's settings (settings.ts), sound on by default.

import { settings } from "./settings";

export type Cue = "pick" | "place" | "rotate" | "ubongo" | "tick" | "last-tick" | "round-end" | "wrong";

/** One tone of a cue: its pitch (Hz, gliding to `to`), start and length (s), wave and loudness. */
interface Tone {
  hz: number;
  to?: number;
  at: number;
  len: number;
  wave: OscillatorType;
  gain: number;
}

const CUES: Record<Cue, Tone[]> = {
  pick: [{ hz: 700, to: 880, at: 0, len: 0.05, wave: "triangle", gain: 0.12 }],
  place: [{ hz: 220, to: 130, at: 0, len: 0.09, wave: "sine", gain: 0.3 }],
  rotate: [{ hz: 520, to: 600, at: 0, len: 0.04, wave: "square", gain: 0.04 }],
  // C E G C, rising: the call
  ubongo: [523, 659, 784, 1047].map((hz, i) => ({ hz, at: i * 0.09, len: 0.16, wave: "triangle", gain: 0.18 })),
  tick: [{ hz: 1000, at: 0, len: 0.03, wave: "sine", gain: 0.1 }],
  "last-tick": [{ hz: 1400, at: 0, len: 0.05, wave: "sine", gain: 0.14 }],
  "round-end": [
    { hz: 440, at: 0, len: 0.18, wave: "triangle", gain: 0.18 },
    { hz: 330, at: 0.16, len: 0.3, wave: "triangle", gain: 0.18 },
  ],
  wrong: [{ hz: 200, to: 160, at: 0, len: 0.16, wave: "sawtooth", gain: 0.05 }],
};

const BUZZ: Partial<Record<Cue, number | number[]>> = {
  place: 12,
  ubongo: [40, 50, 90],
  "round-end": 120,
  wrong: [30, 40, 30],
};

let audio: AudioContext | null = null;

/** The cues played on this page, the latest last (the browser tests read it: a page has no ears). */
const played: Cue[] = [];
Object.assign(window, { ubongoSounds: played });

/** Play a cue (and buzz a phone) unless the player turned it off. */
export function play(cue: Cue): void {
  const s = settings();
  if (s.vibrate && BUZZ[cue] !== undefined && typeof navigator.vibrate === "function") {
    try {
      navigator.vibrate(BUZZ[cue] as number | number[]);
    } catch {
      // a page that may not vibrate (no user gesture yet) stays quiet
    }
  }
  if (!s.sound) return;
  played.push(cue);
  if (played.length > 50) played.shift();
  const ctx = context();
  if (!ctx) return;
  const start = ctx.currentTime + 0.01;
  for (const t of CUES[cue]) tone(ctx, t, start);
}

function context(): AudioContext | null {
  if (typeof AudioContext === "undefined") return null;
  if (!audio) {
    try {
      audio = new AudioContext();
    } catch {
      return null;
    }
  }
  // a context made before the first tap starts suspended: a tap's sound wakes it
  if (audio.state === "suspended") void audio.resume().catch(() => undefined);
  return audio;
}

function tone(ctx: AudioContext, t: Tone, start: number): void {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = t.wave;
  const at = start + t.at;
  osc.frequency.setValueAtTime(t.hz, at);
  if (t.to) osc.frequency.exponentialRampToValueAtTime(t.to, at + t.len);
  // a quick attack and an exponential fall: no clicks
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(t.gain, at + 0.008);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + t.len);
  osc.connect(amp).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + t.len + 0.02);
}
