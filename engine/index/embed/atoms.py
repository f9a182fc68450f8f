"""Atomic units and synthetic questions (the atomic-units paper, Raina & Gales 2024).

A chunk is split into **atoms**, its sentences (``atoms``; the project's sentence splitter,
with fragments of fewer than ``MIN_ATOM_WORDS`` words such as "[citation needed]" merged into
their neighbour). Retrieval is question↔atom: a chunk's score is the best score of its atoms,
so the chunk of the best-matching atom wins (``MaxIndex``).

For each atom the local LLM can also write **synthetic questions** that the atom answers
(``synthetic_questions``; the chunk is given as context, as in the paper). Retrieval is then
question↔question: the chunk's score is the max over its atoms' questions (and, in
``bench retrieval``'s ``atom-questions`` mode, over its atoms too). Near-duplicate questions
are pruned by cosine distance (``prune``, threshold ``TAU``). Generation is slow on a CPU
(Qwen2.5-Coder-1.5B: 10–15 s per atom on 2 shared cores), so ``generate_questions`` draws a progress bar and
keeps every atom's questions in a JSONL cache as soon as they are written: a killed run
continues where it stopped.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from engine.core.llm import JsonChat
from engine.core.types import Progress
from engine.index.sentences import sentence_spans

MIN_ATOM_WORDS = 4  # shorter sentences ("[citation needed]", ":12", "Tesla stated,") are not atoms

# Cosine distance under which a synthetic question repeats one already kept. The paper prunes
# redundant questions by cosine distance without fixing a value we could use (DESIGN.md gives
# none); 0.1 (cosine similarity ≥ 0.9 with all-MiniLM-L6-v2) drops rewordings of the same
# question ("When did X die?" / "In what year did X die?") and keeps questions about
# different facts of the same sentence ("Where was X born?" is at 0.145 from "When did X die?").
# On the first 100 SQuAD dev paragraphs it pruned 29 % of SmolLM2's questions.
TAU = 0.1

QUESTIONS_PER_ATOM = 3
PROMPT_VERSION = 2  # part of the cache key: a changed prompt does not reuse old questions

# The prompt (version 2, written for the 1.5B default model): a system line, one worked example,
# then the chunk as context and the atom. For each fact the model first copies the answer (a short
# phrase of the statement), then writes the question it answers: answer-first, as SQuAD's
# questions were written, which makes it ask about different facts and name them. Version 1 asked
# for the questions alone and got "What was the name of the game?" from Qwen2.5-1.5B for the
# first Super Bowl 50 sentences, where version 2 gets "When was the Super Bowl 50 game played?".
# The schema forces 1–n {answer, question} objects whose question starts with a capital and ends
# in "?". A question sharing no content word with its atom is dropped (``grounded``): a small
# model sometimes copies the example's questions.
SYSTEM_PROMPT = (
    "You write quiz questions about one statement of a passage. For each of up to 3 different facts in "
    "the statement, first copy its answer (a short phrase of the statement: a name, number, date, place "
    "or thing), then write the question that this answer answers. A question stands on its own: it "
    "names its subject in full as the passage does (never 'the game', 'he', 'they' or 'it')."
)
EXAMPLE_PASSAGE = (
    "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris. "
    "It was completed in 1889 as the entrance arch to the World's Fair."
)
EXAMPLE_STATEMENT = "It was completed in 1889 as the entrance arch to the World's Fair."
EXAMPLE_QUESTIONS = [
    {"answer": "1889", "question": "When was the Eiffel Tower completed?"},
    {"answer": "the entrance arch", "question": "What did the Eiffel Tower serve as at the 1889 World's Fair?"},
    {"answer": "the World's Fair", "question": "For which event was the Eiffel Tower built?"},
]
_WORD = re.compile(r"[^\W_]+")
_FUNCTION_WORDS = frozenset(
    "what which when where whom whose does were have that this with from into than then they "
    "them their there these those been being about after before during much many kind name "
    "called type year years first also some other".split()
)


def atoms(text: str, min_words: int = MIN_ATOM_WORDS) -> list[str]:
    """The sentence atoms of ``text``, each an exact slice of it. A fragment of fewer than
    ``min_words`` words joins the atom before it (the first one joins the atom after it)."""
    spans = [list(s) for s in sentence_spans(text)]
    merged: list[list[int]] = []
    for span in spans:
        if merged and len(text[span[0] : span[1]].split()) < min_words:
            merged[-1][1] = span[1]
        else:
            merged.append(span)
    if len(merged) > 1 and len(text[merged[0][0] : merged[0][1]].split()) < min_words:
        merged[1][0] = merged[0][0]
        del merged[0]
    return [text[start:end] for start, end in merged]


class MaxIndex:
    """Unit vectors (atoms, questions), each owned by a passage. A query's score for a
    passage is its best cosine over the passage's vectors; passages without any score -inf.
    Exact (a matrix product), in memory."""

    def __init__(self, vectors: np.ndarray, owners: Sequence[int], passages: int) -> None:
        owners = np.asarray(owners, dtype=np.int64)
        if len(owners) != len(vectors):
            raise ValueError(f"{len(vectors)} vectors but {len(owners)} owners")
        order = np.argsort(owners, kind="stable")
        self.vectors = np.ascontiguousarray(vectors[order], dtype=np.float32)
        self.owners, starts = np.unique(owners[order], return_index=True)
        self.starts = starts
        self.passages = passages

    def scores(self, queries: np.ndarray) -> np.ndarray:
        """(queries × passages) max-pooled cosine scores."""
        out = np.full((len(queries), self.passages), -np.inf, dtype=np.float32)
        if len(self.vectors):
            sims = queries.astype(np.float32) @ self.vectors.T
            out[:, self.owners] = np.maximum.reduceat(sims, self.starts, axis=1)
        return out

    def search(self, queries: np.ndarray, k: int, batch: int = 256) -> list[list[int]]:
        """The ``k`` best passages of each query, best first."""
        ranked: list[list[int]] = []
        k = min(k, self.passages)
        for start in range(0, len(queries), batch):
            scores = self.scores(queries[start : start + batch])
            top = np.argpartition(-scores, k - 1, axis=1)[:, :k]
            order = np.argsort(-np.take_along_axis(scores, top, axis=1), axis=1, kind="stable")
            ranked.extend(np.take_along_axis(top, order, axis=1).tolist())
        return ranked


def prune(questions: Sequence[str], vectors: np.ndarray, tau: float = TAU) -> list[int]:
    """Indices of the questions kept, in order: a question within cosine distance ``tau``
    (1 − cosine of the unit vectors) of one already kept is dropped, as is a repeat up to
    case and spaces."""
    if not 0.0 <= tau <= 2.0:
        raise ValueError(f"tau {tau} is not a cosine distance (0–2); use e.g. {TAU}")
    kept: list[int] = []
    seen: set[str] = set()
    for i, question in enumerate(questions):
        key = " ".join(question.lower().split())
        if key in seen:
            continue
        if kept and float(np.max(vectors[kept] @ vectors[i])) >= 1.0 - tau:
            continue
        kept.append(i)
        seen.add(key)
    return kept


def prune_within(questions: Sequence[str], vectors: np.ndarray, owners: Sequence[int], tau: float = TAU) -> list[int]:
    """``prune`` applied to each passage's questions separately (the questions of all its
    atoms together: a repeat wins the same passage); the indices kept, in order."""
    groups: dict[int, list[int]] = {}
    for j, owner in enumerate(owners):
        groups.setdefault(owner, []).append(j)
    kept: list[int] = []
    for members in groups.values():
        kept.extend(members[k] for k in prune([questions[m] for m in members], vectors[members], tau))
    return sorted(kept)


def question_schema(n: int) -> dict:
    """``{"questions": [1–n {"answer": phrase, "question": "Capital … ?"}]}``. No length bounds:
    llama.cpp expands ``{m,n}`` and ``maxLength`` into grammars too large to load; ``max_tokens``
    bounds it."""
    item = {
        "type": "object",
        "properties": {
            "answer": {"type": "string", "pattern": '^[^"\\n]+$'},
            "question": {"type": "string", "pattern": '^[A-Z][^?\\n"]+[?]$'},
        },
        "required": ["answer", "question"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"questions": {"type": "array", "items": item, "minItems": 1, "maxItems": n}},
        "required": ["questions"],
        "additionalProperties": False,
    }


def question_messages(atom: str, context: str | None = None, n: int = QUESTIONS_PER_ATOM) -> list[dict]:
    """The chat messages asking for ``n`` questions about ``atom``. The passage comes before
    the atom, so consecutive atoms of one chunk share most of the prompt (llama.cpp reuses it)."""
    passage = f"Passage:\n{context.strip()}\n\n" if context else ""
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": f"Passage:\n{EXAMPLE_PASSAGE}\n\nStatement: {EXAMPLE_STATEMENT}"},
        {"role": "assistant", "content": json.dumps({"questions": EXAMPLE_QUESTIONS[:n]})},
        {"role": "user", "content": f"{passage}Statement: {atom.strip()}"},
    ]


def grounded(question: str, atom: str) -> bool:
    """Whether ``question`` shares a content word (4+ characters, not a function word) with ``atom``."""
    words = {w for w in _WORD.findall(atom.lower()) if len(w) >= 4 and w not in _FUNCTION_WORDS}
    return any(w in words for w in _WORD.findall(question.lower()))


def synthetic_questions(
    chat: JsonChat, atom: str, n: int = QUESTIONS_PER_ATOM, context: str | None = None
) -> list[str]:
    """Up to ``n`` distinct questions the local LLM writes for ``atom`` (with the chunk it
    comes from as ``context``), those not ``grounded`` in the atom dropped; an unparsable
    reply gives none."""
    reply = chat.chat_json(question_messages(atom, context, n), question_schema(n), max_tokens=70 * n)
    try:
        data = json.loads(reply.text)
    except ValueError:
        return []
    found = data.get("questions") if isinstance(data, dict) else None
    items = [x.get("question") for x in found if isinstance(x, dict)] if isinstance(found, list) else []
    questions = [" ".join(q.split()) for q in items if isinstance(q, str)]
    return list(dict.fromkeys(q for q in questions if grounded(q, atom)))[:n]


class QuestionCache:
    """A JSONL file, one line per atom: ``{"key": …, "questions": […]}``. Lines are appended
    and flushed one by one; a last line cut off by a kill is ignored on reading."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = Path(path) if path else None
        self.entries: dict[str, list[str]] = {}
        self._cut = False  # the file ends in a half-written line: the next one starts on a new line
        if self.path and self.path.is_file():
            text = self.path.read_text(encoding="utf-8")
            self._cut = bool(text) and not text.endswith("\n")
            for line in text.splitlines():
                try:
                    entry = json.loads(line)
                    self.entries[entry["key"]] = list(entry["questions"])
                except (ValueError, KeyError, TypeError):
                    continue

    def get(self, key: str) -> list[str] | None:
        return self.entries.get(key)

    def put(self, key: str, questions: list[str]) -> None:
        self.entries[key] = questions
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as f:
                f.write(
                    ("\n" if self._cut else "")
                    + json.dumps({"key": key, "questions": questions}, ensure_ascii=False)
                    + "\n"
                )
            self._cut = False


def cache_key(generator: str, atom: str, context: str | None, n: int) -> str:
    """Identifies one generation: the model, prompt version, n, the chunk and the atom."""
    text = json.dumps([PROMPT_VERSION, generator, n, context or "", atom], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Generation:
    """Questions per item, and what it took: atoms generated now (the rest came from the
    cache) and the seconds spent generating them."""

    questions: list[list[str]]
    generated: int
    seconds: float

    @property
    def seconds_per_atom(self) -> float | None:
        return self.seconds / self.generated if self.generated else None


QUESTIONS_STAGE = "writing questions"  # the progress stage of generate_questions


def generate_questions(
    chat: JsonChat,
    items: Sequence[tuple[str, str | None]],
    n: int = QUESTIONS_PER_ATOM,
    cache: str | Path | None = None,
    progress: bool | Progress = True,
) -> Generation:
    """Synthetic questions for every ``(atom, context)``, from the cache when there, else
    generated and appended to it at once (so an interrupted run resumes). ``progress``: a
    tqdm bar on stderr (True), none (False), or a ``progress(stage, done, total)`` callback."""
    from tqdm import tqdm

    store = QuestionCache(cache)
    keys = [cache_key(chat.name, atom, context, n) for atom, context in items]
    missing = [i for i, key in enumerate(keys) if store.get(key) is None]
    generated, seconds = 0, 0.0
    report = progress if callable(progress) else None
    done = len(items) - len(missing)
    with tqdm(
        total=len(items),
        initial=done,
        desc="synthetic questions",
        unit="atom",
        file=sys.stderr,
        disable=progress is not True,
        dynamic_ncols=True,
    ) as bar:
        if report:
            report(QUESTIONS_STAGE, done, len(items))
        for i in missing:
            if store.get(keys[i]) is None:  # the same atom twice: generated once
                atom, context = items[i]
                start = time.perf_counter()
                store.put(keys[i], synthetic_questions(chat, atom, n, context))
                seconds += time.perf_counter() - start
                generated += 1
            bar.update(1)
            done += 1
            if report:
                report(QUESTIONS_STAGE, done, len(items))
    return Generation([store.get(key) or [] for key in keys], generated, seconds)


@dataclass(frozen=True)
class AtomUnits:
    """The atoms of some passages and the kept synthetic questions of those atoms, with their
    unit vectors; ``*_owners`` give each one's passage (its index in the list given)."""

    atoms: list[str]
    atom_owners: list[int]
    atom_vectors: np.ndarray
    questions: list[str]
    question_owners: list[int]
    question_vectors: np.ndarray
    generation: Generation | None = None  # how the questions were written (None: no questions)
    questions_written: int = 0  # before pruning

    def index(self, passages: int, questions: bool = True) -> MaxIndex:
        """question↔atom (``questions=False``) or question↔(atoms and their questions)."""
        if not questions:
            return MaxIndex(self.atom_vectors, self.atom_owners, passages)
        if not len(self.question_vectors):
            return MaxIndex(self.atom_vectors, self.atom_owners, passages)
        vectors = np.concatenate([self.atom_vectors, self.question_vectors])
        return MaxIndex(vectors, list(self.atom_owners) + list(self.question_owners), passages)

    def questions_index(self, passages: int) -> MaxIndex:
        """question↔synthetic question alone."""
        return MaxIndex(self.question_vectors, self.question_owners, passages)


def build_atom_units(
    passages: Sequence[str],
    encoder,
    chat: JsonChat | None = None,
    n: int = QUESTIONS_PER_ATOM,
    tau: float = TAU,
    cache: str | Path | None = None,
    progress: bool | Progress = True,
) -> AtomUnits:
    """Split each passage into atoms and encode them; with ``chat``, also write up to ``n``
    questions per atom (the passage as context; cached in ``cache``), encode them and prune
    those within cosine distance ``tau`` of one kept for the same passage."""
    units = [(atom, i) for i, passage in enumerate(passages) for atom in atoms(passage)]
    texts = [atom for atom, _ in units]
    owners = [i for _, i in units]
    vectors = _encode(encoder, texts, progress)
    empty = np.zeros((0, vectors.shape[1] if vectors.ndim == 2 else encoder.dim), dtype=np.float32)
    if chat is None:
        return AtomUnits(texts, owners, vectors, [], [], empty)
    generation = generate_questions(
        chat, [(atom, passages[i]) for atom, i in units], n=n, cache=cache, progress=progress
    )
    written = [q for qs in generation.questions for q in qs]
    written_owners = [i for qs, (_, i) in zip(generation.questions, units) for _ in qs]
    q_vectors = _encode(encoder, written, progress)
    kept = prune_within(written, q_vectors, written_owners, tau)
    return AtomUnits(
        texts,
        owners,
        vectors,
        [written[j] for j in kept],
        [written_owners[j] for j in kept],
        q_vectors[kept] if kept else empty,
        generation,
        len(written),
    )


def _encode(encoder, texts: list[str], progress: bool | Progress) -> np.ndarray:
    if not texts:
        return np.zeros((0, encoder.dim), dtype=np.float32)
    return encoder.encode_passages(texts, progress=progress is True)
