"""The knowledge base's document-level and atom-level indexes, beside its chunk index:

* **summaries** (Summary RAG): one per document, always written (``engine/index/summaries.py``): by
  the local LLM when the knowledge base has one (``KnowledgeBase(llm=…)``), else extractive.
  ``STORE/summaries/HASH.json`` + the vector ``HASH.SLUG.TEXTSHA.npy``.
* **atoms** and **atom-questions** (the atomic-units paper), built only when the store's
  ``index_modes`` ask for them: each chunk's sentence atoms, and the LLM's questions per atom
  (τ-pruned within the chunk), stored with the chunk in ``docs/HASH/atoms.json`` (texts, per
  chunk) and ``docs/HASH/atoms-SLUG.npy`` / ``questions-SLUG.npy`` (their vectors by embedder
  SLUG). The questions are cached as they are written in ``STORE/atom_questions.jsonl``.

Everything here is written for a document before the generation switch that commits it
(``prepare``, called by ``KnowledgeBase`` before it builds generation N+1), and each file is
written atomically, so a kill at any point leaves the previous generation whole and queryable;
the summaries and questions written before the kill are reused by the re-run. Retrieval
indexes (``SummaryIndex``, ``AtomIndex``) are derived from these files in memory, for the
manifest's documents, when first used.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Protocol, Sequence

import numpy as np

from engine.core.config import Strategy
from engine.core.files import write_atomic
from engine.core.llm import GeneratorError, JsonChat
from engine.core.types import Chunk, DocumentInfo, Progress, Unit, no_progress
from engine.index.embed import atoms as atomic
from engine.index.embed.dense import DenseEncoder
from engine.index.embed.sparse import SparseModel
from engine.index.errors import KnowledgeBaseError
from engine.index.summaries import (
    ExtractiveSummarizer,
    LlmSummarizer,
    Summarizer,
    Summary,
    SummaryMethod,
    SummaryStore,
    edited,
)
from engine.index.summaries import (
    embedder_slug as _slug,
)
from engine.index.summaries import (
    save_npy as _save_npy,
)
from storage.lexical_index import LexicalIndex


class _Manifest(Protocol):
    generation: int
    index_modes: tuple[str, ...]


class KnowledgeBase(Protocol):
    """What the indexes read of their knowledge base (engine/index/kb.py ``KnowledgeBase``, which
    builds them: a Protocol, so that this module does not import it)."""

    folder: Path
    llm: JsonChat | Callable[[], JsonChat] | None  # a model, or a function that loads it
    encoder: DenseEncoder
    manifest: _Manifest
    indexes: KbIndexes

    def documents(self) -> list[DocumentInfo]: ...

    def document(self, name: str) -> DocumentInfo: ...

    def units(self, name: str) -> list[Unit]: ...

    def chunks(self, name: str) -> list[Chunk]: ...


ATOMS_VERSION = 1
SUMMARY_STAGE = "summarising"
ATOMS_STAGE = "encoding atoms"
INDEX_MODES = (Strategy.ATOMS.value, Strategy.ATOM_QUESTIONS.value)  # what `kb add --index-modes` builds


@dataclass(frozen=True)
class DocText:
    """What the indexes are built from: a document's units (pages, sections, rows) and its chunks."""

    doc_hash: str
    name: str
    units: tuple[Unit, ...]
    chunks: tuple[Chunk, ...]


def index_modes(values: Sequence[str] | None) -> tuple[str, ...]:
    """The valid, distinct index modes of ``values`` in canonical order (atom-questions
    includes atoms)."""
    wanted = set(values or ())
    unknown = wanted - set(INDEX_MODES)
    if unknown:
        raise ValueError(f"unknown index mode {sorted(unknown)[0]!r}; use one of: {', '.join(INDEX_MODES)}")
    if Strategy.ATOM_QUESTIONS.value in wanted:
        wanted.add(Strategy.ATOMS.value)
    return tuple(m for m in INDEX_MODES if m in wanted)


class KbIndexes:
    """The summaries and atom indexes of one knowledge base (``kb.indexes``)."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self.summaries = SummaryStore(kb.folder / "summaries")
        self.questions_cache = kb.folder / "atom_questions.jsonl"
        self.notes: list[str] = []  # what the last prepare() wants the user to know
        self._lock = threading.RLock()
        self._summary_index: tuple[tuple, SummaryIndex] | None = None
        self._atom_index: tuple[tuple, AtomIndex] | None = None

    # ---- building ----------------------------------------------------------------------------
    def summarizer(self) -> Summarizer:
        return LlmSummarizer(self.kb.llm) if self.kb.llm is not None else ExtractiveSummarizer()

    def prepare(
        self,
        docs: Sequence[DocText],
        modes: Sequence[str],
        progress: Progress = no_progress,
        rewrite_summaries: bool = False,
    ) -> None:
        """Write what the documents lack: summaries, then (per ``modes``) atoms and questions.
        ``rewrite_summaries``: write every summary again with the current writer (not the edited ones)."""
        with self._lock:
            self.notes = []
            self.write_summaries(docs, progress, rewrite_summaries)
            modes = index_modes(modes)
            if modes:
                self.write_atoms(docs, Strategy.ATOM_QUESTIONS.value in modes, progress)

    def write_summaries(self, docs: Sequence[DocText], progress: Progress = no_progress, rewrite: bool = False) -> None:
        """A summary for every document without one (with ``rewrite``: also every document
        whose summary was written another way, e.g. extractive where the LLM writes now; never
        one a person edited), each written to its file as soon as it is made, so an interrupted
        run resumes where it stopped."""
        summarizer = self.summarizer()
        todo = [d for d in docs if not self._keep(self.summaries.get(d.doc_hash), rewrite, summarizer.method)]
        if not todo:
            return
        total = sum(summarizer.calls(d.units) for d in todo)
        done = 0

        def step() -> None:
            nonlocal done
            done += 1
            progress(SUMMARY_STAGE, min(done, total), total)

        progress(SUMMARY_STAGE, 0, total)
        for d in todo:
            try:
                summary = summarizer.summarize(d.doc_hash, d.name, d.units, step)
            except GeneratorError as exc:  # no model to write with: the extractive fallback
                self.notes.append(f"summaries are extractive: the language model cannot be used ({exc})")
                summarizer = ExtractiveSummarizer()
                summary = summarizer.summarize(d.doc_hash, d.name, d.units, step)
            self.summaries.put(summary)
            self.summaries.vector(summary, self.kb.encoder)
            self._summary_index = None
        progress(SUMMARY_STAGE, total, total)

    @staticmethod
    def _keep(summary: Summary | None, rewrite: bool, method: SummaryMethod) -> bool:
        return summary is not None and (not rewrite or summary.method in (SummaryMethod.EDITED, method))

    def methods(self) -> dict[str, int]:
        """How the current documents' summaries were written: {method: count}."""
        counts: dict[str, int] = {}
        for d in self.kb.documents():
            found = self.summaries.get(d.doc_hash)
            key = found.method.value if found else "none"
            counts[key] = counts.get(key, 0) + 1
        return counts

    def write_atoms(self, docs: Sequence[DocText], questions: bool, progress: Progress = no_progress) -> None:
        """Atoms (and with ``questions`` the LLM's questions) of every chunk of the documents
        that lack them, stored with the chunks."""
        encoder = self.kb.encoder
        todo = [d for d in docs if not self._atoms_current(d, questions)]
        if not todo:
            return
        chat = None
        if questions:
            if self.kb.llm is None:
                raise KnowledgeBaseError(
                    "the atom-questions index needs the language model that writes the questions; "
                    "run `kb add`/`kb reindex` with --model (or --llm-url), or use --index-modes atoms"
                )
            chat = LlmSummarizer(self.kb.llm).chat
        passages = [c.text for d in todo for c in d.chunks]
        progress(ATOMS_STAGE, 0, 1)
        units = atomic.build_atom_units(passages, encoder, chat, cache=self.questions_cache, progress=progress)
        progress(ATOMS_STAGE, 1, 1)
        start = 0
        for d in todo:
            stop = start + len(d.chunks)
            self._write_doc_atoms(d, units, start, stop, chat.name if chat else None)
            start = stop

    def _write_doc_atoms(self, d: DocText, units: atomic.AtomUnits, start: int, stop: int, writer: str | None) -> None:
        folder = self.kb.folder / "docs" / d.doc_hash
        folder.mkdir(parents=True, exist_ok=True)
        a_rows = [j for j, o in enumerate(units.atom_owners) if start <= o < stop]
        q_rows = [j for j, o in enumerate(units.question_owners) if start <= o < stop]
        per_chunk = [{"sha": _sha(c.text), "atoms": [], "questions": []} for c in d.chunks]
        for j in a_rows:
            per_chunk[units.atom_owners[j] - start]["atoms"].append(units.atoms[j])
        for j in q_rows:
            per_chunk[units.question_owners[j] - start]["questions"].append(units.questions[j])
        slug = _slug(self.kb.encoder.name)
        _save_npy(folder / f"atoms-{slug}.npy", units.atom_vectors[a_rows])
        if writer is not None:
            _save_npy(folder / f"questions-{slug}.npy", units.question_vectors[q_rows])
        meta = {
            "version": ATOMS_VERSION,
            "embedder": self.kb.encoder.name,
            "questions_by": writer,
            "tau": atomic.TAU,
            "questions_per_atom": atomic.QUESTIONS_PER_ATOM,
            "prompt_version": atomic.PROMPT_VERSION,
            "chunks": per_chunk,
        }
        write_atomic(folder / "atoms.json", json.dumps(meta, ensure_ascii=False))  # last: it validates the rest

    def _atoms_meta(self, doc_hash: str) -> dict | None:
        path = self.kb.folder / "docs" / doc_hash / "atoms.json"
        if not path.is_file():
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            return None  # damaged: rebuilt by the next prepare

    def _atoms_current(self, d: DocText, questions: bool) -> bool:
        meta = self._atoms_meta(d.doc_hash)
        slug = _slug(self.kb.encoder.name)
        folder = self.kb.folder / "docs" / d.doc_hash
        return (
            meta is not None
            and meta.get("version") == ATOMS_VERSION
            and [c["sha"] for c in meta["chunks"]] == [_sha(c.text) for c in d.chunks]
            and (folder / f"atoms-{slug}.npy").is_file()
            and (
                not questions or (meta.get("questions_by") is not None and (folder / f"questions-{slug}.npy").is_file())
            )
        )

    def collect(self, documents: Sequence[DocumentInfo]) -> None:
        """After a generation switch: forget the derived indexes, drop the summaries of
        documents that are gone."""
        with self._lock:
            self.summaries.collect({d.doc_hash for d in documents})
            self._summary_index = self._atom_index = None

    # ---- summaries ---------------------------------------------------------------------------
    def summary(self, name: str) -> Summary:
        """The document's summary; a store built before summaries existed gets an extractive
        one now (and keeps it)."""
        doc = self.kb.document(name)
        found = self.summaries.get(doc.doc_hash)
        if found is None:
            found = self.summaries.put(ExtractiveSummarizer().summarize(doc.doc_hash, name, self.kb.units(name)))
        return found

    def edit_summary(self, name: str, text: str) -> Summary:
        """A person's summary for the document, stored and embedded at once (summary retrieval
        uses it from the next question on)."""
        with self._lock:
            doc = self.kb.document(name)
            summary = self.summaries.put(edited(self.summaries.get(doc.doc_hash), doc.doc_hash, text))
            self.summaries.vector(summary, self.kb.encoder)
            self._summary_index = None
            return summary

    def summary_index(self) -> SummaryIndex:
        """The summaries of the manifest's documents, indexed; built on first use after each
        generation switch or summary change (every one goes through this object)."""
        with self._lock:
            key = (self.kb.manifest.generation, self.kb.encoder.name)
            if self._summary_index is None or self._summary_index[0] != key:
                docs = self.kb.documents()
                summaries = [self.summary(d.name) for d in docs]
                vectors = np.stack([self.summaries.vector(s, self.kb.encoder) for s in summaries])
                index = SummaryIndex(docs, summaries, vectors, self.kb.encoder.dim)
                self._summary_index = (key, index)
            return self._summary_index[1]

    # ---- atoms -------------------------------------------------------------------------------
    def atom_index(self, mode: Strategy) -> AtomIndex:
        with self._lock:
            built = self.kb.manifest.index_modes
            if mode.value not in built:
                raise self._missing(mode)
            key = (self.kb.manifest.generation, self.kb.encoder.name)
            if self._atom_index is None or self._atom_index[0] != key:
                self._atom_index = (key, AtomIndex.load(self.kb, Strategy.ATOM_QUESTIONS.value in built))
            return self._atom_index[1]

    def _missing(self, mode: Strategy):
        folder = self.kb.folder
        return KnowledgeBaseError(
            f"the knowledge base in {folder} has no {mode.value} index; build it with "
            f"`python -m engine kb reindex --store {folder} --index-modes {mode.value}`"
            + (" --model MODEL" if mode is Strategy.ATOM_QUESTIONS else "")
        )


class WeightedRows:
    """Texts with their dense vectors, scored like chunks in the ``weighted`` mode:
    α·cos_dense + (1−α)·BM25/BM25max, with a BM25 model fitted on these texts; exact over every
    row, in memory (α = 1: dense alone)."""

    def __init__(self, vectors: np.ndarray, texts: Sequence[str], dim: int) -> None:
        self.vectors = np.asarray(vectors, dtype=np.float32)
        self.sparse = SparseModel.fit(list(texts), dim=dim)
        ids = [str(i) for i in range(len(texts))]
        self.lexical = LexicalIndex.build(ids, self.sparse.bm25_passages(list(texts)), len(self.sparse.vocabulary))

    def scores(self, question: str, dense: np.ndarray, alpha: float) -> np.ndarray:
        cos = np.einsum("ij,j->i", self.vectors, np.asarray(dense, dtype=np.float32))
        if alpha >= 1.0:
            return cos
        return fused(alpha, cos, self.lexical.scores(self.sparse.bm25_query(question)))

    def rank(self, question: str, dense: np.ndarray, alpha: float, k: int) -> list[tuple[int, float]]:
        """The ``k`` best rows (row, score), best first."""
        scores = self.scores(question, dense, alpha)
        k = min(k, len(scores))
        top = np.argpartition(-scores, k - 1)[:k] if k else np.zeros(0, dtype=np.int64)
        order = top[np.argsort(-scores[top], kind="stable")]
        return [(int(i), float(scores[i])) for i in order]


class SummaryIndex(WeightedRows):
    """The documents' summaries, one row per document, scored as ``WeightedRows``."""

    def __init__(
        self, docs: Sequence[DocumentInfo], summaries: Sequence[Summary], vectors: np.ndarray, dim: int
    ) -> None:
        super().__init__(vectors, [s.text for s in summaries], dim)
        self.docs, self.summaries = list(docs), list(summaries)


def fused(alpha: float, cos: np.ndarray, lexical: np.ndarray) -> np.ndarray:
    """The ``weighted`` mode's score: α·cos_dense + (1−α)·BM25/BM25max."""
    return alpha * cos + (1.0 - alpha) * lexical


class AtomIndex:
    """Every chunk's atoms (and questions) of the manifest's documents: a chunk scores the
    best cosine of the question with its atoms (``atoms``), or with its atoms and their
    questions (``atom-questions``), as in ``bench retrieval``."""

    def __init__(self, chunks: list[Chunk], atoms: atomic.AtomUnits) -> None:
        self.chunks = chunks
        self.units = atoms

    @classmethod
    def load(cls, kb: KnowledgeBase, questions: bool) -> AtomIndex:
        chunks: list[Chunk] = []
        a_vectors, a_owners, q_vectors, q_owners = [], [], [], []
        slug = _slug(kb.encoder.name)
        for doc in kb.documents():
            folder = kb.folder / "docs" / doc.doc_hash
            meta = kb.indexes._atoms_meta(doc.doc_hash)
            doc_chunks = kb.chunks(doc.name)
            texts = DocText(doc.doc_hash, doc.name, (), tuple(doc_chunks))
            if meta is None or not kb.indexes._atoms_current(texts, questions):
                raise KnowledgeBaseError(
                    f"{folder / 'atoms.json'} is missing or out of date; rebuild it with "
                    f"`python -m engine kb reindex --store {kb.folder}`"
                )
            base = len(chunks)
            chunks += doc_chunks
            a_vectors.append(np.load(folder / f"atoms-{slug}.npy", allow_pickle=False))
            a_owners += [base + i for i, c in enumerate(meta["chunks"]) for _ in c["atoms"]]
            if questions:
                q_vectors.append(np.load(folder / f"questions-{slug}.npy", allow_pickle=False))
                q_owners += [base + i for i, c in enumerate(meta["chunks"]) for _ in c["questions"]]
        dim = kb.encoder.dim
        stack = lambda parts: np.concatenate(parts) if parts else np.zeros((0, dim), dtype=np.float32)  # noqa: E731
        units = atomic.AtomUnits([], a_owners, stack(a_vectors), [], q_owners, stack(q_vectors))
        return cls(chunks, units)

    def search(self, dense: np.ndarray, top_k: int, questions: bool) -> list[tuple[Chunk, float]]:
        index = self.units.index(len(self.chunks), questions=questions)
        scores = index.scores(np.asarray(dense, dtype=np.float32)[np.newaxis, :])[0]
        order = np.argsort(-scores, kind="stable")[: min(top_k, len(self.chunks))]
        return [(self.chunks[i], float(scores[i])) for i in order if np.isfinite(scores[i])]


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
