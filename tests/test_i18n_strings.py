"""No visible text of the web client bypasses translation: a static check over web/src.

Every visible string goes through ``t("area:key")`` (web/src/i18n.ts). This test reads every
TypeScript file and reports the string literals (and template literals' fixed text) that
would reach the player without it:

- in a *sink*: the children of ``h(tag, props, ...children)``; the values of the props
  ``aria-label``, ``title``, ``placeholder``, ``alt``, ``aria-valuetext``; assignments to
  ``.textContent``, ``.title``, ``.placeholder``, ``.innerHTML``; ``setAttribute("aria-label" |
  "title" | ..., text)``; the text arguments of ``toast``, ``setStatus``, ``status``, and of the
  boards' ``tool``/``button`` helpers; the label of the lobby's ``setting`` -- any literal with
  a word in it (two letters or more);
- anywhere else: a literal that reads like a sentence (two words or more), except where it
  cannot be shown (``new Error(...)``, selectors, storage keys, imports).

Literals inside ``t(...)`` are keys, not texts. A line that must keep a literal (a brand, a
language's own name) says so with the comment ``i18n-ignore``. The browser test
tests/web/test_language.py complements this one: it visits the screens in German and finds
no English text on them.

Why static: it finds a string the moment it is written, on every screen, including those a
browser test reaches only with effort (a tie round, an error); the browser test catches what
a pattern cannot (text built elsewhere and passed in).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web" / "src"

#: call name -> which arguments are shown to the player (None: from that index on)
SINK_CALLS: dict[str, tuple[int, ...] | int] = {
    "h": 2,  # h(tag, props, ...children)
    "toast": (0,),
    "setStatus": (0,),
    "submitError": (0,),
    "status": (1,),
    "tool": (0, 1),
    "button": (0, 1),
    "setting": (0,),
    "alert": (0,),
    "confirm": (0,),
}
SINK_PROPS = {"aria-label", "title", "placeholder", "alt", "aria-valuetext", "aria-description"}
SINK_ATTRS = SINK_PROPS
#: calls whose literals are never shown (developer errors, selectors, storage, events)
SAFE_CALLS = {
    "Error",
    "querySelector",
    "querySelectorAll",
    "closest",
    "matchMedia",
    "getItem",
    "setItem",
    "removeItem",
    "addEventListener",
    "removeEventListener",
    "getElementById",
    "createElement",
    "createElementNS",
    "svg",
    "import",
    "fetch",
    "get",
    "post",
    "patch",
    "delete",
    "glob",
    "toggle",
    "add",
    "remove",
    "contains",
}
ASSIGN_SINK = re.compile(r"\.(textContent|title|placeholder|innerHTML|ariaLabel)\s*=(?!=)")
#: assignments of names the page never shows as text
ASSIGN_CODE = re.compile(r"\.(className|id|value|type|href|src)\s*=(?!=)")
CODE_PROPS = {"class", "className", "id", "href", "type", "role", "value", "key", "kind"}
WORD = re.compile(r"[A-Za-z]{2,}")
PHRASE = re.compile(r"[A-Za-z]{2,}[,.;:!?']?\s+[A-Za-z]{2,}")
ALLOWED = {"Ubongo"}  # the game's name is the same in every language


@dataclass
class Frame:
    """An open bracket: a call's arguments, an object, an array, or a template's ${...}."""

    kind: str  # "(" "{" "[" "${"
    callee: str = ""
    arg: int = 0
    first_arg: str | None = None
    expect_key: bool = True
    prop: str = ""


@dataclass
class Literal:
    line: int
    text: str  # the fixed text (a template's parts outside ${...})
    frames: list[Frame] = field(default_factory=list)
    assigned: bool = False
    #: a property's name or a side of a comparison: never shown
    code: bool = False


def _callee_before(src: str, i: int) -> str:
    """The identifier just before the '(' at ``i`` ("" for a parenthesis that is no call)."""
    j = i - 1
    while j >= 0 and src[j] in " \t":
        j -= 1
    if src[j - 1 : j + 1] == "?.":  # an optional call: f?.(...)
        j -= 2
    k = j
    while k >= 0 and (src[k].isalnum() or src[k] in "_$"):
        k -= 1
    name = src[k + 1 : j + 1]
    if name in {"if", "for", "while", "switch", "return", "catch", "typeof", "await"}:
        return ""
    return name


def scan(src: str) -> list[Literal]:  # noqa: C901 (a tokenizer: one loop over its states)
    """Every string and template literal of a TypeScript source with where it stands."""
    out: list[Literal] = []
    stack: list[Frame] = []
    i = 0
    n = len(src)
    line = 1
    last_token = ""  # the previous significant character or word, for regexes and keys
    pending_key: str | None = None
    assign_until_line = -1
    code_until_line = -1

    def here_assigned() -> bool:
        return line == assign_until_line

    def frames() -> list[Frame]:
        # the frames as they are now (their argument counts move on as the scan goes)
        return [replace(f) for f in stack]

    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += src.count("\n", i, j)
            i = j
            continue
        if c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            text = src[i + 1 : j]
            k = j + 1
            while k < n and src[k] in " \t":
                k += 1
            # a quoted property name, or a side of a comparison
            is_key = (
                bool(stack)
                and stack[-1].kind == "{"
                and stack[-1].expect_key
                and k < n
                and src[k] == ":"
            )
            after_operator = last_token in {"=", "!"} and not here_assigned()
            compared = after_operator or src.startswith(("==", "!="), k)
            out.append(
                Literal(
                    line,
                    text,
                    frames(),
                    here_assigned(),
                    is_key or compared or line == code_until_line,
                )
            )
            if is_key:
                pending_key = text
            _note_first_arg(stack, text)
            i = j + 1
            last_token = "str"
            continue
        if c == "`":
            i, line = _template(
                src, i, line, frames(), out, here_assigned(), line == code_until_line
            )
            last_token = "str"
            continue
        if c == "/" and last_token in {
            "",
            "(",
            ",",
            "=",
            ":",
            "[",
            "!",
            "&",
            "|",
            "?",
            "{",
            "}",
            ";",
            "return",
        }:
            # a regular expression literal: skip it (with its classes)
            j = i + 1
            in_class = False
            while j < n and (in_class or src[j] != "/"):
                if src[j] == "\\":
                    j += 1
                elif src[j] == "[":
                    in_class = True
                elif src[j] == "]":
                    in_class = False
                j += 1
            i = j + 1
            last_token = "re"
            continue
        m = ASSIGN_SINK.match(src, i)
        if m:
            assign_until_line = line
            i = m.end()
            last_token = "="
            continue
        m = ASSIGN_CODE.match(src, i)
        if m:
            code_until_line = line
            i = m.end()
            last_token = "="
            continue
        if c.isalpha() or c in "_$":
            j = i
            while j < n and (src[j].isalnum() or src[j] in "_$"):
                j += 1
            word = src[i:j]
            k = j
            while k < n and src[k] in " \t":
                k += 1
            if stack and stack[-1].kind == "{" and stack[-1].expect_key and k < n and src[k] == ":":
                pending_key = word
            i = j
            last_token = word
            continue
        if c in "([{":
            if c == "(":
                stack.append(Frame("(", callee=_callee_before(src, i)))
            else:
                stack.append(Frame(c))
            i += 1
            last_token = c
            continue
        if c in ")]}":
            if stack:
                stack.pop()
            i += 1
            last_token = c
            continue
        if c == ",":
            if stack:
                top = stack[-1]
                top.arg += 1
                top.expect_key = True
                top.prop = ""
            i += 1
            last_token = c
            continue
        if c == ":" and pending_key is not None and stack and stack[-1].kind == "{":
            stack[-1].prop = pending_key
            stack[-1].expect_key = False
            pending_key = None
            i += 1
            last_token = c
            continue
        if c == ";":
            assign_until_line = -1
        if not c.isspace():
            last_token = c
            pending_key = None if c not in ":" else pending_key
        i += 1
    return out


def _note_first_arg(stack: list[Frame], text: str) -> None:
    if stack and stack[-1].kind == "(" and stack[-1].arg == 0 and stack[-1].first_arg is None:
        stack[-1].first_arg = text


def _template(
    src: str, i: int, line: int, stack: list[Frame], out: list[Literal], assigned: bool, code: bool
) -> tuple[int, int]:
    """Read the template literal at ``i``: its fixed text is one literal; each ${...} is code,
    scanned on its own (nested literals and calls). Returns where it ends and the line."""
    n = len(src)
    j = i + 1
    start_line = line
    fixed: list[str] = []
    while j < n and src[j] != "`":
        if src[j] == "\\":
            fixed.append(src[j : j + 2])
            j += 2
            continue
        if src.startswith("${", j):
            depth = 1
            k = j + 2
            while k < n and depth:
                if src[k] == "{":
                    depth += 1
                elif src[k] == "}":
                    depth -= 1
                elif src[k] in "\"'`":
                    # skip a nested literal without counting its braces
                    q = src[k]
                    k += 1
                    while k < n and src[k] != q:
                        k += 2 if src[k] == "\\" else 1
                k += 1
            inner = src[j + 2 : k - 1]
            frame = Frame("${")
            for lit in scan(inner):
                lit.line += line - 1
                lit.frames = [*stack, frame, *lit.frames]
                out.append(lit)
            fixed.append(" ")
            line += inner.count("\n")
            j = k
            continue
        if src[j] == "\n":
            line += 1
        fixed.append(src[j])
        j += 1
    out.append(Literal(start_line, "".join(fixed), stack, assigned, code))
    return j + 1, line


def _in_t(lit: Literal) -> bool:
    return any(f.kind == "(" and f.callee == "t" for f in lit.frames)


def _sink(lit: Literal) -> bool:
    """Whether the literal is shown: the innermost call or property around it decides (a
    literal inside ``String(...)`` in h()'s children is that call's, not h's)."""
    if lit.assigned:
        return True
    for f in reversed(lit.frames):
        if f.kind == "(":
            if f.callee in SINK_CALLS:
                which = SINK_CALLS[f.callee]
                return (f.arg >= which) if isinstance(which, int) else (f.arg in which)
            if f.callee == "setAttribute":
                return f.arg == 1 and f.first_arg in SINK_ATTRS
            if f.callee:
                return False
        elif f.kind == "{" and f.prop:
            return f.prop in SINK_PROPS
    return False


def _safe(lit: Literal) -> bool:
    """Inside a call that never shows its text, or the value of a property that is no text."""
    if any(f.kind == "(" and f.callee in SAFE_CALLS for f in lit.frames):
        return True
    props = [f.prop for f in lit.frames if f.kind == "{" and f.prop]
    return bool(props) and props[-1] in CODE_PROPS


def untranslated(src: str) -> list[tuple[int, str]]:
    """(line, text) of every literal in ``src`` that would show the player untranslated text."""
    ignored = {i + 1 for i, text in enumerate(src.splitlines()) if "i18n-ignore" in text}
    found = []
    for lit in scan(src):
        text = re.sub(r"<[^>]*>", " ", lit.text)  # markup (a button's <span>) is no text
        if (
            lit.line in ignored
            or lit.code
            or _in_t(lit)
            or text.strip() in ALLOWED
            or not WORD.search(text)
        ):
            continue
        shown = _sink(lit) and not _is_spec(lit, text)
        sentence = (
            PHRASE.search(text)
            and not _safe(lit)
            and not text.lstrip().startswith(("./", "../", "/"))
        )
        if shown or sentence:
            found.append((lit.line, text))
    return found


def _is_spec(lit: Literal, text: str) -> bool:
    """The first argument of h() (a tag spec like "button.primary#start") is no text."""
    return (
        bool(lit.frames)
        and lit.frames[-1].kind == "("
        and lit.frames[-1].callee == "h"
        and lit.frames[-1].arg < 2
    )


# The rules pages' long texts are translations themselves: one module per language
# (web/src/rules/text/<lang>.ts) of one type, RulesText, so that a text missing in a language is
# a type error, as a missing key is a failure of tests/test_locales.py.
RULES_TEXTS = WEB / "rules" / "text"
#: modules that show the player nothing: the generated ones, and the protocol's checker, whose
#: problems go to the console (what the player sees of them is errors:unreadable)
NOT_SHOWN = {"check.ts"}
TS_FILES = sorted(
    p
    for p in WEB.rglob("*.ts")
    if not p.name.endswith(".gen.ts") and p.name not in NOT_SHOWN and RULES_TEXTS not in p.parents
)


def test_no_visible_string_bypasses_translation() -> None:
    assert len(TS_FILES) > 30
    found = []
    for path in TS_FILES:
        for line, text in untranslated(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(ROOT)}:{line}: {text!r}")
    assert not found, "strings shown without t() (web/src/i18n.ts):\n" + "\n".join(found)


def test_the_check_finds_planted_strings() -> None:
    src = """
import { h } from "./dom";
const a = h("button.primary#go", { type: "button", title: "Start it" }, "Go");
const b = h("p", {}, t("home:lead"), cond ? "Yes" : t("common:no"));
el.textContent = `${n} solved`;
toast("Copied");
x.setAttribute("aria-label", "the board");
x.setAttribute("data-state", "placed");
const s = `Step ${i} of ${n}`;
const key = `ubongo.seat.${code}`;
throw new Error(`no piece ${id} in this catalogue`);
const c = h("span.tag", { "aria-label": t("play:winner") }, "★ ", name);
const d = h("h1", {}, "Ubongo");
const e = h("p", {}, `${t("play:x", { n })} · ${name}`);
const f = h("em", {}, "Fine"); // i18n-ignore
const g = h("div", {}, h("span", { "aria-label": `piece ${id}` }), "two words");
"""
    found = untranslated(src)
    texts = [t for _, t in found]
    assert texts == [
        "Start it",
        "Go",
        "Yes",
        "  solved",
        "Copied",
        "the board",
        "Step   of  ",
        "piece  ",
        "two words",
    ], found
    assert [line for line, _ in found] == [3, 3, 4, 5, 6, 7, 9, 16, 16]
