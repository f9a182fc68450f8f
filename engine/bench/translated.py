"""``bench translated``: the same questionnaire in another language drafted as its English original
is (issue #58), scored against the vendor's own answers.

The set is ``../shared/data/translated/`` (its README says how it was made and how to measure):
the Canvas Credentials HECVAT Full's questions in German, French, Spanish, Dutch and Japanese, with
the English original as control, each an XLSX with its language's own Yes/No dropdown. The store
holds the company's documents (the Instructure PDFs by folder scope) and, as the library, the
other products' filled questionnaires only: never Canvas Credentials' own HECVAT Full, which holds
the truth.

Per language, in one run with one model and one store: the share of rows drafted, the Yes/No
coverage and precision at that coverage (the label in the dropdown's words mapped to Yes/No),
beside English and always-Yes on the same rows; seconds per question; answers left in English
when the questionnaire's language is another; quotes verified in their source. And, without the
model, what each way of searching across languages finds (``retrieval``): the question as it is
(the English embedder and TF-IDF on German text) and the question translated by the model, each
against the English original's top passages (overlap of the top 5) and its library match (the
same reused past answer, or the same best past question).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Sequence

from engine.core.config import EngineConfig
from engine.core.types import DraftStatus
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.drafter import Drafter
from engine.drafting.generate import make_generator
from engine.drafting.records import Draft
from engine.drafting.sources import Asking
from engine.index.kb import KnowledgeBase
from engine.index.library import AnswerLibrary, has_library
from engine.index.profile import row_ids
from engine.questionnaire import Question, read_questionnaire
from engine.questionnaire.language import Language, QuestionnaireLanguage, detect, english_choice, language_of
from engine.questionnaire.qualifiers import question_key

LANGUAGES = ("de", "fr", "es", "nl", "ja")
TOP = 5  # passages compared between a translated question and its English original


@dataclass(frozen=True)
class TruthRow:
    """One row of the set's truth.jsonl: its HECVAT id, kind ("yesno" or "text"), the vendor's answer."""

    id: str
    kind: str
    answer: str


def load_truth(folder: Path) -> list[TruthRow]:
    path = folder / "truth.jsonl"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: not found; pass --dir the folder of the translated set (truth.jsonl)")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [TruthRow(r["id"], r["kind"], r["answer"]) for r in rows]


def chosen(truth: Sequence[TruthRow], yesno: int | None, text: int, ids: Sequence[str] = ()) -> list[TruthRow]:
    """The first ``yesno`` Yes/No rows (None: all 50) and the first ``text`` text rows, in sheet
    order; ``ids``: only those of them with these HECVAT ids (the rows a change touches)."""
    yes_no = [r for r in truth if r.kind == "yesno"][: yesno if yesno is not None else None]
    texts = [r for r in truth if r.kind == "text"][:text]
    keep = {r.id for r in yes_no + texts}
    unknown = sorted(set(ids) - {r.id for r in truth})
    if unknown:
        raise ValueError(
            f"--ids {', '.join(unknown)}: no such row in the set's truth.jsonl; use its ids (e.g. ITAC-03)"
        )
    return [r for r in truth if r.id in keep and (not ids or r.id in ids)]


def _hit_keys(drafter: Drafter, text: str) -> list[tuple[str, str]]:
    return [(h.chunk.doc, h.chunk.text[:80]) for h in drafter.retrieve(text).hits[:TOP]]


def _library_match(drafter: Drafter, q: Question, text: str) -> tuple[str | None, str | None]:
    """(the reused past answer's choice, or "-" when none is reused; the best past question's
    wording) for ``text``: entries of several products ask the same question, so the wording and
    the choice are compared, not the entry."""
    a = Asking(drafter, replace(q, text=text), question_key(q), 0.0)
    best = " ".join(a.past[0].entry.question.split()).casefold() if a.past else None
    return (english_choice(a.reuse.entry.choice) or a.reuse.entry.choice or "text") if a.reuse else "-", best


def _overlap(a: Sequence, b: Sequence) -> float:
    return len(set(a) & set(b)) / max(1, len(set(b)))


@dataclass
class LanguageRun:
    """One language's drafts and what they are scored on."""

    language: str
    drafts: list[tuple[TruthRow, Question, Draft]]
    seconds: float
    translation_calls: int = 0

    def figures(self, english: LanguageRun | None) -> dict:
        yes_no = [(t, q, d) for t, q, d in self.drafts if t.kind == "yesno"]
        said = [(t, english_choice(d.choice) if d.status is DraftStatus.DRAFTED else None) for t, _, d in yes_no]
        drafted = [(t, c) for t, c in said if c is not None]
        right = sum(c == english_choice(t.answer) for t, c in drafted)
        rows_drafted = sum(
            d.status is DraftStatus.DRAFTED and bool(d.answer.strip() or d.choice) for _, _, d in self.drafts
        )
        foreign = self.language != "en"
        with_text = [d for _, _, d in self.drafts if d.status is DraftStatus.DRAFTED and d.answer.strip()]
        in_english = [d for d in with_text if foreign and (d.untranslated or detect(d.answer).language is Language.EN)]
        own_words = sum(d.choice in q.choices for _, q, d in yes_no if d.choice and q.choices)
        quotes = [c for _, _, d in self.drafts if d.status is DraftStatus.DRAFTED for c in d.citations]
        per_q = [d.seconds for _, _, d in self.drafts]
        out = {
            "rows": len(self.drafts),
            "rows_drafted": rows_drafted,
            "share_drafted": round(rows_drafted / max(1, len(self.drafts)), 3),
            "yesno_rows": len(yes_no),
            "yesno_coverage": round(len(drafted) / max(1, len(yes_no)), 3),
            "yesno_precision": round(right / len(drafted), 3) if drafted else None,
            "always_yes": round(sum(english_choice(t.answer) == "Yes" for t, _ in said) / max(1, len(said)), 3),
            "choices_in_own_words": f"{own_words} of {sum(bool(d.choice) for _, _, d in yes_no)}",
            "answers_with_text": len(with_text),
            "left_in_english": len(in_english) if foreign else None,
            "quotes": len(quotes),
            "quotes_verified": sum(c.label is AnchorLabel.VERIFIED for c in quotes),
            "quotes_repaired": sum(c.label is AnchorLabel.REPAIRED for c in quotes),
            "seconds_per_question": round(statistics.mean(per_q), 2) if per_q else None,
            "seconds_median": round(statistics.median(per_q), 2) if per_q else None,
            "model_calls_translating": self.translation_calls,
        }
        if english is not None and english is not self:
            e = english.figures(None)
            out["vs_english"] = {
                "share_drafted": round(out["share_drafted"] - e["share_drafted"], 3),
                "yesno_coverage": round(out["yesno_coverage"] - e["yesno_coverage"], 3),
                "yesno_precision": round((out["yesno_precision"] or 0) - (e["yesno_precision"] or 0), 3),
                "drafted_of_english": round(rows_drafted / max(1, e["rows_drafted"]), 3),
                "time_ratio": round(out["seconds_per_question"] / e["seconds_per_question"], 2)
                if e["seconds_per_question"]
                else None,
                "same_choice": sum(
                    english_choice(d.choice) == english_choice(ed.choice)
                    for (_, _, d), (_, _, ed) in zip(self.drafts, english.drafts)
                    if d.choice or ed.choice
                ),
            }
        return out


def _draft_language(
    drafter: Drafter, path: Path, rows: Sequence[TruthRow], language: str, sink: IO[str] | None = None
) -> tuple[LanguageRun, list[Question]]:
    """Draft ``rows`` of the questionnaire at ``path``; each draft is written to ``sink`` (JSON lines)
    as soon as it is made, so that a run stopped early keeps the rows it drafted."""
    questionnaire = read_questionnaire(path)
    found = language_of(questionnaire)
    ids = {r.id for r in rows}
    questions = [x for x in questionnaire.questions if x.id in ids]
    by_id = {r.id: r for r in rows}
    d = drafter.for_language(QuestionnaireLanguage.of(found))
    before = drafter.translations.calls
    started = time.perf_counter()
    drafts = []
    ids_of = row_ids(questionnaire.questions)
    for i, q in enumerate(questions, 1):
        drafts.append((by_id[q.id], q, d.draft(q, ids_of, path)))
        print(f"{language}: {i}/{len(questions)} {q.id} {drafts[-1][2].choice!r}", file=sys.stderr, flush=True)
        if sink is not None:
            t, made = by_id[q.id], drafts[-1][2]
            sink.write(json.dumps({"lang": language, "truth": t.answer, **made.to_json()}, ensure_ascii=False) + "\n")
            sink.flush()
    run = LanguageRun(language, drafts, time.perf_counter() - started, drafter.translations.calls - before)
    return run, questions


def _retrieval(drafter: Drafter, english: LanguageRun, run: LanguageRun, language: Language) -> dict:
    """Each way of searching with a question in another language, against its English original:
    the question as it is, the model's translation, and the past question the model found the
    same (translation memory, the drafts' ``asked_as``): the top passages' overlap, the same
    reuse (a near-identical past answer reused, with the same choice, or none in both), the same
    best past question. Model-free: the translations are the drafts' (cached)."""
    ways: dict[str, list] = {"as_is": [], "translated": [], "memory": []}
    picked = 0
    for (_, eq, _), (_, q, d) in zip(english.drafts, run.drafts):
        en_hits = _hit_keys(drafter, eq.text)
        en_reuse, en_best = _library_match(drafter, eq, eq.text)
        first = drafter.translations.to_english(q.text, language, question=True)
        texts = {"as_is": q.text, "translated": first.text if first else q.text, "memory": d.asked_as or q.text}
        picked += texts["memory"] != texts["translated"]
        for way, text in texts.items():
            reuse, best = _library_match(drafter, q, text)
            ways[way].append((_overlap(_hit_keys(drafter, text), en_hits), reuse == en_reuse, best == en_best))
    n = len(run.drafts)
    return {"memory_picked": f"{picked} of {n}"} | {
        way: {
            "top5_overlap": round(statistics.mean(o for o, _, _ in rows), 3) if rows else None,
            "same_reuse": f"{sum(r for _, r, _ in rows)} of {n}",
            "same_best_past_question": f"{sum(b for _, _, b in rows)} of {n}",
        }
        for way, rows in ways.items()
    }


def bench_translated(
    store: str,
    folder: str,
    product: str | None,
    languages: Sequence[str] = LANGUAGES,
    yesno: int | None = 20,
    text: int = 0,
    model: str | None = None,
    llm_url: str | None = None,
    drafts_out: str | None = None,
    retrieval: bool = True,
    ids: Sequence[str] = (),
) -> dict:
    """Draft the English control and each language's XLSX of the translated set (see the module
    docstring) against ``store`` for ``product``; the first ``yesno`` Yes/No rows (None: all 50)
    and ``text`` text rows of each (``ids``: only these rows); the figures as a dict."""
    base = Path(folder)
    truth = load_truth(base)
    rows = chosen(truth, yesno, text, ids)
    kb = KnowledgeBase(Path(store), EngineConfig.from_env())
    kb.index  # a clear error when the store is empty
    library = AnswerLibrary(Path(store), lambda: kb.encoder) if has_library(store) else None
    generator = make_generator(model, llm_url)
    drafter = Drafter(kb, generator, library=library, product=product)
    kb.encoder  # loaded before any clock starts
    runs: dict[str, LanguageRun] = {}
    figures_of: dict[str, dict] = {}
    sink = open(drafts_out, "w", encoding="utf-8") if drafts_out else None  # noqa: SIM115 — written draft by draft
    for language in ("en", *languages):
        path = base / f"hecvat_canvas_credentials_{language}.xlsx"
        if not path.is_file():
            raise FileNotFoundError(f"{path}: not found; the translated set has de, fr, es, nl, ja and en")
        runs[language], _ = _draft_language(drafter, path, rows, language, sink)
        figures = runs[language].figures(runs["en"])
        figures["detected"] = _detected(path)
        if retrieval and language != "en":
            figures["retrieval"] = _retrieval(drafter, runs["en"], runs[language], Language(language))
        figures_of[language] = figures
        # each language's figures as soon as it is drafted: a run stopped early keeps the languages done
        print(json.dumps({language: figures}, ensure_ascii=False), file=sys.stderr, flush=True)
    if sink is not None:
        sink.close()
    out: dict = {
        "set": str(base),
        "product": product,
        "rows": {"yesno": sum(r.kind == "yesno" for r in rows), "text": sum(r.kind == "text" for r in rows)},
        "model": getattr(generator, "name", None),
        "library_entries": len(library.entries()) if library else 0,
        "languages": {},
    }
    out["languages"] = figures_of
    return out


def _detected(path: Path) -> str:
    found = language_of(read_questionnaire(path))
    return f"{found.language.value} ({found.counts.get(found.language.value, 0)} of {sum(found.counts.values())})"


__all__ = ["LANGUAGES", "bench_translated", "chosen", "load_truth"]
