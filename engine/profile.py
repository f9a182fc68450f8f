"""The company profile and the product profiles: named facts (vendor name, product name and
description, links, contacts, hosting regions, work locations, …; open-ended: a responder can add
any key), each with its source.

Learned from the answer library (engine/library.py). A general-information question is
recognised by its wording (:data:`FACT_PATTERNS`: HECVAT's GNRL-01…15 rows "Vendor Name",
"Web Link to Product Privacy Notice", "Vendor Contact Email", …, and the same words in any
questionnaire), and its past answers become facts:

* a **company fact**: the value (compared normalised: case, spaces, ``https://``, a trailing
  slash) that at least :data:`COMPANY_AGREEMENT` of the company's past questionnaires answering
  it give, and at least two of them; company-wide questionnaires and every product's count;
* a **product fact**: what the product's own past questionnaire (the newest) answers;
* the product's name, when nothing else gives it, is the product drafted for.

Facts a responder sets (``python -m engine profile --set KEY VALUE [--product P]``, or the app)
are kept in ``profile.json`` in the store folder (written atomically) and win over learned ones.

Answering: a question asking for a fact (:func:`fact_key`) of the product drafted for is
answered with the fact, exactly, without the model; its citation is the past questionnaire the
fact came from (or "profile" for a fact set by hand). A date question ("Date", DATE-01, or "Date (MM/DD/YYYY)"
with the format it expects) gets the drafting date, in the questionnaire's format
(engine/questionnaire/date_format.py). A product's fact is never used for another product; a fact only another product's
past answers give is not a company fact unless the company's questionnaires agree on it.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable

from engine.questionnaire.date_format import FORMAT_HINT
from storage.library_store import LibraryEntry

PROFILE_FILE = "profile.json"
COMPANY_AGREEMENT = 0.6  # share of the company's questionnaires answering a fact that must agree
PRODUCT_KEYS = ("product_name", "product_description")  # never company facts
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
    ("hosting_regions", rf"^\W*{_WHO}hosting regions?\W*$"),
    ("work_locations", r"^\W*(?:vendor |employee )?work locations?(?: \(all\))?\W*$"),
    ("headquarters_country", r"^\W*country of (?:the )?company(?:'s)? headquarters\W*$"),
    (DATE_KEY, rf"^\W*date(?: completed)?\W*(?:{FORMAT_HINT}\W*)?$"),  # "Date", "Date (MM/DD/YYYY)"
)
_COMPILED = tuple((k, re.compile(p, re.IGNORECASE)) for k, p in FACT_PATTERNS)


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

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Profile:
    """The company's facts and each product's, by key."""

    company: dict[str, Fact] = field(default_factory=dict)
    products: dict[str, dict[str, Fact]] = field(default_factory=dict)

    def fact(self, key: str, product: str | None) -> Fact | None:
        """The fact for a questionnaire of ``product``: the product's own, else (for a key not
        product-specific) the company's; the product's name defaults to the product."""
        own = self.products.get(product or "", {}).get(key) if product else None
        if own is not None:
            return own
        if key == "product_name" and product:
            return Fact(key, product, "the product chosen for this questionnaire", product)
        return None if key in PRODUCT_KEYS else self.company.get(key)

    def values(self, product: str | None) -> list[str]:
        """Every fact value usable for ``product`` (the company's and the product's)."""
        facts = dict(self.company)
        facts.update(self.products.get(product or "", {}) if product else {})
        return [f.value for f in facts.values()]

    def to_json(self) -> dict:
        return {"company": {k: f.to_json() for k, f in sorted(self.company.items())},
                "products": {p: {k: f.to_json() for k, f in sorted(fs.items())} for p, fs in sorted(self.products.items())}}


def fact_key(question: str) -> str | None:
    """The profile fact a question asks for, from its wording; None for any other question."""
    text = " ".join((question or "").split())
    if len(text) > 80:
        return None
    return next((k for k, pattern in _COMPILED if pattern.search(text)), None)


def normalised(value: str) -> str:
    """A fact value compared loosely: case, spaces, a scheme and ``www.``, a trailing slash or dot."""
    v = " ".join((value or "").split()).casefold()
    v = re.sub(r"^(?:https?://)?(?:www\.)?", "", v)
    return v.rstrip("/. ")


def _value(e: LibraryEntry) -> str:
    return " — ".join(x for x in (e.choice, e.answer) if x).strip()


def learn(entries: Iterable[LibraryEntry]) -> Profile:
    """The profile the past answers give (module docstring). Retired entries are skipped."""
    by_key_file: dict[str, dict[str, LibraryEntry]] = defaultdict(dict)
    products: dict[str, dict[str, Fact]] = defaultdict(dict)
    newest: dict[tuple[str, str], str] = {}
    for e in entries:
        key = fact_key(e.question)
        value = _value(e)
        if e.retired or key is None or key == DATE_KEY or not value:
            continue
        by_key_file[key].setdefault(e.file, e)
        if e.product:
            fact = Fact(key, value, e.file, e.product, e.sheet, e.row, e.qid)
            if (e.product, key) not in newest or e.imported >= newest[(e.product, key)]:
                products[e.product][key] = fact
                newest[(e.product, key)] = e.imported
    company: dict[str, Fact] = {}
    for key, files in by_key_file.items():
        if key in PRODUCT_KEYS:
            continue
        votes = Counter(normalised(_value(e)) for e in files.values())
        value, n = votes.most_common(1)[0]
        if n >= 2 and n >= COMPANY_AGREEMENT * len(files):
            first = min((e for e in files.values() if normalised(_value(e)) == value),
                        key=lambda e: (e.product is not None, e.file))  # a company-wide file first
            company[key] = Fact(key, _value(first), first.file, None, first.sheet, first.row, first.qid, n)
    # a product's learned fact that equals the company's is the company's (one source of truth)
    for product, facts in products.items():
        for key in [k for k, f in facts.items() if k in company and normalised(f.value) == normalised(company[k].value)]:
            del facts[key]
    return Profile(company, {p: dict(f) for p, f in products.items() if f})


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
        company = {k: Fact(**f) for k, f in data.get("company", {}).items()}
        products = {p: {k: Fact(**f) for k, f in fs.items()} for p, fs in data.get("products", {}).items()}
    except (ValueError, TypeError, AttributeError) as exc:
        raise ProfileError(f"{path}: not a profile file ({exc}); move it away and set the facts again "
                           "(python -m engine profile --set KEY VALUE)") from exc
    return Profile(company, products)


def set_fact(folder: str | Path, key: str, value: str, product: str | None = None) -> Fact:
    """Set (or, with an empty value, remove) a fact by hand; saved atomically."""
    key = "_".join(key.strip().lower().replace("-", " ").split())
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,59}", key):
        raise ProfileError(f"the fact name {key!r} is not a name; use letters, digits and _ "
                           "(e.g. vendor_name, privacy_link, support_hours)")
    current = load_set(folder)
    facts = current.company if product is None else current.products.setdefault(product, {})
    fact = Fact(key, value.strip(), "profile", product)
    if fact.value:
        facts[key] = fact
    else:
        facts.pop(key, None)
    _write(saved_path(folder), current.to_json())
    return fact


def _write(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".profile-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=1)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def merged(learned: Profile, set_by_hand: Profile) -> Profile:
    """The learned profile with the facts set by hand over it."""
    company = {**learned.company, **set_by_hand.company}
    products = {p: dict(f) for p, f in learned.products.items()}
    for p, facts in set_by_hand.products.items():
        products.setdefault(p, {}).update(facts)
    return Profile(company, products)


def profile_of(library) -> Profile:
    """The workspace's profile: learned from ``library`` (an AnswerLibrary) with the facts set by
    hand in its folder over it."""
    return merged(learn(library.entries()), load_set(library.folder))


__all__ = ["COMPANY_AGREEMENT", "DATE_KEY", "FACT_PATTERNS", "Fact", "PROFILE_FILE", "Profile", "ProfileError",
           "fact_key", "learn", "load_set", "merged", "normalised", "profile_of", "set_fact"]
