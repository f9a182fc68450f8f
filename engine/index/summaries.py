"""Document summaries for Summary RAG (the Summary-RAG paper): one summary of 150–300 tokens per
document, embedded for document-level retrieval (engine/retrieval/summary_rag.py).

Two writers behind one interface (``Summarizer``):

* ``LlmSummarizer``: the local LLM (default model) writes the summary, keeping numbers, names,
  dates, versions and the document's scope of controls. A document that fits
  ``SINGLE_CALL_TOKENS`` is summarised in one call; a longer one by map-reduce: it is cut into
  at most ``MAX_SECTIONS`` consecutive sections of about equal length, each section is cut down
  to its ``SECTION_TOKENS`` most central sentences (the extractive selection below, so a
  300-page PDF costs the same few calls as a 30-page one), the model writes notes per section
  (map) and then the summary from the notes (reduce). The budget (4 map calls of ≤ 700 tokens
  in, ≤ 120 out, and one reduce) is what keeps a 300-page PDF within about two minutes on two
  cores (docs/knowledge-base.md, "Summaries").
* ``ExtractiveSummarizer``: no LLM. The document's most central sentences (TF-IDF cosine to
  the document's centroid, over the retrieval analyzer's stemmed words; near-repeats and page
  furniture skipped) up to ``EXTRACTIVE_WORDS`` words, in document order. The fallback when no
  model is available, and a benchmark mode of its own.

Summaries are plain files (``SummaryStore``): ``HASH.json`` per document (text, how it was
written, format version), written atomically as soon as each is made, so an interrupted
``kb add`` resumes with the summaries already written; the dense vector beside it
(``HASH.SLUG.TEXTSHA.npy``: embedder and text in the name, so an edited summary never meets the
vector of its old text).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path
from typing import Callable, Protocol, Sequence

import numpy as np

from engine.core.config import parse_choice
from engine.core.files import write_atomic
from engine.core.llm import GeneratorError
from engine.core.types import Unit
from engine.index.embed.sparse import analyzer
from engine.index.sentences import page_furniture, sentence_spans

SUMMARY_VERSION = 1  # the prompts and the file format; part of what makes a stored summary reusable
SUMMARY_WORDS = (150, 220)  # words asked of the model; it writes fewer (docs/knowledge-base.md, "Summaries")
EXTRACTIVE_WORDS = 180  # ≈ 230–260 tokens of English prose
SINGLE_CALL_TOKENS = 1500  # a document up to this many tokens is summarised in one call
SECTION_TOKENS = 700  # the input of one map call, at most
MAX_SECTIONS = 4  # map calls, at most
NOTE_TOKENS = 120  # the output of one map call, at most
SUMMARY_TOKENS = 400  # the output of the single or reduce call, at most
MIN_SENTENCE_WORDS = 5  # shorter "sentences" (headings, page numbers, table cells) are not summary material

SYSTEM_PROMPT = (
    "You summarise documents for a search index. A summary is one paragraph of "
    f"{SUMMARY_WORDS[0]} to {SUMMARY_WORDS[1]} words. It says what the document is and what it "
    "covers: its subject and scope (the organisation, products, systems and controls it applies "
    "to), and it keeps the document's concrete facts: numbers, names, dates, versions, standards "
    "and certifications. Use only the given text; add nothing."
)
NOTES_PROMPT = (
    "You take notes on one part of a long document for a search index: at most 80 words on what "
    "this part covers, keeping its concrete facts (numbers, names, dates, versions, standards, "
    "the scope of its controls). Use only the given text."
)


class SummaryMethod(str, Enum):
    """How a summary was written."""

    LLM = "llm"  # by the local LLM
    EXTRACTIVE = "extractive"  # the document's own central sentences
    EDITED = "edited"  # by a person (Knowledge base screen, `kb summary --set`): never rewritten

    @classmethod
    def parse(cls, value: str | SummaryMethod) -> SummaryMethod:
        return parse_choice(cls, value, "summary method")


@dataclass(frozen=True)
class Summary:
    """One document's summary and what it took to write it."""

    doc_hash: str
    text: str
    method: SummaryMethod
    model: str | None = None  # the LLM that wrote it
    sections: int = 0  # map calls (0: the document fitted one call, or no LLM)
    input_tokens: int = 0  # prompt tokens over all calls
    output_tokens: int = 0
    seconds: float = 0.0
    written: str = ""  # ISO-8601 UTC
    version: int = SUMMARY_VERSION

    @property
    def text_sha(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    def to_json(self) -> dict:
        return {**asdict(self), "method": self.method.value}

    @classmethod
    def from_json(cls, d: dict) -> Summary:
        """A summary file's object; unknown keys (from a later version) are left out."""
        known = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        return cls(**{**known, "method": SummaryMethod.parse(d["method"])})


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# ---------------------------------------------------------------- extractive selection


@dataclass(frozen=True)
class _Sentence:
    text: str
    position: int  # order in the document


def document_sentences(units: Sequence[Unit]) -> list[_Sentence]:
    """The sentences of a document's units (pages, sections, rows) in order, whitespace-normalised;
    short fragments and page furniture left out: the PDF headers and footers the quote anchorer
    skips (cut out before the sentences are split, so a header never joins the sentence under
    it), and any sentence found on three or more units."""
    furniture = page_furniture(units)
    texts = []
    for u, unit in enumerate(units):
        text = unit.text
        for start, end in sorted(furniture.get(u, ()), reverse=True):
            text = text[:start] + "\n\n" + text[end:]
        texts.append(text)
    per_unit = [[" ".join(text[a:b].split()) for a, b in sentence_spans(text)] for text in texts]
    seen_in: dict[str, int] = {}
    for sentences in per_unit:
        for s in set(sentences):
            seen_in[s] = seen_in.get(s, 0) + 1
    out: list[_Sentence] = []
    kept: set[str] = set()
    for sentences in per_unit:
        for s in sentences:
            if len(s.split()) < MIN_SENTENCE_WORDS or (seen_in[s] >= 3 and len(texts) >= 3) or s in kept:
                continue
            kept.add(s)
            out.append(_Sentence(s, len(out)))
    return out


def central_sentences(
    sentences: Sequence[_Sentence], budget: int, cost: Callable[[str], int], redundancy: float = 0.6
) -> list[_Sentence]:
    """The most central sentences within ``budget`` (by ``cost``), in document order: TF-IDF
    cosine of each sentence to the document's centroid, stemmed words as retrieval uses them;
    a sentence whose cosine to one already taken exceeds ``redundancy`` is skipped."""
    if not sentences:
        return []
    from sklearn.feature_extraction.text import TfidfVectorizer

    try:
        matrix = TfidfVectorizer(analyzer=analyzer(), sublinear_tf=True).fit_transform([s.text for s in sentences])
    except ValueError:  # no word at all: keep the first sentences
        matrix = None
    if matrix is None or matrix.shape[1] == 0:
        order = list(range(len(sentences)))
    else:
        centroid = np.asarray(matrix.mean(axis=0)).ravel()
        norm = float(np.linalg.norm(centroid)) or 1.0
        scores = np.asarray(matrix @ (centroid / norm)).ravel()
        order = list(np.argsort(-scores, kind="stable"))
    chosen: list[int] = []
    used = 0
    for i in order:
        c = cost(sentences[i].text)
        if used + c > budget and chosen:
            continue
        if matrix is not None and chosen and matrix.shape[1]:
            similar = matrix[chosen] @ matrix[i].T
            if similar.nnz and float(similar.max()) > redundancy:
                continue
        chosen.append(int(i))
        used += c
        if used >= budget:
            break
    return [sentences[i] for i in sorted(chosen)]


def words(text: str) -> int:
    return len(text.split())


def extractive_summary(units: Sequence[Unit], max_words: int = EXTRACTIVE_WORDS) -> str:
    """The document's most central sentences up to ``max_words`` words, in document order."""
    return " ".join(s.text for s in central_sentences(document_sentences(units), max_words, words))


# ---------------------------------------------------------------- summarizers


class Summarizer(Protocol):
    method: SummaryMethod
    name: str  # what writes the summaries (model name, or "extractive")

    def calls(self, units: Sequence[Unit]) -> int:
        """How many steps (LLM calls) ``summarize`` will take, for progress."""

    def summarize(
        self, doc_hash: str, title: str, units: Sequence[Unit], step: Callable[[], None] = lambda: None
    ) -> Summary:
        """The summary of one document (its units: pages, sections, rows, in order); ``step``
        after each call."""


class ExtractiveSummarizer:
    """No LLM: the document's most central sentences (see ``extractive_summary``)."""

    method = SummaryMethod.EXTRACTIVE
    name = "extractive"

    def __init__(self, max_words: int = EXTRACTIVE_WORDS) -> None:
        self.max_words = max_words

    def calls(self, units: Sequence[Unit]) -> int:
        return 1

    def summarize(
        self, doc_hash: str, title: str, units: Sequence[Unit], step: Callable[[], None] = lambda: None
    ) -> Summary:
        started = time.perf_counter()
        text = extractive_summary(units, self.max_words) or _first_words(units, self.max_words) or title
        step()
        return Summary(doc_hash, text, SummaryMethod.EXTRACTIVE, seconds=time.perf_counter() - started, written=now())


def _first_words(units: Sequence[Unit], n: int) -> str:
    return " ".join(" ".join(u.text for u in units).split()[:n])


def _schema(field: str) -> dict:
    # one line of text: the model cannot start a list or a second paragraph
    return {
        "type": "object",
        "properties": {field: {"type": "string", "pattern": '^[^\\n"]+$'}},
        "required": [field],
        "additionalProperties": False,
    }


@dataclass(frozen=True)
class _Plan:
    """The calls a document takes: one (``single``) or map sections then a reduce."""

    single: str | None
    sections: tuple[str, ...] = ()

    @property
    def calls(self) -> int:
        return 1 if self.single is not None else len(self.sections) + 1


class LlmSummarizer:
    """The local LLM writes the summary (see the module docstring for the map-reduce budget).
    ``chat`` is a generator with ``chat_json`` (``engine.drafting.generate``) or a function returning one,
    called only when a summary has to be written (a resumed run with every summary written
    loads no model)."""

    method = SummaryMethod.LLM

    def __init__(
        self,
        chat,
        single_tokens: int = SINGLE_CALL_TOKENS,
        section_tokens: int = SECTION_TOKENS,
        max_sections: int = MAX_SECTIONS,
    ) -> None:
        self._chat = chat
        self.single_tokens, self.section_tokens, self.max_sections = single_tokens, section_tokens, max_sections
        self._plans: dict[tuple, _Plan] = {}

    @property
    def chat(self):
        if callable(self._chat) and not hasattr(self._chat, "chat_json"):
            self._chat = self._chat()
        if not hasattr(self._chat, "chat_json"):
            raise GeneratorError(
                type(self._chat).__name__,
                "cannot write summaries (it has no chat_json)",
                "use a model from engine.drafting.generate.make_generator, or extractive summaries",
            )
        return self._chat

    @property
    def name(self) -> str:
        return self.chat.name

    def count(self, text: str) -> int:
        """Tokens of ``text`` by the model's tokenizer when it has one (else ≈ 4 characters a token)."""
        counter = getattr(self._chat, "count_tokens", None) if hasattr(self._chat, "chat_json") else None
        return counter(text) if counter else max(1, math.ceil(len(text) / 4))

    def plan(self, units: Sequence[Unit]) -> _Plan:
        sentences = document_sentences(units)
        whole = " ".join(s.text for s in sentences) or _first_words(units, 2 * SUMMARY_WORDS[1])
        total = self.count(whole)
        if total <= self.single_tokens:
            return _Plan(whole)
        n = min(self.max_sections, math.ceil(total / self.section_tokens))
        # consecutive sections of about equal length (in characters), each cut down to its
        # most central sentences within the section budget
        sizes = np.cumsum([len(s.text) for s in sentences])
        bounds = np.searchsorted(sizes, np.linspace(0, sizes[-1], n + 1)[1:-1])
        parts = np.split(np.arange(len(sentences)), bounds)
        sections = []
        for part in parts:
            chosen = central_sentences([sentences[i] for i in part], self.section_tokens, self.count)
            if chosen:
                sections.append(" ".join(s.text for s in chosen))
        return _Plan(None, tuple(sections))

    def calls(self, units: Sequence[Unit]) -> int:
        plan = self._plans.pop(_key(units), None) or self.plan(units)
        self._plans[_key(units)] = plan  # summarize() takes it: a long document is planned once
        return plan.calls

    def summarize(
        self, doc_hash: str, title: str, units: Sequence[Unit], step: Callable[[], None] = lambda: None
    ) -> Summary:
        chat = self.chat
        started = time.perf_counter()
        plan = self._plans.pop(_key(units), None) or self.plan(units)
        tokens_in = tokens_out = 0

        def ask(system: str, user: str, field: str, max_tokens: int) -> str:
            nonlocal tokens_in, tokens_out
            messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
            reply = chat.chat_json(messages, _schema(field), max_tokens=max_tokens)
            tokens_in += reply.prompt_tokens
            tokens_out += reply.completion_tokens
            step()
            return _field(reply.text, field)

        if plan.single is not None:
            text = ask(
                SYSTEM_PROMPT, f"Document: {title}\n\n{plan.single}\n\nWrite the summary.", "summary", SUMMARY_TOKENS
            )
        else:
            notes = []
            for i, section in enumerate(plan.sections, 1):
                note = ask(
                    NOTES_PROMPT,
                    f"Document: {title}, part {i} of {len(plan.sections)}\n\n{section}\n\nWrite the notes.",
                    "notes",
                    NOTE_TOKENS,
                )
                if note:
                    notes.append(f"Part {i}: {note}")
            text = ask(
                SYSTEM_PROMPT,
                f"Document: {title}\nNotes on its {len(plan.sections)} parts, in order:\n\n"
                + "\n".join(notes)
                + "\n\nWrite the summary of the whole document.",
                "summary",
                SUMMARY_TOKENS,
            )
        if not text or not _is_prose(text):
            # an empty or unparsable reply, or a heading and no sentence (the model gave back the
            # title, seen on BEIR SciFact): the document's own sentences
            text = extractive_summary(units) or title
        return Summary(
            doc_hash,
            text,
            SummaryMethod.LLM,
            model=chat.name,
            sections=len(plan.sections),
            input_tokens=tokens_in,
            output_tokens=tokens_out,
            seconds=time.perf_counter() - started,
            written=now(),
        )


def _is_prose(text: str) -> bool:
    """Whether ``text`` has a sentence: a full stop, question or exclamation mark (a summary
    of a heading's shape, e.g. the document's title given back, has none)."""
    return re.search(r"[.!?]", text) is not None


def _key(units: Sequence[Unit]) -> tuple:
    return tuple(hashlib.sha1(u.text.encode("utf-8")).digest() for u in units)


def _field(raw: str, field: str) -> str:
    try:
        value = json.loads(raw, strict=False)
    except ValueError:
        # a reply cut off by max_tokens inside the string: keep what was written, to the last sentence
        found = re.match(r'\s*\{\s*"' + field + r'"\s*:\s*"(.*)', raw or "", re.S)
        if not found:
            return ""
        text = found.group(1)
        cut = max(text.rfind(". "), text.rfind('."'), text.rfind("."))
        return " ".join((text[: cut + 1] if cut > 0 else text).split())
    text = value.get(field) if isinstance(value, dict) else None
    return " ".join(text.split()) if isinstance(text, str) else ""


def summarizer_for(kind: str, chat=None) -> Summarizer:
    """``"llm"`` (with ``chat``: a generator or a function returning one) or ``"extractive"``."""
    method = SummaryMethod.parse(kind)
    if method is SummaryMethod.EXTRACTIVE:
        return ExtractiveSummarizer()
    if method is SummaryMethod.LLM:
        if chat is None:
            raise ValueError("an LLM summarizer needs a model (--model or --llm-url)")
        return LlmSummarizer(chat)
    raise ValueError(f"summaries cannot be written by the method {method.value!r}; use llm or extractive")


# ---------------------------------------------------------------- the store


class SummaryStoreError(Exception):
    """A summary file that cannot be read; the message names it and the fix."""


class SummaryStore:
    """``FOLDER/HASH.json`` (one summary per document) and ``FOLDER/HASH.SLUG.TEXTSHA.npy``
    (its dense vector for an embedder). Files are written atomically."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)

    def path(self, doc_hash: str) -> Path:
        return self.folder / f"{doc_hash}.json"

    def get(self, doc_hash: str) -> Summary | None:
        path = self.path(doc_hash)
        if not path.is_file():
            return None
        try:
            d = json.loads(path.read_text(encoding="utf-8"))
            summary = Summary.from_json(d)
        except (ValueError, KeyError, TypeError) as exc:
            raise SummaryStoreError(
                f"{path}: the summary file is damaged ({exc}); delete it and it is written again "
                "on the next `kb reindex`"
            ) from None
        return summary if summary.version == SUMMARY_VERSION or summary.method is SummaryMethod.EDITED else None

    def put(self, summary: Summary) -> Summary:
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path(summary.doc_hash), json.dumps(summary.to_json(), indent=1, ensure_ascii=False))
        return summary

    def vector(self, summary: Summary, encoder) -> np.ndarray:
        """The summary's dense vector by ``encoder`` (computed once, then read from its file);
        vectors of the document's older texts or other embedders' are removed."""
        slug = embedder_slug(encoder.name)
        path = self.folder / f"{summary.doc_hash}.{slug}.{summary.text_sha[:16]}.npy"
        if path.is_file():
            return np.load(path, allow_pickle=False)
        vector = encoder.encode_passages([summary.text])[0]
        self.folder.mkdir(parents=True, exist_ok=True)
        save_npy(path, vector)
        for old in self.folder.glob(f"{summary.doc_hash}.{slug}.*.npy"):
            if old != path:
                old.unlink(missing_ok=True)
        return vector

    def collect(self, keep: set[str]) -> None:
        """Remove the summaries (and vectors) of documents not in ``keep``."""
        if not self.folder.is_dir():
            return
        for f in self.folder.iterdir():
            if f.name.split(".", 1)[0] not in keep and not f.name.startswith("."):
                f.unlink(missing_ok=True)


def embedder_slug(embedder: str) -> str:
    """A short stable name for an embedder, in the names of the vector files it made."""
    return hashlib.sha1(embedder.encode()).hexdigest()[:10]


def save_npy(path: Path, array: np.ndarray) -> None:
    """``np.save`` through the one atomic write (engine/core/files.py): a kill never leaves half a file."""
    write_atomic(path, lambda f: np.save(f, np.asarray(array, dtype=np.float32)))


def edited(summary: Summary | None, doc_hash: str, text: str) -> Summary:
    """A person's text as the document's summary."""
    text = " ".join(text.split())
    if not text:
        raise ValueError("the summary is empty; write what the document is about, or keep the current summary")
    base = summary or Summary(doc_hash, text, SummaryMethod.EDITED)
    return replace(base, text=text, method=SummaryMethod.EDITED, written=now(), version=SUMMARY_VERSION)
