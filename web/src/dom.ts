// Tiny DOM helpers: the client has no UI framework.

const SVG_NS = "http://www.w3.org/2000/svg";

type Attrs = Record<string, string | number | boolean | null | undefined>;

export function svg(tag: string, attrs: Attrs = {}): SVGElement {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) el.setAttribute(k, String(v));
  }
  return el;
}

type Child = Node | string | number | null | undefined | false;

type TagOf<S extends string> = S extends `${infer T}.${string}` ? TagOf<T> : S extends `${infer T}#${string}` ? T : S;
type ElementOf<S extends string> =
  TagOf<S> extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[TagOf<S>] : HTMLElement;

/** h("button.primary#start", {onclick: f, type: "button"}, "Start") */
export function h<S extends string>(
  spec: S,
  props: Record<string, unknown> = {},
  ...children: (Child | Child[])[]
): ElementOf<S> {
  // "tag", then any number of ".class" and one "#id", in any order
  const tag = /^[a-z0-9]+/i.exec(spec)?.[0] ?? "div";
  const el = document.createElement(tag) as ElementOf<S>;
  const id = /#([\w-]+)/.exec(spec);
  if (id) el.id = id[1];
  const classes = [...spec.matchAll(/\.([\w-]+)/g)].map((m) => m[1]);
  if (classes.length) el.className = classes.join(" ");
  for (const [k, v] of Object.entries(props)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") {
      el.addEventListener(k.slice(2), v as EventListener);
    } else if (k === "class") {
      el.className = [el.className, String(v)].filter(Boolean).join(" ");
    } else if (k === "style" && typeof v === "object") {
      Object.assign(el.style, v);
    } else if (k in el && k !== "list" && k !== "form") {
      (el as unknown as Record<string, unknown>)[k] = v;
    } else {
      el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

export function clear(el: Element): void {
  el.replaceChildren();
}

/** A control's accessible name: its visible word (the label's `<span>`) first, then what it
 * does, so that speech input can say what the eye reads (WCAG 2.5.3, label in name). */
export function nameWithLabel(label: string, does: string): string {
  const word = /<span>([^<]+)<\/span>/.exec(label)?.[1];
  return word ? `${word}: ${does}` : does;
}
