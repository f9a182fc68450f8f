"""The answer library: past answered questionnaires, and the answers reviewers approve, kept as
question → answer entries and matched to a new question by question↔question similarity (the
atomic-units paper's finding — matching a question to *questions* beats matching it to chunks —
applied the way RFP teams reuse answers).

Similarity of a new question ``q`` to an entry's question ``p``::

    score = ALPHA · cos(MiniLM(q), MiniLM(p)) + (1 − ALPHA) · cos(TF-IDF(q), TF-IDF(p))

TF-IDF (the knowledge base's stemmed-word analyzer, l2 rows) is fitted in memory on the active
library questions whenever the library changes; the question vectors are stored in
``library.sqlite`` (see storage/library_store.py). Retired entries are never matched.

Thresholds, measured on the 9 filled Instructure questionnaires in ../shared/data/instructure
(6 HECVAT Lite, 2 HECVAT Full, 1 CAIQ: 1,250 answered questions): every pair of questions from
two different files whose wording differs beyond case and spaces (104,559 pairs) was scored, and
the top of the list read by hand.

* ``REUSE_SCORE = 0.90``: of the 39 such pairs at ≥ 0.90, 38 are the same question reworded
  ("third party" / "third-party", "past" / "last 12 months", "an accessibility audit" / "an
  audit" at 0.906, an added "to the institution" at 0.930); the exception is 0.990 "CMMC Level
  2" / "CMMC Level 3", which only the text can tell apart. Between 0.873 and 0.90 lie three more
  rewordings (0.899 a typo, 0.896, 0.895), and from 0.873 down the first different questions:
  0.873 "Vendor Contact Title" / "Vendor Accessibility Contact Title", 0.859 two
  vulnerability-scanning questions, 0.842 host-based intrusion detection / prevention (answered
  No / Yes). A wrongly reused answer is worse than a drafted one, so the line keeps a margin
  above them; the rewordings just below still reach the generator as past-answer passages.
* ``PASSAGE_SCORE = 0.50``: past answers at or above it are shown to the generator as context.
  The best HECVAT match of a CAIQ question scores 0.39 at the median (0.48 at the 90th
  percentile); from 0.50 up the matches sampled share the topic (backup encryption, breach
  notification, security-by-design, awareness training), below it they drift (0.48 "physical
  access logged" → a logging-capability question).
* ``CONFLICT_SCORE = REUSE_SCORE``: questions close enough to reuse each other's answers must not
  disagree on the choice. The same pairs, when they are one product's and say the same thing
  (:func:`same_answer`), are duplicates to merge (:meth:`AnswerLibrary.duplicates`, the library
  report of #51: docs/reports.md). On the Instructure library this flags 42 groups, the questions
  different products answer differently (ITAC-04 accessibility roadmap: No ×7 / Yes ×1; SSO:
  Yes / Both): what a reviewer settles by retiring entries (``library check``).

When several near-identical past answers exist, the reused one has the most common choice among
them, then is the newest (a reviewer's answer over an imported one, then the later date), then
the closest match.

Products (engine/core/scopes.py). An entry may carry the product it answered for (``library import
--product``; None: company-wide). Matching for a target product P *prefers* (:func:`preference`)
P's own entries, then company-wide ones, then other products'; for no target product (a
company-wide questionnaire), company-wide entries, then any product's. "Preferred" means exactly:

* reuse (:func:`near_hits`, :func:`reused_hit`) chooses only among the near-identical entries
  (≥ ``REUSE_SCORE``) of the most preferred kind present, so a near-identical past answer of P
  wins over any number of other products' answers, whatever their choices and scores; other
  products' answers are reused only when nothing of P and nothing company-wide is near-identical;
* :meth:`AnswerLibrary.match` lists the most preferred kind first, each kind best score first
  (the related past answers shown to the model are taken from the top of that list).

When no entry has a product (every library before products), all are company-wide and nothing
changes.

An answer can also be written in the library by hand (:meth:`AnswerLibrary.write`, origin
``written``: the coverage report's "write a library answer" for a gap, #51); it ranks with a
reviewer's answers over imported ones.

Governance (#39, :class:`LibraryPolicy`, a workspace setting). Each entry has an owner (the
importer's name unless ``owner`` is given; for an answer accepted in a review, the reviewer's)
and a review-by date: the date of its questionnaire plus ``review_months`` (the date given at
import, else the workbook's own "modified" date from its document properties, else the import
day; the entry says which, storage/library_store.py ``Dated``), or the date it was last renewed
to. An entry past that date is *stale*: still reused, but the draft it feeds says so
(engine/drafting/warnings.py) and the library lists it. With ``admission = "approval"`` an
answer accepted in a review enters *pending*: it is never matched (neither reused nor shown to
the model) until its owner or a lead approves it; with ``"immediate"`` (the default: one person
at one desk) it is reused at once, as before. Every change names who made it (``by``; None: the
operating-system user, engine/core/people.py) and is appended to the library's ``changes``.
"""

from __future__ import annotations

import re
import threading
import zipfile
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import date
from enum import Enum
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from engine.core.accounts import Permission, acting_account, require
from engine.core.files import file_hash
from engine.core.limits import Limits
from engine.core.people import default_reviewer, person_name, same
from engine.core.scopes import scope_name
from engine.core.types import FileProblem, IngestError, Progress, no_progress
from engine.index.embed.dense import DenseEncoder, model_id
from engine.index.embed.question import QuestionVectors, question_vectors
from engine.index.embed.sparse import analyzer
from engine.ingest.pdf import open_pdf
from engine.questionnaire import Question, read_questionnaire
from engine.questionnaire.language import (
    COMPANY_LANGUAGE,
    Language,
    LanguageFinding,
    detect,
    english_choice,
    language_of,
)
from engine.questionnaire.records import joined_choices, picked_choices
from engine.questionnaire.solicitation.as_questionnaire import is_solicitation
from storage.library_store import (
    LIBRARY_DB,
    Change,
    Dated,
    LibraryChange,
    LibraryEntry,
    LibraryStore,
    LibraryStoreDamaged,
    Origin,
    present,
    unblob,
)

LIBRARY_FILE = LIBRARY_DB
WRITTEN_FILE = "answer library"  # the file an entry written by hand is cited under
ALPHA = 0.5  # dense weight of the question↔question score
REUSE_SCORE = 0.90  # near-identical: the past answer is reused (see the module docstring)
PASSAGE_SCORE = 0.50  # related: the past answer is context for the generator
CONFLICT_SCORE = REUSE_SCORE  # near-identical questions whose choices differ are flagged
SAME_TEXT = 95  # RapidFuzz ratio (0–100) at which two explanations say the same (duplicates)
_ENCODE_BLOCK = 64  # questions per encode call (progress granularity)
_BLOCK = 1024  # rows of the pairwise score matrix computed at once (_near: conflicts, duplicates)
_BARE_CHOICES = {"yes", "no", "na"}  # a free-text answer that is only this is a choice
_OPTION = re.compile(r"\d{1,2}\)\s*\S.{0,60}")  # … or a numbered dropdown option typed as text ("4) AWS")


class LibraryImportError(FileProblem):
    """A file that cannot be imported into the answer library."""


class Admission(str, Enum):
    """How an answer accepted in a review enters the library."""

    IMMEDIATE = "immediate"  # reused at once (one person at one desk)
    APPROVAL = "approval"  # pending until its owner or a lead approves it


@dataclass(frozen=True)
class LibraryPolicy:
    """The library's governance settings: how many months after its questionnaire's date an
    entry is due for review, and how accepted answers enter (:class:`Admission`). A bad value
    raises ValueError naming it and the fix (the settings show it as one line)."""

    review_months: int = 12
    admission: str = Admission.IMMEDIATE.value
    # products the company no longer sells: their entries are listed for retiring (the library report, #51)
    retired_products: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        named = self.retired_products
        if isinstance(named, str) or not isinstance(named, (list, tuple)):
            raise ValueError(
                f'the retired products {named!r} are not a list of product names; give e.g. ["Canvas Catalog"]'
            )
        object.__setattr__(self, "retired_products", tuple(dict.fromkeys(scope_name(n) for n in named)))
        months = self.review_months
        if isinstance(months, bool) or not isinstance(months, int) or not 1 <= months <= 120:
            raise ValueError(
                f"the library review period {months!r} is not a number of months from 1 to 120; give e.g. 12"
            )
        try:
            object.__setattr__(self, "admission", Admission(str(self.admission).strip().lower()).value)
        except ValueError:
            raise ValueError(
                f"the library admission {self.admission!r} is not one of: immediate, approval; "
                "give immediate (accepted answers reused at once) or approval (pending until approved)"
            ) from None

    @property
    def approval(self) -> bool:
        return self.admission == Admission.APPROVAL.value


def add_months(day: date, months: int) -> date:
    """``day`` plus whole months (the 31st of a shorter month: its last day)."""
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    for d in (day.day, 30, 29, 28):
        try:
            return day.replace(year=year, month=month, day=d)
        except ValueError:
            continue
    raise AssertionError("unreachable: every month has 28 days")


def overdue(entry: LibraryEntry, today: date | None = None) -> str | None:
    """The review-by date of an entry read through :class:`AnswerLibrary` (always set there),
    when it has passed; None when it has not."""
    day = (today or date.today()).isoformat()
    return entry.review_by if entry.review_by and entry.review_by < day else None


def iso_day(text: str, what: str = "the date") -> date:
    """An ISO date (YYYY-MM-DD) given by a person; ValueError naming it and the fix."""
    try:
        return date.fromisoformat(str(text).strip())
    except ValueError:
        raise ValueError(f"{what} {text!r} is not a date; give it as YYYY-MM-DD, e.g. 2026-03-01") from None


_MODIFIED = re.compile(rb"<dcterms:modified[^>]*>\s*(\d{4}-\d{2}-\d{2})")
_PDF_DATE = re.compile(r"(?:D:)?(\d{4})(\d{2})(\d{2})")


def workbook_date(path: Path) -> date | None:
    """The file's own "modified" date: docProps/core.xml of an .xlsx/.xlsm/.docx/.docm, the ModDate
    (else CreationDate) of a PDF's document information; None for a CSV, a file without it, or a
    date in the future (a wrong clock)."""
    found = _pdf_date(path) if path.suffix.lower() == ".pdf" else _package_date(path)
    try:
        day = date.fromisoformat(found) if found else None
    except ValueError:
        return None
    return day if day is not None and day <= date.today() else None


def _package_date(path: Path) -> str | None:
    try:
        with zipfile.ZipFile(path) as zf:
            info = zf.getinfo("docProps/core.xml")
            if info.file_size > 1 << 16:
                return None
            found = _MODIFIED.search(zf.read(info))
    except (OSError, KeyError, zipfile.BadZipFile):
        return None
    return found.group(1).decode() if found else None


def _pdf_date(path: Path) -> str | None:
    """A PDF date ("D:20231130110447-06'00'") as YYYY-MM-DD."""
    try:
        doc = open_pdf(path, path.name)
    except IngestError:
        return None
    with doc:
        info = doc.metadata or {}
    found = _PDF_DATE.match(info.get("modDate") or info.get("creationDate") or "")
    return "-".join(found.groups()) if found else None


@dataclass(frozen=True)
class Attention:
    """What the library's owners should look at: pending entries, stale ones (past their
    review-by date, still reused) and conflicts (near-identical questions, different choices)."""

    pending: tuple[LibraryEntry, ...]
    stale: tuple[LibraryEntry, ...]
    conflicts: tuple[Conflict, ...]

    @property
    def empty(self) -> bool:
        return not (self.pending or self.stale or self.conflicts)

    def to_json(self) -> dict:
        return {
            "pending": [e.to_json() for e in self.pending],
            "stale": [e.to_json() for e in self.stale],
            "conflicts": [c.to_json() for c in self.conflicts],
        }


def has_library(folder: str | Path) -> bool:
    """Whether ``folder`` has an answer library: its file, or only the file's ``-wal`` (a damaged
    library, which opening refuses with :class:`LibraryStoreDamaged`, is never "no library")."""
    return present(Path(folder) / LIBRARY_FILE)


@dataclass(frozen=True)
class LibraryHit:
    """A library entry matched to a question: the combined score and its two parts."""

    entry: LibraryEntry
    score: float
    dense: float
    lexical: float


@dataclass(frozen=True)
class Conflict:
    """Near-identical questions (each linked to another at ≥ the threshold) answered with
    different choices. ``entries`` are the ones with a choice; ``score`` is the highest
    similarity between two of them that disagree."""

    entries: tuple[LibraryEntry, ...]
    score: float

    @property
    def question(self) -> str:
        return self.entries[0].question

    @property
    def choices(self) -> dict[str, int]:
        """Each choice (as first spelled) and how many entries give it, most common first."""
        return count_choices(self.entries)

    def to_json(self) -> dict:
        return {
            "question": self.question,
            "score": round(self.score, 4),
            "choices": self.choices,
            "entries": [e.to_json() for e in self.entries],
        }


@dataclass(frozen=True)
class Duplicate:
    """Entries of one product (or company-wide) that answer near-identical questions the same way
    (:meth:`AnswerLibrary.duplicates`); ``score``: the highest similarity of two of them.
    :attr:`keep` is the one a merge keeps: the newest (a reviewer's over an imported one, then
    the later questionnaire date, then the later id): what the drafts would reuse."""

    entries: tuple[LibraryEntry, ...]
    score: float

    @property
    def keep(self) -> LibraryEntry:
        return max(self.entries, key=lambda e: (e.origin is not Origin.IMPORT, e.dated or e.imported, e.id))

    @property
    def others(self) -> tuple[LibraryEntry, ...]:
        """The entries a merge retires."""
        return tuple(e for e in self.entries if e.id != self.keep.id)


@dataclass(frozen=True)
class ImportReport:
    """What importing one file did."""

    file: str
    questions: int  # questions the reader found
    entries: int  # answered ones, now in the library
    skipped: int  # questions without an answer
    replaced: int  # entries of an earlier import of a file with this name, now gone
    notes: tuple[str, ...] = ()


def choice_key(choice: str | None) -> str:
    """A choice compared loosely: "1) Yes" = "yes", "N/A" = "NA" = "na"; a Yes or No in any of the
    languages drafted in (engine/questionnaire/language.py) is "yes" or "no": "Ja" = "Oui" = "yes"."""
    text = english_choice(choice) or re.sub(r"^\s*\d+\s*[).:-]\s*", "", choice or "")
    return re.sub(r"[^0-9a-z]+", "", text.casefold())


def count_choices(entries: Sequence[LibraryEntry]) -> dict[str, int]:
    """Each choice the entries give (compared loosely, spelled as first seen) and how many give
    it, most common first; entries without a choice are not counted."""
    spelled: dict[str, str] = {}
    counts: Counter = Counter()
    for e in entries:
        key = choice_key(e.choice)
        if key:
            spelled.setdefault(key, e.choice or "")
            counts[key] += 1
    return {spelled[k]: n for k, n in counts.most_common()}


def allowed_choice(choice: str | None, choices: Sequence[str], several: bool = False) -> str | None:
    """``choice`` spelled as the workbook spells it, when it is one of ``choices``; for a choice of
    several (``several``), options joined ("Bedford; Luton": records.picked_choices), each one of
    ``choices``, joined again in their spelling; else None."""
    key = choice_key(choice)
    one = next((c for c in choices if key and choice_key(c) == key), None)
    if one is not None or not several or not key:
        return one
    picked = [allowed_choice(p, choices) for p in picked_choices(choice, choices)]
    return joined_choices(picked) if picked and None not in picked else None  # type: ignore[arg-type]


def reusable_choice(choice: str | None, choices: Sequence[str], several: bool = False) -> str | None:
    """A past answer's choice as a question may take it: in the workbook's spelling when the
    question has a dropdown (:func:`allowed_choice`), as it is when the question has none — but a
    Yes or No in another language ("Ja", "Oui") as the company's "Yes" or "No" (a translated
    questionnaire's drafter puts it back in its own words: engine/drafting/translate.py)."""
    if choices:
        return allowed_choice(choice, choices, several)
    if not choice_key(choice):
        return None
    said = english_choice(choice)
    foreign = said is not None and len(choice.strip()) > 1 and not re.search(r"\b(?:yes|no)\b", choice, re.I)
    return said if foreign else choice


def answer_text(entry: LibraryEntry) -> str:
    """The past answer as shown and quoted: "choice — explanation"."""
    return " — ".join(x for x in (entry.choice, entry.answer) if x)


def entry_language(entry: LibraryEntry) -> Language | None:
    """The language ``entry`` is written in: the one stored with it, else (an entry of a library
    older than schema 5) its answer's detected language, else its question's; None when neither
    tells (a bare "Yes" to "SOC 2?"): unknown."""
    stored = Language.parse(entry.language)
    if stored is not None:
        return stored
    return detect(entry.answer or "").language or detect(entry.question).language


def language_counts(entries: Sequence[LibraryEntry]) -> dict[str, int]:
    """How many of ``entries`` are written in each language (its name: "English", "German"; "unknown"
    where neither the store nor the text tells), most common first: the library's listing."""
    found = Counter((lang.label if (lang := entry_language(e)) is not None else "unknown") for e in entries)
    return dict(found.most_common())


def written_language(question: str, answer: str | None, asked_in: Language | None = None) -> Language | None:
    """The language a new entry is written in: its answer's, when the answer says enough to tell;
    else ``asked_in`` (its questionnaire's language, when known) or its question's."""
    return detect(answer or "").language or asked_in or detect(question).language


def preference(entry: LibraryEntry, product: str | None) -> int:
    """How much a past answer is preferred for a questionnaire of ``product`` (lower first): 0 the
    target product's own (for no product: a company-wide one), 1 a company-wide one, 2 another
    product's."""
    if entry.product == product:
        return 0
    return 1 if entry.product is None else 2


def near_hits(
    hits: Sequence[LibraryHit], threshold: float = REUSE_SCORE, product: str | None = None
) -> list[LibraryHit]:
    """The hits near-identical to the question, of the most preferred kind present for
    ``product`` (see the module docstring): their answers are the ones reuse chooses from."""
    near = [h for h in hits if h.score >= threshold]
    best = min((preference(h.entry, product) for h in near), default=0)
    return [h for h in near if preference(h.entry, product) == best]


def reused_hit(
    hits: Sequence[LibraryHit], threshold: float = REUSE_SCORE, product: str | None = None
) -> LibraryHit | None:
    """The past answer to reuse among the near-identical hits of the preferred kind for
    ``product``: the most common choice, then the newest (review over import, then date), then
    the closest match; None when none is near."""
    near = near_hits(hits, threshold, product)
    if not near:
        return None
    votes = Counter(choice_key(h.entry.choice) for h in near if choice_key(h.entry.choice))

    def rank(h: LibraryHit) -> tuple:
        e = h.entry
        return (votes.get(choice_key(e.choice), 0), e.origin is not Origin.IMPORT, e.imported, h.score, e.id)

    return max(near, key=rank)


@dataclass
class _Index:
    """The active entries in memory: unit question vectors and the fitted TF-IDF."""

    version: tuple[int, int]
    entries: list[LibraryEntry] = field(default_factory=list)
    dense: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    vectorizer: object | None = None
    tfidf: object | None = None  # scipy sparse, l2 rows

    def lexical_query(self, text: str) -> np.ndarray:
        if self.vectorizer is None:
            return np.zeros(len(self.entries), dtype=np.float32)
        return np.asarray((self.tfidf @ self.vectorizer.transform([text]).T).todense(), dtype=np.float32).ravel()


class AnswerLibrary:
    """The answer library of a store folder (``FOLDER/library.sqlite``). ``encoder`` embeds the
    questions: the knowledge base's encoder, or a function returning it (loaded on first use);
    ``policy``: its governance (the module docstring). Entries read here carry their effective
    review-by date (:meth:`due`)."""

    def __init__(
        self,
        folder: str | Path,
        encoder: DenseEncoder | Callable[[], DenseEncoder],
        policy: LibraryPolicy | None = None,
    ) -> None:
        self.folder = Path(folder)
        self.policy = policy or LibraryPolicy()
        self.store = LibraryStore(self.folder / LIBRARY_FILE)
        self._encoder_or_factory = encoder
        self._lock = threading.RLock()
        self._index: _Index | None = None
        self._conflicts: tuple[tuple[int, int], float, list[Conflict]] | None = None
        self._pairs: tuple[tuple[int, int], float, list[tuple[int, int, float]]] | None = None
        self._every: tuple[tuple[int, int], tuple[LibraryEntry, ...]] | None = None

    @property
    def encoder(self) -> DenseEncoder:
        if callable(self._encoder_or_factory) and not isinstance(self._encoder_or_factory, DenseEncoder):
            self._encoder_or_factory = self._encoder_or_factory()
        return self._encoder_or_factory

    def close(self) -> None:
        self.store.close()

    # ---- entries -----------------------------------------------------------------------------
    def entries(self, include_retired: bool = False, include_pending: bool = False) -> list[LibraryEntry]:
        """The active entries (approved, not retired), with the retired and pending ones when asked,
        oldest first (read from the store again only when the library changed)."""
        return [e for e in self._all() if (include_retired or not e.retired) and (include_pending or not e.pending)]

    def _all(self) -> tuple[LibraryEntry, ...]:
        """Every entry, dated, as of the store's current version: a screen reads the entries several
        times a run, and a thousand entries take ≈ 0.1 s to read and date each time."""
        with self._lock:
            version = self.store.version()  # read before the entries: a change between reads them again next time
            if self._every is None or self._every[0] != version:
                self._every = (version, tuple(self._dated(e) for e in self.store.entries(True, True)))
            return self._every[1]

    def entry(self, entry_id: int) -> LibraryEntry:
        return self._dated(self.store.entry(entry_id))

    def due(self, entry: LibraryEntry) -> str:
        """The entry's review-by date (ISO): the one it was renewed to, else its questionnaire's
        date plus the policy's months."""
        if entry.review_by:
            return entry.review_by
        return add_months(date.fromisoformat(entry.dated or entry.imported), self.policy.review_months).isoformat()

    def _dated(self, entry: LibraryEntry) -> LibraryEntry:
        return replace(entry, review_by=self.due(entry))

    def pending(self) -> list[LibraryEntry]:
        """Accepted answers waiting for approval (never reused until then), oldest first."""
        return [e for e in self.entries(include_pending=True) if e.pending]

    def stale(self, today: date | None = None) -> list[LibraryEntry]:
        """Active entries past their review-by date (still reused; the drafts say so), most overdue first."""
        return sorted((e for e in self.entries() if overdue(e, today)), key=lambda e: (e.review_by, e.id))

    def attention(self, today: date | None = None) -> Attention:
        """Pending, stale and conflicting entries: what the library's owners act on. A pending
        answer whose choice differs from a near-identical reused one is a conflict too (listed
        after the others): what its approver must settle first."""
        pending = self.pending()
        return Attention(
            tuple(pending), tuple(self.stale(today)), tuple(self.conflicts()) + self._pending_conflicts(pending)
        )

    def _pending_conflicts(self, pending: Sequence[LibraryEntry]) -> tuple[Conflict, ...]:
        found = []
        for e in pending:
            if not choice_key(e.choice):
                continue
            near = self.match(e.question, top_k=None, min_score=CONFLICT_SCORE)
            differ = [
                h for h in near if choice_key(h.entry.choice) and choice_key(h.entry.choice) != choice_key(e.choice)
            ]
            if differ:
                agree = [h.entry for h in near if choice_key(h.entry.choice)]
                found.append(Conflict((e, *agree), max(h.score for h in differ)))
        return tuple(found)

    def changes(self, entry_id: int | None = None) -> list[LibraryChange]:
        """Who changed what and when: one entry's changes, or the whole library's, oldest first."""
        return self.store.changes(entry_id)

    def products(self) -> set[str]:
        """The products the active past answers were given for (from the in-memory index, read
        again only when the library changed)."""
        return {e.product for e in self._current().entries if e.product}

    def entry_at(self, file: str, sheet: str | None, row: int | None) -> LibraryEntry | None:
        """The entry a library citation points to (the newest when several)."""
        found = self.store.entry_at(file, sheet, row)
        return self._dated(found) if found else None

    def note_retired_products(self, retired: Sequence[str], restored: Sequence[str], by: str | None = None) -> None:
        """Record in the history (entry 0, the library as a whole), with who and when, the products
        named as no longer sold and those sold again; the list itself is the policy's
        ``retired_products``, a workspace setting (``Workspace.set_retired_products``)."""
        require(Permission.LIBRARY)
        for action, products in ((Change.RETIRE_PRODUCT, retired), (Change.RESTORE_PRODUCT, restored)):
            if products:
                self.store.log_products(action, products, _by(by))

    def retire(self, entry_id: int, by: str | None = None) -> LibraryEntry:
        """Keep the entry but never match it again (nor flag it in conflicts)."""
        require(Permission.LIBRARY)
        return self._dated(self.store.set_retired(entry_id, _by(by), True))

    def approve(self, entry_id: int, by: str | None = None) -> LibraryEntry:
        """A pending entry approved by its owner or a lead: reused from now on (in a signed-in
        session, an account that is neither is refused, engine/core/accounts.py)."""
        account = acting_account()
        if account is None or not same(account.name, self.store.entry(entry_id).owner):
            require(Permission.LIBRARY)  # a lead's (or no session's: the CLI, a test)
        return self._dated(self.store.approve(entry_id, _by(by)))

    def set_owner(self, entry_id: int, owner: str, by: str | None = None) -> LibraryEntry:
        """Make ``owner`` (a person's or a group's name) the entry's owner."""
        require(Permission.LIBRARY)
        return self._dated(self.store.set_owner(entry_id, person_name(owner, "the owner's name"), _by(by)))

    def renew(self, entry_id: int, by: str | None = None, until: date | str | None = None) -> LibraryEntry:
        """The entry reviewed: due again on ``until`` (default: the policy's months from today)."""
        require(Permission.LIBRARY)
        if until is None:
            until = add_months(date.today(), self.policy.review_months)
        elif isinstance(until, str):
            until = iso_day(until, "the review-by date")
        return self._dated(self.store.renew(entry_id, until.isoformat(), _by(by)))

    def import_file(
        self,
        path: str | Path,
        progress: Progress = no_progress,
        product: str | None = None,
        *,
        source: str | None = None,
        limits: Limits | None = None,
        owner: str | None = None,
        dated: date | None = None,
        by: str | None = None,
    ) -> ImportReport:
        """Import a past filled questionnaire (.xlsx/.xlsm/.csv, .docx/.docm, .pdf): one entry per answered question,
        answered for ``product`` (None: company-wide). Importing the same file again — the same
        ``source`` (default: the file's real path) or the same bytes — replaces its entries;
        another file of the same name does not. ``by`` imports it (None: the operating-system
        user); the entries' owner is ``owner``, else ``by``; their questionnaire date ``dated``,
        else the workbook's own (:func:`workbook_date`), else today."""
        require(Permission.LIBRARY)
        path = Path(path)
        product = None if product is None else scope_name(product, "product")
        by = _by(by)
        owner = by if owner is None else person_name(owner, "the owner's name")
        progress("reading", 0, 1)
        try:
            questionnaire = read_questionnaire(path, limits=limits)  # a FileProblem names the file, problem and fix
        finally:
            progress("reading", 1, 1)  # the bar ends before an error is printed, not on its line
        path = questionnaire.path  # a link's target
        digest = file_hash(path.read_bytes())
        if is_solicitation(questionnaire):
            raise LibraryImportError(
                path.name,
                "is a solicitation (an RFP or RFQ's requirements), not a filled questionnaire",
                "import the answered questionnaire or the response you sent; shred the solicitation instead",
            )
        questions = questionnaire.questions
        answered = [q for q in questions if q.answered]
        if not answered:
            raise LibraryImportError(
                path.name,
                f"none of its {len(questions)} questions has an answer",
                "import a filled questionnaire (its answers are what the library reuses)",
            )
        today = date.today().isoformat()
        found = None if dated is not None else workbook_date(path)
        day, how = (dated, Dated.GIVEN) if dated else (found, Dated.WORKBOOK) if found else (None, Dated.IMPORT)
        governed = dict(owner=owner, dated=day.isoformat() if day else today, dated_from=how)
        found_in = language_of(questionnaire)  # each question's language, the questionnaire's for a short one
        entries = [
            replace(
                _imported_entry(q, path.name, today),
                product=product,
                language=_code(written_language(q.text, q.existing_answer, _asked_in(found_in, q))),
                **governed,
            )
            for q in answered
        ]
        vectors = self._encode([e.question for e in entries], progress)
        replaced = self.store.replace_file(
            path.name, source or str(path.resolve()), digest, entries, vectors, model_id(self.encoder), by=by
        )
        return ImportReport(
            path.name,
            len(questions),
            len(entries),
            len(questions) - len(answered),
            replaced,
            tuple(questionnaire.notes),
        )

    def record(
        self,
        question: str,
        choice: str | None,
        answer: str | None,
        file: str,
        sheet: str,
        row: int,
        qid: str | None,
        product: str | None = None,
        by: str | None = None,
        *,
        language: Language | None = None,
        question_en: str | None = None,
        answer_en: str | None = None,
    ) -> LibraryEntry | None:
        """Add (or update) the answer ``by`` accepted to a question of a reviewed questionnaire
        (drafted for ``product``), dated today, owned by ``by`` (an updated entry keeps its owner),
        pending approval when the policy says so; None when there is nothing to keep (no text and
        no choice). ``language``: the answer's (None: detected, :func:`written_language`);
        ``question_en``: the question in English, for a question in another language (what it is
        matched by); ``answer_en``: the English text the answer was translated from (issue #58)."""
        question, answer = question.strip(), (answer or "").strip()
        language = language or written_language(question, answer)
        english = language is COMPANY_LANGUAGE
        if not question or not (answer or choice):
            return None
        by = _by(by)
        today = date.today().isoformat()
        entry = LibraryEntry(
            0,
            question,
            choice or None,
            answer,
            None,
            file,
            sheet,
            row,
            qid,
            today,
            Origin.REVIEW,
            product=product,
            owner=by,
            dated=today,
            dated_from=Dated.REVIEW,
            pending=self.policy.approval,
            language=_code(language),
            question_en=(question_en or "").strip() or None,
            answer_en=None if english else (answer_en or "").strip() or None,
        )
        vector = self.encoder.encode_passages([entry.matched_by])[0]
        return self._dated(self.store.upsert_review(entry, vector, model_id(self.encoder), by))

    def write(
        self,
        question: str,
        choice: str | None,
        answer: str | None,
        product: str | None = None,
        *,
        owner: str | None = None,
        by: str | None = None,
    ) -> LibraryEntry:
        """An answer written in the library by hand (a gap of the questionnaires: the coverage
        report's "write a library answer"), for ``product`` (None: company-wide), owned by
        ``owner`` (default ``by``), dated today and reused at once (a lead writes it). ValueError
        naming what is missing when there is no question, or neither a choice nor a text."""
        require(Permission.LIBRARY)
        question, answer, choice = question.strip(), (answer or "").strip(), (choice or "").strip() or None
        if not question:
            raise ValueError("the question is empty; type the question this answer is for")
        if not (answer or choice):
            raise ValueError("the answer is empty; give a choice (Yes, No…) or the answer's text")
        by = _by(by)
        today = date.today().isoformat()
        entry = LibraryEntry(
            0,
            question,
            choice,
            answer,
            None,
            WRITTEN_FILE,
            "written",
            0,
            None,
            today,
            Origin.WRITTEN,
            product=None if product is None else scope_name(product, "product"),
            owner=by if owner is None else person_name(owner, "the owner's name"),
            dated=today,
            dated_from=Dated.WRITTEN,
        )
        vector = self.encoder.encode_passages([question])[0]
        return self._dated(self.store.add_written(entry, vector, model_id(self.encoder), by))

    # ---- matching ----------------------------------------------------------------------------
    def match(
        self, question: str | QuestionVectors, top_k: int | None = 3, min_score: float = 0.0, product: str | None = None
    ) -> list[LibraryHit]:
        """The active entries whose questions best match ``question`` (text, or already embedded:
        engine/index/embed/question.py): at most ``top_k`` (None: all) scoring at least
        ``min_score``, the kind preferred for ``product`` first (see the module docstring), each
        kind best first."""
        text = question.text if isinstance(question, QuestionVectors) else question.strip()
        if not text:
            raise ValueError("the question is empty; type the question to match")
        index = self._current()
        if not index.entries:
            return []
        dense = index.dense @ question_vectors(question, self.encoder).dense_for(self.encoder)
        lexical = index.lexical_query(text)
        scores = ALPHA * dense + (1.0 - ALPHA) * lexical
        order = np.argsort(-scores, kind="stable")
        hits = [
            LibraryHit(index.entries[i], float(scores[i]), float(dense[i]), float(lexical[i]))
            for i in order
            if scores[i] >= min_score
        ]
        hits.sort(key=lambda h: preference(h.entry, product))  # stable: best first within a kind
        return hits if top_k is None else hits[:top_k]

    def conflicts(self, threshold: float = CONFLICT_SCORE) -> list[Conflict]:
        """Groups of near-identical questions (linked at ≥ ``threshold``) whose choices differ,
        strongest first. Different explanation texts with the same choice are not conflicts."""
        index, close = self._near(threshold)
        if self._conflicts is not None and self._conflicts[:2] == (index.version, threshold):
            return list(self._conflicts[2])
        root = _joined(len(index.entries), close)
        keys = [choice_key(e.choice) for e in index.entries]
        strongest: dict[int, float] = {}
        for i, j, s in close:
            if keys[i] and keys[j] and keys[i] != keys[j]:
                r = root[i]
                strongest[r] = max(strongest.get(r, 0.0), s)
        groups: dict[int, list[LibraryEntry]] = {}
        for i, e in enumerate(index.entries):
            if keys[i] and root[i] in strongest:
                groups.setdefault(root[i], []).append(e)
        found = sorted(
            (Conflict(tuple(groups[r]), strongest[r]) for r in groups), key=lambda c: (-c.score, c.entries[0].id)
        )
        self._conflicts = (index.version, threshold, found)
        return list(found)

    def duplicates(self, threshold: float = REUSE_SCORE) -> list[Duplicate]:
        """Groups of entries that say the same thing twice: near-identical questions (linked at ≥
        ``threshold``, as :meth:`conflicts`) of the same product (or both company-wide) with the same
        choice and the same explanation (:func:`same_answer`), largest first; what a librarian merges
        (keeps one, retires the others). Other products' equal answers are not duplicates: each
        product's answer is its own."""
        index, close = self._near(threshold)
        entries = index.entries
        same = [
            (i, j, s)
            for i, j, s in close
            if entries[i].product == entries[j].product and same_answer(entries[i], entries[j])
        ]
        root = _joined(len(entries), same)
        strongest: dict[int, float] = {}
        for i, _, s in same:
            strongest[root[i]] = max(strongest.get(root[i], 0.0), s)
        groups: dict[int, list[LibraryEntry]] = {}
        for i, e in enumerate(entries):
            if root[i] in strongest:
                groups.setdefault(root[i], []).append(e)
        return sorted(
            (Duplicate(tuple(groups[r]), strongest[r]) for r in groups),
            key=lambda d: (-len(d.entries), -d.score, d.entries[0].id),
        )

    def by_place(self) -> dict[tuple[str, str | None, int | None], LibraryEntry]:
        """Every entry (retired and pending too) by the place a citation names it by (file, sheet,
        row), the newest when several: what :meth:`entry_at` finds, for all citations at once."""
        found: dict[tuple[str, str | None, int | None], LibraryEntry] = {}
        for e in self.entries(include_retired=True, include_pending=True):  # oldest first: the newest stays
            found[(e.file, e.sheet, e.row)] = e
        return found

    def _near(self, threshold: float) -> tuple[_Index, list[tuple[int, int, float]]]:
        """The active entries and every pair of them (i < j) whose questions score ≥ ``threshold``
        against each other, with the score (kept until the library changes)."""
        index = self._current()
        if self._pairs is not None and self._pairs[:2] == (index.version, threshold):
            return index, self._pairs[2]
        close: list[tuple[int, int, float]] = []
        for lo in range(0, len(index.entries), _BLOCK):
            block = ALPHA * (index.dense[lo : lo + _BLOCK] @ index.dense.T)
            if index.tfidf is not None:
                block += (1.0 - ALPHA) * (index.tfidf[lo : lo + _BLOCK] @ index.tfidf.T).toarray()
            for i, j in zip(*np.nonzero(block >= threshold)):
                i = int(i) + lo
                if i < j:
                    close.append((i, int(j), float(block[i - lo, j])))
        self._pairs = (index.version, threshold, close)
        return index, close

    # ---- internals ---------------------------------------------------------------------------
    def _encode(self, texts: Sequence[str], progress: Progress) -> np.ndarray:
        blocks = []
        progress("embedding questions", 0, len(texts))
        for lo in range(0, len(texts), _ENCODE_BLOCK):
            blocks.append(self.encoder.encode_passages(texts[lo : lo + _ENCODE_BLOCK]))
            progress("embedding questions", min(lo + _ENCODE_BLOCK, len(texts)), len(texts))
        return np.concatenate(blocks) if blocks else np.zeros((0, self.encoder.dim), dtype=np.float32)

    def _current(self) -> _Index:
        """The in-memory index, rebuilt when the library changed (here or in another process);
        vectors made by another embedder are re-made first."""
        with self._lock:
            version = self.store.version()
            if self._index is not None and self._index.version == version:
                return self._index
            entries, embedders, blobs = self.store.vectors()
            wanted = model_id(self.encoder)
            stale = [i for i, name in enumerate(embedders) if name != wanted]
            if stale:
                fresh = self.encoder.encode_passages([entries[i].matched_by for i in stale])
                self.store.set_vectors([entries[i].id for i in stale], fresh, wanted)
                for k, i in enumerate(stale):
                    blobs[i] = fresh[k].astype("<f4").tobytes()
                version = self.store.version()
            index = _Index(version, [self._dated(e) for e in entries])
            index.dense = (
                np.stack([unblob(b) for b in blobs]).astype(np.float32)
                if blobs
                else np.zeros((0, self.encoder.dim), dtype=np.float32)
            )
            if entries:
                index.vectorizer, index.tfidf = _fit_tfidf([e.matched_by for e in entries])
            self._index = index
            return index


def _joined(n: int, pairs: Sequence[tuple[int, int, float]]) -> list[int]:
    """The group (a root index) of each of ``n`` items once every pair is joined (union-find)."""
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j, _ in pairs:
        parent[root(i)] = root(j)
    return [root(i) for i in range(n)]


def same_answer(a: LibraryEntry, b: LibraryEntry) -> bool:
    """Two past answers that say the same: the same choice (compared loosely, :func:`choice_key`)
    and explanations equal once case, spaces and punctuation are set aside, or at least
    :data:`SAME_TEXT` % alike (RapidFuzz's ratio: a typo, a word changed)."""
    if choice_key(a.choice) != choice_key(b.choice):
        return False
    x, y = _words(a.answer), _words(b.answer)
    if x == y:
        return True
    from rapidfuzz import fuzz

    return bool(x and y) and fuzz.ratio(x, y) >= SAME_TEXT


def _words(text: str | None) -> str:
    return " ".join(re.findall(r"[0-9a-z]+", (text or "").casefold()))


def _by(name: str | None) -> str:
    """Who makes a change: ``name`` (checked), else the operating-system user."""
    return default_reviewer() if name is None else person_name(name)


def _fit_tfidf(texts: Sequence[str]):
    """TF-IDF over the library's questions with the retrieval analyzer; (None, None) when they
    hold no word but stop words."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    vectorizer = TfidfVectorizer(analyzer=analyzer(), dtype=np.float32)
    try:
        return vectorizer, vectorizer.fit_transform(texts).tocsr()
    except ValueError:  # an empty vocabulary
        return None, None


def _asked_in(found: LanguageFinding, q: Question) -> Language:
    """The language question ``q`` of a questionnaire whose languages are ``found`` is written in."""
    return Language(found.others.get(f"{q.sheet}!{q.question_cell}", found.language.value))


def _code(language: Language | None) -> str | None:
    return language.value if language is not None else None


def _imported_entry(q: Question, file: str, today: str) -> LibraryEntry:
    choice, answer = q.existing_choice, (q.existing_answer or "").strip()
    if not q.choice_cell and (choice_key(answer) in _BARE_CHOICES or _OPTION.fullmatch(answer)):
        choice, answer = answer, ""  # a Yes/No or "4) AWS" typed in a sheet without dropdowns (CSV)
    return LibraryEntry(0, q.text.strip(), choice, answer, None, file, q.sheet, q.row, q.id, today, Origin.IMPORT)


__all__ = [
    "ALPHA",
    "CONFLICT_SCORE",
    "Admission",
    "Attention",
    "Dated",
    "LibraryChange",
    "LibraryPolicy",
    "LIBRARY_FILE",
    "PASSAGE_SCORE",
    "REUSE_SCORE",
    "AnswerLibrary",
    "Conflict",
    "Duplicate",
    "ImportReport",
    "LibraryEntry",
    "LibraryHit",
    "LibraryImportError",
    "LibraryStoreDamaged",
    "Origin",
    "allowed_choice",
    "answer_text",
    "choice_key",
    "count_choices",
    "entry_language",
    "language_counts",
    "written_language",
    "add_months",
    "has_library",
    "iso_day",
    "near_hits",
    "overdue",
    "preference",
    "reusable_choice",
    "reused_hit",
    "same_answer",
]
