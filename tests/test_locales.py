"""The web client's languages are complete: every language has every key English has, each
plural key has every plural form its language needs, a text names the same placeholders in
every language, every key the code asks for exists, every error code the server sends has a
text, and every edition's words (which the server sends in English) have a translation.

The locale files are web/src/locales/<lang>/<area>.json (i18next's JSON v4: plural forms are
keys ending in ``_one``, ``_other``, ordinal ones in ``_ordinal_one`` ...; a context is a
suffix like any other key). English is the reference; ``editions.json`` is English-free (the
records are the English) and is checked against the records instead.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_args

import pytest

from ubongo.server.protocol.answers import HttpErrorCode
from ubongo.server.protocol.outgoing import ErrorCode, VerdictCode

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "web" / "src" / "locales"
WEB = ROOT / "web" / "src"
RECORDS = ROOT / "src" / "ubongo" / "data" / "editions"
REFERENCE = "en"

#: the plural forms each language needs (CLDR plural rules: cardinal, and ordinal for "1st")
PLURAL_FORMS: dict[str, dict[str, frozenset[str]]] = {
    "en": {
        "cardinal": frozenset({"one", "other"}),
        "ordinal": frozenset({"one", "two", "few", "other"}),
    },
    "de": {"cardinal": frozenset({"one", "other"}), "ordinal": frozenset({"other"})},
}
_CATEGORIES = "zero|one|two|few|many|other"
_PLURAL = re.compile(rf"^(?P<base>.+?)(?P<ordinal>_ordinal)?_(?P<form>{_CATEGORIES})$")
_PLACEHOLDER = re.compile(r"\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}")


def flatten(data: Any, prefix: str = "") -> dict[str, str]:
    """``{"a": {"b": "x"}, "c": ["y"]}`` -> ``{"a.b": "x", "c.0": "y"}``."""
    out: dict[str, str] = {}
    if isinstance(data, dict):
        for k, v in data.items():
            out.update(flatten(v, f"{prefix}{k}."))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.update(flatten(v, f"{prefix}{i}."))
    else:
        assert isinstance(data, str), f"{prefix[:-1]}: a text must be a string, not {data!r}"
        out[prefix[:-1]] = data
    return out


def languages() -> list[str]:
    return sorted(p.name for p in LOCALES.iterdir() if p.is_dir())


def load(lang: str) -> dict[str, dict[str, str]]:
    """Every text of a language: namespace -> flat key -> text."""
    return {
        p.stem: flatten(json.loads(p.read_text(encoding="utf-8")))
        for p in sorted((LOCALES / lang).glob("*.json"))
    }


def plural_groups(texts: dict[str, str]) -> tuple[set[str], dict[tuple[str, str], set[str]]]:
    """The plain keys, and the plural keys as (base, "cardinal"/"ordinal") -> forms present."""
    plain: set[str] = set()
    plural: dict[tuple[str, str], set[str]] = {}
    for key in texts:
        m = _PLURAL.match(key)
        if m:
            kind = "ordinal" if m["ordinal"] else "cardinal"
            plural.setdefault((m["base"], kind), set()).add(m["form"])
        else:
            plain.add(key)
    return plain, plural


def problems(
    reference: dict[str, dict[str, str]], lang: str, texts: dict[str, dict[str, str]]
) -> list[str]:
    """What ``lang``'s texts lack or get wrong against the reference language's."""
    found: list[str] = []
    needs = PLURAL_FORMS.get(lang)
    if needs is None:
        return [f"{lang}: no plural rules known for this language (add them to PLURAL_FORMS)"]
    for ns in sorted(set(reference) | set(texts)):
        if ns == "editions":
            continue
        if ns not in texts:
            found.append(f"{lang}/{ns}.json is missing")
            continue
        if ns not in reference:
            found.append(f"{lang}/{ns}.json has no {REFERENCE} counterpart")
            continue
        ref_plain, ref_plural = plural_groups(reference[ns])
        plain, plural = plural_groups(texts[ns])
        found += [f"{lang}/{ns}: missing key {k}" for k in sorted(ref_plain - plain)]
        found += [f"{lang}/{ns}: key {k} is not in {REFERENCE}" for k in sorted(plain - ref_plain)]
        for base, kind in sorted(set(ref_plural) | set(plural)):
            if (base, kind) not in ref_plural:
                found.append(f"{lang}/{ns}: plural key {base} is not plural in {REFERENCE}")
                continue
            have = plural.get((base, kind), set())
            missing = needs[kind] - have
            if missing:
                forms = ", ".join(
                    f"{base}{'_ordinal' if kind == 'ordinal' else ''}_{f}" for f in sorted(missing)
                )
                found.append(f"{lang}/{ns}: missing plural form(s) {forms}")
        found += placeholder_problems(reference[ns], lang, ns, texts[ns])
    return found


def placeholder_problems(
    reference: dict[str, str], lang: str, ns: str, texts: dict[str, str]
) -> list[str]:
    """A translation names the placeholders the code fills in, no others (``count`` aside:
    a plural form may say the number in words)."""
    found: list[str] = []
    for key, text in texts.items():
        group = [k for k in reference if _base(k) == _base(key)]
        if not group:
            continue
        want = set().union(*(set(_PLACEHOLDER.findall(reference[k])) for k in group)) - {"count"}
        got = set(_PLACEHOLDER.findall(text)) - {"count"}
        if got - want:
            found.append(f"{lang}/{ns}: {key} names {sorted(got - want)}, unknown in {REFERENCE}")
        if not _PLURAL.match(key) and want - got:
            found.append(f"{lang}/{ns}: {key} leaves out {sorted(want - got)}")
    return found


def _base(key: str) -> str:
    m = _PLURAL.match(key)
    return m["base"] if m else key


def test_there_is_more_than_english() -> None:
    assert REFERENCE in languages()
    assert "de" in languages()
    assert load(REFERENCE)["common"], "the reference language has texts"


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != REFERENCE])
def test_every_language_is_complete(lang: str) -> None:
    found = problems(load(REFERENCE), lang, load(lang))
    assert not found, "\n".join(found)


def test_english_has_its_own_plural_forms() -> None:
    """The reference language itself: every plural key has all of English's forms."""
    for ns, texts in load(REFERENCE).items():
        _, plural = plural_groups(texts)
        for (base, kind), forms in plural.items():
            assert PLURAL_FORMS[REFERENCE][kind] <= forms, f"{REFERENCE}/{ns}: {base} lacks forms"


def test_the_check_finds_what_is_missing() -> None:
    en = {
        "home": {
            "a": "A {{name}}",
            "n_one": "{{count}} x",
            "n_other": "{{count}} xs",
            "p_ordinal_one": "1st",
        }
    }
    en["home"] |= {"p_ordinal_two": "2nd", "p_ordinal_few": "3rd", "p_ordinal_other": "4th"}
    de_ok = {
        "home": {
            "a": "A {{name}}",
            "n_one": "{{count}} x",
            "n_other": "{{count}} xe",
            "p_ordinal_other": ".",
        }
    }
    assert problems(en, "de", de_ok) == []
    de_bad = {"home": {"n_other": "{{count}} {{who}}", "extra": "E", "p_ordinal_other": "."}}
    found = "\n".join(problems(en, "de", de_bad))
    assert "missing key a" in found
    assert "missing plural form(s) n_one" in found
    assert "key extra is not in en" in found
    assert "unknown in en" in found
    assert problems(en, "de", {}) == ["de/home.json is missing"]
    wrong = {"home": {**de_ok["home"], "a": "A"}}
    assert problems(en, "de", wrong) == ["de/home: a leaves out ['name']"]


# --- the keys the code asks for ----------------------------------------------------------------

_T_CALL = re.compile(r"""\bt\(\s*(["'])([\w-]+):([\w.\- ]+)\1""")


def code_keys() -> list[tuple[str, str, str]]:
    """(file, namespace, key) of every literal key passed to t() in web/src."""
    out = []
    for path in sorted(WEB.rglob("*.ts")):
        for m in _T_CALL.finditer(path.read_text(encoding="utf-8")):
            out.append((str(path.relative_to(WEB)), m[2], m[3]))
    return out


def test_every_key_in_the_code_exists_in_english() -> None:
    reference = load(REFERENCE)
    keys = code_keys()
    assert len(keys) > 200, "the code's keys are found"
    missing = []
    for file, ns, key in keys:
        texts = reference.get(ns, {})
        if (
            key not in texts
            and not any(_base(k) == key for k in texts)
            and not any(k.startswith(f"{key}_") for k in texts)
        ):
            missing.append(f"{file}: {ns}:{key}")
    assert not missing, "keys the code asks for and en lacks:\n" + "\n".join(missing)


# --- the server's words ------------------------------------------------------------------------


def _literals(tp: Any) -> set[str]:
    out: set[str] = set()
    for a in get_args(tp):
        out |= {a} if isinstance(a, str) else _literals(a)
    return out


def test_every_error_code_has_a_text() -> None:
    """The client translates the server's errors (and verdicts) by code."""
    codes = _literals(ErrorCode) | _literals(HttpErrorCode) | _literals(VerdictCode)
    assert {"no_room", "room_full", "wrong_phase", "uncovered", "no_game"} <= codes
    for lang in languages():
        errors = load(lang)["errors"]
        missing = sorted(codes - set(errors))
        assert not missing, f"{lang}/errors.json lacks the codes {missing}"


def edition_words() -> dict[str, dict[str, str]]:
    """The words each edition record gives the client (GET /api/options), by the key the
    client looks them up by (web/src/editions.ts: `said`)."""
    out: dict[str, dict[str, str]] = {}
    for path in sorted(RECORDS.glob("*.json")):
        rec = json.loads(path.read_text(encoding="utf-8"))
        web = rec.get("web", {})
        words = {"title": rec["title"], "blurb": rec["blurb"], "side_word": web["side_word"]}
        for side in rec["deck"]["sides"]:
            words[f"sides.{side['name']}"] = side["label"]
        for i, line in enumerate(web["how_to"]):
            words[f"how_to.{i}"] = line
        for variant, label in web.get("variant_labels", {}).items():
            words[f"variants.{variant}"] = label
        out[path.stem] = words
    return out


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != REFERENCE])
def test_every_edition_is_translated(lang: str) -> None:
    """A sentence added to an edition's record (its how-to, a side) needs its translation."""
    texts = load(lang)["editions"]
    missing = []
    for edition, words in edition_words().items():
        missing += [f"{edition}.{k}" for k in words if f"{edition}.{k}" not in texts]
    extra = sorted(set(texts) - {f"{e}.{k}" for e, w in edition_words().items() for k in w})
    assert not missing, f"{lang}/editions.json lacks {missing}"
    assert not extra, f"{lang}/editions.json has words for nothing in the records: {extra}"


def test_english_editions_come_from_the_records() -> None:
    assert load(REFERENCE).get("editions", {}) == {}, (
        "English edition words live in the records only"
    )
