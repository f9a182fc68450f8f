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
  disagree on the choice. On the Instructure library this flags 42 groups, the questions
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
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from engine.core.files import file_hash
from engine.core.limits import Limits
from engine.core.scopes import scope_name
from engine.core.types import FileProblem, Progress, no_progress
from engine.index.embed.dense import DenseEncoder, model_id
from engine.index.embed.question import QuestionVectors, question_vectors
from engine.index.embed.sparse import analyzer
from engine.questionnaire import Question, read_questionnaire
from storage.library_store import LIBRARY_DB, LibraryEntry, LibraryStore, LibraryStoreDamaged, Origin, present, unblob

LIBRARY_FILE = LIBRARY_DB
ALPHA = 0.5  # dense weight of the question↔question score
REUSE_SCORE = 0.90  # near-identical: the past answer is reused (see the module docstring)
PASSAGE_SCORE = 0.50  # related: the past answer is context for the generator
CONFLICT_SCORE = REUSE_SCORE  # near-identical questions whose choices differ are flagged
_ENCODE_BLOCK = 64  # questions per encode call (progress granularity)
_BLOCK = 1024  # rows of the pairwise score matrix computed at once by conflicts()
_BARE_CHOICES = {"yes", "no", "na"}  # a free-text answer that is only this is a choice
_OPTION = re.compile(r"\d{1,2}\)\s*\S.{0,60}")  # … or a numbered dropdown option typed as text ("4) AWS")


class LibraryImportError(FileProblem):
    """A file that cannot be imported into the answer library."""


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
class ImportReport:
    """What importing one file did."""

    file: str
    questions: int  # questions the reader found
    entries: int  # answered ones, now in the library
    skipped: int  # questions without an answer
    replaced: int  # entries of an earlier import of a file with this name, now gone
    notes: tuple[str, ...] = ()


def choice_key(choice: str | None) -> str:
    """A choice compared loosely: "1) Yes" = "yes", "N/A" = "NA" = "na"."""
    text = re.sub(r"^\s*\d+\s*[).:-]\s*", "", choice or "")
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


def allowed_choice(choice: str | None, choices: Sequence[str]) -> str | None:
    """``choice`` spelled as the workbook spells it, when it is one of ``choices``; else None."""
    key = choice_key(choice)
    return next((c for c in choices if key and choice_key(c) == key), None)


def reusable_choice(choice: str | None, choices: Sequence[str]) -> str | None:
    """A past answer's choice as a question may take it: in the workbook's spelling when the
    question has a dropdown (:func:`allowed_choice`), as it is when the question has none."""
    return allowed_choice(choice, choices) if choices else (choice if choice_key(choice) else None)


def answer_text(entry: LibraryEntry) -> str:
    """The past answer as shown and quoted: "choice — explanation"."""
    return " — ".join(x for x in (entry.choice, entry.answer) if x)


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
        return (votes.get(choice_key(e.choice), 0), e.origin is Origin.REVIEW, e.imported, h.score, e.id)

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
    questions: the knowledge base's encoder, or a function returning it (loaded on first use)."""

    def __init__(self, folder: str | Path, encoder: DenseEncoder | Callable[[], DenseEncoder]) -> None:
        self.folder = Path(folder)
        self.store = LibraryStore(self.folder / LIBRARY_FILE)
        self._encoder_or_factory = encoder
        self._lock = threading.RLock()
        self._index: _Index | None = None
        self._conflicts: tuple[tuple[int, int], float, list[Conflict]] | None = None

    @property
    def encoder(self) -> DenseEncoder:
        if callable(self._encoder_or_factory) and not isinstance(self._encoder_or_factory, DenseEncoder):
            self._encoder_or_factory = self._encoder_or_factory()
        return self._encoder_or_factory

    def close(self) -> None:
        self.store.close()

    # ---- entries -----------------------------------------------------------------------------
    def entries(self, include_retired: bool = False) -> list[LibraryEntry]:
        return self.store.entries(include_retired)

    def entry(self, entry_id: int) -> LibraryEntry:
        return self.store.entry(entry_id)

    def products(self) -> set[str]:
        """The products the active past answers were given for (from the in-memory index, read
        again only when the library changed)."""
        return {e.product for e in self._current().entries if e.product}

    def entry_at(self, file: str, sheet: str | None, row: int | None) -> LibraryEntry | None:
        """The entry a library citation points to (the newest when several)."""
        return self.store.entry_at(file, sheet, row)

    def retire(self, entry_id: int) -> LibraryEntry:
        """Keep the entry but never match it again (nor flag it in conflicts)."""
        return self.store.set_retired(entry_id, True)

    def import_file(
        self,
        path: str | Path,
        progress: Progress = no_progress,
        product: str | None = None,
        *,
        source: str | None = None,
        limits: Limits | None = None,
    ) -> ImportReport:
        """Import a past filled questionnaire (.xlsx/.xlsm/.csv): one entry per answered question,
        answered for ``product`` (None: company-wide). Importing the same file again — the same
        ``source`` (default: the file's real path) or the same bytes — replaces its entries;
        another file of the same name does not."""
        path = Path(path)
        product = None if product is None else scope_name(product, "product")
        progress("reading", 0, 1)
        try:
            questionnaire = read_questionnaire(path, limits=limits)  # a FileProblem names the file, problem and fix
        finally:
            progress("reading", 1, 1)  # the bar ends before an error is printed, not on its line
        path = questionnaire.path  # a link's target
        digest = file_hash(path.read_bytes())
        questions = questionnaire.questions
        answered = [q for q in questions if q.answered]
        if not answered:
            raise LibraryImportError(
                path.name,
                f"none of its {len(questions)} questions has an answer",
                "import a filled questionnaire (its answers are what the library reuses)",
            )
        today = date.today().isoformat()
        entries = [replace(_imported_entry(q, path.name, today), product=product) for q in answered]
        vectors = self._encode([e.question for e in entries], progress)
        replaced = self.store.replace_file(
            path.name, source or str(path.resolve()), digest, entries, vectors, model_id(self.encoder)
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
    ) -> LibraryEntry | None:
        """Add (or update) the approved answer to a question of a reviewed questionnaire (drafted
        for ``product``), dated today; None when there is nothing to keep (no text and no choice)."""
        question, answer = question.strip(), (answer or "").strip()
        if not question or not (answer or choice):
            return None
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
            date.today().isoformat(),
            Origin.REVIEW,
            product=product,
        )
        vector = self.encoder.encode_passages([question])[0]
        return self.store.upsert_review(entry, vector, model_id(self.encoder))

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
        index = self._current()
        if self._conflicts is not None and self._conflicts[:2] == (index.version, threshold):
            return list(self._conflicts[2])
        n = len(index.entries)
        parent = list(range(n))

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        close: list[tuple[int, int, float]] = []
        for lo in range(0, n, _BLOCK):
            block = ALPHA * (index.dense[lo : lo + _BLOCK] @ index.dense.T)
            if index.tfidf is not None:
                block += (1.0 - ALPHA) * (index.tfidf[lo : lo + _BLOCK] @ index.tfidf.T).toarray()
            for i, j in zip(*np.nonzero(block >= threshold)):
                i = int(i) + lo
                if i < j:
                    close.append((i, int(j), float(block[i - lo, j])))
                    parent[root(i)] = root(int(j))
        keys = [choice_key(e.choice) for e in index.entries]
        strongest: dict[int, float] = {}
        for i, j, s in close:
            if keys[i] and keys[j] and keys[i] != keys[j]:
                r = root(i)
                strongest[r] = max(strongest.get(r, 0.0), s)
        groups: dict[int, list[LibraryEntry]] = {}
        for i, e in enumerate(index.entries):
            if keys[i] and root(i) in strongest:
                groups.setdefault(root(i), []).append(e)
        found = sorted(
            (Conflict(tuple(groups[r]), strongest[r]) for r in groups), key=lambda c: (-c.score, c.entries[0].id)
        )
        self._conflicts = (index.version, threshold, found)
        return list(found)

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
                fresh = self.encoder.encode_passages([entries[i].question for i in stale])
                self.store.set_vectors([entries[i].id for i in stale], fresh, wanted)
                for k, i in enumerate(stale):
                    blobs[i] = fresh[k].astype("<f4").tobytes()
                version = self.store.version()
            index = _Index(version, entries)
            index.dense = (
                np.stack([unblob(b) for b in blobs]).astype(np.float32)
                if blobs
                else np.zeros((0, self.encoder.dim), dtype=np.float32)
            )
            if entries:
                index.vectorizer, index.tfidf = _fit_tfidf([e.question for e in entries])
            self._index = index
            return index


def _fit_tfidf(texts: Sequence[str]):
    """TF-IDF over the library's questions with the retrieval analyzer; (None, None) when they
    hold no word but stop words."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    vectorizer = TfidfVectorizer(analyzer=analyzer(), dtype=np.float32)
    try:
        return vectorizer, vectorizer.fit_transform(texts).tocsr()
    except ValueError:  # an empty vocabulary
        return None, None


def _imported_entry(q: Question, file: str, today: str) -> LibraryEntry:
    choice, answer = q.existing_choice, (q.existing_answer or "").strip()
    if not q.choice_cell and (choice_key(answer) in _BARE_CHOICES or _OPTION.fullmatch(answer)):
        choice, answer = answer, ""  # a Yes/No or "4) AWS" typed in a sheet without dropdowns (CSV)
    return LibraryEntry(0, q.text.strip(), choice, answer, None, file, q.sheet, q.row, q.id, today, Origin.IMPORT)


__all__ = [
    "ALPHA",
    "CONFLICT_SCORE",
    "LIBRARY_FILE",
    "PASSAGE_SCORE",
    "REUSE_SCORE",
    "AnswerLibrary",
    "Conflict",
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
    "has_library",
    "near_hits",
    "preference",
    "reusable_choice",
    "reused_hit",
]
