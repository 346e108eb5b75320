// Input for the 3D board: keys, on-screen buttons and the pointer all become the same few
// actions, so keyboard-only and touch play do exactly what the mouse does.

import type { BoardCommand } from "../board/controls";
import { h, nameWithLabel } from "../dom";
import { t } from "../i18n";
import type { Turn } from "./shapes";

export type Action =
  | { kind: "select"; index: number }
  | { kind: "next"; back: boolean }
  | { kind: "turn"; turn: Turn; back: boolean }
  | { kind: "move"; dx: number; dy: number }
  | { kind: "drop" }
  | { kind: "tray" }
  | { kind: "clear" }
  | { kind: "topView" }
  | { kind: "orbit"; steps: number };

const TURN_KEYS: Record<string, Turn> = { r: "spin", t: "tip", y: "roll" };

/** The action of a key press, or null for keys the board leaves alone. */
export function keyAction(e: KeyboardEvent, pieces: number): Action | null {
  if (e.altKey || e.ctrlKey || e.metaKey) return null;
  const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const digit = Number.parseInt(k, 10);
  if (!Number.isNaN(digit) && digit >= 1 && digit <= pieces) return { kind: "select", index: digit - 1 };
  if (k in TURN_KEYS) return { kind: "turn", turn: TURN_KEYS[k], back: e.shiftKey };
  switch (k) {
    case "n":
      return { kind: "next", back: e.shiftKey };
    case "ArrowLeft":
      return { kind: "move", dx: -1, dy: 0 };
    case "ArrowRight":
      return { kind: "move", dx: 1, dy: 0 };
    case "ArrowUp":
      return { kind: "move", dx: 0, dy: -1 };
    case "ArrowDown":
      return { kind: "move", dx: 0, dy: 1 };
    case "Enter":
    case " ":
      return { kind: "drop" };
    case "Escape":
    case "Backspace":
    case "Delete":
      return { kind: "tray" };
    case "v":
      return { kind: "topView" };
    case "[":
    case ",":
      return { kind: "orbit", steps: -1 };
    case "]":
    case ".":
      return { kind: "orbit", steps: 1 };
    default:
      return null;
  }
}

/** The flat board's command as the 3D board's action (local versus' keys drive both boards):
 * a turn spins about the upright axis, a flip tips the piece over. */
export function commandAction(c: BoardCommand): Action {
  switch (c.kind) {
    case "rotate":
      return { kind: "turn", turn: "spin", back: c.back };
    case "flip":
      return { kind: "turn", turn: "tip", back: false };
    case "enter":
      return { kind: "drop" };
    default:
      return c;
  }
}

function tool(label: string, title: string, name: string, act: () => void): HTMLButtonElement {
  const b = h("button", {
    type: "button",
    class: `tool tool-${name}`,
    title,
    "aria-label": nameWithLabel(label, title),
  });
  b.innerHTML = label;
  b.addEventListener("click", act);
  return b;
}

/** The buttons: turns about the three axes (both ways), moves, put down, back to the tray. */
export function toolbar(act: (a: Action) => void): HTMLElement {
  const turns = h("div.tool-group.turns", { role: "group", "aria-label": t("board:turnGroup") });
  const turnNames: [Turn, string, string, string][] = [
    ["spin", "R", "⟳", t("board:spin")],
    ["tip", "T", "⤵", t("board:tip")],
    ["roll", "Y", "↷", t("board:roll")],
  ];
  for (const [turn, key, icon, word] of turnNames) {
    turns.append(
      tool(
        `<i class="sign lead" data-sign="${icon}"></i><sub data-key="${key}"></sub> <span>${word}</span>`,
        t("board:turnTitle", { word, key }),
        `${turn}`,
        () => act({ kind: "turn", turn, back: false }),
      ),
      // signs and keys drawn by CSS (board3d.css): the eye's, while the name says the turn in
      // words (text in the button that is not in its name fails WCAG 2.5.3, label in name)
      tool(
        `<i class="sign" data-sign="↺"></i><sub data-key="${key}"></sub>`,
        t("board:turnBackTitle", { word, key }),
        `${turn}-back`,
        () => act({ kind: "turn", turn, back: true }),
      ),
    );
  }
  const pad = h("div.tool-group.move-pad", { role: "group", "aria-label": t("board:moveGroup") });
  const moves: [string, string, number, number][] = [
    ["←", "left", -1, 0],
    ["↑", "back", 0, -1],
    ["↓", "forward", 0, 1],
    ["→", "right", 1, 0],
  ];
  for (const [icon, word, dx, dy] of moves) {
    pad.append(tool(icon, t(`board:move.${word}`), `move-${word}`, () => act({ kind: "move", dx, dy })));
  }
  const place = h("div.tool-group.place", { role: "group", "aria-label": t("board:putGroup") });
  place.append(
    tool(`⤓ <span>${t("board:putDown")}</span>`, t("board:putDownTitle"), "drop", () => act({ kind: "drop" })),
    tool(`↩ <span>${t("board:tray")}</span>`, t("board:tray3dTitle"), "tray", () => act({ kind: "tray" })),
    tool(`✕ <span>${t("board:clear")}</span>`, t("board:clear3dTitle"), "clear", () => act({ kind: "clear" })),
  );
  return h("div.board-tools.board3d-tools", {}, turns, pad, place);
}

/** The view buttons drawn over the scene: top view and going round the board. */
export function viewButtons(act: (a: Action) => void): { element: HTMLElement; top: HTMLButtonElement } {
  const top = tool(`⬒ <span>${t("board:topView")}</span>`, t("board:topViewTitle"), "top-view", () =>
    act({ kind: "topView" }),
  );
  top.setAttribute("aria-pressed", "false");
  const element = h(
    "div.board3d-view",
    {},
    tool("⟲", t("board:orbitLeft"), "orbit-left", () => act({ kind: "orbit", steps: -1 })),
    top,
    tool("⟳", t("board:orbitRight"), "orbit-right", () => act({ kind: "orbit", steps: 1 })),
  );
  return { element, top };
}

export interface PointerHandlers {
  /** a mouse moves over the scene without a button down */
  hover(clientX: number, clientY: number): void;
  /** a press and release without dragging on no piece (dragging there turns the camera) */
  tap(clientX: number, clientY: number, touch: boolean): void;
  /** a press: whether it takes hold of a piece (then the pointer drags it, not the camera) */
  grab(clientX: number, clientY: number): boolean;
  /** the pointer holding a piece moved (past the drag threshold) */
  drag(clientX: number, clientY: number): void;
  /** the pointer holding a piece let go: `moved` if it dragged, else it was a tap */
  release(clientX: number, clientY: number, moved: boolean, touch: boolean): void;
  /** two fingers turned by an eighth of a turn or more: whether a piece in hand turned */
  twist(clockwise: boolean): boolean;
  /** whether two fingers should turn the piece in hand (one is in hand) rather than the camera */
  holding(): boolean;
  /** the camera follows the pointer (true) or not (while a piece or a twist has it) */
  orbiting(on: boolean): void;
}

const DRAG_PX = 6;
/** How far two fingers turn for one spin of the piece in hand. */
const TWIST_RAD = Math.PI / 4;

interface Press {
  x: number;
  y: number;
  id: number;
  moved: boolean;
  /** it holds a piece (drags it) rather than the camera */
  grabbing: boolean;
}

/**
 * Pointer input on the stage. Listened to in the capture phase, before the camera's own
 * listeners on the canvas inside, so a press on a piece can keep the camera still.
 */
export function listenPointer(target: HTMLElement, handlers: PointerHandlers): void {
  let down: Press | null = null;
  const touches = new Map<number, { x: number; y: number }>();
  let twist: { angle: number } | null = null;
  const angle = (): number => {
    const [a, b] = [...touches.values()];
    return Math.atan2(b.y - a.y, b.x - a.x);
  };
  const opts = { capture: true };
  target.addEventListener(
    "pointerdown",
    (e) => {
      if (e.pointerType === "touch") touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (touches.size === 2 && handlers.holding()) {
        // a second finger: the two turn the piece in hand, and the camera stays
        twist = { angle: angle() };
        handlers.orbiting(false);
        if (down && !down.grabbing) down = null;
        return;
      }
      if (e.button > 0 || down) return;
      const grabbing = handlers.grab(e.clientX, e.clientY);
      if (grabbing) {
        handlers.orbiting(false);
        target.setPointerCapture?.(e.pointerId);
      }
      down = { x: e.clientX, y: e.clientY, id: e.pointerId, moved: false, grabbing };
    },
    opts,
  );
  target.addEventListener(
    "pointermove",
    (e) => {
      if (touches.has(e.pointerId)) touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (twist && touches.size === 2) {
        let turn = angle() - twist.angle;
        turn = Math.atan2(Math.sin(turn), Math.cos(turn));
        if (Math.abs(turn) >= TWIST_RAD) {
          handlers.twist(turn > 0);
          twist.angle = angle();
        }
      }
      if (down && e.pointerId === down.id) {
        if (!down.moved && Math.hypot(e.clientX - down.x, e.clientY - down.y) > DRAG_PX) down.moved = true;
        if (down.grabbing && down.moved) handlers.drag(e.clientX, e.clientY);
        return;
      }
      if (e.pointerType === "mouse" && e.buttons === 0) handlers.hover(e.clientX, e.clientY);
    },
    opts,
  );
  const end = (e: PointerEvent, cancelled: boolean) => {
    touches.delete(e.pointerId);
    if (twist && touches.size < 2) {
      twist = null;
      if (!down?.grabbing) handlers.orbiting(true);
    }
    const d = down;
    if (!d || e.pointerId !== d.id) return;
    down = null;
    if (d.grabbing) {
      handlers.orbiting(true);
      if (!cancelled) handlers.release(e.clientX, e.clientY, d.moved, e.pointerType !== "mouse");
      return;
    }
    if (cancelled || d.moved) return;
    handlers.tap(e.clientX, e.clientY, e.pointerType !== "mouse");
  };
  target.addEventListener("pointerup", (e) => end(e, false), opts);
  target.addEventListener("pointercancel", (e) => end(e, true), opts);
}

/**
 * How far the wheel must go for one turn, in pixels: a mouse's notch is one event of 40 to 120
 * (browsers and systems differ; a line, in Firefox's line mode, counts 40 here as it does in
 * Chrome), a trackpad's swipe many events of a few pixels each, which add up to one turn.
 */
const WHEEL_STEP_PX = 40;
const LINE_PX = 40;
const PAGE_PX = 400;
/** Wheel movement older than this is forgotten, so stray trackpad pixels never add up to a turn. */
const WHEEL_PAUSE_MS = 250;

export interface WheelHandlers {
  /** whether the wheel turns something now (a piece is in hand); if not, it is the page's */
  holding(): boolean;
  /** one notch: `forward` when rolled towards the player (deltaY > 0, as a page scrolls down) */
  turn(forward: boolean, shift: boolean): void;
}

/**
 * The mouse wheel over the 3D board. With a piece in hand a notch turns it once and the page
 * does not scroll. Without one a plain wheel is left to the page, which scrolls: a board that
 * swallowed the wheel would trap a player scrolling past it. Ctrl+wheel, and a trackpad's pinch
 * (which browsers send as Ctrl+wheel), go on to the camera, which zooms (OrbitControls).
 */
export function listenWheel(target: HTMLElement, handlers: WheelHandlers): void {
  let sum = 0;
  let last = -Infinity;
  // the capture phase on the stage comes before the camera's own wheel listener on the canvas
  target.addEventListener(
    "wheel",
    (e) => {
      if (e.ctrlKey || e.metaKey) return; // the camera zooms
      e.stopPropagation(); // a plain wheel never zooms: it turns the piece or scrolls the page
      if (!handlers.holding()) {
        sum = 0;
        return;
      }
      e.preventDefault();
      // Shift+wheel comes as a sideways wheel in most browsers (deltaX, deltaY 0)
      const raw = e.shiftKey && e.deltaY === 0 ? e.deltaX : e.deltaY;
      const unit = [1, LINE_PX, PAGE_PX][e.deltaMode] ?? 1; // pixels, lines or pages
      const delta = raw * unit;
      if (delta === 0) return;
      if (e.timeStamp - last > WHEEL_PAUSE_MS || Math.sign(delta) !== Math.sign(sum)) sum = 0;
      last = e.timeStamp;
      sum += delta;
      if (Math.abs(sum) < WHEEL_STEP_PX) return;
      // one turn, and what is left over is dropped: a notch of any size turns once, never twice
      sum = 0;
      handlers.turn(delta > 0, e.shiftKey);
    },
    { capture: true, passive: false },
  );
}
