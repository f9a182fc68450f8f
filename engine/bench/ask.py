"""``bench ask``: asking one document, on PolicyQA (the embedding-free paper's "chat with a
document" setting, scored the LegalBench-RAG way).

Each PolicyQA policy (its paragraphs joined in order, a blank line apart) is one document;
each question is asked of its own policy. The score is the character overlap of what a method
returns with the gold answer spans: precision = overlap / characters returned, recall =
overlap / gold characters, F1 their harmonic mean, per question, then averaged (a question
with nothing returned scores 0 on all three).

Methods, on the same questions:

* ``embedding-free quotes`` / ``embedding-free sentences``: ``engine.drafting.ask`` (the model reads
  the policy in parts of ``subdoc_words`` words and quotes, or numbers, the sentences that
  answer; anchored; ±``window`` sentence windows merged). The same readings are also scored
  with other windows (``window 0`` … ``window 2``), which costs no model call.
* ``hybrid top-k chunks``: this project's retrieval (the ``weighted`` mode: α·cos(MiniLM) +
  (1−α)·BM25/BM25max) over that policy's chunks only (the product's chunker: ≤ 254 MiniLM word
  pieces, 20 overlapping), k = 1, 2, 4.
* ``hybrid top-k sentence windows``: the same retrieval over the policy's sentences, each hit
  widened to ±``window`` sentences, overlapping windows merged (as the excerpts are).

``limit`` takes the questions in turn from each policy (the 1st of every policy, then the
2nd…), so a limit of 200 asks 10 questions of each of the 20 policies; ``policies`` then keeps
only the questions of the first P policies (a run cut short, see ``cache``, is reported that
way; ``cached_only`` scores just the questions the cache has readings of, without the model,
e.g. while a long run goes on). The model is asked policy by policy, each question in both forms, so a policy's parts are
read once per form. Timing is reported for the first question of each policy (its parts read for
the first time) and for the later ones (their KV prefixes reused: llama.cpp's own prefix match
and, across the forms and parts, the states kept by ``engine/drafting/generate/prefix_states.py``)."""

from __future__ import annotations

import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from tqdm import tqdm

from engine.bench.retrieval import SquadIndex
from engine.core.config import EngineConfig, Mode
from engine.core.types import SourceKind, Unit
from engine.drafting.ask import CONTEXT_TOKENS, AskDocument, AskOptions, DocumentAsker, Found, Reading
from engine.drafting.generate import make_generator
from engine.drafting.generate.models import resolve_model
from engine.drafting.generate.prompt import Evidence
from engine.index.chunking import Chunker
from engine.index.embed.dense import DenseEncoder

WINDOWS = (0, 1, 2)  # extra windows scored from the same readings
K = (1, 2, 4)

Range = tuple[int, int]


@dataclass(frozen=True)
class PolicyQuestion:
    id: str
    question: str
    policy: int
    gold: tuple[Range, ...]  # answer spans in the policy's text


@dataclass(frozen=True)
class Policy:
    title: str
    text: str
    questions: tuple[PolicyQuestion, ...]


def load_policyqa(path: str | Path) -> list[Policy]:
    """The policies, each one text (paragraphs joined by a blank line), with every question's
    answer spans moved to offsets in that text (checked: the text at the offsets is the answer)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    policies = []
    for p_index, article in enumerate(data["data"]):
        pieces, questions, offset = [], [], 0
        for paragraph in article["paragraphs"]:
            context = paragraph["context"]
            for qa in paragraph["qas"]:
                gold = []
                for a in qa.get("answers", ()):
                    start = a["answer_start"]
                    if context[start : start + len(a["text"])] != a["text"]:
                        raise ValueError(
                            f"{path}: answer of question {qa['id']} is not at its answer_start; "
                            "use the PolicyQA test.json as published"
                        )
                    gold.append((offset + start, offset + start + len(a["text"])))
                if gold:
                    questions.append(PolicyQuestion(qa["id"], qa["question"], p_index, tuple(merge(gold))))
            pieces.append(context)
            offset += len(context) + 2
        policies.append(Policy(article.get("title") or f"policy {p_index + 1}", "\n\n".join(pieces), tuple(questions)))
    return policies


def interleave(policies: Sequence[Policy], limit: int | None = None) -> list[PolicyQuestion]:
    """Questions taken in turn from each policy (its 1st, then its 2nd, …), the first ``limit``."""
    out: list[PolicyQuestion] = []
    longest = max((len(p.questions) for p in policies), default=0)
    for i in range(longest):
        for p in policies:
            if i < len(p.questions):
                out.append(p.questions[i])
    return out[:limit] if limit else out


# ---- scoring -----------------------------------------------------------------------------------
def merge(ranges: Sequence[Range]) -> list[Range]:
    """Ranges sorted, overlapping or touching ones joined, empty ones dropped."""
    out: list[list[int]] = []
    for start, end in sorted(r for r in ranges if r[1] > r[0]):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [(a, b) for a, b in out]


def overlap(a: Sequence[Range], b: Sequence[Range]) -> int:
    """Characters in both (each side merged first)."""
    total = 0
    for s1, e1 in merge(a):
        for s2, e2 in merge(b):
            total += max(0, min(e1, e2) - max(s1, s2))
    return total


@dataclass(frozen=True)
class Score:
    precision: float
    recall: float
    f1: float


def score(returned: Sequence[Range], gold: Sequence[Range]) -> Score:
    """Character precision, recall and F1 of ``returned`` against ``gold`` (0 when nothing is returned)."""
    got, want = sum(e - s for s, e in merge(returned)), sum(e - s for s, e in merge(gold))
    both = overlap(returned, gold)
    p = both / got if got else 0.0
    r = both / want if want else 0.0
    return Score(p, r, 2 * p * r / (p + r) if p + r else 0.0)


def summary(scores: Sequence[Score], returned: Sequence[Sequence[Range]]) -> dict:
    n = max(len(scores), 1)
    chars = [sum(e - s for s, e in merge(r)) for r in returned]
    return {
        "precision": round(100 * sum(s.precision for s in scores) / n, 2),
        "recall": round(100 * sum(s.recall for s in scores) / n, 2),
        "f1": round(100 * sum(s.f1 for s in scores) / n, 2),
        "answered": round(100 * sum(bool(r) for r in returned) / n, 1),  # share with anything returned
        "chars_returned": round(statistics.mean(chars), 1) if chars else 0.0,
    }


# ---- the benchmark -----------------------------------------------------------------------------
def bench_ask(
    policyqa: str,
    limit: int | None = None,
    policies_kept: int | None = None,
    evidence: Sequence[str] = tuple(e.value for e in Evidence),
    window: int = 5,
    subdoc_words: int = 3000,
    answer: bool = False,
    cache: str | None = None,
    embedder: str | None = None,
    model: str | None = None,
    llm_url: str | None = None,
    chat=None,
    encoder=None,
    cached_only: bool = False,
) -> dict:
    """The figures (see the module docstring). ``chat`` and ``encoder``: a model and a dense
    encoder already loaded (default: ``model`` / ``llm_url`` and ``embedder``)."""
    policies = load_policyqa(policyqa)
    forms = [Evidence.parse(e) for e in evidence]
    questions, rows, chat = _questions_to_ask(
        policies, limit, policies_kept, forms, cache, cached_only, subdoc_words, chat, model, llm_url
    )
    if not questions:
        raise ValueError(f"{policyqa}: no questions to ask (limit {limit})")
    used = sorted({q.policy for q in questions})
    docs = {i: AskDocument(policies[i].title, SourceKind.TEXT, [Unit(policies[i].text)]) for i in used}
    methods: dict[str, dict] = {}
    methods.update(_hybrid(policies, questions, docs, window, embedder, encoder))
    outside = {"excerpts": 0, "inside": 0}
    if forms:
        if chat is None:
            chat = make_generator(model, llm_url, n_ctx=CONTEXT_TOKENS)
        found = _read_all(questions, docs, forms, subdoc_words, answer, chat, cache, rows)
        for form in forms:
            methods.update(_embedding_free(form, found[form], questions, policies, window, outside))
    best_hybrid = max((m["f1"] for k, m in methods.items() if k.startswith("hybrid")), default=0.0)
    top4 = methods.get("hybrid top-4 chunks", {}).get("recall")
    return {
        "questions": len(questions),
        "limit": limit,
        "policies": len(used),
        "words_per_policy": round(statistics.mean(len(policies[i].text.split()) for i in used)),
        "window": window,
        "subdoc_words": subdoc_words,
        "model": getattr(chat, "name", None),
        "methods": methods,
        "excerpts_at_stated_offsets": round(100 * outside["inside"] / outside["excerpts"], 2)
        if outside["excerpts"]
        else None,
        "targets": {
            name: {
                "f1_over_best_hybrid": round(methods[name]["f1"] / best_hybrid, 2) if best_hybrid else None,
                "recall_minus_top4_recall": round(methods[name]["recall"] - top4, 2) if top4 is not None else None,
                "later_question_median_s": methods[name].get("s_later_median"),
            }
            for name in (f"embedding-free {f.value}" for f in forms)
        },
    }


def _questions_to_ask(
    policies: list[Policy],
    limit: int | None,
    policies_kept: int | None,
    forms: list[Evidence],
    cache: str | None,
    cached_only: bool,
    subdoc_words: int,
    chat,
    model: str | None,
    llm_url: str | None,
) -> tuple[list[PolicyQuestion], dict[tuple[str, str], dict], object]:
    """The questions in turn (``interleave``), of the first ``policies_kept`` policies; the cache's
    readings; and the model (``cached_only``: a stand-in naming it, and only the questions the
    cache has readings of in every form)."""
    questions = interleave(policies, limit)
    if policies_kept:
        questions = [q for q in questions if q.policy < policies_kept]
    rows: dict[tuple[str, str], dict] = {}
    if cached_only:
        if not cache:
            raise ValueError("--cached-only scores the readings of a cache; pass --cache FILE.jsonl")
        chat = chat or _NoModel(_model_name(model, llm_url))
    if cache:
        rows = read_cache(cache, subdoc_words, chat.name if chat is not None else _model_name(model, llm_url))
    if cached_only:
        questions = [q for q in questions if all((f.value, q.id) in rows for f in forms)]
    return questions, rows, chat


def _embedding_free(
    form: Evidence,
    runs: dict,
    questions: list[PolicyQuestion],
    policies: list[Policy],
    window: int,
    outside: dict[str, int],
) -> dict[str, dict]:
    """The figures of one evidence form's readings: at ``window`` (with timing and dropped quotes)
    and at the other ``WINDOWS``. ``outside`` counts the excerpts at ``window`` and those whose
    text is the policy's at their stated offsets."""
    name = f"embedding-free {form.value}"
    methods: dict[str, dict] = {}
    for w in (window, *[x for x in WINDOWS if x != window]):
        returned = []
        for q in questions:
            asker, f = runs[q.id][0], runs[q.id][1]
            excerpts = asker.excerpts(f, w)
            ranges = [(s.start, s.end) for e in excerpts for s in e.spans]
            if w == window:
                text = policies[q.policy].text
                for e in excerpts:
                    outside["excerpts"] += 1
                    outside["inside"] += all(text[s.start : s.end] == e.text for s in e.spans) and len(e.spans) == 1
            returned.append(ranges)
        scores = [score(r, q.gold) for r, q in zip(returned, questions)]
        key = name if w == window else f"{name}, window {w}"
        methods[key] = summary(scores, returned)
    readings = [runs[q.id][1] for q in questions]
    methods[name].update(_timing(readings, [runs[q.id][2] for q in questions]))
    methods[name]["dropped_quotes"] = sum(len(f.dropped) for f in readings)
    return methods


def _hybrid(policies, questions, docs, window: int, embedder: str | None, encoder=None) -> dict[str, dict]:
    """The project's weighted hybrid retrieval restricted to each question's policy: over its
    chunks (top 1/2/4) and over its sentences widened to windows (top 1/2/4)."""
    config = EngineConfig.from_env(embedder=embedder)
    encoder = encoder or DenseEncoder(config.embedder, config.batch_size)
    chunker = Chunker(encoder.token_counter(), encoder.chunk_tokens, config.chunk_overlap)
    returned = {f"hybrid top-{k} {what}": [] for what in ("chunks", "sentence windows") for k in K}
    order = {q.id: i for i, q in enumerate(questions)}
    slots: dict[str, list] = {name: [None] * len(questions) for name in returned}
    seconds = 0.0
    for p_index, doc in tqdm(docs.items(), desc="hybrid", file=sys.stderr):
        asked = [q for q in questions if q.policy == p_index]
        text = policies[p_index].text
        dense_q = encoder.encode_queries([q.question for q in asked])
        spans = chunker.spans(text)
        sentences = [(s.start, s.end) for s in doc.anchorer.sentences]
        t0 = time.perf_counter()
        chunk_top = SquadIndex([s.text for s in spans], [q.question for q in asked], dense_q, encoder, config).ranked(
            Mode.WEIGHTED, max(K)
        )
        sentence_top = SquadIndex(
            [text[a:b] for a, b in sentences], [q.question for q in asked], dense_q, encoder, config
        ).ranked(Mode.WEIGHTED, max(K))
        seconds += time.perf_counter() - t0
        for q, chunks, sents in zip(asked, chunk_top, sentence_top):
            for k in K:
                slots[f"hybrid top-{k} chunks"][order[q.id]] = [(spans[i].start, spans[i].end) for i in chunks[:k]]
                anchors = tuple(doc.sentence_anchor(i) for i in sents[:k])
                windows = doc.anchorer.windows(list(anchors), window)
                slots[f"hybrid top-{k} sentence windows"][order[q.id]] = [
                    (s.start, s.end) for w in windows for s in w.spans
                ]
    out = {}
    for name, ranges in slots.items():
        out[name] = summary([score(r, q.gold) for r, q in zip(ranges, questions)], ranges)
        out[name]["ms_per_question_with_indexing"] = round(1000 * seconds / len(questions), 1)
    return out


def read_cache(cache: str, subdoc_words: int, model: str | None) -> dict[tuple[str, str], dict]:
    """The cached readings of this model and part size, by (form, question id)."""
    path, done = Path(cache), {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                if row.get("subdoc_words") == subdoc_words and row.get("model") == model:
                    done[(row["evidence"], row["id"])] = row
    return done


def _model_name(model: str | None, llm_url: str | None) -> str:
    """The name an in-process model's readings are cached under (its GGUF file name)."""
    if llm_url:
        raise ValueError("--cached-only works with an in-process model's cache; pass --model NAME instead of --llm-url")

    return resolve_model(model).name


class _NoModel:
    """Stands where the model would, in a run that only scores cached readings."""

    def __init__(self, name: str) -> None:
        self.name = name

    def chat_json(self, *args, **kwargs):
        raise AssertionError("a --cached-only run asked the model")


def _read_all(questions, docs, forms, subdoc_words: int, answer: bool, chat, cache: str | None, done: dict):
    """Per form, per question id: (asker, Found, answer seconds or None). Questions in ``done``
    (read from ``cache``) are not asked again (their readings are anchored anew); new readings
    are appended to ``cache``."""
    askers = {
        (form, i): DocumentAsker(doc, chat, AskOptions(evidence=form, subdoc_words=subdoc_words))
        for form in forms
        for i, doc in docs.items()
    }
    path = Path(cache) if cache else None
    out: dict[Evidence, dict] = {form: {} for form in forms}
    bar = tqdm(total=len(questions) * len(forms), desc="asking", unit="question", file=sys.stderr)
    for q in sorted(questions, key=lambda q: q.policy):  # policy by policy: each read once per form
        for form in forms:
            asker = askers[(form, q.policy)]
            row = done.get((form.value, q.id))
            if row is None:
                found = asker.find(q.question)
                answer_s = None
                if answer:
                    excerpts = asker.excerpts(found)
                    t0 = time.perf_counter()
                    if excerpts:
                        asker.answer(q.question, excerpts)
                    answer_s = time.perf_counter() - t0
                row = {
                    "id": q.id,
                    "evidence": form.value,
                    "subdoc_words": subdoc_words,
                    "model": getattr(chat, "name", None),
                    "seconds": found.seconds,
                    "answer_seconds": answer_s,
                    "readings": [
                        {
                            "part": r.part,
                            "evidence": list(r.evidence),
                            "seconds": r.seconds,
                            "first": r.first,
                            "prompt_tokens": r.prompt_tokens,
                            "completion_tokens": r.completion_tokens,
                        }
                        for r in found.readings
                    ],
                }
                if path is not None:
                    with path.open("a", encoding="utf-8") as f:
                        f.write(json.dumps(row, ensure_ascii=False) + "\n")
            readings = tuple(
                Reading(
                    r["part"],
                    tuple(r["evidence"]),
                    r["seconds"],
                    r["prompt_tokens"],
                    r["completion_tokens"],
                    r["first"],
                )
                for r in row["readings"]
            )
            anchors, dropped = asker.anchor(readings)
            out[form][q.id] = (asker, Found(readings, anchors, dropped, row["seconds"]), row["answer_seconds"])
            bar.update(1)
    bar.close()
    return out


def _timing(found: Sequence[Found], answer_seconds: Sequence[float | None]) -> dict:
    """Seconds per question to find the excerpts: the first question of each policy (its parts
    read for the first time) and the later ones; the answer step's when it was run."""
    first = [f.seconds for f in found if f.first]
    later = [f.seconds for f in found if not f.first]
    answers = [s for s in answer_seconds if s is not None]
    out = {
        "first_questions": len(first),
        "later_questions": len(later),
        "s_first_median": round(statistics.median(first), 2) if first else None,
        "s_first_mean": round(statistics.mean(first), 2) if first else None,
        "s_later_median": round(statistics.median(later), 2) if later else None,
        "s_later_mean": round(statistics.mean(later), 2) if later else None,
        "prompt_tokens_first_mean": round(
            statistics.mean(sum(r.prompt_tokens for r in f.readings) for f in found if f.first), 1
        )
        if first
        else None,
    }
    if answers:
        out["answer_s_median"] = round(statistics.median(answers), 2)
    return out
