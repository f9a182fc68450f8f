"""Ask one document: Embedding-Free RAG (the embedding-free paper), its Algorithm 1 with
Algorithm 2. No embeddings and no retrieval index: the local LLM reads the document itself.

1. The document's sentences (the anchorer's, ``engine.index.sentences.sentence_spans``) are grouped
   into subdocuments ("parts") of at most ``subdoc_words`` words (default 3,000), whole
   sentences only.
2. For each part the LLM writes, through a JSON schema, word-for-word quotes of that part that
   answer the question, or none (``Evidence.QUOTES``). The structured variant (the paper's
   section 2.4.3, ``Evidence.SENTENCES``) shows the part one numbered sentence per line and the
   LLM returns the numbers.
3. Each quote is anchored with the project's ``QuoteAnchorer`` (RapidFuzz): verified,
   repaired, or unverified — unverified quotes are dropped (and reported). A sentence number
   is its sentence.
4. Each anchor becomes a window of ±``window`` sentences (default 5); overlapping or touching
   windows are merged (Algorithm 2, ``QuoteAnchorer.windows``). Each merged window is an
   ``Excerpt`` with its file, page(s), character offsets into its page / section / row, and
   (PDFs) PyMuPDF highlight boxes.
5. The answer is generated from the numbered excerpts and cites them ([1], [2]). When nothing
   was found the answer is ``NOTHING`` and the model is not called again.

Speed. The part comes before the question in the prompt, so llama.cpp reuses the part's KV
prefix when a second question is asked of it: ``chat_json(..., context=KEY)`` names the part,
and the llama.cpp backend keeps each part's KV state (engine/drafting/generate/prefix_states.py). A
question after the first one costs only its own tokens and the reply. With an
OpenAI-compatible server (``--llm-url``) the parts can be read by ``workers`` concurrent
requests (the paper's parallel variant; start the server with as many slots).

Long documents report progress per part (``Progress``) and stop between parts when the
``cancel`` event is set (``AskCancelled``). ``AskService`` runs asks in background threads
for the app.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable, Sequence

from engine.core.llm import JsonChat
from engine.core.location import SHORT, Location
from engine.core.types import FileProblem, LoadedDocument, Progress, SourceKind, Unit, no_progress
from engine.drafting.anchoring import Anchor, AnchorLabel, QuoteAnchorer, SourceSpan, Window
from engine.drafting.generate.prompt import Evidence, _json_object, approx_tokens
from engine.drafting.records import Citation, Rect
from engine.ingest import load_document

SUBDOC_WORDS = 3000  # the paper's subdocument size
WINDOW = 5  # sentences either side of an anchor (the paper's w)
MAX_EVIDENCE = 3  # quotes (or sentence numbers) per part
QUOTE_CHARS = 300
MIN_QUOTE_CHARS = 12  # a shorter "quote" (" ", "Yes") supports nothing; the grammar forbids it
MAX_QUESTION_CHARS = 1000
ANSWER_CHARS = 600
ANSWER_BUDGET = 3000  # tokens of excerpts shown to the answer step, at most
CONTEXT_TOKENS = 8192  # llama.cpp context for a 3,000-word part, the prompt and the reply
NOTHING = "Nothing in this document answers it."
_WORD = re.compile(r"[^\W_]+")
_CITE = re.compile(r"\[(\d+)\]")


class AskError(FileProblem):
    """A document or question that cannot be asked: names the file, the problem and the fix."""


class AskCancelled(Exception):
    """The ask was stopped between two parts (``cancel`` was set)."""


@dataclass(frozen=True)
class AskOptions:
    """How a document is read (one ``DocumentAsker`` per document and options) and how much of
    it an excerpt shows (``window``, per ask)."""

    window: int = WINDOW
    subdoc_words: int = SUBDOC_WORDS
    evidence: Evidence = Evidence.QUOTES
    workers: int = 1  # parts read at once (an LLM server with that many slots)
    max_evidence: int = MAX_EVIDENCE

    @property
    def reading(self) -> tuple:
        """What decides the prompts (and so the KV states): every option but the window."""
        return (self.evidence, self.subdoc_words, self.max_evidence)

    def __post_init__(self) -> None:
        object.__setattr__(self, "evidence", Evidence.parse(self.evidence))
        if self.window < 0:
            raise ValueError(
                f"window {self.window} is negative; use 0 (the anchored sentences only) or more (default {WINDOW})"
            )
        if self.subdoc_words < 50:
            raise ValueError(
                f"subdoc_words {self.subdoc_words} is under 50; use a few thousand words (default {SUBDOC_WORDS})"
            )
        if self.workers < 1:
            raise ValueError(f"workers {self.workers} is under 1; use 1 (in process) or the LLM server's slot count")
        if not 1 <= self.max_evidence <= 10:
            raise ValueError(f"max_evidence {self.max_evidence} is outside 1–10; use {MAX_EVIDENCE}")


def check_question(question: str) -> str:
    """The question, stripped; refused when empty or longer than ``MAX_QUESTION_CHARS``."""
    text = " ".join((question or "").split())
    if not text:
        raise AskError("question", "is empty", "type the question to ask the document")
    if len(text) > MAX_QUESTION_CHARS:
        raise AskError(
            "question",
            f"is {len(text):,} characters long; a question is at most {MAX_QUESTION_CHARS:,}",
            "ask one short question (paste long text into the knowledge base as a document instead)",
        )
    return text


# ---- the document ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Part:
    """A subdocument: sentences ``first..last`` of the document, ``words`` words."""

    index: int
    first: int
    last: int
    words: int


class AskDocument:
    """One document prepared for asking: its units, the anchorer over them (sentences, quote
    matching) and its parts. Build once per document; ask many questions."""

    def __init__(
        self, name: str, kind: SourceKind, units: Sequence[Unit], *, source: Path | None = None, key: str | None = None
    ) -> None:
        self.name, self.kind, self.units = name, kind, tuple(units)
        self.source = source  # the PDF the highlight boxes are measured in (None: no boxes)
        text = "\n".join(u.text for u in self.units)
        self.key = key or hashlib.sha256(text.encode("utf-8")).hexdigest()  # names its KV states
        if not text.strip():
            raise AskError(
                name,
                "has no text to read (an empty file, or a scanned PDF without a text layer)",
                "run OCR on it and add it again, or ask another document",
            )
        self.anchorer = QuoteAnchorer(self.units, window=0)
        self._parts: dict[int, tuple[Part, ...]] = {}

    @classmethod
    def from_loaded(cls, doc: LoadedDocument, source: Path | None = None, key: str | None = None) -> AskDocument:
        return cls(doc.name, doc.kind, doc.units, source=source if doc.kind is SourceKind.PDF else None, key=key)

    @classmethod
    def from_file(cls, path: Path) -> AskDocument:
        """A file on disk (any format the knowledge base reads); IngestError when it cannot be read."""
        return cls.from_loaded(load_document(Path(path)), Path(path))

    @classmethod
    def from_kb(cls, kb, name: str) -> AskDocument:
        """A knowledge-base document by name (KnowledgeBaseError when there is none)."""
        info = kb.document(name)
        source = kb.source_path(name) if info.kind is SourceKind.PDF else None
        return cls(info.name, info.kind, kb.units(name), source=source, key=info.doc_hash)

    @property
    def sentences(self) -> int:
        return len(self.anchorer.sentences)

    def sentence(self, i: int) -> str:
        return " ".join(self.anchorer.sentence_text(i).split())

    def parts(self, words: int = SUBDOC_WORDS) -> tuple[Part, ...]:
        """Whole sentences grouped into parts of at most ``words`` words (a longer sentence is
        a part of its own)."""
        if words not in self._parts:
            parts: list[Part] = []
            first, count = 0, 0
            for i in range(self.sentences):
                n = len(_WORD.findall(self.anchorer.sentence_text(i)))
                if count and count + n > words:
                    parts.append(Part(len(parts), first, i - 1, count))
                    first, count = i, 0
                count += n
            if self.sentences:
                parts.append(Part(len(parts), first, self.sentences - 1, count))
            if not parts:
                raise AskError(self.name, "has no sentences to read", "ask a document with text in it")
            self._parts[words] = tuple(parts)
        return self._parts[words]

    def sentence_anchor(self, i: int) -> Anchor:
        """Sentence ``i`` as an anchor (the structured variant: the number is the evidence)."""
        spans = self.anchorer.window_spans(i, i)
        text = self.anchorer.text_of(spans)
        return Anchor(text, AnchorLabel.VERIFIED, 100.0, spans, text, i, (i, i), (i, i))

    def part_text(self, part: Part) -> str:
        """The part's source text as it stands (quotes are copied from it)."""
        return self.anchorer.text_of(self.anchorer.window_spans(part.first, part.last))


# ---- prompts ----------------------------------------------------------------------------------
def _quotes_system(k: int) -> str:
    return (
        "You find where a document answers a question. You are given one part of a document, then the question.\n"
        f"Reply in JSON: quotes — up to {k} passages of this part that answer the question or are needed to "
        "answer it, most relevant first. Copy each passage word for word: one or two whole sentences, the same "
        'words in the same order. If nothing in this part answers the question, reply {"quotes": []}. '
        "Never write anything that is not in the document."
    )


def _sentences_system(k: int) -> str:
    return (
        "You find where a document answers a question. You are given one part of a document, one sentence per "
        "line, each labelled S1, S2, …, then the question.\n"
        f"Reply in JSON: sentences — the labels of up to {k} sentences of this part that answer the question or "
        "are needed to answer it, most relevant first. If nothing in this part answers the question, reply "
        '{"sentences": []}.'
    )


ANSWER_SYSTEM = (
    "You answer a question about one document from numbered excerpts of it. Use only the excerpts, never "
    "outside knowledge.\n"
    "Reply in JSON: answer — one to three sentences that answer the question, citing the excerpts they rest on "
    "as [1], [2]; cites — the numbers of those excerpts. If the excerpts do not answer the question, the answer "
    f'is exactly "{NOTHING}" and cites is [].'
)


@dataclass(frozen=True)
class PartPrompt:
    """What one part and one question send to the model."""

    part: int
    messages: tuple[dict, ...]
    schema: dict
    max_tokens: int
    context: str  # the KV-state key of the part (the prompt prefix before the question)


def part_prompt(doc: AskDocument, part: Part, n_parts: int, question: str, options: AskOptions) -> PartPrompt:
    k = options.max_evidence
    head = f"Document {doc.name}, part {part.index + 1} of {n_parts}:\n\n"
    if options.evidence is Evidence.QUOTES:
        system, body = _quotes_system(k), doc.part_text(part)
        item = {"type": "string", "minLength": MIN_QUOTE_CHARS, "maxLength": QUOTE_CHARS}
        field_name, max_tokens = "quotes", k * (QUOTE_CHARS // 3) + 24
    else:
        system = _sentences_system(k)
        count = part.last - part.first + 1
        body = "\n".join(f"S{j + 1}. {doc.sentence(part.first + j)}" for j in range(count))
        item = {"enum": [f"S{j + 1}" for j in range(count)]}
        field_name, max_tokens = "sentences", 8 * k + 16
    schema = {
        "type": "object",
        "properties": {field_name: {"type": "array", "items": item, "maxItems": k}},
        "required": [field_name],
        "additionalProperties": False,
    }
    user = f"{head}{body}\n\nQuestion: {question}"
    context = f"ask:{doc.key}:{options.evidence.value}:{options.subdoc_words}:{k}:{part.index}"
    return PartPrompt(
        part.index,
        ({"role": "system", "content": system}, {"role": "user", "content": user}),
        schema,
        max_tokens,
        context,
    )


def parse_evidence(raw: str, evidence: Evidence) -> tuple[str, ...]:
    """The quotes (or sentence labels) of a reply, stripped, duplicates removed; () for
    anything that is not the expected JSON."""
    data = _json_object(raw)
    items = data.get(evidence.value) if data else None
    if not isinstance(items, list):
        return ()
    return tuple(dict.fromkeys(str(x).strip() for x in items if isinstance(x, (str, int)) and str(x).strip()))


# ---- what was found ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Reading:
    """What the model pointed at in one part for one question."""

    part: int
    evidence: tuple[str, ...]  # quotes as written, or labels "S3" (numbered within the part)
    seconds: float
    prompt_tokens: int = 0
    completion_tokens: int = 0
    first: bool = True  # the part was read for the first time (no KV prefix to reuse)


@dataclass(frozen=True)
class Found:
    """Every part's reading, the anchors they gave (verified or repaired only) and the quotes
    that were not found in the document (unverified: dropped)."""

    readings: tuple[Reading, ...]
    anchors: tuple[Anchor, ...]
    dropped: tuple[str, ...]
    seconds: float

    @property
    def first(self) -> bool:
        return any(r.first for r in self.readings)


@dataclass(frozen=True)
class Excerpt:
    """A merged window of sentences (Algorithm 2): ``spans`` give its exact place, one per
    unit (page, section, row) it covers: ``units[span.unit].text[span.start:span.end]``."""

    number: int  # [n] in the answer
    file: str
    kind: SourceKind
    text: str
    spans: tuple[SourceSpan, ...]
    sentences: tuple[int, int]  # first and last sentence of the document
    evidence: tuple[str, ...]  # the quotes (or sentences) that led to it
    label: AnchorLabel  # verified when one of its anchors is verbatim, else repaired
    score: float  # the best anchor score, 0–100
    rects: tuple[Rect, ...] = ()  # PDF highlight boxes (page, x0, y0, x1, y1), one per line
    focus: tuple[int, ...] = ()  # the pages of the quoted sentences themselves (a window may run over more)
    sheet: str | None = None  # sheet, row and section of the unit holding most of the excerpt
    row: int | None = None
    section: str | None = None

    @property
    def page(self) -> int | None:
        """The page holding most of the excerpt (None outside PDFs)."""
        return max(self.spans, key=lambda s: s.end - s.start).page if self.spans else None

    @property
    def pages(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(s.page for s in self.spans if s.page is not None))

    @property
    def location(self) -> Location:
        """Its pages (PDF), or the sheet and row or section of the unit holding most of it."""
        return Location(self.file, self.kind, self.pages, self.sheet, self.row, self.section)

    def where(self) -> str:
        """Its place as the answer names it ("p. 3", "pp. 3–4", "sheet S, row R", "section X")."""
        return self.location.label(SHORT)

    def citation(self) -> Citation:
        """The excerpt as a draft citation: its longest span's offsets; in a PDF, the page of its
        quoted sentences and the boxes on that page (and the next, when the quote runs over), so
        the viewer opens where the quote is, not where a long window starts."""
        main = max(self.spans, key=lambda s: s.end - s.start)
        rects = tuple(r for r in self.rects if r[0] in self.focus) or self.rects
        page = self.focus[0] if self.focus else self.page
        return Citation(
            file=self.file,
            kind=self.kind,
            quote=self.text,
            label=self.label,
            score=self.score,
            retrieval_score=round(self.score / 100, 4),
            page=page,
            sheet=self.sheet,
            row=self.row,
            section=self.section,
            start=main.start,
            end=main.end,
            rects=rects,
        )

    def to_json(self) -> dict:
        return {
            "number": self.number,
            "file": self.file,
            "kind": self.kind.value,
            "page": self.page,
            "pages": list(self.pages),
            "sheet": self.sheet,
            "row": self.row,
            "section": self.section,
            "spans": [{"unit": s.unit, "page": s.page, "start": s.start, "end": s.end} for s in self.spans],
            "sentences": list(self.sentences),
            "focus_pages": list(self.focus),
            "label": self.label.value,
            "score": self.score,
            "evidence": list(self.evidence),
            "text": self.text,
            "rects": [list(r) for r in self.rects],
        }


@dataclass(frozen=True)
class AskTiming:
    seconds: float  # the whole ask
    excerpts_seconds: float  # reading the parts, anchoring, windows
    answer_seconds: float
    first: bool  # a part was read for the first time (later questions reuse its KV prefix)
    parts: int
    prompt_tokens: int
    completion_tokens: int


@dataclass(frozen=True)
class AskResult:
    file: str
    question: str
    evidence: Evidence
    answer: str
    cited: tuple[int, ...]  # excerpt numbers the answer rests on
    excerpts: tuple[Excerpt, ...]
    dropped: tuple[str, ...]  # quotes the model wrote that are not in the document
    timing: AskTiming

    @property
    def found(self) -> bool:
        return bool(self.excerpts)

    def to_json(self) -> dict:
        t = self.timing
        return {
            "file": self.file,
            "question": self.question,
            "evidence": self.evidence.value,
            "answer": self.answer,
            "found": self.found,
            "cited": list(self.cited),
            "excerpts": [e.to_json() for e in self.excerpts],
            "dropped_quotes": list(self.dropped),
            "parts": t.parts,
            "first_question": t.first,
            "seconds": round(t.seconds, 3),
            "excerpts_seconds": round(t.excerpts_seconds, 3),
            "answer_seconds": round(t.answer_seconds, 3),
            "prompt_tokens": t.prompt_tokens,
            "completion_tokens": t.completion_tokens,
        }


# ---- asking -----------------------------------------------------------------------------------
class DocumentAsker:
    """Asks questions of one document with one model. Remembers which parts it has read, so a
    question's timing says whether it was the first (the parts' KV prefixes were new)."""

    def __init__(self, doc: AskDocument, chat: JsonChat, options: AskOptions = AskOptions()) -> None:
        self.doc, self.chat, self.options = doc, chat, options
        self._read: set[str] = set()
        self._checked: set[str] = set()
        self._lock = threading.Lock()

    @cached_property
    def parts(self) -> tuple[Part, ...]:
        return self.doc.parts(self.options.subdoc_words)

    def ask(
        self,
        question: str,
        *,
        window: int | None = None,
        answer: bool = True,
        progress: Progress = no_progress,
        cancel: threading.Event | None = None,
    ) -> AskResult:
        """Algorithm 1 with Algorithm 2: read every part, anchor, window and merge, answer
        (``answer=False``: the excerpts only, as the benchmark scores them)."""
        question = check_question(question)
        started = time.perf_counter()
        found = self.find(question, progress=progress, cancel=cancel)
        excerpts = self.excerpts(found, window)
        answer_started = time.perf_counter()
        if excerpts and answer:
            answer, cited, p_tokens, c_tokens = self.answer(question, excerpts)
        else:
            answer, cited, p_tokens, c_tokens = (NOTHING if not excerpts else ""), (), 0, 0
        done = time.perf_counter()
        timing = AskTiming(
            done - started,
            answer_started - started,
            done - answer_started,
            found.first,
            len(self.parts),
            sum(r.prompt_tokens for r in found.readings) + p_tokens,
            sum(r.completion_tokens for r in found.readings) + c_tokens,
        )
        return AskResult(self.doc.name, question, self.options.evidence, answer, cited, excerpts, found.dropped, timing)

    # -- step 1–3: read the parts, anchor what the model points at
    def find(self, question: str, *, progress: Progress = no_progress, cancel: threading.Event | None = None) -> Found:
        question = check_question(question)
        started = time.perf_counter()
        parts = self.parts
        prompts = [part_prompt(self.doc, p, len(parts), question, self.options) for p in parts]
        for prompt in prompts:
            self._check_fits(prompt)
        progress("reading parts", 0, len(parts))
        readings: list[Reading | None] = [None] * len(parts)
        if self.options.workers > 1 and len(parts) > 1:
            self._read_concurrently(prompts, readings, progress, cancel)
        else:
            for i, prompt in enumerate(prompts):
                if cancel is not None and cancel.is_set():
                    raise AskCancelled(f"stopped after reading {i} of {len(parts)} parts of {self.doc.name}")
                readings[i] = self._read_part(i, prompt)
                progress("reading parts", i + 1, len(parts))
        done = tuple(r for r in readings if r is not None)
        anchors, dropped = self.anchor(done)
        return Found(done, anchors, dropped, time.perf_counter() - started)

    def _read_concurrently(self, prompts, readings, progress, cancel) -> None:
        counter = itertools.count(1)
        with ThreadPoolExecutor(max_workers=self.options.workers, thread_name_prefix="ask-part") as pool:
            futures = {pool.submit(self._read_part, i, p): i for i, p in enumerate(prompts)}
            try:
                for future in as_completed(futures):
                    readings[futures[future]] = future.result()
                    progress("reading parts", next(counter), len(prompts))
                    if cancel is not None and cancel.is_set():
                        raise AskCancelled(f"stopped while reading the {len(prompts)} parts of {self.doc.name}")
            except BaseException:
                for f in futures:
                    f.cancel()
                raise

    def _read_part(self, i: int, prompt: PartPrompt) -> Reading:
        with self._lock:
            first = prompt.context not in self._read
        reply = self.chat.chat_json(
            list(prompt.messages), prompt.schema, max_tokens=prompt.max_tokens, context=prompt.context
        )
        with self._lock:
            self._read.add(prompt.context)
        evidence = parse_evidence(reply.text, self.options.evidence)[: self.options.max_evidence]
        return Reading(i, evidence, reply.seconds, reply.prompt_tokens, reply.completion_tokens, first)

    def _check_fits(self, prompt: PartPrompt) -> None:
        """A part must fit the model's context with its reply (checked once per part, when the
        backend can count tokens)."""
        count, n_ctx = getattr(self.chat, "count_tokens", None), getattr(self.chat, "n_ctx", None)
        if count is None or n_ctx is None or prompt.context in self._checked:
            return
        tokens = sum(count(m["content"]) + 8 for m in prompt.messages) + prompt.max_tokens
        if tokens > n_ctx:
            words = self.options.subdoc_words
            smaller = max(50, int(words * n_ctx / tokens * 0.9) // 50 * 50)
            raise AskError(
                self.doc.name,
                f"part {prompt.part + 1} of {len(self.parts)} needs {tokens:,} tokens with "
                f"the question and the reply; the model reads at most {n_ctx:,}",
                f"use smaller parts (--subdoc-words {smaller}) or a model context of {tokens:,} tokens or more",
            )
        self._checked.add(prompt.context)

    def anchor(self, readings: Sequence[Reading]) -> tuple[tuple[Anchor, ...], tuple[str, ...]]:
        """The anchors of the readings' evidence (highlighted ones) and the dropped quotes."""
        anchors: list[Anchor] = []
        dropped: list[str] = []
        for r in readings:
            part = self.parts[r.part]
            for item in r.evidence:
                if self.options.evidence is Evidence.SENTENCES:
                    label = item.upper().removeprefix("S")
                    if label.isdigit() and 1 <= int(label) <= part.last - part.first + 1:
                        anchors.append(self.doc.sentence_anchor(part.first + int(label) - 1))
                    continue
                a = self.doc.anchorer.anchor(item)
                if a.highlighted:
                    anchors.append(a)
                else:
                    dropped.append(item)
        return tuple(anchors), tuple(dropped)

    # -- step 4: windows, merged (Algorithm 2)
    def excerpts(self, found: Found, window: int | None = None) -> tuple[Excerpt, ...]:
        w = self.options.window if window is None else window
        anchors = list(found.anchors)
        windows = self.doc.anchorer.windows(anchors, w)
        return tuple(self._excerpt(n, win, [anchors[i] for i in win.anchors]) for n, win in enumerate(windows, 1))

    def _excerpt(self, number: int, win: Window, anchors: list[Anchor]) -> Excerpt:
        doc = self.doc
        unit = doc.units[max(win.spans, key=lambda s: s.end - s.start).unit]  # where its citation points
        label = AnchorLabel.VERIFIED if any(a.label is AnchorLabel.VERIFIED for a in anchors) else AnchorLabel.REPAIRED
        rects = tuple(doc.anchorer.rects(doc.source, win.spans)) if doc.source is not None else ()
        focus = tuple(sorted({s.page for a in anchors for s in a.spans if s.page is not None}))
        return Excerpt(
            number,
            doc.name,
            doc.kind,
            win.text,
            win.spans,
            (win.first, win.last),
            tuple(dict.fromkeys(a.quote for a in anchors)),
            label,
            max(a.score for a in anchors),
            rects,
            focus,
            unit.sheet,
            unit.row,
            unit.section,
        )

    # -- step 5: the answer from the excerpts
    def answer(self, question: str, excerpts: Sequence[Excerpt]) -> tuple[str, tuple[int, ...], int, int]:
        """(answer, cited excerpt numbers, prompt tokens, completion tokens)."""
        count = getattr(self.chat, "count_tokens", approx_tokens)
        shown, used = [], 0
        for e in excerpts:
            cost = count(e.text)
            if shown and used + cost > ANSWER_BUDGET:
                break
            shown.append(e)
            used += cost
        blocks = "\n\n".join(
            f"[{e.number}]{' (' + e.where() + ')' if e.where() else ''}\n{' '.join(e.text.split())}" for e in shown
        )
        numbers = [e.number for e in shown]
        schema = {
            "type": "object",
            "properties": {
                "answer": {"type": "string", "minLength": 1, "maxLength": ANSWER_CHARS},
                "cites": {"type": "array", "items": {"enum": numbers}, "maxItems": len(numbers)},
            },
            "required": ["answer", "cites"],
            "additionalProperties": False,
        }
        messages = [
            {"role": "system", "content": ANSWER_SYSTEM},
            {"role": "user", "content": f"Excerpts of {self.doc.name}:\n\n{blocks}\n\nQuestion: {question}"},
        ]
        reply = self.chat.chat_json(messages, schema, max_tokens=ANSWER_CHARS // 3 + 40)
        data = _json_object(reply.text) or {}
        answer = " ".join(str(data.get("answer") or "").split()) or NOTHING
        cited = {int(c) for c in data.get("cites") or () if isinstance(c, int) and c in numbers}
        cited |= {int(m) for m in _CITE.findall(answer) if int(m) in numbers}
        if answer == NOTHING:
            cited = set()
        return answer, tuple(sorted(cited)), reply.prompt_tokens, reply.completion_tokens


# ---- background asks for the app ----------------------------------------------------------------
@dataclass
class AskRun:
    """One ask running in a background thread: its progress, then its result or its error."""

    id: int
    file: str
    question: str
    done: int = 0
    total: int = 0
    result: AskResult | None = None
    error: str | None = None
    cancelled: bool = False
    started: float = field(default_factory=time.time)
    cancel_event: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def cancel(self) -> None:
        self.cancel_event.set()

    def wait(self, timeout: float | None = None) -> AskRun:
        if self.thread is not None:
            self.thread.join(timeout)
        return self


class AskService:
    """Asks for the app: documents of the knowledge base prepared once (per stored version),
    one asker per document and options (so later questions reuse the parts' KV prefixes), and
    asks run in background threads that report progress and can be cancelled. The last
    ``KEEP_RUNS`` asks are kept (with their results) for the screens to show."""

    KEEP_RUNS = 64

    def __init__(self, kb, chat: Callable[[], JsonChat]) -> None:
        self.kb, self._chat = kb, chat
        self._askers: dict[tuple, DocumentAsker] = {}
        self._runs: dict[int, AskRun] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def asker(self, name: str, options: AskOptions = AskOptions()) -> DocumentAsker:
        info = self.kb.document(name)  # KnowledgeBaseError names the documents there are
        key = (info.name, info.doc_hash, options.reading)
        with self._lock:
            asker = self._askers.get(key)
            if asker is None:
                doc = next((a.doc for k, a in self._askers.items() if k[:2] == key[:2]), None) or AskDocument.from_kb(
                    self.kb, name
                )
                asker = self._askers[key] = DocumentAsker(doc, self._chat(), options)
        return asker

    def start(self, name: str, question: str, options: AskOptions = AskOptions()) -> AskRun:
        """Start asking ``name``; a bad question or document is refused here, at once."""
        question = check_question(question)
        asker = self.asker(name, options)
        run = AskRun(next(self._ids), name, question, total=len(asker.parts))

        def progress(stage: str, done: int, total: int) -> None:
            run.done, run.total = done, total

        def work() -> None:
            try:
                run.result = asker.ask(question, window=options.window, progress=progress, cancel=run.cancel_event)
            except AskCancelled:
                run.cancelled = True
            except Exception as exc:  # the model or the file failed: the app shows why
                run.error = str(exc) if isinstance(exc, FileProblem) else f"{type(exc).__name__}: {exc}"

        run.thread = threading.Thread(target=work, name=f"ask-{run.id}", daemon=True)
        with self._lock:
            self._runs[run.id] = run
            for old in [i for i, r in self._runs.items() if not r.running][: max(0, len(self._runs) - self.KEEP_RUNS)]:
                del self._runs[old]
        run.thread.start()
        return run

    def run(self, run_id: int | None) -> AskRun | None:
        return self._runs.get(run_id) if run_id is not None else None


__all__ = [
    "AskCancelled",
    "AskDocument",
    "AskError",
    "AskOptions",
    "AskResult",
    "AskRun",
    "AskService",
    "AskTiming",
    "DocumentAsker",
    "Excerpt",
    "Found",
    "NOTHING",
    "Part",
    "Reading",
    "check_question",
]
