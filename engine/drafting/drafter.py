"""Drafting, thin orchestration: for each question retrieve the top-k chunks, compact them to
the sentences that matter, generate a JSON answer with quotes, anchor every quote in its source
(RapidFuzz), locate PDF pages (Document Page Finder) and highlight boxes (PyMuPDF), and persist
every draft in the review store as it finishes, so an interrupted run resumes where it stopped.

With an answer library, each question is first matched to past questions: a near-identical one
(``REUSE_SCORE``) gives its past answer as the draft, marked ``reused``, with no LLM call (and
the choices of all the near-identical past answers, so a disagreement is shown); else
the best related past answers (``PASSAGE_SCORE``) join the retrieved chunks as passages, and a
quote taken from one is cited as a past answer.

Another product's past answer is never reused as it is, nor shown to the model
(engine/drafting/cross_product.py): the product's own near-identical past answers come first, then
company-wide ones; when only other products' are near-identical, their choice is taken, labelled
("Parchment's HECVAT: No", ``Draft.from_product`` / ``past_answers``) with its own calibrated
confidence, and the explanation is drafted from the documents or left empty. ``Draft.trust``
lists why a draft needs a reviewer's eye first.
"""

from __future__ import annotations

import copy
import json
import threading
import time
from dataclasses import asdict, dataclass, field
from dataclasses import replace as dataclass_replace
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from engine.drafting.anchoring import Anchor, AnchorLabel, QuoteAnchorer
from engine.drafting.confidence import SUPPORT_MIN, draft_confidence, reused_confidence, support
from engine.core.config import Strategy
from engine.drafting.cross_product import choice_label, cross_product_confidence, is_other_product, passages_allowed
from engine.drafting.generate import GeneratedAnswer, Generator, ModelCrashed, Passage, compact_passages
from engine.index.profile import row_ids
from engine.drafting.profile_answers import ProfileAnswers
from engine.index.kb import KnowledgeBase
from engine.index.library import (
    PASSAGE_SCORE,
    AnswerLibrary,
    LibraryHit,
    allowed_choice,
    answer_text,
    choice_key,
    count_choices,
    near_hits,
    past_answer_label,
    reused_hit,
)
from engine.drafting.page_finder import PageFinder
from engine.questionnaire import Question, Questionnaire
from engine.review.export import CellWrite, export
from engine.retrieval.retrieve import search
from engine.core.scopes import ScopeFilter, inherited_from, passage_suffix
from engine.drafting.sections import SectionGate
from engine.retrieval.summary_rag import Retrieved, prompt_passages, retrieve
from engine.core.types import Chunk, Hit, Progress, SourceKind, Unit, no_progress
from storage.review_store import DraftStatus, ReviewStore, StoredDraft

PROMPT_BUDGET = 250  # tokens of passage text after compaction (five whole chunks are ≈ 800–1,200)
# A drafted choice whose confidence is under this is shown as low confidence (calibrated by
# leave-one-out on the filled Instructure questionnaires: README, "Confidence").
LOW_CONFIDENCE = 0.83
LIBRARY_PASSAGES = 3  # related past answers shown to the generator, at most
Rect = tuple[int, float, float, float, float]  # page (1-based), x0, y0, x1, y1 in PDF points


@dataclass(frozen=True)
class Citation:
    """Where a quote of a draft comes from. ``rects`` exist only for highlightable (verified
    or repaired) quotes in PDFs; ``start``/``end`` are offsets into the cited unit's text
    (page, section or row), for marking non-PDF sources."""

    file: str
    kind: SourceKind
    quote: str
    label: AnchorLabel
    score: float  # anchor score 0–100
    retrieval_score: float
    page: int | None = None
    sheet: str | None = None
    row: int | None = None
    section: str | None = None
    start: int | None = None
    end: int | None = None
    rects: tuple[Rect, ...] = ()
    third_party: str | None = None  # the cited document is this third party's (engine/core/scopes.py)
    product: str | None = None  # a past answer cited is this product's (engine/drafting/cross_product.py)

    def to_json(self) -> dict:
        d = asdict(self)
        d["kind"], d["label"] = self.kind.value, self.label.value
        d["rects"] = [list(r) for r in self.rects]
        return d

    @classmethod
    def from_json(cls, d: dict) -> Citation:
        fields = {k: d[k] for k in cls.__dataclass_fields__ if k in d}
        fields.update(kind=SourceKind(d["kind"]), label=AnchorLabel(d["label"]), rects=tuple(tuple(r) for r in d.get("rects", ())))
        return cls(**fields)


@dataclass(frozen=True)
class Draft:
    """One drafted question, as persisted and as written to results.jsonl."""

    key: str
    id: str | None
    sheet: str
    row: int
    question: str
    answer: str
    choice: str | None
    status: DraftStatus
    citations: tuple[Citation, ...] = ()
    prompt_tokens: int = 0
    seconds: float = 0.0
    error: str | None = None
    reused: bool = False  # the answer of a near-identical past question, reused as it was
    # when reused: the choices of all the near-identical past answers, with counts, most common
    # first ({"Yes": 5, "No": 2}); more than one means they disagree and the reviewer must choose
    past_choices: dict[str, int] = field(default_factory=dict)
    # how far the drafted choice can be trusted, 0–1 (None: no choice, or nothing to measure it
    # by); under LOW_CONFIDENCE the draft is shown as low confidence (engine/drafting/confidence.py)
    confidence: float | None = None
    choice_probability: float | None = None  # the model's, of its choice against the other options
    support: float | None = None  # best question–quote cosine (engine/drafting/confidence.py)
    # the product whose past answer gave the choice, when it is another product's (the text is
    # then never that answer's: engine/drafting/cross_product.py)
    from_product: str | None = None
    # the near-identical past answers' choices, each named with its product ("Parchment's HECVAT: No")
    past_answers: tuple[str, ...] = ()
    profile_fact: str | None = None  # the profile fact (its key) the answer is, word for word
    # links, e-mail addresses and phone numbers taken out of a generated answer: in no cited
    # company or product source and not in the profile (engine/drafting/profile_answers.py)
    removed: tuple[str, ...] = ()
    gate: str | None = None  # not_required: why ("not required (QUAL-01 = No)", engine/drafting/sections.py)

    @property
    def trust(self) -> tuple[str, ...]:
        """Why a drafted answer needs a reviewer's eye first: low confidence, disputed, a choice
        from another product, only a third party's evidence, a profile fact; () when none (or not
        a draft)."""
        if self.status is not DraftStatus.DRAFTED:
            return ()
        flags = (("low confidence", self.low_confidence), ("disputed", self.disputed),
                 (f"from another product ({self.from_product})", bool(self.from_product)),
                 (f"only {self.inherited_from}'s evidence", bool(self.inherited_from)),
                 ("profile fact", bool(self.profile_fact)), ("contact details removed", bool(self.removed)))
        return tuple(name for name, on in flags if on)

    @property
    def disputed(self) -> bool:
        """Reused, but the near-identical past answers do not agree on the choice."""
        return len(self.past_choices) > 1

    @property
    def low_confidence(self) -> bool:
        """A drafted answer whose confidence is under the calibrated threshold."""
        return self.status is DraftStatus.DRAFTED and self.confidence is not None and self.confidence < LOW_CONFIDENCE

    @property
    def inherited_from(self) -> str | None:
        """The third party a drafted answer is inherited from: every highlightable (verified or
        repaired) citation is that third party's document; None otherwise."""
        if self.status is not DraftStatus.DRAFTED:
            return None
        return inherited_from(c.third_party for c in self.citations if c.label is not AnchorLabel.UNVERIFIED)

    def to_json(self) -> dict:
        return {
            "id": self.id, "sheet": self.sheet, "row": self.row, "question": self.question,
            "answer": self.answer, "choice": self.choice, "status": self.status.value,
            "citations": [c.to_json() for c in self.citations],
            "prompt_tokens": self.prompt_tokens, "seconds": round(self.seconds, 3), "error": self.error,
            "reused": self.reused, "past_choices": dict(self.past_choices),
            "confidence": _round(self.confidence), "low_confidence": self.low_confidence,
            "choice_probability": _round(self.choice_probability), "support": _round(self.support),
            "inherited_from": self.inherited_from, "gate": self.gate, "from_product": self.from_product,
            "past_answers": list(self.past_answers), "profile_fact": self.profile_fact, "removed": list(self.removed),
            "trust": list(self.trust),
        }

    def stored(self) -> StoredDraft:
        data = self.to_json()
        return StoredDraft(self.key, self.status, self.answer, self.choice, data)

    @classmethod
    def from_stored(cls, key: str, s: StoredDraft) -> Draft:
        d = s.data
        return cls(key, d.get("id"), d["sheet"], d["row"], d["question"], s.answer, s.choice, s.status,
                   tuple(Citation.from_json(c) for c in d.get("citations", ())), d.get("prompt_tokens", 0),
                   d.get("seconds", 0.0), d.get("error"), bool(d.get("reused", False)),
                   dict(d.get("past_choices") or {}), d.get("confidence"), d.get("choice_probability"),
                   d.get("support"), d.get("from_product"), tuple(d.get("past_answers") or ()), d.get("profile_fact"),
                   tuple(d.get("removed") or ()), d.get("gate"))


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def question_key(q: Question) -> str:
    """A question's stable identity inside its questionnaire."""
    return f"{q.sheet}!{q.question_cell}"


def source_label(rank: int, chunk: Chunk) -> str:
    if chunk.kind is SourceKind.PDF:
        where = f" p. {chunk.page}"
    elif chunk.sheet:
        where = f", sheet {chunk.sheet} row {chunk.row}"
    else:
        where = f", {chunk.section}" if chunk.section else ""
    return f"[{rank}] {chunk.doc}{where}"


class Drafter:
    """Drafts single questions against one knowledge base (and, when given, an answer library)
    with one generator. Anchorers and page finders are built once per document and cached. One
    question is drafted at a time (a lock), so a background batch and a reviewer's "Regenerate"
    can share one model."""

    def __init__(self, kb: KnowledgeBase, generator: Generator, *, top_k: int | None = None,
                 budget_tokens: int | None = PROMPT_BUDGET, library: AnswerLibrary | None = None,
                 product: str | None = None, mode: str | None = None) -> None:
        self.kb, self.generator, self.top_k, self.budget = kb, generator, top_k, budget_tokens
        self.library = library
        # the product drafted for (None: company-wide): the documents retrieval may use and the
        # past answers preferred (engine/core/scopes.py, engine/index/library.py)
        self.scope = ScopeFilter(product)
        self.product = self.scope.product
        self.mode = mode  # a retrieval mode or strategy (engine.core.config); None: the knowledge base's
        self._anchorers: dict[str, QuoteAnchorer] = {}
        self._past_anchorers: dict[tuple[int, str], QuoteAnchorer] = {}
        self._finders: dict[str, PageFinder] = {}
        self._lock = threading.Lock()
        # profile facts (learned from the library, stated by the products' own documents) and the
        # contact check (engine/drafting/profile_answers.py)
        self.profile = ProfileAnswers(library, kb=kb)

    def for_product(self, product: str | None) -> Drafter:
        """This drafter for another product, sharing the model, the caches and the one-at-a-time lock."""
        if ScopeFilter(product) == self.scope:
            return self
        other = copy.copy(self)
        other.scope = ScopeFilter(product)
        other.product = other.scope.product
        return other

    def third_party(self, doc: str) -> str | None:
        """The third party whose document ``doc`` is; None for other (or since removed) documents."""
        return next((d.scope.third_party for d in self.kb.documents() if d.name == doc), None)

    def anchorer(self, doc: str) -> QuoteAnchorer:
        if doc not in self._anchorers:
            self._anchorers[doc] = QuoteAnchorer(self.kb.units(doc))
        return self._anchorers[doc]

    def page_of(self, chunk: Chunk) -> int | None:
        """The Document Page Finder's page for a PDF chunk."""
        if chunk.kind is not SourceKind.PDF:
            return None
        if chunk.doc not in self._finders:
            self._finders[chunk.doc] = PageFinder(self.kb.units(chunk.doc))
        return self._finders[chunk.doc].locate(chunk.text).page

    def passages(self, question: str, hits: Sequence[Hit], past: Sequence[LibraryHit] = (),
                 retrieved: Retrieved | None = None) -> list[Passage]:
        """The related past answers first (matched question to question, and short), then the
        retrieved chunks; compacted together to the budget. The summary strategies add the
        selected documents' summaries (engine/retrieval/summary_rag.py)."""
        whole = [Passage(f"[{i}] {_past_label(h)}", _past_head(h) + answer_text(h.entry)) for i, h in enumerate(past, 1)]
        count = getattr(self.generator, "count_tokens", None)
        if retrieved is not None and retrieved.documents:
            return prompt_passages(question, whole, retrieved, self.budget, source_label, count)
        whole += [Passage(source_label(i, h.chunk) + passage_suffix(self.third_party(h.chunk.doc)), h.chunk.text)
                  for i, h in enumerate(hits, len(past) + 1)]
        if self.budget is None:
            return whole
        return compact_passages(question, whole, self.budget, **({"count_tokens": count} if count else {}))

    def retrieve(self, question: str) -> Retrieved:
        """The passages for ``question`` within the drafter's scope: a retrieval mode searches
        inside the scope; a strategy (summary, atoms: engine/retrieval/summary_rag.py) ranks documents first,
        and another product's passages are dropped from what it returns."""
        if Strategy.of(self.mode) is None:
            return Retrieved(tuple(search(self.kb, question, top_k=self.top_k, mode=self.mode, scope=self.scope)))
        found = retrieve(self.kb, question, self.top_k, self.mode)
        docs = self.scope.restrict(self.kb.documents())  # None: every document is allowed
        if docs is None:
            return found
        allowed = {d.doc_hash for d in docs}
        return dataclass_replace(found, hits=tuple(h for h in found.hits if h.chunk.doc_hash in allowed))

    def draft(self, q: Question, rows: Mapping[str, str] | None = None, source: Path | None = None) -> Draft:
        """Draft ``q``; ``rows`` are its questionnaire's general-information rows (fact → row
        id, ``engine.index.profile.row_ids``), for a profile fact that points to another row;
        ``source`` is its questionnaire's file (a date question's format)."""
        with self._lock:
            fact = self.profile.answer(q, question_key(q), self.product, rows, source)
            if fact is not None:  # a profile fact or the date: exactly, without the model
                return fact
            return self.profile.checked(self._draft(q), self.product)

    def _draft(self, q: Question) -> Draft:
        key = question_key(q)
        started = time.perf_counter()
        try:
            past = (self.library.match(q.text, top_k=None, min_score=PASSAGE_SCORE, product=self.product)
                    if self.library else [])
            reuse = reused_hit(past, product=self.product)
            if reuse is not None and not is_other_product(reuse.entry, self.product):
                # a near-identical past question of this product (or company-wide): its answer, no LLM call
                near = near_hits(past, product=self.product)  # the past answers reuse chose among
                return self._reused(q, key, reuse, near, time.perf_counter() - started)
            if reuse is not None and allowed_choice(reuse.entry.choice, q.choices):
                # only other products' near-identical answers: their choice, labelled; the text from the documents
                return self._other_products_choice(q, key, reuse, near_hits(past, product=self.product), started)
            past = passages_allowed(past, self.product)[:LIBRARY_PASSAGES]  # never another product's text
            retrieved = self.retrieve(q.text) if self.kb.documents() or not past else Retrieved(())
            hits = list(retrieved.hits)
            answer = self.generator.generate(q.text, self.passages(q.text, hits, past, retrieved), q.choices)
            citations = tuple(c for c in (self.cite(quote, hits, past) for quote in answer.quotes) if c is not None)
            backing = self.support(q.text, citations)
        except ModelCrashed:  # the model's process died: the run stops here (drafts stored so far are kept)
            raise
        except Exception as exc:  # one bad question never stops the batch; the draft says why
            return Draft(key, q.id, q.sheet, q.row, q.text, "", None, DraftStatus.ERROR,
                         seconds=time.perf_counter() - started, error=f"{type(exc).__name__}: {exc}")
        return self._decide(q, key, answer, citations, backing, time.perf_counter() - started)

    def support(self, question: str, citations: Sequence[Citation]) -> float | None:
        """How well the highlightable quotes speak to the question (engine/drafting/confidence.py)."""
        quotes = [c.quote for c in citations if c.label is not AnchorLabel.UNVERIFIED]
        if not quotes:
            return None
        encoder = self.kb.encoder
        return support(encoder.encode_query(question), encoder.encode_passages(quotes))

    @staticmethod
    def _reused(q: Question, key: str, hit: LibraryHit, near: Sequence[LibraryHit], seconds: float) -> Draft:
        """The past answer as the draft: its choice when the question allows it (in the
        workbook's spelling), its text; cited as the stored text it is (verified). The choices
        of every near-identical past answer go with it, so a disagreement is shown."""
        e = hit.entry
        choice = allowed_choice(e.choice, q.choices)
        text = e.answer if choice or not e.choice else answer_text(e)
        quote, shown = e.answer or e.choice or "", answer_text(e)
        start = shown.rfind(quote)  # offsets into the past answer as shown: "choice — explanation"
        cite = Citation(file=e.file, kind=SourceKind.LIBRARY, quote=quote, label=AnchorLabel.VERIFIED,
                        score=round(hit.score * 100, 1), retrieval_score=round(hit.score, 4), sheet=e.sheet,
                        row=e.row, section=e.qid, start=start, end=start + len(quote))
        voters = [h.entry for h in near if choice_key(h.entry.choice)]  # the near-identical answers reuse chose among
        agreeing = sum(choice_key(x.choice) == choice_key(e.choice) for x in voters)
        return Draft(key, q.id, q.sheet, q.row, q.text, text, choice, DraftStatus.DRAFTED, (cite,),
                     seconds=seconds, reused=True, past_choices=count_choices(voters),
                     confidence=reused_confidence(agreeing, len(voters), hit.score) if choice else None,
                     past_answers=tuple(choice_label(x) for x in voters))

    def _other_products_choice(self, q: Question, key: str, hit: LibraryHit, near: Sequence[LibraryHit],
                               started: float) -> Draft:
        """Only other products' near-identical past answers: their most common choice (in the
        workbook's spelling), labelled with its product and cited as that choice alone; the
        explanation drafted from the documents within the scope — kept only when supported and
        not contradicting the choice, else left empty — never the past answer's text
        (engine/drafting/cross_product.py)."""
        e = hit.entry
        choice = allowed_choice(e.choice, q.choices)
        text, doc_citations, backing, tokens, probability = "", (), None, 0, None
        if self.kb.documents():
            retrieved = self.retrieve(q.text)
            hits = list(retrieved.hits)
            if hits:
                answer = self.generator.generate(q.text, self.passages(q.text, hits, (), retrieved), q.choices)
                doc_citations = tuple(c for c in (self.cite(quote, hits) for quote in answer.quotes) if c is not None)
                backing, tokens = self.support(q.text, doc_citations), answer.prompt_tokens
                agrees = not answer.choice or choice_key(answer.choice) == choice_key(choice)
                if (agrees and not answer.insufficient_context and backing is not None and backing >= SUPPORT_MIN
                        and answer.answer):
                    text = answer.answer
                if not text:
                    doc_citations = ()  # nothing of them is in the draft
                probability = answer.choice_probability if agrees else None
        quote = e.choice or ""
        cite = Citation(file=e.file, kind=SourceKind.LIBRARY, quote=quote, label=AnchorLabel.VERIFIED,
                        score=round(hit.score * 100, 1), retrieval_score=round(hit.score, 4), sheet=e.sheet,
                        row=e.row, section=e.qid, start=0, end=len(quote), product=e.product)
        voters = [h.entry for h in near if choice_key(h.entry.choice)]
        agreeing = sum(choice_key(x.choice) == choice_key(e.choice) for x in voters)
        return Draft(key, q.id, q.sheet, q.row, q.text, text, choice, DraftStatus.DRAFTED, (cite,) + doc_citations,
                     prompt_tokens=tokens, seconds=time.perf_counter() - started, reused=True,
                     past_choices=count_choices(voters), confidence=cross_product_confidence(agreeing, len(voters)),
                     choice_probability=probability, support=backing, from_product=e.product,
                     past_answers=tuple(choice_label(x) for x in voters))

    @staticmethod
    def _decide(q: Question, key: str, answer: GeneratedAnswer, citations: tuple[Citation, ...],
                backing: float | None, seconds: float) -> Draft:
        """No supported quote → no_context (never a guess); a choice needs a supported quote,
        and a quote that does not speak to the question (support under SUPPORT_MIN) is none."""
        supported = backing is not None and backing >= SUPPORT_MIN
        signals = dict(choice_probability=answer.choice_probability, support=backing)
        if answer.insufficient_context or not supported or not (answer.answer or answer.choice):
            return Draft(key, q.id, q.sheet, q.row, q.text, "", None, DraftStatus.NO_CONTEXT, citations,
                         answer.prompt_tokens, seconds, **signals)
        confidence = draft_confidence(answer.choice_probability, backing) if answer.choice else None
        return Draft(key, q.id, q.sheet, q.row, q.text, answer.answer, answer.choice, DraftStatus.DRAFTED,
                     citations, answer.prompt_tokens, seconds, confidence=confidence, **signals)

    def cite(self, quote: str, hits: Sequence[Hit], past: Sequence[LibraryHit] = ()) -> Citation | None:
        """The best anchor of ``quote`` among the retrieved documents and the past answers shown
        (a document wins a tie); None when there was nothing to quote from."""
        best = self._cite_document(quote, hits) if hits else None
        for h in past:
            if best is not None and best.label is AnchorLabel.VERIFIED:
                break
            candidate = self._cite_past(quote, h)
            if best is None or candidate.score > best.score:
                best = candidate
        return best

    def _cite_document(self, quote: str, hits: Sequence[Hit]) -> Citation:
        """The best anchor of ``quote`` among the retrieved documents (the hit's page as the hint)."""
        best: tuple[Anchor, Hit, int | None] | None = None
        for hit in hits:
            hint = self.page_of(hit.chunk)
            anchor = self.anchorer(hit.chunk.doc).anchor(quote, page=hint if hint else None)
            if best is None or anchor.score > best[0].score:
                best = (anchor, hit, hint)
            if anchor.label is AnchorLabel.VERIFIED:
                break
        anchor, hit, hint = best
        chunk = hit.chunk
        base = dict(file=chunk.doc, kind=chunk.kind, quote=quote, label=anchor.label, score=anchor.score,
                    retrieval_score=round(float(hit.score), 4), third_party=self.third_party(chunk.doc))
        if not anchor.highlighted:  # unverified: cite the retrieved chunk's place, highlight nothing
            return Citation(**base, page=hint or chunk.page, sheet=chunk.sheet, row=chunk.row, section=chunk.section)
        span = max(anchor.spans, key=lambda s: s.end - s.start)
        unit = self.anchorer(chunk.doc).units[span.unit]
        rects: tuple[Rect, ...] = ()
        if chunk.kind is SourceKind.PDF:
            rects = tuple(self.anchorer(chunk.doc).rects(self.kb.source_path(chunk.doc), anchor.spans))
        return Citation(**base, page=anchor.page, sheet=unit.sheet, row=unit.row, section=unit.section,
                        start=span.start, end=span.end, rects=rects)

    def _cite_past(self, quote: str, hit: LibraryHit) -> Citation:
        """``quote`` anchored in a past-answer passage as the generator saw it. Only its answer
        part supports anything: a quote of the past *question* is unverified (score 0).
        Offsets are into ``answer_text(entry)``."""
        e = hit.entry
        head = _past_head(hit)
        text = head + answer_text(e)
        if (e.id, text) not in self._past_anchorers:
            self._past_anchorers[(e.id, text)] = QuoteAnchorer([Unit(text, sheet=e.sheet, row=e.row, section=e.qid)])
        anchor = self._past_anchorers[(e.id, text)].anchor(quote)
        spans = [s for s in anchor.spans if s.end > len(head)] if anchor.highlighted else []
        base = dict(file=e.file, kind=SourceKind.LIBRARY, quote=quote, retrieval_score=round(hit.score, 4),
                    sheet=e.sheet, row=e.row, section=e.qid)
        if not spans:
            return Citation(**base, label=AnchorLabel.UNVERIFIED, score=anchor.score if not anchor.highlighted else 0.0)
        span = max(spans, key=lambda s: s.end - s.start)
        return Citation(**base, label=anchor.label, score=anchor.score,
                        start=max(span.start, len(head)) - len(head), end=span.end - len(head))


def _past_label(hit: LibraryHit) -> str:
    e = hit.entry
    return past_answer_label(e.file, e.sheet, e.row, e.qid)


def _past_head(hit: LibraryHit) -> str:
    """A past-answer passage is this, then ``answer_text(entry)``."""
    return f"Q: {hit.entry.question}\nA: "


@dataclass
class DraftRun:
    """What ``draft_questionnaire`` did."""

    drafted: list[Draft] = field(default_factory=list)  # in this run
    resumed: int = 0  # drafted in an earlier run and kept
    skipped_answered: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    exported: Path | None = None


def to_draft(questionnaire: Questionnaire, redo_answered: bool, limit: int | None) -> tuple[list[Question], int]:
    """The questions to draft, in order, and how many were skipped as already answered."""
    questions = list(questionnaire.questions)
    wanted = [q for q in questions if redo_answered or not q.answered]
    return (wanted[:limit] if limit else wanted), len(questions) - len(wanted)


def draft_questionnaire(
    questionnaire: Questionnaire,
    drafter: Drafter,
    review: ReviewStore,
    *,
    results: Path | None = None,
    out: Path | None = None,
    limit: int | None = None,
    redo_answered: bool = False,
    progress: Progress = no_progress,
) -> DraftRun:
    project = review.project_for(questionnaire.path)
    review.set_questions(project.id, [(question_key(q), _question_json(q)) for q in questionnaire.questions])
    todo, skipped = to_draft(questionnaire, redo_answered, limit)
    done = review.latest_drafts(project.id)
    sections = SectionGate(questionnaire, done, review.latest_decisions(project.id))
    todo = sections.order(todo)  # qualifiers first: their answers decide which sections are drafted
    reopened = {question_key(q) for q in todo if question_key(q) in done and sections.stale(q, done[question_key(q)])}
    done = {k: s for k, s in done.items() if k not in reopened}  # switched back on: drafted again
    run = DraftRun(skipped_answered=skipped)
    kept = [Draft.from_stored(question_key(q), done[question_key(q)]) for q in todo if question_key(q) in done]
    run.resumed = len(kept)
    sink = _ResultsFile(results, kept)
    pending = [q for q in todo if question_key(q) not in done]
    progress("drafting", len(kept), len(todo))
    rows = row_ids(questionnaire.questions)  # where a profile fact pointing to another row points
    for i, q in enumerate(pending, 1):
        off = sections.switched_off(q)
        draft = not_required_draft(q, off.reason) if off is not None else drafter.draft(q, rows, questionnaire.path)
        sections.drafted(q, draft.status, draft.answer, draft.choice, draft.from_product, draft.past_answers)
        review.add_draft(project.id, draft.stored())
        sink.write(draft)
        run.drafted.append(draft)
        progress("drafting", len(kept) + i, len(todo))
    for d in kept + run.drafted:
        run.counts[d.status.value] = run.counts.get(d.status.value, 0) + 1
    if out is not None:
        latest = review.latest_drafts(project.id)
        drafts = [Draft.from_stored(k, latest[k]) for k in (question_key(q) for q in questionnaire.questions) if k in latest]
        run.exported = export_drafts(questionnaire, drafts, out)
    return run


def not_required_draft(q: Question, reason: str) -> Draft:
    """The draft of a question its qualifier switches off: nothing to write, no model call."""
    return Draft(question_key(q), q.id, q.sheet, q.row, q.text, "", None, DraftStatus.NOT_REQUIRED, gate=reason)


def answer_writes(questionnaire: Questionnaire, answers: dict[str, tuple[str, str | None]],
                  dates: Iterable[str] = ()) -> list[CellWrite]:
    """Cell writes for ``{question key: (answer text, choice)}``: the choice into the dropdown
    cell, the text into the free-text cell (or, when the question has only one cell, the
    choice there if it has one, else the text). A question without a dropdown on a sheet with an
    explanation column (Additional Information, comments) whose text is "choice — explanation"
    (a past answer's choice outside the workbook's list) gets the choice in its answer cell and
    the explanation in its own cell (:func:`engine.review.export_cells.split_writes`). The keys in
    ``dates`` are dates in the questionnaire's format (engine/questionnaire/date_format.py):
    written as dates into a date cell, as that text into any other (engine/review/export.py)."""
    from engine.review.export_cells import split_writes
    from engine.questionnaire.date_format import date_format

    writes: list[CellWrite] = []
    dates = set(dates)
    for q in questionnaire.questions:
        if question_key(q) not in answers:
            continue
        text, choice = answers[question_key(q)]
        if question_key(q) in dates and q.text_cell and text and not choice:
            day = date_format(q, questionnaire.path).parse(text)
            writes.append(CellWrite(q.sheet, q.text_cell, text, kind="date", day=day.isoformat() if day else None))
            continue
        split = split_writes(questionnaire, q, text, choice)
        if split is not None:
            writes += split
            continue
        if q.choice_cell and choice:
            writes.append(CellWrite(q.sheet, q.choice_cell, choice))
        if q.text_cell and text and q.text_cell != q.choice_cell:
            writes.append(CellWrite(q.sheet, q.text_cell, text))
        elif q.text_cell and text and not choice:
            writes.append(CellWrite(q.sheet, q.text_cell, text))
    return writes


def export_drafts(questionnaire: Questionnaire, drafts: Iterable[Draft], out: Path) -> Path:
    """The original file with the drafted answers filled in (no_context and errors left blank)."""
    drafts = [d for d in drafts if d.status is DraftStatus.DRAFTED]
    answers = {d.key: (d.answer, d.choice) for d in drafts}
    dates = {d.key for d in drafts if d.profile_fact == "date"}
    return export(questionnaire.path, out, answer_writes(questionnaire, answers, dates))


def _question_json(q: Question) -> dict:
    return asdict(q)


class _ResultsFile:
    """results.jsonl: rewritten with the kept drafts at the start, then one line per draft as
    it finishes (flushed, so an interrupted run leaves every finished line)."""

    def __init__(self, path: Path | None, kept: Sequence[Draft]) -> None:
        self.path = path
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("w", encoding="utf-8") as f:
                for d in kept:
                    f.write(json.dumps(d.to_json(), ensure_ascii=False) + "\n")

    def write(self, draft: Draft) -> None:
        if self.path is not None:
            with self.path.open("a", encoding="utf-8") as f:
                f.write(json.dumps(draft.to_json(), ensure_ascii=False) + "\n")
