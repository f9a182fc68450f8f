"""Other products' identifying strings in drafts: the check behind issue #24's "no draft of a
target holds another product's name, people, e-mail addresses, phone numbers or links".

The check is built for one target product (:func:`build`) from the sources the drafts could have
drawn on, each with its scope (engine/core/scopes.py): the answer library's past answers
(:func:`library_sources`, :func:`questionnaire_sources`) and the knowledge base's documents
(:func:`kb_sources`, :func:`document_sources`). A source is **own** (the target product's, or
company-wide) or **foreign** (another product's, or a third party's). What it looks for:

* **product names** — every product named by a source's scope, and the vendor and product names
  another product's past answers give (GNRL-01/02 "Vendor Name", "Product Name", recognised by
  engine/index/profile.py ``fact_key``: "Parchment LLC", "Unified Inbox"), minus the target's own name,
  any name inside it ("Canvas" for "Canvas LMS") and any name holding the company's ("Instructure
  Inc"). Strict on purpose: a product name is a leak wherever it stands, even where a company-wide
  source names the product too (a company overview listing every product): the figures of the
  vendor's own answers (``python -m engine.bench.rows``) show how often that happens. A name that
  is also an ordinary word in the sources ("Impact": "Impact and Likelihood", "business impact")
  counts only as a name: with the company's ("Impact by Instructure", "Instructure Impact") or in a
  list beside another product's name ("Canvas Catalog, Impact, Elevate").
* **people** — the names given in another product's contact-name rows (GNRL-06/10 "Vendor
  Contact Name", …), when they look like a person's name (2–4 capitalised words, no digit).
  Names written only inside prose of other products' answers or documents are not found (no
  named-entity model is loaded for a check).
* **e-mail addresses, phone numbers and links** (engine/drafting/cross_product.py ``contact_tokens``) of
  foreign sources, and any e-mail address or link on the same site (the last two labels of the
  host: ``feedback@parchment.com`` is Parchment's when parchment.com appears only in Parchment's
  answers). Not a leak: one an own source also holds, and one two products' different sources
  both hold (the company's: ``inst.bid/privacy``, ``info@instructure.com`` stand in every
  product's HECVAT). A third party's link (``aws.amazon.com``) is a leak unless an own source
  cites it too: the drafter's own rule (engine/drafting/profile_answers.py) takes third parties' links out
  of drafts, so one that is left is a slip. Third parties' *names* ("AWS") are never leaks: a
  product hosted on AWS says so.

Figures (:meth:`LeakCheck.figures`): ``other_product_mentions`` — rows holding anything of another
product (its name, people, or a contact found only in another product's sources) and
``foreign_contacts`` — rows holding a link, e-mail or phone found only in another product's or a
third party's sources; each ``{"rows", "ids", "examples"}`` (the first five "ID: string").

``python -m engine.bench.leaks DRAFTS.jsonl --library FILES… --kb FILES_OR_FOLDERS…`` runs the
check over the drafts an all-rows evaluation wrote (``eval … --all-rows --drafts FILE``), scopes
from the folders' names as ``--scope-folders`` gives them, and prints JSON.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from engine.core.scopes import COMPANY, FolderScopes, Scope
from engine.core.types import FileProblem
from engine.drafting.cross_product import contact_tokens
from engine.drafting.explanation_rules import names_any
from engine.drafting.generate.glitches import foreign_text
from engine.drafting.regulated import provider_names
from engine.index.profile import fact_key
from engine.ingest import load_document
from engine.ingest.paths import select_files
from engine.questionnaire import read_questionnaire

EXAMPLES = 5  # "ID: string" examples kept per figure
PEOPLE_KEYS = ("contact_name", "accessibility_contact_name")
NAME_KEYS = ("vendor_name", "product_name")
_PERSON = re.compile(r"^[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){1,3}$")
_COMPANY_SUFFIX = re.compile(r",?\s+(?:inc|llc|ltd|corp|corporation|gmbh|co)\.?$", re.IGNORECASE)


@dataclass(frozen=True)
class Source:
    """A text a draft could have drawn on, with whose it is: a past answer (its ``question``
    given) or a knowledge-base document; ``file`` names it."""

    text: str
    scope: Scope
    file: str = ""
    question: str | None = None

    def whose(self) -> tuple[str, ...]:
        """The products it speaks for, or ("third party: T",), or () when company-wide."""
        return (f"third party: {self.scope.third_party}",) if self.scope.third_party else self.scope.products


@dataclass(frozen=True)
class Leak:
    """One identifying string of another product or a third party found in a draft."""

    kind: str  # "product", "person", "e-mail", "phone", "link"
    text: str  # as written in the draft
    whose: tuple[str, ...]  # the products (or "third party: T") it belongs to

    @property
    def other_product(self) -> bool:
        return any(not w.startswith("third party: ") for w in self.whose)

    @property
    def contact(self) -> bool:
        return self.kind in ("e-mail", "phone", "link")


def contact_key(token: str) -> tuple[str, str]:
    """(kind, key) of a link, e-mail address or phone number, compared loosely: case, ``https://``,
    ``www.``, a trailing slash or dot; a phone by its last ten digits (no extension)."""
    t = token.strip().rstrip(".,;:)/").lower()
    if "@" in t and not t.startswith(("http", "www.")):
        return "e-mail", t
    main = re.split(r"\s*(?:ext\.?|x)\s*\d+$", t)[0]
    if not re.search(r"[a-z]", main):
        return "phone", re.sub(r"\D", "", main)[-10:]
    t = re.sub(r"^https?://", "", t)
    t = re.sub(r"^www\.", "", t)
    return "link", t.rstrip("/.")


def site(kind: str, key: str) -> str | None:
    """The site of an e-mail address or link: the last two labels of its host."""
    if kind == "phone":
        return None
    host = key.split("@", 1)[1] if kind == "e-mail" else key.split("/", 1)[0]
    labels = host.split(".")
    return ".".join(labels[-2:]) if len(labels) >= 2 else None


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def _contains_words(haystack: str, needle: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(_fold(needle))}(?!\w)", _fold(haystack)) is not None


def _names_of(value: str) -> list[str]:
    """The names a vendor-name or product-name answer gives ("A, B and C" → A, B, C)."""
    parts = re.split(r"\s*(?:[,;\n•]|\band\b|&)\s*", value or "")
    return [p.strip(" .:-") for p in parts if p.strip(" .:-") and len(p.split()) <= 6 and not re.search(r"\d", p)]


@dataclass(frozen=True)
class LeakCheck:
    """The identifying strings of the products other than ``product`` (see the module's
    docstring); :meth:`find` lists them in a text."""

    product: str | None
    names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # name → whose
    word_names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # names that are also ordinary words
    people: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    contacts: Mapping[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)  # (kind, key) → whose
    sites: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # foreign sites → whose
    company: str | None = None

    def find(self, text: str) -> list[Leak]:
        """The other products' and third parties' identifying strings in ``text``, in order of kind."""
        text = text or ""
        found: list[Leak] = []
        folded = _fold(text)
        for name, whose in self.names.items():
            m = re.search(rf"(?<![\w@./-]){re.escape(_fold(name))}(?![\w@-])", folded)
            if m:
                found.append(Leak("product", name, whose))
        for name, whose in self.word_names.items():
            if self._as_name(name, text):
                found.append(Leak("product", name, whose))
        longer = [_fold(x.text) for x in found]  # "Parchment" inside "Parchment LLC" is one mention
        found = [x for x in found if not any(_fold(x.text) != n and _contains_words(n, x.text) for n in longer)]
        for person, whose in self.people.items():
            if _contains_words(text, person):
                found.append(Leak("person", person, whose))
        for token in contact_tokens(text):
            kind, key = contact_key(token)
            whose = self.contacts.get((kind, key)) or self.sites.get(site(kind, key) or "")
            if whose:
                found.append(Leak(kind, token, whose))
        return found

    def leaks(self, text: str) -> list[str]:
        """The strings of :meth:`find`, as written."""
        return [x.text for x in self.find(text)]

    def _as_name(self, name: str, text: str) -> bool:
        n = re.escape(name)
        others = "|".join(
            re.escape(x)
            for x in sorted({*self.names, *([self.product] if self.product else [])}, key=len, reverse=True)
        )
        patterns = []
        if self.company:
            c = re.escape(self.company)
            patterns += [rf"\b{n}\s+by\s+{c}\b", rf"\b{c}(?:'s|’s|:)?\s+{n}\b"]
        if others:
            patterns += [
                rf"(?:{others})\W{{0,4}}(?:,|\band\b|&)\W{{0,3}}{n}\b",
                rf"\b{n}\W{{0,4}}(?:,|\band\b|&)\W{{0,3}}(?:{others})",
            ]
        return any(re.search(p, text) for p in patterns)

    def figures(self, rows: Iterable[tuple[str, str]]) -> dict:
        """``other_product_mentions`` and ``foreign_contacts`` over ``rows`` = (row ID, draft text)."""
        mentions: list[tuple[str, list[Leak]]] = []
        contacts: list[tuple[str, list[Leak]]] = []
        for rid, text in rows:
            found = self.find(text)
            mine = [x for x in found if x.other_product]
            foreign = [x for x in found if x.contact]
            if mine:
                mentions.append((rid, mine))
            if foreign:
                contacts.append((rid, foreign))
        return {"other_product_mentions": _summary(mentions), "foreign_contacts": _summary(contacts)}


def _summary(rows: Sequence[tuple[str, list[Leak]]]) -> dict:
    examples = [f"{rid}: {x.text}" for rid, found in rows for x in found][:EXAMPLES]
    kinds = {
        k: sum(any((x.kind == k) if k != "contact" else x.contact for x in found) for _, found in rows)
        for k in ("product", "person", "contact")
    }
    return {"rows": len(rows), "ids": [rid for rid, _ in rows], "examples": examples, "by_kind": kinds}


def build(product: str | None, sources: Iterable[Source], company: str | None = None) -> LeakCheck:
    """The check for drafts of ``product`` (None: company-wide, every product's strings are
    another's) from ``sources``; ``company``: the company's name (never another product's)."""
    sources = _unique(sources)
    own = [s for s in sources if _own(s, product)]
    foreign = [s for s in sources if not _own(s, product)]
    own_text = "\n".join(s.text for s in own)

    # contacts: where each appears; allowed when an own source, or two products' different sources, hold it
    seen: dict[tuple[str, str], list[Source]] = {}
    for s in sources:
        for token in contact_tokens(s.text):
            seen.setdefault(contact_key(token), []).append(s)
    allowed = {k for k, where in seen.items() if any(_own(s, product) for s in where) or _shared(where)}
    contacts = {k: _whose(where) for k, where in seen.items() if k not in allowed}
    allowed_sites = {site(*k) for k in allowed} - {None}
    sites: dict[str, set[str]] = {}
    for k, whose in contacts.items():
        x = site(*k)
        if x and x not in allowed_sites:
            sites.setdefault(x, set()).update(whose)

    # names: the scopes' products, and the vendor and product names other products' answers give
    named: dict[str, set[str]] = {}
    for s in sources:
        for p in s.scope.products:
            named.setdefault(p, set()).add(p)
    people_of: dict[str, list[Source]] = {}
    for s in foreign:
        key = fact_key(s.question) if s.question else None
        if key in NAME_KEYS and s.scope.products:
            for name in _names_of(s.text):
                named.setdefault(name, set()).update(s.scope.products)
        if key in PEOPLE_KEYS and _PERSON.match(s.text.strip()):
            people_of.setdefault(" ".join(s.text.split()), []).append(s)
    for s in own:  # the target's own past answers may name a person too: theirs
        if s.question and fact_key(s.question) in PEOPLE_KEYS:
            people_of.pop(" ".join(s.text.split()), None)
    names, word_names = {}, {}
    for name, whose in named.items():
        bare = _COMPANY_SUFFIX.sub("", name)
        if (
            (product and (_fold(name) == _fold(product) or _contains_words(product, bare)))
            or (company and _contains_words(name, company))
            or not bare
        ):
            continue
        # an ordinary word: written in lower case (not in a link) by a source that is not its product's
        word = re.compile(rf"(?<![\w@./-]){re.escape(bare.lower())}(?![\w@-]|\.\w)")
        ordinary = len(bare.split()) == 1 and any(
            word.search(s.text) for s in sources if not set(whose) & set(s.scope.products)
        )
        (word_names if ordinary else names)[name] = tuple(sorted(whose))
    people = {
        p: _whose(where) for p, where in people_of.items() if not _contains_words(own_text, p) and not _shared(where)
    }
    return LeakCheck(
        product, names, word_names, people, contacts, {k: tuple(sorted(v)) for k, v in sites.items()}, company
    )


def _own(s: Source, product: str | None) -> bool:
    return s.scope.company or (product is not None and product in s.scope.products)


def _shared(where: Sequence[Source]) -> bool:
    """Held by two products' different sources: the company's, not one product's."""
    products = {p for s in where for p in s.scope.products}
    return len(products) >= 2 and len({s.file or hashlib.sha256(s.text.encode()).hexdigest() for s in where}) >= 2


def _whose(where: Sequence[Source]) -> tuple[str, ...]:
    return tuple(sorted({w for s in where for w in s.whose()}))


def _unique(sources: Iterable[Source]) -> list[Source]:
    out, keys = [], set()
    for s in sources:
        k = (s.text, s.scope, s.question)
        if s.text.strip() and k not in keys:
            keys.add(k)
            out.append(s)
    return out


# ---------------------------------------------------------------- sources


def library_sources(entries: Iterable) -> list[Source]:
    """Each past answer (storage/library_store.py LibraryEntry) as a source of its product."""
    return [
        Source(
            " ".join(x for x in (e.choice, e.answer, e.comment) if x),
            Scope((e.product,)) if e.product else COMPANY,
            e.file,
            e.question,
        )
        for e in entries
    ]


def questionnaire_sources(files: Iterable[Path], folders: FolderScopes) -> list[Source]:
    """The answered questions of past filled questionnaires, each the product of its folder
    (read as the library imports them, without embedding anything)."""
    out = []
    for f in files:
        product = folders.product_of(Path(f))
        scope = Scope((product,)) if product else COMPANY
        for q in read_questionnaire(Path(f)).questions:
            text = " ".join(x for x in (q.existing_choice, q.existing_answer) if x)
            if text.strip():
                out.append(Source(text, scope, Path(f).name, q.text))
    return out


def kb_sources(kb) -> list[Source]:
    """Each document of a KnowledgeBase (engine/index/kb.py), with its scope."""
    return [Source("\n".join(u.text for u in kb.units(d.name)), d.scope, d.name) for d in kb.documents()]


def document_sources(files: Iterable[Path], folders: FolderScopes) -> list[Source]:
    """Knowledge-base files read as the knowledge base reads them, scoped by their folders."""
    files = list(files)
    scopes = folders.of_files(files)
    out = []
    for f in files:
        try:
            out.append(Source("\n".join(u.text for u in load_document(f).units), scopes[f], f.name))
        except FileProblem as exc:  # skipped, as the knowledge base skips it (a scan, an empty file)
            print(f"left out of the check: {exc}", file=sys.stderr)
    return out


def draft_text(record: Mapping) -> str:
    """What a drafted row shows: its choice and its text."""
    return " ".join(x for x in (record.get("choice"), record.get("answer")) if x)


# ---------------------------------------------------------------- CLI


def check_drafts(
    records: Sequence[Mapping],
    library: Sequence[Source],
    documents: Sequence[Source],
    company: str | None,
    product: str | None = None,
) -> list[dict]:
    """Per target of ``records`` (lines of ``--drafts``): its figures, the library less the target's file."""
    by_target: dict[tuple[str, str | None], list[Mapping]] = {}
    for r in records:
        by_target.setdefault((r.get("target", ""), product or r.get("product")), []).append(r)
    out = []
    for (target, prod), rows in by_target.items():
        check = build(prod, [s for s in library if s.file != target] + list(documents), company)
        out.append(
            {
                "target": target,
                "product": prod,
                "rows": len(rows),
                **check.figures((r.get("id") or r.get("key") or "?", draft_text(r)) for r in rows),
                "from_other_product": from_other_product(rows),
            }
        )
    return out


def from_other_product(records: Sequence[Mapping]) -> dict:
    """Drafted rows whose choice is another product's past answer, and how many say so (named
    past answers, a confidence, the trust flag)."""
    crossed = [r for r in records if r.get("from_product")]
    labelled = [
        r
        for r in crossed
        if r.get("past_answers")
        and r.get("confidence") is not None
        and any(str(t).startswith("from another product") for t in r.get("trust") or ())
    ]
    return {"rows": len(crossed), "labelled": len(labelled), "ids": [r.get("id") for r in crossed]}


def third_party_unnamed(records: Sequence[Mapping]) -> dict:
    """Drafted rows whose text rests on a third party's document (a highlightable quote of it)
    without naming that third party (its name, initials or first word: ``provider_names``): a provider's practice presented as
    the company's own. Must be 0."""
    ids = []
    for r in records:
        d = r.get("draft") or {}
        text = d.get("answer") or ""
        parties = {
            c["third_party"]
            for c in d.get("citations") or ()
            if c.get("third_party") and c.get("label") != "unverified"
        }
        if text.strip() and any(not names_any(text, provider_names(p)) for p in parties):
            ids.append(r.get("id") or r.get("key"))
    return {"rows": len(ids), "ids": ids}


def out_of_script(records: Sequence[Mapping]) -> dict:
    """Drafted rows whose text holds letters of a script its question does not use (a model's
    "的通知" in an English questionnaire: engine/drafting/generate/glitches.py). Must be 0."""
    ids = [
        r.get("id") or r.get("key")
        for r in records
        if r.get("status") == "drafted" and foreign_text(r.get("answer") or "", r.get("question") or "")
    ]
    return {"rows": len(ids), "ids": ids}


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m engine.bench.leaks", description=__doc__.split("\n\n")[0])
    parser.add_argument("drafts", help="the JSON lines an all-rows evaluation wrote with --drafts")
    parser.add_argument("--library", nargs="*", default=[], help="the past filled questionnaires of the run")
    parser.add_argument("--kb", nargs="*", default=[], help="the knowledge base's files or folders of the run")
    parser.add_argument("--product", help='the product drafted for (default: each line\'s "product")')
    parser.add_argument("--company", default="Instructure", help="the company's folder and name")
    parser.add_argument(
        "--third-party",
        nargs="*",
        default=["Amazon Web Services", "Google Cloud Platform"],
        help="the folders of third parties' documents",
    )
    args = parser.parse_args(argv)
    path = Path(args.drafts)
    try:
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        print(
            f"{path}: cannot be read as JSON lines ({exc}); give the file an evaluation wrote with --drafts",
            file=sys.stderr,
        )
        return 2
    folders = FolderScopes(args.company, tuple(args.third_party))
    library = questionnaire_sources([Path(p) for p in args.library], folders)
    selected = select_files([Path(p) for p in args.kb])
    if selected.errors:
        print(selected.errors[0], file=sys.stderr)
        return 2
    documents = document_sources([f for f, _ in selected.files], folders)
    print(json.dumps({"targets": check_drafts(records, library, documents, args.company, args.product)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))


__all__ = [
    "Leak",
    "LeakCheck",
    "Source",
    "build",
    "check_drafts",
    "contact_key",
    "document_sources",
    "draft_text",
    "from_other_product",
    "kb_sources",
    "library_sources",
    "questionnaire_sources",
    "site",
]
