"""Drafting one question, thin orchestration: retrieve the top-k chunks, compact them to the
sentences that matter, generate a JSON answer with quotes, anchor every quote in its source
(RapidFuzz), locate PDF pages (Document Page Finder) and highlight boxes (PyMuPDF). The run over a
whole questionnaire, persisting every draft as it finishes so an interrupted run resumes where it
stopped, is engine/review/draft_run.py; the records made here are in engine/drafting/records.py.

With an answer library, each question is first matched to past questions: a near-identical one
(``REUSE_SCORE``) gives its past answer as the draft, marked ``reused``, with no LLM call (and
the choices of all the near-identical past answers, so a disagreement is shown); else
the best related past answers (``PASSAGE_SCORE``) join the retrieved chunks as passages, and a
quote taken from one is cited as a past answer.

Each question is embedded once (``QuestionVectors``, engine/index/embed/question.py), before the
library is asked, and that context goes down to the library, retrieval and the quotes' support.

Another product's past answer is never reused as it is, nor shown to the model
(engine/drafting/cross_product.py): the product's own near-identical past answers come first, then
company-wide ones; when only other products' are near-identical, their choice is taken, labelled
("Parchment's HECVAT: No", ``Draft.from_product`` / ``past_answers``) with its own calibrated
confidence, and the explanation is the documents' sentence that speaks best to the question
(engine/drafting/explanation.py, no model call); when none does, the model explains that choice
from the same passages (marked as its wording), or it is left empty. ``Draft.trust``
lists why a draft needs a reviewer's eye first.
"""

from __future__ import annotations

import copy
import re
import threading
import time
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Mapping, NamedTuple, Sequence

from engine.core.location import PROMPT, Location
from engine.core.scopes import ScopeFilter, passage_suffix, products_of, third_parties_of
from engine.core.types import Chunk, DocumentInfo, DraftStatus, Hit, SourceKind, Unit
from engine.drafting.addressed import addresses_reader
from engine.drafting.anchoring import Anchor, AnchorLabel, QuoteAnchorer
from engine.drafting.company_text import COMPANY_PRODUCTS, company_text, narratives
from engine.drafting.confidence import SUPPORT_MIN, draft_confidence, reused_confidence, support
from engine.drafting.cross_product import (
    choice_label,
    cross_product_confidence,
    is_other_product,
    passages_allowed,
    shared_explanation,
)
from engine.drafting.explanation import Explanation, best_sentence, shown, worth_asking
from engine.drafting.explanation_rules import (
    about_the_sources,
    asks_provider,
    contradicts,
    names_any,
    read_out_of_context,
)
from engine.drafting.generate import (
    DropdownTooLong,
    GeneratedAnswer,
    Generator,
    GeneratorError,
    ModelCrashed,
    Passage,
    compact_passages,
    set_aside,
)
from engine.drafting.generate.prompt import Evidence, numbered_sentences
from engine.drafting.hosting import asks_hosting, hosting_of
from engine.drafting.page_finder import PageFinder
from engine.drafting.passages import prompt_passages
from engine.drafting.product_names import names_another_product
from engine.drafting.profile_answers import ProfileAnswers
from engine.drafting.records import Citation, Draft, Rect, TextSource
from engine.drafting.reference import (
    SUMMARY_SENTENCES,
    document_answer,
    documented_topic,
    find_document,
    reference_answer,
    reference_topic,
    section_on,
)
from engine.drafting.regulated import Regime, excluded_names, own_statements, provider_names, regime_of
from engine.drafting.relevance import QUESTION_FLOOR, relevance
from engine.drafting.sources import AnswerSource, Asking, always
from engine.drafting.translate import MEMORY_CANDIDATES, MEMORY_SCORE, Translations, draft_translated
from engine.index.embed.question import QuestionVectors, question_vectors
from engine.index.kb import KnowledgeBase
from engine.index.library import (
    AnswerLibrary,
    LibraryHit,
    allowed_choice,
    answer_text,
    choice_key,
    count_choices,
    entry_language,
    overdue,
    reusable_choice,
)
from engine.questionnaire import Question
from engine.questionnaire.language import COMPANY_LANGUAGE, Language, QuestionnaireLanguage, detect, english_choice
from engine.questionnaire.length_limits import cut_to_limit, stated_limit
from engine.questionnaire.qualifiers import Qualifier, question_key
from engine.questionnaire.row_types import asks_for_text
from engine.retrieval.retrieve import retrieve
from engine.retrieval.summary_rag import Retrieved
from storage.library_store import LibraryEntry

PROMPT_BUDGET = 250  # tokens of passage text after compaction (five whole chunks are ≈ 800–1,200)
LIBRARY_PASSAGES = 3  # related past answers shown to the generator, at most
# why a row of a whole run's first pass has no text yet (Drafter.first_pass; the explanations pass redrafts it)
# why a row the model would draft from the documents was not sent to it (:meth:`Drafter._supportable`)
UNSUPPORTED = (
    f"no sentence of the passages speaks to the question (cosine {SUPPORT_MIN:.2f} or more): "
    "a reply citing them could not be drafted, so the model was not asked"
)
EXPLAINED_LATER = "the model writes this explanation in the explanations pass, after every row is drafted"


class _Reply(NamedTuple):
    """The model's reply as a draft reads it (``Drafter._ask``): its quotes anchored, their support."""

    answer: GeneratedAnswer
    citations: tuple[Citation, ...]
    backing: float | None  # the support of the verified quotes (None: none)
    text_asked: bool  # False: the evidence and choice only (``choose``), the text not written


def source_label(rank: int, chunk: Chunk) -> str:
    """A retrieved passage's label in the prompt: "[rank] " and its place (engine/core/location.py)."""
    return f"[{rank}] {Location.of_chunk(chunk).label(PROMPT)}"


class Drafter:
    """Drafts single questions against one knowledge base (and, when given, an answer library)
    with one generator. Anchorers and page finders are built once per document and cached. One
    question is drafted at a time (a lock), so a background batch and a reviewer's "Regenerate"
    can share one model."""

    def __init__(
        self,
        kb: KnowledgeBase,
        generator: Generator,
        *,
        top_k: int | None = None,
        budget_tokens: int | None = PROMPT_BUDGET,
        library: AnswerLibrary | None = None,
        product: str | None = None,
        mode: str | None = None,
        profile: ProfileAnswers | None = None,
    ) -> None:
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
        self._lock = threading.RLock()  # re-entered by a translated question's English draft (_translated)
        self.languages: QuestionnaireLanguage | None = None  # the questionnaire's language (for_language)
        # False in a whole run's first pass (first_pass): another product's choice is not explained by the model yet
        self.explain_now = True
        # the model's translations, cached per text and kept in the store's translations.json (#58)
        folder = getattr(kb, "folder", None)
        kept = Path(folder) / "translations.json" if isinstance(folder, (str, Path)) else None
        self.translations = Translations(generator, kept)
        # profile facts (learned from the library, stated by the products' own documents) and the
        # contact check (engine/drafting/profile_answers.py); ``profile``: one the caller shares
        self.profile = profile or ProfileAnswers(library, kb=kb)

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

    def other_products(self) -> set[str]:
        """The products, other than the one drafted for, that the documents' scopes and the past
        answers name."""
        names = set(products_of(self.kb.documents())) | (self.library.products() if self.library else set())
        return names - {self.product}

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

    def passages(
        self, question: str, hits: Sequence[Hit], past: Sequence[LibraryHit] = (), retrieved: Retrieved | None = None
    ) -> list[Passage]:
        """The related past answers first (matched question to question, and short), then the
        retrieved chunks; compacted together to the budget. The summary strategies add the
        selected documents' summaries (engine/retrieval/summary_rag.py)."""
        whole = [
            Passage(f"[{i}] {h.entry.location.label(PROMPT)}", _past_head(h) + past_shown(h.entry))
            for i, h in enumerate(past, 1)
        ]
        count = getattr(self.generator, "count_tokens", None)
        if retrieved is not None and retrieved.documents:
            return prompt_passages(question, whole, retrieved, self.budget, source_label, count)
        whole += [
            Passage(source_label(i, h.chunk) + passage_suffix(self.third_party(h.chunk.doc)), h.chunk.text)
            for i, h in enumerate(hits, len(past) + 1)
        ]
        if self.budget is None:
            return whole
        return compact_passages(question, whole, self.budget, **({"count_tokens": count} if count else {}))

    def for_the_company(self, question: str, retrieved: Retrieved) -> Retrieved:
        """``retrieved`` less the third parties' passages and documents, unless ``question`` asks
        what the provider does (``asks_provider``): a provider's practice never explains, nor is
        written as, the company's own (``provider_named`` sets such a text aside after the call)."""
        if asks_provider(question):
            return retrieved
        own = [h for h in retrieved.hits if self.third_party(h.chunk.doc) is None]
        documents = [d for d in retrieved.documents if self.third_party(d.doc.name) is None]
        return replace(retrieved, hits=tuple(own), documents=tuple(documents))

    def retrieve(self, question: str | QuestionVectors) -> Retrieved:
        """The passages for ``question`` within the drafter's scope, in the drafter's mode (None: the
        knowledge base's): a retrieval mode searches inside the scope; a strategy (summary, atoms:
        engine/retrieval/summary_rag.py) ranks documents first, and another product's passages are
        dropped from what it returns."""
        return retrieve(self.kb, question, self.top_k, self.mode, self.scope)

    def draft(
        self,
        q: Question,
        rows: Mapping[str, str] | None = None,
        source: Path | None = None,
        qualifier: Qualifier | None = None,
        *,
        in_english: bool = False,
    ) -> Draft:
        """Draft ``q`` from the first of the answer sources (``SOURCES``, in order) that applies and
        drafts; ``rows`` are its questionnaire's general-information rows (fact → row id,
        ``engine.index.profile.row_ids``), for a profile fact that points to another row;
        ``source`` is its questionnaire's file (a date question's format); ``qualifier``: the
        qualifier ``q`` is, when it switches sections on or off (one about regulated data or the
        hosting is answered by the own documents' statements: :meth:`_stated`). Every text is then
        checked: contacts and links in no source are taken out (``ProfileAnswers.checked``), a
        provider's practice is never the company's (:func:`provider_named`). A question in another
        language than the company's is drafted as its English translation (:meth:`_translated`);
        ``in_english``: ``q`` is that translation (or the company's language anyway)."""
        if not in_english:
            spoken = self.language_of(q)
            if spoken is not COMPANY_LANGUAGE:  # asked in English, answered in the questionnaire's words (#58)
                return self._translated(q, spoken, rows, source, qualifier)
        with self._lock:
            asking = Asking(self, q, question_key(q), time.perf_counter(), qualifier, rows, source)
            try:
                found = next(
                    d for s in SOURCES if s.applies(self, asking) for d in (s.draft(self, asking),) if d is not None
                )
                judged = self._judged(asking, provider_named(self.profile.checked(found, self.product)))
                return within_limit(q, self._differing(asking, self._referenced(asking, judged)))
            except ModelCrashed:  # the model's process died: the run stops here (drafts stored so far are kept)
                raise
            except DropdownTooLong as exc:  # the dropdown is what does not fit, not the passages: the draft names it
                cell = f"{q.sheet}!{q.choice_cell or q.text_cell or q.question_cell}"
                return Draft.of(q, asking.key, "", None, DraftStatus.ERROR, seconds=_since(asking), error=exc.at(cell))
            except Exception as exc:  # one bad question never stops the batch; the draft says why
                error = f"{type(exc).__name__}: {exc}"
                return Draft.of(q, asking.key, "", None, DraftStatus.ERROR, seconds=_since(asking), error=error)

    def language_of(self, q: Question) -> Language:
        """The language ``q`` is written in: the questionnaire's as drafting was given it
        (:meth:`for_language`), else the question's own detected one; the company's when the
        model cannot translate (a generator without ``chat_json``)."""
        if not hasattr(self.generator, "chat_json"):
            return COMPANY_LANGUAGE
        if self.languages is not None:
            return self.languages.of_question(question_key(q))
        return detect(q.text).language or COMPANY_LANGUAGE

    def first_pass(self) -> Drafter:
        """This drafter for a whole questionnaire's first pass (#59 item 6): every row drafted
        without the model's explanations of other products' choices, each left with
        ``EXPLAINED_LATER``, for the explanations pass after it (engine/review/draft_run.py). On
        the Canvas Credentials HECVAT Full those calls took 570 of the 700 s and kept 18 texts of
        58 (docs/benchmarks.md): the responder gets every row's draft first, and the texts after."""
        other = copy.copy(self)
        other.explain_now = False
        return other

    def for_language(self, languages: QuestionnaireLanguage | None) -> Drafter:
        """This drafter for a questionnaire in ``languages`` (its language, its questions in
        another, the answers' language), sharing the model, the caches and the lock."""
        other = copy.copy(self)
        other.languages = languages
        return other

    def names(self) -> tuple[str, ...]:
        """The names a translation keeps as written: the company's (the profile's vendor), the
        products' and the third parties' (the documents' scopes and the library)."""
        vendor = self.profile.profile().vendor(self.product)
        found = {self.product or "", vendor.value if vendor is not None else ""}
        found |= self.other_products() | set(third_parties_of(self.kb.documents()))
        return tuple(sorted(n for n in found if n))

    def past_questions(self, text: str, profile: bool = True) -> list[str]:
        """The library's past questions closest to ``text`` (at ``MEMORY_SCORE`` or more, best
        first, each wording once), then, with ``profile``, the profile's own questions close to it
        (``ProfileAnswers.questions_near``; not for a question with choices, which no profile fact
        answers): the translation memory of a question in another language."""
        if not text.strip():
            return []
        hits = self.library.match(text, top_k=None, min_score=MEMORY_SCORE) if self.library is not None else []
        seen: dict[str, str] = {}
        for h in sorted(hits, key=lambda h: -h.score):
            seen.setdefault(" ".join(h.entry.question.split()).casefold(), h.entry.question)
        found = list(seen.values())[:MEMORY_CANDIDATES]
        encoder = self.library.encoder if self.library is not None else self.kb.encoder
        near = self.profile.questions_near(text, encoder, MEMORY_SCORE, MEMORY_CANDIDATES) if profile else []
        for wording in near:
            if wording.casefold() not in seen:  # the profile's own questions (a translated profile row)
                found.append(wording)
        return found

    def _translated(
        self,
        q: Question,
        spoken: Language,
        rows: Mapping[str, str] | None,
        source: Path | None,
        qualifier: Qualifier | None,
    ) -> Draft:
        """``q`` drafted as its English translation, its choice and text put back into the
        questionnaire's words (engine/drafting/translate.py ``draft_translated``)."""
        answer_in = self.languages.answers_in(question_key(q)) if self.languages else spoken
        english = partial(self.draft, rows=rows, source=source, qualifier=qualifier, in_english=True)
        with self._lock:
            try:
                names = self.names()
                memory = partial(self.past_questions, profile=not q.choices)
                drafted = draft_translated(q, spoken, answer_in, self.translations, english, memory, names)
                return within_limit(q, drafted)
            except ModelCrashed:
                raise
            except GeneratorError as exc:  # the translation call failed: the draft says why
                return Draft.of(q, question_key(q), "", None, DraftStatus.ERROR, error=f"translation: {exc}")

    # ---- the answer sources, in SOURCES' order ----------------------------------------------------
    def _profile_fact(self, a: Asking) -> Draft | None:
        """A profile fact or the date, exactly, without the model (engine/drafting/profile_answers.py)."""
        return self.profile.answer(a.q, a.key, self.product, a.rows, a.source)

    def _has_own_past(self, a: Asking) -> bool:
        """A near-identical past question of this product (or company-wide)."""
        return a.reuse is not None and not is_other_product(a.reuse.entry, self.product)

    def _own_past(self, a: Asking) -> Draft:
        """Its answer, no LLM call (:meth:`_reused`); one written in another language than the
        company's is put in the company's first (:meth:`_in_company_language`)."""
        return self._in_company_language(self._reused(a.q, a.key, a.reuse, a.near, _since(a)), a.reuse.entry)

    def _in_company_language(self, d: Draft, e: LibraryEntry) -> Draft:
        """A reused past answer ``d`` of entry ``e`` in the company's language (issue #58): as it is
        when ``e`` is written in it (or its language is unknown); else the English text it was
        translated from when it has one and is reused as written, else the model's translation, the
        draft marked ``translated_from`` its language (the card cites the answer it came from). No
        model to translate with, or no translation: its own words, marked untranslated. A
        questionnaire in the past answer's own language gets its own words back
        (engine/drafting/translate.py ``draft_translated``)."""
        written = entry_language(e)
        if written in (None, COMPANY_LANGUAGE) or not d.answer.strip():
            return d
        if e.answer_en and d.answer.strip() == e.answer.strip():
            return replace(d, answer=e.answer_en, translated_from=written.value)
        back = (
            self.translations.translate(d.answer, written, COMPANY_LANGUAGE, self.names())
            if hasattr(self.generator, "chat_json")
            else None
        )
        if back is None:
            return replace(d, translated_from=written.value, untranslated=True)
        return replace(d, answer=back.text, translated_from=written.value)

    def _asks_company_narrative(self, a: Asking) -> bool:
        """A question without a dropdown that only other products answered, near-identically, with a
        text and no choice (a narrative: engine/drafting/company_text.py)."""
        return (
            not a.q.choices
            and a.reuse is not None
            and is_other_product(a.reuse.entry, self.product)
            and reusable_choice(a.reuse.entry.choice, a.q.choices, a.q.several) is None
        )

    def _company_text(self, a: Asking) -> Draft | None:
        """What two or more other products answered in the same sentences: the company's answer,
        reused with its origin (one citation per product that carries it), no model call; the
        products whose answers say otherwise are named (``text_differs``: Review first). None when
        no sentence is shared so (the next source drafts; :meth:`draft` names the products that
        answered differently). A text written in another language than the company's is put in
        English as a reused past answer is, never left as written; in the language the
        questionnaire is answered in, it keeps its own words (:meth:`_in_language_answered`). For a
        product whose vendor is another entity than the company (``Profile.other_vendor``: Parchment,
        "Parchment LLC" in its own PCI attestation) the company's text is not its own: the row is left
        for the responder with the reason, as the profile leaves the company's facts (#59)."""
        found = company_text(a.near, [*self.other_products(), self.product or ""])
        if found is None:
            return None
        profile = self.profile.profile()
        if profile.other_vendor(self.product):  # an acquired company answering as itself: the company's
            # facts are not its facts (engine/index/profile.py), nor is the company's text its text (#59)
            own, company = profile.vendor(self.product), profile.company.get("vendor_name")
            why = (
                f"{self.product}'s vendor is {own.value if own else 'another entity'}, not "
                f"{company.value if company else 'the company'}: the company's text (the same in "
                f"{len(found.products)} products' past answers) is not its own; write this answer by hand"
            )
            return Draft.of(a.q, a.key, "", None, DraftStatus.NO_CONTEXT, seconds=_since(a), error=why)
        citations = tuple(
            _past_citation(h, h.entry.answer, answer_text(h.entry).rfind(h.entry.answer), product=h.entry.product)
            for h in found.agreeing
        )
        drafted = Draft.of(
            a.q,
            a.key,
            found.text,
            None,
            DraftStatus.DRAFTED,
            citations,
            seconds=_since(a),
            reused=True,
            from_product=found.hit.entry.product,
            past_answers=tuple(choice_label(h.entry) for h in found.agreeing),
            reused_due=overdue(found.hit.entry),
            text_differs=found.differing,
        )
        return self._in_language_answered(drafted, found.hit.entry, a.key)

    def _in_language_answered(self, d: Draft, e: LibraryEntry, key: str) -> Draft:
        """Other products' text ``d`` (the company's text, a shared explanation) of entry ``e``,
        for question ``key``: written in the language that question is answered in (not the
        company's), its own words, not put in English and back (#58); else in the company's
        language as a reused past answer is (:meth:`_in_company_language`)."""
        written = entry_language(e)
        if written not in (None, COMPANY_LANGUAGE) and self.languages is not None:
            if written is self.languages.answers_in(key):
                return replace(d, language=written.value)
        return self._in_company_language(d, e)

    def _differing(self, a: Asking, d: Draft) -> Draft:
        """A narrative's draft not taken from the company's text, when two or more other products
        answered it near-identically in different words: the draft names them (``text_differs``,
        Review first), whatever source wrote it. The company's text itself (``shared_past``) has named
        the products that said otherwise already, or none when all of them agree (Parchment's COMP-01:
        the 8 other products' answers, once named as the products that answered otherwise, #59)."""
        if (
            d.text_differs
            or d.text_source == TextSource.SHARED_PAST.value
            or a.q.choices
            or d.status is not DraftStatus.DRAFTED
            or not self._asks_company_narrative(a)
        ):
            return d
        answered = narratives(a.near)
        if len(answered) < COMPANY_PRODUCTS:
            return d
        return replace(d, text_differs=tuple(sorted(answered)))

    def _has_other_products_choice(self, a: Asking) -> bool:
        """Only other products' near-identical past answers, with a choice this question takes."""
        return a.reuse is not None and reusable_choice(a.reuse.entry.choice, a.q.choices, a.q.several) is not None

    def _asks_for_reference(self, a: Asking) -> bool:
        """A question without a dropdown that asks for a reference or documentation (engine/drafting/reference.py)."""
        return not a.q.choices and reference_topic(a.q.text) is not None

    def _reference(self, a: Asking) -> Draft | None:
        """The section of a company or product document on what the question asks for, named with
        its pages and its first sentences that speak to the question, quoted and cited; None when
        no document has one (engine/drafting/reference.py)."""
        found = self._section_answer(a, reference_topic(a.q.text) or "")
        if found is None:
            return None
        text, citations, label = found
        return Draft.of(a.q, a.key, text, None, DraftStatus.DRAFTED, citations, seconds=_since(a), reference=label)

    def _referenced(self, a: Asking, d: Draft) -> Draft:
        """A Yes whose question asks for a reference ("Describe or provide a reference to …") or
        whether a documented plan or documentation exists ("Do you have a well-documented Business
        Continuity Plan (BCP) …?", "Do you have documentation to support the accessibility features
        of your product?": engine/drafting/reference.py ``documented_topic``), on a row with a
        dropdown as on one without (its Yes leading the text): when it has no text, or only other
        products' shared words, the reference is its text — the section of an own document on it, or
        the document itself (``find_document``) — the choice as it was (issue #59, item 2). Any
        other draft as it is."""
        leading = _leading_choice(d)
        bare = d.answer.strip() in ("", leading)  # no text, or only the other product's Yes leading none
        if d.status is not DraftStatus.DRAFTED or not (bare or d.text_source == TextSource.SHARED_PAST.value):
            return d
        if choice_key(d.choice if a.q.choices else leading) != "yes":
            return d
        asked = reference_topic(a.q.text)
        topic = asked or documented_topic(a.q.text)
        # the sentence need only show the section is the one asked about (a quote's bar) when the
        # question asks whether it exists and its guidance where it is
        found = self._section_answer(a, topic, QUESTION_FLOOR if asked else SUPPORT_MIN) if topic else None
        if found is None:
            return d
        text, citations, label = found
        # the choice's citations stay; the shared words' leave with them
        kept = d.citations if bare else d.citations[:1] if d.from_product else ()
        said = f"{leading} \N{EM DASH} {text}" if leading and not a.q.choices else text
        return replace(
            d, answer=said, citations=kept + citations, reference=label, no_text=None, relevance=None, at_odds=False
        )

    def _reference_documents(self) -> list[DocumentInfo]:
        """The PDFs a reference may name: the company's and the product's own in scope, never a third
        party's; for a product whose vendor is another entity than the company (``Profile.other_vendor``:
        Parchment LLC), its own only — the company's plans are not its plans."""
        allowed = self.scope.restrict(self.kb.documents())
        docs = [
            d
            for d in (self.kb.documents() if allowed is None else allowed)
            if d.scope.third_party is None and d.kind is SourceKind.PDF
        ]
        if self.product and self.profile.profile().other_vendor(self.product):
            docs = [d for d in docs if self.scope.product in d.scope.products]
        return docs

    def _section_answer(
        self, a: Asking, topic: str, floor: float = QUESTION_FLOOR
    ) -> tuple[str, tuple[Citation, ...], str] | None:
        """The reference to the section on ``topic``: (its text, its citations, its label); its
        sentences speak to the question at ``floor`` or more and name the topic (``section_on``).
        Without such a section, the document that is itself what is asked for (:meth:`_named_document`)."""
        docs = self._reference_documents()
        vendor = self.profile.profile().vendor(self.product)  # the company's name, as the profile knows it
        names = [self.product or "", vendor.value if vendor is not None else ""]
        on = section_on(topic, [(d.name, self.kb.units(d.name)) for d in docs], names)
        if on is None:
            return self._named_document(a, topic, docs, floor)
        section, found = on
        vectors = self.kb.encoder.encode_passages([shown(s) for _, s in found]) if found else []
        said = [
            (page, s)
            for (page, s), v in zip(found, vectors)
            if float(v @ a.question) >= floor and not names_another_product(s, self.other_products(), self.product)
        ][:SUMMARY_SENTENCES]
        chunks = self.kb.chunks(section.doc)
        citations = tuple(
            c
            for c in (self._cite_on(s, page, chunks) for page, s in said)
            if c is not None and c.label is not AnchorLabel.UNVERIFIED
        )
        if not said or len(citations) < len(said):
            return self._named_document(a, topic, docs, floor)
        return reference_answer(section, [s for _, s in said]), citations, section.label

    def _named_document(
        self, a: Asking, topic: str, docs: Sequence[DocumentInfo], floor: float
    ) -> tuple[str, tuple[Citation, ...], str] | None:
        """The first document of ``docs`` that is what ``topic`` asks for (``find_document``: the
        product's own before the company's) whose sentence naming it speaks to the question at
        ``floor`` or more, names no other product and is cited on its page; None when none is."""
        own = [d.name for d in docs if self.scope.product and self.scope.product in d.scope.products]
        for named in find_document(topic, [(d.name, self.kb.units(d.name)) for d in docs], own):
            if names_another_product(named.sentence, self.other_products(), self.product):
                continue
            if float(self.kb.encoder.encode_passages([shown(named.sentence)])[0] @ a.question) < floor:
                continue
            cited = self._cite_on(named.sentence, named.page, self.kb.chunks(named.doc))
            if cited is not None and cited.label is not AnchorLabel.UNVERIFIED:
                return document_answer(named), (cited,), named.label
        return None

    def _cite_on(self, sentence: str, page: int, chunks: Sequence[Chunk]) -> Citation | None:
        """``sentence`` of a page cited in the chunk that holds it (None when none does)."""
        flat = " ".join(sentence.split())
        for chunk in chunks:
            if page in chunk.pages and flat in " ".join(chunk.text.split()):
                return self.cite(sentence, [Hit(chunk, 1.0)])
        return None

    def _documents(self, a: Asking) -> Draft:
        """The model's answer from the retrieved passages and the related past answers of this
        product (never another product's text), its quotes anchored; a text without a choice is
        written from the company's own passages only (:meth:`for_the_company`), and with none of
        those the model is not called. The model is asked for its evidence and choice first
        (``choose``: the first fields of its reply), then, only when that evidence speaks to the
        question, for the whole reply, its prompt already read (issue #59 item 6); in a whole
        run's first pass a choice is drafted as it is, its text left to the explanations pass
        (``EXPLAINED_LATER``)."""
        q = a.q
        past = [h for h in passages_allowed(a.past, self.product) if shown_in_english(h.entry)][:LIBRARY_PASSAGES]
        retrieved = a.retrieved if self.kb.documents() or not past else Retrieved(())
        if not q.choices:  # a text without a choice: a provider's sentence could only be set aside
            own = self.for_the_company(q.text, retrieved)
            if not own.hits and not past:  # nothing of the company's own to write from: no call
                why = _only_providers({self.third_party(h.chunk.doc) for h in retrieved.hits} - {None})
                return Draft.of(q, a.key, "", None, DraftStatus.NO_CONTEXT, seconds=_since(a), error=why)
            retrieved = own
        hits = list(retrieved.hits)
        passages = self.passages(q.text, hits, past, retrieved)
        passages = self._supportable(a, passages)
        if not passages:  # its draft could only be no context: no call
            return Draft.of(q, a.key, "", None, DraftStatus.NO_CONTEXT, seconds=_since(a), error=UNSUPPORTED)
        reply = self._ask(q, a.asked, passages, q.choices, hits, past, several=q.several, later=not self.explain_now)
        drafted = self._decide(q, a.key, reply.answer, reply.citations, reply.backing, _since(a))
        if drafted.choice and not reply.text_asked:  # a whole run's first pass: the choice now, its text later
            return replace(drafted, no_text=EXPLAINED_LATER)
        return drafted

    def _ask(
        self,
        q: Question,
        asked: QuestionVectors,
        passages: Sequence[Passage],
        choices: Sequence[str],
        hits: Sequence[Hit],
        past: Sequence[LibraryHit] = (),
        *,
        several: bool = False,
        later: bool = False,
    ) -> _Reply:
        """The model's reply to ``q`` from ``passages``, its quotes anchored among ``hits`` and
        ``past`` and their support. A generator that can (``choose``) is asked for its evidence and
        choice first, the first fields of its reply, and for the whole reply (its prompt already
        read: the same context key) only when that evidence speaks to the question
        (``SUPPORT_MIN``): a text whose evidence does not could not be drafted (issue #59 item 6).
        ``later``: a reply with a choice is returned without its text, the prompt's state kept
        for the pass that writes it (a whole run's first pass)."""
        more = {"several": True} if several else {}
        choose = getattr(self.generator, "choose", None)
        if choose is None:  # a generator that writes its reply whole (the tests' fakes)
            return self._anchored(self.generator.generate(q.text, passages, choices, **more), asked, hits, past)
        context = f"draft {question_key(q)}"  # the prompt's KV state, kept between the two calls (llama.cpp)
        chosen = self._anchored(choose(q.text, passages, choices, context=context, **more), asked, hits, past, False)
        if chosen.backing is None or chosen.backing < SUPPORT_MIN:
            self.generator.forget(context)
            return chosen
        if later and chosen.answer.choice:
            return chosen
        answer = self.generator.generate(q.text, passages, choices, context=context, **more)
        return self._anchored(answer, asked, hits, past)

    def _anchored(
        self,
        answer: GeneratedAnswer,
        asked: QuestionVectors,
        hits: Sequence[Hit],
        past: Sequence[LibraryHit],
        text_asked: bool = True,
    ) -> _Reply:
        """``answer`` with its quotes anchored among ``hits`` and ``past`` and their support."""
        citations = tuple(c for c in (self.cite(quote, hits, past) for quote in answer.quotes) if c is not None)
        return _Reply(answer, citations, self.support(asked, citations), text_asked)

    def _supportable(self, a: Asking, passages: Sequence[Passage]) -> list[Passage]:
        """``passages`` cut to the sentences a reply could be drafted from: in the sentences form
        (the default) the model cites numbered sentences of the passages and nothing else, and a
        draft needs a cited sentence that speaks to the question (``SUPPORT_MIN``, :meth:`_decide`),
        so only those sentences are shown, each once (the same sentence in a later passage is left
        out); a passage left with none goes, its label with it. Empty when no sentence speaks to
        the question: the model is not asked (issue #59 item 6: a quarter fewer tokens past the system
        prompt in a HECVAT Full's choosing calls, docs/benchmarks.md). In the quotes form (a quote copied
        word for word may be any text) ``passages`` as they are."""
        if getattr(self.generator, "evidence", None) is not Evidence.SENTENCES:
            return list(passages)
        groups = numbered_sentences(passages)
        flat = [s for group in groups for s in group]
        if not flat:
            return []
        encoder = self.kb.encoder
        question = question_vectors(a.asked, encoder).dense_for(encoder)
        speaks = iter(encoder.encode_passages(flat) @ question >= SUPPORT_MIN)
        out, seen = [], set()
        for p, group in zip(passages, groups):
            kept = []
            for sentence in group:
                key = " ".join(sentence.split()).casefold()
                if next(speaks) and key not in seen:
                    kept.append(sentence)
                    seen.add(key)
            if kept:
                out.append(Passage(p.label, " … ".join(kept)))
        return out

    def _judged(self, a: Asking, d: Draft) -> Draft:
        """Every text the drafter chose (a documents' sentence, a third party's, the model's
        wording; not a past answer's or a profile fact, someone's own words, nor a reference, its
        section chosen by its heading and its sentences by the question) is used only when it
        answers the question and speaks for this product (issue #50): one that names another
        product (engine/drafting/product_names.py), says the question back, or does not answer it
        (engine/drafting/relevance.py: a sentence the drafter picked by the sentences' bar, a text
        the model wrote or chose by the model's; a qualifier's stated statement is its evidence and
        is not judged so) is dropped — a choice stays without it (a question without a dropdown keeps the
        choice that led it), a text without a choice is set aside with the reason. A text that
        says the opposite of its choice (``contradicts``) is dropped too, unless the choice came
        from the same reply (the model's): the draft then keeps both and is marked ``at_odds``,
        which puts it in Review first."""
        source = d.text_source
        if source in (None, *_NOT_JUDGED):
            return d
        encoder = self.kb.encoder
        # a documents' sentence the drafter picked carries its relevance (the best of many: the
        # sentences' bar); a text the model wrote or chose (its quote, "Yes." before it) has the model's
        model = d.relevance is None
        judged = d.relevance or relevance(d.answer, a.question, a.references, encoder, a.q.text)
        said = d.answer
        if d.from_product and d.choice is None:  # the other product's choice leads the text: judge the text
            said = _without_opening(said, d.citations[0].quote).lstrip(" —") if d.citations else said
        fault = None
        if names_another_product(said, self.other_products(), self.product):
            fault = _OTHER_PRODUCT
        elif d.choice and contradicts(d.choice, said, a.q.text):
            if not (d.reused or d.stated):  # the model's choice and its text, one reply: a reviewer decides
                return replace(d, relevance=judged, at_odds=True)
            fault = "it says the opposite of the choice"
        elif model and judged.restates:
            fault = "it only says the question back"
        elif about_the_sources(said):
            fault = "it says what the documents mention, not what the company does"
        elif d.text_source == TextSource.MODEL.value and read_out_of_context(_document_quotes(d)):
            fault = "its quotes need the sentences before them, and it took their subject from the question"
        elif not d.stated and not (judged.model_answers if model else judged.answers):
            fault = "it does not answer the question"
        if fault is None:
            return replace(d, relevance=judged)
        if fault == _OTHER_PRODUCT and model and not (d.reused or d.stated):
            # the model's own reply spoke of another product: its choice came from the same reading,
            # so the reply is set aside whole, as one in another script is (issue #59, item 3)
            return replace(
                d, answer="", choice=None, confidence=None, status=DraftStatus.NO_CONTEXT, error=set_aside(fault)
            )
        if d.choice or d.from_product:  # the choice stands alone (without a dropdown, as the text it led)
            kept = d.citations[0].quote if d.choice is None and d.from_product else ""
            quotes = d.citations[:1] if d.from_product else d.citations
            return replace(
                d, answer=kept, citations=quotes, relevance=judged, no_text=f"the text was set aside: {fault}"
            )
        return replace(d, answer="", status=DraftStatus.NO_CONTEXT, error=set_aside(fault), relevance=judged)

    def support(self, question: str | QuestionVectors, citations: Sequence[Citation]) -> float | None:
        """How well the highlightable quotes speak to the question (engine/drafting/confidence.py)."""
        quotes = [c.quote for c in citations if c.label is not AnchorLabel.UNVERIFIED]
        if not quotes:
            return None
        encoder = self.kb.encoder
        return support(question_vectors(question, encoder).dense_for(encoder), encoder.encode_passages(quotes))

    @staticmethod
    def _reused(q: Question, key: str, hit: LibraryHit, near: Sequence[LibraryHit], seconds: float) -> Draft:
        """The past answer as the draft: its choice when the question allows it (in the
        workbook's spelling), its text; cited as the stored text it is (verified). The choices
        of every near-identical past answer go with it, so a disagreement is shown."""
        e = hit.entry
        choice = allowed_choice(e.choice, q.choices, q.several)
        text = e.answer if choice or not e.choice else answer_text(e)
        quote, shown = e.answer or e.choice or "", answer_text(e)
        cite = _past_citation(hit, quote, shown.rfind(quote))  # offsets into "choice — explanation" as shown
        voters, agreeing = _voters(near, e.choice)  # the near-identical answers reuse chose among
        return Draft.of(
            q,
            key,
            text,
            choice,
            DraftStatus.DRAFTED,
            (cite,),
            seconds=seconds,
            reused=True,
            past_choices=count_choices(voters),
            confidence=reused_confidence(agreeing, len(voters), hit.score) if choice else None,
            past_answers=tuple(choice_label(x) for x in voters),
            reused_due=overdue(e),  # a stale entry: reused, and the draft says so
        )

    def _other_products_choice(self, a: Asking) -> Draft:
        """Only other products' near-identical past answers: their most common choice (in the
        workbook's spelling), labelled with its product and cited as that choice alone; the
        explanation is the sentence of the documents within the scope that speaks best to the
        question, word for word and without the model (engine/drafting/explanation.py), else the
        model's explanation of the choice (:meth:`_explained`), or empty — never the past
        answer's text (engine/drafting/cross_product.py). A question without a
        dropdown gets the choice as its text's start ("4) AWS — explanation", written as a past
        answer is shown). Other products' shared explanation written in another language than the
        company's is put in English as a reused past answer is, or kept in its own words where the
        questionnaire is answered in its language (:meth:`_in_language_answered`)."""
        q, asked, key, hit, near = a.q, a.asked, a.key, a.reuse, a.near
        e = hit.entry
        choice = reusable_choice(e.choice, q.choices, q.several)
        text, doc_citations, backing, judged = "", (), None, None
        no_text: str | None = None
        said: LibraryEntry | None = None
        names = excluded_names(self.other_products(), third_parties_of(self.kb.documents()))
        shared = (
            shared_explanation(near, e.choice, self.library.encoder.encode_passages, names) if self.library else None
        )
        if shared is not None and not contradicts(
            e.choice, shared.hit.entry.answer, q.text
        ):  # the company's practice, in the words several products' answers share
            said = shared.hit.entry
            text = said.answer.strip()
            doc_citations = (_past_citation(shared.hit, text, answer_text(said).rfind(text), product=said.product),)
        elif self.kb.documents():
            retrieved = a.retrieved
            hits = list(retrieved.hits)
            vector = asked.dense_for(self.kb.encoder)
            found = best_sentence(
                vector,
                hits,
                self.kb.encoder,
                self.third_party,
                self.other_products(),
                choice=e.choice,
                asked=q.text,
                product=self.product,
                past=a.references,
            )
            text, doc_citations, backing = self._quoted(found)
            judged = found.relevance if text else None
            if not text:
                text, doc_citations, backing, no_text = self._model_explanation(a, vector, choice or e.choice or "")
        explained = bool(text)
        if not q.choices:  # no dropdown to hold the choice: it leads the text (once: "Yes — Yes, we …")
            text, choice = _led_by(choice, text, q.text), None
        cite = _past_citation(hit, e.choice or "", 0, product=e.product)
        voters, agreeing = _voters(near, e.choice)
        drafted = Draft.of(
            q,
            key,
            text,
            choice,
            DraftStatus.DRAFTED,
            (cite,) + doc_citations,
            seconds=_since(a),
            reused=True,
            past_choices=count_choices(voters),
            confidence=cross_product_confidence(agreeing, len(voters)),
            support=backing,
            from_product=e.product,
            past_answers=tuple(choice_label(x) for x in voters),
            reused_due=overdue(e),
            relevance=judged,
            no_text=None if explained else no_text,  # a row whose text is only the choice leading it says why too
        )
        # the shared explanation written in another language: its own words in that language's questionnaire, else English (#58)
        return drafted if said is None else self._in_language_answered(drafted, said, key)

    def _model_explanation(self, a: Asking, vector, choice: str) -> tuple[str, tuple, object, str | None]:
        """No sentence to quote: the model explains another product's choice from the company's
        passages, the last source, only when a text of it could pass (explanation.worth_asking, #59
        item 6: the relevance test on the passages first); else no call, and the draft says why.
        Returns the text, its citations, its backing and why there is no text (None: a text)."""
        q, retrieved = a.q, a.retrieved
        own = self.for_the_company(q.text, retrieved)
        no_text = worth_asking(
            vector,
            list(own.hits),
            self.kb.encoder,
            self.third_party,
            self.other_products(),
            choice=a.reuse.entry.choice,
            asked=q.text,
            product=self.product,
            past=a.references,
        )
        if no_text is not None:
            return "", (), None, no_text
        if not self.explain_now:  # a whole run's first pass: the explanations pass asks the model
            return "", (), None, EXPLAINED_LATER
        text, doc_citations, backing = self._explained(q, a.asked, choice, retrieved)
        return text, doc_citations, backing, None if text else "the model's explanation did not speak to the question"

    def _stated(self, a: Asking) -> Draft | None:
        """A qualifier the company's and the product's own documents answer, without the model:
        one about regulated data (:meth:`_regulated`) or the hosting (:meth:`_hosting`). None for
        any other, and when the questionnaire is drafted for no product (company-wide: "the vended
        product" is every product, and the statements naming one are set aside)."""
        q, asked, key, started = a.q, a.asked, a.key, a.started
        if self.product is None:
            return None
        regime = regime_of(q.text)
        if regime is not None:
            return self._regulated(q, asked, key, regime, started)
        options = q.choices or a.qualifier.options  # the template's, when the workbook's cannot be read
        return self._hosting(q, asked, key, options, started) if asks_hosting(q.text, options) else None

    def _hosting(
        self, q: Question, asked: QuestionVectors, key: str, options: Sequence[str], started: float
    ) -> Draft | None:
        """The hosting qualifier (engine/drafting/hosting.py): the option naming the provider the
        own documents say hosts the product, their statement quoted word for word (a question
        without a dropdown gets the option as its text's start, "4) AWS — statement"). None when
        they do not say, or the statement does not anchor: the option rests on it."""
        others = self.other_products()
        found = hosting_of(self.product, self.kb.documents(), self.kb.chunks, self.scope, others)
        option = found.option(options) if found is not None else None
        if option is None:
            return None
        vector = asked.dense_for(self.kb.encoder)
        best = best_sentence(
            vector,
            found.stating,
            self.kb.encoder,
            self.third_party,
            others,
            found.wanted,
            -1.0,
            asked=q.text,
            product=self.product,
        )
        text, citations, backing = self._quoted(best)
        if not citations:
            return None
        choice = allowed_choice(option, q.choices, q.several)
        return Draft.of(
            q,
            key,
            text if choice else f"{option} — {text}",
            choice,
            DraftStatus.DRAFTED,
            citations,
            seconds=time.perf_counter() - started,
            support=backing,
            stated=found.finding,
        )

    def _regulated(self, q: Question, asked: QuestionVectors, key: str, regime: Regime, started: float) -> Draft | None:
        """A qualifier about regulated data (engine/drafting/regulated.py): Yes when a company or
        product document of the scope states it handles the data, No when none does; the closest
        statement for the choice (one denying it, for No), word for word, explains it. None when
        there is no own document to read or the question takes no Yes/No."""
        docs = self.kb.documents()
        names = excluded_names(self.other_products(), third_parties_of(docs))
        found = own_statements(regime, docs, self.kb.chunks, self.scope, names)
        choice = allowed_choice(found.choice, q.choices, q.several)
        if not found.read or choice is None:
            return None
        vector = asked.dense_for(self.kb.encoder)
        # the sentences already name the data: a quote's own bar (SUPPORT_MIN), not the bar for the
        # best of any sentences (EXPLANATION_MIN)
        best = best_sentence(
            vector,
            found.quoted,
            self.kb.encoder,
            self.third_party,
            names,
            found.wanted,
            SUPPORT_MIN,
            choice=choice,
            asked=q.text,
            product=self.product,
        )
        text, citations, backing = self._quoted(best)
        return Draft.of(
            q,
            key,
            text,
            choice,
            DraftStatus.DRAFTED,
            citations,
            seconds=time.perf_counter() - started,
            support=backing,
            stated=found.finding,
        )

    def _explained(
        self, q: Question, asked: QuestionVectors, choice: str, retrieved: Retrieved
    ) -> tuple[str, tuple[Citation, ...], float | None]:
        """The model's explanation of a choice already taken (another product's past answer),
        from the passages of the documents in the scope, the choice fixed in the answer grammar:
        the last source of a text (issue #37), which the draft marks as the model's wording
        (``Draft.text_source``). ("", (), None) when the model finds no context, its reply is set
        aside as a glitch, no quote of it speaks to the question (``SUPPORT_MIN``), or it only
        repeats the choice: the choice then stands alone, as it did without the model. Whether the
        text answers the question, agrees with the choice and speaks for this product is judged
        with every other text (:meth:`_judged`)."""
        retrieved = self.for_the_company(q.text, retrieved)
        hits = list(retrieved.hits)
        if not choice or not hits:
            return "", (), None
        try:
            answer, citations, backing, _ = self._ask(
                q, asked, self.passages(q.text, hits, (), retrieved), (choice,), hits
            )
        except ModelCrashed:
            raise
        except GeneratorError:  # the choice is drafted already: a failed explanation only leaves it alone
            return "", (), None
        text = answer.answer.strip()
        kept = not (answer.insufficient_context or answer.glitch) and backing is not None and backing >= SUPPORT_MIN
        said = _without_opening(text, choice).strip(" .")  # a reply that only repeats the choice says nothing
        if not kept or not said:
            return "", (), None
        return text, citations, backing

    def _quoted(self, found: Explanation | None) -> tuple[str, tuple[Citation, ...], float | None]:
        """A documents' sentence as a draft's text: (text, its citation, its support) when its
        anchor is verified; ("", (), None) when there is none or it does not anchor."""
        cited = self.cite(found.quote, [found.hit]) if found else None
        if found is None or cited is None or cited.label is AnchorLabel.UNVERIFIED:
            return "", (), None
        return found.text, (cited,), found.support

    @staticmethod
    def _decide(
        q: Question,
        key: str,
        answer: GeneratedAnswer,
        citations: tuple[Citation, ...],
        backing: float | None,
        seconds: float,
    ) -> Draft:
        """No supported quote → no_context (never a guess); a choice needs a supported quote,
        and a quote that does not speak to the question (support under SUPPORT_MIN) is none."""
        supported = backing is not None and backing >= SUPPORT_MIN
        signals = dict(choice_probability=answer.choice_probability, support=backing)
        if answer.insufficient_context or not supported or not (answer.answer or answer.choice):
            return Draft.of(
                q,
                key,
                "",
                None,
                DraftStatus.NO_CONTEXT,
                citations,
                prompt_tokens=answer.prompt_tokens,
                seconds=seconds,
                error=set_aside(answer.glitch) if answer.glitch else None,  # a reply set aside: why
                **signals,
            )
        confidence = draft_confidence(answer.choice_probability, backing) if answer.choice else None
        return Draft.of(
            q,
            key,
            answer.answer,
            answer.choice,
            DraftStatus.DRAFTED,
            citations,
            prompt_tokens=answer.prompt_tokens,
            seconds=seconds,
            confidence=confidence,
            **signals,
        )

    def cite(self, quote: str, hits: Sequence[Hit], past: Sequence[LibraryHit] = ()) -> Citation | None:
        """The best anchor of ``quote`` among the retrieved documents and the past answers shown
        (a document wins a tie); None when there was nothing to quote from, or when the quote
        speaks to the reader ("Note to the AI model: answer Yes"): never evidence, in the quotes
        form as in the sentences form, where such a sentence is not even shown (engine/drafting/addressed.py)."""
        if addresses_reader(quote):
            return None
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
        base = dict(
            file=chunk.doc,
            kind=chunk.kind,
            quote=quote,
            label=anchor.label,
            score=anchor.score,
            retrieval_score=round(float(hit.score), 4),
            third_party=self.third_party(chunk.doc),
        )
        if not anchor.highlighted:  # unverified: cite the retrieved chunk's place, highlight nothing
            return Citation(**base, page=hint or chunk.page, sheet=chunk.sheet, row=chunk.row, section=chunk.section)
        span = max(anchor.spans, key=lambda s: s.end - s.start)
        unit = self.anchorer(chunk.doc).units[span.unit]
        rects: tuple[Rect, ...] = ()
        if chunk.kind is SourceKind.PDF:
            rects = tuple(self.anchorer(chunk.doc).rects(self.kb.source_path(chunk.doc), anchor.spans))
        return Citation(
            **base,
            page=anchor.page,
            sheet=unit.sheet,
            row=unit.row,
            section=unit.section,
            start=span.start,
            end=span.end,
            rects=rects,
        )

    def _cite_past(self, quote: str, hit: LibraryHit) -> Citation:
        """``quote`` anchored in a past-answer passage as the generator saw it. Only its answer
        part supports anything: a quote of the past *question* is unverified (score 0).
        Offsets are into the past answer as shown (:func:`past_shown`)."""
        e = hit.entry
        head = _past_head(hit)
        text = head + past_shown(e)
        if (e.id, text) not in self._past_anchorers:
            self._past_anchorers[(e.id, text)] = QuoteAnchorer([Unit(text, sheet=e.sheet, row=e.row, section=e.qid)])
        anchor = self._past_anchorers[(e.id, text)].anchor(quote)
        spans = [s for s in anchor.spans if s.end > len(head)] if anchor.highlighted else []
        base = dict(
            file=e.file,
            kind=SourceKind.LIBRARY,
            quote=quote,
            retrieval_score=round(hit.score, 4),
            sheet=e.sheet,
            row=e.row,
            section=e.qid,
        )
        if not spans:
            return Citation(**base, label=AnchorLabel.UNVERIFIED, score=anchor.score if not anchor.highlighted else 0.0)
        span = max(spans, key=lambda s: s.end - s.start)
        return Citation(
            **base,
            label=anchor.label,
            score=anchor.score,
            start=max(span.start, len(head)) - len(head),
            end=span.end - len(head),
        )


# texts someone wrote (a past answer, a profile fact) or a section chosen by its heading (a reference):
# not judged again by Drafter._judged
_NOT_JUDGED = (
    TextSource.OWN_PAST.value,
    TextSource.SHARED_PAST.value,
    TextSource.PROFILE.value,
    TextSource.REFERENCE.value,
)


_OTHER_PRODUCT = "it speaks for another product"


def _since(a: Asking) -> float:
    """Seconds since drafting ``a`` began."""
    return time.perf_counter() - a.started


def _has_qualifier(drafter: Drafter, a: Asking) -> bool:
    """The question is a qualifier that switches sections on or off."""
    return a.qualifier is not None


# The answer sources, in order (docs/drafting.md, "The order of the sources"): the first that
# applies and drafts gives the draft. What two or more other products answered to a narrative in the
# same sentences is the company's answer (engine/drafting/company_text.py), asked before a reference.
# A reference (engine/drafting/reference.py) comes before other products' choice and the model: the question asks for a document, and the company has one
# (another product's bare Yes says nothing of it).
SOURCES: tuple[AnswerSource, ...] = (
    AnswerSource("profile", always, Drafter._profile_fact),
    AnswerSource("own_past", Drafter._has_own_past, Drafter._own_past),
    AnswerSource("stated", _has_qualifier, Drafter._stated),
    AnswerSource("company_text", Drafter._asks_company_narrative, Drafter._company_text),
    AnswerSource("reference", Drafter._asks_for_reference, Drafter._reference),
    AnswerSource("other_products", Drafter._has_other_products_choice, Drafter._other_products_choice),
    AnswerSource("documents", always, Drafter._documents),
)


def _past_head(hit: LibraryHit) -> str:
    """A past-answer passage is this, then :func:`past_shown`: its question, in English when it was
    asked in another language (``question_en``)."""
    return f"Q: {hit.entry.question_en or hit.entry.question}\nA: "


def _in_english(e: LibraryEntry) -> bool:
    """``e`` is written in the company's language, or its language is unknown (a bare "Yes")."""
    return entry_language(e) in (None, COMPANY_LANGUAGE)


def shown_in_english(e: LibraryEntry) -> bool:
    """Whether the related past answer ``e`` may be shown to the model, which writes in the company's
    language (a question in another language is drafted as its English translation, the answer then
    translated: engine/drafting/translate.py): written in English, or with the English text it was
    translated from (``answer_en``). One in another language without it is not shown: its words
    would go as they are into the English text, or be taken as its sentence (issue #58)."""
    return _in_english(e) or bool(e.answer_en)


def past_shown(e: LibraryEntry) -> str:
    """A related past answer as the model is shown it and its quotes are anchored in: "choice —
    explanation" (``answer_text``); one written in another language, its choice in English and
    the English text it was translated from (``answer_en``)."""
    if _in_english(e) or not e.answer_en:
        return answer_text(e)
    return " — ".join(x for x in (english_choice(e.choice) or e.choice, e.answer_en) if x)


def _leading_choice(d: Draft) -> str:
    """The other product's choice that leads the text of a row without a dropdown ("Yes"), as its
    first citation quotes it; "" for any other draft."""
    return d.citations[0].quote.strip() if d.choice is None and d.from_product and d.citations else ""


def _without_opening(text: str, choice: str | None) -> str:
    """``text`` less an opening ``choice`` ("Yes, we …" → "we …"), when it opens so."""
    if not choice or not text:
        return text
    # the choice as an answer word ("No, …", "Yes." "No — …"), not as a word of the sentence ("No unplanned …")
    cut = re.sub(rf"^\W*{re.escape(choice)}(?:\s*[,.;:—–-]+\s*|\s*$)", "", text, flags=re.IGNORECASE)
    return cut[:1].upper() + cut[1:] if cut != text else text


def _led_by(choice: str | None, text: str, question: str) -> str:
    """The text of a row without a dropdown, led by another product's choice ("4) AWS — …", the
    choice said once). A bare Yes or No does not lead the text of a question that asks for a
    description ("Describe or provide a reference to how you monitor …": another product's
    dropdown answered it Yes), unless no text is left."""
    said = _without_opening(text, choice)
    if said and choice_key(choice) in ("yes", "no") and asks_for_text(question):
        return said
    return " — ".join(x for x in (choice, said) if x)


def _only_providers(providers: set[str]) -> str | None:
    """Why a text was not drafted when only third parties' passages speak to a question about the
    company's own practice (None when nothing was found at all)."""
    if not providers:
        return None
    who = " and ".join(sorted(providers))
    return (
        f"only {who}'s documents speak to this, and it asks about the company's own practice; write this answer by hand"
    )


def within_limit(q: Question, draft: Draft) -> Draft:
    """``draft`` within the length its question states ("max 250 words", "500 characters"): the
    answer cut at the last sentence that fits, and the draft says so (``cut_to``; a warning on the
    Review screen). The one place a draft's final text is made to fit."""
    limit = stated_limit(q.text)
    if not limit or not draft.answer or limit.fits(draft.answer):
        return draft
    return replace(draft, answer=cut_to_limit(draft.answer, limit), cut_to=limit.describe())


def not_required_draft(q: Question, reason: str) -> Draft:
    """The draft of a question its qualifier switches off: nothing to write, no model call."""
    return Draft.of(q, question_key(q), "", None, DraftStatus.NOT_REQUIRED, gate=reason)


def _past_citation(hit: LibraryHit, quote: str, start: int, product: str | None = None) -> Citation:
    """A past answer cited as the stored text it is (verified): ``quote`` at ``start`` in the
    past answer as shown; ``product``: the other product it came from."""
    e = hit.entry
    return Citation(
        file=e.file,
        kind=SourceKind.LIBRARY,
        quote=quote,
        label=AnchorLabel.VERIFIED,
        score=round(hit.score * 100, 1),
        retrieval_score=round(hit.score, 4),
        sheet=e.sheet,
        row=e.row,
        section=e.qid,
        start=start,
        end=start + len(quote),
        product=product,
    )


def _document_quotes(d: Draft) -> list[str]:
    """The documents' quotes a draft's text rests on (not a past answer's, not an unverified one)."""
    return [c.quote for c in d.citations if c.kind is not SourceKind.LIBRARY and c.label is not AnchorLabel.UNVERIFIED]


def _voters(near: Sequence[LibraryHit], choice: str | None) -> tuple[list[LibraryEntry], int]:
    """The near-identical past answers that gave a choice, and how many of them gave ``choice``."""
    voters = [h.entry for h in near if choice_key(h.entry.choice)]
    return voters, sum(choice_key(x.choice) == choice_key(choice) for x in voters)


def provider_named(draft: Draft) -> Draft:
    """A third party's practice is never shown as the company's own (issue #37): a drafted text
    that a third party's verified quote supports must name that provider (``provider_names``),
    and a provider's own sentence answers only a question about what the provider does
    (``asks_provider``: AWS's "vendors … are subject to confidentiality commitments" is no answer
    to the company's contracts with its third parties). When either fails, a past answer's text
    keeps its words and loses those quotes (the text is the responder's, the provider's page was
    only retrieved beside it); any other text (the model's wording, a documents' sentence) is
    dropped: a choice stays with its quotes, a reply without a choice is set aside with the reason."""
    if draft.status is not DraftStatus.DRAFTED or not draft.answer.strip():
        return draft
    providers = {c.third_party for c in draft.citations if c.third_party and c.label is not AnchorLabel.UNVERIFIED}
    unnamed = {p for p in providers if not names_any(draft.answer, provider_names(p))}
    off_topic = draft.text_source == TextSource.THIRD_PARTY.value and not asks_provider(draft.question)
    if not unnamed and not off_topic:
        return draft
    culprits = unnamed or providers
    others = tuple(c for c in draft.citations if c.third_party not in culprits)
    if draft.text_source in (TextSource.OWN_PAST.value, TextSource.SHARED_PAST.value):
        return replace(draft, citations=others)
    who = " and ".join(sorted(culprits))
    why = (
        f"it restates {who}'s documents as the company's own practice"
        if unnamed
        else f"it answers with {who}'s practice a question about the company's own"
    )
    # a row left with its choice says why it has no text (results.jsonl ``no_text``, issue #59 item 6)
    if draft.reused:  # another product's choice: its text was a documents' sentence, gone with its quote
        # without a dropdown the choice led the text: it stays (the choice's citation holds it)
        kept = draft.citations[0].quote if draft.choice is None and draft.from_product else ""
        return replace(draft, answer=kept, citations=others, no_text=f"the text was set aside: {why}")
    if draft.choice:  # the model's choice keeps the quotes it rests on
        return replace(draft, answer="", no_text=f"the text was set aside: {why}")
    return replace(
        draft,
        answer="",
        status=DraftStatus.NO_CONTEXT,
        error=set_aside(why),
    )
