// Whether the player plays by touch or with a keyboard (and mouse): the hints under the boards
// speak of taps and drags on a touch screen and of keys only where there is a keyboard.
//
// Before any input the media queries decide (a coarse pointer that cannot hover is a touch
// screen); from then on the last input seen does: a finger on the screen, or a key pressed
// outside a text field (a phone with a keyboard attached plays with keys).

export type InputKind = "touch" | "keys";

let seen: InputKind | null = null;
const listeners = new Set<() => void>();

function fromMedia(): InputKind {
  if (typeof matchMedia !== "function") return "keys";
  const coarse = matchMedia("(pointer: coarse)").matches;
  const hover = matchMedia("(hover: hover)").matches;
  return coarse && !hover ? "touch" : "keys";
}

/** How the player plays now. */
export function inputKind(): InputKind {
  return seen ?? fromMedia();
}

/** Call `changed` whenever the way of playing changes; returns how to stop. */
export function onInputKind(changed: () => void): () => void {
  listeners.add(changed);
  return () => listeners.delete(changed);
}

function see(kind: InputKind): void {
  const before = inputKind();
  seen = kind;
  if (kind !== before) for (const f of [...listeners]) f();
}

if (typeof window !== "undefined") {
  window.addEventListener(
    "pointerdown",
    (e) => {
      if (e.pointerType === "touch" || e.pointerType === "pen") see("touch");
      else if (e.pointerType === "mouse" && seen === "touch") see("keys");
    },
    { capture: true, passive: true },
  );
  window.addEventListener(
    "keydown",
    (e) => {
      const t = e.target as HTMLElement | null;
      const typing = !!t?.closest?.("input, textarea, select, [contenteditable]");
      if (!typing && !e.ctrlKey && !e.metaKey && !e.altKey) see("keys");
    },
    { capture: true, passive: true },
  );
}
