"""The company profile and the product profiles: named facts (vendor name, product name and
description, links, contacts, hosting regions, work locations, …; open-ended: a responder can add
any key), each with its source.

Learned from the answer library (engine/index/library.py). A general-information question is
recognised by its wording (:data:`FACT_PATTERNS`: HECVAT's GNRL-01…15 rows "Vendor Name",
"Web Link to Product Privacy Notice", "Vendor Contact Email", …, and the same words in any
questionnaire), and its past answers become facts:

* a **company fact**: the value (compared normalised: case, spaces, ``https://``, a trailing
  slash) that at least :data:`COMPANY_AGREEMENT` of the company's past questionnaires answering
  it give, and at least two of them; company-wide questionnaires and every product's count;
* a **product fact**: what the product's own past questionnaire (the newest) answers;
* the product's name, when nothing else gives it, is the product drafted for;
* a **document fact**: what the product's own documents state in a recognised form (the vendor
  and contacts of a PCI DSS attestation's assessed entity, a VPAT's contact, a cloud-service
  certificate's service description:
  engine/index/profile_documents.py), used where neither the product's own questionnaire nor the
  company's give the fact, cited to the document's page.

Values are compared loosely (:func:`normalised`). A value pointing to another row of its
questionnaire ("See GNRL-08 for …") is compared with the row's fact in place of its number (so a
K-12CVAT's "See GNRL-07" agrees with a HECVAT's "See GNRL-08"), and answered with the number of
the target questionnaire's row asking for that fact (:meth:`Fact.value_for`; not at all when the
target has no such row).

**Another vendor.** When a product's own vendor name (set by hand, its own questionnaire, else
its own documents) is another legal entity than the company's (:func:`same_vendor`: "Parchment
LLC" is not "Instructure"; "Instructure, Inc." is), none of the company's facts are the
product's: its rows get only its own and its documents' facts, the rest are left to the
documents and the reviewer (a wrong contact in a contract is worse than a blank).

Facts a responder sets (``python -m engine profile --set KEY VALUE [--product P]``, or the app)
are kept in ``profile.json`` in the store folder (written atomically) and win over learned ones.
A value holding a control character other than a tab or a line break (NUL, escape…) is refused:
it would be written as it is into the answers, and a CSV holding a NUL is refused as binary.

Answering: a question asking for a fact (:func:`fact_key`) of the product drafted for is
answered with the fact, exactly, without the model; its citation is the past questionnaire the
fact came from (or "profile" for a fact set by hand). A date question ("Date", DATE-01, or "Date (MM/DD/YYYY)"
with the format it expects) gets the drafting date, in the questionnaire's format
(engine/questionnaire/sheet/date_format.py). A product's fact is never used for another product; a fact only another product's
past answers give is not a company fact unless the company's questionnaires agree on it.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from engine.core.files import write_atomic
from engine.questionnaire.sheet.date_format import FORMAT_HINT
from storage.library_store import LibraryEntry

PROFILE_FILE = "profile.json"
COMPANY_AGREEMENT = 0.6  # share of the company's questionnaires answering a fact that must agree
PRODUCT_KEYS = ("product_name", "product_description")  # never company facts
# facts only the profile answers: a contact or a link the profile lacks is left for the responder
# to set, never drafted from the documents (drafted so on Canvas Credentials' HECVAT Full from the
# documents alone, the model found nothing for 1 of the 9 such rows and the other 8 were all wrong:
# AWS's privacy notice, an e-mail as a name or title, a phone number from an insurance certificate)
PROFILE_ONLY_KEYS = (
    "accessibility_contact_name",
    "accessibility_contact_title",
    "accessibility_contact_email",
    "accessibility_contact_phone",
    "contact_name",
    "contact_title",
    "contact_email",
    "contact_phone",
    "privacy_link",
    "accessibility_link",
)
DATE_KEY = "date"
# (key, pattern on the question text, case-insensitive); the first that matches names the fact.
_WHO = r"(?:vendor |solution provider |service provider |supplier |company )?"  # HECVAT 3: Vendor; HECVAT 4: Solution Provider
FACT_PATTERNS: tuple[tuple[str, str], ...] = (
    ("accessibility_contact_name", rf"^\W*{_WHO}accessibility contact name\W*$"),
    ("accessibility_contact_title", rf"^\W*{_WHO}accessibility contact title\W*$"),
    ("accessibility_contact_email", rf"^\W*{_WHO}accessibility contact e-?mail(?: address)?\W*$"),
    ("accessibility_contact_phone", rf"^\W*{_WHO}accessibility contact phone(?: number)?\W*$"),
    ("contact_name", rf"^\W*{_WHO}contact name\W*$"),
    ("contact_title", rf"^\W*{_WHO}contact title\W*$"),
    ("contact_email", rf"^\W*{_WHO}contact e-?mail(?: address)?\W*$"),
    ("contact_phone", rf"^\W*{_WHO}contact phone(?: number)?\W*$"),
    ("privacy_link", r"link to (?:the |your )?(?:product |solution )?privacy (?:notice|policy)"),
    ("accessibility_link", r"link to (?:the |your )?accessibility statement"),
    ("vendor_name", r"^\W*(?:vendor|company|supplier|solution provider|service provider) name\W*$"),
    ("product_name", r"^\W*(?:product|solution|service) name\W*$"),
    ("product_description", r"^\W*(?:product|solution|service) description\W*$"),
    ("hosting_regions", rf"^\W*{_WHO}(?:hosting regions?|data zones?)\W*$"),  # K-12CVAT: "Vendor Data Zone"
    ("work_locations", r"^\W*(?:vendor |employee )?work locations?(?: \(all\))?\W*$"),
    ("headquarters_country", r"^\W*country of (?:the )?company(?:'s)? headquarters\W*$"),
    (DATE_KEY, rf"^\W*date(?: completed)?\W*(?:{FORMAT_HINT}\W*)?$"),  # "Date", "Date (MM/DD/YYYY)"
)
_COMPILED = tuple((k, re.compile(p, re.IGNORECASE)) for k, p in FACT_PATTERNS)
# each fact's question in English, as HECVAT asks it (:func:`fact_key` reads each as its key): what a
# question in another language is matched with, so its translation reaches the fact as the English
# question does (a paraphrase, "Supplier's workplace sites" for "Vendor Work Locations", matches no
# pattern; engine/drafting/profile_answers.py ``ProfileAnswers.questions_near``)
FACT_QUESTIONS: dict[str, str] = {
    "accessibility_contact_name": "Vendor Accessibility Contact Name",
    "accessibility_contact_title": "Vendor Accessibility Contact Title",
    "accessibility_contact_email": "Vendor Accessibility Contact Email",
    "accessibility_contact_phone": "Vendor Accessibility Contact Phone Number",
    "contact_name": "Vendor Contact Name",
    "contact_title": "Vendor Contact Title",
    "contact_email": "Vendor Contact Email",
    "contact_phone": "Vendor Contact Phone Number",
    "privacy_link": "Web Link to Product Privacy Notice",
    "accessibility_link": "Web Link to Accessibility Statement",
    "vendor_name": "Vendor Name",
    "product_name": "Product Name",
    "product_description": "Product Description",
    "hosting_regions": "Vendor Hosting Regions",
    "work_locations": "Vendor Work Locations",
    "headquarters_country": "Country of Company Headquarters",
}
_OWN_LABEL = re.compile(r"^\W*(?:vendor|supplier|solution provider|service provider|product|solution)\b", re.I)


class ProfileError(ValueError):
    """A profile that cannot be read or a fact that cannot be set; the message says how to fix it."""


@dataclass(frozen=True)
class Fact:
    """One named fact. ``source`` is the past questionnaire it was learned from ("profile" when a
    responder set it); ``sheet``/``row``/``qid`` the row there; ``product`` whose fact it is
    (None: the company's); ``agreeing`` how many past questionnaires gave this value."""

    key: str
    value: str
    source: str
    product: str | None = None
    sheet: str | None = None
    row: int | None = None
    qid: str | None = None
    agreeing: int = 1
    page: int | None = None  # a document fact: the page of ``source`` stating it (1-based) …
    start: int | None = None  # … and where the value starts in that page's text …
    end: int | None = None  # … and ends, when the value spans lines (joined by spaces); else start + len(value)
    refers: tuple[tuple[str, str], ...] = ()  # rows of its questionnaire the value points to: (row id, fact)

    def value_for(self, rows: Mapping[str, str] | None) -> str | None:
        """The value for a questionnaire whose general-information rows are ``rows`` (fact →
        row id): a pointer to another row ("See GNRL-08 for …") is re-pointed to the row of
        this questionnaire asking for the same fact; None when that row is unknown (a pointer
        to a wrong row is worse than no answer)."""
        value = self.value
        for row_id, key in self.refers:
            target = (rows or {}).get(key)
            if target is None:
                return None
            value = re.sub(rf"\b{re.escape(row_id)}\b", target, value)
        return value

    @property
    def cited(self) -> str:
        """Its source with the place in it: "AOC.pdf, page 3", "HECVAT.xlsx, row 9", "profile"."""
        where = f", page {self.page}" if self.page is not None else f", row {self.row}" if self.row else ""
        return self.source + where

    @property
    def origin(self) -> str:
        """Where the fact comes from, in words: "set by hand", "document", "own questionnaire",
        "company questionnaires" or "product chosen"."""
        if self.source == "profile":
            return "set by hand"
        if self.page is not None:
            return "document"
        if self.sheet is None:
            return "product chosen"
        return "own questionnaire" if self.product else "company questionnaires"

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Profile:
    """The company's facts and each product's, by key; ``documented``: facts each product's own
    documents state in a recognised form (engine/index/profile_documents.py)."""

    company: dict[str, Fact] = field(default_factory=dict)
    products: dict[str, dict[str, Fact]] = field(default_factory=dict)
    documented: dict[str, dict[str, Fact]] = field(default_factory=dict)

    def vendor(self, product: str | None) -> Fact | None:
        """Who the vendor of ``product`` is: its own vendor name (set by hand, its own
        questionnaire, else its own documents), else the company's."""
        own = self.products.get(product or "", {}).get("vendor_name") if product else None
        own = own or (self.documented.get(product or "", {}).get("vendor_name") if product else None)
        return own or self.company.get("vendor_name")

    def other_vendor(self, product: str | None) -> bool:
        """True when ``product``'s own vendor name is another legal entity than the company's
        (an acquired company answering as itself): the company's facts are not its facts."""
        own, company = self.vendor(product), self.company.get("vendor_name")
        return bool(product and own and company and own is not company and not same_vendor(own.value, company.value))

    def fact(self, key: str, product: str | None) -> Fact | None:
        """The fact for a questionnaire of ``product``: the product's own (set by hand or its own
        questionnaire); for its name, the product; else the company's (for a key not
        product-specific), else what the product's own documents state (its description, too). When the product's
        vendor is another entity than the company (:meth:`other_vendor`), never the company's."""
        own = self.products.get(product or "", {}).get(key) if product else None
        if own is not None:
            return own
        if key == "product_name" and product:
            return Fact(key, product, "the product chosen for this questionnaire", product)
        documented = self.documented.get(product or "", {}).get(key) if product else None
        if key in PRODUCT_KEYS or self.other_vendor(product):  # never the company's
            return documented
        return self.company.get(key) or documented

    def values(self, product: str | None) -> list[str]:
        """Every fact value usable for ``product`` (the company's, unless the product's vendor is
        another entity, its documents' and its own)."""
        facts = {} if self.other_vendor(product) else dict(self.company)
        if product:
            facts.update({k: f for k, f in self.documented.get(product, {}).items() if k not in facts})
            facts.update(self.products.get(product, {}))
        return [f.value for f in facts.values()]

    def with_documents(self, documented: dict[str, dict[str, Fact]]) -> Profile:
        """This profile with the products' document facts ``documented`` (product → key → fact)."""
        return Profile(self.company, self.products, {p: dict(f) for p, f in documented.items() if f})

    def to_json(self) -> dict:
        data = {
            "company": {k: f.to_json() for k, f in sorted(self.company.items())},
            "products": {p: {k: f.to_json() for k, f in sorted(fs.items())} for p, fs in sorted(self.products.items())},
        }
        if self.documented:
            data["documented"] = {
                p: {k: f.to_json() for k, f in sorted(fs.items())} for p, fs in sorted(self.documented.items())
            }
        return data


_LEGAL_FORM = re.compile(
    r"\b(?:inc|incorporated|llc|l\.l\.c|ltd|limited|corp|corporation|co|company|plc|gmbh|ag|"
    r"sa|s\.a|bv|b\.v|pty|llp|lp)\b\.?",
    re.IGNORECASE,
)


def same_vendor(a: str, b: str) -> bool:
    """Whether two vendor names name one company: compared without case, punctuation and legal
    form ("Instructure, Inc." is "Instructure"; "Parchment LLC" is not)."""

    def core(name: str) -> str:
        return " ".join(re.sub(r"[^\w\s]", " ", _LEGAL_FORM.sub(" ", name or "")).casefold().split())

    return bool(core(a)) and core(a) == core(b)


def fact_key(question: str) -> str | None:
    """The profile fact a question asks for, from its wording; None for any other question. A Word
    document's label read with its context ("Supplier questionnaire: Vendor Name": its heading or
    table title, engine/questionnaire/word/tables.py) is read as its label alone when that label
    names the vendor or its product itself ("Subcontractor: Company Name" is not the vendor's)."""
    text = " ".join((question or "").split())
    if len(text) > 80:
        return None
    found = next((k for k, pattern in _COMPILED if pattern.search(text)), None)
    label = text.rsplit(": ", 1)[-1]
    if found is None and label != text and _OWN_LABEL.match(label):
        found = next((k for k, pattern in _COMPILED if pattern.search(label)), None)
    return found


def normalised(value: str) -> str:
    """A fact value compared loosely: case, spaces, a scheme and ``www.``, a trailing slash or dot,
    a comma or semicolon between words ("Director, Information Security" is "Director Information
    Security")."""
    v = " ".join((value or "").replace("\u200b", " ").split()).casefold()
    v = re.sub(r"^(?:https?://)?(?:www\.)?", "", v)
    v = re.sub(r"\s*[,;]+(?=\s|$)", "", v)
    return v.rstrip("/. ")


def _value(e: LibraryEntry) -> str:
    return " — ".join(x for x in (e.choice, e.answer) if x).strip()


_ROW_ID = re.compile(
    r"\b[A-Z]{2,6}-\d{1,3}(?:\.\d{1,3})?\b"
)  # a row id as questionnaires number them: GNRL-08, DATE-01


def _references(value: str, rows: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """The general-information rows of the same questionnaire ``value`` points to ("See GNRL-08
    for …"): (row id, the fact that row asks for)."""
    return tuple((m, rows[m]) for m in dict.fromkeys(_ROW_ID.findall(value or "")) if m in rows)


def _pointed(value: str, refers: Iterable[tuple[str, str]]) -> str:
    """``value`` with each row it points to named by its fact (compared across questionnaires
    whose rows are numbered differently)."""
    for row_id, key in refers:
        value = re.sub(rf"\b{re.escape(row_id)}\b", "{" + key + "}", value)
    return value


def learn(entries: Iterable[LibraryEntry]) -> Profile:
    """The profile the past answers give (module docstring). Retired entries are skipped."""
    entries = [e for e in entries if not e.retired]
    rows_of: dict[str, dict[str, str]] = defaultdict(dict)  # file -> row id -> the fact the row asks for
    for e in entries:
        key = fact_key(e.question)
        if key is not None and e.qid:
            rows_of[e.file][e.qid] = key
    by_key_file: dict[str, dict[str, LibraryEntry]] = defaultdict(dict)
    products: dict[str, dict[str, Fact]] = defaultdict(dict)
    newest: dict[tuple[str, str], str] = {}
    refers = {}
    for e in entries:
        key = fact_key(e.question)
        value = _value(e)
        if key is None or key == DATE_KEY or not value:
            continue
        refers[e.id] = _references(value, rows_of[e.file])
        by_key_file[key].setdefault(e.file, e)
        if e.product:
            fact = Fact(key, value, e.file, e.product, e.sheet, e.row, e.qid, refers=refers[e.id])
            if (e.product, key) not in newest or e.imported >= newest[(e.product, key)]:
                products[e.product][key] = fact
                newest[(e.product, key)] = e.imported
    company: dict[str, Fact] = {}

    def vote(e: LibraryEntry) -> str:
        return normalised(_pointed(_value(e), refers[e.id]))

    for key, files in by_key_file.items():
        if key in PRODUCT_KEYS:
            continue
        votes = Counter(vote(e) for e in files.values())
        value, n = votes.most_common(1)[0]
        if n >= 2 and n >= COMPANY_AGREEMENT * len(files):
            first = min(
                (e for e in files.values() if vote(e) == value), key=lambda e: (e.product is not None, e.file)
            )  # a company-wide file first
            company[key] = Fact(
                key, _value(first), first.file, None, first.sheet, first.row, first.qid, n, refers=refers[first.id]
            )
    # a product's learned fact that equals the company's is the company's (one source of truth)
    for product, facts in products.items():
        for key in [
            k
            for k, f in facts.items()
            if k in company
            and normalised(_pointed(f.value, f.refers)) == normalised(_pointed(company[k].value, company[k].refers))
        ]:
            del facts[key]
    return Profile(company, {p: dict(f) for p, f in products.items() if f})


def row_ids(questions: Iterable) -> dict[str, str]:
    """The general-information rows of a questionnaire (its questions, or ``{id, question}``
    rows): the fact each asks for → its row id."""
    out: dict[str, str] = {}
    for q in questions:
        text, qid = (q.get("question"), q.get("id")) if isinstance(q, dict) else (q.text, q.id)
        key = fact_key(text or "")
        if key is not None and qid:
            out.setdefault(key, qid)
    return out


# ---- the saved file -----------------------------------------------------------------------------
def saved_path(folder: str | Path) -> Path:
    return Path(folder) / PROFILE_FILE


def load_set(folder: str | Path) -> Profile:
    """The facts a responder set, from ``FOLDER/profile.json`` (an empty profile when absent)."""
    path = saved_path(folder)
    if not path.exists():
        return Profile()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        company = {k: _loaded(f) for k, f in data.get("company", {}).items()}
        products = {p: {k: _loaded(f) for k, f in fs.items()} for p, fs in data.get("products", {}).items()}
    except (ValueError, TypeError, AttributeError) as exc:
        raise ProfileError(
            f"{path}: not a profile file ({exc}); move it away and set the facts again "
            "(python -m engine profile --set KEY VALUE)"
        ) from exc
    return Profile(company, products)


def _loaded(data: dict) -> Fact:
    return Fact(**{**data, "refers": tuple(tuple(r) for r in data.get("refers") or ())})


def set_fact(folder: str | Path, key: str, value: str, product: str | None = None) -> Fact:
    """Set (or, with an empty value, remove) a fact by hand; saved atomically. Refused (a
    ProfileError, nothing written) for a key that is not a name or a value holding a control
    character other than a tab or a line break."""
    key = "_".join(key.strip().lower().replace("-", " ").split())
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,59}", key):
        raise ProfileError(
            f"the fact name {key!r} is not a name; use letters, digits and _ "
            "(e.g. vendor_name, privacy_link, support_hours)"
        )
    value = value.replace("\r\n", "\n")  # a line break pasted from Windows
    bad = _CONTROL.search(value)
    if bad is not None:
        char = ord(bad.group())
        raise ProfileError(
            f"{saved_path(folder)}: {key} not set: its value holds the control character U+{char:04X}"
            f"{f' ({_CONTROL_NAMES[char]})' if char in _CONTROL_NAMES else ''} at character {bad.start() + 1}; "
            "type the value again without it (tabs and line breaks are kept)"
        )
    current = load_set(folder)
    facts = current.company if product is None else current.products.setdefault(product, {})
    fact = Fact(key, value.strip(), "profile", product)
    if fact.value:
        facts[key] = fact
    else:
        facts.pop(key, None)
    _write(saved_path(folder), current.to_json())
    return fact


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # C0 and C1 controls, DEL; not tab (9) or line feed (10)
_CONTROL_NAMES = {0: "NUL", 7: "BEL", 8: "backspace", 13: "carriage return", 27: "escape", 127: "DEL"}


def _write(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1))


def merged(learned: Profile, set_by_hand: Profile) -> Profile:
    """The learned profile with the facts set by hand over it."""
    company = {**learned.company, **set_by_hand.company}
    products = {p: dict(f) for p, f in learned.products.items()}
    for p, facts in set_by_hand.products.items():
        products.setdefault(p, {}).update(facts)
    return Profile(company, products, learned.documented)


def profile_of(library) -> Profile:
    """The workspace's profile: learned from ``library`` (an AnswerLibrary) with the facts set by
    hand in its folder over it."""
    return merged(learn(library.entries()), load_set(library.folder))


__all__ = [
    "COMPANY_AGREEMENT",
    "DATE_KEY",
    "FACT_PATTERNS",
    "FACT_QUESTIONS",
    "Fact",
    "PROFILE_FILE",
    "Profile",
    "ProfileError",
    "fact_key",
    "PROFILE_ONLY_KEYS",
    "learn",
    "load_set",
    "merged",
    "normalised",
    "profile_of",
    "row_ids",
    "same_vendor",
    "set_fact",
]
